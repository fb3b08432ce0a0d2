"""LEGACY (removed once every consumer reads patternalg.measurements.read): the old readers.

Every malformed input is a :class:`MeasurementError` naming the file, the line and the
reason.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "m.csv")
>>> _ = open(path, "w").write("kernel,x,time\\nsort,8,1.5\\nsort,16,3.5\\ninc,8,0.5\\n")
>>> table = read_csv(path, required=["x", "time"])
>>> sorted(table.kernels)
['inc', 'sort']
>>> table.kernels["sort"]["time"].tolist()
[1.5, 3.5]
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import MeasurementError

__all__ = [
    "CsvTable",
    "read_csv",
    "DEFAULT_KERNEL",
    "Series",
    "MeasurementSet",
    "read_measurements",
    "detect_format",
    "AGGREGATES",
    "FORMATS",
]

#: kernel name used when a file has no kernel column
DEFAULT_KERNEL = "kernel"


@dataclass(frozen=True)
class CsvTable:
    """Numeric columns of a CSV file, grouped by the ``kernel`` column.

    ``kernels[name][column]`` is a float array; ``lines[name]`` the 1-based file line of
    each row, for error messages; ``text[name][column]`` the raw text columns (e.g. ``metric``);
    ``header_line`` the 1-based file line of the header.
    """

    path: str
    columns: tuple[str, ...]
    kernels: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)
    lines: dict[str, np.ndarray] = field(default_factory=dict)
    text: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    header_line: int = 1


def _number(path: str, line: int, column: str, cell: str) -> float:
    try:
        value = float(cell)
    except ValueError:
        raise MeasurementError(
            f"{path}:{line}: column '{column}': {cell.strip()!r} is not a number"
        ) from None
    if not math.isfinite(value):
        raise MeasurementError(f"{path}:{line}: column '{column}': {cell.strip()} is not finite")
    return value


def read_csv(
    path: str | Path,
    required: Sequence[str],
    optional: Sequence[str] = (),
    text_columns: Sequence[str] = ("kernel", "metric"),
) -> CsvTable:
    """Read a CSV file with a header; ``required`` and ``optional`` name numeric columns.

    Column names are matched case-insensitively and without surrounding blanks. Rows
    are grouped by the ``kernel`` column if there is one (else all rows form one kernel
    named ``kernel``). Blank lines and lines starting with ``#`` are skipped.
    """
    name = str(path)
    try:
        raw = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise MeasurementError(f"{name}: cannot read measurements: {exc}") from None
    numbered = [
        (i, line)
        for i, line in enumerate(raw.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not numbered:
        raise MeasurementError(f"{name}: the file is empty (expected a header and data rows)")
    rows = list(csv.reader([line for _, line in numbered]))
    header = [h.strip().lower() for h in rows[0]]
    header_line = numbered[0][0]
    if len(set(header)) != len(header):
        dup = next(h for h in header if header.count(h) > 1)
        raise MeasurementError(f"{name}:{header_line}: column '{dup}' appears twice in the header")
    missing = [c for c in required if c.lower() not in header]
    if missing:
        raise MeasurementError(
            f"{name}:{header_line}: missing column '{missing[0]}' "
            f"(the header has: {', '.join(header) or 'nothing'}; needed: {', '.join(required)})"
        )
    numeric = [c.lower() for c in required] + [c.lower() for c in optional if c.lower() in header]
    texts = [c for c in text_columns if c in header]
    index = {h: i for i, h in enumerate(header)}
    values: dict[str, dict[str, list[float]]] = {}
    lines: dict[str, list[int]] = {}
    strings: dict[str, dict[str, list[str]]] = {}
    for (line, _), row in zip(numbered[1:], rows[1:], strict=True):
        if len(row) != len(header):
            raise MeasurementError(
                f"{name}:{line}: {len(row)} cells where the header has {len(header)}"
            )
        kernel = row[index["kernel"]].strip() if "kernel" in index else DEFAULT_KERNEL
        if not kernel:
            raise MeasurementError(f"{name}:{line}: column 'kernel' is empty")
        columns = values.setdefault(kernel, {c: [] for c in numeric})
        for column in numeric:
            columns[column].append(_number(name, line, column, row[index[column]]))
        for column in texts:
            strings.setdefault(kernel, {c: [] for c in texts})[column].append(
                row[index[column]].strip()
            )
        lines.setdefault(kernel, []).append(line)
    if not values:
        raise MeasurementError(f"{name}: no data rows after the header")
    return CsvTable(
        path=name,
        columns=tuple(numeric),
        kernels={
            k: {c: np.asarray(v, dtype=float) for c, v in cols.items()}
            for k, cols in values.items()
        },
        lines={k: np.asarray(v, dtype=int) for k, v in lines.items()},
        text=strings,
        header_line=header_line,
    )


# --- measurement sets: one parameter space, many kernels, repetitions per point ---------------
AGGREGATES = ("mean", "median", "min", "max")
_REDUCERS: dict[str, Callable[..., Any]] = {
    "mean": np.mean,
    "median": np.median,
    "min": np.min,
    "max": np.max,
}
FORMATS = ("text", "json", "jsonl", "talpas", "csv")


@dataclass(frozen=True)
class Series:
    """One kernel's measurements of one metric: the repetitions measured at each point.

    ``points`` has one row per point and one column per parameter; ``values[i]`` holds
    the repetitions at ``points[i]``; ``line`` is where the kernel starts in its file.

    >>> reps = (np.array([1.0, 3.0]), np.array([5.0]))
    >>> s = Series("sort", "time", np.array([[8.0], [16.0]]), reps)
    >>> s.aggregate("mean").tolist(), s.aggregate("max").tolist()
    ([2.0, 5.0], [3.0, 5.0])
    """

    kernel: str
    metric: str
    points: np.ndarray
    values: tuple[np.ndarray, ...]
    line: int = 0

    def aggregate(self, how: str = "mean") -> np.ndarray:
        """One value per point: the ``mean``, ``median``, ``min`` or ``max`` of its repetitions."""
        reduce: Callable[..., Any] = _REDUCERS[how]
        if len({len(v) for v in self.values}) == 1:  # as many repetitions everywhere: at once
            return reduce(np.array(self.values, dtype=float), axis=1)
        return np.array([reduce(v) for v in self.values], dtype=float)

    @property
    def where(self) -> str:
        """The kernel (and its metric, if named), for messages."""
        metric = f", metric '{self.metric}'" if self.metric else ""
        return f"kernel '{self.kernel}'{metric}"


@dataclass(frozen=True)
class MeasurementSet:
    """All series of a measurement file, over the same named parameters.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "m.txt")
    >>> _ = open(path, "w").write(
    ...     "PARAMETER n\\nPOINTS 1 2 3\\nREGION sort\\nDATA 1 1.1\\nDATA 2\\nDATA 3\\n")
    >>> ms = read_measurements(path)
    >>> ms.format, ms.parameters, [s.kernel for s in ms.series], ms.series[0].line
    ('text', ('n',), ['sort'], 3)
    """

    path: str
    format: str
    parameters: tuple[str, ...]
    series: tuple[Series, ...]


class _Collector:
    """Repetitions gathered per (kernel, metric) and point, in the order they appear."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.data: dict[tuple[str, str], dict[tuple[float, ...], list[float]]] = {}
        self.lines: dict[tuple[str, str], int] = {}

    def add(
        self, kernel: str, metric: str, point: tuple[float, ...], values: Sequence[float], line: int
    ) -> None:
        if not kernel.strip():
            raise MeasurementError(f"{self.path}:{line}: the kernel name is empty")
        key = (kernel.strip(), metric.strip())
        self.lines.setdefault(key, line)
        self.data.setdefault(key, {}).setdefault(point, []).extend(values)

    def result(self, fmt: str, parameters: Sequence[str]) -> MeasurementSet:
        if not self.data:
            raise MeasurementError(f"{self.path}: no measurements found")
        series = []
        for key, by_point in self.data.items():
            points = np.array(list(by_point), dtype=float).reshape(len(by_point), len(parameters))
            values = tuple(np.array(v, dtype=float) for v in by_point.values())
            series.append(Series(key[0], key[1], points, values, self.lines[key]))
        return MeasurementSet(self.path, fmt, tuple(parameters), tuple(series))


