"""Reading measurements: patternalg.measurements.read against a bare baseline in this script.

The baseline parses the same CSV with the csv module and float() and groups the values per
(kernel, point) in a dict: no checks, no line numbers, no series. The ratio says what the
checks, the kept source lines and the model cost. Run: ``python benchmarks/bench_read.py``.
"""

from __future__ import annotations

import csv
import tempfile
import time
from pathlib import Path

import numpy as np

from patternalg.measurements import read


def write_csv(path: Path, kernels: int = 200, repetitions: int = 50) -> int:
    rng = np.random.default_rng(0)
    rows = ["kernel,x,time"]
    for k in range(kernels):
        for x in (4, 8, 16, 32, 64):
            rows += [f"k{k},{x},{v!r}" for v in rng.random(repetitions).tolist()]
    path.write_text("\n".join(rows) + "\n")
    return len(rows) - 1


def write_text(path: Path, kernels: int = 2000, repetitions: int = 10) -> int:
    rng = np.random.default_rng(1)
    lines = ["PARAMETER x", "POINTS 4 8 16 32 64"]
    for k in range(kernels):
        lines.append(f"REGION k{k}")
        lines += ["DATA " + " ".join(map(repr, rng.random(repetitions).tolist())) for _ in range(5)]
    path.write_text("\n".join(lines) + "\n")
    return kernels * 5 * repetitions


def baseline_csv(path: Path) -> dict:
    groups: dict = {}
    with open(path, newline="") as handle:
        rows = csv.reader(handle)
        next(rows)
        for kernel, x, t in rows:
            groups.setdefault(kernel, {}).setdefault(float(x), []).append(float(t))
    return groups


def baseline_text(path: Path) -> dict:
    groups: dict = {}
    points: list[float] = []
    region, i = "", 0
    for line in path.read_text().splitlines():
        words = line.split()
        if words[0] == "POINTS":
            points = [float(w) for w in words[1:]]
        elif words[0] == "REGION":
            region, i = words[1], 0
        elif words[0] == "DATA":
            groups.setdefault(region, {})[points[i]] = [float(w) for w in words[1:]]
            i += 1
    return groups


def best(fn, *args, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        csv_path, text_path = Path(tmp) / "m.csv", Path(tmp) / "m.txt"
        cases = [
            ("csv", write_csv(csv_path), csv_path, baseline_csv),
            ("text", write_text(text_path), text_path, baseline_text),
        ]
        print(f"{'format':<8}{'values':>9}{'read s':>9}{'baseline s':>12}{'ratio':>8}")
        for name, values, path, baseline in cases:
            ours, bare = best(read, path), best(baseline, path)
            print(f"{name:<8}{values:>9}{ours:>9.3f}{bare:>12.3f}{ours / bare:>8.2f}")


if __name__ == "__main__":
    main()
