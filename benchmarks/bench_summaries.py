"""Do summaries spread as the repetitions they summarise? (fits from statistics, not values)

For every committed run of ``benchmarks/realdata``, each atom's repetitions are summarised
as three tools write them, and each file is read by its own reader and fitted:

* an Extra-P experiment saved without its values (``.extra-p``: each point's median, mean,
  std, minimum, maximum and repetitions);
* Google Benchmark's ``--benchmark_report_aggregates_only`` JSON (mean, median, stddev and
  cv rows, with the repetitions);
* pytest-benchmark's ``compare --csv`` (min, max, mean, stddev, median, iqr, rounds, ...);
* a CSV of summaries as pandas writes one (``time_mean``, ``time_std``, ``time_count``).

Per format it prints, over every atom of every run, the ratio of the summary's figure to the
one the repetitions give (``patternalg fit`` of ``atoms.txt``): the noise (the relative spread
of a point's median) and the half-width of each coefficient's 90 % interval both fits have.
1 is agreement; nothing is tuned to these runs::

    python benchmarks/bench_summaries.py [--data DIR ...]
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_fidelity import RUNS, read_text  # noqa: E402

from patternalg.forms import PMNF  # noqa: E402
from patternalg.measurements import Measurements, read  # noqa: E402

Regions = dict[str, list[list[float]]]


def extrap(points: list[float], regions: Regions, path: Path) -> Path:
    """An Extra-P experiment of the statistics only, as Extra-P 4 saves one."""
    measurements = {
        name: {"time": [
            {"coordinate": [x], "median": float(np.median(v)), "mean": float(np.mean(v)),
             "minimum": float(np.min(v)), "maximum": float(np.max(v)), "std": float(np.std(v)),
             "repetitions": len(v), "values": None}
            for x, v in zip(points, rows, strict=True)
        ]}
        for name, rows in regions.items()
    }  # fmt: skip
    document = {"Extra-P": "4.2.5", "parameters": ["x"], "measurements": measurements, "modelers": []}
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("experiment.json", json.dumps(document))
    return path


def gbench(points: list[float], regions: Regions, path: Path) -> Path:
    """Google Benchmark's JSON of aggregates only."""
    rows = []
    for name, values in regions.items():
        for x, v in zip(points, values, strict=True):
            mean, sd = float(np.mean(v)), float(np.std(v, ddof=1))
            for aggregate, value in (("mean", mean), ("median", float(np.median(v))), ("stddev", sd)):
                rows.append({"name": f"{name}/{x:g}_{aggregate}", "run_name": f"{name}/{x:g}",
                             "run_type": "aggregate", "aggregate_name": aggregate, "repetitions": len(v),
                             "iterations": len(v), "real_time": value, "cpu_time": value, "time_unit": "ns"})  # fmt: skip
    path.write_text(json.dumps({"context": {"library_version": "1.7.1"}, "benchmarks": rows}))
    return path


def pytest_benchmark(points: list[float], regions: Regions, path: Path) -> Path:
    """pytest-benchmark's CSV (its times in seconds)."""
    with path.open("w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["name", "param:x", "min", "max", "mean", "stddev", "median", "iqr", "outliers",
                      "ops", "rounds", "iterations"])  # fmt: skip
        for name, values in regions.items():
            for x, v in zip(points, values, strict=True):
                s = np.asarray(v) * 1e-9
                q1, q3 = np.percentile(s, [25, 75])
                out.writerow([f"bench.py::{name}[{x:g}]", f"{x:g}", s.min(), s.max(), s.mean(), s.std(ddof=1),
                              np.median(s), q3 - q1, "0;0", 1 / s.mean(), len(s), 1])  # fmt: skip
    return path


def table(points: list[float], regions: Regions, path: Path) -> Path:
    """A CSV of summaries as pandas writes ``groupby(...).agg(["mean", "std", "count"])``."""
    with path.open("w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["kernel", "x", "time_mean", "time_std", "time_count"])
        for name, values in regions.items():
            for x, v in zip(points, values, strict=True):
                out.writerow([name, f"{x:g}", float(np.mean(v)), float(np.std(v, ddof=1)), len(v)])
    return path


FORMATS: dict[str, tuple[str, Callable[[list[float], Regions, Path], Path]]] = {
    "Extra-P experiment": ("e.extra-p", extrap),
    "Google Benchmark aggregates": ("gb.json", gbench),
    "pytest-benchmark CSV": ("pb.csv", pytest_benchmark),
    "CSV of means (pandas agg)": ("summaries.csv", table),
}


#: nanoseconds per unit of a fitted model (pytest-benchmark's are seconds)
NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def spread(ms: Measurements) -> dict[str, tuple[dict[str, float], float]]:
    """Per atom (the kernel's name before its parameters): each coefficient's 90 %
    half-width in ns, and the noise."""
    found = {}
    for report in PMNF.fit_each(ms):
        u, scale = report.model.uncertainty, NS[report.model.unit]
        if u is not None:
            kernel = report.kernel.split("[")[0].split("/")[0].lower()
            found[kernel] = ({str(t): h * scale for t, h in zip(u.terms, u.half_widths(0.9), strict=True)}, u.noise)
    return found


def summary(ratios: list[float]) -> str:
    r = np.array(ratios)
    q1, median, q3 = np.percentile(r, [25, 50, 75])
    return f"median {median:5.2f}  IQR {q1:4.2f}-{q3:4.2f}  range {r.min():5.3f}-{r.max():6.2f}  ({len(r)})"


def main_(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, action="append", help="a run directory (default: every one)")
    args = parser.parse_args(argv)
    noise: dict[str, list[float]] = {f: [] for f in FORMATS}
    widths: dict[str, list[float]] = {f: [] for f in FORMATS}
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        for run in args.data or RUNS:
            points, regions = read_text(run / "atoms.txt")
            theirs = spread(read(run / "atoms.txt"))
            for label, (file, write) in FORMATS.items():
                ours = spread(read(write(points, regions, tmp / f"{run.name}_{file}")))
                for atom, (their_widths, their_noise) in theirs.items():
                    own_widths, own_noise = ours[atom]
                    noise[label].append(own_noise / their_noise)
                    if not 0.5 < own_noise / their_noise < 2:
                        print(f"  {run.name} {atom} {label}: noise {own_noise:.3g} against {their_noise:.3g}")
                    widths[label] += [own_widths[t] / h for t, h in their_widths.items() if h > 0 and own_widths.get(t)]
    print("summary / repetitions, over every atom of every run (1: the same)")
    for label in FORMATS:
        print(f"{label:28} noise:                   {summary(noise[label])}")
        print(f"{'':28} coefficients' half-width: {summary(widths[label])}")


if __name__ == "__main__":
    main_()
