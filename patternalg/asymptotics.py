"""The dominance order of models as x grows: which stage is a pipeline's bottleneck.

Models shaped like Extra-P's normal form (sums of ``c * x^i * log2(x)^j``, with
coefficients free of x) are compared term by term from the fastest-growing term down:
first the exponents, then the coefficients, then the next terms. The order is total on
such models, so a pipe that picks the greater stage stays commutative and associative
even when two stages tie in their leading term. Other shapes fall back to a limit.

>>> from patternalg.symbols import x, log2, n
>>> compare(1034.17 * x * log2(x), 536.185 * x)
1
>>> compare(536.185 * x, 536.185 * x + 5422.97)
-1
>>> compare(1034.17 * x * log2(x) / n, 536.185 * x * log2(x) / n)
1
>>> compare(x / n, x / 2) is None
True
"""

from __future__ import annotations

import functools
from collections import defaultdict

import sympy

from .symbols import log2, x

__all__ = ["compare", "signature", "Signature"]

#: ((exponent of x, exponent of log2(x)), coefficient) from the fastest-growing term down
Signature = tuple[tuple[tuple[sympy.Expr, sympy.Expr], sympy.Expr], ...]
_LOG2 = sympy.log(2)


def _factor_growth(factor: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr, sympy.Expr] | None:
    """(x exponent, log2 exponent, coefficient) of one factor, or None if not PMNF-shaped."""
    if not factor.has(x):
        return sympy.Integer(0), sympy.Integer(0), factor
    base, exp = factor.as_base_exp()
    if exp.has(x):
        return None
    if base == x:
        return exp, sympy.Integer(0), sympy.Integer(1)
    if isinstance(base, log2) and base.args[0] == x:
        return sympy.Integer(0), exp, sympy.Integer(1)
    if isinstance(base, sympy.log) and base.args[0] == x:
        # ln x = ln 2 * log2 x
        return sympy.Integer(0), exp, _LOG2**exp
    return None


@functools.lru_cache(maxsize=65536)
def signature(expr: sympy.Expr) -> Signature | None:
    """The terms of ``expr`` grouped by growth, fastest first; None if not PMNF-shaped.

    >>> signature(3 * x**2 + x * log2(x) + 7)
    (((2, 0), 3), ((1, 1), 1), ((0, 0), 7))
    """
    groups: dict[tuple[sympy.Expr, sympy.Expr], list[sympy.Expr]] = defaultdict(list)
    terms = sympy.Add.make_args(sympy.expand(expr) if expr.has(x) else expr)
    for term in terms:
        a, b = sympy.Integer(0), sympy.Integer(0)
        coefficient: list[sympy.Expr] = []
        for factor in sympy.Mul.make_args(term):
            growth = _factor_growth(factor)
            if growth is None:
                return None
            da, db, c = growth
            a, b = a + da, b + db
            coefficient.append(c)
        if not (a.is_number and b.is_number):
            return None
        groups[(a, b)].append(sympy.Mul(*coefficient))
    ordered = sorted(groups.items(), key=lambda item: (item[0][0], item[0][1]), reverse=True)
    result = tuple((key, sympy.Add(*cs)) for key, cs in ordered)
    return tuple((key, c) for key, c in result if c != 0)


def _sign(value: sympy.Expr) -> int | None:
    if value.is_positive:
        return 1
    if value.is_negative:
        return -1
    if value.is_zero:
        return 0
    return None


def _compare_signatures(a: Signature, b: Signature) -> int | None:
    ca, cb = dict(a), dict(b)
    keys = sorted(set(ca) | set(cb), key=lambda k: (k[0], k[1]), reverse=True)
    for key in keys:
        difference = ca.get(key, sympy.Integer(0)) - cb.get(key, sympy.Integer(0))
        sign = _sign(sympy.simplify(difference) if not difference.is_number else difference)
        if sign is None:
            return None
        if sign:
            return sign
    return 0


def _compare_by_limit(a: sympy.Expr, b: sympy.Expr) -> int | None:
    try:
        ratio = sympy.limit(a / b, x, sympy.oo)
    except (NotImplementedError, ValueError, TypeError, ZeroDivisionError):
        return None
    if ratio is sympy.oo:
        return 1
    if ratio == 0:
        return -1
    if ratio.is_number and ratio.is_finite:
        if ratio != 1:
            return 1 if ratio > 1 else -1
        try:
            difference = sympy.limit(a - b, x, sympy.oo)
        except (NotImplementedError, ValueError, TypeError):
            return None
        return _sign(difference) if difference.is_number else None
    return None


@functools.lru_cache(maxsize=65536)
def compare(a: sympy.Expr, b: sympy.Expr) -> int | None:
    """1 if ``a`` grows faster than ``b`` as x -> oo, -1 if slower, 0 if equal, None if undecided.

    Ties in the leading term are broken by the following terms, so the order is total on
    PMNF-shaped models with numeric coefficients.
    """
    if a == b:
        return 0
    sa, sb = signature(a), signature(b)
    if sa is not None and sb is not None:
        return _compare_signatures(sa, sb)
    return _compare_by_limit(a, b)
