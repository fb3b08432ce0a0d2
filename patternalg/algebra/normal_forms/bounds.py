"""Exact bounds of an expression where each of its symbols lies in an interval: interval
arithmetic in fractions (a float is the fraction it is, so nothing is rounded).

A cheap, sound first answer to "what sign has this coefficient?": ``536.185 - 536.185/n`` for
n >= 1 lies in [0, 536.185), so it is >= 0. Bounds lose what the symbols' repetition knows
(``n/(n + 1)`` is bounded by [0, oo), not [1/2, 1)), so an undecided answer is no answer.

>>> from patternalg.syntax.symbols import n
>>> bounds(536 - 536 / sympy.Min(2, n), {n: (Fraction(1), INFINITY)})
(Fraction(0, 1), Fraction(268, 1))
>>> bounds(sympy.log(n), {n: (Fraction(1), INFINITY)}) is None
True
>>> bounds(sympy.Float("1e400") * n - n, {n: (Fraction(1), INFINITY)})[1]  # no float made of 1e400
inf
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import sympy

__all__ = ["Bound", "INFINITY", "LARGEST_SUMMED", "MOST_POWER", "ROUNDING", "bounds"]

INFINITY = float("inf")
#: a whole power above this is not bounded (a fraction to the millionth is megabytes)
MOST_POWER = 64
#: relative slack for the rounding of float coefficients: a value above ``-ROUNDING`` times
#: the size of the terms it was summed from is 0 to the digits it was computed in
ROUNDING = 1e-12
#: coefficients summed in doubles stay below this (a few of 1.6e308 overflow a sum: callers
#: scale by a power of two first)
LARGEST_SUMMED = 1e300

Bound = Fraction | float  #: a fraction, or +-inf
Interval = tuple[Bound, Bound]


def _product(a: Bound, b: Bound) -> Bound:
    """``a * b``, with ``0 * inf = 0`` (a bound's product with an unbounded side); an
    infinite side is a signed infinity, never a fraction made a float (1e400 overflows)."""
    if a == 0 or b == 0:
        return Fraction(0)
    if isinstance(a, float) or isinstance(b, float):
        return INFINITY if (a > 0) == (b > 0) else -INFINITY
    return a * b


def _total(ends: list[Bound]) -> Bound | None:
    """The sum of bounds (None for inf - inf); an infinite one is the sum, as in
    :func:`_product`."""
    infinite = {end for end in ends if isinstance(end, float)}
    if len(infinite) > 1:
        return None
    return infinite.pop() if infinite else sum(ends, Fraction(0))


def _times(left: Interval, right: Interval) -> Interval:
    ends = [_product(a, b) for a in left for b in right]
    return min(ends), max(ends)


def _inverse(bound: Bound) -> Bound:
    return Fraction(0) if bound in (INFINITY, -INFINITY) else 1 / bound


def _reciprocal(interval: Interval) -> Interval | None:
    """``1 / interval``, where 0 is not inside (else unbounded both ways: None)."""
    low, high = interval
    return (_inverse(high), _inverse(low)) if low > 0 or high < 0 else None


def _power(base: Interval, exponent: int) -> Interval | None:
    if exponent < 0:
        flipped = _reciprocal(base)
        return None if flipped is None else _power(flipped, -exponent)
    low, high = base
    ends = [low**exponent, high**exponent]
    if exponent % 2 == 0 and low < 0 < high:
        return Fraction(0), max(ends)
    return min(ends), max(ends)


def bounds(value: sympy.Expr, box: Mapping[sympy.Symbol, Interval]) -> Interval | None:
    """The least and the greatest ``value`` can be where each symbol lies in its interval of
    ``box`` (outer bounds: the true range lies within), or None where an operation is not
    one of +, *, whole powers, Min and Max, or a symbol has no interval."""
    if value.is_Number:
        if not value.is_finite:
            return None
        rational = sympy.Rational(value)  # a Float's exact binary value, whatever its precision
        exact = Fraction(int(rational.p), int(rational.q))
        return exact, exact
    if value.is_Symbol:
        return box.get(value)
    parts = [bounds(arg, box) for arg in value.args]
    if any(part is None for part in parts):
        return None
    found: list[Interval] = parts  # type: ignore[assignment]
    if value.is_Add:
        low, high = _total([low for low, _ in found]), _total([high for _, high in found])
        return None if low is None or high is None else (low, high)
    if value.is_Mul:
        total: Interval = (Fraction(1), Fraction(1))
        for part in found:
            total = _times(total, part)
        return total
    if value.is_Pow:
        exponent = value.args[1]
        whole = exponent.is_Integer and abs(int(exponent)) <= MOST_POWER
        return _power(found[0], int(exponent)) if whole else None
    if isinstance(value, sympy.Min):
        return min(low for low, _ in found), min(high for _, high in found)
    if isinstance(value, sympy.Max):
        return max(low for low, _ in found), max(high for _, high in found)
    return None
