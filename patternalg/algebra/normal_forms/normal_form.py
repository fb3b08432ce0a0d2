"""Extra-P's normal form and the dominance order of models as x grows.

A model in normal form is a sum of terms ``c * x^i * log2(x)^j`` whose coefficients are
free of x (they may hold n, p, ...). :class:`NormalForm` keeps such a sum as a mapping
(i, j) -> c, so that the composition operators add and scale it without sympy's
``expand``, and so that the bottleneck of a pipe is read off the terms: first the
exponents, then the coefficients, then the following terms. That order is total on normal
forms with numeric coefficients, so a pipe that picks the greater stage stays commutative
and associative even when two stages tie in their leading term. Other shapes fall back to
a limit.

>>> from patternalg.syntax.symbols import x, log2, n
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
from collections.abc import Iterator

import sympy
from sympy.core.function import AppliedUndef

from ...syntax.symbols import log2, x
from .counts import Floors, counted_sign, current_counts, stand_in
from .sampling import signs_differ

__all__ = ["NormalForm", "normal_form", "compare", "compare_normal_forms", "eventual"]

_ZERO = sympy.Integer(0)
Growth = tuple[sympy.Expr, sympy.Expr]  # (exponent of x, exponent of log2(x))


def _is_zero(c: sympy.Expr) -> bool:
    """Whether a coefficient is 0 (sympy folds a symbolic sum that cancels to the number 0)."""
    return bool(c.is_Number) and not c


def binary_order(c: sympy.Expr) -> int | None:
    """``floor(log2 |k|)`` of the numeric factor ``k`` of ``c`` (None: none, 0, inf, nan).

    A number's hash repeats every 61 binary orders (Python's numeric hash is modulo
    ``2^61 - 1``, and sympy's follows it): ``c``, ``c/2``, ``c/4``, ... have 61 hashes
    between them, and a pool 10,000 deep halves its coefficient at every level. A normal
    form's hash takes this order too, so that such forms do not share a few buckets.

    >>> [binary_order(sympy.Float(v)) for v in (1.0, 0.75, 3.0, 2.0**-70)]
    [0, -1, 1, -70]
    >>> binary_order(sympy.Rational(-3, 8) * sympy.Symbol("n")), binary_order(sympy.Integer(0))
    (-2, None)
    """
    number, _ = c.as_coeff_Mul()
    if isinstance(number, sympy.Float):
        _, mantissa, exponent, bits = number._mpf_
        return exponent + bits - 1 if mantissa else None
    if isinstance(number, sympy.Rational) and number.p:
        p, q = abs(number.p), number.q
        k = p.bit_length() - q.bit_length()
        return k if (p >= q << k if k >= 0 else p << -k >= q) else k - 1
    return None


class NormalForm:
    """An immutable sum of ``c * x^i * log2(x)^j`` terms, keyed by (i, j).

    >>> from patternalg.syntax.symbols import x, log2
    >>> f = normal_form(3 * x**2 + x * log2(x) + 7)
    >>> list(f.items())
    [((2, 0), 3), ((1, 1), 1), ((0, 0), 7)]
    >>> (f + f).to_expr()
    6*x**2 + 2*x*log2(x) + 14
    """

    __slots__ = ("_terms", "_hash", "_expr", "_sorted", "_floats")

    def __init__(self, terms: dict[Growth, sympy.Expr], expr: sympy.Expr | None = None) -> None:
        """``expr``, if given, is an expression equal to the sum (kept as :meth:`to_expr`)."""
        self._terms = {k: c for k, c in terms.items() if not _is_zero(c)}
        self._hash: int | None = None
        self._expr = expr
        self._sorted: tuple[tuple[Growth, sympy.Expr], ...] | None = None
        self._floats: list[tuple[float, float, float]] | None = None

    @classmethod
    def _of(cls, terms: dict[Growth, sympy.Expr]) -> NormalForm:
        """A normal form of ``terms`` that hold no zero coefficient (not checked again)."""
        form = cls.__new__(cls)
        form._terms, form._hash, form._expr, form._sorted, form._floats = terms, None, None, None, None
        return form

    def items(self) -> Iterator[tuple[Growth, sympy.Expr]]:
        """The terms, fastest-growing first."""
        if self._sorted is None:
            self._sorted = tuple(sorted(self._terms.items(), key=lambda kc: kc[0], reverse=True))
        return iter(self._sorted)

    def float_terms(self, shift: int = 0) -> list[tuple[float, float, float]]:
        """The terms in floats, (exponent of x, of log2(x), coefficient times 2^-shift),
        fastest-growing first: for numeric coefficients only; unshifted, computed once. A
        coefficient beyond a double's range is 0.0 or inf here (callers check).

        >>> normal_form(2 * x + 1).float_terms()
        [(1.0, 0.0, 2.0), (0.0, 0.0, 1.0)]
        >>> normal_form(sympy.Float("1e-400") * x).float_terms(-1329)
        [(1.0, 0.0, 1.17...)]
        """
        if shift:
            scale = sympy.Integer(2) ** -shift
            return [(float(i), float(j), float(c * scale)) for (i, j), c in self.items()]
        if self._floats is None:
            self._floats = [(float(i), float(j), float(c)) for (i, j), c in self.items()]
        return self._floats

    def __add__(self, other: NormalForm) -> NormalForm:
        terms = dict(self._terms)
        for key, c in other._terms.items():
            if key not in terms:
                terms[key] = c
                continue
            total = terms[key] + c
            if _is_zero(total):
                del terms[key]
            else:
                terms[key] = total
        return NormalForm._of(terms)

    def __sub__(self, other: NormalForm) -> NormalForm:
        return self + other.scaled(sympy.Integer(-1))

    def scaled(self, factor: sympy.Expr) -> NormalForm:
        """Every coefficient times ``factor`` (which must be free of x)."""
        return NormalForm({k: c * factor for k, c in self._terms.items()})

    def to_expr(self) -> sympy.Expr:
        """The sympy expression of this sum (the one it was read from, if any)."""
        if self._expr is None:
            self._expr = sympy.Add(
                *(sympy.Mul(c, sympy.Pow(x, i), sympy.Pow(log2(x), j)) for (i, j), c in self.items())
            )
        return self._expr

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NormalForm) and self._terms == other._terms

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset((k, c, binary_order(c)) for k, c in self._terms.items()))
        return self._hash

    def __repr__(self) -> str:
        return f"NormalForm({self.to_expr()})"


def _factor_growth(factor: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr, sympy.Expr] | None:
    """(x exponent, log2 exponent, coefficient) of one factor, or None if not normal."""
    if not factor.has(x):
        return _ZERO, _ZERO, factor
    base, exp = factor.as_base_exp()
    if exp.has(x) or not exp.is_number:
        return None
    if base == x:
        return exp, _ZERO, sympy.Integer(1)
    if isinstance(base, log2) and base.args[0] == x:
        return _ZERO, exp, sympy.Integer(1)
    if isinstance(base, sympy.log) and base.args[0] == x:
        return _ZERO, exp, sympy.log(2) ** exp  # ln x = ln 2 * log2 x (not built at start-up)
    return None


def _terms(expr: sympy.Expr) -> tuple[sympy.Expr, ...]:
    """``expr`` as a sum of terms, each a product of factors in x and a coefficient: all of
    it expanded where the coefficients are numbers; with symbolic coefficients (a mapReduce's
    thread count n), only what holds x is distributed, so a coefficient nested a level per
    mapReduce is not expanded again at every level (200 levels: minutes).

    >>> from patternalg.syntax.symbols import n
    >>> _terms(x * (1 + (1 + 1 / n) / (2 * n)) + 3 * x)
    (3*x, x*(1 + (1 + 1/n)/(2*n)))
    >>> _terms((x + 1) ** 2)
    (1, x**2, 2*x)
    """
    if not expr.has(x):
        return (expr,)
    if not expr.free_symbols - {x}:
        return sympy.Add.make_args(sympy.expand(expr))
    return tuple(_distributed(expr))


def _distributed(expr: sympy.Expr) -> list[sympy.Expr]:
    """The terms of ``expr``: sums and products holding x distributed, factors without x
    kept whole."""
    if not expr.has(x):
        return [expr]
    if expr.is_Add:
        return [term for arg in expr.args for term in _distributed(arg)]
    if expr.is_Mul:
        products = [sympy.Integer(1)]
        for factor in expr.args:
            parts = _distributed(factor) if factor.has(x) else [factor]
            products = [sympy.Mul(a, b) for a in products for b in parts]
        return products
    if expr.is_Pow and expr.base.is_Add:
        return list(sympy.Add.make_args(sympy.expand(expr)))
    return [expr]


@functools.lru_cache(maxsize=65536)
def normal_form(expr: sympy.Expr) -> NormalForm | None:
    """``expr`` as a :class:`NormalForm`, or None if it is not of that shape."""
    if extremum_in_x(expr):  # no term's factor: not expanded to find out (a wake's nests)
        return None
    parts: dict[Growth, list[sympy.Expr]] = {}
    for term in _terms(expr):
        a, b = _ZERO, _ZERO
        coefficient: list[sympy.Expr] = []
        for factor in sympy.Mul.make_args(term):
            growth = _factor_growth(factor)
            if growth is None:
                return None
            a, b = a + growth[0], b + growth[1]
            coefficient.append(growth[2])
        parts.setdefault((a, b), []).append(sympy.Mul(*coefficient))
    # one sum per growth: adding the coefficients one by one was quadratic (a nested
    # mapReduce's has a term per level)
    return NormalForm({k: sympy.Add(*c) for k, c in parts.items()}, expr)


@functools.lru_cache(maxsize=65536)
def extremum_in_x(expr: sympy.Expr) -> bool:
    """Whether ``expr`` holds a minimum or maximum in x (a count's, ``Min(n, 2)``, may be a
    coefficient's).

    >>> from patternalg.syntax.symbols import n
    >>> extremum_in_x(3 * sympy.Min(x, 4) + 1), extremum_in_x(x * sympy.Min(n, 2))
    (True, False)
    """
    walk = sympy.preorder_traversal(expr)
    for node in walk:
        if isinstance(node, sympy.Min | sympy.Max):
            if node.has(x):
                return True
            walk.skip()
    return False


def _sign(value: sympy.Expr) -> int | None:
    if value.is_Number:  # a literal: compare directly, sympy's assumption system is slow
        return bool(value > 0) - bool(value < 0)
    found = counted_sign(value)
    if found is not None and found[1]:  # nowhere 0 (or everywhere) where the counts are >= 1
        return found[0]
    if not value.is_number and value.has(sympy.Min, sympy.Max):
        # Min/Max of p and phi (memwall models): simplify takes seconds and the assumption
        # system 30-150 ms per question, and neither decides these (measured)
        return None
    if not value.is_number:
        value = sympy.simplify(value)
    if value.is_positive:
        return 1
    if value.is_negative:
        return -1
    if value.is_zero:
        return 0
    return None


def compare_normal_forms(a: NormalForm, b: NormalForm) -> int | None:
    """1 if ``a`` grows faster, -1 if slower, 0 if equal, None if the coefficients decide
    and their sign is unknown (symbolic thread counts, say)."""
    ca, cb = a._terms, b._terms
    for key in sorted(set(ca) | set(cb), reverse=True):
        first, second = ca.get(key, _ZERO), cb.get(key, _ZERO)
        if not (first.is_Number and second.is_Number) and signs_differ(first, second):
            return None  # e.g. 1/n1 - 1/n2: no sign for all n1, n2 (and no simplify asked)
        sign = _sign(first - second)
        if sign is None:
            return _termwise(a, b)
        if sign != 0:
            return sign
    return 0


def _termwise(a: NormalForm, b: NormalForm) -> int | None:
    """1 if no term of ``a`` is below ``b``'s where the counts are >= 1 (so ``a >= b`` at every
    x >= 1: the larger stage, also where the leading terms tie at a count of 1), -1 if none is
    above, None if neither is shown (or nothing is a count).

    >>> from patternalg.algebra.normal_forms.counts import counting
    >>> from patternalg.syntax.symbols import n
    >>> a, b = normal_form(536 * x / n + 5), normal_form(536 * x + 5)
    >>> with counting([n]):
    ...     _termwise(a, b), _termwise(b, a)
    (-1, 1)
    >>> _termwise(a, b) is None
    True
    """
    signs = set()
    for key in set(a._terms) | set(b._terms):
        difference = a._terms.get(key, _ZERO) - b._terms.get(key, _ZERO)
        if _is_zero(difference):
            continue
        if difference.is_Number:
            signs.add(1 if difference > 0 else -1)
            continue
        found = counted_sign(difference, strict=False)
        if found is None:
            return None
        signs.add(found[0])
    signs.discard(0)
    return signs.pop() if len(signs) == 1 else None


def _compare_by_limit(a: sympy.Expr, b: sympy.Expr) -> int | None:
    """The order of ``a`` and ``b`` (neither holding a Max or Min: a limit of nested maxima
    takes time exponential in their depth) by the limits of their ratio and difference."""
    try:
        ratio = sympy.limit(a / b, x, sympy.oo)
        if ratio is sympy.oo:
            return 1
        if ratio == 0:
            return -1
        if not (ratio.is_number and ratio.is_finite):
            return None
        if ratio != 1:
            return 1 if ratio > 1 else -1
        difference = sympy.limit(a - b, x, sympy.oo)
    except (NotImplementedError, ValueError, TypeError, ZeroDivisionError):
        return None
    return _sign(difference) if difference.is_number else None


def compare(a: sympy.Expr, b: sympy.Expr) -> int | None:
    """1 if ``a`` grows faster than ``b`` as x -> oo, -1 if slower, 0 if equal, None if undecided.

    Ties in the leading term are broken by the following terms, so the order is total on
    normal forms with numeric coefficients.
    """
    return _compare(a, b, current_counts())


@functools.lru_cache(maxsize=65536)
def _compare(a: sympy.Expr, b: sympy.Expr, counts: Floors) -> int | None:
    if a == b:
        return 0
    fa, fb = normal_form(a), normal_form(b)
    if fa is not None and fb is not None:
        return compare_normal_forms(fa, fb)
    if a.has(sympy.Max, sympy.Min) or b.has(sympy.Max, sympy.Min):
        return None  # undecided: its choices rebuild sympy's evaluating Max (factor_terms, 70 s at 300 deep)
    ordered = _ordered_on_counts(a, b) if counts else None
    return _compare_by_limit(a, b) if ordered is None else ordered


def _ordered_on_counts(a: sympy.Expr, b: sympy.Expr) -> int | None:
    """1 if ``a >= b`` wherever the counts are at least their floors, for every positive
    value of x and of the functions of x in them (a law's metavariables ``A(x)``), -1 if
    ``a <= b``, 0 if equal; None if not shown. Where one side is below the other for every
    count, it grows no faster (``A(x)/n`` against ``A(x)``: no limit says so, n is free).

    >>> from patternalg.algebra.normal_forms.counts import counting
    >>> from patternalg.syntax.symbols import n
    >>> A = sympy.Function("A", positive=True)(x)
    >>> with counting([n]):
    ...     _ordered_on_counts(A / n, A), _ordered_on_counts(A / n, A / 2)
    (-1, None)
    """
    difference = a - b
    stand_ins = {f: stand_in(f, "value") for f in difference.atoms(AppliedUndef)}
    found = counted_sign(difference.xreplace(stand_ins) if stand_ins else difference, strict=False)
    return None if found is None else found[0]


def eventual(expr: sympy.Expr) -> sympy.Expr:
    """``expr`` with each minimum or maximum replaced by the argument it is as x -> oo
    (where normal forms order them; a pool's capped dispatch ``Min(d, A)`` is ``d``), so
    that a growth or a ratio's limit is read off leading terms, not left to sympy.limit
    (seconds each).

    >>> eventual(x + sympy.Min(196, 3 * x) + sympy.Max(5, log2(x)))
    x + log2(x) + 196
    """

    def winner(kind: type, *args: sympy.Expr) -> sympy.Expr:
        forms = [normal_form(a) for a in args]
        best = 0
        for i in range(1, len(args)):
            here, so_far = forms[i], forms[best]
            order = None if here is None or so_far is None else compare_normal_forms(here, so_far)
            if order is None:
                return kind(*args)  # type: ignore[no-any-return]
            if (order < 0) if kind is sympy.Min else (order > 0):
                best = i
        return args[best]

    if not expr.has(sympy.Min, sympy.Max):
        return expr
    args = [eventual(a) for a in expr.args]  # inner ones first: Min(d, Max(A, B))
    if isinstance(expr, sympy.Min | sympy.Max):
        return winner(type(expr), *args)
    return expr.func(*args)
