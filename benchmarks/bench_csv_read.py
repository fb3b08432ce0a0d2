"""Reading a large CSV table: the column-wise path against the row-by-row reference, in one run.

``CsvReader.read`` reads a plain table column by column (``patternalg.measurements.csv_columns``);
the reference reads it row by row (what it did before, and still does for an irregular
table). Each read runs in a fresh process (``patternalg.measurements.read`` of the file, as
``fit`` reads it), the two paths in turn, and prints the median seconds of the read and
the median peak memory above the process's own after its imports, with the ratios.
The table is the probe's: ``kernel,x,time_s``, 3 kernels, 5 sizes, one row a repetition.

Run: ``python benchmarks/bench_csv_read.py --mb 20 200 --runs 3``.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import patternalg.measurements.csv as csv_module
from patternalg.measurements import read
from patternalg.measurements.csv_columns import Irregular


def write_table(path: Path, size: int) -> int:
    """A table of about ``size`` bytes; its rows."""
    rng = random.Random(0)
    rows = 0
    with open(path, "w") as out:
        out.write("kernel,x,time_s\n")
        while out.tell() < size:
            out.write("".join(f"k{rows % 3},{x},{x * 1e-6 * (1 + rng.random() * 0.1):.12f}\n" for x in (1000, 2000, 4000, 8000, 16000)))
            rows += 5
    return rows


def _declined(*_: object) -> None:
    raise Irregular


def child(path: str, reference: bool) -> None:
    """Read ``path`` once (by the reference if asked) and print seconds and peak bytes."""
    if reference:
        csv_module._by_columns = _declined  # type: ignore[assignment]
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    ms = read(path)
    seconds = time.perf_counter() - start
    peak = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) * 1024
    print(json.dumps({"seconds": seconds, "peak": peak, "values": sum(len(v) for s in ms for v in s.values)}))


def measure(path: Path, reference: bool) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(path), *(["--reference"] if reference else [])],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, nargs="+", default=[20.0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child")
    parser.add_argument("--reference", action="store_true")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.reference)
        return
    print(f"{'file MB':>8}{'rows':>10}{'columns s':>11}{'reference s':>13}{'ratio':>7}"
          f"{'columns MB':>12}{'x file':>8}{'reference MB':>14}{'x file':>8}")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        for mb in args.mb:
            path = Path(tmp) / "big.csv"
            rows = write_table(path, int(mb * 1e6))
            size = path.stat().st_size
            runs: dict[bool, list[dict]] = {False: [], True: []}
            for _ in range(args.runs):
                for reference in (False, True):  # in turn: a drift of the machine hits both
                    runs[reference].append(measure(path, reference))
            assert runs[False][0]["values"] == runs[True][0]["values"] == rows
            fast, slow = ({k: statistics.median(r[k] for r in runs[ref]) for k in ("seconds", "peak")} for ref in (False, True))
            print(f"{size / 1e6:>8.0f}{rows:>10}{fast['seconds']:>11.2f}{slow['seconds']:>13.2f}"
                  f"{slow['seconds'] / fast['seconds']:>7.1f}{fast['peak'] / 1e6:>12.0f}{fast['peak'] / size:>8.1f}"
                  f"{slow['peak'] / 1e6:>14.0f}{slow['peak'] / size:>8.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
