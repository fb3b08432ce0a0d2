"""The sizes of sympy expressions, bounded before sympy evaluates them exactly: the checks
behind :mod:`patternalg._internal.limits`' numbers that need sympy (kept apart so that the
limits and :func:`~patternalg._internal.limits.printable` load without it: the command line
starts without sympy, docs/errors.md).

>>> power_problem(sympy.Integer(10), sympy.Integer(10) ** 10)
'10^10000000000 has about 1e+10 digits (limit: 1000)'
>>> from patternalg.syntax.symbols import x
>>> power_problem(x + 1, sympy.Integer(10) ** 6)
'exponent 1000000 is larger than 1000 (on an expression with symbols)'
"""

from __future__ import annotations

import functools
import math
import sys

import sympy

from .limits import (
    MAX_EXPANDED_TERMS,
    MAX_EXPONENT,
    MAX_INTEGER_DIGITS,
    MAX_PARAMETER_NODES,
    MAX_TOWER,
    printable,
    whole_number_text,
)

__all__ = ["expanded_terms", "expansion_problem", "power_problem", "size_problem"]

_MAX_BITS = math.ceil(MAX_INTEGER_DIGITS * math.log2(10))
_TEN_TO_THE_MAX = 10**MAX_INTEGER_DIGITS


def _log10_abs(value: sympy.Expr) -> float:
    """log10 of ``|value|`` for a number, without evaluating anything large exactly."""
    if value.is_Rational:
        p, q = abs(int(value.p)), int(value.q)
        return (math.log10(p) if p else -math.inf) - math.log10(q)
    return float(sympy.log(sympy.Abs(value), 10).evalf(15))


def expanded_terms(expr: sympy.Expr, limit: int = MAX_EXPANDED_TERMS) -> int:
    """An upper bound of the terms ``sympy.expand(expr)`` gives (and of the largest
    expansion inside it, a denominator's or a function's argument), counted without
    expanding: per node the product of its factors' terms, at most the monomials of its
    degree in its generators (its symbols, and each function or negative power); past
    ``limit`` it returns a number above it.

    >>> from patternalg.syntax.symbols import symbol
    >>> a, b, c = symbol("a"), symbol("b"), symbol("c")
    >>> expanded_terms((a + b) * (b + c)), expanded_terms((a + b + c) ** 3), expanded_terms(1 / (a + b) ** 2 + c)
    (4, 10, 3)
    >>> expanded_terms(sympy.Mul(*(a + i for i in range(1, 21))))  # 21 powers of a, not 2^20
    21
    """
    counted: dict[sympy.Expr, tuple[int, int, frozenset[sympy.Expr]]] = {}  # terms, degree, generators
    found: tuple[int, int, frozenset[sympy.Expr]]
    inner = 1  # the largest expansion met inside a generator
    for node in _post_order(expr):
        if node in counted:
            continue
        args = [counted[a] for a in node.args]
        generators = frozenset().union(*(g for _, _, g in args))
        if node.is_Number:
            found = (1, 0, frozenset())
        elif node.is_Symbol:
            found = (1, 1, frozenset([node]))
        elif node.is_Add:
            found = (sum(t for t, _, _ in args), max(d for _, d, _ in args), generators)
        elif node.is_Mul:
            found = (math.prod(t for t, _, _ in args), sum(d for _, d, _ in args), generators)
        elif node.is_Pow and node.exp.is_Integer and node.exp >= 0:
            (count, degree, _), power = args[0], int(node.exp)
            found = (_multinomial_terms(count, power, limit), degree * power, generators)
        else:  # a generator: a function, a negative or symbolic power; its arguments expand inside
            if node.is_Pow and node.exp.is_Integer:
                inside = _multinomial_terms(args[0][0], -int(node.exp), limit)
            else:
                inside = max((t for t, _, _ in args), default=1)
            inner = max(inner, min(inside, limit + 1))
            found = (1, 1, frozenset([node]))
        terms, degree, gens = found
        if len(gens) <= limit and degree <= limit:
            terms = min(terms, math.comb(degree + len(gens), len(gens)))
        counted[node] = (min(terms, limit + 1), min(degree, limit + 1), gens)
    return max(counted[expr][0], inner)


