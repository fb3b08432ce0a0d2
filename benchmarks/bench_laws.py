"""Benchmark of the law checker: examples per second, and the wall time of the full table.

Prints
1. examples checked per second by the counterexample search (hypothesis drawing an
   instantiation, two sympy evaluations, the relation at several x), per semantics;
2. the numeric step against its baselines: our float walk of the closed form vs
   ``subs(...).evalf()`` and vs ``lambdify`` (compile + call), on the sides of law (iv);
3. the wall time of ``patternalg laws --semantics both --examples N`` in a subprocess
   (target: under 60 s for N = 200 on a 2-core machine), with the load average;
4. with ``--baseline DIR`` (a checkout of an earlier patternalg, e.g. main before issue 29),
   deep and concrete laws checked by this tree and by that one, each in a subprocess, with
   the verdicts and the ratio of the times (issue 29: ``tpool_n`` 100 deep took 78 s, a pipe
   law 10,000 deep 8 to 24 s, and law (iv) over qsort and inc was not proved).

Run: python benchmarks/bench_laws.py [--examples N] [--seed S] [--baseline DIR [--only-deep]]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import sympy

from patternalg.algebra.semantics import Semantics
from patternalg.laws.checker import _search, _to_float, builtin_law
from patternalg.library.model_library import ModelLibrary
from patternalg.syntax.symbols import log2, x


def search_rate(law_id: str, semantics: Semantics, examples: int, seed: int) -> float:
    law = builtin_law(law_id)
    started = time.perf_counter()
    found, tried = _search(law, ModelLibrary.builtin(), semantics, examples, seed, asymptotic=False)
    assert found is None, f"{law_id} should hold pointwise under {semantics}"
    return tried / (time.perf_counter() - started)


def numeric_rates(repeat: int = 2000) -> dict[str, float]:
    a = 3 * x ** sympy.Rational(3, 2) * log2(x) + sympy.Rational(1, 1000)
    b = sympy.Integer(10) ** 7 + 536 * x
    sides = [sympy.Max(a, b), (a + b) / 2]
    points = [float(2**e) for e in range(31)]
    rates = {}
    started = time.perf_counter()
    for i in range(repeat):
        for side in sides:
            _to_float(side, {x: points[i % 31]})
    rates["float walk"] = repeat / (time.perf_counter() - started)
    started = time.perf_counter()
    for i in range(repeat // 10):
        for side in sides:
            float(side.subs(x, points[i % 31]).evalf())
    rates["subs+evalf"] = (repeat // 10) / (time.perf_counter() - started)
    started = time.perf_counter()
    for i in range(repeat // 10):
        for side in sides:  # a new instantiation needs a new function each time
            sympy.lambdify(x, side, "math")(points[i % 31])
    rates["lambdify"] = (repeat // 10) / (time.perf_counter() - started)
    return rates


def cli_wall_time(examples: int, seed: int) -> tuple[float, int]:
    started = time.perf_counter()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "patternalg.cli",
            "laws",
            "--semantics",
            "both",
            "--examples",
            str(examples),
            "--seed",
            str(seed),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    return time.perf_counter() - started, proc.returncode


def _deep(prefix: str, depth: int, inner: str, suffix: str = ")") -> str:
    return prefix * depth + inner + suffix * depth


#: (name, law, semantics) checked by this tree and by a baseline
DEEP_CASES = (
    ("(iv) over qsort, inc", "pipe(qsort, inc) >= tpool_2(seq(qsort, inc))", "exact"),
    ("tpool_n 100 deep <= A", _deep("tpool_n(", 100, "A") + " <= A", "asymptotic"),
    ("tpool_n 100 deep <= A", _deep("tpool_n(", 100, "A") + " <= A", "exact"),
    (
        "pipe 10,000 deep <= seq",
        _deep("pipe(A, ", 10_000, "B") + " <= " + _deep("seq(A, ", 10_000, "B"),
        "exact",
    ),
    (
        "pipe 10,000 deep <= seq",
        _deep("pipe(A, ", 10_000, "B") + " <= " + _deep("seq(A, ", 10_000, "B"),
        "asymptotic",
    ),
)
_TIMED = (
    "import sys, time; from patternalg.laws.checker import check; law = sys.stdin.read(); "
    "t = time.perf_counter(); r = check(law, semantics=sys.argv[1], examples=20, seed=0); "
    "print(r.status, time.perf_counter() - t)"
)


def timed_check(law: str, semantics: str, tree: str, timeout: float) -> tuple[str, float]:
    """The verdict and the seconds ``check`` takes with the patternalg of ``tree``."""
    env = {**os.environ, "PYTHONPATH": tree}
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _TIMED, semantics],
            input=law,
            capture_output=True,
            text=True,
            env=env,
            cwd=tree,  # python -c puts the working directory first on sys.path
            timeout=timeout,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return "(killed)", timeout
    status, seconds = proc.stdout.split()
    return status, float(seconds)


def compare_with(baseline: str, timeout: float) -> None:
    """Each deep case checked by this tree and by ``baseline``: verdicts and time ratio."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for name, law, semantics in DEEP_CASES:
        after, t_after = timed_check(law, semantics, here, timeout)
        before, t_before = timed_check(law, semantics, baseline, timeout)
        print(
            f"{name:24} {semantics:10}: {after} in {t_after:6.2f} s, baseline {before} in "
            f"{'>' if before == '(killed)' else ' '}{t_before:6.2f} s "
            f"({t_before / t_after:5.1f}x faster)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--baseline", metavar="DIR", help="an earlier checkout to compare with")
    parser.add_argument("--timeout", type=float, default=300.0, help="per check (s)")
    parser.add_argument("--only-deep", action="store_true", help="only the baseline comparison")
    args = parser.parse_args()
    if args.baseline:
        compare_with(args.baseline, args.timeout)
        if args.only_deep:
            return
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for law_id in ("pipe_comm", "pipe_le_seq"):
        for semantics in Semantics:
            rate = search_rate(law_id, semantics, args.examples, args.seed)
            print(f"search {law_id:12} {semantics.value:10}: {rate:7.1f} examples/s")
    rates = numeric_rates()
    base = rates["float walk"]
    for name, rate in rates.items():
        print(f"numeric {name:10}: {rate:9.0f} evaluations/s  (float walk is {base / rate:5.1f}x)")
    wall, status = cli_wall_time(args.examples, args.seed)
    print(
        f"patternalg laws --semantics both --examples {args.examples}: {wall:.1f} s wall "
        f"(exit {status}; target < 60 s); load average after: {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