def _finite(path: str, where: str, text: object) -> float:
    """A finite float from a cell, a word or a JSON value; else an error naming ``where``."""
    if isinstance(text, bool) or not isinstance(text, int | float | str):
        raise MeasurementError(f"{path}:{where}: expected a number, got {text!r}")
    try:
        value = float(text)
    except ValueError:
        raise MeasurementError(f"{path}:{where}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise MeasurementError(
            f"{path}:{where}: {text} is not finite (NaN and inf are not measurements)"
        )
    return value


def _read_text(path: str, raw: str) -> MeasurementSet:
    """Extra-P's text format: PARAMETER, POINTS, REGION, METRIC, DATA lines; # comments."""
    parameters: list[str] = []
    points: list[tuple[float, ...]] = []
    collector = _Collector(path)
    region, region_line, metric = "", 0, ""
    block: list[int] = []  # lines of the DATA of the current (region, metric)
    regions: dict[str, int] = {}
    with_data: set[str] = set()

    def close_block() -> None:
        if block and len(block) != len(points):
            raise MeasurementError(
                f"{path}:{block[-1]}: REGION '{region}' has {len(block)} DATA lines "
                f"but POINTS lists {len(points)} points"
            )
        block.clear()

    for number, line in enumerate(raw.splitlines(), start=1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        field, rest = words[0], words[1:]
        if field == "PARAMETER":
            if points:
                raise MeasurementError(f"{path}:{number}: PARAMETER after POINTS")
            parameters.extend(rest)
        elif field == "POINTS":
            if not parameters:
                raise MeasurementError(f"{path}:{number}: POINTS before any PARAMETER line")
            text = " ".join(rest)
            groups = re.findall(r"\(([^()]*)\)", text) if "(" in text else rest
            for group in groups:
                coords = tuple(_finite(path, str(number), w) for w in group.split())
                if len(coords) != len(parameters):
                    raise MeasurementError(
                        f"{path}:{number}: point ({group.strip()}) has {len(coords)} coordinates "
                        f"for {len(parameters)} parameters ({', '.join(parameters)})"
                    )
                points.append(coords)
        elif field in ("REGION", "METRIC"):
            close_block()
            if field == "REGION":
                region, region_line = " ".join(rest), number
                regions.setdefault(region, number)
            else:
                metric = " ".join(rest)
        elif field == "DATA":
            if not points:
                raise MeasurementError(f"{path}:{number}: DATA before any POINTS line")
            if not region:
                raise MeasurementError(f"{path}:{number}: DATA before any REGION line")
            if len(block) == len(points):
                raise MeasurementError(
                    f"{path}:{number}: REGION '{region}' has more DATA lines than the "
                    f"{len(points)} POINTS"
                )
            if not rest:
                raise MeasurementError(f"{path}:{number}: DATA line without values")
            values = [_finite(path, str(number), w) for w in rest]
            collector.add(region, metric, points[len(block)], values, region_line)
            block.append(number)
            with_data.add(region)
        else:
            raise MeasurementError(
                f"{path}:{number}: unknown field '{field}' "
                "(valid: PARAMETER, POINTS, REGION, METRIC, DATA, # comment)"
            )
    close_block()
    empty = [name for name in regions if name not in with_data]
    if empty:
        raise MeasurementError(f"{path}:{regions[empty[0]]}: REGION '{empty[0]}' has no DATA lines")
    if not parameters:
        raise MeasurementError(f"{path}: no PARAMETER line (is this an Extra-P text file?)")
    return collector.result("text", parameters)


def _json_values(path: str, where: str, value: object) -> list[float]:
    items = value if isinstance(value, list) else [value]
    if not items:
        raise MeasurementError(f"{path}:{where}: no values")
    return [_finite(path, where, v) for v in items]


def _read_json(path: str, raw: str) -> MeasurementSet:
    """Extra-P's JSON: ``{"parameters": [...], "measurements": {kernel: {metric: [...]}}}``."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise MeasurementError(f"{path}:{exc.lineno}: not valid JSON: {exc.msg}") from None
    if not isinstance(data, dict) or "callpaths" in data:
        raise MeasurementError(
            f"{path}: expected Extra-P's JSON format "
            '{"parameters": [...], "measurements": {...}} (the legacy format is not supported)'
        )
    parameters = data.get("parameters")
    measurements = data.get("measurements")
    if not isinstance(parameters, list) or not all(isinstance(p, str) for p in parameters):
        raise MeasurementError(f"{path}: 'parameters' must be a list of names")
    if not isinstance(measurements, dict):
        raise MeasurementError(f"{path}: 'measurements' must map kernels to metrics")
    collector = _Collector(path)
    for kernel, metrics in measurements.items():
        if not isinstance(metrics, dict) or not metrics:
            raise MeasurementError(
                f"{path}: measurements.{kernel}: expected metrics, got {metrics!r}"
            )
        for metric, entries in metrics.items():
            where = f"measurements.{kernel}.{metric}"
            if not isinstance(entries, list) or not entries:
                raise MeasurementError(f"{path}:{where}: expected a non-empty list of points")
            for i, entry in enumerate(entries):
                at = f"{where}[{i}]"
                if not isinstance(entry, dict) or "point" not in entry or "values" not in entry:
                    raise MeasurementError(
                        f'{path}:{at}: expected {{"point": [...], "values": [...]}}'
                    )
                point = tuple(_json_values(path, f"{at}.point", entry["point"]))
                if len(point) != len(parameters):
                    raise MeasurementError(
                        f"{path}:{at}.point: {len(point)} coordinates "
                        f"for {len(parameters)} parameters"
                    )
                values = _json_values(path, f"{at}.values", entry["values"])
                collector.add(kernel, metric, point, values, 0)
    return collector.result("json", parameters)


#: line formats: the key of the point, and the defaults of callpath and metric (None: required)
_LINE_FORMATS: dict[str, tuple[str, dict[str, str | None]]] = {
    "jsonl": ("params", {"callpath": "<root>", "metric": "<default>"}),
    "talpas": ("parameters", {"callpath": None, "metric": None}),
}


def _read_lines(path: str, raw: str, fmt: str) -> MeasurementSet:
    """JSON Lines (``params``) and TaLPas (``parameters``, ``;`` separates): an object a line."""
    point_key, defaults = _LINE_FORMATS[fmt]
    required = [point_key, *(k for k, d in defaults.items() if d is None), "value"]
    collector = _Collector(path)
    parameters: list[str] | None = None
    for number, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        text = line.replace(";", ",") if fmt == "talpas" else line
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MeasurementError(f"{path}:{number}: not a JSON object: {exc.msg}") from None
        if not isinstance(data, dict):
            raise MeasurementError(f"{path}:{number}: expected a JSON object")
        missing = [k for k in required if k not in data]
        if missing:
            raise MeasurementError(f"{path}:{number}: missing property '{missing[0]}'")
        point = data[point_key]
        if not isinstance(point, dict) or not point:
            raise MeasurementError(
                f"{path}:{number}: '{point_key}' must map parameter names to values"
            )
        if parameters is None:
            parameters = list(point)
        if sorted(point) != sorted(parameters):
            raise MeasurementError(
                f"{path}:{number}: parameters {', '.join(point)} differ from the first line's "
                f"{', '.join(parameters)}"
            )
        coords = tuple(_finite(path, str(number), point[name]) for name in parameters)
        kernel = data.get("callpath", defaults["callpath"])
        metric = data.get("metric", defaults["metric"])
        if not isinstance(kernel, str) or not isinstance(metric, str):
            raise MeasurementError(f"{path}:{number}: 'callpath' and 'metric' must be strings")
        values = _json_values(path, str(number), data["value"])
        collector.add(kernel, metric, coords, values, number)
    return collector.result(fmt, parameters or [])


def _read_table(path: str, metric: str | None) -> MeasurementSet:
    """CSV: the first numeric column is the parameter; the value column is the last, or
    the one named ``metric`` if the file has no ``metric`` column."""
    header = _csv_header(path)
    numeric = [h for h in header if h not in ("kernel", "metric")]
    if len(numeric) < 2:
        raise MeasurementError(
            f"{path}:1: need a parameter column and a value column "
            f"(the header has: {', '.join(header)})"
        )
    value = numeric[-1]
    if metric and metric.lower() in numeric[1:] and "metric" not in header:
        value = metric.lower()
    table = read_csv(path, required=[numeric[0], value])
    collector = _Collector(path)
    for kernel, columns in table.kernels.items():
        metrics = table.text.get(kernel, {}).get("metric", [value] * len(table.lines[kernel]))
        for xv, yv, m, line in zip(
            columns[numeric[0]], columns[value], metrics, table.lines[kernel], strict=True
        ):
            collector.add(kernel, m, (float(xv),), [float(yv)], int(line))
    return collector.result("csv", [numeric[0]])


def _csv_header(path: str) -> list[str]:
    with open(path, encoding="utf-8-sig") as handle:
        for line in handle:
            if line.strip() and not line.lstrip().startswith("#"):
                return [h.strip().lower() for h in next(csv.reader([line]))]
    raise MeasurementError(f"{path}: the file is empty (expected a header and data rows)")


def detect_format(path: str | Path, raw: str) -> str:
    """The format of a measurement file, from its extension, else from its first line.

    >>> detect_format("m.txt", "PARAMETER p\\n"), detect_format("m", '{"params": {"x": 1}}\\n')
    ('text', 'jsonl')
    """
    suffix = Path(path).suffix.lower()
    if suffix in (".csv", ".jsonl"):
        return suffix[1:]
    first = next((line.strip() for line in raw.splitlines() if line.strip()), "")
    if first.startswith("{") and first.endswith("}"):
        if '"parameters"' in first and ";" in first:
            return "talpas"
        return "jsonl" if '"params"' in first else "json"
    if first.startswith(("{", "[")) or suffix == ".json":
        return "json"
    words = first.split()
    if words and (words[0] in ("PARAMETER", "POINTS", "REGION", "METRIC") or first.startswith("#")):
        return "text"
    return "csv" if "," in first else "text"


def read_measurements(
    path: str | Path, fmt: str | None = None, metric: str | None = None
) -> MeasurementSet:
    """Read measurements in Extra-P text, JSON, JSON Lines, TaLPas or CSV format.

    ``fmt`` is one of :data:`FORMATS` (default: detected); ``metric`` keeps only that
    metric (for a CSV file without a ``metric`` column: the value column of that name).
    """
    name = str(path)
    try:
        raw = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise MeasurementError(f"{name}: cannot read measurements: {exc}") from None
    if not raw.strip():
        raise MeasurementError(f"{name}: the file is empty")
    fmt = fmt or detect_format(name, raw)
    if fmt == "text":
        result = _read_text(name, raw)
    elif fmt == "json":
        result = _read_json(name, raw)
    elif fmt in ("jsonl", "talpas"):
        result = _read_lines(name, raw, fmt)
    elif fmt == "csv":
        result = _read_table(name, metric)
    else:
        raise MeasurementError(f"{name}: unknown format '{fmt}' (valid: {', '.join(FORMATS)})")
    if metric:
        kept = tuple(s for s in result.series if s.metric == metric)
        if not kept:
            found = sorted({s.metric for s in result.series})
            raise MeasurementError(
                f"{name}: no metric '{metric}' (the file has: {', '.join(found) or 'none named'})"
            )
        result = MeasurementSet(result.path, result.format, result.parameters, kept)
    return result
