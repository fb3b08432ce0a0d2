"""How honest the intervals of fitted atoms are, on the committed real runs.

For every ``benchmarks/realdata/data*/atoms.txt`` and every kernel: fit the atom (pmnf,
default modeler) on the lower ``--lower`` sizes, predict each upper size, and count how
often the measured median falls in the nominal 90 % interval of what a measurement would
show: the model's value under its uncertainty (``g(x)^T C g(x)``) plus the noise of a
median of R repetitions (``(noise * value)^2``). Also with every size fitted (in-sample),
and per method of ``fit --uncertainty``. Prints the coverage and the median half-width
relative to the value.

    python benchmarks/bench_uncertainty.py [--lower 5]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from statistics import NormalDist

import numpy as np

from patternalg.forms import PMNF
from patternalg.measurements import read

HERE = Path(__file__).resolve().parent


def _spread(model: PMNF, at: float, noise: bool) -> tuple[float, float]:
    """The model's value at x = ``at`` and the standard deviation of a measurement there."""
    u = model.uncertainty
    assert u is not None
    value = float(model(x=at))
    variance = float(u.spread(x=at)) ** 2
    if noise:
        variance += (u.noise * value) ** 2
    return value, variance**0.5


def coverage(method: str, lower: int | None, noise: bool = True) -> tuple[float, float, int]:
    """Share of (run, kernel, size) cells covered, median relative half-width, cells."""
    z = NormalDist().inv_cdf(0.95)
    hits, widths = [], []
    for path in sorted(HERE.glob("realdata/data*/atoms.txt")):
        for series in read(path).series:
            order = np.argsort(series.points[:, 0])
            fitted = np.zeros(len(order), dtype=bool)
            fitted[order[:lower] if lower else order] = True
            model = PMNF.fit(series.subset(fitted), uncertainty=method)
            checked = order[lower:] if lower else order
            for i in checked:
                value, sd = _spread(model, float(series.points[i, 0]), noise)
                measured = float(np.median(series.values[i]))
                hits.append(abs(measured - value) <= z * sd)
                widths.append(z * sd / abs(value))
    return float(np.mean(hits)), float(np.median(widths)), len(hits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lower", type=int, default=5, help="sizes fitted (held-out: the rest)")
    args = parser.parse_args()
    print("method     fitted on        noise  coverage  half-width  cells")
    for method in ("bootstrap", "linear"):
        for lower, label in ((args.lower, f"lower {args.lower} sizes"), (None, "every size")):
            for noise in (True, False):
                share, width, cells = coverage(method, lower, noise)
                print(
                    f"{method:<10} {label:<16} {'yes' if noise else 'no':<6} "
                    f"{share:8.1%}  {width:9.1%}  {cells:5d}"
                )


if __name__ == "__main__":
    main()
