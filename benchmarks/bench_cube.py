"""Cube input: what patternalg reads from Extra-P's Cube test sets against what Extra-P reads.

For each vendored Cube set (``tests/data/extrap/tests/data/cubeset/``) and scaling, runs
Extra-P 4.2.5's Cube reader (``extrap_driver.py --format cube``, in Extra-P's own virtual
environment) and ``CubeReader.read_path``, and prints the kernels, the points and the
largest relative difference of the mean and the median per point of the ``time`` metric,
and both readers' reading times. ``--record`` writes Extra-P's values and models to
``tests/data/extrap/cube_extrap.json``, which ``tests/test_cube.py`` compares with (so the
tests never run Extra-P)::

    PYTHONPATH=. python benchmarks/bench_cube.py [--record]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from pathlib import Path

from bench_fit import extrap_python

from patternalg.measurements.cube import CubeReader

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "tests" / "data" / "extrap"
#: (Cube set relative to DATA, scaling) pairs compared
SETS = (
    ("tests/data/cubeset/single_parameter", "weak"),
    ("tests/data/cubeset/single_parameter", "strong"),
    ("tests/data/cubeset/simple_threaded", "weak"),
    ("tests/data/cubeset/simple_threaded", "weak_threaded"),
    ("tests/data/cubeset/simple_threaded", "strong"),
)
RECORD = DATA / "cube_extrap.json"


def run_extrap(python: str, directory: Path, scaling: str) -> tuple[dict, float]:
    """Extra-P's reading (values and Basic models of ``time``) and its wall time."""
    command = [python, str(HERE / "extrap_driver.py"), str(directory), "--format", "cube"]
    command += ["--scaling", scaling, "--metric", "time", "--measurements"]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout), time.perf_counter() - start


def differences(extrap: dict, directory: Path, scaling: str) -> tuple[int, int, float]:
    """(kernels, points, largest relative difference of mean or median) against ours."""
    ours = {s.kernel: s for s in CubeReader.read_path(directory, scaling=scaling)}
    worst, points = 0.0, 0
    for m in extrap["measurements"]:
        s = ours[m["kernel"]]
        (index,) = [i for i, p in enumerate(s.points.tolist()) if p == m["point"]]
        for how in ("mean", "median"):
            value = float(s.aggregate(how)[index])
            worst = max(worst, abs(value - m[how]) / max(abs(m[how]), 1e-300))
        points += 1
    assert len(ours) == len({m["kernel"] for m in extrap["measurements"]})
    return len(ours), points, worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extrap-python", help="Python of an environment with extrap 4.2.5")
    parser.add_argument("--venv", default="~/.cache/patternalg/extrap-4.2.5")
    parser.add_argument("--record", action="store_true", help=f"write {RECORD.name}")
    args = parser.parse_args()
    python = extrap_python(args)
    recorded = {}
    for name, scaling in SETS:
        extrap, extrap_seconds = run_extrap(python, DATA / name, scaling)
        start = time.perf_counter()
        kernels, points, worst = differences(extrap, DATA / name, scaling)
        ours_seconds = time.perf_counter() - start
        print(
            f"{name} ({scaling}): {kernels} kernels, {points} kernel points, largest relative "
            f"difference of mean/median {worst:.1e}; Extra-P {extrap_seconds:.2f} s "
            f"(whole process), patternalg {ours_seconds:.2f} s (reading)"
        )
        keep = ("parameters", "measurements", "models")
        recorded.setdefault(name, {})[scaling] = {key: extrap[key] for key in keep}
    if args.record:
        RECORD.write_text(json.dumps({"extrap": "4.2.5", "sets": recorded}, indent=1) + "\n")
        print(f"wrote {RECORD}")


if __name__ == "__main__":
    main()
