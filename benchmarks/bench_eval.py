"""Parse + evaluate speed on big terms, and the CLI's cold start against ``import sympy``.

Run: ``python benchmarks/bench_eval.py [--repeat N]``. Prints measured times and ratios;
targets (issue 2): each big term under 2 s; cold start at most 1.5x ``import sympy`` (issue 17: 1.15x).
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
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


def time_parse_evaluate(text: str) -> tuple[float, float]:
    """Seconds to parse and to evaluate ``text`` (fresh caches are not reset: first run)."""
    library = ModelLibrary.builtin()
    start = time.perf_counter()
    term = parse(text)
    parsed = time.perf_counter()
    evaluate(term, library)
    return parsed - start, time.perf_counter() - parsed


def cold_start(command: list[str], repeat: int) -> float:
    """Median wall time of running ``command`` ``repeat`` times."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7, help="runs per cold-start measurement")
    args = parser.parse_args()
    rng = random.Random(20261122)
    ModelLibrary.builtin()  # load the built-ins once, as a long-running session would
    parse("qsort")  # and the grammar

    cases = {
        "balanced term, 10,000 atoms": balanced_term(10_000, rng),
        "right-nested pipe, depth 10,000": "pipe(qsort, " * 10_000 + "inc" + ")" * 10_000,
    }
    print(f"{'case':<34} {'parse s':>8} {'evaluate s':>11} {'total s':>8}  target")
    for name, text in cases.items():
        p, e = time_parse_evaluate(text)
        print(f"{name:<34} {p:>8.3f} {e:>11.3f} {p + e:>8.3f}  < 2 s")

    exe = shutil.which("patternalg")
    ours = [exe] if exe else [sys.executable, "-m", "patternalg.cli"]
    term = "pipe(tpool_4(qsort), inc)"
    baseline = cold_start([sys.executable, "-c", "import sympy"], args.repeat)
    cli = cold_start([*ours, "eval", term], args.repeat)
    print()
    print(f"cold start, median of {args.repeat}:")
    print(f"  python -c 'import sympy'              {baseline:.3f} s")
    print(f'  patternalg eval "{term}"  {cli:.3f} s')
    print(f"  ratio                                  {cli / baseline:.2f}  (target <= 1.15, issue 17)")


if __name__ == "__main__":
    main()
