"""What every reader shares: the source text (a file or ``-`` for stdin), numbers checked
with their location, and the collector that groups values into series.

>>> number("1e999", "m.txt", line=3)
Traceback (most recent call last):
...
patternalg.errors.MeasurementError: m.txt:3: 1e999 overflows a float (largest: 1.8e308)
"""

from __future__ import annotations

import csv
import math
import os
from abc import ABC, abstractmethod
from array import array
from collections.abc import Callable, Iterable, Iterator, MutableSequence, Sequence
from contextlib import contextmanager
from itertools import repeat
from pathlib import Path
from typing import ClassVar

import numpy as np

from .._internal.display import listed
from .._internal.reading import NotText, read_text
from .._internal.surface import flag
from ..errors import Location, MeasurementError, reason
from .cells import number
from .model import LeftOut, Measurements, Series, Stated, of_series, series_label, where

__all__ = [
    "Reader",
    "PathReader",
    "DirectoryReader",
    "ValueChoice",
    "read_source",
    "number",
    "is_number_text",
    "numbers",
    "measured",
    "Collector",
    "STDIN",
    "csv_cells",
    "cell_too_long",
    "Irregular",
]

#: how ``-`` (standard input) is named in messages
STDIN = "<stdin>"


class Irregular(Exception):
    """What a fast path (an Extra-P text file's blocks, a CSV table's columns) does not
    read: the reference reader reads it, and its messages say what is wrong."""


def cell_too_long(path: str, line: int | None) -> MeasurementError:
    """The error of a table's cell beyond csv's field limit (a traceback of ``_csv.Error``
    before), at its ``line``."""
    limit = csv.field_size_limit()
    return MeasurementError(
        f"a cell longer than {limit:,} characters (the most a cell of a table may hold)",
        location=Location(path, line),
    )


def csv_cells(lines: Iterable[str], path: str, first: int = 1) -> Iterator[tuple[int, list[str]]]:
    """Each row of the comma-separated ``lines`` (the first being line ``first`` of
    ``path``) as its line number and cells; a cell beyond csv's limit is an error at its line.

    >>> list(csv_cells(["a,b", '"c",d'], "t.csv", first=3))
    [(3, ['a', 'b']), (4, ['c', 'd'])]
    >>> next(csv_cells(["x" * 200_000], "t.csv"))
    Traceback (most recent call last):
    ...
    patternalg.errors.MeasurementError: t.csv:1: a cell longer than 131,072 characters (the most a cell of a table may hold)
    """
    reader = csv.reader(lines)
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error:  # the one error of a reader that is not strict, on lines already split
            raise cell_too_long(path, first - 1 + reader.line_num) from None
        yield first - 1 + reader.line_num, cells
#: a CSV file's value column: a name, names in order of preference, or a function choosing
#: it among the numeric columns
ValueChoice = str | tuple[str, ...] | Callable[[tuple[str, ...]], str] | None


def read_source(path: str | Path) -> tuple[str, str]:
    """(name for messages, text) of a file, or of standard input for ``-``."""
    name = STDIN if str(path) == "-" else str(path)
    try:
        return name, read_text(path)
    except OSError as exc:
        binary = name == STDIN and isinstance(exc, NotText)
        hint = f": an Extra-P experiment there is read with {flag('input-format', 'extra-p', keyword='format')}" if binary else ""
        raise MeasurementError(
            f"cannot read measurements: {reason(exc)}{hint}", location=Location(name)
        ) from None


#: how NaN and the infinities are written (lower case, without a sign)
_NOT_FINITE = frozenset({"nan", "inf", "infinity"})


def measured(
    text: object, path: str, line: int = 0, key: str | None = None, column: str | None = None
) -> float:
    """A measured value: a :func:`number`, or NaN or an infinity written as such (Extra-P
    reads them; :class:`Collector` drops them with a note). A number too large for a float
    is still an error.

    >>> measured("nan", "m.txt", 3), measured(float("-inf"), "m.txt")
    (nan, -inf)
    >>> measured("1e999", "m.txt", line=3)
    Traceback (most recent call last):
    ...
    patternalg.errors.MeasurementError: m.txt:3: 1e999 overflows a float (largest: 1.8e308)
    """
    if isinstance(text, float) or (
        isinstance(text, str) and text.strip().lower().lstrip("+-") in _NOT_FINITE
    ):
        return float(text)
    return number(text, path, line, key, column)


