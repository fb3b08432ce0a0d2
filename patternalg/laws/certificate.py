"""A termwise certificate that ``max(a_1, ..., a_k) >= b`` for every x >= 1, every count >= 1
and every positive value of the other symbols, found without sympy's assumption system.

Each side is read as a sum of monomials ``c * x^e * log2(x)^l * n^f * A^g ...`` with a
numeric ``c``; every such monomial is nonnegative where the law is read (``l >= 0``).
Monomial ``M`` is *above* ``N`` when ``M / N >= 1`` everywhere: the same powers of
``log2(x)`` and of the free symbols, and powers of x and of the counts no smaller. Moving a
weight ``w >= 0`` from a monomial onto one below it never increases a sum. So if, for some
weights ``t_i >= 0`` summing to 1, the coefficients of ``sum t_i a_i - b`` can be moved to
make every one nonnegative, then ``max(a_i) >= sum t_i a_i >= b``: the ``t_i`` and the moves
are the certificate. They are looked for cheaply first (each ``a_i`` alone, their mean, a
greedy move), then by a linear program (scipy, imported only then); every certificate is
checked again on its coefficients, allowing the checker's relative rounding tolerance.

>>> import sympy
>>> from patternalg.syntax.symbols import x, log2, n
>>> a, b = 1034.17 * x * log2(x), 536.185 * x
>>> dominates([a, b], [(a + b) / 2])
True
>>> A = sympy.Symbol("A", positive=True)
>>> dominates([A], [A / n**100], counts=[n]), dominates([A / n], [A], counts=[n])
(True, False)
>>> dominates([x], [x + 1]), dominates([x + 1], [x], strict=True)
(False, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import sympy

from .._internal.limits import held_in_full
from ..algebra.normal_forms.bounds import LARGEST_SUMMED
from ..syntax.symbols import log2, x

__all__ = ["polynomial", "dominates", "Polynomial"]

Monomial = tuple[tuple[sympy.Expr, float], ...]  #: (generator, exponent), sorted, no zeros
Polynomial = dict[Monomial, float]  #: monomial -> numeric coefficient
#: relative tolerance of a checked certificate: the law checker's (laws.RTOL)
RTOL = 1e-9
_LOG2X = log2(x)
_LN2 = math.log(2)


def polynomial(expr: sympy.Expr) -> Polynomial | None:
    """``expr`` as monomials in x, log2(x) and symbols with numeric coefficients, or None.

    >>> from patternalg.syntax.symbols import n
    >>> sorted(polynomial(3 * x * log2(x) / n + 2).items())
    [((), 2.0), (((log2(x), 1.0), (n, -1.0), (x, 1.0)), 3.0)]
    >>> polynomial(sympy.Max(x, 2)) is None, polynomial(sympy.Float("1e-400") * x) is None
    (True, True)
    """
    terms: Polynomial = {}
    for term in sympy.Add.make_args(sympy.expand(expr)):
        coefficient, powers = 1.0, dict[sympy.Expr, float]()
        for factor in sympy.Mul.make_args(term):
            if factor.is_number:
                try:
                    coefficient *= float(factor)
                except TypeError:  # complex, or not a number after all
                    return None
                continue
            base, exponent = factor.as_base_exp()
            if not exponent.is_number or not exponent.is_real:
                return None
            power = float(exponent)
            if isinstance(base, sympy.log) and base.args[0] == x:
                base, coefficient = _LOG2X, coefficient * _LN2**power  # ln x = ln 2 * log2 x
            if not (base.is_Symbol or base == _LOG2X):
                return None
            powers[base] = powers.get(base, 0.0) + power
        if not held_in_full(coefficient):
            return None  # beyond a double's range: read as 0 or inf, it would prove wrongly
        if powers.get(_LOG2X, 0.0) < 0:
            return None  # log2(x)^-1 has no value at x = 1
        key = tuple(sorted(((g, e) for g, e in powers.items() if e), key=lambda ge: str(ge[0])))
        terms[key] = terms.get(key, 0.0) + coefficient
    return terms


def _above(big: Monomial, small: Monomial, at_least_one: frozenset[sympy.Expr]) -> bool:
    """Whether ``big / small >= 1`` wherever x and the counts are >= 1 and the rest positive."""
    b, s = dict(big), dict(small)
    for generator in b.keys() | s.keys():
        gap = b.get(generator, 0.0) - s.get(generator, 0.0)
        if gap < 0 or (gap > 0 and generator not in at_least_one):
            return False
    return True


def _no_log(monomial: Monomial) -> bool:
    """Whether the monomial is positive everywhere (no power of log2(x), which is 0 at x = 1)."""
    return all(g != _LOG2X for g, _ in monomial)


class _Problem:
    """``max(a_i) >= b``: the monomials, which is above which, and the check of a certificate."""

    def __init__(
        self, maxima: Sequence[Polynomial], bound: Polynomial, at_least_one: frozenset[sympy.Expr]
    ) -> None:
        self.maxima, self.bound = maxima, bound
        self.monomials = sorted({m for p in (*maxima, bound) for m in p}, key=str)
        self.moves = [
            (i, j)
            for i, big in enumerate(self.monomials)
            for j, small in enumerate(self.monomials)
            if i != j and _above(big, small, at_least_one)
        ]

    def coefficients(self, weights: Sequence[float]) -> list[float]:
        """The coefficients of ``sum t_i a_i - b``, one per monomial."""
        return [
            math.fsum(
                [
                    *(t * a.get(m, 0.0) for t, a in zip(weights, self.maxima, strict=True)),
                    -self.bound.get(m, 0.0),
                ]
            )
            for m in self.monomials
        ]

    def holds(self, weights: Sequence[float], moved: Sequence[float], strict: bool) -> bool:
        """Whether ``weights`` and the ``moved`` amounts (one per move) are a certificate."""
        weights = [max(t, 0.0) for t in weights]
        moved = [max(w, 0.0) for w in moved]
        total = math.fsum(weights)
        if total <= 0:
            return False
        weights = [t / total for t in weights]
        final = self.coefficients(weights)
        scale = [
            math.fsum(
                [
                    *(t * abs(a.get(m, 0.0)) for t, a in zip(weights, self.maxima, strict=True)),
                    abs(self.bound.get(m, 0.0)),
                ]
            )
            for m in self.monomials
        ]
        for (i, j), w in zip(self.moves, moved, strict=True):
            final[i] -= w
            final[j] += w
            scale[i] += w
            scale[j] += w
        if any(f < -RTOL * s for f, s in zip(final, scale, strict=True)):
            return False
        if not strict:
            return True
        positive = math.fsum(f for f, m in zip(final, self.monomials, strict=True) if _no_log(m))
        return positive > RTOL * math.fsum(scale)

    def greedy(self, weights: Sequence[float], strict: bool) -> bool:
        """Cover each negative coefficient by the positive ones above it, first come first."""
        final = self.coefficients(weights)
        moved = [0.0] * len(self.moves)
        for k, (i, j) in enumerate(self.moves):
            if final[i] > 0 and final[j] < 0:
                moved[k] = min(final[i], -final[j])
                final[i] -= moved[k]
                final[j] += moved[k]
        return self.holds(weights, moved, strict)

    def linear_program(self, strict: bool) -> bool:
        """Weights and moves by a linear program (feasibility; the most slack if strict)."""
        from scipy.optimize import linprog  # noqa: PLC0415 (scipy only for a hard case)

        k, size = len(self.maxima), len(self.monomials)
        width = k + len(self.moves)
        # final_m = sum_i t_i a_i[m] - b[m] - out_m + in_m >= 0, written as A_ub @ v <= b_ub
        rows = [[0.0] * width for _ in range(size)]
        for row, m in zip(rows, self.monomials, strict=True):
            for i, a in enumerate(self.maxima):
                row[i] = -a.get(m, 0.0)
        for column, (i, j) in enumerate(self.moves, start=k):
            rows[i][column] += 1.0
            rows[j][column] -= 1.0
        limits = [-self.bound.get(m, 0.0) for m in self.monomials]
        objective = [0.0] * width
        if strict:
            for row, m in zip(rows, self.monomials, strict=True):
                if _no_log(m):
                    objective = [o + r for o, r in zip(objective, row, strict=True)]
        try:
            solution = linprog(
                objective,
                A_ub=rows,
                b_ub=limits,
                A_eq=[[1.0] * k + [0.0] * len(self.moves)],
                b_eq=[1.0],
                bounds=(0, None),
                method="highs",
            )
        except ValueError:  # an unbounded or malformed problem: no certificate
            return False
        if solution.status != 0:
            return False
        return self.holds(list(solution.x[:k]), list(solution.x[k:]), strict)


def _one(
    maxima: Sequence[Polynomial],
    bound: Polynomial,
    strict: bool,
    at_least_one: frozenset[sympy.Expr],
) -> bool:
    problem = _Problem(maxima, bound, at_least_one)
    k = len(maxima)
    candidates = [[float(i == j) for j in range(k)] for i in range(k)]
    if k > 1:
        candidates.append([1.0 / k] * k)
    if any(problem.greedy(weights, strict) for weights in candidates):
        return True
    return (k > 1 or bool(problem.moves)) and problem.linear_program(strict)


def dominates(
    maxima: Sequence[sympy.Expr],
    bounds: Sequence[sympy.Expr],
    *,
    strict: bool = False,
    counts: Iterable[sympy.Symbol] = (),
) -> bool:
    """Whether ``max(maxima) >= max(bounds)`` (``>`` if ``strict``) is certified termwise, for
    x >= 1, the ``counts`` >= 1 and every other symbol positive. False: not certified."""
    if any(e.has(sympy.Max, sympy.Min) for e in (*maxima, *bounds)):
        return False
    left = [polynomial(e) for e in maxima]
    right = [polynomial(e) for e in bounds]
    if not left or any(p is None for p in (*left, *right)):
        return False
    scaled = _scaled([p for p in (*left, *right) if p is not None])
    if scaled is None:
        return False
    at_least_one = frozenset([x, *counts])
    # in one order whatever the order given (a Max's arguments come as a set): the linear
    # program's answer within its tolerances can depend on the order of its columns
    tops = sorted(scaled[: len(left)], key=_order)
    lows = sorted(scaled[len(left) :], key=_order)
    return all(_one(tops, b, strict, at_least_one) for b in lows)


def _order(p: Polynomial) -> list[tuple[str, float]]:
    """A key that puts polynomials in one order, whatever order they came in."""
    return sorted((str(m), c) for m, c in p.items())


def _scaled(polynomials: list[Polynomial]) -> list[Polynomial] | None:
    """The polynomials as they are, or where a coefficient is beyond 1e300 (sums of such
    overflow a double) their coefficients all times the one power of two that brings the
    largest to [0.5, 1) (a certificate holds or not alike; the linear program's tolerances
    are absolute, so coefficients are not scaled otherwise), or None where one would then
    be below a double's range.

    >>> _scaled([{(): 1.5e308}, {(): 1.6e308}])
    [{(): 0.83...}, {(): 0.89...}]
    >>> _scaled([{(): 1e9}, {(): 1.0}]), _scaled([{(): 1e305}, {(): 1e-10}])
    ([{(): 1000000000.0}, {(): 1.0}], None)
    """
    largest = max((abs(c) for p in polynomials for c in p.values()), default=1.0)
    if largest < LARGEST_SUMMED:
        return polynomials
    shift = math.frexp(largest)[1]
    scaled = [{m: math.ldexp(c, -shift) for m, c in p.items()} for p in polynomials]
    return scaled if all(held_in_full(c) for p in scaled for c in p.values()) else None
