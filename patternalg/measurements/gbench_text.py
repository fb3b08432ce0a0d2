"""Google Benchmark's text reports: CSV (``--benchmark_format=csv``, or
``--benchmark_out_format=csv``) and the console table it prints by default.

Both hold the runs the JSON holds and are read as it is (:mod:`.gbench`: a family
``BM_name/ARG`` over its arguments, iteration rows the repetitions, aggregates only where a
point has none, ``_BigO`` a note). The context Google Benchmark writes before the table (the
date, ``Running ./bench``, the CPU caches, a warning) is skipped: it ends at the table's
header. A row the format does not explain is an error naming its line.

>>> text = '''name,iterations,real_time,cpu_time,time_unit,label,error_occurred,error_message
... "BM_a/8",10,2,1,us,,,
... "BM_a/8",10,3,1,us,,,
... "BM_a/16",10,6,2,us,,,
... "BM_a_BigO",,0.38,0.12,N,,,'''
>>> ms = GoogleBenchmarkCsvReader.read("gb.csv", text)
>>> ms.parameters, ms.series[0].kernel, [v.tolist() for v in ms.series[0].values], ms.unit
(('x',), 'BM_a', [[2.0, 3.0], [6.0]], 'us')
>>> ms.notes
("Google Benchmark's own fit of BM_a (real_time): 0.38*x ns (its BigO, over N = x)",)
>>> table = '''Benchmark      Time             CPU   Iterations
... -------------------------------------------------
... BM_a/8      2.00 us         1.00 us           10
... BM_a/16     6.00 us         2.00 us           10 items_per_second=1.5k/s'''
>>> ms = GoogleBenchmarkConsoleReader.read("gb.txt", table, metric="cpu_time")
>>> [v.tolist() for v in ms.series[0].values], ms.unit
([[1.0], [2.0]], 'us')
"""

from __future__ import annotations

import re
from abc import abstractmethod
from dataclasses import replace
from itertools import islice
from typing import Any, ClassVar

from .._internal.limits import printable
from .._internal.reading import text_lines
from ..errors import Location, MeasurementError
from .base import Reader, ValueChoice, csv_cells
from .gbench import CENTRAL, STATISTICS, TIMES, Run, measurements, run_of, split_name
from .model import Measurements

__all__ = ["GoogleBenchmarkCsvReader", "GoogleBenchmarkConsoleReader"]

#: the first columns of every CSV report
CSV_HEADER = "name,iterations,real_time,cpu_time,time_unit"
#: the columns every CSV report has before its user counters' (all an error row writes)
CSV_FIXED = 10
#: the header of the console table
CONSOLE_HEADER = re.compile(r"Benchmark\s+Time\s+CPU\s+Iterations\b")
#: the lines before the table that a report may start with (its context) at most
CONTEXT_LINES = 64
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"  # one way to split its digits: no backtracking over them
_UNIT = r"(?:ns|us|ms|s)"
#: a run of the console table: name, real and CPU time with units, iterations, counters
_CONSOLE_RUN = re.compile(
    rf"(?P<name>\S.*?)\s+(?P<real>{_NUMBER})\s*(?P<unit>{_UNIT})\s+(?P<cpu>{_NUMBER})\s*"
    rf"(?P<cpu_unit>{_UNIT})\s+(?P<iterations>\d+)(?P<counters>(?:\s+\S+)*)\s*"
)
#: the console's BigO row (``BM_a_BigO   0.04 NlgN   0.04 NlgN``)
_CONSOLE_BIG_O = re.compile(
    rf"(?P<name>\S.*?_BigO)\s+(?P<real>{_NUMBER})\s+(?P<big_o>\S+)\s+(?P<cpu>{_NUMBER})\s+\S+\s*"
)
#: console rows that hold no time: a percentage (``_cv``, ``_RMS``) or an error
_CONSOLE_OTHER = re.compile(rf"(?P<name>\S.*?)\s+(?:{_NUMBER}\s*%.*|ERROR OCCURRED:.*)")
_SEPARATOR = re.compile(r"-{3,}")
#: a row's name as a statistic of a run names it: ``BM_a/8_max`` (the run, the statistic)
_STATISTIC = re.compile(r"(.+)_(\w+)")
JSON_KEEPS = "--benchmark_out_format=json keeps every digit"
_COLOR = re.compile(r"\x1b\[[0-9;]*m")
#: the powers of the prefixes of the console's counters (``1.5k/s``, ``12.3M``, ``400m``),
#: of 1000, or of 1024 where the counter counts by it (``K``, ``Mi`` and ``bytes_per_second``)
_POWERS = {"": 0, "k": 1, "K": 1, "M": 2, "G": 3, "T": 4, "P": 5, "E": 6, "m": -1, "u": -2, "n": -3, "p": -4}
_COUNTER = re.compile(rf"(?P<value>{_NUMBER})(?P<prefix>[KMGTPE]i|[kKMGTPEmunp])?(?:/s)?")
#: the counter Google Benchmark counts by 1024 (``SetBytesProcessed``; 1.7.1 prints its
#: ``Gi`` as ``G``)
_BINARY = "bytes_per_second"


