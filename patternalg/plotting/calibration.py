"""A calibration as a picture: each calibration composition's relative error over x, under
the calibrated machine (solid, with markers) and under the rules (dashed, the same colour),
and a band of +-10 % around 0: what the machine's numbers took up of the rules' misses."""

from __future__ import annotations

from typing import Any

import numpy as np

from .backend import given_axes, shorten
from .validation import BAND

__all__ = ["plot_calibration"]


def plot_calibration(calibration: Any, *, ax: Any = None) -> Any:
    """Draw a :class:`~patternalg.evidence.calibrated.Calibration`; returns the axes (x on a
    log scale, the errors in percent)."""
    ax = given_axes(ax)
    import matplotlib  # loaded by given_axes or by the caller's axes

    colours = matplotlib.colormaps["tab10"]
    for k, residual in enumerate(calibration.residuals):
        sizes = np.asarray(residual.sizes, dtype=float)
        colour = colours(k % 10)
        name = shorten(residual.term, 40)
        ax.plot(sizes, 100 * np.asarray(residual.machine), marker="o", markersize=4, color=colour, label=name)
        ax.plot(sizes, 100 * np.asarray(residual.rules), linestyle="--", linewidth=1, color=colour, alpha=0.7)
    ax.axhspan(-100 * BAND, 100 * BAND, color="0.9", zorder=0, label=f"+-{100 * BAND:g} %")
    ax.axhline(0, color="0.5", linewidth=0.8)
    ax.plot([], [], linestyle="--", color="0.4", label="rules (exact)")
    ax.set_xscale("log")
    ax.set_xlabel("x")
    ax.set_ylabel("(predicted - measured) / measured [%]")
    ax.set_title(f"calibrated on {calibration.machine.cores} cores: the machine (solid), the rules (dashed)", fontsize="small")
    ax.legend(fontsize="small")
    return ax