def numbers(words: Sequence[str], path: str, line: int = 0) -> list[float]:
    """:func:`measured` of each word (fast when all are fine)."""
    try:
        values = [float(w) for w in words]
    except ValueError:
        values = [math.nan]
    if all(map(math.isfinite, values)):
        return values
    return [measured(w, path, line) for w in words]


def is_number_text(text: str | None) -> bool:
    """Whether ``text`` reads as a finite number (None does not).

    >>> is_number_text(" 2.5e3 "), is_number_text("inc"), is_number_text("nan"), is_number_text(None)
    (True, False, False, False)
    """
    try:
        return text is not None and math.isfinite(float(text))
    except ValueError:
        return False


#: repetitions and their lines at each point
_ByPoint = dict[tuple[float, ...], tuple[MutableSequence[float], MutableSequence[int]]]


def _repetitions() -> tuple[array[float], array[int]]:
    """A point's repetitions and their lines, as doubles and 64-bit integers: 16 bytes a
    value, where lists of Python numbers took 40 (a file of 9 million repetitions read in
    685 MB of memory)."""
    return array("d"), array("q")


def _shared_lines(lines: Sequence[int]) -> tuple[int, ...]:
    """A point's ``lines`` as a tuple holding one number object per distinct line: the
    2,000 repetitions of a DATA line share one (36 bytes each as 2,000 objects; a file of 9
    million repetitions held 300 MB of line numbers).

    >>> found = _shared_lines(array("q", [70000, 70000, 70001]))
    >>> found, found[0] is found[1]
    ((70000, 70000, 70001), True)
    """
    distinct, inverse = np.unique(np.asarray(lines, dtype=np.int64), return_inverse=True)
    return tuple(map(distinct.tolist().__getitem__, inverse.reshape(-1).tolist()))


def _distinct(column: np.ndarray) -> tuple[int, np.ndarray]:
    """How many distinct numbers ``column`` holds, and the rank of each among them (-0.0 is
    0.0, as a dict's key): looked up among those of its first rows where all are there.

    >>> _distinct(np.array([2.0, -0.0, 2.0, 0.0, 5.0]))
    (3, array([1, 0, 1, 0, 2]))
    """
    found = np.unique(column[: 1 << 16])
    each = np.searchsorted(found, column).clip(0, max(len(found) - 1, 0))
    if len(found) and np.array_equal(found[each], column):
        return len(found), each
    found, each = np.unique(column, return_inverse=True)
    return len(found), each.reshape(-1)