class _Report(Reader):
    """A text report whose table starts at a header line, found among the report's first
    :data:`CONTEXT_LINES` lines (what comes before it is the run's context)."""

    #: the table's header, and how an error names it
    header: ClassVar[re.Pattern[str]]
    table: ClassVar[str]

    @classmethod
    def sniff(cls, first: str) -> bool:
        return bool(cls.header.match(first))

    @classmethod
    def sniff_text(cls, first: str, text: str) -> bool:
        return cls._start([line for _, line in islice(text_lines(text), CONTEXT_LINES)]) is not None

    @classmethod
    def _start(cls, lines: list[str]) -> int | None:
        """The index of the header among the first lines (None: none)."""
        for i, line in enumerate(lines[:CONTEXT_LINES]):
            if cls.header.match(_COLOR.sub("", line).strip()):
                return i
        return None

    @classmethod
    def read(
        cls, path: str, text: str, *, metric: str | None = None, value: ValueChoice = None
    ) -> Measurements:
        lines = text.splitlines()
        start = cls._start(lines)
        if start is None:
            raise MeasurementError(
                f"no {cls.table} in the first {CONTEXT_LINES} lines", location=Location(path)
            )
        runs = cls.runs(path, lines, start)
        if not runs:
            raise MeasurementError("no runs under the header", location=Location(path, start + 1))
        runs, notes = cls.printed(_statistics(runs), metric or "real_time")
        ms = measurements(path, runs, metric, cls.name)
        return replace(ms, notes=(*ms.notes, *notes))

    @classmethod
    @abstractmethod
    def runs(cls, path: str, lines: list[str], start: int) -> list[Run]:
        """The runs of the table whose header is ``lines[start]``."""

    @classmethod
    def printed(cls, runs: list[Run], column: str) -> tuple[list[Run], list[str]]:
        """The ``runs`` whose ``column`` the report prints as a measured value, and the notes
        on how exact those values are (the CSV's: every run, six digits, no note)."""
        return runs, []


def _statistics(runs: list[Run]) -> list[Run]:
    """``runs`` with each row of a statistic of the user's (``ComputeStatistics("max",
    ...)``: ``BM_a/8_max``) an aggregate, as the JSON marks it: a row named ``RUN_WORD``
    where RUN names a run of the report (a row of it, or of its ``_mean``).

    >>> rows = [Run({"name": n}) for n in ("BM_a/8", "BM_a/8_mean", "BM_a/8_max", "BM_b_c")]
    >>> [r.fields.get("aggregate_name") for r in _statistics(rows)]
    [None, 'mean', 'max', None]
    """
    names = {str(run.fields.get("name")) for run in runs}
    named = names | {n.rpartition("_")[0] for n in names if n.rpartition("_")[2] in STATISTICS}
    return [
        replace(run, fields={**run.fields, "run_type": "aggregate", "aggregate_name": found[2]})
        if "run_type" not in run.fields and (found := _STATISTIC.fullmatch(str(run.fields.get("name"))))
        and found[1] in named
        else run
        for run in runs
    ]


class GoogleBenchmarkCsvReader(_Report):
    """Google Benchmark's CSV report; the default metric is ``real_time``."""

    name = "gbench-csv"
    header = re.compile(re.escape(CSV_HEADER))
    table = f"Google Benchmark CSV header ({CSV_HEADER},...)"

    @classmethod
    def runs(cls, path: str, lines: list[str], start: int) -> list[Run]:
        rows = csv_cells(lines[start:], path, first=start + 1)
        header = [h.strip() for h in next(rows)[1]]
        runs = []
        for line, cells in rows:
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != len(header) and not _error_row(header, cells):
                raise MeasurementError(
                    f"{len(cells)} cells under a header of {len(header)} columns "
                    f"({', '.join(header)})",
                    location=Location(path, line),
                )
            runs.append(Run(_csv_fields(header[: len(cells)], cells), line=line))
        return runs


