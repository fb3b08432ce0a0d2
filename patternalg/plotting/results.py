"""Pictures of result objects: a sweep or comparison, a fit, an optimum, an exploration.

Each function takes the result as the library returns it (``decisions``, ``forms``) and
draws it with :mod:`curves`, :mod:`fits` or :mod:`bars`; nothing here evaluates a model
symbolically. The results' ``.plot(ax=None)`` methods call these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._internal.surface import at_text, flag
from ..measurements.names import quantity
from ..syntax.arith import format_expr
from .backend import PlotError, new_axes, shorten
from .bars import plot_designs
from .curves import Crossover, Curve, drawable, nothing_drawn, plot_curves
from .fits import plot_fit

__all__ = [
    "plot_sweep",
    "plot_evaluation",
    "plot_fit_report",
    "plot_fit_reports",
    "plot_optimum",
    "plot_exploration",
    "plot_models",
    "EXTEND",
    "LEGEND_DIGITS",
]

#: a fit's model is drawn on, dashed, to this multiple of the largest measured value
EXTEND = 16.0
#: significant digits of a model's numbers in a legend
LEGEND_DIGITS = 4


def _title(fixed: Sequence[tuple[str, str]]) -> str:
    return shorten(", ".join(f"{k} = {v}" for k, v in fixed))


def plot_sweep(sweep: Any, comparison: Any = None, *, ax: Any = None) -> Any:
    """A one-symbol :class:`~patternalg.decisions.sweep.Sweep` as curves, each pipe's
    bottleneck stretches shaded; with a ``comparison`` its crossovers are marked."""
    if len(sweep.axes) != 1:
        raise PlotError(
            f"a plot sweeps one symbol, got {len(sweep.axes)} "
            f"({', '.join(a.name for a in sweep.axes)}); fix the others with {flag('at')}"
        )
    axis = sweep.axes[0]
    curves = [
        Curve(term, values, tuple("" if b is None else str(b) for b in stages) if any(stages) else ())
        for term, values, stages in zip(sweep.terms, sweep.values, sweep.bottlenecks, strict=True)
    ]
    crossings = []
    if comparison is not None:
        heights = comparison.values(np.array([c.value for c in comparison.crossovers]))
        for k, c in enumerate(comparison.crossovers):
            below = comparison.terms.index(c.designs[0])
            crossings.append(Crossover(c.value, float(heights[below, k])))
    ax = plot_curves(
        axis.values, curves, symbol=axis.name, unit=sweep.unit or "", crossovers=crossings, ax=ax
    )
    _bands(ax, sweep, comparison)
    title = _title(sweep.fixed)
    if title:
        ax.set_title(f"at {title}")
    return ax


def _bands(ax: Any, sweep: Any, comparison: Any) -> None:
    """With intervals: each curve's band (in its colour), and the stretches where the
    comparison cannot tell the winner shaded grey."""
    if not getattr(sweep, "intervals", ()):
        return
    grid = sweep.axes[0].values
    level = f"{100 * sweep.level:g} %"
    for k, (low, high) in enumerate(sweep.intervals):
        ax.fill_between(grid, low, high, color=f"C{k}", alpha=0.2, linewidth=0, gid="band")
    undecided = [r for r in getattr(comparison, "ranges", ()) if r.winner is None]
    for i, r in enumerate(undecided):
        label = f"undecided at {level}" if i == 0 else None
        ax.axvspan(r.start, r.end, color="0.85", alpha=0.6, zorder=0, label=label, gid="undecided")
    ax.legend(loc="best", title=f"bands: {level} intervals")


def plot_evaluation(
    grid: np.ndarray,
    curve: Curve,
    *,
    symbol: str = "x",
    unit: str = "ns",
    point: tuple[str, float, float] | None = None,
    ax: Any = None,
) -> Any:
    """An evaluated term's curve over ``grid``; ``point`` = (symbol, value, model value)
    marks where it was evaluated."""
    ax = plot_curves(grid, [curve], symbol=symbol, unit=unit, ax=ax)
    if point is not None:
        name, where, value = point
        ax.plot(
            [where],
            [value],
            marker="s",
            color="C3",
            linestyle="none",
            label=f"{name} = {where:g}: {value:.4g}",
            gid="point",
        )
        ax.legend(loc="best")
    return ax


def _one_parameter(report: Any) -> str:
    series = report.series
    if series is None:
        raise PlotError(f"{report.atom}: the report holds no measurements to plot")
    if len(series.parameters) != 1:
        raise PlotError(
            f"{report.atom}: a fit plot draws one parameter, the measurements have "
            f"{len(series.parameters)} ({', '.join(series.parameters)})"
        )
    return str(series.parameters[0])


def plot_fit_report(report: Any, *, ax: Any = None, extend_to: float | None = None) -> Any:
    """One kernel's measurements with its fitted model (:class:`~patternalg.forms.FitReport`).

    The markers reduce the repetitions as the fit did (its statistic ``aggregate``, by
    default the median); the model is drawn on up to ``extend_to``, by default to where
    the fit checked it (its statistic ``upto``: PreSca's target range), else to
    :data:`EXTEND` times the largest measured value."""
    name = _one_parameter(report)
    series = report.series
    points = series.column(name)
    fitted = report.fitted
    # the closed form's own symbol (a file's n fits as n); a constant takes its family's input
    symbols = set(fitted.symbols) or set(fitted.inputs)
    symbol = name if name in symbols else next(iter(sorted(symbols)), name)

    def model(grid: np.ndarray) -> np.ndarray:
        return np.broadcast_to(fitted(**{symbol: grid}), grid.shape)

    return plot_fit(
        points,
        series.values,
        model,
        title=f"{report.atom} ({report.kernel})" if report.atom != report.kernel else report.atom,
        model_text=fitted.label(LEGEND_DIGITS),
        statistics=fitted.statistics,
        extend_to=extend_to or fitted.statistics.get("upto") or float(np.max(points)) * EXTEND,
        symbol=name,
        unit=report.unit,
        quantity=quantity(report.metric) if report.metric else "",
        aggregate=fitted.statistics.get("aggregate") or "median",
        stated=series.stated,
        ax=ax,
    )


def plot_fit_reports(reports: Sequence[Any], *, extend_to: float | None = None) -> Any:
    """One panel per report; returns the figure."""
    if not reports:
        raise PlotError("there is no fitted kernel to plot")
    fig, panels = new_axes(len(reports))
    for report, ax in zip(reports, panels, strict=True):
        plot_fit_report(report, ax=ax, extend_to=extend_to)
    return fig


def plot_optimum(optimum: Any, *, ax: Any = None) -> Any:
    """The best assignment, the runners-up and the even split of an ``optimize`` result."""
    ranked = [optimum.best, *optimum.runners_up]
    labels = [", ".join(f"{k}={v}" for k, v in c.assignment) for c in ranked]
    values = [c.value for c in ranked]
    if optimum.even_split is not None and optimum.even_split.assignment not in {
        c.assignment for c in ranked
    }:
        labels.append(
            "even split: " + ", ".join(f"{k}={v}" for k, v in optimum.even_split.assignment)
        )
        values.append(optimum.even_split.value)
    what = {"point": "", "max": " (worst over the range)", "mean": " (mean over the range)"}
    return plot_designs(
        labels,
        values,
        unit=optimum.unit or "",
        title=f"{shorten(optimum.term)}{what.get(optimum.objective, '')}",
        ax=ax,
    )


def plot_exploration(exploration: Any, *, ax: Any = None) -> Any:
    """The ranked designs of an ``explore`` result, which must be ranked at a point."""
    if any(d.value is None for d in exploration.designs):
        raise PlotError(
            "designs ranked by asymptotic growth have no values to draw; explore at a point "
            f"({at_text('x=...')})"
        )
    where = _title(exploration.at)
    return plot_designs(
        [d.term for d in exploration.designs],
        [d.value for d in exploration.designs],
        unit=exploration.unit or "",
        title=f"designs within {exploration.threads} threads" + (f" at {where}" if where else ""),
        ax=ax,
    )


def plot_models(sweeps: Any, models: Sequence[Any], labels: Sequence[str] | None = None) -> Any:
    """Library models (:class:`~patternalg.algebra.atomic_model.AtomicModel`) side by side: one panel per
    term of one-symbol sweeps of them over one axis (one sweep, or several: models of units
    that do not convert, each sweep in its own unit), the measured range of a fitted model
    shaded, a model with no value to draw said so in its panel (a PlotError naming them if
    none has one); returns the figure. ``labels`` name the models in the legends (default:
    their closed forms)."""
    sweeps = [sweeps] if hasattr(sweeps, "axes") else list(sweeps)
    if labels is None:
        labels = [format_expr(model.expr, LEGEND_DIGITS) for model in models]
    if any(len(s.axes) != 1 for s in sweeps):
        raise PlotError(f"a plot sweeps one symbol, got {max(len(s.axes) for s in sweeps)}")
    axis = sweeps[0].axes[0]
    drawn = [(values, s.unit) for s in sweeps for values in s.values]
    empty = [not np.isfinite(drawable(values)).any() for values, _ in drawn]
    if all(empty):
        named = [Curve(model.name, values) for model, (values, _) in zip(models, drawn, strict=True)]
        raise PlotError(nothing_drawn(axis.values, named, axis.name))
    fig, panels = new_axes(len(drawn))
    for (values, unit), model, label, ax, nothing in zip(drawn, models, labels, panels, empty, strict=True):
        if nothing:  # its panel says so; the others are drawn
            ax.text(0.5, 0.5, f"no value to draw over {axis.name} here", transform=ax.transAxes, ha="center")
            ax.set(title=model.name, xlabel=axis.name, xlim=(axis.values.min(), axis.values.max()), yticks=[])
            continue
        plot_curves(axis.values, [Curve(label, values)], symbol=axis.name, unit=unit, ax=ax)
        domain = dict(model.domain).get(axis.name)
        if domain is not None:
            ax.axvspan(*domain, color="C2", alpha=0.12, linewidth=0, label="measured range")
            ax.legend(loc="best")
        ax.set_title(model.name)
    return fig
