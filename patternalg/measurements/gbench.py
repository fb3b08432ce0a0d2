"""Google Benchmark's JSON (``--benchmark_out_format=json``).

A family ``BM_name/ARG[/ARG...]`` is a kernel over its arguments: numbered ones are named
``x``, ``x2``, ... (``fit --param x2=p`` renames them), named ones (``->ArgNames``,
``n:1024``) by their name, and ``/threads:N`` is the parameter ``p``. A component that is
not a number (``BENCHMARK_CAPTURE``'s label) stays in the kernel's name; the run options
(``min_time:``, ``iterations:``, ``repeats:``, ``real_time``, ...) say nothing about it.
Iteration rows are the repetitions (``real_time``, or the column ``--metric`` names:
``cpu_time`` or a user counter; a kernel without that counter is left out, with a note),
each converted from its ``time_unit`` to the kernel's.
Aggregate rows (``_mean``, ``_median``, ...) are used only at points without iteration rows
(a file from ``--benchmark_report_aggregates_only``), the mean else the median, with a note;
the library's own ``_BigO``/``_RMS`` rows are not data, but become a note that shows its fit
beside ours.

>>> text = '''{"context": {}, "benchmarks": [
...  {"name": "BM_a/8", "run_type": "iteration", "real_time": 2, "cpu_time": 1, "time_unit": "us"},
...  {"name": "BM_a/8", "run_type": "iteration", "real_time": 3, "cpu_time": 1, "time_unit": "us"},
...  {"name": "BM_a/16", "run_type": "iteration", "real_time": 6, "cpu_time": 2, "time_unit": "us"}]}'''
>>> ms = GoogleBenchmarkReader.read("gb.json", text)
>>> ms.parameters, ms.series[0].kernel, [v.tolist() for v in ms.series[0].values], ms.unit
(('x',), 'BM_a', [[2.0, 3.0], [6.0]], 'us')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import Location, MeasurementError
from .base import ValueChoice, measured
from .harness import HarnessReader, Points, is_number, text_field
from .model import Measurements, Stated
from .names import split_unit

__all__ = ["GoogleBenchmarkReader", "Run", "counter_unit", "measurements", "run_of", "split_name"]

#: the columns that hold times (every other is a counter)
TIMES = ("real_time", "cpu_time")
#: seconds per time unit of Google Benchmark
SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
#: name components that are run options, not arguments (``threads`` becomes ``p``)
OPTIONS = frozenset(
    {
        "min_time",
        "min_warmup_time",
        "iterations",
        "repeats",
        "real_time",
        "manual_time",
        "process_time",
    }
)
#: Google Benchmark's complexity names, in our notation (N is x)
BIG_O = {
    "(1)": "1",
    "N": "x",
    "N^2": "x^2",
    "N^3": "x^3",
    "lgN": "log2(x)",
    "NlgN": "x*log2(x)",
}
#: aggregates that stand for a point's repetitions, in order of preference
CENTRAL = ("mean", "median")
#: the aggregates Google Benchmark computes of repetitions (named by a row's suffix in
#: files older than ``run_type``)
STATISTICS = frozenset({"mean", "median", "stddev", "cv"})
_COMPONENT = re.compile(r"/(?![^<]*>)")  # a '/' outside template brackets


def split_name(name: str) -> tuple[str, dict[str, float], tuple[str, ...]]:
    """A run name's kernel (family and labels), its coordinates and its run options.

    >>> split_name("BM_fill/4096/1/threads:2")
    ('BM_fill', {'x': 4096.0, 'x2': 1.0, 'p': 2.0}, ())
    >>> split_name("BM_copy<int>/label/n:64/min_time:0.500/real_time")
    ('BM_copy<int>/label', {'n': 64.0}, ('min_time:0.500', 'real_time'))
    """
    family, *parts = _COMPONENT.split(name)
    kernel, coordinates, options, numbered = [family], dict[str, float](), list[str](), 0
    for part in parts:
        key, colon, value = part.partition(":")
        if key in OPTIONS:
            options.append(part)
            continue
        if not colon:
            key, value = "", part
        try:
            coordinate = float(value)
        except ValueError:
            kernel.append(part)
            continue
        if key == "threads":
            key = "p"
        elif not key:
            numbered += 1
            key = "x" if numbered == 1 else f"x{numbered}"
        coordinates[key] = coordinate
    return "/".join(kernel), coordinates, tuple(options)


def _families(names: list[tuple[str, dict[str, float], tuple[str, ...]]]) -> list[tuple[str, dict[str, float]]]:
    """The kernel and point of each of ``names`` (:func:`split_name`'s): a kernel whose runs
    differ in their options (``BM_w/8`` beside ``BM_w/8/manual_time``: two families, two
    quantities) keeps them in its name, and where some of a kernel's runs name their
    threads, a run that does not ran on one (Google Benchmark's default).

    >>> _families([split_name("BM_w/8"), split_name("BM_w/8/manual_time")])
    [('BM_w', {'x': 8.0}), ('BM_w/manual_time', {'x': 8.0})]
    >>> _families([split_name("BM_w/8/real_time"), split_name("BM_w/8/real_time/threads:2")])
    [('BM_w', {'x': 8.0, 'p': 1.0}), ('BM_w', {'x': 8.0, 'p': 2.0})]
    """
    options: dict[str, set[tuple[str, ...]]] = {}
    for kernel, _, given in names:
        options.setdefault(kernel, set()).add(given)
    named = [("/".join((k, *given)) if len(options[k]) > 1 else k, coords) for k, coords, given in names]
    threaded = {kernel for kernel, coords in named if "p" in coords}
    return [(k, {**coords, "p": 1.0} if k in threaded and "p" not in coords else coords) for k, coords in named]


@dataclass(frozen=True)
class Run:
    """One row of a Google Benchmark report, wherever it was read: its ``fields`` (as the
    JSON names them) and where: a JSON entry's ``key`` (``benchmarks[3]``), or a text
    report's ``line``."""

    fields: dict[str, Any]
    line: int = 0
    key: str | None = None

    @property
    def label(self) -> str:
        """Where the run is, in a note: ``benchmarks[3]`` or ``line 12``."""
        return self.key or f"line {self.line}"

    def place(self, path: str, field: str | None = None) -> Location:
        """The location of the run, or of one of its fields."""
        if self.key is None:
            return Location(path, self.line or None, key=field and f"column '{field}'")
        return Location(path, key=f"{self.key}.{field}" if field else self.key)

    def measured(self, path: str, field: str) -> float:
        """The measured value in ``field`` (an error located at it if it is none)."""
        if self.key is None:
            return measured(self.fields[field], path, self.line, column=field)
        return measured(self.fields[field], path, key=f"{self.key}.{field}")


class GoogleBenchmarkReader(HarnessReader):
    """Google Benchmark's JSON output; the default metric is ``real_time``."""

    name = "gbench"
    harness = "Google Benchmark"
    entries_key = "benchmarks"

    @classmethod
    def sniff_text(cls, first: str, text: str) -> bool:
        return (
            first.startswith("{")
            and '"benchmarks"' in text
            and '"context"' in text
            and ('"time_unit"' in text or '"run_type"' in text or cls.empty(text))
        )

    @classmethod
    def read(
        cls, path: str, text: str, *, metric: str | None = None, value: ValueChoice = None
    ) -> Measurements:
        runs = [Run(row, key=f"benchmarks[{i}]") for i, row in enumerate(cls.rows(path, text))]
        return measurements(path, runs, metric, cls.name)


def measurements(path: str, runs: list[Run], metric: str | None, fmt: str) -> Measurements:
    """The measurements of Google Benchmark's ``runs`` (read from ``path`` in format
    ``fmt``): their ``metric`` (default ``real_time``) per kernel and point."""
    column = metric or "real_time"
    counted = counter_unit(column)
    points = Points(path, fmt)
    units: dict[str, str] = {}
    aggregates: dict[tuple[str, tuple[tuple[str, float], ...]], dict[str, Run]] = {}
    iterated: set[tuple[str, tuple[tuple[str, float], ...]]] = set()

    missing: dict[str, Run] = {}  # kernel -> its first run without ``column``
    names: list[tuple[str, dict[str, float], tuple[str, ...]]] = []

    def add(kernel: str, coords: dict[str, float], run: Run, spread: Run | None = None) -> None:
        """The point of one run: its value in ``column``, in the kernel's unit; ``spread``:
        the ``stddev`` aggregate beside it, if the run is a central one."""
        if column not in run.fields:
            missing.setdefault(kernel, run)
            return
        value = _value(run, column, units, kernel, path)
        points.add(kernel, coords, [value], key=run.label, metric=column, unit=units.get(kernel, counted),
                   stated=None if spread is None else _stated(spread, column, units, kernel, path))  # fmt: skip

    data: list[tuple[Run, str | None]] = []  # the runs that hold data, and their kind
    for run in runs:
        row = run.fields
        if run.key is not None:
            name = text_field(row, "name", path, run.key)
        else:
            name = str(row.get("name", ""))
        run_name, kind = run_of(row, name)
        if row.get("error_occurred"):
            points.note(
                f"{name} ({run.label}) reported an error "
                f"({row.get('error_message', 'no message')}): left out"
            )
        elif kind in ("BigO", "RMS"):
            if kind == "BigO" and column in TIMES:  # a fit of times
                points.note(_big_o(run, column, path))
        else:
            data.append((run, kind))
            names.append(split_name(run_name))
    for (run, kind), (kernel, coords) in zip(data, _families(names), strict=True):
        where = (kernel, tuple(coords.items()))
        if kind is not None:
            aggregates.setdefault(where, {})[kind] = run
            continue
        iterated.add(where)
        add(kernel, coords, run)
    for where, found in aggregates.items():
        if where in iterated:
            continue
        kind = next((k for k in CENTRAL if k in found), None)
        if kind is None:
            continue
        add(where[0], dict(where[1]), found[kind], found.get("stddev"))
        points.note(
            f"{where[0]}: no iteration rows (a file from --benchmark_report_aggregates_only);"
            f" the {kind} of each point's repetitions is its one value"
            + (", their stddev and count its spread" if "stddev" in found else "")
        )
    if missing and not points.rows:
        _value(next(iter(missing.values())), column, units, "", path)  # the error it makes
    for kernel, run in missing.items():
        points.note(f"{kernel} has no '{column}' ({run.label}): left out")
    return points.result(column, column)


def counter_unit(counter: str) -> str:
    """The unit of a user counter's values: the one its name states (``wait_us``), else
    dimensionless: Google Benchmark's counters count (bytes, elements, a rate); only its
    ``real_time`` and ``cpu_time`` are times.

    >>> counter_unit("elems"), counter_unit("bytes_per_second"), counter_unit("wait_us")
    ('dimensionless', 'dimensionless', 'us')
    """
    return split_unit(counter)[1] or "dimensionless"


def _stated(spread: Run, column: str, units: dict[str, str], kernel: str, path: str) -> Stated | None:
    """What the ``stddev`` aggregate ``spread`` states of the repetitions behind a central
    one: their deviation in ``column`` and their count (an aggregate's ``repetitions``, else
    its ``iterations``: Google Benchmark counts an aggregate's repetitions there)."""
    try:
        deviation = _value(spread, column, units, kernel, path)
    except MeasurementError:  # a spread it cannot read: the central value is read all the same
        return None
    return Stated.of(deviation, spread.fields.get("repetitions", spread.fields.get("iterations")))


def run_of(row: dict[str, Any], name: str) -> tuple[str, str | None]:
    """The run the row ``name`` is of (its ``run_name``, else ``BM_a/8`` for ``BM_a/8_mean``)
    and the aggregate it holds (None: an iteration row)."""
    kind = _kind(row, name)
    given = row.get("run_name")
    return given if isinstance(given, str) else _without_aggregate(name, kind), kind


def _kind(row: dict[str, Any], name: str) -> str | None:
    """The aggregate a row holds (``mean``, ``BigO``, ...), None for an iteration row."""
    if row.get("run_type") == "iteration":
        return None
    aggregate = row.get("aggregate_name")
    if isinstance(aggregate, str) and aggregate:
        return aggregate
    suffix = name.rpartition("_")[2]  # files older than aggregate_name and run_type
    if row.get("run_type") == "aggregate" or "big_o" in row or "rms" in row:
        return suffix
    return suffix if "run_type" not in row and suffix in STATISTICS else None


def _without_aggregate(name: str, kind: str | None) -> str:
    """``BM_a/8_mean`` -> ``BM_a/8`` (files without ``run_name``)."""
    suffix = f"_{kind}"
    return name[: -len(suffix)] if kind and name.endswith(suffix) else name


def _value(run: Run, column: str, units: dict[str, str], kernel: str, path: str) -> float:
    """A run's ``column``, in the unit of its kernel's first run if it is a time."""
    row = run.fields
    if column not in row:
        numeric = sorted(k for k, v in row.items() if is_number(v) and k not in ("threads",))
        raise MeasurementError(
            f"no '{column}' (the row has: {', '.join(numeric) or 'no numbers'})",
            location=run.place(path),
        )
    value = run.measured(path, column)
    if column not in TIMES:
        return value
    unit = row.get("time_unit", "ns")
    if not isinstance(unit, str) or unit not in SECONDS:
        raise MeasurementError(
            f"time_unit {unit!r} is not one of {', '.join(SECONDS)}",
            location=run.place(path, "time_unit"),
        )
    first = units.setdefault(kernel, unit)
    return value * SECONDS[unit] / SECONDS[first] if unit != first else value


def _big_o(run: Run, column: str, path: str) -> str:
    """The note that shows Google Benchmark's own fit (its ``_BigO`` row), in the unit of
    the row: ns where it names none (a text report's), as Google Benchmark states every
    coefficient in ns whatever its runs' unit."""
    row = run.fields
    name = _without_aggregate(str(row.get("run_name") or row.get("name")), "BigO")
    coefficient = row.get("cpu_coefficient" if column == "cpu_time" else "real_coefficient")
    big_o = str(row.get("big_o", "?"))
    if not is_number(coefficient):
        raise MeasurementError("a BigO row without its coefficient", location=run.place(path))
    form = BIG_O.get(big_o)
    factor = "" if form == "1" else f"*{form}" if form else f" * {big_o}"
    unit = row.get("time_unit") or "ns"
    return (
        f"Google Benchmark's own fit of {name} ({column}): {coefficient:.4g}{factor} "
        f"{unit} (its BigO, over N = x)"
    )
