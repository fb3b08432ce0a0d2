"""Checks families make on measurements, with errors naming the file, the line and the column.

>>> from patternalg.measurements.readers import CsvReader
>>> ms = CsvReader.read("m.csv", "p,time\\n1,5\\n2,0\\n")
>>> require_above(ms.series[0], "time", 0.0, strict=True, what="the time")
Traceback (most recent call last):
...
patternalg.errors.MeasurementError: m.csv:3: column 'time': 0 is not valid (the time must be greater than 0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..errors import FitError, Location, MeasurementError
from .model import Measurements, Series

__all__ = ["cells", "first_bad", "require_above", "require_columns", "require_distinct"]


def cells(series: Series, column: str) -> tuple[np.ndarray, np.ndarray]:
    """(cells, lines) of ``column`` at every repetition: a parameter's coordinate, or the
    measured value if ``column`` is the series' metric (or not a parameter)."""
    lines = np.array([line for group in series.lines for line in group], dtype=int)
    if column in series.parameters:
        counts = [len(v) for v in series.values]
        return np.repeat(series.column(column), counts), lines
    return series.repetitions(), lines


def first_bad(
    series: Series, column: str, bad: Callable[[np.ndarray], np.ndarray]
) -> tuple[int, float] | None:
    """(line, cell) of the earliest repetition whose ``column`` cell is ``bad``, or None."""
    values, lines = cells(series, column)
    marked = np.flatnonzero(bad(values))
    if not len(marked):
        return None
    i = marked[np.argmin(lines[marked])]
    return int(lines[i]), float(values[i])


def require_above(series: Series, column: str, low: float, *, strict: bool, what: str) -> None:
    """Every cell of ``column`` must be >= ``low`` (> ``low`` if ``strict``)."""
    found = first_bad(series, column, (lambda v: v <= low) if strict else (lambda v: v < low))
    if found is not None:
        line, cell = found
        relation = "greater than" if strict else "at least"
        raise MeasurementError(
            f"column '{column}': {cell:g} is not valid ({what} must be {relation} {low:g})",
            location=Location(series.path, line or None),
        )


def require_columns(ms: Measurements, choices: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """The first group of ``choices`` whose columns are all parameters of ``ms``.

    >>> from patternalg.measurements.readers import CsvReader
    >>> require_columns(CsvReader.read("m.csv", "p,time\\n1,5\\n"), [["phi"], ["f_cpu", "f_mem"]])
    Traceback (most recent call last):
    ...
    patternalg.errors.MeasurementError: m.csv:1: missing column 'phi' (or 'f_cpu' and 'f_mem'); found only: p, time
    """
    for group in choices:
        if all(c in ms.parameters for c in group):
            return tuple(group)
    alternatives = " or ".join("'" + "' and '".join(g) + "'" for g in choices[1:])
    first = "' and '".join(choices[0])
    found = ", ".join(ms.columns or ms.parameters)
    also = f" (or {alternatives})" if alternatives else ""
    raise MeasurementError(
        f"missing column '{first}'{also}; found only: {found}", location=ms.location()
    )


def require_distinct(series: Series, column: str, needed: int, what: str) -> None:
    """At least ``needed`` distinct values of parameter ``column``, else a FitError."""
    have = len(np.unique(series.column(column)))
    if have < needed:
        rows = ", ".join(str(g[0]) for g in series.lines[:8]) or "none"
        raise FitError(
            f"kernel '{series.kernel}', column '{column}': {have} distinct "
            f"value(s) where {what} needs at least {needed} (rows at lines {rows})",
            location=Location(series.path),
        )
