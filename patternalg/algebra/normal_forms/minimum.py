"""The pointwise minimum of normal forms and maxima of them, kept as its clauses.

A task pool on a machine pays at most its element's own time per element: ``min(d, A)``,
which no normal form holds where neither is below the other for every x >= 1. Holding the
minimum as its clauses lets sums, quotients and pipes distribute over it
(``min(a, b) + c = min(a + c, b + c)``, ``max(min(a, b), c) = min(max(a, c), max(b, c))``),
so a composition of such pools stays one flat minimum of forms the operators can still
compare, not a sympy expression nested once per level.

>>> from patternalg.algebra.normal_forms.normal_form import normal_form
>>> from patternalg.syntax.symbols import x
>>> Minimum((normal_form(x + 0), normal_form(x * 0 + 800))).to_expr()
Min(800, x)
"""

from __future__ import annotations

import sympy

from .maximum import Maximum
from .normal_form import NormalForm

__all__ = ["Clause", "Minimum"]

#: one argument of a minimum: a normal form or a maximum of normal forms
Clause = NormalForm | Maximum


class Minimum:
    """The minimum of two or more clauses, none known to be above another everywhere."""

    __slots__ = ("clauses", "_expr")

    def __init__(self, clauses: tuple[Clause, ...]) -> None:
        self.clauses = clauses
        self._expr: sympy.Expr | None = None

    def to_expr(self) -> sympy.Expr:
        """``Min(...)`` of the clauses' expressions (not re-simplified by sympy)."""
        if self._expr is None:
            self._expr = sympy.Min(*(c.to_expr() for c in self.clauses), evaluate=False)
        return self._expr

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Minimum) and frozenset(self.clauses) == frozenset(other.clauses)

    def __hash__(self) -> int:
        return hash(frozenset(self.clauses))

    def __repr__(self) -> str:
        return f"Minimum({self.to_expr()})"