class Collector:
    """Repetitions gathered per (kernel, metric) and point, in the order they appear.

    A repetition that is not finite (NaN, an infinity) is dropped by :meth:`result`, with a
    note naming its line; so is a point left without a repetition, and a series left
    without a point.

    >>> c = Collector("m.txt", ["x"])
    >>> c.add("k", "", (1.0,), [2.0, float("nan")], 4); c.add("k", "", (2.0,), [float("nan")], 5)
    >>> ms = c.result("text")
    >>> ms.series[0].values, ms.notes
    ((array([2.]),), ("m.txt:4: kernel 'k': dropped 2 repetitions that are not finite (nan) at lines 4, 5", "m.txt:5: kernel 'k': no finite repetition at x=2: the point is dropped"))
    """

    def __init__(self, path: str, parameters: Sequence[str]) -> None:
        self.path = path
        self.parameters = tuple(parameters)
        self.data: dict[tuple[str, str], _ByPoint] = {}
        self.stated: dict[tuple[str, str], dict[tuple[float, ...], Stated]] = {}
        #: the points more than one summary states the repetitions of (none is used)
        self.restated: dict[tuple[str, str], dict[tuple[float, ...], None]] = {}
        self.finite = True  # no value added so far is NaN or infinite
        #: the series left out, each with the first error found in it, and that error
        #: with the series' name (what says why it is left out beside others)
        self.rejected: dict[tuple[str, str], tuple[MeasurementError, MeasurementError]] = {}

    def reject(self, kernel: str, metric: str, error: MeasurementError, *, label: bool = False) -> None:
        """Leave out series ``kernel``/``metric`` (its values added before or after too):
        ``error`` says why (the first error of a series is kept); ``label``: its message
        does not name the series, which is named before it where other series are read."""
        key = (kernel.strip(), metric.strip())
        self.rejected.setdefault(key, (error, of_series(*key, error) if label else error))

    @contextmanager
    def reading(self, kernel: str, metric: str) -> Iterator[None]:
        """Read a value of series ``kernel``/``metric`` inside: a MeasurementError there
        leaves the series out (:meth:`reject`, its message naming the series) and the
        reader goes on after the block.

        >>> c = Collector("m.csv", ["x"])
        >>> with c.reading("k", "time"):
        ...     c.add("k", "time", (1.0,), [number("abc", "m.csv", 3)], 3)
        >>> str(c.rejected["k", "time"][1])
        "m.csv:3: kernel 'k', metric 'time': 'abc' is not a number"
        """
        try:
            yield
        except MeasurementError as error:
            self.reject(kernel, metric, error, label=True)

    def state(self, kernel: str, metric: str, point: tuple[float, ...], stated: Stated) -> None:
        """What a summary states of the repetitions behind ``kernel``/``metric``'s one value
        at ``point`` (:class:`~patternalg.measurements.model.Stated`); a second summary of
        the point (two runs of it: ``pytest-benchmark compare`` of two saved runs) states
        the repetitions of another value, so neither is used, with a note.

        >>> c = Collector("m.csv", ["x"])
        >>> c.add("k", "t", (1.0,), [2.0, 3.0], 2); c.state("k", "t", (1.0,), Stated(0.1, 5))
        >>> c.state("k", "t", (1.0,), Stated(0.2, 5)); ms = c.result("csv")
        >>> ms.series[0].stated, ms.notes[0][:63]
        ((), "m.csv: kernel 'k', metric 't': more than one row summarises x=1")
        """
        key = (kernel.strip(), metric.strip())
        found = self.stated.setdefault(key, {})
        if point in found or point in self.restated.get(key, {}):
            found.pop(point, None)
            self.restated.setdefault(key, {})[point] = None
        else:
            found[point] = stated

    def add(
        self,
        kernel: str,
        metric: str,
        point: tuple[float, ...],
        values: Sequence[float],
        line: int,
    ) -> None:
        """Repetitions ``values`` of ``kernel``/``metric`` at ``point``, read at ``line``."""
        if not kernel.strip():
            raise MeasurementError("the kernel name is empty", location=where(self.path, line))
        key = (kernel.strip(), metric.strip())
        found, lines = self.data.setdefault(key, {}).setdefault(point, _repetitions())
        self.finite = self.finite and all(map(math.isfinite, values))
        found.extend(values)
        lines.extend(repeat(line, len(values)))

    def add_rows(
        self,
        keys: Iterable[tuple[str, str]],
        points: np.ndarray,
        values: np.ndarray,
        lines: Sequence[int],
    ) -> None:
        """One value a row: (kernel, metric) ``keys`` (checked non-empty), point, value, line."""
        data = self.data
        self.finite = self.finite and bool(np.isfinite(values).all())
        rows = zip(keys, map(tuple, points.tolist()), values.tolist(), lines, strict=True)
        for key, point, value, line in rows:
            found, at = data.setdefault(key, {}).setdefault(point, _repetitions())
            found.append(value)
            at.append(line)

    def add_columns(
        self,
        keys: Sequence[tuple[str, str]],
        codes: np.ndarray,
        points: np.ndarray,
        values: np.ndarray,
        lines: np.ndarray,
    ) -> None:
        """One value a row, as columns: the row's (kernel, metric) ``keys[codes[i]]`` (each
        key's first row before the next key's), point, value and line; what :meth:`add_rows`
        collects of the same rows, with no Python object a row.

        >>> c = Collector("m.csv", ["x"])
        >>> c.add_columns([("k", "t")], np.zeros(3, int), np.array([[2.0], [1.0], [2.0]]), np.arange(3.0), np.arange(2, 5))
        >>> [(p, list(v), tuple(ls)) for p, (v, ls) in c.data["k", "t"].items()]
        [((1.0,), [1.0], (3,)), ((2.0,), [0.0, 2.0], (2, 4))]
        """
        self.finite = self.finite and bool(np.isfinite(values).all())
        at = np.zeros(len(points), dtype=np.int64)  # the point of each row, as a number
        for column in points.T:
            found, each = _distinct(column)
            at = at * found + each
            if points.shape[1] > 1:  # numbered again from 0: no overflow over many parameters
                at = np.unique(at, return_inverse=True)[1].reshape(-1)
        count = int(at.max(initial=0)) + 1
        groups = codes * count
        groups += at
        del at
        # each group's rows in file order (a radix sort where the groups are few)
        order = np.argsort(groups.astype(np.min_scalar_type(groups.max(initial=0))), kind="stable")
        groups = groups[order]
        cuts = [0, *(np.flatnonzero(np.diff(groups)) + 1).tolist(), len(groups)]
        for start, end in zip(cuts[:-1], cuts[1:], strict=True):
            rows = order[start:end]
            point = tuple(points[rows[0]].tolist())  # as its first row writes it
            self.data.setdefault(keys[int(groups[start]) // count], {})[point] = (
                array("d", values[rows].tobytes()),
                array("q", lines[rows].astype(np.int64).tobytes()),
            )

    def result(
        self,
        fmt: str,
        value_name: str = "value",
        columns: Sequence[str] = (),
        line: int = 0,
        unit: str | None = None,
    ) -> Measurements:
        """The measurements collected; an error if there are none.

        ``unit`` is the value column's, of every series; by default each series has the
        one its metric's name states, and the measurements that of their single metric.
        """
        data = {key: found for key, found in self.data.items() if key not in self.rejected}
        if not data:
            for error, _ in self.rejected.values():
                raise error  # nothing else to read: why the first series was left out
            raise MeasurementError("no measurements found", location=Location(self.path))
        width = len(self.parameters)
        notes = [self._restated_note(*key, points) for key, points in self.restated.items()]
        if not self.finite:
            finite: dict[tuple[str, str], _ByPoint] = {}
            for key, by_point in data.items():
                kept, said = self._finite(key, by_point)
                notes += said
                if kept:
                    finite[key] = kept
            data = finite
            if not data:
                raise MeasurementError(
                    "no finite measurements (NaN and infinities are dropped)",
                    location=Location(self.path),
                )
        series = tuple(
            Series(
                *key,
                self.parameters,
                np.array(list(by_point), dtype=float).reshape(len(by_point), width),
                tuple(np.array(v, dtype=float) for v, _ in by_point.values()),
                tuple(_shared_lines(ls) for _, ls in by_point.values()),
                self.path,
                unit,
                tuple(self.stated[key].get(p) for p in by_point) if self.stated.get(key) else (),
            )
            for key, by_point in data.items()
        )
        if unit is None and len({s.metric for s in series}) == 1:
            unit = series[0].unit
        return Measurements(
            self.path,
            fmt,
            self.parameters,
            value_name,
            unit,
            series,
            tuple(columns),
            line,
            tuple(notes),
            tuple(LeftOut(*key, named) for key, (_, named) in self.rejected.items()),
        )

    def _at(self, point: tuple[float, ...]) -> str:
        """``point`` as a note names it: ``x=8, p=2``."""
        return ", ".join(f"{p}={c:g}" for p, c in zip(self.parameters, point, strict=True))

    def _restated_note(self, kernel: str, metric: str, points: Iterable[tuple[float, ...]]) -> str:
        """The note on the ``points`` of a series that more than one row summarises."""
        shown = list(points)
        at = listed([self._at(point) for point in shown], 3, "; ")
        return (
            f"{self.path}: {series_label(kernel, metric)}: more than one row summarises {at} "
            "(runs of one benchmark: pytest-benchmark compare of saved runs writes a row of each): "
            "each row's value is a repetition, the spreads they state are not used (compare one "
            "run at a time to fit each)"
        )

    def _finite(self, key: tuple[str, str], by_point: _ByPoint) -> tuple[_ByPoint, list[str]]:
        """The finite repetitions of series ``key``, and notes on what was dropped."""
        kernel, metric = key
        label = series_label(kernel, metric)
        kept: _ByPoint = {}
        dropped: list[tuple[int, float]] = []
        notes = []
        for point, (values, lines) in by_point.items():
            finite = [math.isfinite(v) for v in values]
            dropped += [(n, v) for n, v, ok in zip(lines, values, finite, strict=True) if not ok]
            if any(finite):
                kept[point] = (
                    [v for v, ok in zip(values, finite, strict=True) if ok],
                    [n for n, ok in zip(lines, finite, strict=True) if ok],
                )
            else:
                notes.append(
                    f"{where(self.path, lines[0])}: {label}: no finite repetition at {self._at(point)}: "
                    "the point is dropped"
                )
        if dropped:
            count, lines = len(dropped), sorted({n for n, _ in dropped if n})
            kinds = ", ".join(dict.fromkeys(str(v) for _, v in dropped))
            shown = ", ".join(map(str, lines[:8])) + (", ..." if len(lines) > 8 else "")
            at = f" at line{'s' if len(lines) > 1 else ''} {shown}" if lines else ""
            notes.insert(
                0,
                f"{where(self.path, min(lines, default=0))}: {label}: dropped {count} "
                f"repetition{'s' if count > 1 else ''} that {'are' if count > 1 else 'is'} "
                f"not finite ({kinds}){at}",
            )
        if not kept:
            notes.append(f"{where(self.path)}: {label}: no finite measurement: not fitted")
        return kept, notes


class Reader(ABC):
    """One measurement format: ``name``, file ``suffixes``, sniffing, and reading text.

    A new format is a subclass registered in :data:`patternalg.measurements.READERS`.
    """

    name: ClassVar[str]
    #: file suffixes that decide the format without looking inside
    suffixes: ClassVar[tuple[str, ...]] = ()

    @classmethod
    @abstractmethod
    def sniff(cls, first: str) -> bool:
        """Whether a source whose first non-blank, non-comment line is ``first`` is ours."""

    @classmethod
    def sniff_text(cls, first: str, text: str) -> bool:
        """Whether ``text`` (whose first such line is ``first``) is ours: by default from
        that line; a JSON document recognises its own keys."""
        return cls.sniff(first)

    @classmethod
    @abstractmethod
    def read(
        cls, path: str, text: str, *, metric: str | None = None, value: ValueChoice = None
    ) -> Measurements:
        """The measurements in ``text`` (read from ``path``, for messages)."""


class PathReader(Reader):
    """A format read from its path, never recognised from text: a directory (a Cube set) or
    a binary file (a saved Extra-P experiment). :func:`~patternalg.measurements.read` asks
    each such format whether a path is its own (:meth:`claims`) before it reads any text;
    :meth:`read` ignores ``text`` and reads ``path``."""

    #: the scalings the format can apply (how processes and threads become repetitions)
    scalings: ClassVar[tuple[str, ...]] = ()

    @classmethod
    @abstractmethod
    def claims(cls, path: str | Path, format: str | None) -> bool:
        """Whether ``path`` is to be read in this format: ``format`` names it, else what
        the path is (a directory, its suffix, its first bytes); an error where the format
        is named but the path cannot be one."""

    @classmethod
    @abstractmethod
    def read_path(
        cls, path: str | Path, *, metric: str | None = None, scaling: str | None = None
    ) -> Measurements:
        """The measurements at ``path`` (only ``metric``'s where given; ``scaling``: one of
        :attr:`scalings`, None: the format's default)."""

    @classmethod
    def read(
        cls, path: str, text: str, *, metric: str | None = None, value: ValueChoice = None
    ) -> Measurements:
        return cls.read_path(path, metric=metric)

    @classmethod
    def sniff(cls, first: str) -> bool:
        return False


class DirectoryReader(PathReader):
    """A format stored as a directory of files: claims a directory when no other format is
    named, and refuses anything else it is named for."""

    @classmethod
    def claims(cls, path: str | Path, format: str | None) -> bool:
        is_dir = str(path) != "-" and os.path.isdir(path)  # False for a name the system refuses
        named = format == cls.name if format else Path(str(path)).suffix.lower() in cls.suffixes
        if named and not is_dir:
            raise MeasurementError(
                f"not a directory: the {cls.name} format is a directory of folders named by "
                f"parameter values, each holding {', '.join(cls.suffixes)} files",
                location=Location(str(path)),
            )
        return is_dir and (named or not format)
