"""Checks of measured series that fitters share; errors name the file, the line and the column.

>>> import numpy as np
>>> from patternalg.measurements import Series
>>> s = Series("k", "time", ("p",), np.array([[1.0], [0.5]]),
...            (np.array([5.0]), np.array([4.0])), ((2,), (3,)), "m.csv")
>>> check_points(s, "p", 1.0, strict=False, what="a core count p")
Traceback (most recent call last):
...
patternalg.errors.MeasurementError: m.csv:3: column 'p': 0.5 is not valid (a core count p must be at least 1)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import FitError, MeasurementError

__all__ = ["check_points", "check_values", "require_distinct"]


def _invalid(path: str, line: int, column: str, value: float, low: float, strict: bool, what: str):
    relation = "greater than" if strict else "at least"
    return MeasurementError(
        f"{path}:{line}: column '{column}': {value:g} is not valid "
        f"({what} must be {relation} {low:g})"
    )


def check_points(series: Any, column: str, low: float, *, strict: bool, what: str) -> None:
    """Every coordinate of parameter ``column`` >= ``low`` (> ``low`` if ``strict``)."""
    cells = series.column(column)
    bad = cells <= low if strict else cells < low
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise _invalid(series.path, series.lines[i][0], column, cells[i], low, strict, what)


def check_values(series: Any, low: float, *, strict: bool, what: str) -> None:
    """Every measured value (each repetition) >= ``low`` (> ``low`` if ``strict``)."""
    values = series.repetitions()
    bad = values <= low if strict else values < low
    if bad.any():
        i, r = series.first_line(bad)
        line = series.lines[i][r]
        column = series.metric or "value"
        raise _invalid(series.path, line, column, series.values[i][r], low, strict, what)


def require_distinct(series: Any, column: str, needed: int, what: str) -> None:
    """At least ``needed`` distinct values of ``column`` among the points, else a FitError."""
    have = len(np.unique(series.column(column)))
    if have < needed:
        rows = ", ".join(str(lines[0]) for lines in series.lines[:8]) or "none"
        raise FitError(
            f"{series.path}: kernel '{series.kernel}', column '{column}': {have} distinct "
            f"value(s) where {what} needs at least {needed} (rows at lines {rows})"
        )