def _error_row(header: list[str], cells: list[str]) -> bool:
    """Whether ``cells`` are a run's error (``SkipWithError``): Google Benchmark writes its
    fixed columns alone, none of the user counters' the header names after them."""
    fixed = header[:CSV_FIXED]
    return (
        len(cells) == len(fixed) == CSV_FIXED
        and fixed[-2:] == ["error_occurred", "error_message"]
        and cells[-2].strip().lower() == "true"
    )


def _csv_fields(header: list[str], cells: list[str]) -> dict[str, Any]:
    """A CSV row's fields as the JSON report names them (an empty cell is absent)."""
    fields: dict[str, Any] = {h: c.strip() for h, c in zip(header, cells, strict=True) if c.strip()}
    fields["error_occurred"] = fields.get("error_occurred", "").lower() == "true"
    name = fields.get("name", "")
    if name.endswith(("_BigO", "_RMS")):
        kind = name.rpartition("_")[2]
        fields.update(run_type="aggregate", aggregate_name=kind)
        if kind == "BigO":
            fields["big_o"] = fields.pop("time_unit", "?")
            fields["real_coefficient"] = _float(fields.get("real_time"))
            fields["cpu_coefficient"] = _float(fields.get("cpu_time"))
    return fields


def _float(text: object) -> float | None:
    """``text`` as a float, None if it is not one."""
    try:
        return float(text)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


class GoogleBenchmarkConsoleReader(_Report):
    """Google Benchmark's console table (what ``./bench`` prints, or
    ``--benchmark_out_format=console``): its times are as printed, with a note (three
    decimals below 1 of their unit: a time below 0.1 keeps fewer than three significant
    digits, a note names its kernel, and one printed ``0.000`` is left out); the default
    metric is ``real_time``."""

    name = "gbench-console"
    header = CONSOLE_HEADER
    table = "Google Benchmark table (its header 'Benchmark  Time  CPU  Iterations')"

    @classmethod
    def runs(cls, path: str, lines: list[str], start: int) -> list[Run]:
        runs, columns = [], _columns(lines[start])
        for i, raw in enumerate(lines[start + 1 :], start=start + 2):
            line = _COLOR.sub("", raw).strip()
            if CONSOLE_HEADER.match(line):  # printed again where the counters change
                columns = _columns(line)
            elif line and not _SEPARATOR.fullmatch(line):
                runs.append(Run(_console_fields(line, path, i, columns), line=i))
        return runs


    @classmethod
    def printed(cls, runs: list[Run], column: str) -> tuple[list[Run], list[str]]:
        if column not in TIMES:
            return runs, [f"values as the console table prints them ({JSON_KEEPS})"]
        kept, digits, zeros = [], dict[str, int](), dict[str, int]()
        for run in runs:
            value = run.fields.get(column)
            run_name, kind = run_of(run.fields, str(run.fields["name"]))
            if not isinstance(value, float) or kind not in (None, *CENTRAL):  # a spread, BigO, error
                kept.append(run)
                continue
            kernel = split_name(run_name)[0]
            if not value:  # 0.000: below half a thousandth of the unit
                zeros[kernel] = zeros.get(kernel, 0) + 1
                continue
            kept.append(run)
            digits[kernel] = min(digits.get(kernel, 3), _digits(value))
        notes = [f"values as the console table prints them (three or more significant digits "
                 f"from 0.1 of their unit up; {JSON_KEEPS})"]  # fmt: skip
        notes += [
            f"{kernel} ({column}): {count} row(s) print 0.000, no digit measured: left out "
            f"({JSON_KEEPS}, as does a finer ->Unit)"
            for kernel, count in zeros.items()
        ]
        notes += [
            f"{kernel} ({column}): its values printed with as few as {n} significant digit(s) "
            f"({JSON_KEEPS}, as does a finer ->Unit)"
            for kernel, n in digits.items() if n < 3
        ]  # fmt: skip
        return kept, notes


def _digits(time: float) -> int:
    """The significant digits the console prints of a ``time``, three for three or more:
    it prints three decimals below 1 (``0.045``), two below 10, one below 100.

    >>> [_digits(t) for t in (1229.0, 4.33, 0.385, 0.045, 0.001)]
    [3, 3, 3, 2, 1]
    """
    return 3 if time >= 0.1 else len(str(round(time * 1000)))


