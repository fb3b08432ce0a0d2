"""pytest-benchmark's text reports: the CSV of ``pytest-benchmark compare --csv`` and the
table ``pytest`` prints (or ``pytest-benchmark compare`` does).

Both hold each benchmark's statistics, not its rounds: one column (``--metric``: ``min``,
``max``, ``mean`` or ``median``, the median by default) is each point's one value, in
seconds, with a note that ``--benchmark-json`` keeps the rounds. Kernels are named as the
JSON's are (:func:`~.pytest_benchmark.kernels`): a test function, with each parameter that
is not a number written in. The CSV names the parameters (``param:n``); the table does not,
so the numbers of a test's id are the parameters ``x``, ``x2``, ... in the id's order.

>>> text = '''name,param:n,param:order,min,max,mean,stddev,median,iqr,outliers,ops,rounds,iterations
... k.py::test_a[8-up],8,up,1e-06,3e-06,2e-06,1e-06,2e-06,1e-06,0;0,500000.0,3,1
... k.py::test_a[16-up],16,up,3e-06,5e-06,4e-06,1e-06,4e-06,1e-06,0;0,250000.0,3,1'''
>>> ms = PytestBenchmarkCsvReader.read("pb.csv", text)
>>> ms.parameters, ms.series[0].kernel, [v.tolist() for v in ms.series[0].values], ms.unit
(('n',), 'test_a[order=up]', [[2e-06], [4e-06]], 's')
>>> table = '''Name (time in us)        Min         Max        Mean     Median   Rounds
... -------------------------------------------------------------------------
... test_a[8-up]      1.0000 (1.0)  3.0000 (1.0)  2.0000 (1.0)  2.0000 (1.0)    3
... test_a[16-up]     3.0000 (3.0)  5.0000 (1.67) 4.0000 (2.0)  4.0000 (2.0)    3
... -------------------------------------------------------------------------'''
>>> ms = PytestBenchmarkConsoleReader.read("pb.txt", table, metric="min")
>>> ms.parameters, ms.series[0].kernel, [v.tolist() for v in ms.series[0].values]
(('x',), 'test_a[up]', [[1e-06], [3e-06]])
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .._internal.limits import printable
from ..errors import Location, MeasurementError
from .base import Reader, ValueChoice, is_number_text, measured, number
from .harness import Points, Summary
from .model import Measurements, Stated
from .pytest_benchmark import kernels

__all__ = ["PytestBenchmarkCsvReader", "PytestBenchmarkConsoleReader"]

#: the statistics a report may hold (``--columns``), and those that are times of a point
STATISTICS = ("min", "max", "mean", "stddev", "median", "iqr", "outliers", "ops", "rounds", "iterations")
TIMES = ("median", "mean", "min", "max")
#: the prefix of a parameter's column in the CSV
PARAMETER = "param:"
#: the table's header: its unit of time (``Name (time in us)``)
CONSOLE_HEADER = re.compile(r"Name \(time in (?P<prefix>[num]?)s\)")
_SCALE = {"n": 1e-9, "u": 1e-6, "m": 1e-3, "": 1.0}
_SEPARATOR = re.compile(r"-{3,}.*")
_COLOR = re.compile(r"\x1b\[[0-9;]*m")
#: a row: the name, then (two or more blanks on) the cells
_ROW = re.compile(r"(?P<name>\S(?:.*?\S)?)\s{2,}(?P<cells>\S.*)")
#: a cell's ratio to the best (``(1.0)``, ``(>1000.0)``), which is no value
_RATIO = re.compile(r"\s*\([^()]*\)")
#: a test id's run tag in ``pytest-benchmark compare`` (``test_a[8] (0001_run)``)
_RUN = re.compile(r"(?P<name>.*?)\s+\((?P<run>[^()]*)\)")


def _chosen(metric: str | None, columns: Sequence[str], path: str, line: int) -> str:
    """The statistic that is each point's value: ``metric``, else the first of :data:`TIMES`
    the report has."""
    present = [c for c in TIMES if c in columns]
    if metric is None and present:
        return present[0]
    if metric in present:
        return metric
    asked = f"no column '{metric}' of times" if metric else "no column of times"
    raise MeasurementError(
        f"{asked} (valid: {', '.join(present) or 'none: the report has ' + ', '.join(columns)})",
        location=Location(path, line),
    )


def _summary_note(column: str, report: str, points: Points) -> str:
    """What a person should know of the values ``points`` gathered from a summary."""
    spread = (
        "; its stated spread (a median's IQR, a mean's stddev, and the rounds) gives the intervals"
        if any(row.stated for row in points.rows)
        else " (--benchmark-json keeps every round, for intervals)"
    )
    return f"pytest-benchmark's {report} holds a summary of each benchmark's rounds: its {column} is one value{spread}"


class PytestBenchmarkCsvReader(Reader):
    """``pytest-benchmark compare --csv``: one row of statistics per benchmark, in seconds."""

    name = "pytest-benchmark-csv"

    @classmethod
    def sniff(cls, first: str) -> bool:
        header = [h.strip() for h in first.split(",")]
        return (
            header[0] == "name"
            and any(h in TIMES for h in header)
            and all(h.startswith(PARAMETER) or h in STATISTICS for h in header[1:])
        )

    @classmethod
    def read(
        cls, path: str, text: str, *, metric: str | None = None, value: ValueChoice = None
    ) -> Measurements:
        table = Summary.read(
            path,
            text,
            lambda header: header[0] == "name",
            "pytest-benchmark's CSV header (name,param:...,min,max,mean,...)",
            "benchmarks",
        )
        column = _chosen(metric, table.header, path, 1)
        found = table.rows
        names = [row["name"] for _, row in found]
        params = [{k: v.strip() for k, v in p.items() if v.strip()} for p in table.parameters(PARAMETER)]
        named = column if metric else "time"
        points = Points(path, cls.name)
        for (line, row), (kernel, numeric) in zip(found, kernels(names, params, is_number_text), strict=True):
            if not row["name"].strip():
                raise MeasurementError("a row without its name", location=Location(path, line))
            coordinates = {
                n: number(v, path, line, column=PARAMETER + n) for n, v in numeric.items()
            }
            points.add(
                kernel,
                coordinates,
                [measured(row[column], path, line, column=column)],
                key=f"line {line}",
                metric=named,
                unit="s",
                stated=_stated(column, {c: _number(row.get(c)) for c in SPREAD}, row.get("rounds")),
            )
        points.note(_summary_note(column, "CSV", points))
        return points.result(named, named, unit="s")


class PytestBenchmarkConsoleReader(Reader):
    """The table pytest-benchmark prints: one or more groups, each under its header
    ``Name (time in UNIT)``, among pytest's other output; the values as printed (four
    decimals), with a note."""

    name = "pytest-benchmark-console"

    @classmethod
    def sniff(cls, first: str) -> bool:
        return bool(CONSOLE_HEADER.match(first))

    @classmethod
    def sniff_text(cls, first: str, text: str) -> bool:
        return "Name (time in" in text and any(
            CONSOLE_HEADER.match(_COLOR.sub("", line).strip()) for line in text.splitlines()
        )

    @classmethod
    def read(
        cls, path: str, text: str, *, metric: str | None = None, value: ValueChoice = None
    ) -> Measurements:
        found: list[tuple[int, str, float, Stated | None]] = []  # line, name, seconds, spread
        columns: set[str] = set()  # the statistic read, per group
        table: _Table | None = None  # the group being read
        for at, raw in enumerate(text.splitlines(), start=1):
            line = _COLOR.sub("", raw).strip()
            header = CONSOLE_HEADER.match(line)
            if header:
                table = _Table(header, line, metric, path, at)
                columns.add(table.column)
            elif table is None:
                continue  # pytest's own output around the tables
            elif not line or _SEPARATOR.fullmatch(line):
                table = table if not table.rows else None  # under the header, or its end
            else:
                found.append((at, *table.row(line, path, at)))
        if not found:
            raise MeasurementError(
                "no pytest-benchmark table (a header 'Name (time in us)' and rows under it)",
                location=Location(path),
            )
        names = [name for _, name, _, _ in found]
        params = [_id_params(name) for name in names]
        named = metric or "time"
        points = Points(path, cls.name)
        chosen = kernels(names, params, is_number_text, label=lambda _, word: word)
        if not any(numeric for _, numeric in chosen):
            raise MeasurementError(
                "no test id holds a number to fit over (the table names no parameters: pytest --benchmark-json "
                "FILE keeps them)",
                location=Location(path),
            )
        for (at, _, seconds, spread), (kernel, numeric) in zip(found, chosen, strict=True):
            points.add(kernel, _coordinates(numeric), [seconds], key=f"line {at}", metric=named, unit="s", stated=spread)
        points.note(_summary_note("/".join(sorted(columns)), "table", points))
        points.note(
            "the table names no parameters: the numbers of a test's id are x, x2, ... in its "
            "order (one written n=1000 is n), as printed (four decimals; pytest-benchmark compare --csv "
            "keeps their names)"
        )
        return points.result(named, named, unit="s")


def _x(i: int) -> str:
    """The name of a test id's ``i``-th numeric part: ``x``, ``x2``, ..."""
    return "x" if i == 0 else f"x{i + 1}"


