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
from dataclasses import replace

import numpy as np

from .._internal.surface import switch
from ..errors import FitError, Location, MeasurementError
from .model import Measurements, Series

__all__ = [
    "NOT_RUN",
    "cells",
    "first_bad",
    "positive_times",
    "require_above",
    "require_columns",
    "require_distinct",
]


#: what a series of times that are all 0 is taken for
NOT_RUN = "every time is 0 (a code path that did not run)"


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


def positive_times(series: Series, *, keep: bool = False) -> tuple[Series, str | None]:
    """The one rule for times that are not positive, applied to one series (kernel x metric):
    the series to fit, and a note saying what was done (None if every time is above 0).

    A 0 among positive repetitions of a point is a failed repetition: it is dropped. A
    point whose repetitions are all 0 is where the code did not run: its zeros are fitted
    as measured, and a series that is 0 everywhere (a code path that never ran) becomes
    the constant 0. A negative time is no measurement of anything: a MeasurementError at
    its line. ``keep`` (``--allow-nonpositive``) fits every value as measured.

    >>> s = Series("k", "time", ("x",), np.array([[1.0], [2.0]]),
    ...            (np.array([3.0, 0.0]), np.array([5.0, 6.0])), ((2, 3), (4, 5)), "m.txt")
    >>> fitted, note = positive_times(s)
    >>> [v.tolist() for v in fitted.values], fitted.lines, note
    ([[3.0], [5.0, 6.0]], ((2,), (4, 5)), "m.txt:3: kernel 'k', metric 'time': 1 time of 0 among positive repetitions dropped (allow_nonpositive=True keeps it)")
    >>> positive_times(replace(s, values=(np.zeros(2), np.zeros(2))))[1]
    "m.txt:2: kernel 'k', metric 'time': every time is 0 (a code path that did not run): fitted as measured, the constant 0"
    >>> positive_times(replace(s, values=(np.array([3.0, -1.0]), np.ones(2))))
    Traceback (most recent call last):
    ...
    patternalg.errors.MeasurementError: m.txt:3: kernel 'k', metric 'time': the time -1 is not positive (a measured time is > 0); allow_nonpositive=True fits it anyway
    """
    found = first_bad(series, series.metric, lambda v: ~(v > 0))
    if found is None:
        return series, None
    line, value = found
    where = f"{Location(series.path, line or None)}: {series.label}: "
    count = int(sum(np.sum(~(v > 0)) for v in series.values))
    if keep:
        return series, where + (
            f"the time {value:g} is not positive; fitted as measured ({switch('allow-nonpositive')}), "
            f"{count} such value(s)"
        )
    negative = first_bad(series, series.metric, lambda v: ~(v >= 0))
    if negative is not None:
        raise MeasurementError(
            f"{series.label}: the time {negative[1]:g} is not positive (a measured time is > 0); "
            f"{switch('allow-nonpositive')} fits it anyway",
            location=Location(series.path, negative[0] or None),
        )
    zero = [v == 0 for v in series.values]
    if all(z.all() for z in zero):
        return series, where + (
            f"{NOT_RUN}: fitted as measured, the constant 0"
        )
    silent = sum(bool(z.all()) for z in zero)
    dropped = sum(int(z.sum()) for z in zero if not z.all())
    parts = []
    if dropped:
        its = "it" if dropped == 1 else "them"
        parts.append(
            f"{_times(dropped)} of 0 among positive repetitions dropped "
            f"({switch('allow-nonpositive')} keeps {its})"
        )
    if silent:
        parts.append(
            f"{silent} of {len(zero)} points measured 0 (the code did not run there?): "
            "fitted as measured"
        )
    values = tuple(v if z.all() else v[~z] for v, z in zip(series.values, zero, strict=True))
    lines = tuple(
        tuple(ln) if z.all() else tuple(n for n, drop in zip(ln, z, strict=True) if not drop)
        for ln, z in zip(series.lines, zero, strict=True)
    )
    return replace(series, values=values, lines=lines), where + "; ".join(parts)


def _times(count: int) -> str:
    return f"{count} time{'s' if count != 1 else ''}"
