"""What every decision result shares: a table as JSON rows, CSV and (from
:mod:`patternalg._internal.display`) an HTML table."""

from __future__ import annotations

import csv
import dataclasses
import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

from .._internal.display import HtmlTable
from ..algebra.units import check_unit, converted_note, in_one_unit
from ..library.model_library import AtomicModel, ModelLibrary
from ..syntax.arith import format_number, number_text
from ..syntax.terms import Term

__all__ = ["Tabular", "fields_json", "table_csv", "in_unit", "with_unit", "number", "negative_note"]


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

    >>> from patternalg.decisions.explore import Rewrite
    >>> fields_json(Rewrite("pipe_comm", "->", "==", ("exact",), "pipe(a, b)", "pipe(b, a)"))
    {'law': 'pipe_comm', 'direction': '->', 'relation': '==', 'semantics': ['exact'], 'before': 'pipe(a, b)', 'after': 'pipe(b, a)'}
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
        return table_csv(self.header(), self.cells(digits, format_number))


def in_unit(
    terms: Sequence[Term], library: Mapping[str, AtomicModel] | None, unit: str | None
) -> tuple[Mapping[str, AtomicModel], str, tuple[str, ...]]:
    """The library with every atom of ``terms`` in one unit (``unit``, else their common
    one, ns for times of different units), that unit, and the note naming what was
    converted (see :func:`patternalg.algebra.units.in_one_unit`).

    >>> from patternalg.syntax.parser import parse
    >>> _, unit, notes = in_unit([parse("pipe(qsort, inc)")], None, None)
    >>> unit, notes
    ('ns', ())
    >>> _, unit, notes = in_unit([parse("inc"), parse("nop")], None, "us")
    >>> unit, notes
    ('us', ('converted to us: inc (ns), nop (ns)',))
    """
    original = library if library is not None else ModelLibrary.builtin()
    if unit is not None:
        check_unit(unit, "unit")
    converted, target = in_one_unit(terms, original, unit)
    note = converted_note(terms, original, target)
    return converted, target, (note,) if note else ()


def negative_note(name: str, least: float, unit: str) -> list[str]:
    """The note for a design whose values go below 0 (down to ``least``), else none.

    >>> negative_note("qsort", -517.085, "ns")
    ['qsort: values down to -517.085 ns are negative: no time can be; the models do not hold there']
    """
    if not least < 0:
        return []
    return [
        f"{name}: values down to {number_text(least)} {unit} are negative: no time can be; the "
        "models do not hold there"
    ]


def with_unit(name: str, unit: str) -> str:
    """A column name with its unit: ``value [ns]``."""
    return f"{name} [{unit}]"
