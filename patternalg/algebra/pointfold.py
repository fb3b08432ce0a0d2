"""Numbers at a point, accurate to far more digits than are printed.

:class:`Numbers` is the arithmetic of :func:`~patternalg.algebra.fold.fold` at a point: exact
rationals while the models give them, else sympy floats of 192 bits, so a sum of 10,000
stages is exact to the 15 significant digits a value is printed in (53-bit floats lost
four of them: ``5490534399.99948``), and values beyond a double (x = 10^308) are numbers
too. :func:`rounded` gives the result in a double's 53 bits.

>>> from patternalg.syntax.symbols import x
>>> numbers = Numbers("--at x=1024")
>>> total = sympy.Integer(0)
>>> for _ in range(10000):
...     total = numbers.add(total, numbers.leaf(sympy.Float(536.185) * x, {x: sympy.Integer(1024)}))
>>> rounded(total)
5490534400.00000
"""

from __future__ import annotations

from collections.abc import Mapping

import sympy

from .._internal.surface import flag
from ..errors import EvaluationError
from ..syntax.arith import format_expr
from .bindings import substitute
from .fold import TIE, Arithmetic

__all__ = ["Numbers", "rounded", "PRECISION"]

#: bits of the floats a value at a point is computed in
PRECISION = 192
_DIGITS = 58  # decimal digits of PRECISION bits


class Numbers(Arithmetic[sympy.Expr]):
    """Exact rationals or 192-bit sympy floats; ``where`` names the point in messages."""

    def __init__(self, where: str = "") -> None:
        self.where = where
        self._leaves: dict[tuple[sympy.Expr, frozenset], sympy.Expr] = {}

    def leaf(self, expr: sympy.Expr, context: Mapping[sympy.Symbol, sympy.Expr]) -> sympy.Expr:
        """``expr`` with ``context`` substituted, as a number (each distinct leaf once)."""
        bound = {s: context[s] for s in expr.free_symbols if s in context}
        key = (expr, frozenset(bound.items()))
        found = self._leaves.get(key)
        if found is None:
            found = self._leaves[key] = self._number(expr, bound)
        return found

    def _number(self, expr: sympy.Expr, bound: Mapping[sympy.Symbol, sympy.Expr]) -> sympy.Expr:
        value = substitute(expr, bound, self.where)
        if value.free_symbols:
            names = ", ".join(sorted(s.name for s in value.free_symbols))
            raise EvaluationError(f"{self.where}: no value for {names} (bind it with {flag('at')})")
        if value.is_Rational:
            return value
        value = value.evalf(_DIGITS)
        if value.is_zero:  # a float 0.0 evaluates to sympy's exact 0
            return sympy.Integer(0)
        if not (value.is_Float and value.is_finite):
            raise EvaluationError(
                f"{self.where}: the model has no finite real value there: {format_expr(expr)} "
                f"is {format_expr(sympy.N(value, 6))}"
            )
        return value

    def add(self, left: sympy.Expr, right: sympy.Expr) -> sympy.Expr:
        """The exact sum, or the sum in the wider of the two precisions."""
        return left + right

    def divide(self, body: sympy.Expr, count: sympy.Expr) -> sympy.Expr:
        """``body / count`` (a thread count is a positive integer here)."""
        return body / count

    def larger(self, left: sympy.Expr, right: sympy.Expr) -> tuple[sympy.Expr, int]:
        """The larger stage and which (ties within :data:`~.fold.TIE`: the left)."""
        if bool(left >= right):
            return left, 0
        return right, 1 if float(right) > float(left) * (1 + TIE) else 0

    def smaller(self, left: sympy.Expr, right: sympy.Expr) -> sympy.Expr:
        """The smaller of two numbers."""
        return left if bool(left <= right) else right

    def multiply(self, left: sympy.Expr, right: sympy.Expr) -> sympy.Expr:
        """The exact product, or the product in the wider precision."""
        return left * right

    def constant(self, value: sympy.Expr) -> float | None:
        """A number is one (a symbol left free is not).

        >>> Numbers().constant(sympy.Integer(3)), Numbers().constant(sympy.Symbol("n") - 1)
        (3.0, None)
        """
        return float(value) if value.is_number else None


def rounded(value: sympy.Expr) -> sympy.Expr:
    """A value of :class:`Numbers` as the model's value: exact rationals stay, floats are
    rounded to a double's 53 bits (their exponent is not limited: 1e400 stays 1e400).

    >>> rounded(sympy.Float(1, 60) / 3), rounded(sympy.Rational(3, 4))
    (0.333333333333333, 3/4)
    """
    if value.is_Float:
        return sympy.Float(value, precision=53)
    return value
