"""The pointwise maximum of normal forms, kept as a set of forms until someone needs sympy.

A pipe whose stages cannot be ordered keeps all of them; holding them as normal forms (not
as a sympy ``Max``) lets the next stage be compared with each of them on their terms, and
builds the ``Max`` once, without sympy's pairwise simplification of its arguments.

>>> from patternalg.algebra.normal_forms.normal_form import normal_form
>>> from patternalg.syntax.symbols import x, n, m
>>> both = Maximum((normal_form(x / n), normal_form(x / m)))
>>> both.to_expr()
Max(x/m, x/n)
>>> both == Maximum((normal_form(x / m), normal_form(x / n)))
True
"""

from __future__ import annotations

import sympy

from .normal_form import NormalForm

__all__ = ["Maximum"]


class Maximum:
    """The maximum of two or more normal forms, none known to be below another everywhere."""

    __slots__ = ("forms", "_expr")

    def __init__(self, forms: tuple[NormalForm, ...]) -> None:
        self.forms = forms
        self._expr: sympy.Expr | None = None

    def to_expr(self) -> sympy.Expr:
        """``Max(...)`` of the forms' expressions (not re-simplified by sympy: K stages would
        cost K^2 comparisons of sympy's assumption system)."""
        if self._expr is None:
            self._expr = sympy.Max(*(f.to_expr() for f in self.forms), evaluate=False)
        return self._expr

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Maximum) and frozenset(self.forms) == frozenset(other.forms)

    def __hash__(self) -> int:
        return hash(frozenset(self.forms))

    def __repr__(self) -> str:
        return f"Maximum({self.to_expr()})"
