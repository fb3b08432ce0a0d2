"""Make the cProfile runs of a real library that tests/data/profiles/difflib/ holds.

The library is the standard library's ``difflib`` (pure Python, a real call tree:
``unified_diff`` -> ``SequenceMatcher.get_grouped_opcodes`` -> ``get_opcodes`` ->
``get_matching_blocks`` -> ``find_longest_match``, ``__chain_b``, ...). Each run diffs two
texts of n lines (words drawn by a seeded generator; the second text has one line in 50
changed, one in 200 deleted and one in 200 inserted) at six sizes, three repetitions each,
profiled with cProfile in the process's CPU time (``time.process_time``: on a machine shared
with other jobs, their load does not enter the times as it enters wall-clock time) and written as ``diff_n{n}_r{r}.pstats`` (``--param n`` reads n from
the name). The runs are in a shuffled order, so that a drift of the machine spreads over
the sizes. Run it from the repository's root::

    python benchmarks/profiles/make_cprofile_runs.py [OUT_DIR]

Python's version and the machine are written beside the runs (``machine.txt``).
"""

from __future__ import annotations

import cProfile
import difflib
import os
import platform
import random
import sys
import time

SIZES = (1_000, 2_000, 4_000, 8_000, 16_000, 32_000)
REPETITIONS = 3
WORDS = [f"w{i}" for i in range(5_000)]


def texts(n: int, seed: int) -> tuple[list[str], list[str]]:
    """Two texts of about ``n`` lines that differ here and there (deterministic)."""
    rng = random.Random(seed)
    before = [" ".join(rng.choices(WORDS, k=8)) + "\n" for _ in range(n)]
    after = []
    for line in before:
        roll = rng.random()
        if roll < 1 / 200:
            continue  # deleted
        if roll < 1 / 200 + 1 / 50:
            line = " ".join(rng.choices(WORDS, k=8)) + "\n"  # changed
        after.append(line)
        if rng.random() < 1 / 200:
            after.append(" ".join(rng.choices(WORDS, k=8)) + "\n")  # inserted
    return before, after


def diff(before: list[str], after: list[str]) -> int:
    """The workload: a unified diff of the two texts, as ``diff -u`` prints it."""
    return sum(1 for _ in difflib.unified_diff(before, after, "before", "after", n=3))


def main(out: str) -> None:
    os.makedirs(out, exist_ok=True)
    runs = [(n, r) for n in SIZES for r in range(1, REPETITIONS + 1)]
    random.Random(0).shuffle(runs)
    for n, r in runs:
        before, after = texts(n, seed=n)
        profiler = cProfile.Profile(time.process_time)  # CPU time: other jobs do not enter
        lines = profiler.runcall(diff, before, after)
        path = os.path.join(out, f"diff_n{n}_r{r}.pstats")
        profiler.dump_stats(path)
        print(f"{path}: {lines} lines of diff", file=sys.stderr)
    with open(os.path.join(out, "machine.txt"), "w", encoding="utf-8") as handle:
        handle.write(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/profiles/difflib")
