"""What every decision result shares: a table as JSON rows, CSV and (from
:mod:`patternalg.display`) an HTML table."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..display import HtmlTable
from ..library import AtomicModel
from ..terms import Atom, MapReduce, Term

__all__ = ["Tabular", "table_csv", "unit_of", "number"]


def number(value: float) -> float | None:
    """A float for JSON: None where the model has no finite value."""
    value = float(value)
    return value if math.isfinite(value) else None


def table_csv(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """CSV text with full-precision numbers (``repr`` of floats).

    >>> table_csv(["x", "v"], [[1.0, 0.1]])
    'x,v\\r\\n1.0,0.1\\r\\n'
    """
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if v is None else v for v in row])
    return out.getvalue()


class Tabular(HtmlTable):
    """A result that is a table: ``header()`` and ``rows()`` give ``to_csv`` and the
    notebook's ``_repr_html_``."""

    def to_csv(self) -> str:
        """The table as CSV."""
        return table_csv(self.header(), self.rows())


def unit_of(terms: Sequence[Term], library: Mapping[str, AtomicModel]) -> str | None:
    """The unit the terms' atoms share, or None if they differ.

    >>> from patternalg.syntax import parse
    >>> from patternalg.library import ModelLibrary
    >>> unit_of([parse("pipe(qsort, inc)")], ModelLibrary.builtin())
    'ns'
    """
    names = set()
    for term in terms:
        for node in term.walk():
            if isinstance(node, Atom):
                names.add(node.name)
            elif isinstance(node, MapReduce):
                names.add("shuffle" if node.shuffle is None else node.shuffle.name)
    units = {library[name].unit for name in names}
    return units.pop() if len(units) == 1 else None
