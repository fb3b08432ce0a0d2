"""What every result table shares: JSON rows, CSV and (from :mod:`patternalg._internal.display`)
an HTML table; the fields of a dataclass result as JSON."""

from __future__ import annotations

import csv
import dataclasses
import io
import itertools
import math
from collections.abc import Sequence
from typing import Any

from ..syntax.arith import format_number
from .display import HtmlTable, as_digits

__all__ = ["Tabular", "distinct", "fields_json", "table_csv", "with_unit", "number"]


def number(value: float) -> float | None:
    """A float for JSON: None where the model has no finite value."""
    value = float(value)
    return value if math.isfinite(value) else None


def table_csv(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """CSV text of a header and rows of cells already printed (``HtmlTable.cells``).

    >>> table_csv(["x", "v"], [["1", "0.1"]])
    'x,v\\r\\n1,0.1\\r\\n'
    """
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def fields_json(result: Any) -> dict[str, Any]:
    """A dataclass result's fields as JSON values, in field order: tuples become lists,
    nested results their ``to_json()``.

    >>> @dataclasses.dataclass(frozen=True)
    ... class Rewrite:
    ...     law: str
    ...     semantics: tuple[str, ...]
    >>> fields_json(Rewrite("pipe_comm", ("exact",)))
    {'law': 'pipe_comm', 'semantics': ['exact']}
    """
    return {f.name: _json_value(getattr(result, f.name)) for f in dataclasses.fields(result)}


def _json_value(value: Any) -> Any:
    if hasattr(value, "to_json"):
        return value.to_json()
    if isinstance(value, tuple | list):
        return [_json_value(item) for item in value]
    return value


class Tabular(HtmlTable):
    """A result that is a table: ``header()`` and ``rows()`` give ``to_csv`` and the
    notebook's ``_repr_html_``; every number prints by the one printer (the double itself
    stays in ``rows()`` and JSON)."""

    def to_csv(self, digits: int | None = None) -> str:
        """The table as CSV, numbers by :func:`~patternalg.arith.format_number` (a model's
        values in ``digits`` significant digits, default 15)."""
        return table_csv(self.header(), self.cells(as_digits(digits), format_number))


def distinct(names: Sequence[str]) -> list[str]:
    """Column names made distinct: a name already used by a column before it gets `` (2)``
    (`` (3)``, ...: the first number that makes it new) after it, so that a table over a
    count named ``rank``, or of one term given twice, has a DataFrame whose columns are
    each one column.

    >>> distinct(["rank", "rank", "value [ns]", "rank"])
    ['rank', 'rank (2)', 'value [ns]', 'rank (3)']
    """
    shown: list[str] = []
    for name in names:
        tried = itertools.chain([name], (f"{name} ({k})" for k in itertools.count(2)))
        shown.append(next(new for new in tried if new not in shown))
    return shown


def with_unit(name: str, unit: str) -> str:
    """A column name with its unit: ``value [ns]``."""
    return f"{name} [{unit}]"