def _id_params(name: str) -> dict[str, str]:
    """A test id's parts by their names: a part ``n=1000`` (``ids=lambda v: f"n={v}"``)
    names its number ``n``, as the JSON's ``params`` do; another is named by its place.

    >>> _id_params("test_a[n=8-up-3]")
    {'n': '8', '1': 'up', '2': '3'}
    """
    params: dict[str, str] = {}
    for i, part in enumerate(_id_parts(name)):
        key, equals, value = part.partition("=")
        if equals and key.isidentifier() and key not in params and is_number_text(value):
            params[key] = value
        else:
            params[str(i)] = part
    return params


def _coordinates(numeric: dict[str, str]) -> dict[str, float]:
    """The coordinates of a test id's numeric parts (:func:`_id_params`): a named one by
    its name, the others ``x``, ``x2``, ... in their order."""
    places = [key for key in numeric if key.isdigit()]
    return {(_x(places.index(key)) if key.isdigit() else key): float(v) for key, v in numeric.items()}


class _Table:
    """One group of the console table: its columns, the statistic read, the unit."""

    def __init__(
        self, header: re.Match[str], line: str, metric: str | None, path: str, at: int
    ) -> None:
        self.columns = [label.lower() for label in _RATIO.sub("", line[header.end() :]).split()]
        self.column = _chosen(metric, self.columns, path, at)
        self.scale = _SCALE[header["prefix"]]
        self.rows = 0

    def row(self, line: str, path: str, at: int) -> tuple[str, float, Stated | None]:
        """A row's name (a run's tag in brackets: ``test_a[8][0001_run]``), its value in
        seconds and the spread its ``StdDev`` and ``Rounds`` state."""
        found = _ROW.fullmatch(line)
        cells = _RATIO.sub("", found["cells"]).split() if found else []
        if not found or len(cells) != len(self.columns):
            raise MeasurementError(
                f"not a row of pytest-benchmark's table: '{printable(line)}' (expected: NAME and "
                f"{len(self.columns)} cells: {', '.join(self.columns)})",
                location=Location(path, at),
            )
        self.rows += 1
        tagged = _RUN.fullmatch(found["name"])
        name = f"{tagged['name']}[{tagged['run']}]" if tagged else found["name"]
        by_column = dict(zip(self.columns, (c.replace(",", "") for c in cells), strict=True))
        value = measured(by_column[self.column], path, at, column=self.column) * self.scale
        spread = {c: _number(by_column.get(c), self.scale) for c in SPREAD}
        return name, value, _stated(self.column, spread, by_column.get("rounds"))


