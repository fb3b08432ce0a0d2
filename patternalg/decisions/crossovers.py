"""Finding the points where two models are equal, in bounded time: piece by piece of the
difference's ``max``es, a polynomial of degree at most 4 (in x, log2(x), a root of x or a
count) solved by its companion matrix, each root polished by exact Newton steps (a multiple
root, where two models touch, as one); other sign
changes bracketed on a scan and refined by a bounded bisection, touches by a bounded
golden-section search.

>>> [round(r, 4) for r in exact_roots(x**2 - 4, x, 0.0, 10.0)]
[2.0]
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import sympy

from ..algebra.normal_forms.normal_form import normal_form
from ..syntax.symbols import x

__all__ = ["RTOL", "REFINED_DIGITS", "TIE_RTOL", "boundary", "exact_roots", "numeric_roots"]

#: relative precision of numerically refined crossovers
RTOL = 1e-9
#: two models closer than this, relative to the larger, are equal (the rest is rounding)
TIE_RTOL = 1e-12
#: significant digits a crossover refined to :data:`RTOL` is known to (and printed in)
REFINED_DIGITS = 1 + round(-math.log10(RTOL))
_MAX_PIECES = 64  #: equations tried per pair (each max doubles them)
_MAX_NODES = 2_000  #: nodes of a difference solved piece by piece at most
_MAX_DEGREE = 4  #: polynomials of higher degree (x^60 + a*x + b) are bracketed numerically
#: iterations of a bisection or golden-section search at most: halving an interval from
#: 1 down to a root at 1e-303 next to 0 takes about 1,000
_MAX_STEPS = 2_200
_SPLITS = 32  #: points a bisection reads between its ends at each step
#: two values this close (relative) are equal to their own rounding (a few units in the last place)
_ROUNDING = 16 * sys.float_info.epsilon


def _small(expr: sympy.Expr) -> bool:
    """Whether ``expr`` has at most :data:`_MAX_NODES` nodes (counted without recursion):
    sympy's own walks recurse, and a big model is bracketed numerically instead.

    >>> _small(x + 1), _small(sympy.Add(*(x**k for k in range(_MAX_NODES))))
    (True, False)
    """
    stack, seen = [expr], 0
    while stack:
        seen += 1
        if seen > _MAX_NODES:
            return False
        stack.extend(stack.pop().args)
    return True


def _pieces(expr: sympy.Expr) -> list[sympy.Expr]:
    """Equations whose roots contain every root of ``expr`` and every point where one of its
    ``max``/``min`` switches argument: each branch of each ``max``, and the switches."""
    out: list[sympy.Expr] = []
    todo = [expr]
    while todo and len(out) + len(todo) <= _MAX_PIECES:
        e = todo.pop()
        found = next(iter(e.atoms(sympy.Max, sympy.Min)), None)
        if found is None:
            out.append(e)
            continue
        args = found.args
        if len(out) + len(args) * (len(args) - 1) // 2 > _MAX_PIECES:
            raise _TooMany  # a pipe of 1,000 stages: half a million differences
        out.extend(a - b for i, a in enumerate(args) for b in args[i + 1 :])
        todo.extend(_replaced(e, found, a) for a in args)
    if todo:
        raise _TooMany
    return out


def _replaced(expr: sympy.Expr, old: sympy.Expr, new: sympy.Expr) -> sympy.Expr:
    """``expr.xreplace({old: new})``, its other maxima and minima rebuilt unevaluated (sympy
    looks for arguments it can drop, through ``factor_terms`` of their differences: a compare
    of two pipes of 8 stages on a machine with a wake spent 30 s there).

    >>> from patternalg.syntax.symbols import x
    >>> _replaced(sympy.Max(x, 2 * x - 3) + sympy.Min(x, 5), sympy.Min(x, 5), x)
    x + Max(x, 2*x - 3)
    """
    if expr == old:
        return new
    if not expr.args or not expr.has(old):
        return expr
    args = [_replaced(arg, old, new) for arg in expr.args]
    if isinstance(expr, sympy.Max | sympy.Min):
        return expr.func(*args, evaluate=False)
    return expr.func(*args)


class _TooMany(Exception):
    """Too many max/min branches to solve exactly."""


#: a polynomial equation in ``u`` (coefficients highest first), how a root ``u`` gives the
#: swept symbol, and roots of a common factor (log2(x)^j is 0 at x = 1)
_Polynomial = tuple[list[float], Callable[[float], float], tuple[float, ...]]


def _polynomial(piece: sympy.Expr, s: sympy.Symbol) -> _Polynomial | None:
    """``piece`` as a polynomial of degree <= :data:`_MAX_DEGREE` in a variable ``u``, or
    None if it is not one.

    In x, a normal form's terms ``c x^i log2(x)^j`` of one exponent i are a polynomial in
    ``u = log2(x)`` (x = 2^u), of one exponent j one in ``u = x^(1/q)`` (q: the common
    denominator of the i); in another symbol, the numerator of a rational function.

    >>> from patternalg.syntax.symbols import log2, n
    >>> _polynomial(536.185 * x - 5422.97, x)[0]
    [536.185, -5422.97]
    >>> _polynomial(3 * x * log2(x) - 6 * x, x)[0]
    [3.0, -6.0]
    >>> _polynomial(1 / n - sympy.Rational(1, 8), n)[0]
    [-1.0, 8.0]
    >>> _polynomial(sympy.sqrt(x) - log2(x) ** 2, x) is None
    True
    """
    if s != x:
        if not piece.is_rational_function(s):
            return None
        numerator, _ = sympy.fraction(sympy.together(piece))
        try:
            poly = sympy.Poly(numerator, s)
        except sympy.PolynomialError:
            return None
        return _equation(poly.all_coeffs(), lambda u: u, ())
    form = normal_form(piece)
    if form is None:
        return None
    terms = [(i, j, c) for (i, j), c in form.items()]
    if len({i for i, _, _ in terms}) == 1 and all(j.is_Integer and j >= 0 for _, j, _ in terms):
        by_degree = {int(j): c for _, j, c in terms}
        return _equation(
            # x = 2^u: np.exp2 is inf beyond doubles (2.0**u raised OverflowError: a traceback)
            [by_degree.get(d, 0) for d in range(max(by_degree), -1, -1)], lambda u: float(np.exp2(u)), ()
        )
    if len({j for _, j, _ in terms}) == 1 and all(i.is_Rational for i, _, _ in terms):
        q = math.lcm(*(int(i.q) for i, _, _ in terms))
        low = min(i for i, _, _ in terms)
        by_degree = {int((i - low) * q): c for i, _, c in terms}
        return _equation(
            [by_degree.get(d, 0) for d in range(max(by_degree), -1, -1)],
            (lambda u: u) if q == 1 else (lambda u: u**q if u > 0 else math.nan),
            (1.0,) if terms[0][1] > 0 else (),
        )
    return None


def _equation(
    coefficients: Sequence[Any], back: Callable[[float], float], factor_roots: tuple[float, ...]
) -> _Polynomial | None:
    """The equation with float coefficients (leading zeros dropped), if all are numbers of a
    bounded spread and the degree is at most :data:`_MAX_DEGREE`."""
    # coefficients of our own polynomials: Python or sympy numbers, or sympy expressions
    if not all(isinstance(c, int | float) or getattr(c, "is_number", False) for c in coefficients):
        return None
    try:
        values = [float(c) for c in coefficients]
    except TypeError:  # a complex coefficient
        return None
    while values and values[0] == 0:
        values.pop(0)
    sizes = [abs(v) for v in values if v]
    if (
        not sizes
        or len(values) - 1 > _MAX_DEGREE
        or not all(math.isfinite(v) for v in values)
        or max(sizes) > 1e100 * min(sizes)
    ):
        return None
    return values, back, factor_roots


def exact_roots(difference: sympy.Expr, s: sympy.Symbol, lo: float, hi: float) -> list[float] | None:
    """Real roots in [lo, hi] of the equations of ``difference``'s pieces, each a polynomial
    solved by its companion matrix (bounded time, unlike a symbolic solve), or None if a
    piece is not a polynomial of a small degree (the caller brackets numerically)."""
    if not _small(difference):
        return None
    try:
        pieces = _pieces(difference)
    except _TooMany:
        return None
    roots: list[float] = []
    for piece in pieces:
        if piece.is_number:
            continue
        found = _polynomial(piece, s)
        if found is None:
            return None
        coefficients, back, factor_roots = found
        candidates = list(factor_roots)
        if len(coefficients) > 1:
            with np.errstate(all="ignore"):
                candidates += [back(u) for u in _real_roots(coefficients)]
        roots += [v for v in candidates if math.isfinite(v) and lo <= v <= hi]
    return roots


#: eigenvalues closer than this (relative) are one root of several: a root of multiplicity
#: m comes out of the companion matrix as m points about eps^(1/m) apart (1e-4 for m = 4),
#: real or complex
_CLUSTER_RTOL = 1e-3


def _real_roots(coefficients: Sequence[float]) -> list[float]:
    """The real roots of the polynomial (``coefficients`` highest first), each polished
    (:func:`_polished`). A cluster of m eigenvalues is a root of multiplicity m: the root of
    the (m-1)-th derivative near them (a simple root there), kept where the polynomial is 0 to
    rounding (:data:`TIE_RTOL` of its terms' sizes). Its eigenvalues are a near-real complex
    pair (1000*(x - 17.77)^2's, dropped as complex) or real ones split about its root (for
    (x - 9)^2, 9 -+ 8e-9: polished to 8.999999992070073, Newton's steps slow at a double root).

    >>> _real_roots([1.0, -18.0, 81.0]), _real_roots([1000.0, -35540.0, 315772.9])
    ([9.0], [17.77])
    >>> _real_roots([1.0, 0.0, 1e-6])  # x^2 + 1e-6 > 0: no root, however near
    []
    """
    exact = [Fraction(c) for c in coefficients]
    eigen = sorted(np.roots(coefficients).tolist(), key=lambda u: (u.real, u.imag))
    roots: list[float] = []
    while eigen:
        first = eigen.pop(0)
        cluster = [first] + [u for u in eigen if abs(u - first) <= _CLUSTER_RTOL * max(1.0, abs(first))]
        eigen = [u for u in eigen if u not in cluster]
        centre = sum(u.real for u in cluster) / len(cluster)
        multiple = _multiple_root(exact, centre, len(cluster)) if len(cluster) > 1 else None
        if multiple is not None:
            roots.append(multiple)
            continue
        roots += [_polished(exact, u.real) for u in cluster if abs(u.imag) <= 1e-12 * max(1.0, abs(u.real))]
    return roots


def _multiple_root(exact: Sequence[Fraction], centre: float, order: int) -> float | None:
    """The root of multiplicity ``order`` (or less) near ``centre``: the root of the highest
    derivative that has one there (polished from ``centre``) where the polynomial is 0 to
    rounding; None if none is (two roots apart, or a minimum that does not reach 0).

    >>> _multiple_root([Fraction(1), Fraction(-18), Fraction(81)], 9.00000001, 2)
    9.0
    """
    derivatives = [list(exact)]
    for _ in range(order - 1):
        last = derivatives[-1]
        derivatives.append([c * (len(last) - 1 - i) for i, c in enumerate(last[:-1])])
    for derivative in reversed(derivatives):
        u = _polished(derivative, centre)
        size = _horner([abs(c) for c in exact], Fraction(abs(u)))[0]  # of its terms
        if abs(_horner(exact, Fraction(u))[0]) <= TIE_RTOL * size:
            return u
    return None


def _polished(coefficients: Sequence[float] | Sequence[Fraction], u: float) -> float:
    """The root ``u`` of the polynomial (``coefficients`` highest first) after Newton steps
    computed exactly in fractions, each rounded to a double and kept only while it brings
    the polynomial nearer 0: the companion matrix's eigenvalues are a few units in the last
    place off (the root 2 of (x-1)(x-2)(x-3) read as 1.999999999999998, the root 1 as
    1.0000000000000002, inside a range that starts at 1).

    >>> _polished([1.0, -6.0, 11.0, -6.0], 1.999999999999998), _polished([1.0, -6.0, 11.0, -6.0], 1.0000000000000002)
    (2.0, 1.0)
    """
    exact = [Fraction(c) for c in coefficients]
    best, size = u, abs(_horner(exact, Fraction(u))[0])
    for _ in range(4):
        value, slope = _horner(exact, Fraction(best))
        if value == 0 or slope == 0:
            break
        step = float(Fraction(best) - value / slope)
        after = abs(_horner(exact, Fraction(step))[0])
        if after >= size:
            break
        best, size = step, after
    return best


def _horner(coefficients: Sequence[Fraction], u: Fraction) -> tuple[Fraction, Fraction]:
    """The polynomial's value and slope at ``u``, exactly."""
    value, slope = Fraction(0), Fraction(0)
    for c in coefficients:
        slope = slope * u + value
        value = value * u + c
    return value, slope


def _bisect(f: Callable[[np.ndarray], np.ndarray], a: float, b: float) -> float:
    """A root of ``f`` between ``a`` and ``b`` (signs differ) to a relative RTOL
    (:func:`_bracket`)."""
    a, b = _bracket(f, a, b)
    return a if a == b else (a + b) / 2


def boundary(holds: Callable[[np.ndarray], np.ndarray], a: float, b: float) -> float:
    """Where ``holds`` (a boolean at an array of points) stops holding between ``a``, where
    it holds, and ``b``, where it does not, to a relative RTOL: the point nearest ``b``
    found where it still holds (where a model's value ends: a gap inside a range).

    >>> edge = boundary(lambda v: v <= 300.0, 200.0, 400.0)
    >>> 300.0 - 1e-6 < edge <= 300.0
    True
    """
    return _bracket(lambda v: np.where(holds(v), -1.0, 1.0), a, b)[0]


def _bracket(f: Callable[[np.ndarray], np.ndarray], a: float, b: float) -> tuple[float, float]:
    """Where ``f`` (at an array of points) changes sign between ``a`` and ``b``, narrowed to
    a relative RTOL: the points on its ``a`` side and on its ``b`` side (the same point
    where ``f`` is 0 there). Each step reads :data:`_SPLITS` points between them in one
    call (a model's evaluation costs about as much for one point as for 32), at most
    :data:`_MAX_STEPS` halvings' worth.

    >>> a, b = _bracket(lambda v: np.where(v > 2.5, 1.0, -1.0), 4.0, 1.0)
    >>> 2.5 < a < 2.5 + 1e-8 and 2.5 - 1e-8 < b <= 2.5
    True
    """
    negative = bool(f(np.array([a]))[0] < 0)
    for _ in range(_MAX_STEPS // 5):  # each step: 33 parts, five halvings
        low, high = min(a, b), max(a, b)
        if high - low <= RTOL * max(abs(low), abs(high)):
            break
        # geometric where positive (a root at 1e-303 next to 0 takes many halvings, not 1e300)
        points = np.geomspace(low, high, _SPLITS + 2) if low > 0 else np.linspace(low, high, _SPLITS + 2)
        points = points[(points > low) & (points < high)]  # no double between them: done
        if not points.size:
            break
        points = points if a < b else points[::-1]
        values = f(points)
        changed = np.flatnonzero((values == 0) | ((values < 0) != negative))
        if not changed.size:
            a = float(points[-1])
            continue
        k = int(changed[0])
        if values[k] == 0:
            return float(points[k]), float(points[k])
        a, b = (float(points[k - 1]) if k else a), float(points[k])
    return a, b


def _golden_min(f: Callable[[float], float], a: float, b: float) -> float:
    """The minimiser of a unimodal ``f`` on [a, b] to a relative RTOL, in at most
    :data:`_MAX_STEPS` steps."""
    ratio = (math.sqrt(5) - 1) / 2
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    for _ in range(_MAX_STEPS):
        if abs(b - a) <= RTOL * max(abs(a), abs(b)) or not a < c < d < b:
            break
        if f(c) < f(d):
            b, d = d, c
            c = b - ratio * (b - a)
        else:
            a, c = c, d
            d = a + ratio * (b - a)
    return (a + b) / 2


def numeric_roots(pair: Callable[[np.ndarray], np.ndarray], scan: np.ndarray, scanned: np.ndarray) -> list[float]:
    """Where two models cross or touch: ``pair`` gives both models at points (shape (2,
    points)), ``scanned`` is it at ``scan``. Sign changes of their difference on the scan
    refined by bisection, and touches (local minima of its size that reach zero) refined by
    golden section.

    A difference within :data:`TIE_RTOL` of the larger model is rounding: the models are
    equal there. A stretch where they are equal has no crossover inside it: the winner can
    change only across it or touch it, at its ends (each refined by bisection between the
    scan points beside it to the last point where the two are still equal, the candidates;
    an end the winner does not change across only where the two are equal to the values'
    own rounding beside it, :data:`_ROUNDING`), or at a single point where they are equal.

    >>> scan = np.linspace(1.0, 5.0, 9)
    >>> line = lambda v: np.stack([v, np.full_like(v, 2.0)])
    >>> numeric_roots(line, scan, line(scan))
    [2.0]
    >>> equal = lambda v: np.stack([np.minimum(v, 2.2) + np.maximum(0.0, v - 3.7), np.full_like(v, 2.2)])
    >>> [round(r, 6) for r in numeric_roots(equal, scan, equal(scan))]
    [2.2, 3.7]
    """
    d = scanned[0] - scanned[1]
    d = np.where(np.abs(d) <= TIE_RTOL * np.max(np.abs(scanned), axis=0), 0.0, d)
    if np.all(d == 0):
        return []  # the same model: equal everywhere, never a crossover
    roots = []

    def difference(v: np.ndarray) -> np.ndarray:
        values = pair(v)
        return values[0] - values[1]

    def scalar(v: float) -> float:
        return float(difference(np.array([v]))[0])

    def apart(v: np.ndarray) -> np.ndarray:  # 1 where the two differ by more than rounding, else -1
        values = pair(v)
        return np.where(np.abs(values[0] - values[1]) > TIE_RTOL * np.max(np.abs(values), axis=0), 1.0, -1.0)

    # equal to the values' own rounding, not only within the tie tolerance
    same = np.abs(scanned[0] - scanned[1]) <= _ROUNDING * np.max(np.abs(scanned), axis=0)

    def edge(inside: int, outside: int, crossed: bool = False) -> list[float]:
        """Where a stretch of equal values ends: crossed, or touched where the two are equal
        to rounding next to it (seq(z, inc) = z + 536*x beside z = 1e-3 + 4.5e7*x is within
        the tie tolerance up to x = 1.9e-18, its difference falling to 0 with x: no touch)."""
        if not (crossed or same[inside]):
            return []
        return [_bracket(apart, float(scan[inside]), float(scan[outside]))[0]]

    sign = np.sign(d)
    signed = np.flatnonzero(sign != 0)
    roots += edge(signed[0] - 1, signed[0]) if signed[0] > 0 else []  # from the start of the scan
    for a, b in zip(signed[:-1].tolist(), signed[1:].tolist(), strict=True):
        if b == a + 2 and scanned[0, a + 1] == scanned[1, a + 1]:  # equal at a point exactly
            roots.append(float(scan[a + 1]))
        elif b <= a + 2 and sign[a] != sign[b]:  # a sign change (through a point equal to rounding)
            roots.append(_bisect(difference, float(scan[a]), float(scan[b])))
        elif b == a + 2:  # equal at one point, on the same side of each other around it
            roots.append(_golden_min(lambda v: abs(scalar(v)), float(scan[a]), float(scan[b])))
        elif b > a + 2:  # a stretch where they are equal: its ends
            roots += edge(a + 1, a, sign[a] != sign[b]) + edge(b - 1, b, sign[a] != sign[b])
    roots += edge(signed[-1] + 1, signed[-1]) if signed[-1] < len(scan) - 1 else []  # to its end
    size = np.abs(d)
    for i in range(1, len(scan) - 1):
        lowest = size[i] <= size[i - 1] and size[i] <= size[i + 1]
        # a plateau (overflowed to inf, or a constant difference) has no touch: without this,
        # each of its scan points ran a golden-section search (x^60 against x: 30 s)
        plateau = size[i] == size[i - 1] == size[i + 1] or not np.isfinite(size[i])
        if lowest and not plateau and sign[i - 1] == sign[i + 1] != 0 and sign[i] != 0:
            best = _golden_min(lambda v: abs(scalar(v)), float(scan[i - 1]), float(scan[i + 1]))
            roots.append(best)
    return roots
