"""What checking a law gives: :class:`CheckResult` (the verdict) and its :class:`Counterexample`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .._internal.display import HtmlTable, brief, counted
from ..algebra.semantics import Semantics
from ..algebra.units import DEFAULT_UNIT
from ..syntax.arith import format_number
from .language import Law

__all__ = ["STATUSES", "Counterexample", "CheckResult"]

#: relative tolerance of the checker's numeric comparisons: sides this close are alike (the
#: counterexample's text says 1e-9)
RTOL = 1e-9
#: the statuses of a checked law, from strongest to weakest
STATUSES = ("proved", "no-counterexample", "holds-asymptotically", "refuted")


@dataclass(frozen=True)
class Counterexample:
    """An instantiation of a law under which its relation fails.

    ``bindings`` maps metavariables to terms, ``atoms`` gives the models of the generated
    atoms those terms use, ``models`` each metavariable's model, ``symbols`` the values of
    counts; ``lhs`` and ``rhs`` are both sides at ``x`` (None when the law fails only as
    x -> oo beyond 2^30, or when a double does not hold them: 1e-332 ns) and
    ``ratio_limit`` is lim lhs/rhs as x -> oo.
    """

    bindings: tuple[tuple[str, str], ...] = ()
    atoms: tuple[tuple[str, str], ...] = ()
    models: tuple[tuple[str, str], ...] = ()
    symbols: tuple[tuple[str, int], ...] = ()
    x: int | None = None
    lhs: float | None = None
    rhs: float | None = None
    ratio_limit: str | None = None
    unit: str = DEFAULT_UNIT  #: of ``lhs`` and ``rhs``: ns, or the one unit of a law without times

    def to_json(self) -> dict[str, Any]:
        """The JSON object of the ``counterexample`` key."""
        return {
            "bindings": dict(self.bindings),
            "atoms": dict(self.atoms),
            "models": dict(self.models),
            "symbols": dict(self.symbols),
            "x": self.x,
            "lhs": self.lhs,
            "rhs": self.rhs,
            "unit": self.unit,
            "ratio_limit": self.ratio_limit,
        }

    def __str__(self) -> str:
        parts = []
        if self.bindings:
            where = f" where {', '.join(f'{k} = {v}' for k, v in self.atoms)}" if self.atoms else ""
            parts.append(", ".join(f"{k} = {v}" for k, v in self.bindings) + where)
        if self.symbols:
            parts.append(", ".join(f"{k} = {v}" for k, v in self.symbols))
        if self.x is not None and self.lhs is not None and self.rhs is not None:
            alike = self.lhs != self.rhs and abs(self.lhs - self.rhs) <= RTOL * max(abs(self.lhs), abs(self.rhs))
            parts.append(
                f"x = {self.x}: lhs = {format_number(self.lhs)} {self.unit}, "
                f"rhs = {format_number(self.rhs)} {self.unit}"
                + (" (alike to the rounding, a relative 1e-9: no strict order)" if alike else "")
            )
        if self.ratio_limit is not None:
            parts.append(f"lhs/rhs -> {self.ratio_limit} as x -> oo")
        return "; ".join(parts)


@dataclass(frozen=True)
class CheckResult(HtmlTable):
    """The verdict on one law under one semantics (a notebook shows it as a table)."""

    law: Law
    semantics: Semantics
    status: str
    counterexample: Counterexample | None = None
    examples: int = 0
    seconds: float = field(default=0.0, compare=False)

    def __repr__(self) -> str:
        """``CheckResult(seq(A, B) <= pipe(A, B) under exact: refuted after 1 example)``."""
        law = f"{self.law.id}: {self.law}" if self.law.id else str(self.law)
        tried = f" after {counted(self.examples, 'example')}" if self.examples else ""
        return brief("CheckResult", f"{law} under {self.semantics.value}: {self.status}{tried}")

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``patternalg laws --format json`` (no timing: runs reproduce)."""
        return {
            "id": self.law.id,
            "law": str(self.law),
            "semantics": self.semantics.value,
            "status": self.status,
            "counterexample": None
            if self.counterexample is None
            else self.counterexample.to_json(),
            "examples": self.examples,
        }

    def header(self) -> list[str]:
        """Columns of the notebook table."""
        return ["law", "semantics", "status", "examples", "counterexample"]

    def rows(self) -> list[list[Any]]:
        """One row: the law, the semantics, the verdict, the examples tried, a counterexample."""
        shown = "" if self.counterexample is None else str(self.counterexample)
        return [[str(self.law), self.semantics.value, self.status, self.examples, shown]]