#: a normal's interquartile range in standard deviations
_IQR_SIGMAS = 1.349
#: the statistics a row's spread is read from
SPREAD = ("stddev", "iqr", "min", "median")


def _stated(column: str, spread: dict[str, float | None], rounds: object) -> Stated | None:
    """The spread a row states of the rounds behind its ``column``, where that is a central
    statistic (a min's or a max's spread is another): for a median the standard deviation
    its interquartile range gives (robust to the few slow rounds a standard deviation grows
    with), bounded by its lower half (:meth:`~patternalg.measurements.Stated.below`: among
    a few rounds an IQR is not robust either); for a mean (or without an IQR) the standard
    deviation; with the count of rounds.

    >>> _stated("median", {"stddev": 9.0, "iqr": 1.349, "min": 1.0, "median": 4.0}, "15")
    Stated(deviation=1.0, count=15)
    >>> _stated("mean", {"stddev": 9.0, "iqr": 1.349}, "15"), _stated("min", {"stddev": 9.0}, "15")
    (Stated(deviation=9.0, count=15), None)
    """
    if column not in ("median", "mean"):
        return None
    iqr = spread.get("iqr")
    robust = iqr / _IQR_SIGMAS if column == "median" and iqr is not None else None
    found = Stated.of(spread.get("stddev") if robust is None else robust, rounds)
    median = spread.get("median")
    return found.below(median, spread.get("min")) if found and column == "median" and median is not None else found


def _number(text: str | None, scale: float = 1.0) -> float | None:
    """A cell's number times ``scale``; None where it holds none."""
    try:
        return float(text) * scale if text is not None else None
    except ValueError:
        return None


def _id_parts(name: str) -> list[str]:
    """The parts of a test id (``test_a[8-up][0001_run]``: 8, up, 0001_run); a part
    written ``-1`` is a negative number, not an empty part and ``1``."""
    found = re.findall(r"\[([^\[\]]*)\]", name)
    parts: list[str] = []
    for text in found:
        for word in text.split("-"):
            if parts and parts[-1] == "" and is_number_text(word):
                parts[-1] = "-" + word
            else:
                parts.append(word)
    return parts
