"""matplotlib, loaded only when a picture is asked for, with a fixed style and file output.

matplotlib is the optional extra ``patternalg[plot]``; without it every plotting call raises
:class:`PlotError` with the install hint. Figures are written by the suffix of the file
(``.png``, ``.svg``, ``.pdf``) with no timestamps in their metadata, so the same plot gives the
same bytes twice.

>>> sorted(FORMATS)
['pdf', 'png', 'svg']
"""

from __future__ import annotations

import contextlib
import io
import logging
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from .._internal.atomic_write import write_bytes_atomic
from .._internal.surface import either, flag
from ..errors import ArgumentError, PatternalgError, reason
from ..syntax.arith import format_number

__all__ = [
    "PlotError",
    "FORMATS",
    "pyplot",
    "new_axes",
    "given_axes",
    "check_path",
    "save_figure",
    "STYLE",
    "PANEL",
    "MAX_PANELS",
    "value_label",
    "shorten",
    "captured_warnings",
    "log_axes",
]

#: file suffix -> metadata that keeps the output free of dates and versions
FORMATS: dict[str, dict[str, Any]] = {
    "png": {"Software": None},
    "svg": {"Date": None, "Creator": None},
    "pdf": {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None},
}

#: a fixed style: readable at the default size, the same output on every run
STYLE: dict[Any, Any] = {
    "figure.figsize": (7.0, 4.5),
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "font.size": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "legend.fontsize": 9,
    "lines.linewidth": 1.8,
    "svg.hashsalt": "patternalg",
    "svg.fonttype": "none",  # text stays text: labels are searchable in the SVG
    "pdf.fonttype": 42,
}


#: the size of each panel of a figure with several
PANEL = (5.2, 4.2)

#: the most panels one figure holds: beyond a few rows a picture is unreadable, and
#: matplotlib's layout and drawing take seconds a panel (``plot --fit`` of 200 kernels took
#: minutes, of 20,000 hours)
MAX_PANELS = 12


class PlotError(PatternalgError, ValueError):
    """A picture that cannot be drawn or written (no matplotlib, bad file name, ...)."""


def pyplot() -> ModuleType:
    """``matplotlib.pyplot`` on the non-interactive Agg backend, styled; or a PlotError.
    matplotlib's own warnings while it loads (a home without a writable configuration
    directory: two long lines about the temporary one it makes instead) are not shown:
    they are about matplotlib's set-up, not the user's picture."""
    with _quiet_logger("matplotlib"):
        try:
            import matplotlib
        except ImportError:
            raise PlotError(
                "plotting needs matplotlib, which is not installed: pip install 'patternalg[plot]'"
            ) from None
        loaded = sys.modules
        if "matplotlib.pyplot" not in loaded and "ipykernel" not in loaded:
            matplotlib.use("Agg")  # files only; a notebook keeps its inline backend
        import matplotlib.pyplot as plt

    plt.rcParams.update(STYLE)
    return plt


@contextlib.contextmanager
def _quiet_logger(name: str) -> Iterator[None]:
    """The logger ``name`` shows errors only, inside the block."""
    logger = logging.getLogger(name)
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def value_label(unit: str, bare: str = "model") -> str:
    """The label of an axis of values in ``unit``: a time's ``time [ms]``, else ``value
    [bytes]``; ``bare`` without a unit.

    >>> value_label("ms"), value_label("dimensionless"), value_label("")
    ('time [ms]', 'value [dimensionless]', 'model')
    """
    if not unit:
        return bare
    from ..algebra.units import is_time

    return f"{'time' if is_time(unit) else 'value'} [{unit}]"


def shorten(label: str, limit: int = 60) -> str:
    """A long text (a term 10,000 deep) elided in the middle, line by line, so that titles,
    legends and tick labels fit the figure.

    >>> shorten("seq(qsort, " * 3 + "inc" + ")" * 3, 21)
    'seq(qsort,…rt, inc)))'
    >>> shorten("short\\nlines")
    'short\\nlines'
    """
    if len(label) <= limit:
        return label
    if "\n" in label:
        return "\n".join(shorten(line, limit) for line in label.split("\n"))
    half = (limit - 1) // 2
    return f"{label[:half]}…{label[-half:]}"


