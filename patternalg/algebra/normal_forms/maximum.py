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

from .extremum import Extremum
from .normal_form import NormalForm

__all__ = ["Maximum"]


class Maximum(Extremum):
    """The maximum of two or more normal forms, none known to be below another everywhere."""

    __slots__ = ()
    function = sympy.Max

    def __init__(self, forms: tuple[NormalForm, ...]) -> None:
        super().__init__(forms)

    @property
    def forms(self) -> tuple[NormalForm, ...]:
        """The forms, each the maximum somewhere."""
        return self._args