def _multinomial_terms(count: int, power: int, limit: int) -> int:
    """The terms of a sum of ``count`` terms raised to ``power``: C(count + power - 1,
    power), or ``limit + 1`` where the power alone is past the limit."""
    if count == 1:
        return 1
    return limit + 1 if power > limit else math.comb(count + power - 1, power)


def _post_order(expr: sympy.Expr, most: int | None = None) -> list[sympy.Expr]:
    """The nodes of ``expr``, each after its arguments (no recursion: a tree built in
    Python may be deeper than the interpreter's stack); with ``most``, the first ``most``
    of them at most (a count of nodes that stops early)."""
    found: list[sympy.Expr] = []
    stack = [(expr, False)]
    while stack and (most is None or len(found) < most):
        node, done = stack.pop()
        if done:
            found.append(node)
        else:
            stack.append((node, True))
            stack.extend((a, False) for a in node.args)
    return found


@functools.lru_cache(maxsize=4096)  # a term's nodes share a few parameters (n, 2, k)
def expansion_problem(expr: sympy.Expr) -> str | None:
    """Why expanding ``expr`` (a parameter of a term is kept expanded) would take too
    long, or None.

    >>> from patternalg.syntax.symbols import symbol
    >>> product = sympy.Mul(*(symbol(f"a{i}") + 1 for i in range(12)))
    >>> expansion_problem(product)
    'the expression expands to more than 1,000 terms (a product of sums: multiply fewer of them)'
    >>> expansion_problem(sympy.Add(*(symbol(f"a{i}") / (i + 2) for i in range(40))))
    "the expression holds more than 64 operations and operands (a term's parameter is short: n, 2*k, n*m)"
    >>> expansion_problem(sympy.Mul(*(symbol("k") + i for i in range(1, 21)))).split(",")[0]
    'the expression expands to more than 64 operations and operands'
    """
    if not isinstance(expr, sympy.Basic) or expr.is_Atom:  # a number or a symbol
        return None
    nodes = len(_post_order(expr, MAX_PARAMETER_NODES + 1))
    if nodes > MAX_PARAMETER_NODES:
        return (
            f"the expression holds more than {MAX_PARAMETER_NODES} operations and operands (a term's "
            "parameter is short: n, 2*k, n*m)"
        )
    if expanded_terms(expr) > MAX_EXPANDED_TERMS:
        return (
            f"the expression expands to more than {MAX_EXPANDED_TERMS:,} terms (a product of "
            "sums: multiply fewer of them)"
        )
    if len(_post_order(sympy.expand(expr), MAX_PARAMETER_NODES + 1)) > MAX_PARAMETER_NODES:
        return (  # a term prints its parameters expanded: its text must parse back
            f"the expression expands to more than {MAX_PARAMETER_NODES} operations and operands, "
            "and a term prints its parameters expanded (a term's parameter is short: n, 2*k, n*m)"
        )
    return None


def power_problem(base: sympy.Expr, exponent: sympy.Expr) -> str | None:
    """Why ``base^exponent`` is too large to build exactly, or None if it is fine. A
    symbolic exponent counts by its largest coefficient: sympy writes ``2^(c*n)`` as
    ``(2^c)^n`` when it simplifies, and builds ``2^c``.

    >>> from patternalg.syntax.symbols import symbol
    >>> power_problem(sympy.Integer(2), 2**64 * symbol("n"))
    '2^(18446744073709551616*n) has about 5.55e+18 digits per unit of n (limit: 1000)'
    >>> power_problem(sympy.Integer(2), 64 * symbol("n")) is None
    True
    """
    if not exponent.is_number:
        if not base.is_number:
            return None
        coefficients = [abs(c) for c in exponent.as_coefficients_dict().values() if c.is_Number]
        try:
            digits = float(max(coefficients, default=0)) * abs(_log10_abs(base))
        except (TypeError, ValueError):
            return None
        if math.isnan(digits) or digits <= MAX_INTEGER_DIGITS:
            return None
        unit = ", ".join(sorted(str(s) for s in exponent.free_symbols))
        shown = f"{_short_number(base)}^({_short_number(exponent)})"
        return f"{shown} has about {digits:.3g} digits per unit of {unit} (limit: {MAX_INTEGER_DIGITS})"
    if base.is_number and not exponent.is_Rational and _tower(exponent) >= MAX_TOWER:
        return f"a tower of more than {MAX_TOWER} powers of numbers cannot be bounded in time: write its value"
    try:
        magnitude = abs(float(exponent.evalf(15)))
    except TypeError:  # a complex exponent: sympy builds it lazily, nothing to bound
        return None
    if not base.is_number:
        if magnitude > MAX_EXPONENT:
            return f"exponent {_short_number(exponent)} is larger than {MAX_EXPONENT} (on an expression with symbols)"
        return None
    try:
        digits = magnitude * abs(_log10_abs(base))
    except (TypeError, ValueError):
        return None
    if math.isnan(digits) or digits <= MAX_INTEGER_DIGITS:
        return None
    shown = f"{_short_number(base)}^{_short_number(exponent)}"
    return f"{shown} has about {digits:.3g} digits (limit: {MAX_INTEGER_DIGITS})"


