"""Models over a range: one line per term, crossovers marked, bottleneck stretches shaded.

The data come in plain: the grid, each curve's values and, for a pipe, the name of its
bottleneck stage at each grid point. Evaluating terms is the caller's job (``sweep``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._internal.surface import flag
from ..syntax.arith import format_number, number_text
from .backend import MAX_DRAWN, PlotError, given_axes, log_axes, shorten, value_label

__all__ = ["Curve", "Crossover", "plot_curves", "bottleneck_stretches", "drawable", "nothing_drawn"]


@dataclass(frozen=True)
class Curve:
    """One term's values over the grid; ``bottlenecks[i]`` names the stage that sets its pace at ``grid[i]``
    (``""``: none, where the term has no value)."""

    label: str
    values: np.ndarray
    bottlenecks: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Crossover:
    """A point where two designs cross (or touch) in the swept symbol."""

    value: float
    height: float
    label: str = ""


def bottleneck_stretches(grid: np.ndarray, names: Sequence[str]) -> list[tuple[float, float, str]]:
    """Maximal runs of the grid with the same bottleneck: (from, to, name); two runs meet
    halfway between their grid points (geometrically where both are positive, as on a log
    axis), so that every grid point lies in its own bottleneck's stretch.

    >>> bottleneck_stretches(np.array([1.0, 2.0, 8.0, 16.0]), ["nop", "nop", "inc", "inc"])
    [(1.0, 4.0, 'nop'), (4.0, 16.0, 'inc')]
    """
    stretches: list[tuple[float, float, str]] = []
    for i, name in enumerate(names):
        if stretches and stretches[-1][2] == name:
            stretches[-1] = (stretches[-1][0], float(grid[i]), name)
        elif stretches:
            low, high = float(grid[i - 1]), float(grid[i])
            middle = _halfway(low, high)
            stretches[-1] = (stretches[-1][0], middle, stretches[-1][2])
            stretches.append((middle, high, name))
        else:
            stretches.append((float(grid[i]), float(grid[i]), name))
    return stretches


def _halfway(low: float, high: float) -> float:
    """Halfway between two grid points: geometrically where both are positive (a log
    axis's middle), without overflow near a double's largest.

    >>> _halfway(2.0, 8.0), _halfway(-1.0, 3.0), _halfway(1e300, 1e302)
    (4.0, 1.0, 1e+301)
    """
    if low > 0 and high > 0:
        product = low * high
        return math.sqrt(product) if math.isfinite(product) else math.sqrt(low) * math.sqrt(high)
    return (low + high) / 2


#: relative difference within which two curves are the same (rounding: as compare's ties)
_SAME = 1e-12


def drawable(values: Any) -> np.ndarray:
    """``values`` as doubles, those beyond :data:`~.backend.MAX_DRAWN` (or no number) NaN:
    the gaps of a curve."""
    values = np.asarray(values, dtype=float)
    return np.where(np.abs(values) <= MAX_DRAWN, values, np.nan)


def _same(values: np.ndarray, earlier: np.ndarray) -> bool:
    """Whether two curves are one to rounding: values equal where they have them, gaps in
    the same places, and some value (two curves of gaps alone are not "the same").

    >>> nan = float("nan")
    >>> _same(np.array([1.0, nan]), np.array([1.0, nan])), _same(np.array([nan, nan]), np.array([nan, nan]))
    (True, False)
    """
    some = bool(np.isfinite(values).any())
    return some and bool(np.allclose(values, earlier, rtol=_SAME, atol=0, equal_nan=True))


def nothing_drawn(grid: np.ndarray, curves: Sequence[Curve], symbol: str) -> str:
    """Why a picture of ``curves`` would be empty."""
    names = ", ".join(shorten(curve.label) for curve in curves)
    low, high = (number_text(float(v), 6) for v in (grid.min(), grid.max()))
    return (
        f"nothing to draw: {names} {'has' if len(curves) == 1 else 'have'} no value over "
        f"{symbol} in [{low}, {high}] (a number of magnitude up to {MAX_DRAWN:g}): choose "
        f"another {flag('over')}"
    )


def plot_curves(
    grid: np.ndarray,
    curves: Sequence[Curve],
    *,
    symbol: str = "x",
    unit: str = "ns",
    crossovers: Sequence[Crossover] = (),
    log: bool = True,
    ax: Any = None,
) -> Any:
    """Draw each curve over ``grid``; returns the matplotlib axes.

    Log-log by default (a linear axis where the grid or the values go below zero). A curve
    whose bottleneck changes over the grid has each stretch shaded and named in the legend.
    A value that is no number, or beyond :data:`~.backend.MAX_DRAWN`, is a gap in its curve;
    a curve that is all gaps says so in the legend, and a PlotError if every curve is.
    """
    grid = np.asarray(grid, dtype=float)
    if grid.ndim != 1 or len(grid) < 2:
        raise PlotError("a plot needs a grid of at least 2 points in one symbol")
    values_of = [drawable(curve.values) for curve in curves]
    if not any(np.isfinite(values).any() for values in values_of):
        raise PlotError(nothing_drawn(grid, curves, symbol))
    ax = given_axes(ax)
    positive = bool(np.all(grid > 0))
    drawn: list[tuple[str, np.ndarray]] = []
    for curve, values in zip(curves, values_of, strict=True):
        label = shorten(curve.label)
        style: str | tuple[int, tuple[int, int]] = "-"
        same = [name for name, earlier in drawn if _same(values, earlier)]
        if same:  # drawn over a curve equal to it: dashed, and the legend says so
            label, style = f"{label} (same as {same[0]})", (0, (4, 2 + 2 * len(same)))
        finite = values[np.isfinite(values)]
        if not finite.size:  # nothing of it to see: the legend says why
            label = f"{label} (no value to draw)"
        ax.plot(grid, values, label=label, linestyle=style)
        drawn.append((shorten(curve.label), values))
        positive = positive and bool(np.all(finite >= 0) and (np.any(finite > 0) or not finite.size))
    if log and positive:  # zeros (a log2(x) at x = 1) are left out of a log axis
        log_axes(ax)
    _shade_bottlenecks(ax, grid, curves)
    for crossing in crossovers:
        ax.axvline(crossing.value, color="0.4", linestyle=":", linewidth=1)
        ax.plot(
            [crossing.value],
            [crossing.height],
            marker="o",
            markersize=7,
            color="black",
            linestyle="none",
            label=f"crossover {symbol} = {format_number(crossing.value, 6)}",
            gid="crossover",
        )
    ax.set_xlabel(symbol)
    ax.set_ylabel(value_label(unit))
    ax.legend(loc="best")
    return ax


def _shade_bottlenecks(ax: Any, grid: np.ndarray, curves: Sequence[Curve]) -> None:
    """Shade the stretches of the first curve whose bottleneck changes over the grid; the
    legend names each stretch's bottleneck stage."""
    for curve in curves:
        if len(set(curve.bottlenecks) - {""}) < 2:  # "": no value there, so no stage
            continue
        for k, (start, end, name) in enumerate(bottleneck_stretches(grid, curve.bottlenecks)):
            if not name:  # no value there, so no slowest stage
                continue
            ax.axvspan(
                start,
                end,
                color=f"C{(k + 8) % 10}",
                alpha=0.12,
                linewidth=0,
                label=f"{shorten(curve.label)}: {shorten(name)} bottleneck",
            )
        return
