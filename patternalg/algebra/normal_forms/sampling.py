"""Cheap refutation of a sign: coefficients in other symbols at fixed positive points.

A coefficient such as ``1034.17/n1 - 1034.17/n2`` has no sign for all positive n1, n2;
evaluating it at a few points of its symbols shows both signs, so nobody needs to ask
sympy's assumption system (or ``simplify``) about it. A count (:mod:`.counts`) is sampled
at its floor and above only: ``1 - 1/n`` has one sign where n is a count; a point where a
count of several symbols (``n*m``) is below 1 is no sample.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable
from typing import Any

import sympy

from .counts import Floors, current_counts

__all__ = ["samples", "signs_differ"]

#: how many points of the symbols a coefficient is evaluated at
_SAMPLES = 16


@functools.cache
def _symbol_values(name: str, floor: float | None) -> tuple[float, ...]:
    """Fixed positive values of a symbol, log-uniform in [1/8, 64] (a count of ``floor``: in
    [floor, 64 floor]), the same in every run."""
    rng = random.Random(f"patternalg:{name}")
    if floor is None:
        return tuple(2.0 ** rng.uniform(-3, 6) for _ in range(_SAMPLES))
    return tuple(floor * 2.0 ** rng.uniform(0, 6) for _ in range(_SAMPLES))


class _NotNumeric(Exception):
    """An expression the float evaluator does not know (or a value that is not real)."""


#: not log2: its entry here was keyed on sympy.codegen's class, which patternalg's log2 only
#: subclassed (never ``expr.func``), so it never applied; adding it would change which signs
#: are refuted, hence the form of some results (to be decided on its own)
_FUNCTIONS: dict[Any, Callable[..., float]] = {
    sympy.Max: max,
    sympy.Min: min,
    sympy.log: math.log,
    sympy.exp: math.exp,
}


@functools.lru_cache(maxsize=262144)
def _float(expr: sympy.Expr, k: int, counts: Floors) -> float:
    """``expr`` at the ``k``-th point of its symbols in floating point (a walk over its tree,
    not sympy arithmetic; cached, so a stage nested in the next is walked once)."""
    if expr.is_Number:
        return float(expr)
    if expr.is_Symbol:
        return _values(expr, counts)[k]
    args = [_float(a, k, counts) for a in expr.args]
    try:
        if expr.is_Add:
            return math.fsum(args)
        if expr.is_Mul:
            return math.prod(args)
        if expr.is_Pow:
            value = args[0] ** args[1]
        elif expr.func in _FUNCTIONS:
            value = _FUNCTIONS[expr.func](*args)
        else:
            raise _NotNumeric(expr.func)
    except (ArithmeticError, ValueError, TypeError):
        raise _NotNumeric(expr) from None
    if isinstance(value, complex):
        raise _NotNumeric(expr)
    return value


def samples(value: sympy.Expr) -> tuple[float, ...] | None:
    """``value`` at fixed positive points of its symbols (None if it is not real there).

    >>> from patternalg.syntax.symbols import n
    >>> samples(2 * n) == tuple(2 * v for v in samples(n))
    True
    """
    return _samples(value, current_counts())


@functools.lru_cache(maxsize=4096)
def _values(symbol: sympy.Symbol, counts: Floors) -> tuple[float, ...]:
    floor = next((float(f) for count, f in counts if count == symbol), None)
    return _symbol_values(symbol.name, floor)


@functools.lru_cache(maxsize=1024)
def _points(counts: Floors) -> tuple[int, ...]:
    """The points (indices) where every count of several symbols is at least its floor: the
    same for every value, so that two values' samples are at the same points."""
    kept = []
    for k in range(_SAMPLES):
        try:
            inside = all(
                _float(count, k, counts) >= floor
                for count, floor in counts
                if not count.is_Symbol
            )
        except _NotNumeric:
            inside = False
        if inside:
            kept.append(k)
    return tuple(kept)


@functools.lru_cache(maxsize=65536)
def _samples(value: sympy.Expr, counts: Floors) -> tuple[float, ...] | None:
    points = _points(counts)
    if not points:
        return None
    result = []
    for k in points:
        try:
            number = _float(value, k, counts)
        except _NotNumeric:
            return None
        if math.isnan(number):
            return None
        result.append(number)
    return tuple(result)


def signs_differ(a: sympy.Expr, b: sympy.Expr) -> bool:
    """Whether ``a - b`` is clearly positive at one point of the symbols and negative at another.

    >>> from patternalg.syntax.symbols import n, m
    >>> signs_differ(1 / n, 1 / m), signs_differ(1 / n, 1 / (2 * n))
    (True, False)
    """
    sa, sb = samples(a), samples(b)
    if sa is None or sb is None:
        return False
    tolerance = [1e-9 * max(abs(u), abs(v)) for u, v in zip(sa, sb, strict=True)]
    differences = [u - v for u, v in zip(sa, sb, strict=True)]
    return any(d > tol for d, tol in zip(differences, tolerance, strict=True)) and any(
        d < -tol for d, tol in zip(differences, tolerance, strict=True)
    )
