"""A validation as a picture: predicted against measured, log-log, one marker colour per
term, the line y = x (a perfect prediction) and a band of +-10 % around it; where a point
has repetitions to halve, a thin bar from the least to the greatest value measured by a
half of them (how far the measurement itself moves); with the rules compared, their
predictions as small grey crosses."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..algebra.units import factor
from .backend import given_axes, log_axes, shorten, value_label

__all__ = ["plot_validation", "BAND", "LEGEND_TERMS", "MARKERS"]

#: the relative error shaded around y = x
BAND = 0.10
#: terms named in the legend (the rest are drawn, counted in one entry)
LEGEND_TERMS = 12
#: the markers of the first 20 terms (the colours of tab20), of the next 20, ...
MARKERS = ("o", "s", "^", "D")


def _halves_bars(ax: Any, halves: np.ndarray, predicted: np.ndarray, colour: Any, label: bool) -> bool:
    """At each point's prediction, a bar over what the halves of its repetitions measured
    (named in the legend with ``label``); whether any was drawn."""
    positive = np.where(halves > 0, halves, np.nan)  # log axes
    low = np.nanmin(positive, axis=0, initial=np.inf)
    high = np.nanmax(positive, axis=0, initial=0.0)
    keep = np.isfinite(low) & np.isfinite(high) & (predicted > 0) & np.isfinite(predicted)
    if keep.any():
        name = "measured by a half of the repetitions" if label else None
        ax.hlines(predicted[keep], low[keep], high[keep], color=colour, linewidth=1, alpha=0.6, label=name, zorder=2)
    return bool(keep.any())


def plot_validation(validation: Any, *, ax: Any = None) -> Any:
    """Draw a :class:`~patternalg.evidence.validation.Validation`; returns the axes. Values
    are drawn in the first term's unit (the others converted to it)."""
    ax = given_axes(ax)
    unit = validation.validated[0].unit
    import matplotlib  # loaded by given_axes or by the caller's axes

    colours = matplotlib.colormaps["tab20"]
    drawn = []
    for k, v in enumerate(validation.validated):
        scale = float(factor(v.unit, unit))
        measured, predicted = v.measured * scale, v.predicted * scale
        keep = (measured > 0) & (predicted > 0) & np.isfinite(measured) & np.isfinite(predicted)
        label = shorten(v.term, 40) if k < LEGEND_TERMS else None
        ax.scatter(
            measured[keep], predicted[keep], s=18, color=colours(k % 20), label=label, zorder=3,
            marker=MARKERS[k // 20 % len(MARKERS)],
        )  # fmt: skip
        drawn.append(measured[keep])
        if v.rules_predicted is not None:
            rules = v.rules_predicted * scale
            keep = (measured > 0) & (rules > 0) & np.isfinite(rules)
            label = f"{validation.rules} (the rules)" if k == 0 else None
            ax.scatter(
                measured[keep], rules[keep], s=14, marker="x", color="grey", label=label, zorder=2
            )
    labelled = False
    for k, v in enumerate(validation.validated):  # after the markers: the legend names the terms first
        if v.halves is not None:
            scale = float(factor(v.unit, unit))
            labelled |= _halves_bars(ax, v.halves * scale, v.predicted * scale, colours(k % 20), not labelled)
    values = np.concatenate(drawn) if drawn else np.empty(0)
    if values.size:
        low, high = float(values.min()) / 1.5, float(values.max()) * 1.5
        line = np.geomspace(low, high, 50)
        ax.plot(line, line, color="black", linewidth=1, label="predicted = measured")
        ax.fill_between(
            line, line * (1 - BAND), line * (1 + BAND), color="black", alpha=0.08,
            label=f"+-{BAND:.0%}",
        )  # fmt: skip
        log_axes(ax)
    hidden = len(validation.validated) - LEGEND_TERMS
    if hidden > 0:
        ax.scatter([], [], s=18, color="white", label=f"... and {hidden} more terms")
    ax.set_xlabel(f"measured {value_label(unit)} ({validation.aggregate})")
    ax.set_ylabel(f"predicted {value_label(unit)}")
    ax.set_title(f"validation ({validation.semantics})")
    ax.legend(loc="upper left", fontsize=7)
    return ax
