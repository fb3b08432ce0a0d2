"""How honest the intervals of fitted atoms are, on the committed real runs.

For every ``benchmarks/realdata/data*/atoms.txt`` and every kernel: fit the atom (pmnf,
default modeler) on the lower ``--lower`` sizes, predict each upper size, and count how
often the measured median falls in the nominal 90 % interval of what a measurement would
show: the model's value under its uncertainty (``g(x)^T C g(x)``) plus the noise of a
median of R repetitions (``(noise * value)^2``); the same without the noise; and the
interval ``eval ATOM --interval 0.9`` prints (its draws, its model's own error from the
held-out errors and the noise: ``patternalg.algebra.intervals.Spread``). Also with every
size fitted (in-sample), and per method of ``fit --uncertainty``. Prints the coverage and the
median half-width relative to the value.

    python benchmarks/bench_uncertainty.py [--lower 5]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from statistics import NormalDist

import numpy as np

from patternalg.algebra.intervals import Spread
from patternalg.forms import PMNF
from patternalg.measurements import read
from patternalg.syntax.terms import Atom

HERE = Path(__file__).resolve().parent


def _spread(model: PMNF, at: float, noise: bool) -> tuple[float, float]:
    """The model's value at x = ``at`` and the standard deviation of a measurement there."""
    u = model.uncertainty
    value = float(model(x=at))
    if u is None:  # the data do not determine the spread: counted as exact, as patternalg does
        return value, 0.0
    variance = float(u.spread(x=at)) ** 2
    if noise:
        variance += (u.noise * value) ** 2
    return value, variance**0.5


#: what each row's interval holds
PARTS = {"interval": "eval", "noise": "draws+noise", "draws": "draws"}


def coverage(method: str, lower: int | None, parts: str = "noise") -> tuple[float, float, int]:
    """Share of (run, kernel, size) cells covered, median relative half-width, cells;
    ``parts``: ``noise`` (the coefficients' spread and the noise), ``draws`` (the
    coefficients' alone) or ``interval`` (what ``eval --interval`` gives the atom)."""
    z = NormalDist().inv_cdf(0.95)
    hits, widths = [], []
    for path in sorted(HERE.glob("realdata/data*/atoms.txt")):
        for series in read(path).series:
            order = np.argsort(series.points[:, 0])
            fitted = np.zeros(len(order), dtype=bool)
            fitted[order[:lower] if lower else order] = True
            model = PMNF.fit(series.subset(fitted), uncertainty=method)
            checked = order[lower:] if lower else order
            sizes = series.points[checked, 0]
            measured = np.array([np.median(series.values[i]) for i in checked])
            values = np.array([float(model(x=at)) for at in sizes])
            if parts == "interval":
                atom = model.atomic_model(series.kernel)
                low, high = Spread.of(Atom(series.kernel), {series.kernel: atom}, {}).interval({"x": sizes}, 0.9)
                half = (high - low) / 2
                hits += ((low <= measured) & (measured <= high)).tolist()
            else:
                half = z * np.array([_spread(model, float(at), parts == "noise")[1] for at in sizes])
                hits += (np.abs(measured - values) <= half).tolist()
            widths += (half / np.abs(values)).tolist()
    return float(np.mean(hits)), float(np.median(widths)), len(hits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lower", type=int, default=5, help="sizes fitted (held-out: the rest)")
    args = parser.parse_args()
    print("method     fitted on        interval of  coverage  half-width  cells")
    for method in ("bootstrap", "linear"):
        for lower, label in ((args.lower, f"lower {args.lower} sizes"), (None, "every size")):
            for parts in ("interval", "noise", "draws"):
                share, width, cells = coverage(method, lower, parts)
                print(
                    f"{method:<10} {label:<16} {PARTS[parts]:<12} "
                    f"{share:8.1%}  {width:9.1%}  {cells:5d}"
                )


if __name__ == "__main__":
    main()
