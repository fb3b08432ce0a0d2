"""A long fuzzing campaign through every command (issue 16): >= 100,000 inputs by default.

Each input is a command line (with its files) run in-process through ``patternalg.cli.main``
in a worker process, with a per-input timeout (SIGALRM). A parent watchdog kills a worker that
stops answering (a hang in C code) and records the input as a hang. Per input the outcome is:

- ``traceback``: an exception other than SystemExit escaped ``main``;
- ``hang``: the input ran longer than ``--timeout`` seconds;
- ``wrong exit``: exit status not 0/1/2, or status 2 without exactly one ``error:`` line on
  stderr (or with a result on stdout), or control characters in an error line;
- ``data loss``: ``fit/predict --out`` over an existing file failed but changed it, succeeded
  but left an unreadable model file, or left a temporary file behind; ``--out`` (``plot -o``)
  onto a symbolic link, a directory or a FIFO replaced it by a regular file or wrote nothing
  with exit 0; an empty ``--out ""`` was ignored with exit 0.

Classes beyond single commands (issue 29): ``decide`` (sweep, compare, optimize and explore
on random terms, grids, budgets and ``--at`` values: huge integers, expressions), ``deep``
(every command on ``deep(T, N)``, a construct T nested N deep, N up to 10,000, and on flat
constructs of 1,000 stages), ``api`` (the Python API with wrong-typed arguments:
``benchmarks/api_misuse.py``; an exception other than TypeError, ValueError or
PatternalgError is a traceback) and ``--out`` (onto links, directories, FIFOs).

The newer surfaces (issue 40, ``fuzz_surfaces.py``): machine files, ``calibrate`` and
``validate``, ``--interval``/``--seed``, uncertainty tables, the harness readers, ``measure``
and odd files (devices, huge, binary, nested too deep); there an input's own files (``keep``)
must be the same after the run, whatever its status, and no file named ``-`` may appear.
Measured 2026-11-28 (issue 40), ``--only`` those eight classes, ``--scale 1.0 --workers 2``:
seed 0, 30,000 inputs in 232 s: 0 hangs, 0 wrong exit codes, 0 data loss, 8 tracebacks (a TOML
integer of more than 4,300 digits in a machine or model file, 7; a machine.txt recording
10^40 cores, 1); seed 1, 30,000 inputs in 248 s: 4 tracebacks (``calibrate --cores
2097152``); seed 2, ``calibrate``: 1 (sizes near 1e308 overflowing the fit); seed 4, 30,000
inputs in 117 s: 1 hang (a hand-off ``2^(x^x)`` evaluated at x = 10^6). Each fixed with a
test in ``tests/test_surfaces.py``; the classes run again (seeds 0 to 5): 0 of each. Every
class at ``--scale 0.1`` (seed 7, 14,251 inputs in 85 s): 1 hang, ``eval --explain`` of a
mapReduce 10,000 deep (41.6 s: each node's label printed its whole sub-term; 18 s since, the
``deep`` class again at ``--scale 0.2``: 100 inputs, 0 hangs).
Measured 2026-11-28 (issue 38, fourth round), ``--only deep --scale 0.4 --workers 2``, seed 17,
200 inputs: 5 over 30 s with the test suite beside it; alone, ``eval`` of ``tpool_n`` 10,000
deep at n = 2 took 38 s (every sub-term's expression built for a value that needs none: 2.4 s
since), ``optimize`` of a ``mapReduce`` 10,000 deep 44 s (the closed form folded beside each
candidate's value: 24 s since), ``eval --explain`` of ``mapReduce_{1,1}^{1,1}`` 10,000 deep
35 s and of ``mapReduce`` 19 s (the point folded twice: 21 s since for the first), and
``compare`` of a ``mapReduce_{2,n}`` 3,000 deep a ``RecursionError`` traceback after 14 s
(with n free each level nests its coefficient in the last: the counts are bound first
since, 5.9 s, and a closed form that still cannot be built is one line). Seed 17 again after the first two: 1 of 200, that ``compare``; seed 19 after all
three: 0 of 200 (331 s). Every class at ``--scale 0.1`` (seed 18, 14,251 inputs in 114 s):
0 of each.
Measured 2026-11-28 (issue 38, fifth round): every class at ``--scale 0.15`` (seed 23, 21,377
inputs in 114 s): 1 traceback, ``explore --machine m.toml --cores 1048576`` where the file's
speed-up ``(1000000 - p)/999999`` is no speed-up on that many cores (a ValueError from the
machine's own check; one line since, tested in ``tests/test_machine.py``); every class at
``--scale 0.25`` (seed 24, 35,628 inputs in 225 s) and ``--only machine --only calibrate
--scale 1.0`` (seeds 25 and 26, 11,000 inputs each): 0 of each. Every class at ``--scale
0.4`` (seed 27, 57,004 inputs in 361 s): 1 traceback, ``eval @FILE`` whose path holds a NUL character (from
``main([...])`` only: a shell's argv cannot hold one), a ValueError of the file functions;
``main`` refuses such an argument in one line since (``tests/test_cli.py``). Seed 28, every
class at ``--scale 0.4`` after the fixes: 57,004 inputs in 421 s, 0 of each.
Measured 2026-11-28 (issue 38, sixth round): every class at ``--scale 0.4`` (seed 29, 57,004
inputs in 340 s): 1 hang in ``deep``, not repeated with one worker; timed one by one, its
slowest inputs were ``optimize`` of a ``mapReduce`` 10,000 deep (24.8 s: each candidate was
folded whole to name a bottleneck it does not have; 7.0 s since) and ``compare`` of a
``mapReduce_{1,1}^{1,1}`` 10,000 deep (18.8 s: the command parsed each term twice; 15.0 s
since, the rest the closed form the asymptotic winner needs). After the bootstrap's moments
were reweighted, ``--only`` fit, uncertainty, interval, validate, calibrate and amdahl at
``--scale 0.5`` (seed 30, 12,500 inputs in 43 s): 2 tracebacks, a ``LinAlgError`` from
measurements near 1e306 whose draws' moments overflow (no uncertainty since, as before;
``tests/test_uncertainty_fit.py``); seeds 30 and 31 again: 0 of each. Every class at
``--scale 0.25`` (seed 32, 35,628 inputs in 210 s): 0 of each.
Measured 2026-11-28 (issue 38, seventh round): every class at ``--scale 0.25`` (seed 33, one
worker, 35,628 inputs in 354 s): 0 of each. By hand, ``eval`` of ``tpool_2(pipe(...,
nop))`` 10,000 deep took 47 s (sympy's hash of a number repeats every 61 halvings, and the
dominance cache's normal forms shared 61 buckets; 1.9 s since): ``deep`` has that construct
since (``pool_in_pipe``); ``--only deep --scale 0.5`` (seed 34, 250 inputs in 170 s) and, after
the fixes of free counts nested deep, every class at ``--scale 0.2`` (seed 35, 28,502 inputs
in 291 s): 0 of each.
Measured 2026-11-28 (issue 38, eighth round), after ``validate`` gained the halves of the
repetitions and ``fuzz_surfaces`` measures 1 to 8 of them: the four classes that read
measurements (``validate``, ``calibrate``, ``interval``, ``harness``) at ``--scale 1.0`` (seed 36,
16,000 inputs in 75 s) and every class at ``--scale 0.3`` with one worker (seed 37, 42,753
inputs in 425 s), then every class at ``--scale 0.5`` with two workers (seed 38, 71,256
inputs in 380 s): 0 of each. After a term's parameters were bounded (64 operations and
operands, 1,000 expanded terms), every class at ``--scale 0.15`` with two workers (seed 39,
21,377 inputs in 135 s): 0 of each.
Measured 2026-11-28 (ninth round), after counts became whole numbers >= 1 in the closed forms
and ``optimize`` sized a budget by its simplex: every class at ``--scale 0.2`` (seed 40, 28,502
inputs in 217 s): 1 traceback, ``optimize`` with a budget ``2*b+3*c<1e300`` whose simplex
bound overflowed a float; ``--only decide,eval,optimize,explore,compare,sweep,deep,check``
at ``--scale 1.0`` (seed 41, 62,500 inputs in 540 s): 10 tracebacks, all ``optimize`` with a
budget no count meets (``a<1``: the logarithm of an empty box); both fixed, with tests.
``--only decide,optimize`` (seed 42, 3,500 inputs): 1 traceback, ``compare`` over
``n=16..1.7e308`` (the middle of a count range as ``sqrt(16 * 1.7e308)``, an overflow there
before this round; fixed); ``--only decide,optimize,compare,sweep,explore`` (seed 43, 6,000
inputs in 30 s) and every class at ``--scale 0.2`` (seed 44, 28,502 inputs in 155 s): 0 of each.
Measured 2026-11-28/29 (every class at ``--scale 0.2``, ``--workers 1``): seed 45 (287 s), 1
traceback in ``decide``: ``explore ... --at x=1e308`` overflowed the exact bounds of a count's
coefficient (a fraction made a float beside inf); fixed, with a test. Seed 46 (361 s): 0 of
each. Seed 47 on the final code (335 s): 1 hang in ``deep`` (an input over its 30 s beside the
other classes; the class alone, 100 inputs in 130 s: 0 hangs). 2026-11-29, after ties to
rounding and the flattened asymptotic max (``--workers 2``): seed 48, 28,502 inputs in 173 s,
0 of each. Seed 49 (185 s): 1 traceback in ``decide``, ``compare`` over x of a mapReduce
whose size per key no model read (``^{parsec_canneal,x}`` beside a constant reduce: a
KeyError); fixed, with tests (the class again: 0).
Later on 2026-11-29: seed 60 (``--scale 0.2``) 1 hang, a model ``2^(2^64*n)`` simplified
into a power of ``2^(2^64)``; seed 61 (0.3) 1 hang, ``compare`` finding a crossover at every
scan point where two designs were equal to rounding; both fixed, with tests; seed 62 (0.2)
and seed 63 (every class at 1.0, 142,511 inputs in 780 s): 0 of each. Seed 64 (0.5, one
worker, 71,256 inputs in 736 s): 0 of each; the ``harness`` class, which since then also
edits the vendored text reports (CSV and console tables of Google Benchmark, hyperfine and
pytest-benchmark), seed 65 (0.5, 2,000 inputs): 0 of each. Seed 66 (every class at 0.3):
42,753 inputs in 556 s, 0 of each; seed 67 (0.5, two workers): 71,256 inputs in 367 s, 1
traceback (an iteration count of 5,000 digits in a Google Benchmark table, int()'s limit),
and the ``harness`` class alone at 1.0: 1 hang (a row of thousands of digits: the row
patterns split a number's digits two ways, cubic time); seed 70, ``harness`` at 1.0: 1
traceback (a hyperfine command with blanks around it); each fixed with a test; ``harness``
at 1.0, seeds 67 to 76: 0 of each since. Seed 77 (0.4): 57,004 inputs in 285 s, seed 78 (0.5,
one worker): 71,256 inputs in 750 s, 0 of each; after formats read from their path became one
kind of reader (``PathReader``), seed 79 (``fit``, ``harness`` and ``files`` at 1.0): 13,500
inputs, 0 of each; after summaries stated their spread, seed 80 (the same and ``calibrate``):
16,500 inputs, 0 of each (a mutation of the summaries' statistics alone, 4,500 fits, found one
traceback, a count of 10^300 rounds: fixed, with a doctest). Seed 81 (every class at 0.3, on
the final code with CSV tables of summaries): 42,753 inputs in 419 s, 0 of each; seeds 82 to
84 (``harness``, ``files`` and ``fit`` at 1.0, with pandas' CSV headers): 40,500, 0 of each.
Seed 85 (every class at 0.3): 42,753 inputs in 181 s with two workers; seed 86 (the same, one
worker, each atom's measurement noise drawn through the term): 42,753 in 493 s, 0 of each.
With repetition numbers and timestamps in the CSV files and ``--parameters`` (seed 87, ``fit``
at 1.0): 8,000 inputs, 0 of each; seed 88 (every class at 0.3, atoms over n composed as over x):
42,753 in 222 s, 0 of each. With calibrated machine files whose numbers intervals draw
(``fuzz_surfaces``: covariance records, ``--interval`` on the machine class): seed 90
(``machine``, ``validate`` at 0.5) 6,000 inputs, 0 of each; seed 91 (the same at 1.0), 12,000
inputs: 1 hang, a mutated hand-off ``y^10^-11010^...`` 36 levels high (sympy's exact evaluation
of a tower of powers of numbers doubles its time with each level; more than 4 levels are one
line since, ``tests/test_surfaces.py``), again: 0 of each; seed 92 (every class at 0.3): 42,753
in 244 s, 0 of each; seed 93 (``machine``, ``validate``, ``calibrate`` at 0.6): 9,000, 0 of each;
seed 94 (every class at 0.3, calibrate's trial machines drawn as an interval's): 42,753 in
211 s, 0 of each. With the width factor counted by kept shares (seed 95: ``machine``,
``calibrate``, ``validate`` at 0.5, 7,500 inputs) and width records with a factor beyond in
the machine files (seed 96: ``machine``, ``validate`` at 1.0, 12,000 inputs in 57 s): 0 of each.
Seed 97 (every class at 0.3): 42,753 inputs in 221 s, 1 traceback: ``check`` of ``tpool_n``
10,000 deep (11 to 21 s alone) passed the 30 s timeout beside the other classes, and
hypothesis reported the alarm as a flaky failure (its replay, without the alarm, passed);
an input whose exception came from the timeout is a hang since (``_timed_out``); the
``deep`` class alone on that seed: 150 inputs in 150 s, 0 of each. Seed 98 (every class at
0.3, with the law checker's values below a double's range decided exactly): 42,753 inputs
in 237 s, 0 of each. Seed 116 (every class at 0.15, 2026-11-30): 21,377 inputs, 1 traceback,
``explore --interval`` on a model file whose uncertainty's noise is 1e308 (its square
overflowed a Python float; fixed, ``tests/test_intervals.py``); seeds 117 (0.1) and 118 (0.2):
14,251 and 28,502 inputs, 0 of each; with calibration data in any unit of time (``time_s``,
``time_us``, ``time_ms``), seed 119 (``machine``, ``calibrate``, ``validate``, ``interval`` at
1.0): 20,000 inputs in 61 s, 0 of each; with ``optimize --threads`` (238 of the inputs),
seed 120 (``decide``, ``optimize`` at 1.0): 3,500 inputs, and with a design's threads one
flat maximum, seed 121 (``decide``, ``optimize``, ``deep``, ``machine`` at 0.5): 6,000
inputs in 157 s, 0 of each; with a pool of a sequence dividing each part by its own
speed-up, seed 122 (every class at 0.15): 21,377 inputs in 72 s, 0 of each; with pools
within pools running the atom on all their threads, seed 123 (``decide``, ``deep``,
``machine``, ``interval``, ``calibrate`` at 0.5): 9,750 inputs in 169 s, and the ``deep``
class with a machine of speed-ups on 3 in 10 inputs and a pool of a sequence nested, seed
124 (0.6): 300 inputs in 203 s, 0 of each; seed 125 (``deep``, ``decide``, ``machine`` at
0.4) then found 2 hangs, ``compare`` of ``tpool_n`` and of a ``mapReduce`` 10,000 deep on that
machine (28 and 41 s; the latter as slow before, on any machine: sympy's ``Min`` of a
mapReduce's free threads per node against the cores, built 80,000 times, is built once per
count since, 6.9 s), and ``deep`` again at 0.4 (seed 125, 155 s) and 0.6 (seed 126, 300
inputs in 229 s): 0 of each. Measured 2026-11-30: every class at 0.15 (seed 128, 21,377
inputs in 138 s, one worker), and with explore's designs valued in their pools' contexts and
a pool of one its body's own stream, ``decide``, ``deep``, ``machine``, ``interval`` at 0.3
(seed 129, 4,950 inputs in 107 s), every class at 0.2 and 0.15 (seeds 130 and 131, 28,502
and 21,377 inputs in 188 and 190 s), and with explore's rewrites checked between whole
designs and sweep's bottleneck as the fold compares stages, ``sweep``, ``decide``, ``deep``,
``machine``, ``interval`` at 0.3 (seed 132, 5,250 inputs in 111 s), and with the cores as a
bottleneck, ``eval``, ``compare``, ``sweep``, ``optimize``, ``explore``, ``decide``, ``deep``,
``machine``, ``interval`` at 0.3 (seed 133, 22,350 inputs in 101 s): 0 of each. With explore's
designs valued by the one fold, ``explore``, ``decide``, ``deep``, ``machine``, ``interval`` at
0.3 (seed 134, 5,100 inputs in 119 s); with compare solving the machine's closed form and a
design's noise drawn by its shape, ``eval``, ``check``, ``compare``, ``sweep``, ``optimize``,
``explore``, ``decide``, ``deep``, ``machine``, ``interval`` at 0.3 (seed 135, 22,650 inputs in
213 s); and every class at 0.12 with the atoms' declared inputs and a series' points in
order (seed 136, 17,101 inputs in 69 s): 0 of each. With terms checked where built (counts
below 1, whole decimals, grids by the counts they make) and strict laws proved over models
that may be 0, every class at 0.15 (seed 137, 21,377 inputs, two workers beside a helper):
0 tracebacks, 0 wrong exits, 1 hang, ``compare`` of ``tpool_n`` 10,000 deep on the speed-up
machine (29 s alone, as before these changes: 70 numeric folds of the golden-section search
and the asymptotic winner's closed form). With the machine's wake (2026-12-03): every class
at 0.05 (seed 197, 7,126 inputs in 37 s), and machine files with a wake key of any
expression a hand-off may be and ``w0`` in their covariance records, ``machine``,
``calibrate``, ``validate``, ``interval`` at 1.0 (seed 198, 20,000 inputs in 47 s): 0 of each.
Every class at 0.1 (seed 205, 14,251 inputs): 1 hang, ``explore`` on a machine whose wake is
``2^(x^x)`` minutes at x = 1,024 (12 s to find the value too large: the product converting it
to ns was evaluated in floats, twice, before the tower in it was looked at; 0.8 s since), and
again 0 of each; ``deep``, ``machine``, ``calibrate``, ``validate``, ``interval`` at 0.5
(seed 206, 10,250 inputs in 205 s): 0 of each. Every class at 0.1 with one worker (seed
207, 14,251 inputs in 160 s): 0 of each; at 0.3 (seed 209, 42,753 inputs in 321 s): 1
traceback, ``fit`` of a CSV whose second parameter was 0 at every point of a kernel (the grid's
lines of no points: a ValueError; a warning since, the other kernels fitted, in
``tests/test_hardening.py``). Every class at 0.2 (seed 210, 28,502 inputs in 324 s) and
``api``, ``decide`` at 1.0 (seed 211, 6,000 inputs): 0 of each; every class at 0.3 with two
workers beside the test suite (seed 212, 42,753 inputs in 323 s): 1 hang, ``compare`` of
``tpool_2(seq(qsort, ...))`` 10,000 deep on the speed-up machine (22 s alone; 17.5 s since the
thread counts' maxima of whole numbers skip sympy's ``Max``); ``deep``, ``machine``,
``calibrate`` at 0.4 (seed 213, 4,600 inputs in 221 s): 0 of each. With the pool's turn
(machine files with a ``turn`` of any expression a hand-off may be, ``t0`` in covariance
records, ``tpool_2(nop)`` in the calibration set): ``machine``, ``calibrate``, ``validate``,
``interval``, ``decide`` at 0.5 (seed 214, 11,500 inputs in 43 s): 0 of each.
The campaign checks exits, not verdicts:
``fuzz_law_verdicts.py`` checks the law checker's answers themselves.

Run: ``python benchmarks/fuzz_campaign.py [--scale 1.0] [--workers 2] [--timeout 5] [--seed 0]``;
prints the table: class, inputs, tracebacks, hangs, wrong exit codes, data loss (and, with
``--show``, the first few failing inputs of each class). SIGTERM or SIGINT stops it early and
still prints the table of the inputs run so far.

Measured 2026-11-26 (issue 29), ``--scale 0.27 --workers 2``: 30,378 inputs in 242 s, 0
tracebacks, 0 wrong exit codes, 0 data loss, 3 hangs, all in the ``deep`` class: ``check`` of a
false law over ``tpool_n`` 3,000 deep and ``explore`` of ``mapReduce_{1,1}^{1,1}`` 3,000 deep.
Both were fixed; the ``deep`` class run again gave 135 inputs, 0 hangs, 0 tracebacks.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import fuzz_surfaces

from patternalg._internal.limits import MAX_FILE_BYTES

ATOMS = ["qsort", "inc", "nop", "reduce_p", "map_hadoop", "parsec_canneal", "shuffle", "k", "A"]
SEEDS_TERMS = [
    "pipe(tpool_4(qsort), inc)", "seq(qsort, inc, nop)", "tpool_n(qsort)",
    "mapReduce_{2,4}^{x,16}(map_hadoop, reduce_p)", "parsec_canneal[p=8, phi=2.5]",
    "tpool_{2*n}(pipe(qsort, inc))", "pipe(A, seq(A, B))",
]
SEEDS_EXPR = ["1034.17*x*log2(x)", "2^10", "(m*n - 1)/(m*n) * 12288 * x", "min(x, 2) + max(1, p)",
              "sqrt(x)/phi", "x^(1/3)*log2(x)^2", "1e-3 + 4.5e7*x"]
SEEDS_LAWS = ["pipe(A, B) <= seq(A, B)", "seq(A, B) == seq(B, A)", "tpool_n(A) <= A",
              "pipe(tpool_n(A), B) <= pipe(A, B)", "mapReduce_{1,1}^{d,1}(A, B) >= A"]
NASTY = ["\x00", "\x1b[31m", "\n", "\r", "\u202e", "\ud800", "é", "(", ")", "{", "}", "[", "]", ",",
         "^", "**", "/0", "-", "=", "#", "_", "10^10^10", "9" * 5000, "1e-999999999", "nan", "inf",
         "tpool_", "mapReduce_", "a" * 10000, "(" * 300, " ", "\t", "0", "-1", "1e400", "2^(2^64)"]


def mutate(rng: random.Random, text: str) -> str:
    """``text`` with one to three random edits (insert, delete, replace, duplicate)."""
    for _ in range(rng.randint(1, 3)):
        at = rng.randint(0, len(text))
        op = rng.random()
        piece = rng.choice(NASTY) if rng.random() < 0.5 else chr(rng.randint(1, 0x2FF))
        if op < 0.4:
            text = text[:at] + piece + text[at:]
        elif op < 0.6:
            text = text[:at] + text[at + rng.randint(1, 4) :]
        elif op < 0.9:
            text = text[:at] + piece + text[at + 1 :]
        else:
            text = text[:at] + text[at : at + 20] * rng.randint(2, 50) + text[at:]
    return text


def random_term(rng: random.Random, depth: int = 3) -> str:
    if depth == 0 or rng.random() < 0.3:
        atom = rng.choice(ATOMS)
        if rng.random() < 0.1:
            atom += f"[p={rng.choice(['0', '1', '8', 'n', '2^70', '1e-5'])}]"
        return atom
    kind = rng.random()
    if kind < 0.35:
        return f"{rng.choice(['seq', 'pipe'])}({random_term(rng, depth - 1)}, {random_term(rng, depth - 1)})"
    if kind < 0.7:
        count = rng.choice(["1", "4", "n", "m", "{2*n}", "{10^400}", "0", "{n/2}"])
        return f"tpool_{count}({random_term(rng, depth - 1)})"
    sizes = ",".join(rng.choice(["1", "2", "m", "n", "x", "d", "0"]) for _ in range(2))
    keys = ",".join(rng.choice(["1", "x", "16", "d", "k"]) for _ in range(2))
    return f"mapReduce_{{{sizes}}}^{{{keys}}}({random_term(rng, depth - 1)}, {random_term(rng, depth - 1)})"


def maybe(rng: random.Random, text: str, p: float = 0.5) -> str:
    return mutate(rng, text) if rng.random() < p else text


def measurement_file(rng: random.Random, kind: str) -> tuple[str, str]:
    """(file name, text) of random measurements: CSV, JSONL or Extra-P text."""
    xs = sorted(rng.sample(range(1, 2000), rng.randint(1, 7)))
    scale = rng.choice([1e-300, 1e-6, 1.0, 1e6, 1e300])
    def value(v: int) -> str:
        return repr(scale * rng.choice([v, v * v, v ** 0.5, 1.0, -v, 0.0]) * rng.uniform(0.9, 1.1))
    if kind == "csv":
        # sometimes a column of bookkeeping: a repetition's number or a row's time (text or not)
        extra = rng.choice(["", "", ",rep", ",run", ",timestamp", ",date"])
        stamps = ["1", "2", "1700000000", "2026-11-29", ""]
        rows = [f"kernel,x,time{extra}"] + [
            f"{rng.choice(['sort', 'k', 's rt'])},{x},{value(x)}" + (f",{rng.choice(stamps)}" if extra else "")
            for x in xs
            for _ in range(2)
        ]
        return "m.csv", "\n".join(rows) + "\n"
    if kind == "jsonl":
        name = rng.choice(["sort", "s\\ud800rt", "k\\u001b[1m", "a" * 200])
        rows = [f'{{"params": {{"x": {x}}}, "value": {value(x)}, "callpath": "{name}"}}' for x in xs]
        return "m.jsonl", "\n".join(rows) + "\n"
    if kind == "presca":
        ps = sorted(rng.sample([1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64], rng.randint(1, 6)))
        rows = ["p,throughput"] + [f"{p},{value(p)}" for p in ps]
        return "p.csv", "\n".join(rows) + "\n"
    points = " ".join(str(x) for x in xs)
    body = "".join(f"DATA {value(x)} {value(x)}\n" for x in xs)
    return "m.txt", f"PARAMETER x\nPOINTS {points}\nMETRIC time\nREGION sort\n{body}"


#: values for ``--at``: huge integers, expressions, numbers at the ends of a double's range
AT_VALUES = ["1024", "1", "0", "-1", "1/3", "2^10", "10^400", "100000000000000000000", "1e308",
             "1.7e308", "1e-300", "2^(2^10)", "16.0", "n", "x", "nan", "inf", "9" * 400, "2^64"]
COUNT_ATOMS = ["qsort", "inc", "nop", "reduce_p", "map_hadoop", "parsec_canneal", "map_grppi"]


def random_grid(rng: random.Random, name: str) -> str:
    """A ``--over`` grid: a range (lin/log, with or without a count) or a list."""
    if rng.random() < 0.2:
        return f"{name}=" + ",".join(rng.choice(["1", "2", "4", "8", "16", "0", "1e300", "2.5"])
                                     for _ in range(rng.randint(1, 4)))
    low = rng.choice(["1", "0", "2", "1/3", "1e-300", "-4", "16"])
    high = rng.choice(["8", "15", "1024", "1e6", "1e300", "1.7e308", "10^400", "2^20"])
    tail = rng.choice(["", ":5", ":5:log", ":3:lin", ":1", ":0", ":100000", ":log"])
    return f"{name}={low}..{high}{tail}"


def random_budget(rng: random.Random, names: list[str]) -> str:
    """A budget over ``names``: linear mostly, sometimes not, with odd bounds."""
    left = rng.choice(["+".join(names), "2*" + "+3*".join(names), names[0], "*".join(names),
                       f"min({names[0]},4)", f"{names[0]}-{names[-1]}"])
    return f"{left}{rng.choice(['<=', '<', '>=', '=='])}{rng.choice(['8', '0', '1', '10^400', '1e300', '64', 'x'])}"


def decision(rng: random.Random) -> list[str]:
    """A random decision command on random terms, grids, budgets and points."""
    command = rng.choice(["sweep", "compare", "optimize", "explore"])
    count = lambda: rng.choice(["a", "b", "n", "2", "16", "{a*2}", "{10^400}"])  # noqa: E731
    def term() -> str:
        text = random_term(rng, rng.randint(0, 3)).replace("tpool_n", f"tpool_{count()}")
        return text.replace("k", rng.choice(COUNT_ATOMS)).replace("A", rng.choice(COUNT_ATOMS))
    at = ["--at", f"x={rng.choice(AT_VALUES)}"] if rng.random() < 0.6 else []
    if command == "sweep":
        argv = [command, *(term() for _ in range(rng.randint(1, 2)))]
        argv += [a for s in rng.sample(["x", "n", "a"], rng.randint(1, 2)) for a in ("--over", random_grid(rng, s))]
        return argv + (["--at", f"n={rng.choice(AT_VALUES)}"] if rng.random() < 0.3 else []) + at
    if command == "compare":
        argv = [command, *(term() for _ in range(rng.randint(2, 3)))]
        return argv + (["--over", random_grid(rng, rng.choice(["x", "n", "a"]))] if rng.random() < 0.7 else []) + at
    if command == "optimize":
        names = rng.sample(["a", "b", "c"], rng.randint(1, 2))
        body = ", ".join(f"tpool_{n}({rng.choice(COUNT_ATOMS)})" for n in names)
        argv = [command, f"pipe({body})" if len(names) > 1 else body]
        if rng.random() < 0.3:  # nested pools run a product of counts: no sum to budget
            argv[1] = rng.choice([argv[1], f"seq({argv[1]}, tpool_c(inc))", f"tpool_a(tpool_b({rng.choice(COUNT_ATOMS)}))"])
            argv += ["--threads", rng.choice(["1", "2", "8", "0", "10^400", "3.5", "100000"])]
        if not argv.count("--threads") or rng.random() < 0.5:
            argv += [a for _ in range(rng.randint(1, 2)) for a in ("--budget", random_budget(rng, names))]
        if rng.random() < 0.3:
            argv += ["--over", random_grid(rng, "x"), "--objective", rng.choice(["max", "mean", "min"])]
        return argv + at
    threads = rng.choice(["1", "2", "16", "100000", "0", "10^400", "3.5"])
    return [command, term(), "--threads", threads, "--top", rng.choice(["1", "3", "0"]),
            "--expansions", rng.choice(["1", "10", "50"])] + at


DEEP_CONSTRUCTS = {
    "seq": ("seq(qsort, ", "inc", ")"),
    "pipe": ("pipe(qsort, ", "inc", ")"),
    "tpool_2": ("tpool_2(", "qsort", ")"),
    "tpool_n": ("tpool_n(", "qsort", ")"),
    "pool_in_pipe": ("tpool_2(pipe(", "inc", ", nop))"),  # a coefficient halved at every level
    "pool_of_seq": ("tpool_2(seq(qsort, ", "inc", "))"),  # pools within pools, each of a sequence
    "mapReduce": ("mapReduce_{2,n}^{x,16}(", "map_grppi", ", shuffle_{2,n}^{16}, reduce_p)"),
    "mapReduce_1": ("mapReduce_{1,1}^{1,1}(", "map_grppi", ", reduce_p)"),
}


def deep(construct: str, depth: int) -> str:
    """``deep(T, N)``: construct T nested ``depth`` deep."""
    opening, inner, closing = DEEP_CONSTRUCTS[construct]
    return opening * depth + inner + closing * depth


def flat(construct: str, stages: int) -> str:
    """A flat ``seq`` or ``pipe`` of ``stages`` stages."""
    atoms = ["qsort", "inc", "nop"]
    return f"{construct}({', '.join(atoms[i % 3] for i in range(stages))})"


#: a machine whose atoms have speed-ups of their own, with a dispatch cost and a hand-off
SPEEDUP_MACHINE = (
    '[machine]\ncores = 16\nhandoff = "100 + 0.5*x"\ndispatch = "300"\n[machine.speedups]\n'
    'qsort = "p/(1 + 0.05*(p - 1))"\ninc = "p/(1 + 0.3*(p - 1))"\nnop = "1"\n'
)


def deep_command(rng: random.Random) -> tuple[list[str], str, str]:
    """A command on a deep or wide term (written to ``t.term``): (argv, term text, what the
    term is, e.g. ``deep(pipe, 10000)``)."""
    if rng.random() < 0.3:
        construct, stages = rng.choice(["seq", "pipe"]), rng.choice([200, 1000])
        text, label = flat(construct, stages), f"flat({construct}, {stages})"
    else:
        construct, depth = rng.choice(list(DEEP_CONSTRUCTS)), rng.choice([100, 300, 1000, 3000, 10_000])
        text, label = deep(construct, depth), f"deep({construct}, {depth})"
    bind = ["--at", "n=2"] if "_n" in text or ",n}" in text else []
    command = rng.choice(["eval", "eval --at", "eval --explain", "sweep", "compare", "optimize",
                          "explore", "check", "plot"])
    if command == "eval":
        argv = ["eval", "@t.term", "--semantics", rng.choice(["exact", "asymptotic"]), *bind]
    elif command == "eval --at":
        argv = ["eval", "@t.term", "--at", "x=1024", *bind, "--semantics", rng.choice(["exact", "asymptotic"])]
    elif command == "eval --explain":
        argv = ["eval", "@t.term", "--explain", "--at", "x=1024", *bind]
    elif command == "sweep":
        argv = ["sweep", "@t.term", "--over", "x=1..10", *bind]
    elif command == "compare":
        argv = ["compare", "@t.term", "inc", *bind]
    elif command == "optimize":
        text = text.replace("tpool_n", "tpool_a").replace(",n}", ",a}")
        argv = ["optimize", "@t.term", "--budget", "a<=4", "--at", "x=1024"]
    elif command == "explore":
        argv = ["explore", "@t.term", "--threads", "2", "--at", "x=1024", *bind, "--expansions", "10"]
    elif command == "check":
        argv = ["check", f"{text} >= A" if len(text) < 100_000 else "A <= A", "--examples", "2"]
    else:
        argv = ["plot", "@t.term", "-o", "t.png", *bind]
    return argv, text, label


OUT_TARGETS = ["link", "dangling link", "directory", "fifo", "empty", "missing dir", "file"]


def out_case(rng: random.Random) -> dict:
    """``fit``, ``predict`` or ``plot`` writing onto a link, a directory, a FIFO, ..."""
    kind = rng.choice(OUT_TARGETS)
    command = rng.choice(["fit", "predict", "plot"])
    suffix = ".png" if command == "plot" else ".toml"
    setup: list[tuple[str, ...]] = []
    target = "out" + suffix
    if kind == "link":
        setup = [("file", "real" + suffix), ("link", target, "real" + suffix)]
    elif kind == "dangling link":
        setup = [("link", target, "gone" + suffix)]
    elif kind in ("directory", "fifo"):
        setup = [("dir" if kind == "directory" else "fifo", target)]
    elif kind == "empty":
        target = ""
    elif kind == "missing dir":
        target = "nodir/" + target
    if command == "plot":
        argv = ["plot", "qsort", "--over", "x=1..100", "-o", target]
    else:
        name, text = measurement_file(rng, "presca" if command == "predict" else "csv")
        argv = [command, name, "--out", target]
    files = {} if command == "plot" else {name: text}
    return {"argv": argv, "files": files, "setup": setup, "target": target, "kind": kind}


def make_input(cls: str, rng: random.Random) -> dict:
    """One input of class ``cls``: argv, files to create, stdin, and the file to watch."""
    if cls in fuzz_surfaces.CLASSES:
        return fuzz_surfaces.make_input(cls, rng)
    files: dict[str, str] = {}
    stdin = ""
    watch = None
    if cls == "api":
        import api_misuse

        calls = api_misuse.public_calls()
        call = rng.randrange(len(calls))
        slot = rng.randrange(len(calls[call].slots))
        return {"api": (call, slot, rng.randrange(len(api_misuse.wrong_values())))}
    if cls == "--out":
        return out_case(rng)
    if cls == "decide":
        argv = decision(rng)
    elif cls == "deep":
        argv, files["t.term"], label = deep_command(rng)
        if "--semantics" not in argv and argv[0] != "check" and rng.random() < 0.3:
            files["m.toml"] = SPEEDUP_MACHINE  # pools within pools and of sequences divide by speed-ups
            argv += ["--machine", "m.toml"]
            label += " --machine (speed-ups)"
        return {"argv": argv, "files": files, "stdin": stdin, "watch": watch, "label": label}
    elif cls == "eval":
        argv = ["eval", maybe(rng, random_term(rng) if rng.random() < 0.7 else rng.choice(SEEDS_TERMS), 0.6)]
        if rng.random() < 0.2:
            argv += ["--semantics", "exact"]
        if rng.random() < 0.2:
            argv += ["--format", rng.choice(["json", "latex"])] + (["--explain"] if rng.random() < 0.5 else [])
    elif cls == "eval --at":
        sym = rng.choice(["x", "n", "p", "phi", "m", "q", "x "])
        argv = ["eval", rng.choice(SEEDS_TERMS[:3] + ["parsec_canneal"]), "--at", f"{sym}={maybe(rng, rng.choice(SEEDS_EXPR + ['1024', '0', '-1', 'nan']), 0.6)}"]
    elif cls == "eval stdin/@file":
        text = maybe(rng, rng.choice(SEEDS_TERMS), 0.6)
        if rng.random() < 0.5:
            argv, stdin = ["eval", "-"], text
        else:
            files["t.term"] = text
            argv = ["eval", "@t.term"]
    elif cls == "--models":
        model = maybe(rng, rng.choice(SEEDS_EXPR), 0.7)
        toml = f'[models.k]\nmodel = "{model}"\nunit = "ns"\n'
        files["m.toml"] = maybe(rng, toml, 0.3)
        argv = ["eval", rng.choice(["k", "seq(k, qsort)", "pipe(k, inc)"]), "--models", "m.toml"]
        if rng.random() < 0.3:
            argv += ["--at", f"x={rng.choice(['2', '1024', '10^300'])}"]
    elif cls == "check":
        argv = ["check", maybe(rng, rng.choice(SEEDS_LAWS), 0.5), "--examples", "2", "--seed", str(rng.randint(0, 99)), "--semantics", "exact"]
    elif cls == "laws":
        argv = ["laws", "--examples", "1", "--seed", str(rng.randint(0, 9)), "--semantics", rng.choice(["exact", "asymptotic"])]
    elif cls in ("fit", "predict"):
        kind = "presca" if cls == "predict" else rng.choice(["csv", "jsonl", "text"])
        name, text = measurement_file(rng, kind)
        files[name] = maybe(rng, text, 0.3)
        files["keep.toml"] = '[models.keep]\nmodel = "x"\n'
        watch = "keep.toml"
        argv = [cls, name, "--out", rng.choice(["keep.toml", "keep.toml", ".", "nodir/x.toml"])]
        if cls == "fit" and rng.random() < 0.3:
            argv += ["--form", rng.choice(["amdahl", "memwall"])] if kind == "csv" else []
        if cls == "fit" and rng.random() < 0.2:
            argv += ["--parameters", rng.choice(["x", "x,rep", "X , run", "p", "", ",", "x,x", "timestamp,x"])]
        if rng.random() < 0.3:
            argv += ["--format", "json"]
    elif cls == "fit amdahl joint":
        ps = sorted(rng.sample([1, 2, 3, 4, 8, 16, 64, 2**64, 1e300], rng.randint(2, 6)))
        extreme = [1e300, 1e-300, 0.0, 1.7e308, 5e-324, 1.0, -1.0, 1e-5]
        rows = ["kernel,p,time"] + [f"k,{p},{rng.choice(extreme) * rng.uniform(0.5, 2)}" for p in ps]
        files["a.csv"] = maybe(rng, "\n".join(rows) + "\n", 0.2)
        files["keep.toml"] = '[models.keep]\nmodel = "x"\n'
        watch = "keep.toml"
        argv = ["fit", "a.csv", "--form", "amdahl", "--alpha", "joint", "--out", "keep.toml"]
        if rng.random() < 0.5:
            argv += ["--format", "json"]
    elif cls in ("compare", "sweep", "optimize", "explore"):
        models = [rng.choice(SEEDS_EXPR + ["log2(x)", "x - 1", "0", "1e300*x", "1e-300", "x^60"]) for _ in range(2)]
        files["m.toml"] = "".join(f'[models.{n}]\nmodel = "{maybe(rng, e, 0.2)}"\n' for n, e in zip("kz", models, strict=True))
        pick = lambda: rng.choice(["k", "z", "qsort", "inc", "tpool_4(k)", "pipe(k, z)", "seq(z, inc)"])  # noqa: E731
        over = f"x={rng.choice(['1', '0', '2', '1e-300'])}..{rng.choice(['1e6', '1e300', '2', '10^400'])}"
        argv = [cls, "--models", "m.toml"]
        if cls == "compare":
            argv += [pick(), pick(), "--over", maybe(rng, over, 0.3)]
        elif cls == "sweep":
            argv += [pick(), "--over", maybe(rng, over + rng.choice(["", ":5:log", ":3"]), 0.3)]
        elif cls == "optimize":
            argv += [f"pipe(tpool_a({pick()}), tpool_b({pick()}))", "--budget", maybe(rng, "a+b<=8", 0.3), "--at", f"x={rng.choice(['1', '1024', '1e300'])}"]
        else:
            argv += [f"pipe({pick()}, {pick()})", "--threads", rng.choice(["1", "2", "4", "0", "-1"]), "--at", f"x={rng.choice(['1', '1024', '1e300'])}", "--expansions", "50"]
        if rng.random() < 0.3:
            argv += ["--format", rng.choice(["json", "csv"])]
    elif cls == "tune":
        name, text = measurement_file(rng, "presca")
        files[name] = maybe(rng, text, 0.3)
        argv = ["tune", name, "--runs", "2", "--init", maybe(rng, "random" if rng.random() < 0.5 else "1,2", 0.3)]
    else:
        raise ValueError(cls)
    return {"argv": argv, "files": files, "stdin": stdin, "watch": watch}


CLASSES = {  # class -> inputs at scale 1.0 (total 145,511, the newer surfaces' 33,000 in it)
    "eval": 55_000, "eval --at": 15_000, "eval stdin/@file": 5_000, "--models": 12_000,
    "check": 1_000, "laws": 11, "fit": 8_000, "fit amdahl joint": 2_000, "predict": 3_000,
    "tune": 1_000, "compare": 1_000, "sweep": 1_000, "optimize": 500, "explore": 500,
    "decide": 3_000, "deep": 500, "api": 3_000, "--out": 1_000, **fuzz_surfaces.CLASSES,
}


#: commands that are long by design get a longer per-input timeout (laws checks every law;
#: a term 10,000 deep is read, evaluated and printed: the README says it is fine; plot -o
#: imports matplotlib)
TIMEOUTS = {"laws": 120.0, "check": 30.0, "deep": 30.0, "--out": 15.0, **fuzz_surfaces.TIMEOUTS}


class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang()


def _timed_out(exc: BaseException) -> bool:
    """Whether the input's timeout is what ``exc`` came from: a ``_Hang`` raised inside code
    that wraps what it catches (hypothesis, in ``check``, reports the alarm as a flaky
    failure: the replay, without it, passed)."""
    seen: set[int] = set()
    todo = [exc]
    while todo:
        current = todo.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, _Hang):
            return True
        todo += [e for e in (current.__cause__, current.__context__) if e is not None]
        todo += list(getattr(current, "exceptions", ()))
    return False


def run_api(case: dict, timeout: float) -> dict:
    """One call of a public function with a wrong argument (``api_misuse``); its outcome."""
    import api_misuse

    result = {"traceback": False, "hang": False, "wrong_exit": False, "data_loss": False}
    call_index, slot_index, wrong_index = case["api"]
    call = api_misuse.public_calls()[call_index]
    slot = call.slots[slot_index]
    value = api_misuse.wrong_values()[wrong_index]()
    with tempfile.TemporaryDirectory() as tmp:
        old = os.getcwd()
        os.chdir(tmp)
        api_misuse.write_files(Path(tmp))
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            escaped = api_misuse.misuse(call, slot, value)
        except _Hang:
            result["hang"] = True
            escaped = None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            os.chdir(old)
    if escaped:
        result["traceback"] = True
        result["detail"] = f"{call.name}({slot}={api_misuse.shown(value)}): {escaped}"
    return result


def _set_up(tmp: str, setup: list) -> None:
    """Links, directories and FIFOs an ``--out`` input writes onto."""
    for kind, name, *rest in setup:
        path = Path(tmp, name)
        if kind == "file":
            path.write_text("[models.keep]\nmodel = \"x\"\n", encoding="utf-8")
        elif kind == "link":
            path.symlink_to(rest[0])
        elif kind == "dir":
            path.mkdir()
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "sparse":  # a file over the limit of a file read, no block written
            with open(path, "wb") as handle:
                handle.truncate(MAX_FILE_BYTES + 1)


def out_outcome(case: dict, tmp: str, status: int | None) -> str | None:
    """What an ``--out`` input did wrong to its target, or None."""
    kind, target = case["kind"], Path(tmp, case["target"])
    if kind == "empty":
        return "--out '' accepted with exit 0" if status == 0 else None
    if kind in ("link", "dangling link") and not target.is_symlink():
        return "the link was replaced by a regular file"
    if kind == "directory" and not target.is_dir():
        return "the directory was replaced"
    if kind == "fifo" and not target.is_fifo():
        return "the FIFO was replaced by a regular file"
    if kind in ("directory", "fifo") and status == 0:
        return f"exit 0 writing onto a {kind}"
    if status == 0 and kind in ("link", "dangling link", "file") and not target.exists():
        return "exit 0 and nothing written"
    return None


def run_one(case: dict, timeout: float) -> dict:
    """Run one input in a fresh temporary directory; its outcome."""
    from patternalg.cli import main

    if "api" in case:
        return run_api(case, timeout)
    case = {"stdin": "", "watch": None, "keep": (), **case}
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in case["files"].items():
            Path(tmp, name).write_text(text, encoding="utf-8", errors="surrogatepass")
        _set_up(tmp, case.get("setup", []))
        before = Path(tmp, case["watch"]).read_bytes() if case["watch"] else None
        kept = {name: Path(tmp, name).read_bytes() for name in case["keep"]}
        out, err = io.StringIO(), io.StringIO()
        old = os.getcwd()
        os.chdir(tmp)
        sys.stdin = io.StringIO(case["stdin"])
        result = {"traceback": False, "hang": False, "wrong_exit": False, "data_loss": False}
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    status = main(case["argv"])
                except SystemExit as stop:
                    status = stop.code if isinstance(stop.code, int) else 2
        except _Hang:
            result["hang"] = True
            status = None
        except BaseException as exc:  # noqa: BLE001 - a traceback is what the campaign counts
            timed_out = _timed_out(exc)
            result["hang" if timed_out else "traceback"] = True
            result["detail"] = ("over the timeout, reported as " if timed_out else "") + f"{type(exc).__name__}: {str(exc)[:200]}"
            status = None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            os.chdir(old)
            sys.stdin = sys.__stdin__
        errors = [line for line in err.getvalue().splitlines() if " error: " in line]
        if status is not None:
            if status not in (0, 1, 2):
                result["wrong_exit"] = True
            elif status == 2 and (
                len(errors) != 1 or out.getvalue() or any(not c.isprintable() for c in errors[0])
            ):
                result["wrong_exit"] = True
                result["detail"] = err.getvalue()[:300]
        if "kind" in case and status is not None:
            wrong = out_outcome(case, tmp, status)
            leftovers = [p.name for p in Path(tmp).rglob("*.tmp")]
            if wrong or leftovers:
                result["data_loss"] = True
                result["detail"] = f"{case['kind']}: {wrong or f'left {leftovers[0]}'}"
        changed = [n for n, data in kept.items() if not Path(tmp, n).is_file() or Path(tmp, n).read_bytes() != data]
        if status is not None and (changed or Path(tmp, "-").exists()):
            result["data_loss"] = True  # an input replaced, or stdout written to a file '-'
            result["detail"] = f"input: {changed[0] if changed else '-'} changed or made"
        if case["watch"] and status is not None:
            target = Path(tmp, case["watch"])
            leftovers = [p.name for p in Path(tmp).iterdir() if p.name.endswith(".tmp")]
            after = target.read_bytes() if target.exists() else b""
            if leftovers or (status != 0 and after != before):
                result["data_loss"] = True
            elif status == 0 and "keep.toml" in case["argv"]:
                import tomllib

                try:
                    tomllib.loads(after.decode("utf-8"))
                except (UnicodeDecodeError, tomllib.TOMLDecodeError):
                    result["data_loss"] = True
    return result


def worker(cls: str, start: int, count: int, seed: int, timeout: float) -> None:
    """Run inputs ``start .. start+count`` of ``cls``; one JSON line per input on stdout."""
    import warnings

    warnings.simplefilter("ignore")
    signal.signal(signal.SIGALRM, _alarm)
    sys.setrecursionlimit(10_000)
    for index in range(start, start + count):
        case = make_input(cls, random.Random(f"{seed}:{cls}:{index}"))
        outcome = run_one(case, timeout)
        outcome["index"] = index
        if any(outcome[k] for k in ("traceback", "hang", "wrong_exit", "data_loss")):
            outcome["argv"] = [a[:120] for a in case.get("argv", ["(python api)"])]
            if "label" in case:
                outcome["label"] = case["label"]
        sys.__stdout__.write(json.dumps(outcome) + "\n")
        sys.__stdout__.flush()


#: set by SIGTERM or SIGINT: every class stops after its current input and the table of the
#: inputs run so far is printed (a campaign cut short at a deadline still reports)
STOP = threading.Event()


def campaign(cls: str, total: int, seed: int, timeout: float) -> dict:
    """All inputs of one class, through worker processes restarted after a hard hang."""
    tally = {"inputs": 0, "traceback": 0, "hang": 0, "wrong_exit": 0, "data_loss": 0, "examples": [],
             "kinds": {}}
    index = 0
    while index < total and not STOP.is_set():
        proc = subprocess.Popen(
            [sys.executable, __file__, "--worker", cls, str(index), str(total - index), str(seed), str(timeout)],
            stdout=subprocess.PIPE, text=True,
        )
        assert proc.stdout is not None
        while index < total:
            if STOP.is_set():
                proc.kill()
                break
            line = _readline(proc, 4 * timeout + 30)
            if line is None:  # the worker stopped answering: a hang the alarm could not stop
                proc.kill()
                proc.wait()
                tally["inputs"] += 1
                tally["hang"] += 1
                tally["examples"].append({"index": index, "hang": True})
                tally["kinds"]["hang (worker killed)"] = tally["kinds"].get("hang (worker killed)", 0) + 1
                index += 1
                break
            outcome = json.loads(line)
            index = outcome["index"] + 1
            tally["inputs"] += 1
            for key in ("traceback", "hang", "wrong_exit", "data_loss"):
                tally[key] += outcome[key]
            if "argv" in outcome:
                kind = failure_kind(outcome)
                tally["kinds"][kind] = tally["kinds"].get(kind, 0) + 1
                if len(tally["examples"]) < 5:
                    tally["examples"].append(outcome)
        proc.wait()
    counts = {k: v for k, v in tally.items() if k not in ("examples", "kinds")}
    print(f"done {cls}: {counts}", file=sys.stderr, flush=True)
    return tally


def failure_kind(outcome: dict) -> str:
    """A failing input's class, for the summary: what went wrong, in which command."""
    what = next(k for k in ("traceback", "hang", "wrong_exit", "data_loss") if outcome[k])
    command = outcome["argv"][0]
    detail = outcome.get("detail", "")
    if outcome["argv"] == ["(python api)"]:
        command, _, detail = detail.partition("(")
        detail = detail.partition("): ")[2]
    if what == "traceback":
        detail = detail.partition(":")[0]
    elif what == "data_loss":
        detail = detail.partition(":")[0] + ":" + detail.partition(":")[2][:40]
    else:
        detail = ""
    on = f" on {outcome['label']}" if "label" in outcome else ""
    return f"{what} {command}{on} {detail}".strip()


