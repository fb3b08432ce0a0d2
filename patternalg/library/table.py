"""A model library as a table: what a notebook shows of a ``ModelLibrary`` (its
``_repr_html_``), and ``library.table()``, printed, as CSV rows or as a DataFrame.

>>> from patternalg.library.model_library import ModelLibrary
>>> print(ModelLibrary.of({"inc": "536.185*x", "nop": "5422.97"}).table())
atom  model      unit  family  measured  source
inc   536.185*x  ns    expr              library['inc']
nop   5422.97    ns    expr              library['nop']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._internal.display import counted, ranges_text, shown_rows, table_html
from .._internal.tables import Tabular
from ..algebra.atomic_model import AtomicModel

__all__ = ["LibraryTable"]


@dataclass(frozen=True)
class LibraryTable(Tabular):
    """One row per atom: its name, closed form, unit, family, where it was measured and
    where it comes from (a fit's file and kernel, a paper's table). ``atoms`` counts the
    library's atoms where ``models`` holds only some (a notebook shows the first and the
    last of a long library, without building the others)."""

    models: tuple[AtomicModel, ...]
    atoms: int | None = None

    def header(self) -> list[str]:
        return ["atom", "model", "unit", "family", "measured", "source"]

    def rows(self) -> list[list[Any]]:
        return [[m.name, m.expr, m.unit, m.form, ranges_text(m.domain), m.source] for m in self.models]

    def caption(self) -> str:
        return counted(len(self.models) if self.atoms is None else self.atoms, "atom")

    def _repr_html_(self) -> str:
        rows, hidden = shown_rows(self.rows())
        hidden += 0 if self.atoms is None else self.atoms - len(self.models)
        return table_html(self.html_header(), self.html_cells(rows), self.caption(), hidden=hidden, whole=".table()")
