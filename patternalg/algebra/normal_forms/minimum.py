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

from .extremum import Extremum
from .maximum import Maximum
from .normal_form import NormalForm

__all__ = ["Clause", "Minimum"]

#: one argument of a minimum: a normal form or a maximum of normal forms
Clause = NormalForm | Maximum


class Minimum(Extremum):
    """The minimum of two or more clauses, none known to be above another everywhere."""

    __slots__ = ()
    function = sympy.Min

    def __init__(self, clauses: tuple[Clause, ...]) -> None:
        super().__init__(clauses)

    @property
    def clauses(self) -> tuple[Clause, ...]:
        """The clauses, each the minimum somewhere."""
        return self._args
