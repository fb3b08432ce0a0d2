"""A pointwise maximum or minimum kept as its arguments until someone needs sympy: the
operators compare and distribute over the arguments, and the sympy ``Max``/``Min`` is built
once, unevaluated (sympy's pairwise simplification of K arguments costs K^2 questions to
its assumption system).
"""

from __future__ import annotations

from typing import Any, ClassVar

import sympy

__all__ = ["Extremum"]


class Extremum:
    """The arguments of a pointwise extremum (:attr:`function`: ``sympy.Max`` or ``Min``),
    none known to beat another everywhere; equal when their sets of arguments are."""

    __slots__ = ("_args", "_expr")
    function: ClassVar[Any] = sympy.Max

    def __init__(self, args: tuple[Any, ...]) -> None:
        self._args = args
        self._expr: sympy.Expr | None = None

    def to_expr(self) -> sympy.Expr:
        """The sympy extremum of the arguments' expressions, not re-simplified."""
        if self._expr is None:
            self._expr = self.function(*(a.to_expr() for a in self._args), evaluate=False)
        return self._expr

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Extremum) or type(other) is not type(self):
            return False  # a Max is never a Min of the same arguments
        return frozenset(self._args) == frozenset(other._args)

    def __hash__(self) -> int:
        return hash(frozenset(self._args))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_expr()})"