def _shorten_texts(fig: Any) -> None:
    """Every title, axis label and legend entry of ``fig`` through :func:`shorten`."""
    for ax in fig.axes:
        texts = [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
        legend = ax.get_legend()
        texts += list(legend.get_texts()) if legend is not None else []
        for text in texts:
            content = text.get_text()
            if len(content) > 60:
                text.set_text(shorten(content))


def new_axes(panels: int = 1) -> tuple[Any, list[Any]]:
    """A figure with ``panels`` axes side by side (wrapping after three), at most
    :data:`MAX_PANELS`: more is a PlotError."""
    if panels > MAX_PANELS:
        raise PlotError(
            f"{panels} panels in one figure: at most {MAX_PANELS} are drawn; choose fewer ("
            + either("plot --fit FILE --kernel NAME, or fewer --atoms", "reports to plot_fit_reports, or models to plot_models")
            + ")"
        )
    plt = pyplot()
    columns = min(panels, 3)
    rows = -(-panels // columns)
    width, height = STYLE["figure.figsize"] if panels == 1 else PANEL
    fig, axes = plt.subplots(
        rows, columns, figsize=(width * columns, height * rows), squeeze=False, layout="constrained"
    )
    flat = list(axes.flat)
    for extra in flat[panels:]:
        extra.set_visible(False)
    return fig, flat[:panels]


def given_axes(ax: Any) -> Any:
    """The axes to draw on: ``ax``, matplotlib axes, or new ones where it is None; anything
    else an ArgumentError (axes given mean matplotlib is loaded: nothing is imported).

    >>> given_axes(3)
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: ax: expected matplotlib axes to draw on, or None for new ones; got int 3
    """
    if ax is None:
        return new_axes(1)[1][0]
    loaded = sys.modules.get("matplotlib.axes")
    if loaded is None or not isinstance(ax, loaded.Axes):
        raise ArgumentError.wanted("ax", "matplotlib axes to draw on, or None for new ones", ax)
    return ax


def check_path(path: str | Path) -> tuple[Path, str]:
    """The picture file ``path`` and its format, or a PlotError saying what is wrong."""
    target = Path(path)
    suffix = target.suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise PlotError(
            f"{target}: cannot tell the picture format from the suffix "
            f"'{target.suffix or '(none)'}' (valid: .png, .svg, .pdf)"
        )
    try:
        is_dir = target.is_dir()  # a name too long for the file system raises here
    except OSError as exc:
        raise PlotError(f"{target}: cannot write a picture there: {reason(exc)}") from None
    if is_dir:
        raise PlotError(f"{target}: is a directory (give a file name ending in .{suffix})")
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise PlotError(f"{target}: the directory {directory} does not exist")
    return target, suffix


def save_figure(fig: Any, path: str | Path) -> Path:
    """Write ``fig`` to ``path`` by its suffix, atomically; nothing is left half-written.
    Long texts are elided first (:func:`shorten`)."""
    target, suffix = check_path(path)
    _shorten_texts(fig)
    _check_limits(fig)
    buffer = io.BytesIO()
    with warnings.catch_warnings():  # matplotlib's layout advice is not the user's business
        warnings.simplefilter("ignore")
        fig.savefig(buffer, format=suffix, metadata=FORMATS[suffix], bbox_inches="tight")
    write_bytes_atomic(target, buffer.getvalue())
    return target


#: the largest magnitude an axis draws: matplotlib's ticks of a linear axis running to
#: 1.7e308 overflow (``arange: cannot compute length``), and its margins around a value that
#: close to a double's largest overflow on a log axis too (it falls back to 1 to 10; a curve
#: leaves such values out, :func:`~patternalg.plotting.curves.plot_curves`)
MAX_DRAWN = 1e300


def _check_limits(fig: Any) -> None:
    """A PlotError if a linear axis of ``fig`` runs beyond :data:`MAX_DRAWN`."""
    for ax in fig.axes:
        for name, scale, limits in (
            ("x", ax.get_xscale(), ax.get_xlim()),
            ("y", ax.get_yscale(), ax.get_ylim()),
        ):
            if scale == "linear" and not all(abs(v) <= MAX_DRAWN for v in limits):
                low, high = (format_number(float(v), 3) for v in limits)
                raise PlotError(
                    f"the {name} axis would run from {low} to {high}, beyond what a linear axis "
                    f"draws (magnitudes up to {MAX_DRAWN:g}; values below 0 make an axis "
                    f"linear): narrow {flag('over')}"
                )


#: the decades a log axis's limits keep within: a double's normal range (matplotlib's margins
#: around 1e300 overflow, and the axis falls back to 1 to 10)
_LOG_RANGE = (-307.0, 308.25)


def log_axes(ax: Any) -> None:
    """Make both axes of ``ax`` logarithmic, drawable for any positive doubles its curves
    hold: ticks beyond a double's range left out (matplotlib's decades of ticks ran to
    infinity beyond about 1e270: an OverflowError on drawing), and the limits with
    matplotlib's margins kept within :data:`_LOG_RANGE` where the margins would pass it."""
    import numpy as np
    from matplotlib.ticker import LogLocator

    class FiniteLogLocator(LogLocator):
        """matplotlib's log ticks without those beyond a double."""

        def tick_values(self, vmin: float, vmax: float) -> Any:
            with np.errstate(over="ignore"):
                ticks = np.asarray(super().tick_values(vmin, vmax))
            return ticks[np.isfinite(ticks) & (ticks > 0)]

    limits = ax.dataLim
    for axis, (low, high), margin, set_limits, set_scale in (
        (ax.xaxis, (limits.minposx, limits.x1), ax.margins()[0], ax.set_xlim, ax.set_xscale),
        (ax.yaxis, (limits.minposy, limits.y1), ax.margins()[1], ax.set_ylim, ax.set_yscale),
    ):
        if 0 < low <= high < np.inf:  # limits first: the scale's own autoscaling would overflow
            start, end = np.log10(low), np.log10(high)
            pad = margin * (end - start)
            if start - pad < _LOG_RANGE[0] or end + pad > _LOG_RANGE[1]:
                bottom, top = 10 ** max(start - pad, _LOG_RANGE[0]), 10 ** min(end + pad, _LOG_RANGE[1])
                set_limits(min(low, bottom), max(high, top))  # the data's own ends inside
        set_scale("log")
        axis.set_major_locator(FiniteLogLocator())
        axis.set_minor_locator(FiniteLogLocator(subs="auto"))


@contextlib.contextmanager
def captured_warnings(notes: list[str]) -> Iterator[list[str]]:
    """Warnings raised inside (matplotlib's ``UserWarning`` that a layout could not be
    applied, ...) are not printed: the first line of each distinct one is appended to
    ``notes``, for a command to say once.

    >>> notes = []
    >>> with captured_warnings(notes):
    ...     warnings.warn("twice\\nmore"); warnings.warn("twice\\nmore")
    >>> notes
    ['twice']
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield notes
        finally:
            lines = dict.fromkeys(str(w.message).splitlines()[0] for w in caught if str(w.message))
            notes.extend(line for line in lines if line not in notes)
