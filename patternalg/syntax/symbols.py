"""The symbols of patternalg, created once with their assumptions.

``Symbol("x")`` and ``Symbol("x", positive=True)`` are different symbols to sympy, so
every symbol of a model goes through :func:`symbol`.

>>> symbol("x") is x
True
>>> x.is_positive
True
"""

from __future__ import annotations

from typing import Any

import sympy

__all__ = ["x", "p", "phi", "n", "m", "o", "symbol", "log2"]

_TWO = sympy.Integer(2)


class log2(sympy.Function):  # noqa: N801 (sympy names functions in lowercase)
    r"""The base-2 logarithm: ``sympy.codegen.cfunctions.log2`` (the same methods; not
    imported, as importing ``sympy.codegen`` took a sixth of patternalg's start-up beyond
    sympy), printed in LaTeX as mathematicians write it.

    Notebooks (sympy's ``_repr_latex_``) and ``--format latex`` print the same thing:

    >>> print(sympy.latex(log2(x) ** 2))
    \log_{2}{\left(x \right)}^{2}
    >>> log2(x).diff(x), log2(sympy.Integer(8)), log2(sympy.Integer(3)).evalf(5)
    (1/(x*log(2)), 3, 1.5850)
    """

    nargs = 1

    def fdiff(self, argindex: int = 1) -> sympy.Expr:
        if argindex == 1:
            return sympy.S.One / (sympy.log(_TWO) * self.args[0])
        raise sympy.ArgumentIndexError(self, argindex)

    @classmethod
    def eval(cls, arg: sympy.Expr) -> sympy.Expr | None:
        """sympy.codegen's rule, answered without sympy's ``log`` for a positive integer
        (the common case at a point): its exponent if it is a power of two, else it stays
        ``log2(n)``.

        >>> log2(sympy.Integer(1024)), log2(sympy.Integer(12)), log2(sympy.Integer(1))
        (10, log2(12), 0)
        """
        if arg.is_Integer and arg.is_positive:
            value = int(arg)
            return sympy.Integer(value.bit_length() - 1) if value & (value - 1) == 0 else None
        if arg.is_number:
            result = sympy.log.eval(arg, base=_TWO)
            if result.is_Atom:
                return result
        elif arg.is_Pow and arg.base == _TWO:
            return arg.exp
        return None

    def _eval_evalf(self, *args: Any, **kwargs: Any) -> sympy.Expr:
        return self.rewrite(sympy.log).evalf(*args, **kwargs)

    def _eval_is_positive(self) -> bool | None:
        """Above 0 where its argument is above 1 (``log2(3)`` at a point: a constant whose
        sign a comparison needs), as sympy's ``log`` says.

        >>> log2(sympy.Integer(3)).is_positive, log2(sympy.Rational(1, 3)).is_positive, log2(x).is_positive
        (True, False, None)
        """
        return sympy.log(self.args[0]).is_positive

    def _eval_rewrite_as_log(self, arg: sympy.Expr, **kwargs: Any) -> sympy.Expr:
        return sympy.log(arg) / sympy.log(_TWO)

    def _eval_expand_func(self, **hints: Any) -> sympy.Expr:
        return self._eval_rewrite_as_log(self.args[0])

    _eval_rewrite_as_tractable = _eval_rewrite_as_log

    def _latex(self, printer: Any, exp: str | None = None) -> str:
        tex = r"\log_{2}{\left(" + printer._print(self.args[0]) + r" \right)}"
        return f"{tex}^{{{exp}}}" if exp else tex


_CACHE: dict[str, sympy.Symbol] = {}


def symbol(name: str) -> sympy.Symbol:
    """Return the one positive symbol called ``name``.

    >>> symbol("n") == sympy.Symbol("n", positive=True)
    True
    """
    found = _CACHE.get(name)
    if found is None:
        found = _CACHE[name] = sympy.Symbol(name, positive=True)
    return found


x = symbol("x")  #: the input size (count of input elements)
p = symbol("p")  #: the cores an atom gets
phi = symbol("phi")  #: F_CPU / F_Mem, the frequency ratio of the memory-wall model
n = symbol("n")  #: threads of a task pool, threads per node of mapReduce
m = symbol("m")  #: compute nodes of mapReduce
o = symbol("o")  #: keys handled by a shuffle
