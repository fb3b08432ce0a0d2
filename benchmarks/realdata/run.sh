#!/bin/sh
# Build patterns.cpp (g++ -O2) and measure paper 001's atoms and compositions on this machine.
#
#   benchmarks/realdata/run.sh [OUTDIR]        (default: benchmarks/realdata/data)
#   CALIBRATION=1 benchmarks/realdata/run.sh [OUTDIR]    (default OUTDIR: ./calibration)
#
# Writes OUTDIR/atoms.txt and OUTDIR/compositions.txt (Extra-P text files, ns per data
# element), OUTDIR/load.txt (/proc/loadavg before each repetition) and OUTDIR/machine.txt
# (date, compiler, the terms and sizes, cores: the CPUs this run may use (nproc), uptime
# before and after, the timing window of every term at every size, lscpu). With PRIORITY=1 (the default) the run gets its own session and
# raises its scheduling weight (autogroup nice -20, nice -20) where allowed, so that other
# load on the machine distorts less; PRIORITY=0 runs at normal weight.
#
# Options (environment variables):
#   REPS=N          repetitions (default 10; 3 with CALIBRATION=1)
#   SIZES="A B ..." the array sizes x (default 1024 .. 262144, powers of 2; with
#                   CALIBRATION=1 4096 .. 262144)
#   TERMS="T;T;..." the terms, separated by ';' (default: 3 atoms and 21 compositions; with
#                   CALIBRATION=1 the atoms and the 6 calibration compositions, and on N > 2
#                   cores tpool_N(qsort))
#   CALIBRATION=1   the calibration preset: what `patternalg calibrate` needs (docs/machine.md),
#                   about a minute on an idle 2-core machine
#
# A run of the default 10 repetitions takes about 12 minutes; then
#   patternalg calibrate OUTDIR/atoms.txt OUTDIR/compositions.txt --out machine.toml
# reads the core count from OUTDIR/machine.txt.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
priority=${PRIORITY:-1}
if [ "${CALIBRATION:-0}" = 1 ]; then
    out=${1:-calibration}
    reps=${REPS:-3}
    sizes=${SIZES:-"4096 8192 16384 32768 65536 131072 262144"}
    # on more than 2 cores, a pool of them all too: a speed-up fitted on tpool_2(qsort) alone
    # is extrapolated in threads up to the cores (docs/machine.md)
    cores=$(nproc)
    widest=""
    if [ "$cores" -gt 2 ]; then widest=";tpool_$cores(qsort)"; fi
    terms=${TERMS:-"nop;inc;qsort;pipe(inc, inc);pipe(inc, nop);seq(inc, inc);tpool_2(qsort);tpool_2(inc);tpool_2(nop)$widest"}
else
    out=${1:-$here/data}
    reps=${REPS:-10}
    sizes=${SIZES:-"1024 2048 4096 8192 16384 32768 65536 131072 262144"}
    terms=${TERMS:-"nop;inc;qsort;\
seq(qsort, nop);seq(qsort, inc);seq(inc, qsort);seq(inc, inc);seq(inc, nop);\
tpool_1(qsort);tpool_2(qsort);tpool_4(qsort);tpool_2(inc);\
pipe(qsort, nop);pipe(qsort, inc);pipe(inc, qsort);pipe(inc, inc);pipe(inc, nop);\
pipe(pipe(qsort, inc), nop);pipe(tpool_2(qsort), tpool_2(inc));\
tpool_2(pipe(qsort, inc));tpool_2(seq(qsort, inc));\
tpool_1(inc);tpool_4(inc);tpool_2(nop)"}
fi
mkdir -p "$out"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
g++ -O2 -std=c++17 -Wall -Wextra -pthread -o "$build/patterns" "$here/patterns.cpp"

# the terms as arguments, one each (split at ';' only: a term has spaces and commas)
set -f
old_ifs=$IFS
IFS=';'
set -- $terms
IFS=$old_ifs
set +f

{
    echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "compiler: $(g++ --version | head -n 1), flags -O2 -std=c++17 -pthread"
    echo "repetitions: $reps, sizes: $sizes"
    echo "terms: $terms"
    echo "cores: $(nproc)"
    echo "source: patterns.cpp sha256 $(sha256sum "$here/patterns.cpp" | cut -d ' ' -f 1)"
    echo "uptime before: $(uptime)"
} >"$out/machine.txt"

if [ "$priority" = 1 ]; then
    # a new session is a new autogroup: its nice value only concerns this run
    setsid sh -c 'echo -20 >/proc/self/autogroup 2>/dev/null \
        && echo "priority: own autogroup at nice -20" >>"$0/machine.txt" \
        || echo "priority: normal (autogroup nice not allowed)" >>"$0/machine.txt"
        shift; nice -n -20 true 2>/dev/null && exec nice -n -20 "$@"; exec "$@"' \
        "$out" _ "$build/patterns" "$out" "$reps" $sizes -- "$@"
else
    echo "priority: normal" >>"$out/machine.txt"
    "$build/patterns" "$out" "$reps" $sizes -- "$@"
fi

{
    echo "uptime after: $(uptime)"
    echo "order: within a repetition, every term at one size before the next size, the terms in"
    echo "  an order drawn anew (seeded) for each repetition and size (patterns.cpp)"
    echo "timing window: whole rounds of each term's widest pool w (the threads taking arrays"
    echo "  from one queue), at least 4 rounds timed; per size: arrays per stream/timed from"
    echo "  the completion of array k; a term of nop alone (which touches no array) is"
    echo "  lengthened, passing the same arrays again, until its window lasts 1 ms"
    sed -e '/^#/d' -e 's/^/  /' "$out/window.txt"
    rm -f "$out/window.txt"
    echo
    echo "lscpu:"
    lscpu
} >>"$out/machine.txt"
