"""Benchmark of the law checker: examples per second, and the wall time of the full table.

Prints
1. examples checked per second by the counterexample search (hypothesis drawing an
   instantiation, two sympy evaluations, the relation at several x), per semantics;
2. the numeric step against its baselines: our float walk of the closed form vs
   ``subs(...).evalf()`` and vs ``lambdify`` (compile + call), on the sides of law (iv);
3. the wall time of ``patternalg laws --semantics both --examples N`` in a subprocess
   (target: under 60 s for N = 200 on a 2-core machine), with the load average.

Run: python benchmarks/bench_laws.py [--examples N] [--seed S]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import sympy

from patternalg.algebra import Semantics
from patternalg.laws import _search, _to_float, builtin_law
from patternalg.library import ModelLibrary
from patternalg.symbols import log2, x


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
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