def _tower(expr: sympy.Expr) -> int:
    """How many powers of numbers with exponents other than whole numbers nest in each other
    in ``expr`` (counted up to :data:`MAX_TOWER`).

    >>> _tower(sympy.Integer(2) ** sympy.Rational(1, 3)), _tower(sympy.sqrt(2) + 1)
    (1, 1)
    """
    best, stack = 0, [(expr, 0)]
    while stack:
        node, depth = stack.pop()
        if node.is_Pow and node.is_number and not node.exp.is_Integer:
            depth += 1
            if depth >= MAX_TOWER:
                return depth
        best = max(best, depth)
        stack.extend((arg, depth) for arg in node.args)
    return best


def size_problem(expr: sympy.Expr) -> str | None:
    """Why a number in ``expr`` (itself or a direct argument) is too long, or None: an
    exact one of more than :data:`MAX_INTEGER_DIGITS` digits, or a decimal a literal
    could not give (beyond a double's 1.8e308, or below 1e-:data:`MAX_INTEGER_DIGITS`):
    its text would not read back.

    >>> size_problem(sympy.Float(100) / sympy.Float("1e-999"))
    'a decimal number is out of range (a literal reads up to 1.8e308 and down to 1e-1000)'
    >>> size_problem(sympy.Float(1e300) * 10**9), size_problem(sympy.Float(1e300) * 10)
    ('a decimal number is out of range (a literal reads up to 1.8e308 and down to 1e-1000)', None)
    """
    for part in (expr, *expr.args):
        if part.is_Rational and any(_too_long(int(n)) for n in (part.p, part.q)):
            return f"an exact number has more than {MAX_INTEGER_DIGITS} digits"
        if part.is_Float and _beyond_literals(part):
            return (
                "a decimal number is out of range (a literal reads up to 1.8e308 and down to "
                f"1e-{MAX_INTEGER_DIGITS})"
            )
    return None


def _too_long(number: int) -> bool:
    """Whether ``number`` has more than :data:`MAX_INTEGER_DIGITS` digits (10^1000 has
    1,001: its bits, 3,322, are those of 10^1000 - 1).

    >>> _too_long(10**MAX_INTEGER_DIGITS), _too_long(10**MAX_INTEGER_DIGITS - 1)
    (True, False)
    """
    bits = abs(number).bit_length()
    return bits > _MAX_BITS or (bits == _MAX_BITS and abs(number) >= _TEN_TO_THE_MAX)


def _beyond_literals(value: sympy.Float) -> bool:
    """Whether a decimal's magnitude is beyond what a literal reads (0, inf and nan are
    not this check's to say)."""
    if not value.is_finite or value.is_zero:
        return False
    magnitude = abs(value)
    return bool(magnitude > _LARGEST_LITERAL or magnitude < _SMALLEST_LITERAL)


#: the largest and the smallest magnitude a decimal literal reads (a double's largest; the
#: 53-bit decimal of 1e-1000, as build_number reads it)
_LARGEST_LITERAL = sympy.Float(sys.float_info.max)
_SMALLEST_LITERAL = sympy.Float(f"1e-{MAX_INTEGER_DIGITS}", precision=53)


def _short_number(value: sympy.Expr) -> str:
    if value.is_Integer and int(value).bit_length() > 64:
        return f"({whole_number_text(int(value))})"
    return printable(str(value))


