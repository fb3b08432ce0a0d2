"""Speed of the design decisions (issue 13), each against a baseline run in this script.

Run: ``python benchmarks/bench_decisions.py``. Prints measured times and ratios; targets:
``optimize`` of a 4-stage pipeline of task pools with 64 threads under 1 s (baseline: the
exhaustive enumeration of every feasible assignment, also numpy); ``explore`` of a 4-stage
pipeline with 16 threads under 5 s (with the number of designs visited); ``sweep`` of
10,000 points under 1 s (baseline: ``subs`` + ``evalf`` of the closed form at 200 points,
scaled to 10,000).
"""

from __future__ import annotations

import time

import numpy as np

from patternalg import ModelLibrary, model
from patternalg.algebra.grid import parse_axis
from patternalg.decisions.explore import explore
from patternalg.decisions.optimize import optimize
from patternalg.decisions.sweep import sweep
from patternalg.syntax.symbols import x

PIPELINE = "pipe(tpool_a(qsort), pipe(tpool_b(inc), pipe(tpool_c(qsort), tpool_d(nop))))"
STAGES = "pipe(qsort, pipe(inc, pipe(qsort, nop)))"


def timed(call):  # type: ignore[no-untyped-def]
    """(seconds, result) of one call."""
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def main() -> None:
    ModelLibrary.builtin()
    optimize(PIPELINE, budgets=["a+b+c+d<=8"], at={"x": 1024})  # warm the caches

    seconds, best = timed(
        lambda: optimize(PIPELINE, budgets=["a+b+c+d<=64"], at={"x": 1024})
    )
    brute_seconds, brute = timed(
        lambda: optimize(PIPELINE, budgets=["a+b+c+d<=64"], at={"x": 1024}, method="exhaustive")
    )
    assert best.best.value == brute.best.value
    print(
        f"optimize 4 stages, 64 threads: {seconds:.3f} s ({best.method}, {best.evaluated:,} "
        f"evaluations); brute force {brute_seconds:.3f} s ({brute.evaluated:,}); "
        f"ratio {seconds / brute_seconds:.2f} (target < 1 s)"
    )

    seconds, found = timed(lambda: explore(STAGES, threads=16, at={"x": 1024}))
    print(
        f"explore 4 stages, 16 threads: {seconds:.3f} s, {found.visited:,} designs visited "
        f"({'complete' if found.complete else 'best first, stopped at its expansions'}); "
        f"best {found.designs[0].term} (target < 5 s)"
    )

    grid = parse_axis("x=1..1e9:10000:log")
    term = "pipe(tpool_4(qsort), pipe(inc, nop))"
    seconds, table = timed(lambda: sweep([term], [grid]))
    closed = model(term, semantics="exact")
    sample = grid.values[:: len(grid.values) // 200][:200]
    subs_seconds, values = timed(lambda: [float(closed.subs(x, v).evalf()) for v in sample])
    per_point = subs_seconds / len(sample)
    assert np.allclose(values, table.values[0][:: len(grid.values) // 200][:200], rtol=1e-12)
    print(
        f"sweep 10,000 points: {seconds:.3f} s; subs per point would take "
        f"{per_point * 10_000:.1f} s; ratio {seconds / (per_point * 10_000):.4f} (target < 1 s)"
    )


if __name__ == "__main__":
    main()
