"""A fitted model over its measurements: the aggregate the fit used and the spread of the
repetitions, the model solid over the measured range and dashed beyond it, fit statistics
in the legend."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..measurements.model import Aggregation, Stated
from .backend import given_axes, log_axes, value_label

__all__ = ["plot_fit"]


def plot_fit(
    points: np.ndarray,
    repetitions: Sequence[np.ndarray],
    model: Callable[[np.ndarray], np.ndarray],
    *,
    title: str,
    model_text: str = "",
    statistics: Mapping[str, float] | None = None,
    extend_to: float | None = None,
    symbol: str = "x",
    unit: str = "ns",
    quantity: str = "",
    aggregate: str = "median",
    stated: Sequence[Stated | None] = (),
    ax: Any = None,
) -> Any:
    """Draw one kernel's measurements and its model; returns the matplotlib axes.

    ``points`` are the measured values of ``symbol``; ``repetitions[i]`` the measurements
    at ``points[i]``; ``model`` maps an array of the symbol to predicted values;
    ``extend_to`` draws the model on (dashed, as an extrapolation) up to that value;
    ``quantity`` names the values on the y axis (``energy [J]``; default ``time`` for a
    unit of time, else ``value``); ``aggregate`` is how the fit reduced the repetitions
    of a point (the markers, named in the legend); ``stated``: per point, what a summary
    states of the repetitions behind its one value (drawn as its value plus or minus the
    stated deviation, named apart in the legend).
    """
    ax = given_axes(ax)
    points = np.asarray(points, dtype=float)
    how = Aggregation(aggregate)
    centres = np.array([float(how.reduce(np.asarray(r, dtype=float))) for r in repetitions])
    low = np.maximum(centres - np.array([np.min(r) for r in repetitions]), 0.0)
    high = np.maximum(np.array([np.max(r) for r in repetitions]) - centres, 0.0)
    said = list(stated) or [None] * len(points)
    summary = np.array([s is not None and len(r) == 1 for s, r in zip(said, repetitions, strict=True)])
    if (~summary).any():
        ax.errorbar(points[~summary], centres[~summary], yerr=[low[~summary], high[~summary]], fmt="o",
                    color="black", markersize=4, capsize=3, label=f"measured ({how.value}, min-max)")  # fmt: skip
    if summary.any():
        spread = np.array([s.deviation for s, one in zip(said, summary, strict=True) if one and s is not None])
        below = np.minimum(spread, centres[summary])  # no bar below 0
        ax.errorbar(points[summary], centres[summary], yerr=[below, spread], fmt="s", color="black",
                    markersize=4, capsize=3, label="summarised (± its stated std)")  # fmt: skip
    lo, hi = float(points.min()), float(points.max())
    log = lo > 0 and bool(np.all(centres > 0))
    inside = np.geomspace(lo, hi, 200) if log else np.linspace(lo, hi, 200)
    (line,) = ax.plot(inside, model(inside), label=_legend(model_text, statistics))
    if extend_to is not None and extend_to > hi:
        beyond = np.geomspace(hi, extend_to, 100) if log else np.linspace(hi, extend_to, 100)
        ax.plot(beyond, model(beyond), linestyle="--", color=line.get_color(), label="extrapolated")
        ax.axvspan(hi, extend_to, color="0.5", alpha=0.08, linewidth=0)
    if log:
        log_axes(ax)
    ax.set_title(title)
    ax.set_xlabel(symbol)
    ax.set_ylabel(f"{quantity} [{unit}]" if quantity and unit else value_label(unit, "value"))
    ax.legend(loc="upper left", fontsize=8)
    return ax


def _legend(model_text: str, statistics: Mapping[str, float] | None) -> str:
    """``model`` and below it ``SMAPE 1.2 %, R² 0.999``, with what is known."""
    parts = []
    stats = statistics or {}
    if "smape" in stats:
        parts.append(f"SMAPE {stats['smape']:.3g} %")
    for key in ("ar2", "r2"):
        if key in stats:
            parts.append(f"R² {stats[key]:.4g}")
            break
    text = model_text or "model"
    return f"{text}\n{', '.join(parts)}" if parts else text
