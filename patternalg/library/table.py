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

from .._internal.display import counted, ranges_text
from .._internal.tables import Tabular
from ..algebra.atomic_model import AtomicModel

__all__ = ["LibraryTable"]


@dataclass(frozen=True)
class LibraryTable(Tabular):
    """One row per atom: its name, closed form, unit, family, where it was measured and
    where it comes from (a fit's file and kernel, a paper's table). ``atoms`` counts the
    library's atoms where ``models`` holds only some (a notebook shows the first and the
    last of a long library, without building the others); ``title`` replaces the caption,
    ``notes`` show under the table, ``held_by`` names what holds every row."""

    models: tuple[AtomicModel, ...]
    atoms: int | None = None
    title: str = ""
    notes: tuple[str, ...] = ()
    held_by: str = ".table()"

    def header(self) -> list[str]:
        return ["atom", "model", "unit", "family", "measured", "source"]

    def rows(self) -> list[list[Any]]:
        return [[m.name, m.expr, m.unit, m.form, ranges_text(m.domain), m.source] for m in self.models]

    def caption(self) -> str:
        return self.title or counted(len(self.models) if self.atoms is None else self.atoms, "atom")

    def unbuilt_rows(self) -> int:
        return 0 if self.atoms is None else self.atoms - len(self.models)

    def holder(self) -> str:
        return self.held_by
