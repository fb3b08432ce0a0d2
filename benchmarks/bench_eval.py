"""Parse + evaluate speed on big terms, and the CLI's cold start against ``import sympy``.

Run: ``python benchmarks/bench_eval.py [--repeat N] [--limit S]``. Prints measured times and
ratios; targets (issue 2): each big term under 2 s; cold start at most 1.5x ``import sympy`` (issue 17: 1.15x);
(issue 17) deep terms under exact semantics as fast as under asymptotic (each < 2 s), and a
pipe of K symbolic stages polynomial in K (K = 50 < 2 s); the 10,000-atom balanced term under
0.8 s. A case slower than ``--limit`` seconds is stopped and printed as such (for runs
against older code).

Measured 2026-11-23 on the shared 2-core machine under a load average of 4-5 (see
docs/scaling.md): cold start 1.13-1.14x ``import sympy`` in CPU seconds (paired; main before
this change: 1.39x, ours / main 0.83-0.85); balanced 10,000 atoms 0.52 s (main 0.72 s); under
exact semantics a balanced term of 100 atoms 0.15 s (was about 49 s), of 10,000 atoms about
35 s.
Later the same day (load 2.0 to 2.1): cold start 1.09x (7 pairs; 21 pairs: 1.12x, main at
75088b2 1.18x in the same minutes); balanced 10,000 atoms 0.48 s; exact semantics,
10,000 atoms 22.8 s. With the lazy dataclasses of that round taken out again (they hid
public classes' fields until first use): 1.09x (farm-bench, 25 pairs, load 0.6 to 0.9).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from patternalg import ModelLibrary, evaluate, parse

ATOMS = ["qsort", "inc", "nop", "reduce_v", "map_own_small", "reduce_p"]


def balanced_term(atoms: int, rng: random.Random) -> str:
    """A random balanced term with ``atoms`` atoms: seq, pipe and tpool_k over library atoms."""
    level = [rng.choice(ATOMS) for _ in range(atoms)]
    while len(level) > 1:
        nxt = []
        for i in range(0, len(level) - 1, 2):
            op = rng.choice(["seq", "pipe", "pipe"])
            node = f"{op}({level[i]}, {level[i + 1]})"
            if rng.random() < 0.2:
                node = f"tpool_{rng.randint(1, 24)}({node})"
            nxt.append(node)
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0]


class _Slow(Exception):
    pass


@contextlib.contextmanager
def limited(seconds: float):
    """Stop the body after ``seconds`` (SIGALRM) with :class:`_Slow`."""

    def stop(signum, frame):
        raise _Slow

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def timed_evaluate(text: str, semantics: str, limit: float) -> tuple[float, float | None]:
    """Seconds to parse ``text`` and to evaluate it (None if slower than ``limit``)."""
    library = ModelLibrary.builtin()
    start = time.perf_counter()
    term = parse(text)
    parsed = time.perf_counter()
    try:
        with limited(limit):
            evaluate(term, library, semantics)
    except _Slow:
        return parsed - start, None
    return parsed - start, time.perf_counter() - parsed


def _show(seconds: float | None, limit: float) -> str:
    return f"> {limit:.0f}" if seconds is None else f"{seconds:.3f}"


def deep_terms(limit: float) -> None:
    """Deep terms under both semantics; the ratio exact / asymptotic should be about 1."""
    cases = {
        "pipe nested 10,000 deep": "pipe(qsort, " * 10_000 + "inc" + ")" * 10_000,
        "tpool_2 nested 10,000 deep": "tpool_2(" * 10_000 + "qsort" + ")" * 10_000,
        "seq nested 50,000 deep": "seq(inc, " * 50_000 + "nop" + ")" * 50_000,
        "seq of 30,000 stages": "seq(" + ", ".join(["inc", "nop"] * 15_000) + ")",
    }
    print()
    print(f"{'deep term':<28} {'parse s':>8} {'asymptotic s':>13} {'exact s':>8}  exact/asym  target")
    for name, text in cases.items():
        parsed, asymptotic = timed_evaluate(text, "asymptotic", limit)
        _, exact = timed_evaluate(text, "exact", limit)
        ratio = f"{exact / asymptotic:10.2f}" if exact and asymptotic else f"{'-':>10}"
        print(
            f"{name:<28} {parsed:>8.3f} {_show(asymptotic, limit):>13} {_show(exact, limit):>8}"
            f"  {ratio}  < 2 s each"
        )


def symbolic_pipes(limit: float, sizes: tuple[int, ...] = (5, 10, 20, 50)) -> None:
    """Pipes of K symbolic stages: seconds per K, and the growth against K = first size."""
    families = {
        "tpool_nK(qsort)": lambda k: ", ".join(f"tpool_n{i}(qsort)" for i in range(1, k + 1)),
        "parsec_canneal[p=i]": lambda k: ", ".join(
            f"parsec_canneal[p={i}]" for i in range(1, k + 1)
        ),
    }
    print()
    print("pipe of K symbolic stages (evaluate s; in brackets: time / time at K =", end=" ")
    print(f"{sizes[0]}, against K / {sizes[0]}); target K = 50 < 2 s")
    print(f"{'stages':<22} {'semantics':<11}" + "".join(f"{'K=' + str(k):>16}" for k in sizes))
    for name, stages in families.items():
        for semantics in ("asymptotic", "exact"):
            cells, first = [], None
            for k in sizes:
                _, seconds = timed_evaluate(f"pipe({stages(k)})", semantics, limit)
                if seconds is None:
                    cells.append(f"> {limit:.0f}")
                    break
                first = first or seconds
                cells.append(f"{seconds:.3f} ({seconds / first:.1f}/{k / sizes[0]:.0f})")
            print(f"{name:<22} {semantics:<11}" + "".join(f"{c:>16}" for c in cells))


def _cpu_seconds(command: list[str]) -> float:
    """User + system CPU seconds of one run of ``command`` (the child's own accounting)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, capture_output=True, cwd=tempfile.gettempdir())
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cold_start(command: list[str], baseline: list[str], repeat: int) -> tuple[float, float, float]:
    """Median CPU seconds of ``command`` and of ``baseline``, run in turn, and the median of
    the pair-by-pair ratios (pairing keeps the ratio when the machine's speed drifts)."""
    ours, theirs = [], []
    for _ in range(repeat):
        ours.append(_cpu_seconds(command))
        theirs.append(_cpu_seconds(baseline))
    ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
    return statistics.median(ours), statistics.median(theirs), statistics.median(ratios)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7, help="runs per cold-start measurement")
    parser.add_argument("--limit", type=float, default=60, help="seconds before a case is stopped")
    args = parser.parse_args()
    rng = random.Random(20261122)
    ModelLibrary.builtin()  # load the built-ins once, as a long-running session would
    parse("qsort")  # and the grammar

    balanced = balanced_term(10_000, rng)
    cases = [
        ("balanced term, 10,000 atoms", balanced, "asymptotic", "< 0.8 s"),
        ("right-nested pipe, depth 10,000", "pipe(qsort, " * 10_000 + "inc" + ")" * 10_000, "asymptotic", "< 2 s"),
        ("balanced term, 100 atoms", balanced_term(100, rng), "exact", "< 2 s"),
        ("balanced term, 10,000 atoms", balanced, "exact", "-"),
    ]
    print(f"{'case':<34} {'semantics':<11} {'parse s':>8} {'evaluate s':>11} {'total s':>8}  target")
    for name, text, semantics, target in cases:
        p, e = timed_evaluate(text, semantics, args.limit)
        total = _show(None if e is None else p + e, args.limit)
        print(f"{name:<34} {semantics:<11} {p:>8.3f} {_show(e, args.limit):>11} {total:>8}  {target}")
    deep_terms(args.limit)
    symbolic_pipes(args.limit)

    exe = shutil.which("patternalg")
    ours = [exe] if exe else [sys.executable, "-m", "patternalg.cli"]
    term = "pipe(tpool_4(qsort), inc)"
    ours_cpu, sympy_cpu, ratio = cold_start(
        [*ours, "eval", term], [sys.executable, "-c", "import sympy"], args.repeat
    )
    print()
    print(f"cold start, CPU seconds of the whole process, median of {args.repeat} paired runs:")
    print(f"  python -c 'import sympy'              {sympy_cpu:.3f} s")
    print(f'  patternalg eval "{term}"  {ours_cpu:.3f} s')
    print(f"  ratio (median of the pairs)            {ratio:.2f}  (target <= 1.15, issue 17)")

if __name__ == "__main__":
    main()
