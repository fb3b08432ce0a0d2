"""matplotlib, loaded only when a picture is asked for, with a fixed style and file output.

matplotlib is the optional extra ``patternalg[plot]``; without it every plotting call raises
:class:`PlotError` with the install hint. Figures are written by the suffix of the file
(``.png``, ``.svg``, ``.pdf``) with no timestamps in their metadata, so the same plot gives the
same bytes twice.

>>> sorted(FORMATS)
['pdf', 'png', 'svg']
"""

from __future__ import annotations

import io
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

from ..atomic_write import write_bytes_atomic
from ..errors import PatternalgError, reason
from ..limits import printable

__all__ = [
    "PlotError",
    "FORMATS",
    "pyplot",
    "new_axes",
    "check_path",
    "save_figure",
    "STYLE",
    "PANEL",
    "value_label",
    "short_label",
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


class PlotError(PatternalgError, ValueError):
    """A picture that cannot be drawn or written (no matplotlib, bad file name, ...)."""


def pyplot() -> ModuleType:
    """``matplotlib.pyplot`` on the non-interactive Agg backend, styled; or a PlotError."""
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


def value_label(unit: str, bare: str = "model") -> str:
    """The label of an axis of values in ``unit``: a time's ``time [ms]``, else ``value
    [bytes]``; ``bare`` without a unit.

    >>> value_label("ms"), value_label("dimensionless"), value_label("")
    ('time [ms]', 'value [dimensionless]', 'model')
    """
    if not unit:
        return bare
    from ..units import is_time

    return f"{'time' if is_time(unit) else 'value'} [{unit}]"


#: characters of a term shown in a legend, a title or a bar's name
LABEL_LIMIT = 60


def short_label(text: str, limit: int = LABEL_LIMIT) -> str:
    """``text`` for a legend or a title: one line, a long term elided in the middle (a
    10,000-stage term as a 56,000-character legend takes matplotlib minutes to lay out).

    >>> short_label("seq(" + "inc, " * 30 + "nop)")
    'seq(inc, inc, inc, inc, inc, … inc, inc, inc, inc, inc, nop)'
    """
    return printable(text, limit)


def new_axes(panels: int = 1) -> tuple[Any, list[Any]]:
    """A figure with ``panels`` axes side by side (wrapping after three)."""
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
    """Write ``fig`` to ``path`` by its suffix, atomically; nothing is left half-written."""
    target, suffix = check_path(path)
    buffer = io.BytesIO()
    with warnings.catch_warnings():  # matplotlib's layout advice is not the user's business
        warnings.simplefilter("ignore")
        fig.savefig(buffer, format=suffix, metadata=FORMATS[suffix], bbox_inches="tight")
    write_bytes_atomic(target, buffer.getvalue())
    return target
