"""CSV tables: a header, then one row per repetition; ``kernel`` and ``metric`` columns optional.

Without a ``kernel`` column the file holds one kernel, named after the file
(``qsort.csv`` holds ``qsort``; standard input holds ``kernel``).

The delimiter is the header's comma, semicolon or tab (the most frequent), else runs of
blanks. The value column is the one ``value`` names (or the first present of several names
it lists, or the one it chooses), or ``metric`` names. Otherwise every column whose name
says it is a measured value (:func:`~patternalg.measurements.names.is_value_name`: ``time``,
``runtime[s]``, ``speedup`` ...) is one metric of each kernel, as an Extra-P file's
``METRIC`` lines are (a file with a ``metric`` column names each row's metric and has
one value column); a file with no such column has its last column as the value. The
parameters are all other numeric columns except those named like values.

A table of summaries, one row a point (as ``df.groupby(...).agg(["mean", "std", "count"])``
writes it), names each value's statistics after it: ``time_mean`` (or ``_median``) is the
value, ``time_std`` (``_stddev``, ``_sd``) and ``time_count`` (``_n``, ``_runs``, ``_reps``,
or a column ``count``, ``runs``, ``repetitions``) what it states of the repetitions behind
it (:class:`~patternalg.measurements.Stated`), its metric ``time``; pandas' two-level header
(``time`` over ``mean``, ``std``, ``count``) reads as those names, and columns ``mean``,
``std`` and ``count`` alone as the statistics of one metric, ``value``.

>>> ms = CsvReader.read("s.csv", "n,time_ms_mean,time_ms_std,runs\\n8,1.5,0.1,10\\n16,3.5,0.2,10\\n")
>>> ms.parameters, [(s.metric, s.unit, s.aggregate().tolist()) for s in ms], ms.series[0].stated[1]
(('n',), [('time_ms', 'ms', [1.5, 3.5])], Stated(deviation=0.2, count=10))

>>> ms = CsvReader.read("m.csv", "time_ms;size\\n1.5;8\\n2.5;8\\n3.5;16\\n")
>>> ms.parameters, ms.value_name, ms.unit, ms.series[0].values[0].tolist(), ms.series[0].lines
(('size',), 'time_ms', 'ms', [1.5, 2.5], ((2, 3), (4,)))
>>> CsvReader.read("m.csv", "sep=;\\nSize (elements);Time [us];\\n8;1.5;\\n").parameters
('size',)
>>> ms = CsvReader.read("fft.csv", "n,time,energy\\n8,1.5,20\\n16,3.5,41\\n")
>>> [(s.kernel, s.metric, s.aggregate().tolist()) for s in ms], ms.atoms()
([('fft', 'time', [1.5, 3.5]), ('fft', 'energy', [20.0, 41.0])], ('fft_time', 'fft_energy'))
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path

import numpy as np

from .._internal.limits import printable
from .._internal.reading import text_lines
from ..algebra.units import check_unit
from ..errors import Location, MeasurementError, UnitError
from .base import (
    STDIN,
    Collector,
    Reader,
    ValueChoice,
    cell_too_long,
    is_number_text,
    measured,
    number,
)
from .csv_columns import Irregular, columns
from .model import Measurements, Stated, no_parameter
from .names import (
    SummaryColumns,
    bookkeeping,
    is_value_name,
    parameter_name,
    quantity,
    split_unit,
    summary_columns,
)
from .parameters import declared_parameters, undeclared

__all__ = ["CsvReader", "DEFAULT_KERNEL", "TEXT_COLUMNS"]

#: kernel name of standard input (or a nameless file) without a kernel column
DEFAULT_KERNEL = "kernel"
#: columns that hold names, not numbers
TEXT_COLUMNS = ("kernel", "metric")
_DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab"}


def delimiter(header: str) -> str | None:
    """The header's most frequent of comma, semicolon and tab; None for blanks.

    >>> delimiter("x;time"), delimiter("x\\ttime"), delimiter("x  time"), delimiter("a,b;c,d")
    (';', '\\t', None, ',')
    """
    counts = {d: header.count(d) for d in _DELIMITERS}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else None


#: the first line a spreadsheet (Excel) writes to name the delimiter: ``sep=;``
_EXCEL_SEP = re.compile(r'\s*"?sep=(.)"?\s*', re.IGNORECASE)


def _split(lines: Sequence[str], sep: str | None) -> list[list[str]]:
    """The cells of each line; the empty columns a spreadsheet leaves after the last named
    one (``x,time,,``) are dropped where they are empty."""
    if sep is None:
        return [line.split() for line in lines]
    rows = list(csv.reader(lines, delimiter=sep))
    width = len(rows[0])
    while width > 1 and not rows[0][width - 1].strip():
        width -= 1
    if width < len(rows[0]):
        rows = [row[:width] if not "".join(row[width:]).strip() else row for row in rows]
    return rows


def _value_columns(
    path: str, line: int, numeric: tuple[str, ...], metric: str | None, value: ValueChoice
) -> tuple[str, ...]:
    """The value columns: the one ``value`` or ``metric`` chooses, else every column named
    like a value, else the last column."""
    if callable(value):
        value = value(numeric)
    if value is not None:
        wanted = [v.strip().lower() for v in ((value,) if isinstance(value, str) else value)]
        # a column named with its unit (time_us, time[s]) answers for its name (time)
        present = [
            v if v in numeric else c
            for v in wanted
            for c in numeric
            if c == v or (v not in numeric and quantity(c) == v)
        ]
        if not present:
            others = " or ".join(f"'{v}'" for v in wanted[1:])
            raise MeasurementError(
                f"missing column '{wanted[0]}'"
                + (f" (or {others})" if others else "")
                + f"; found only: {', '.join(numeric) or 'nothing'}",
                location=Location(path, line),
            )
        return (present[0],)
    if metric is not None and metric.strip().lower() in numeric[1:]:
        return (metric.strip().lower(),)
    return tuple(c for c in numeric if is_value_name(c)) or numeric[-1:]


#: the statistics pandas' ``agg`` names the second row of a two-level header with
AGGREGATES = frozenset(
    {"mean", "median", "std", "sd", "stddev", "var", "sem", "count", "size", "min", "max", "sum", "first", "last"}
)


def pandas_header(rows: Sequence[Sequence[str]]) -> list[str] | None:
    """The one header of the CSV pandas writes for ``df.groupby(keys).agg([...])``: a row
    of the values' names, a row of their statistics and a row of the keys' names, each cell
    empty where the others' are not; the names joined (``time_mean``). None for any other
    file.

    >>> pandas_header([",,time,time".split(","), ",,mean,std".split(","), "kernel,x,,".split(","), ["a"]])
    ['kernel', 'x', 'time_mean', 'time_std']
    >>> pandas_header([["x", "time"], ["1", "2"], ["2", "4"], ["3", "6"]]) is None
    True
    """
    if len(rows) < 4 or not len(rows[0]) == len(rows[1]) == len(rows[2]):
        return None
    names, stats, keys = ([cell.strip() for cell in row] for row in rows[:3])
    lead = [bool(k) for k in keys]
    if not any(lead) or all(lead):
        return None
    for key, name, stat in zip(keys, names, stats, strict=True):
        if (key and (name or stat)) or (not key and (not name or stat.lower() not in AGGREGATES)):
            return None
    return [k or f"{n}_{st}" for k, n, st in zip(keys, names, stats, strict=True)]


def _no_parameter(header: tuple[str, ...], columns: tuple[str, ...]) -> str:
    """Why a header with numeric columns has no parameter: all are named like values.

    >>> _no_parameter(("x", "time"), ("x",))
    "need a parameter column besides the value column 'x' (the header has: x, time; 'time' is named like a measured value, not a parameter)"
    >>> _no_parameter(("time", "energy"), ("time", "energy"))
    'need a parameter column (the header has: time, energy; each is named like a value)'
    """
    others = [c for c in header if c not in columns and c not in TEXT_COLUMNS]
    if not others:
        listed = ", ".join(header)
        return f"need a parameter column (the header has: {listed}; each is named like a value)"
    verb = "is" if len(others) == 1 else "are"
    return (
        f"need a parameter column besides the value column '{columns[0]}' (the header has: "
        f"{', '.join(header)}; {', '.join(map(repr, others))} {verb} named like a measured "
        "value, not a parameter)"
    )


def _numbers_as_header(cells: Sequence[str], sep: str | None) -> str:
    """Why a first line of numbers is no header, with a header of its width to write.

    >>> _numbers_as_header(["1024", "5"], ",")
    'the first row holds numbers (1024,5) where the column names should be: begin the file with a header naming its columns, such as x,time'
    >>> _numbers_as_header(["8", "1024", "5"], None)[-12:]
    'as x x2 time'
    """
    joint = sep or " "
    names = ["x", *(f"x{i}" for i in range(2, len(cells))), "time"]
    return (
        f"the first row holds numbers ({printable(joint.join(cells), 40)}) where the column names should be: "
        f"begin the file with a header naming its columns, such as {joint.join(names)}"
    )


def file_kernel(path: str) -> str:
    """The kernel of a file without a ``kernel`` column: the file's name without its suffix.

    >>> file_kernel("runs/qsort.csv"), file_kernel("<stdin>")
    ('qsort', 'kernel')
    """
    stem = "" if path == STDIN else Path(path).stem
    return stem.strip() or DEFAULT_KERNEL


def _numeric(body: list[list[str]], column: int) -> bool:
    """Whether every cell of a column is a number.

    >>> _numeric([["1"], [" 2.5e3 "]], 0), _numeric([["1"], ["2026-11-29"]], 0)
    (True, False)
    """
    try:
        np.array([row[column] for row in body], dtype=float)
    except ValueError:
        return False
    return True


def _no_names_as_parameters(body: list[list[str]], lines: list[int], index: dict[str, int],
                            parameters: list[str], path: str) -> None:  # fmt: skip
    """Refuse a parameter column that holds no number at all, in a file without a
    ``kernel`` column, saying where the names belong (``region``: a column of names read
    as a parameter said only that its first name is no number; a bookkeeping column, a
    date or a run's label, keeps the error of its cell)."""
    for name in parameters:
        column = index[name]
        if not bookkeeping(name) and not any(is_number_text(row[column]) for row in body):
            raise MeasurementError(
                f"column '{name}' holds no number ({body[0][column].strip()[:40]!r}): if it names "
                "the kernels, call it 'kernel'",
                location=Location(path, lines[0]),
            )


def _texts(body: list[list[str]], column: int | None, default: str) -> list[str]:
    """The stripped cells of a text column, or ``default`` for each row if there is none."""
    return [row[column].strip() for row in body] if column is not None else [default] * len(body)


def _cells(body: list[list[str]], lines: list[int], column: int, name: str, path: str) -> np.ndarray:
    """A parameter column as floats (:func:`number`); the first bad cell is an error with its
    line."""
    texts = [row[column] for row in body]
    try:
        values = np.array(texts, dtype=float)
    except ValueError:
        cells = zip(texts, lines, strict=True)
        return np.array([number(text, path, line, column=name) for text, line in cells])
    for i in np.flatnonzero(~np.isfinite(values)).tolist():
        number(texts[i], path, lines[i], column=name)  # raises at the first bad cell
    return values


def _measured_cells(
    body: list[list[str]], lines: list[int], column: int, name: str, path: str
) -> tuple[np.ndarray, list[tuple[int, MeasurementError]]]:
    """A value column as floats (:func:`measured`), and the row and error of each cell that
    is no measured value (NaN in its place: the caller leaves its series out)."""
    texts = [row[column] for row in body]
    try:
        values = np.array(texts, dtype=float)
    except ValueError:
        values = np.full(len(texts), math.nan)
        suspect = list(range(len(texts)))
    else:
        suspect = np.flatnonzero(~np.isfinite(values)).tolist()
    errors = []
    for i in suspect:
        try:
            values[i] = measured(texts[i], path, lines[i], column=name)
        except MeasurementError as error:
            errors.append((i, error))
    return values, errors


def _state(
    collector: Collector,
    summaries: dict[str, SummaryColumns],
    body: list[list[str]],
    index: dict[str, int],
    kernels: list[str],
    points: np.ndarray,
) -> None:
    """What each row of a table of summaries states of the repetitions behind each value
    (a cell that is no number states nothing: the value is read as measured once)."""
    for metric, spread, count in summaries.values():
        for row, kernel, point in zip(body, kernels, map(tuple, points.tolist()), strict=True):
            stated = Stated.of(row[index[spread]].strip(), row[index[count]].strip() if count else None)
            if stated is not None:
                collector.state(kernel, metric, point, stated)


def _noted(ms: Measurements, h: _Header, left_out: Sequence[str] = ()) -> Measurements:
    """``ms`` with a note on each column the declared parameters leave out, on each left
    out as bookkeeping written as text (a date:
    :func:`~patternalg.measurements.names.bookkeeping`) and on each summary column whose
    spread no count of repetitions accompanies (it is not used)."""
    notes = [undeclared(ms.path, name) for name in _names(h.undeclared)]
    notes += [
        f"{ms.path}: column '{column}' {bookkeeping(column)} and holds no numbers: left out" for column in left_out
    ]
    notes += [
        f"{ms.path}: {central}: its {spread} is not used without a count of the repetitions behind it (a "
        f"column {metric}_count, count or runs): each point is read as measured once"
        for central, (metric, spread, count) in h.summaries.items()
        if count is None
    ]
    return replace(ms, notes=(*ms.notes, *notes)) if notes else ms


@dataclass(frozen=True)
class _Header:
    """What a table's header says: its delimiter, columns (as written and in lower case,
    and where each is), line, whether a ``metric`` column names each row's metric, the
    value columns, the summaries' columns, the parameters and the columns left out because
    the parameters declared do not name them."""

    sep: str | None
    written: list[str]
    header: tuple[str, ...]
    line: int
    long: bool
    columns: tuple[str, ...]
    summaries: dict[str, SummaryColumns]
    stating: set[str]
    parameters: list[str]
    undeclared: list[str]

    @property
    def index(self) -> dict[str, int]:
        """Each column's position."""
        return {h: i for i, h in enumerate(self.header)}


def _content(text: str) -> Iterator[tuple[int, int, str]]:
    """(number, offset after its line end, line) of each line that is not blank or a ``#``
    comment, read as they are needed."""
    for at, (end, line) in enumerate(text_lines(text), start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            yield at, end, line


def _table(
    path: str, numbered: list[tuple[int, str]]
) -> tuple[str | None, list[list[str]], list[tuple[int, str]]]:
    """The delimiter, the cells of each line (pandas' three header rows made one) and the
    lines that hold them, from the lines that are not blank or a comment."""
    named = _EXCEL_SEP.fullmatch(numbered[0][1])
    if named:  # the delimiter named by a spreadsheet's first line
        numbered = numbered[1:] or numbered
    sep = named[1] if named else delimiter(numbered[0][1])
    try:
        rows = _split([line for _, line in numbered], sep)
    except csv.Error:  # the one error of a reader that is not strict: a cell beyond its limit
        limit = csv.field_size_limit()
        raise cell_too_long(path, next((n for n, text in numbered if len(text) > limit), None)) from None
    flat = pandas_header(rows)
    if flat is not None:  # pandas' two-level header, made one: its third row's line names it
        rows, numbered = [flat, *rows[3:]], numbered[2:]
    return sep, rows, numbered


def _check_units(path: str, line: int, columns: Sequence[str]) -> None:
    """An error at the header's ``line`` for a value column stating no unit pint knows
    (``time[foo]``)."""
    for column in columns:
        unit = split_unit(column)[1]
        if unit is not None:
            try:
                check_unit(unit, f"column '{column}'")
            except UnitError as error:
                raise MeasurementError(str(error), location=Location(path, line)) from None


def _header(
    path: str,
    sep: str | None,
    first: list[str],
    line: int,
    metric: str | None,
    value: ValueChoice,
    declared: Sequence[str] | None,
) -> _Header:
    """What the header ``first`` (at ``line``) says, over the ``declared`` parameters
    where given; an error if it names no parameter and value columns, or not one declared."""
    written = [h.strip() for h in first]
    if all(map(is_number_text, written)):
        raise MeasurementError(_numbers_as_header(written, sep), location=Location(path, line))
    header = tuple(h.lower() for h in written)
    if len(set(header)) != len(header):
        dup = next(h for h in header if header.count(h) > 1)
        raise MeasurementError(f"column '{dup}' appears twice in the header", location=Location(path, line))
    numeric = tuple(h for h in header if h not in TEXT_COLUMNS)
    long = "metric" in header  # one value column, its metric named on each row
    summaries = {} if long or value is not None else summary_columns(numeric)
    if summaries and metric is not None:  # --metric time (or time_mean) picks one
        summaries = {c: m for c, m in summaries.items() if metric.strip().lower() in (c, m.metric)}
    columns = tuple(summaries) or _value_columns(path, line, numeric, None if long else metric, value)
    stating = {c for m in summaries.values() for c in (m.spread, m.repetitions) if c}
    _check_units(path, line, [written[header.index(c)] for c in columns])
    if long and len(columns) > 1:
        raise MeasurementError(
            f"a 'metric' column names each row's metric, so the file has one value column, "
            f"not {len(columns)} ({', '.join(columns)}): keep one, or drop the 'metric' "
            "column to read each as a metric",
            location=Location(path, line),
        )
    parameters = [c for c in numeric if c not in columns and c not in stating and not is_value_name(c)]
    if not parameters and len(numeric) > 1:  # every other column is named like a value
        raise MeasurementError(_no_parameter(header, columns), location=Location(path, line))
    if not columns or not parameters:
        if len(header) > 1:
            found = f"columns separated by {_DELIMITERS.get(sep or '', 'blanks')}"
        else:
            found = "found no comma, semicolon, tab or blank between columns"
        raise MeasurementError(
            "need a parameter column and a value column "
            f"(the header has: {', '.join(header)}; {found})",
            location=Location(path, line),
        )
    kept = parameters if declared is None else _declared(path, line, parameters, declared)
    left_out = [c for c in parameters if c not in kept]
    return _Header(sep, written, header, line, long, columns, summaries, stating, kept, left_out)


def _declared(path: str, line: int, parameters: list[str], declared: Sequence[str]) -> list[str]:
    """The parameter columns that the ``declared`` names name (by their parameters' names:
    ``size`` names ``size (elements)``), in their order; an error for a name that names
    none. The other columns are left out whatever they hold: a column of names (``host``)
    need not be numbers.

    >>> _declared("m.csv", 1, ["size (elements)", "host"], ["size"])
    ['size (elements)']
    >>> _declared("m.csv", 1, ["n", "host"], ["n", "p"])
    Traceback (most recent call last):
    ...
    patternalg.errors.MeasurementError: m.csv:1: no parameter 'p' (the parameters: n, host)
    """
    named = dict(zip(_names(parameters), parameters, strict=True))
    for name in declared:
        if name not in named:
            raise no_parameter(name, _names(parameters), Location(path, line))
    return [named[name] for name in declared]


def _names(parameters: Sequence[str]) -> list[str]:
    """The names of the parameters of columns ``parameters`` (``size (elements)`` is
    ``size``), unless two would be named alike."""
    names = [parameter_name(c) for c in parameters]
    return names if len(set(names)) == len(names) else list(parameters)


def _collector(path: str, parameters: list[str], undeclared: list[str]) -> Collector:
    """A collector over ``parameters``, named as their columns name them (``size
    (elements)`` is ``size``) unless two would be named alike, among them and the
    ``undeclared`` columns left out (as the declaration named them)."""
    return Collector(path, _names([*parameters, *undeclared])[: len(parameters)])


def _by_columns(path: str, text: str, h: _Header, start: int) -> Collector:
    """The rows after the header (which ends at ``text[start]``) collected column by
    column (:mod:`~patternalg.measurements.csv_columns`); :class:`Irregular` unless the
    body is plain and the table holds no summaries."""
    if h.sep is None or h.summaries:
        raise Irregular
    index = h.index
    texts = [index[c] for c in TEXT_COLUMNS if c in index]
    found = columns(
        text, start, h.line, h.sep, len(h.header), texts=texts, numbers=[index[c] for c in (*h.parameters, *h.columns)]
    )
    points, values = found.numbers[: len(h.parameters)].T, found.numbers[len(h.parameters) :]
    kernel = file_kernel(path)
    if "kernel" not in index:
        found = replace(found, names=[(kernel, *name) for name in found.names])
    collector = _collector(path, h.parameters, h.undeclared)
    if h.long:
        keys = [(name[0], name[1]) for name in found.names]
        collector.add_columns(keys, found.codes, points, values[0], found.lines)
    elif len(h.columns) == 1:
        keys = [(name[0], h.columns[0]) for name in found.names]
        collector.add_columns(keys, found.codes, points, values[0], found.lines)
    else:  # row by row, each value column a metric: the series of a kernel stay together
        keys = [(name[0], m) for name in found.names for m in h.columns]
        width = len(h.columns)
        codes = (found.codes[:, None] * width + np.arange(width)).reshape(-1)
        collector.add_columns(
            keys, codes, np.repeat(points, width, 0), values.T.reshape(-1), np.repeat(found.lines, width)
        )
    return collector


def _by_rows(path: str, text: str, h: _Header) -> tuple[Collector, list[str]]:
    """The rows after the header collected one by one (the reference), and the
    bookkeeping columns left out as text; an error at the first bad row."""
    numbered = [
        (i, line)
        for i, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    _, rows, numbered = _table(path, numbered)
    index = h.index
    body, lines = rows[1:], [line for line, _ in numbered[1:]]
    if not body:
        raise MeasurementError("no data rows after the header", location=Location(path))
    if set(map(len, body)) != {len(h.header)}:
        line, row = next((n, r) for n, r in zip(lines, body, strict=True) if len(r) != len(h.header))
        raise MeasurementError(f"{len(row)} cells where the header has {len(h.header)}", location=Location(path, line))
    # a date or a clock reading written as text is no parameter (a number is, until
    # measurements.read settles the parameters: patternalg.measurements.readers)
    left_out = [c for c in h.parameters if bookkeeping(c) and not _numeric(body, index[c])]
    if len(left_out) == len(h.parameters):  # no parameter left: its cells' error says what is wrong
        left_out = []
    parameters = [c for c in h.parameters if c not in left_out]
    if "kernel" not in index:
        _no_names_as_parameters(body, lines, index, parameters, path)
    kernels = _texts(body, index.get("kernel"), file_kernel(path))
    if "" in kernels:
        raise MeasurementError("column 'kernel' is empty", location=Location(path, lines[kernels.index("")]))
    points = np.column_stack([_cells(body, lines, index[c], c, path) for c in parameters])
    measured_columns = [_measured_cells(body, lines, index[c], c, path) for c in h.columns]
    values = np.column_stack([found for found, _ in measured_columns])
    collector = _collector(path, parameters, h.undeclared)
    if h.long:
        metrics = _texts(body, index["metric"], "")
        collector.add_rows(zip(kernels, metrics, strict=True), points, values[:, 0], lines)
        columns = [metrics]
    else:  # row by row, each value column a metric: the series of a kernel stay together
        metrics = [h.summaries[c].metric if c in h.summaries else c for c in h.columns]
        keys = ((kernel, m) for kernel in kernels for m in metrics)
        repeated = [line for line in lines for _ in h.columns]
        collector.add_rows(keys, np.repeat(points, len(h.columns), 0), values.ravel(), repeated)
        _state(collector, h.summaries, body, index, kernels, points)
        columns = [[m] * len(body) for m in metrics]
    for (_, errors), metric_of in zip(measured_columns, columns, strict=True):
        for at, error in errors:  # a cell that is no value leaves its series out
            collector.reject(kernels[at], metric_of[at], error, label=True)
    return collector, left_out


class CsvReader(Reader):
    """CSV (comma, semicolon, tab or blank separated) with a header line.

    The header is read from the first lines; a plain body (as most large tables are) is
    read column by column (:mod:`~patternalg.measurements.csv_columns`), any other row by
    row: both give the same measurements (``tests/test_csv_columns.py``).
    """

    name = "csv"
    suffixes = (".csv", ".tsv")

    @classmethod
    def sniff(cls, first: str) -> bool:
        return True  # the fallback: anything with a header

    @classmethod
    def read(
        cls,
        path: str,
        text: str,
        *,
        metric: str | None = None,
        value: ValueChoice = None,
        parameters: str | Sequence[str] | None = None,
    ) -> Measurements:
        """The measurements in ``text``; with ``parameters`` declared (``"n,p"``), over those
        alone, in that order: every other column but the values, ``kernel`` and ``metric``
        is left out, whatever it holds.

        >>> ms = CsvReader.read("m.csv", "n,host,time\\n8,a,5\\n8,b,6\\n16,a,9\\n", parameters="n")
        >>> ms.parameters, [v.tolist() for v in ms.series[0].values], len(ms.notes)
        (('n',), [[5.0, 6.0], [9.0]], 1)
        """
        head = list(islice(_content(text), 5))  # the header, pandas' three rows after a sep= line
        if not head:
            raise MeasurementError(
                "the file is empty (expected a header and data rows)", location=Location(path)
            )
        sep, rows, numbered = _table(path, [(at, line) for at, _, line in head])
        h = _header(path, sep, rows[0], numbered[0][0], metric, value, declared_parameters(parameters))
        left_out: list[str] = []
        try:
            start = next(end for at, end, _ in head if at == h.line)
            collector = _by_columns(path, text, h, start)
        except Irregular:
            collector, left_out = _by_rows(path, text, h)
        if len(h.columns) > 1:  # each series' metric names its column (and unit)
            read_in = collector.result(cls.name, "value", h.header, h.line)
        else:
            name = h.summaries[h.columns[0]].metric if h.summaries else h.columns[0]
            unit = split_unit(h.written[h.index[name]] if name in h.index else name)[1]
            read_in = collector.result(cls.name, name, h.header, h.line, unit=unit)
        return _noted(read_in, h, left_out)
