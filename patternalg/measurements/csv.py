"""CSV tables: a header, then one row per repetition; ``kernel`` and ``metric`` columns optional.

The delimiter is the header's comma, semicolon or tab (the most frequent), else runs of
blanks. The value column is the one ``value`` or ``metric`` names, else the last column
whose name says it is a measured value (:func:`~patternalg.measurements.names.is_value_name`:
``time``, ``runtime[s]``, ``speedup`` ...), else the last column. The parameters are all
other numeric columns except those named like values.

>>> ms = CsvReader.read("m.csv", "time_ms;size\\n1.5;8\\n2.5;8\\n3.5;16\\n")
>>> ms.parameters, ms.value_name, ms.unit, ms.series[0].values[0].tolist(), ms.series[0].lines
(('size',), 'time_ms', 'ms', [1.5, 2.5], ((2, 3), (4,)))
"""

from __future__ import annotations

import csv
from collections.abc import Sequence

from ..errors import MeasurementError
from .base import Collector, Reader, ValueChoice, number
from .model import Measurements
from .names import is_value_name, split_unit

__all__ = ["CsvReader", "DEFAULT_KERNEL", "TEXT_COLUMNS"]

#: kernel name used when a file has no kernel column
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


def _split(lines: Sequence[str], sep: str | None) -> list[list[str]]:
    if sep is None:
        return [line.split() for line in lines]
    return list(csv.reader(lines, delimiter=sep))


def _value_column(
    path: str, line: int, numeric: tuple[str, ...], metric: str | None, value: ValueChoice
) -> str | None:
    if callable(value):
        return value(numeric)
    if value is not None:
        if value.strip().lower() not in numeric:
            raise MeasurementError(
                f"{path}:{line}: missing column '{value}' "
                f"(the header has: {', '.join(numeric) or 'nothing'})"
            )
        return value.strip().lower()
    if metric is not None and metric.strip().lower() in numeric[1:]:
        return metric.strip().lower()
    named = [c for c in numeric if is_value_name(c)] or list(numeric)
    return named[-1] if named else None


class CsvReader(Reader):
    """CSV (comma, semicolon, tab or blank separated) with a header line."""

    name = "csv"
    suffixes = (".csv", ".tsv")

    @classmethod
    def sniff(cls, first: str) -> bool:
        return True  # the fallback: anything with a header

    @classmethod
    def read(
        cls, path: str, text: str, *, metric: str | None = None, value: ValueChoice = None
    ) -> Measurements:
        numbered = [
            (i, line)
            for i, line in enumerate(text.splitlines(), start=1)
            if line.strip() and not line.lstrip().startswith("#")
        ]
        if not numbered:
            raise MeasurementError(f"{path}: the file is empty (expected a header and data rows)")
        header_line, first = numbered[0]
        sep = delimiter(first)
        rows = _split([line for _, line in numbered], sep)
        written = [h.strip() for h in rows[0]]
        header = tuple(h.lower() for h in written)
        if len(set(header)) != len(header):
            dup = next(h for h in header if header.count(h) > 1)
            raise MeasurementError(f"{path}:{header_line}: column '{dup}' appears twice in the header")
        numeric = tuple(h for h in header if h not in TEXT_COLUMNS)
        if "metric" in header:
            metric_value = _value_column(path, header_line, numeric, None, value)
        else:
            metric_value = _value_column(path, header_line, numeric, metric, value)
        parameters = [c for c in numeric if c != metric_value and not is_value_name(c)]
        if metric_value is None or not parameters:
            found = _DELIMITERS.get(sep or "", "blanks")
            raise MeasurementError(
                f"{path}:{header_line}: need a parameter column and a value column "
                f"(the header has: {', '.join(header)}; columns separated by {found}; "
                "valid separators: comma, semicolon, tab, blanks)"
            )
        index = {h: i for i, h in enumerate(header)}
        collector = Collector(path, parameters)
        for (line, _), row in zip(numbered[1:], rows[1:], strict=True):
            if len(row) != len(header):
                raise MeasurementError(
                    f"{path}:{line}: {len(row)} cells where the header has {len(header)}"
                )
            kernel = row[index["kernel"]].strip() if "kernel" in index else DEFAULT_KERNEL
            if not kernel:
                raise MeasurementError(f"{path}:{line}: column 'kernel' is empty")
            name = row[index["metric"]].strip() if "metric" in index else metric_value
            point = tuple(number(row[index[c]], path, line, column=c) for c in parameters)
            cell = number(row[index[metric_value]], path, line, column=metric_value)
            collector.add(kernel, name, point, [cell], line)
        if not collector.data:
            raise MeasurementError(f"{path}: no data rows after the header")
        unit = split_unit(written[index[metric_value]])[1]
        return collector.result(cls.name, metric_value, header, header_line, unit=unit)