def _readline(proc: subprocess.Popen, timeout: float) -> str | None:
    import selectors

    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(timeout):
            return None
    line = proc.stdout.readline()
    return line or None


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        cls, start, count, seed, timeout = sys.argv[2:7]
        worker(cls, int(start), int(count), int(seed), float(timeout))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the default input counts")
    parser.add_argument("--workers", type=int, default=2, help="classes run in parallel")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per input")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", action="append", help="run only these classes (repeat it, or a,b,c)")
    parser.add_argument("--show", action="store_true", help="print failing inputs")
    args = parser.parse_args()
    from concurrent.futures import ThreadPoolExecutor

    only = {name.strip() for given in args.only or () for name in given.split(",")}
    if only - CLASSES.keys():  # a misspelt class ran nothing and reported a clean table
        parser.error(f"unknown classes {sorted(only - CLASSES.keys())} (valid: {', '.join(CLASSES)})")
    classes = {c: max(1, round(n * args.scale)) for c, n in CLASSES.items() if not only or c in only}
    started = time.perf_counter()
    for stop_signal in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop_signal, lambda signum, frame: STOP.set())
    with ThreadPoolExecutor(args.workers) as pool:
        futures = {  # the small classes first: a campaign cut short has run each of them
            c: pool.submit(campaign, c, n, args.seed, TIMEOUTS.get(c, args.timeout))
            for c, n in sorted(classes.items(), key=lambda item: item[1])
        }
        results = {c: futures[c].result() for c in classes}
    header = ("class", "inputs", "tracebacks", "hangs", "wrong exit codes", "data loss")
    rows = [(c, r["inputs"], r["traceback"], r["hang"], r["wrong_exit"], r["data_loss"]) for c, r in results.items()]
    rows.append(("total", *(sum(r[i] for r in rows) for i in range(1, 6))))
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(6)]
    for row in [header, *rows]:
        print("  ".join(str(v).rjust(w) if i else str(v).ljust(w) for i, (v, w) in enumerate(zip(row, widths, strict=True))))
    print(
        f"(seed {args.seed}; timeout {args.timeout} s per input, "
        + ", ".join(f"{c} {t:.0f} s" for c, t in TIMEOUTS.items())
        + f"; {time.perf_counter() - started:.0f} s"
        + ("; stopped early by a signal" if STOP.is_set() else "") + ")"
    )
    if args.show:
        for c, r in results.items():
            for kind, count in sorted(r["kinds"].items(), key=lambda item: -item[1]):
                print(f"{c}: {count} x {kind}")
            for example in r["examples"]:
                print(c, json.dumps(example)[:400])


if __name__ == "__main__":
    main()