def _columns(header: str) -> list[str]:
    """The counters a header of the console table names as columns
    (``--benchmark_counters_tabular=true``); ``UserCounters...`` names none: it heads the
    ``name=value`` counters.

    >>> _columns("Benchmark  Time  CPU  Iterations UserCounters...")
    []
    """
    return [word for word in _COLOR.sub("", header).split()[4:] if word != "UserCounters..."]


def _console_fields(line: str, path: str, number: int, columns: list[str]) -> dict[str, Any]:
    """A console row's fields as the JSON report names them; ``columns``: the counters its
    header names (a counter is else written ``name=value``)."""
    found = _CONSOLE_RUN.fullmatch(line)
    if found:
        fields: dict[str, Any] = {
            "name": found["name"],
            "real_time": float(found["real"]),
            "cpu_time": float(found["cpu"]),
            "time_unit": found["unit"],
            "iterations": found["iterations"],  # as written (the CSV keeps it so): no value reads it
        }
        if found["cpu_unit"] != found["unit"]:  # never so in Google Benchmark's own output
            raise MeasurementError(
                f"real time in {found['unit']} but CPU time in {found['cpu_unit']}",
                location=Location(path, number),
            )
        fields.update(_counters(found["counters"].split(), columns, path, number))
        return fields
    found = _CONSOLE_BIG_O.fullmatch(line)
    if found:
        return {
            "name": found["name"],
            "run_type": "aggregate",
            "aggregate_name": "BigO",
            "big_o": found["big_o"],
            "real_coefficient": float(found["real"]),
            "cpu_coefficient": float(found["cpu"]),
        }
    found = _CONSOLE_OTHER.fullmatch(line)
    if found:
        name = found["name"]
        if "ERROR OCCURRED:" in line:
            message = line.partition("ERROR OCCURRED:")[2].strip().strip("'")
            return {"name": name, "error_occurred": True, "error_message": message}
        kind = name.rpartition("_")[2]
        if kind in STATISTICS or kind == "RMS":
            return {"name": name, "run_type": "aggregate", "aggregate_name": kind}
    raise MeasurementError(
        f"not a row of Google Benchmark's console table: '{printable(line)}' (expected: NAME  TIME "
        "UNIT  CPU UNIT  ITERATIONS)",
        location=Location(path, number),
    )


def _counters(words: list[str], columns: list[str], path: str, number: int) -> dict[str, float]:
    """The counters among the ``words`` after a row's iterations: one value per column of
    the header (``--benchmark_counters_tabular``), else each ``name=value`` at their start;
    the words after them are the run's label (``state.SetLabel``), not read (as the JSON's
    ``label``; one that starts with ``name=NUMBER`` reads that word as a counter).

    >>> _counters(["bytes=4.096k", "size", "1024"], [], "gb.txt", 4)
    {'bytes': 4096.0}
    >>> _counters(["19.3G/s", "1024", "dense"], ["items_per_second", "elems"], "gb.txt", 4)
    {'items_per_second': 19300000000.0, 'elems': 1024.0}
    """
    if columns:
        if len(words) < len(columns):
            raise MeasurementError(
                f"{len(words)} counter values under a header naming {len(columns)} "
                f"({', '.join(columns)})",
                location=Location(path, number),
            )
        return {key: _counter(text, path, number, key) for key, text in zip(columns, words[: len(columns)], strict=True)}
    counters = {}
    for word in words:
        key, equals, text = word.partition("=")
        if not (key and equals and _COUNTER.fullmatch(text)):
            break
        counters[key] = _counter(text, path, number, key)
    return counters


def _counter(text: str, path: str, number: int, key: str) -> float:
    """A console counter's value (``1.5k/s`` is 1500, ``bytes_per_second=1.5G/s``
    1.5 * 1024^3).

    >>> _counter("1.5k/s", "gb.txt", 4, "items_per_second"), _counter("2Ki", "gb.txt", 4, "b")
    (1500.0, 2048.0)
    """
    found = _COUNTER.fullmatch(text)
    if not found:
        raise MeasurementError(
            f"counter '{key}': {text!r} is not a number with an SI prefix",
            location=Location(path, number),
        )
    prefix = found["prefix"] or ""
    binary = key == _BINARY or prefix == "K" or prefix.endswith("i")
    return float(found["value"]) * (1024.0 if binary else 1000.0) ** _POWERS[prefix.rstrip("i")]
