"""The plain form: a model written as an expression of the grammar's safe arithmetic.

>>> Expression.from_table({"model": "0.353395 * x"}, "models.reduce_v").expr
0.353395*x
>>> Expression("2*p^(1/2)")(p=[4.0, 9.0]).tolist()
[4.0, 6.0]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import sympy

from ..base import Form
from ..parameters import Parameter

__all__ = ["Expression"]


class Expression(Form):
    """A closed form in any symbols of the grammar, under the key ``model``."""

    name = "expr"
    parameters: ClassVar[tuple[Parameter, ...]] = (
        Parameter("model", kind="expression", help="the closed form (the grammar's arithmetic)"),
    )
    inputs = ("x",)

    def _build(self, values: Mapping[str, sympy.Expr]) -> sympy.Expr:
        return values["model"]
