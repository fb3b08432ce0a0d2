"""The best designs of ``optimize`` or ``explore`` as a horizontal bar chart, best on top."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .backend import PlotError, given_axes, shorten, value_label

__all__ = ["plot_designs"]


def plot_designs(
    labels: Sequence[str],
    values: Sequence[float],
    *,
    unit: str = "ns",
    title: str = "",
    ax: Any = None,
) -> Any:
    """One bar per design, sorted best (smallest) first; returns the matplotlib axes."""
    if not labels:
        raise PlotError("there are no designs to plot")
    order = np.argsort(np.asarray(values, dtype=float), kind="stable")
    names = [shorten(labels[i]) for i in order]
    heights = [float(values[i]) for i in order]
    new = ax is None
    ax = given_axes(ax)
    if new:
        ax.figure.set_figheight(max(2.5, 0.45 * len(names) + 1.2))
    positions = np.arange(len(names))
    colors = ["C2" if i == 0 else "C0" for i in range(len(names))]
    ax.barh(positions, heights, color=colors)
    ax.set_yticks(positions, names)
    ax.invert_yaxis()
    for y, value in zip(positions, heights, strict=True):
        ax.text(value, y, f" {value:.4g}", va="center", fontsize=8)
    ax.set_xlabel(value_label(unit))
    ax.grid(axis="y", visible=False)
    if title:
        ax.set_title(title)
    return ax

