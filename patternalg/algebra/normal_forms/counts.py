"""Counts are at least 1: the sign of a coefficient where some of its symbols are counts.

A term's thread and node counts (``tpool_n``, ``mapReduce_{m,n}``, a shuffle's keys
``^{o}``) are whole numbers >= 1, so ``536.185*x/n`` is at most ``536.185*x`` and
``pipe(tpool_n(inc), inc)`` is ``inc``'s model. A symbol in a count of one symbol, linear in
it, has the least value that makes the count 1 (its **floor**: ``k`` in ``tpool_{2*k}`` is
at least 1/2, in ``tpool_{k-1}`` at least 2); a bare count's floor is 1. Any other count
(``n*m``, ``k^2``) is at least 1 as a whole: where a value holds it, it is one symbol of
floor 1 for the sign's sake (``1/(n*m)`` is at most 1; ``n`` and ``m`` alone stay any
positive numbers). A model's own symbols (``p``, ``phi``, a user's parameter) are only
known to be positive.

The evaluator gives the floors for the span of one fold (:func:`counting`); the sign
decisions of the normal forms read them (:func:`counted_sign`), and their caches are keyed
on them. Outside a fold nothing is a count, and every sign is decided as before.

>>> from patternalg.syntax.symbols import n, p, symbol
>>> sign_on_counts(536 - 536 / n, [n])  # >= 0, and 0 at n = 1
(1, False)
>>> sign_on_counts(536 / n - 1000, [n])  # < 0 for every n >= 1
(-1, True)
>>> sign_on_counts(1 - p / n, [n]) is None  # p is any positive number
True
>>> sign_on_counts(1 - 1 / (2 * n), {n: Fraction(1, 2)})  # n >= 1/2, as in tpool_{2*n}
(1, False)
>>> m = symbol("m")
>>> sign_on_counts(1 - 1 / (n * m) ** 2, {n * m: Fraction(1)}), sign_on_counts(1 - 1 / n, [n * m])
((1, False), None)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from typing import Any

import sympy
from sympy.polys.domains import QQ
from sympy.polys.rings import PolyElement, PolyRing

from .bounds import INFINITY, MOST_POWER, ROUNDING, bounds

__all__ = [
    "Floors",
    "counting",
    "current_counts",
    "counted_sign",
    "floors_of",
    "in_units",
    "sign_on_counts",
    "small_enough",
    "stand_in",
    "nonnegative_on_counts",
]

#: each count symbol, or count of several symbols, with its least value (hashable: the
#: caches' key)
Floors = frozenset[tuple[sympy.Expr, Fraction]]

_COUNTS: ContextVar[Floors] = ContextVar("patternalg_counts", default=frozenset())

#: a coefficient with more operations than this is neither bounded nor put over a common
#: denominator (a nested mapReduce's coefficient has a term per level, nested as deep, and
#: both walk it recursively): its sign stays undecided
_MOST_OPERATIONS = 200

Sign = tuple[int, bool]  #: (-1, 0 or 1; whether strictly so: nowhere 0)

_ROUNDING = QQ(*Fraction(ROUNDING).as_integer_ratio())  #: the rounding slack, exact


def floors_of(counts: Mapping[sympy.Expr, Fraction] | Iterable[sympy.Expr]) -> Floors:
    """The floors of ``counts``: a mapping of each symbol (or count of several symbols) to
    its least value (> 0), or the symbols (or counts) alone, each at least 1.

    >>> from patternalg.syntax.symbols import n
    >>> floors_of([n]) == floors_of({n: Fraction(1)})
    True
    """
    if isinstance(counts, Mapping):
        return frozenset((s, Fraction(floor)) for s, floor in counts.items())
    return frozenset((s, Fraction(1)) for s in counts)


@contextmanager
def counting(counts: Mapping[sympy.Expr, Fraction] | Iterable[sympy.Expr]) -> Iterator[None]:
    """Within the block, ``counts`` are counts: at least their floors (:func:`floors_of`)."""
    token = _COUNTS.set(floors_of(counts))
    try:
        yield
    finally:
        _COUNTS.reset(token)


def current_counts() -> Floors:
    """The counts' floors where this is asked (a cache's key: none outside a fold)."""
    return _COUNTS.get()


def counted_sign(value: sympy.Expr, strict: bool = True) -> Sign | None:
    """:func:`sign_on_counts` of ``value`` under the counts where it is asked (None outside a
    fold, or where ``value`` holds none of them).

    >>> from patternalg.syntax.symbols import n, p
    >>> with counting([n]):
    ...     counted_sign(1 - 1 / n), counted_sign(p)
    ((1, False), None)
    >>> counted_sign(1 - 1 / n) is None
    True
    """
    floors = _COUNTS.get()
    return _sign_on_floors(value, floors, strict) if floors else None


def small_enough(value: sympy.Expr) -> bool:
    """Whether ``value`` has at most 200 operations (beyond that a sign is not asked of it)."""
    size = 0
    for _ in sympy.preorder_traversal(value):
        size += 1
        if size > _MOST_OPERATIONS:
            return False
    return True


def _poly_sign(poly: PolyElement, shifted: frozenset[int], rounded: bool = False) -> Sign | None:
    """The sign of a polynomial whose ``shifted`` variables (their indices) are >= 0 and the
    others > 0: that of its coefficients if they all have one; strict if some term is in the
    others alone (a constant, ``p``), which is then nowhere 0. Of a ``rounded`` polynomial
    (from float coefficients), a constant within :data:`~.bounds.ROUNDING` of the
    coefficients' size is 0: the rounding of sums that are equal where every count is at its
    floor (``32439.192499999946 - 32439.19249999995/n`` is >= 0 to rounding, so
    ``max(32439.19*x, 32439.19*x/n)`` is one stage); exact coefficients have no slack.

    >>> n = PolyRing("n", QQ).gens[0]
    >>> _poly_sign(n * 3 - QQ(1, 10**13), frozenset({0}), rounded=True)
    (1, False)
    >>> _poly_sign(n * 3 - QQ(1, 10**13), frozenset({0})), _poly_sign(n * 3 - QQ(1, 10**9), frozenset({0}), True)
    (None, None)
    """
    terms = [(monomial, coefficient) for monomial, coefficient in poly.terms() if coefficient]
    if rounded:
        size = sum(abs(coefficient) for _, coefficient in terms)
        terms = [(monomial, c) for monomial, c in terms if any(monomial) or abs(c) > _ROUNDING * size]
    if not terms:
        return 0, True
    signs = {1 if coefficient > 0 else -1 for _, coefficient in terms}
    if len(signs) > 1:
        return None
    strict = any(all(monomial[i] == 0 for i in shifted) for monomial, _ in terms)
    return signs.pop(), strict


def sign_on_counts(
    value: sympy.Expr,
    counts: Mapping[sympy.Expr, Fraction] | Iterable[sympy.Expr],
    strict: bool = True,
) -> Sign | None:
    """The sign of ``value`` wherever its ``counts`` are at least their floors (a mapping,
    or symbols each >= 1: :func:`floors_of`) and its other symbols > 0, as (sign, strict);
    None if not shown. With ``strict`` False, a sign that may be 0 somewhere is answer enough
    (no second, slower proof of strictness).

    First by bounds (:mod:`.bounds`: ``536 - 536/n`` lies in [0, 536)). Then each count ``n``
    of floor ``f`` is written ``n' + f`` with ``n' >= 0`` and the value is put over a common denominator: a
    polynomial whose coefficients all have one sign has that sign on the domain (sound, not
    complete: ``n^2 - 3n + 3 > 0`` is not shown). A ``Min`` or ``Max`` (a machine's
    ``min(n, cores)``) is each of its arguments in turn: the sign holds if it holds for every
    choice. Other functions (``log``) and powers that are not whole are not decided.

    >>> from patternalg.syntax.symbols import n, p
    >>> sign_on_counts(1 - 1 / sympy.Min(2, n), [n])
    (1, False)
    >>> sign_on_counts(p / n, [n]), sign_on_counts(p / n, [n], strict=False)
    ((1, True), (1, False))
    """
    return _sign_on_floors(value, floors_of(counts), strict)


@functools.lru_cache(maxsize=65536)
def _sign_on_floors(value: sympy.Expr, floors: Floors, strict: bool) -> Sign | None:
    symbols = value.free_symbols
    if not any(count.free_symbols <= symbols for count, _ in floors) or not small_enough(value):
        return None  # no count in it (the common case, before any walk), or too large
    value, found = in_units(value, floors)
    if not found:
        return None
    value = _constants_as_symbols(value)
    bounded = _bounded_sign(value, found)
    if bounded is not None and (bounded[1] or not strict):
        return bounded
    return _polynomial_sign(value, found) or bounded


@functools.cache
def stand_in(expr: sympy.Expr, role: str) -> sympy.Symbol:
    """The one positive symbol ``expr`` is written as for a sign (the same in every call):
    a count of several symbols (``role`` ``"count"``), a law's function of x (``"value"``).

    >>> from patternalg.syntax.symbols import n
    >>> unit = stand_in(2 * n, "count")
    >>> unit is stand_in(2 * n, "count"), unit.is_positive, str(unit)
    (True, True, '_count:2*n')
    """
    return sympy.Dummy(f"{role}:{expr}", positive=True)


def in_units(value: sympy.Expr, floors: Floors) -> tuple[sympy.Expr, dict[sympy.Symbol, Fraction]]:
    """``value`` with each count of several symbols it holds written as one symbol, and the
    floors of its symbols that are counts (or such units). Sound for a sign: the value is the
    same wherever the unit is its count, and a sign shown for every unit >= 1 and any
    positive symbols holds there too.

    >>> from patternalg.syntax.symbols import n, symbol
    >>> m = symbol("m")
    >>> moved, found = in_units(1 / (n * m) ** 2 + n, floors_of({n * m: 1, n: 1}))
    >>> sorted(map(str, moved.free_symbols)), sorted(str(f) for f in found.values())
    (['_count:m*n', 'n'], ['1', '1'])
    """
    symbols = value.free_symbols
    found: dict[sympy.Symbol, Fraction] = {}
    units = [(count, floor) for count, floor in floors if not count.is_Symbol]
    for count, floor in sorted(units, key=lambda pair: sympy.default_sort_key(pair[0])):
        if not count.free_symbols <= symbols:
            continue
        moved = value.subs(count, stand_in(count, "count"))
        if moved != value:
            value, found[stand_in(count, "count")] = moved, floor
    symbols = value.free_symbols
    found.update((count, floor) for count, floor in floors if count.is_Symbol and count in symbols)
    return value, found  # type: ignore[return-value]


def _constants_as_symbols(value: sympy.Expr) -> sympy.Expr:
    """``value`` with each positive constant of a function (``log(3)``: ``log2(3)`` is
    ``log(3)/log(2)``, a point's log2(x) at x = 3) written as one positive symbol, which
    the bounds and the polynomial signs take as they take any other; sound, as a sign shown
    for every positive value of the symbol holds at the constant's.

    >>> from patternalg.syntax.symbols import n
    >>> sign_on_counts(sympy.log(3) - sympy.log(3) / sympy.Min(2, n), [n])
    (1, False)
    """
    constants = {
        f: stand_in(f, "constant")
        for f in value.atoms(sympy.Function)
        if f.is_number and f.is_positive
    }
    return value.xreplace(constants) if constants else value


def _bounded_sign(value: sympy.Expr, counts: Mapping[sympy.Symbol, Fraction]) -> Sign | None:
    """The sign the bounds of ``value`` show (counts from their floors, other symbols in [0, oo))."""
    box = {s: (counts.get(s, Fraction(0)), INFINITY) for s in value.free_symbols}
    found = bounds(value, box)
    if found is None:
        return None
    low, high = found
    if low == high == 0:
        return 0, True
    if low >= 0:
        return 1, low > 0
    if high <= 0:
        return -1, high < 0
    return None


def _polynomial_sign(value: sympy.Expr, counts: Mapping[sympy.Symbol, Fraction]) -> Sign | None:
    """The sign shown over a common denominator, each choice of each Min and Max."""
    choices = _choices(value)
    if choices is None:
        return None
    signs = [_rational_sign(choice, counts) for choice in choices]
    known = [sign for sign in signs if sign is not None]
    directions = {direction for direction, _ in known if direction}
    if len(known) < len(signs) or len(directions) > 1:
        return None
    if not directions:
        return 0, True
    return directions.pop(), all(direction and strict for direction, strict in known)


#: at most this many choices of the arguments of a value's Min and Max are tried
_MOST_CHOICES = 16


def _choices(value: sympy.Expr) -> list[sympy.Expr] | None:
    """``value`` with each Min and Max replaced by each of its arguments (None: too many).
    An outermost one is replaced first: no Min or Max is rebuilt around a replaced argument
    (sympy's evaluating constructors compare their arguments), and one inside another's
    argument is chosen only where that argument is.

    >>> from patternalg.syntax.symbols import n, x
    >>> sorted(map(str, _choices(x + sympy.Max(n, sympy.Min(2 * n, 3)))))
    ['2*n + x', 'n + x', 'x + 3']
    """
    pending, found = [value], []
    while pending:
        here = pending.pop()
        first = _outermost_choice(here)
        if first is None:
            found.append(here)
        else:
            pending.extend(here.xreplace({first: arg}) for arg in first.args)
        if len(pending) + len(found) > _MOST_CHOICES:
            return None
    return found


def _outermost_choice(value: sympy.Expr) -> sympy.Expr | None:
    """The first Min or Max of ``value`` in pre-order (so inside no other), or None."""
    for node in sympy.preorder_traversal(value):
        if isinstance(node, sympy.Min | sympy.Max):
            return node  # type: ignore[no-any-return]
    return None


def _rational_sign(value: sympy.Expr, counts: Mapping[sympy.Symbol, Fraction]) -> Sign | None:
    """:func:`sign_on_counts` of a value without Min and Max: over a common denominator (each
    sum over the least common multiple of its denominators, as ``together``; nothing
    cancelled), in exact polynomial arithmetic, each count ``n`` of floor ``f`` as ``n' + f``."""
    symbols = sorted(value.free_symbols, key=sympy.default_sort_key)
    if not symbols:
        number = sympy.sign(value)
        return (int(number), True) if number.is_Number else None
    floors = tuple(counts.get(s) for s in symbols)
    found = _fraction(value, tuple(symbols), floors)
    if found is None:
        return None
    shifted = frozenset(i for i, s in enumerate(symbols) if s in counts)
    rounded = value.has(sympy.Float)
    above, below = (_poly_sign(part, shifted, rounded) for part in found)
    if above is None or below is None or below[0] == 0 or not below[1]:
        return None
    return above[0] * below[0], above[1]


@functools.lru_cache(maxsize=256)
def _ring(symbols: tuple[sympy.Symbol, ...]) -> PolyRing:
    return PolyRing(symbols, QQ)


def _rational(number: Fraction | sympy.Expr) -> Any:
    """An exact rational of QQ (a Float's exact binary value)."""
    if isinstance(number, Fraction):
        return QQ(number.numerator, number.denominator)
    rational = sympy.Rational(number)
    return QQ(int(rational.p), int(rational.q))


Fraction_ = tuple[PolyElement, PolyElement]  #: a numerator and a denominator


@functools.lru_cache(maxsize=4096)  # a deep stage's polynomials are large: the recent ones
def _fraction(
    value: sympy.Expr, symbols: tuple[sympy.Symbol, ...], floors: tuple[Fraction | None, ...]
) -> Fraction_ | None:
    """``value`` as numerator and denominator polynomials in ``symbols`` (each count, of
    floor ``f``, as ``n' + f``; None: not a rational function). Cached: a stage nested in
    the next is put over its denominator once."""
    ring = _ring(symbols)
    if value.is_Symbol:
        index = symbols.index(value)
        floor = floors[index]
        gen = ring.gens[index]
        return (gen if floor is None else gen + _rational(floor)), ring.one
    if value.is_Number:
        if not (value.is_finite and value.is_real):
            return None
        return ring.ground_new(_rational(value)), ring.one
    parts = [_fraction(arg, symbols, floors) for arg in value.args]
    if any(part is None for part in parts):
        return None
    found: list[Fraction_] = parts  # type: ignore[assignment]
    if value.is_Add:
        numerator, denominator = found[0]
        for top, bottom in found[1:]:
            common = denominator.lcm(bottom)
            numerator = numerator * common.exquo(denominator) + top * common.exquo(bottom)
            denominator = common
        return numerator, denominator
    if value.is_Mul:
        numerator, denominator = ring.one, ring.one
        for top, bottom in found:
            numerator, denominator = numerator * top, denominator * bottom
        return numerator, denominator
    if value.is_Pow and value.exp.is_Integer and abs(int(value.exp)) <= MOST_POWER:
        (top, bottom), power = found[0], int(value.exp)
        if power >= 0:
            return top**power, bottom**power
        return (None if not top else (bottom ** -power, top ** -power))
    return None


def nonnegative_on_counts(value: sympy.Expr) -> bool:
    """Whether ``value`` is shown >= 0 wherever its counts are at least their floors (False
    outside a fold).

    >>> from patternalg.syntax.symbols import n
    >>> with counting([n]):
    ...     nonnegative_on_counts(1 - 1 / n), nonnegative_on_counts(1 / n - 1)
    (True, False)
    >>> nonnegative_on_counts(1 - 1 / n)
    False
    """
    found = counted_sign(value, strict=False)
    return found is not None and found[0] >= 0
