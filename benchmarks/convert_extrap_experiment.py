"""Convert an experiment Extra-P reads (a ``.extra-p`` file or a Cube set) to Extra-P's text format.

Runs inside Extra-P's own virtual environment (as ``extrap_driver.py``), reads with Extra-P's
own readers and writes, per kept call path and metric, one ``DATA`` line per point holding the
value Extra-P models with (``--measure mean``: under weak scaling the mean over the MPI ranks
of the Cube profiles) — a file patternalg's text reader reads::

    EXTRAP_VENV/bin/python convert_extrap_experiment.py INPUT OUTPUT.txt \\
        [--scaling weak] [--metric time] [--min-share 0.001] [--header TEXT]

``--min-share`` keeps the call paths whose value is at least that share of the largest call
path's value at some point (small kernels are noise); call paths are written in the order
Extra-P reads them. Only Extra-P's public reader classes are used.
"""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path


def read(path: Path, scaling: str):
    """The Extra-P experiment at ``path``: a ``.extra-p`` file or a directory of Cube profiles."""
    if path.is_dir():
        from extrap.fileio.file_reader.cube_file_reader2 import CubeFileReader2

        reader = CubeFileReader2()
        reader.scaling_type = scaling
        return reader.read_experiment(str(path))
    from extrap.fileio.experiment_io import read_experiment

    return read_experiment(str(path))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--scaling", default="weak", choices=["weak", "strong"])
    parser.add_argument("--metric", action="append", help="keep this metric (repeatable)")
    parser.add_argument("--measure", default="mean", choices=["mean", "median"])
    parser.add_argument("--min-share", type=float, default=0.0)
    parser.add_argument(
        "--header", action="append", default=[], help="a comment line to start with"
    )
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    experiment = read(args.input, args.scaling)
    coordinates = list(experiment.coordinates)
    metrics = [m for m in experiment.metrics if not args.metric or m.name in args.metric]
    lines = [f"# {text}" for text in args.header]
    lines += [f"PARAMETER {p.name}" for p in experiment.parameters]
    lines.append(
        "POINTS " + " ".join(f"({' '.join(f'{v:g}' for v in c.as_tuple())})" for c in coordinates)
    )
    kept = 0
    for metric in metrics:
        series = {}
        for callpath in experiment.callpaths:
            found = experiment.measurements.get((callpath, metric))
            if not found:
                continue
            at = {m.coordinate: float(getattr(m, args.measure)) for m in found}
            if all(c in at for c in coordinates):
                series[callpath.name] = [at[c] for c in coordinates]
        largest = [max(abs(v[i]) for v in series.values()) for i in range(len(coordinates))]
        for name, values in series.items():
            if any(
                abs(v) >= args.min_share * top and v != 0
                for v, top in zip(values, largest, strict=True)
            ):
                lines += [f"REGION {name}", f"METRIC {metric.name}"]
                lines += [f"DATA {v!r}" for v in values]
                kept += 1
    args.output.write_text("\n".join(lines) + "\n")
    print(
        f"{args.output}: {kept} kernels, {len(coordinates)} points, parameters "
        f"{', '.join(p.name for p in experiment.parameters)}"
    )


if __name__ == "__main__":
    main()
