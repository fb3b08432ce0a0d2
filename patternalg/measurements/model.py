"""The measurement model: series of repetitions per point, grouped into one file's measurements.

Like Extra-P's ``Experiment``: named parameters, the measured points (coordinates), kernels
(call paths) x metrics, the repetitions at each point, and the source line of every value.

>>> s = Series("sort", "time", ("x",), np.array([[8.0], [16.0]]),
...            (np.array([1.0, 3.0]), np.array([5.0])), ((2, 3), (4,)), "m.csv")
>>> s.aggregate("mean").tolist(), s.aggregate(Aggregation.MAX).tolist(), s.location(1)
([2.0, 5.0], [3.0, 5.0], Location(path='m.csv', line=4, column=None, key=None))
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from statistics import NormalDist
from typing import Any, NamedTuple

import numpy as np

from .._internal.display import brief, counted, counts_text, listed, ranges_text
from .._internal.limits import printable
from ..errors import Location, MeasurementError
from .cells import where
from .names import atom_name, atom_names, is_composition, split_unit

__all__ = ["Aggregation", "Stated", "Series", "Measurements", "LeftOut", "hand_left_out", "where", "series_label", "of_series", "no_parameter", "STAND_INS"]

#: at most this many values stand in for the repetitions a summary states (more would only
#: slow the bootstrap: their deviation is scaled so that their mean varies as the stated
#: repetitions' would)
STAND_INS = 64


def no_parameter(name: str, parameters: Sequence[str], location: Location) -> MeasurementError:
    """The error for a declared parameter ``name`` that is none of ``parameters``.

    >>> str(no_parameter("p", ["n", "host"], Location("m.csv", 1)))
    "m.csv:1: no parameter 'p' (the parameters: n, host)"
    """
    return MeasurementError(
        f"no parameter '{name}' (the parameters: {', '.join(parameters) or 'none'})", location=location
    )


class Aggregation(StrEnum):
    """How the repetitions of one point become one value.

    >>> Aggregation("median").reduce(np.array([[1.0, 2.0, 9.0]]), axis=1).tolist()
    [2.0]
    >>> Aggregation("mode")
    Traceback (most recent call last):
    ...
    ValueError: 'mode' is not a valid Aggregation
    """

    MEAN = "mean"
    MEDIAN = "median"
    BIWEIGHT = "biweight"
    MIN = "min"
    MAX = "max"

    def reduce(self, array: np.ndarray, axis: int | None = None) -> np.ndarray:
        """The aggregate of ``array`` (along ``axis``; all of it if None).

        >>> Aggregation("biweight").reduce(np.array([[1.0, 3.0, 5.0, 7.0]]), axis=1).tolist()
        [4.0]
        >>> Aggregation("mean").reduce(np.array([1e308, 1e308])).tolist()  # overflows, silently
        inf
        """
        with np.errstate(over="ignore", invalid="ignore"):
            if self is Aggregation.BIWEIGHT:
                from .robust import biweight_location

                flat = np.ravel(array) if axis is None else array
                return biweight_location(flat, axis=-1 if axis is None else axis)
            return np.asarray(getattr(np, self.value)(array, axis=axis))


@dataclass(frozen=True)
class Stated:
    """What a summary says of the repetitions behind a point's one value (their mean or
    median): their standard deviation and how many they were. Google Benchmark's
    aggregates, pytest-benchmark's tables, an Extra-P experiment saved without its values and
    a CSV table of summaries (``time_mean``, ``time_std``, ``time_count``) state them.

    >>> v = Stated(2.0, 5).stand_ins(100.0)
    >>> v.round(3).tolist(), float(v.mean()), round(float(v.std(ddof=1)), 12)
    ([97.382, 98.929, 100.0, 101.071, 102.618], 100.0, 2.0)
    >>> many = Stated(2.0, 6400).stand_ins(100.0)  # 64 values, spread as a mean of 6400 is
    >>> len(many), round(float(many.std(ddof=1) / 64 ** 0.5), 12), 2.0 / 6400 ** 0.5
    (64, 0.025, 0.025)
    """

    deviation: float
    count: int

    @classmethod
    def of(cls, deviation: object, count: object) -> Stated | None:
        """What a summary states, from its standard deviation and its count of repetitions
        as the file gives them (numbers, or text of numbers); None where either is missing
        or no such number (a negative or infinite deviation, a count that is not a whole
        number of at least 2): the value is read all the same, as a point measured once.

        >>> Stated.of(2.5, 5), Stated.of("2.5", "5"), Stated.of(2.5, None), Stated.of(-1, 5), Stated.of(2.5, 1.5)
        (Stated(deviation=2.5, count=5), Stated(deviation=2.5, count=5), None, None, None)
        """
        if isinstance(deviation, bool) or isinstance(count, bool):
            return None
        try:
            spread = float(deviation)  # type: ignore[arg-type]
            many = float(count)  # type: ignore[arg-type]
        except (TypeError, ValueError, OverflowError):
            return None
        if not (math.isfinite(spread) and spread >= 0 and math.isfinite(many) and many >= 2 and many.is_integer()):
            return None
        return cls(spread, int(many))

    def below(self, median: float, minimum: object) -> Stated:
        """This spread of repetitions whose median is ``median``, at most twice the one the
        distance from their ``minimum`` to it gives (``(median - minimum) / z``, ``z`` the
        normal quantile the least of R values falls at, ``(R - 0.375) / (R + 0.25)``: Wan et
        al. 2014's estimate from a range, on its lower half); unchanged without a minimum
        at or below the median.

        A few slow repetitions make a standard deviation (or, among a few, an interquartile
        range) many times what the median moves by: ``nop`` of ``data13`` at x = 262,144
        has a std of 2,260 ns about a median of 68 ns. Times have no such outliers below, but
        bunch there against their floor, so the lower half alone says too little (0.7 of
        the repetitions' own noise at the median, over the committed runs' atoms;
        ``docs/fitting.md``, "Summaries"): twice it bounds a spread the outliers did not make.

        >>> Stated(2260.2, 20).below(68.25, 47.1)
        Stated(deviation=22.6..., count=20)
        >>> Stated(95.4, 20).below(275.5, 88.1), Stated(95.4, 20).below(275.5, None)
        (Stated(deviation=95.4, count=20), Stated(deviation=95.4, count=20))
        >>> round(Stated(95.4, 10**300).below(275.5, 88.1).deviation, 2)  # z of a billion values
        61.71
        """
        if not isinstance(minimum, int | float) or isinstance(minimum, bool) or not minimum <= median:
            return self
        count = min(self.count, 10**9)  # beyond, (R - 0.375) / (R + 0.25) rounds to 1
        z = NormalDist().inv_cdf((count - 0.375) / (count + 0.25))
        return Stated(min(self.deviation, 2 * (median - minimum) / z), self.count)

    def stand_ins(self, value: float) -> np.ndarray:
        """Values that stand in for the repetitions around ``value``: :data:`STAND_INS` at
        most, at a normal's quantiles, with the stated deviation (scaled by
        ``sqrt(values / count)`` where there are fewer than ``count``); ``value`` alone
        where there were not two repetitions or the deviation is not a number."""
        if self.count < 2 or not math.isfinite(self.deviation) or self.deviation < 0:
            return np.array([value], dtype=float)
        n = min(self.count, STAND_INS)
        return value + self.deviation * math.sqrt(n / self.count) * _unit_quantiles(n)  # type: ignore[no-any-return]


@functools.cache
def _unit_quantiles(n: int) -> np.ndarray:
    """A normal's ``n`` quantiles at ``(i + 0.5) / n``, exactly symmetric (mean and median 0)
    and scaled to a sample standard deviation of 1 (the same for every point: made once)."""
    quantiles = np.array([NormalDist().inv_cdf((i + 0.5) / n) for i in range(n)])
    quantiles = (quantiles - quantiles[::-1]) / 2
    unit = quantiles / quantiles.std(ddof=1)
    unit.setflags(write=False)
    return unit


def series_label(kernel: str, metric: str) -> str:
    """``kernel 'sort', metric 'time'`` (no metric if it is unnamed) for a message, each name
    shown to :data:`~patternalg._internal.limits.MAX_SHOWN` characters.

    >>> series_label("sort", ""), series_label("k", "b" * 100)
    ("kernel 'sort'", "kernel 'k', metric 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbb…bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'")
    """
    metric_shown = f", metric '{printable(metric)}'" if metric else ""
    return f"kernel '{printable(kernel)}'{metric_shown}"


def of_series(kernel: str, metric: str, error: MeasurementError) -> MeasurementError:
    """``error`` with its message naming the series it leaves out (where others are read).

    >>> str(of_series("k", "time", MeasurementError("'' is not a number", location=Location("m.csv", 2))))
    "m.csv:2: kernel 'k', metric 'time': '' is not a number"
    """
    return MeasurementError(f"{series_label(kernel, metric)}: {error.message}", location=error.location)


@dataclass(frozen=True, eq=False)
class Series:
    """One kernel (call path) x one metric: the repetitions measured at each point.

    ``points`` has one row per distinct point and one column per parameter; ``values[i]``
    holds the repetitions at ``points[i]`` and ``lines[i]`` their source lines (0: unknown).
    ``unit`` is the unit the source states for the values (a value column's ``time_ms``, a
    Cube file's); by default the one the metric's name states (``METRIC time_ms``), if any.
    ``stated`` is empty, or per point what a summary states of the repetitions behind its
    one value (:class:`Stated`; None where it states nothing): the fits' uncertainty and the
    measurement's noise are computed from :attr:`spread_values`, where they stand in.
    The points are kept in ascending order (by the first parameter, then the next), each
    with its values, lines and summary: a file lists them in any order, and the same
    measurements are the same series (a fit's resampling draws by position).

    >>> Series("sort", "time_ms", ("x",), np.ones((1, 1)), (np.ones(1),), ((2,),), "m").unit
    'ms'
    >>> Series("k", "t", ("x",), np.array([[8.0], [2.0]]), (np.ones(1), np.zeros(1)), ((1,), (2,)), "m").lines
    ((2,), (1,))
    """

    kernel: str
    metric: str
    parameters: tuple[str, ...]
    points: np.ndarray
    values: tuple[np.ndarray, ...]
    lines: tuple[tuple[int, ...], ...]
    path: str
    unit: str | None = None
    stated: tuple[Stated | None, ...] = ()

    def __post_init__(self) -> None:
        if self.unit is None:
            object.__setattr__(self, "unit", split_unit(self.metric)[1])
        if self.stated and len(self.stated) != len(self.values):
            raise ValueError(f"{len(self.stated)} stated summaries for {len(self.values)} points")
        points = np.asarray(self.points)
        if points.ndim == 2 and len(points) > 1:
            order = np.lexsort(points.T[::-1])
            if np.any(order != np.arange(len(order))):
                object.__setattr__(self, "points", points[order])
                for name in ("values", "lines", "stated"):
                    kept = getattr(self, name)
                    if kept:
                        object.__setattr__(self, name, tuple(kept[i] for i in order))

    @property
    def spread_values(self) -> tuple[np.ndarray, ...]:
        """The repetitions at each point, those a summary states stood in for
        (:meth:`Stated.stand_ins`) where a point has one value: what the uncertainty of a
        fit and the noise of a measurement are computed from.

        >>> s = Series("k", "t", ("x",), np.ones((1, 1)), (np.array([10.0]),), ((1,),), "m",
        ...            stated=(Stated(1.0, 3),))
        >>> [v.round(3).tolist() for v in s.spread_values], s.values
        ([[9.0, 10.0, 11.0]], (array([10.]),))
        """
        if not self.stated:
            return self.values
        return tuple(
            s.stand_ins(float(v[0])) if s is not None and len(v) == 1 else v
            for v, s in zip(self.values, self.stated, strict=True)
        )

    def __len__(self) -> int:
        return len(self.values)

    @property
    def atom(self) -> str:
        """The atom name of this kernel (:func:`atom_name`)."""
        return atom_name(self.kernel)

    @property
    def label(self) -> str:
        """``kernel 'sort'`` (and its metric, if named), for messages."""
        return series_label(self.kernel, self.metric)

    def aggregate(self, how: Aggregation | str = "mean") -> np.ndarray:
        """One value per point: the mean, median, biweight, min or max of its repetitions."""
        return Series.aggregate_all([self], how)[0]

    @staticmethod
    def aggregate_all(series: Sequence[Series], how: Aggregation | str = "mean") -> np.ndarray:
        """:meth:`aggregate` of each of ``series`` (all with as many points): shape (series,
        points), at once when every point of every series has as many repetitions.

        >>> s = Series("a", "", ("x",), np.array([[1.0]]), (np.array([1.0, 3.0]),), ((1, 2),), "")
        >>> Series.aggregate_all([s, s], "median").tolist()
        [[2.0], [2.0]]
        """
        agg = Aggregation(how)
        if len({len(v) for s in series for v in s.values}) == 1:  # as many everywhere: at once
            return agg.reduce(np.array([s.values for s in series], dtype=float), axis=2)
        return np.array([[agg.reduce(v) for v in s.values] for s in series], dtype=float)

    def column(self, name: str) -> np.ndarray:
        """The coordinates of parameter ``name`` at each point."""
        if name not in self.parameters:
            raise MeasurementError(
                f"{self.label}: no parameter '{name}' "
                f"(its parameters: {', '.join(self.parameters) or 'none'})",
                location=where(self.path),
            )
        return self.points[:, self.parameters.index(name)]

    def location(self, index: int | None = None) -> Location:
        """Where point ``index`` (its first repetition; None: the first point) was read."""
        lines = self.lines[index or 0] if self.lines else ()
        return where(self.path, min(lines, default=0) if index is None else lines[0])

    def subset(self, mask: np.ndarray) -> Series:
        """The points where ``mask`` holds."""
        chosen = np.flatnonzero(mask)
        return replace(
            self,
            points=self.points[chosen],
            values=tuple(self.values[i] for i in chosen),
            lines=tuple(self.lines[i] for i in chosen),
            stated=tuple(self.stated[i] for i in chosen) if self.stated else (),
        )

    def with_column(self, name: str, coordinates: np.ndarray) -> Series:
        """This series with one more parameter (e.g. a ratio of two others), one value a point."""
        points = np.column_stack([self.points, np.asarray(coordinates, dtype=float)])
        return replace(self, parameters=(*self.parameters, name), points=points)

    def over(self, names: Sequence[str]) -> Series:
        """The series over only the parameters ``names``: points equal in them are merged.

        >>> s = Series("k", "t", ("x", "p"), np.array([[1.0, 1], [1, 2], [2, 1]]),
        ...            (np.array([5.0]), np.array([4.0]), np.array([9.0])), ((2,), (3,), (4,)), "m")
        >>> merged = s.over(["x"])
        >>> merged.points.tolist(), [v.tolist() for v in merged.values], merged.lines
        ([[1.0], [2.0]], [[5.0, 4.0], [9.0]], ((2, 3), (4,)))
        """
        stacked = np.column_stack([self.column(n) for n in names]).reshape(len(self), len(names))
        unique, inverse = np.unique(stacked, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        groups = [np.flatnonzero(inverse == i) for i in range(len(unique))]
        return replace(
            self,
            parameters=tuple(names),
            points=unique,
            values=tuple(np.concatenate([self.values[j] for j in g]) for g in groups),
            lines=tuple(sum((self.lines[j] for j in g), ()) for g in groups),
            stated=tuple(self.stated[g[0]] if len(g) == 1 else None for g in groups) if self.stated else (),
        )

    def repetitions(self) -> np.ndarray:
        """All repetitions, point by point, as one flat array."""
        return np.concatenate(self.values) if self.values else np.empty(0)

    def __eq__(self, other: object) -> bool:
        """Equal in every field, the arrays element by element."""
        if not isinstance(other, Series):
            return NotImplemented
        return (
            (self.kernel, self.metric, self.parameters, self.lines, self.path, self.unit, self.stated)
            == (other.kernel, other.metric, other.parameters, other.lines, other.path, other.unit, other.stated)
            and np.array_equal(self.points, other.points)
            and len(self.values) == len(other.values)
            and all(np.array_equal(a, b) for a, b in zip(self.values, other.values, strict=True))
        )

    def __hash__(self) -> int:
        return hash((self.kernel, self.metric, self.parameters, self.path, len(self.values)))

    def __repr__(self) -> str:
        """Its kernel and metric, where it was measured and how often, on one line.

        >>> Series("sort", "time", ("x",), np.array([[8.0], [64.0]]), (np.ones(3), np.ones(2)), ((2, 3, 4), (5, 6)), "m.csv")
        Series('sort', 'time': 2 points, x in [8, 64], 2 to 3 repetitions, from m.csv)
        """
        extent = _extent(self.parameters, [self])
        return brief("Series", f"{self.kernel!r}, {self.metric!r}: {counted(len(self.values), 'point')}, {extent}, from {self.path}")


def _extent(parameters: Sequence[str], series: Sequence[Series]) -> str:
    """Where ``series`` were measured (each parameter's least and largest value) and how
    often (the repetitions at a point, least to most)."""
    points = [s.points for s in series if len(s.points)]
    if not points:
        return "no points"
    both = np.concatenate(points)
    ranges = ranges_text(zip(parameters, zip(both.min(axis=0), both.max(axis=0), strict=True), strict=False))
    reps = counts_text(len(v) for s in series for v in s.values)
    return f"{ranges}, {reps} repetition{'' if reps == '1' else 's'}"


class LeftOut(NamedTuple):
    """A series a reader left out (its ``kernel`` and ``metric``) and why (``error``, at
    the line that is wrong): the rest of its source is read."""

    kernel: str
    metric: str
    error: MeasurementError


def hand_left_out(data: Any, on_error: Callable[[MeasurementError], None] | None) -> None:
    """Hand the error of each series the reader left out of ``data`` (its
    :attr:`~Measurements.left_out`; none for anything but ``Measurements``) to ``on_error``;
    without one, raise the first: the one way a command or a fit says what was not read.

    >>> from patternalg.measurements.csv import CsvReader
    >>> ms = CsvReader.read("m.csv", "kernel,x,time\\na,1,2\\nb,1,abc\\n")
    >>> hand_left_out(ms, print)
    m.csv:3: kernel 'b', metric 'time': column 'time': 'abc' is not a number
    """
    for left in getattr(data, "left_out", ()):
        if on_error is None:
            raise left.error
        on_error(left.error)


@dataclass(frozen=True, eq=False)
class Measurements:
    """All series of one source over the same named parameters.

    ``value_name`` is the value column (CSV) or ``value``; ``unit`` the unit its name states
    (``time_ms`` -> ms), else None. ``columns`` are the source's column names (CSV only)
    and ``line`` the line that declares them (header, PARAMETER line), for messages;
    ``notes`` say what was left out in reading (a NaN repetition, ...) or how the source
    was read (a harness's aggregates used where it kept no repetitions, its own fit to
    compare with).
    """

    path: str
    format: str
    parameters: tuple[str, ...]
    value_name: str
    unit: str | None
    series: tuple[Series, ...]
    columns: tuple[str, ...] = ()
    line: int = 0
    #: what a person should know of how the source was read (repetitions dropped, ...)
    notes: tuple[str, ...] = ()
    #: the series left out in reading, each with why (a value that is not a number, a
    #: REGION short of DATA lines): ``fit_each`` hands them to its ``on_error``
    left_out: tuple[LeftOut, ...] = ()

    def __iter__(self) -> Iterator[Series]:
        return iter(self.series)

    def __len__(self) -> int:
        return len(self.series)

    def select(self, kernel: str | None = None, metric: str | None = None) -> Measurements:
        """The series of ``kernel`` and/or ``metric`` only; an error if none is left."""
        def chosen(found: Series | LeftOut) -> bool:
            return (kernel is None or found.kernel == kernel) and (metric is None or found.metric == metric)

        kept = tuple(filter(chosen, self.series))
        left = tuple(filter(chosen, self.left_out))
        if not kept and left:
            raise left[0].error  # the series asked for was left out in reading: why
        if not kept:
            what, name, found = (
                ("metric", metric, {s.metric for s in self.series})
                if metric is not None and all(s.metric != metric for s in self.series)
                else ("kernel", kernel, {s.kernel for s in self.series})
            )
            raise MeasurementError(
                f"no {what} '{name}' "
                f"(the file has: {', '.join(sorted(found - {''})) or 'none named'})",
                location=where(self.path),
            )
        return replace(self, series=kept, left_out=left)

    def over(self, names: Sequence[str]) -> Measurements:
        """These measurements over only the parameters ``names``, in that order: in each
        series, points equal in them are merged and their repetitions pooled
        (:meth:`Series.over`); an error for a name that is no parameter.

        >>> s = Series("k", "t", ("n", "rep"), np.array([[8.0, 1], [8, 2], [16, 1]]),
        ...            (np.array([5.0]), np.array([6.0]), np.array([9.0])), ((2,), (3,), (4,)), "m.csv")
        >>> ms = Measurements("m.csv", "csv", ("n", "rep"), "t", None, (s,)).over(["n"])
        >>> ms.parameters, [v.tolist() for v in ms.series[0].values]
        (('n',), [[5.0, 6.0], [9.0]])
        """
        for name in names:
            if name not in self.parameters:
                raise no_parameter(name, self.parameters, self.location())
        return replace(self, parameters=tuple(names), series=tuple(s.over(names) for s in self.series))

    def compositions(self) -> tuple[str, ...]:
        """The kernels named by a term composed of atoms (``pipe(a, b)``), each once:
        measured compositions, which ``fit`` leaves to ``validate`` and ``calibrate``
        (:func:`~patternalg.measurements.names.is_composition`)."""
        return tuple(dict.fromkeys(s.kernel for s in self.series if is_composition(s.kernel)))

    def atoms(self) -> tuple[str, ...]:
        """Distinct atom names, one per series: the kernel's :func:`atom_name`, with the
        metric appended when the series have several metrics."""
        several = len({s.metric for s in self.series}) > 1
        return tuple(
            atom_names(
                [f"{s.kernel}_{s.metric}" if several and s.metric else s.kernel for s in self]
            )
        )

    def location(self) -> Location:
        """Where the parameters are declared (the header of a CSV file)."""
        return where(self.path, self.line)

    def __eq__(self, other: object) -> bool:
        """Equal in every field and every series."""
        if not isinstance(other, Measurements):
            return NotImplemented
        fields = ("path", "format", "parameters", "value_name", "unit", "columns", "line", "notes")
        return all(getattr(self, f) == getattr(other, f) for f in fields) and (
            self.series == other.series
        )

    def __hash__(self) -> int:
        return hash((self.path, self.format, self.parameters, self.value_name, len(self.series)))

    def __repr__(self) -> str:
        """Its kernels and metrics, the first few by name, where they were measured and how
        often, on one line.

        >>> s = Series("sort", "time", ("x",), np.array([[8.0], [64.0]]), (np.ones(5), np.ones(5)), ((2,), (3,)), "m.csv")
        >>> Measurements("m.csv", "csv", ("x",), "time", None, (s, replace(s, kernel="inc")))
        Measurements(2 kernels: sort, inc; metric time; x in [8, 64], 5 repetitions; from m.csv)
        """
        kernels = list(dict.fromkeys(s.kernel for s in self.series))
        metrics = list(dict.fromkeys(s.metric for s in self.series))
        what = f"{counted(len(kernels), 'kernel')}: {listed(kernels)}"
        what += f"; metric {metrics[0]}" if len(metrics) == 1 else f"; {counted(len(metrics), 'metric')}: {listed(metrics, 4)}"
        return brief("Measurements", f"{what}; {_extent(self.parameters, self.series)}; from {self.path}")

    def table(self) -> Any:
        """The series as a table, a row each (:class:`~patternalg.measurements.table.MeasurementsTable`:
        kernel, metric, points and where, repetitions, the medians at the ends, unit and
        noise; printed, ``to_csv()``, ``to_dataframe()``)."""
        from .table import MeasurementsTable

        return MeasurementsTable(self, self.series)

    def _repr_html_(self) -> str:
        """A notebook's table of the series (the first and the last of many)."""
        from .._internal.display import shown_rows
        from .table import MeasurementsTable

        shown, _ = shown_rows(list(self.series))
        return MeasurementsTable(self, tuple(shown), len(self.series))._repr_html_()

    def to_dataframe(self) -> Any:
        """A long pandas DataFrame, one row a repetition: ``kernel``, ``metric``, the
        parameters, the value, ``unit`` and ``line`` (needs ``patternalg[pandas]``);
        :meth:`from_dataframe` reads it back to equal measurements.

        >>> import pandas as pd
        >>> df = pd.DataFrame({"n": [8, 8, 16], "time_ms": [1.0, 1.5, 3.0]})
        >>> m = Measurements.from_dataframe(df, parameters=["n"], value="time_ms")
        >>> m.to_dataframe()[["kernel", "n", "time_ms", "unit"]].values.tolist()
        [['kernel', 8.0, 1.0, 'ms'], ['kernel', 8.0, 1.5, 'ms'], ['kernel', 16.0, 3.0, 'ms']]
        >>> Measurements.from_dataframe(m.to_dataframe()) == m
        True
        """
        from .frames import to_frame

        return to_frame(self)

    @classmethod
    def from_dataframe(
        cls,
        df: Any,
        parameters: Sequence[str] | None = None,
        value: str | None = None,
        kernel: str = "kernel",
        metric: str = "metric",
        unit: str | None = None,
    ) -> Measurements:
        """Measurements from a long DataFrame, one row a repetition (as a CSV file):
        the ``parameters`` columns, the ``value`` column, the kernel's name from the
        column ``kernel`` (else one kernel, ``kernel``), the metric's from the column
        ``metric`` (else the value column's name). The values' unit is ``unit``, else the
        frame's column ``unit``, else the one the value column names (``time_ms``); none: a
        time is taken as ns, with a note when fitted. A frame from :meth:`to_dataframe` needs
        no arguments. Needs ``patternalg[pandas]``.

        >>> import pandas as pd
        >>> df = pd.DataFrame({"n": [8, 16], "time": [0.0012, 0.0025]})
        >>> Measurements.from_dataframe(df, parameters=["n"], value="time", unit="s").series[0].unit
        's'
        """
        from .frames import from_frame

        fields, series = from_frame(df, parameters, value, kernel, metric, unit)
        fields["left_out"] = tuple(LeftOut(k, m, of_series(k, m, error)) for k, m, error in fields["left_out"])
        return cls(**fields, series=tuple(
            Series(**{**s, "stated": tuple(p and Stated.of(*p) for p in s["stated"])}) for s in series
        ))  # fmt: skip
