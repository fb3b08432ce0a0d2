"""Deciding a relation between two closed forms with sympy, for all values of their symbols.

The checker of laws calls :func:`decide` on the two sides of a law after instantiating
its metavariables with positive symbols. ``decide`` answers True only when sympy
establishes the relation for every x >= 1, every count >= 1 (thread counts are positive
integers; proving for all reals >= 1 covers them) and every positive value of the other
symbols; False means "not proved", never "false".

A pointwise maximum is split into cases: where ``Max(a, b)`` is ``a``, the constraint
``a - b >= 0`` is used by solving it for a symbol that occurs linearly
(``a = b + t`` with a fresh ``t >= 0``). The substitution covers every point of the case,
so a proof on the substituted form is a proof on the case. Each case is first tried
without its constraint, since a substitution forgets the domains of earlier ones.

Before sympy is asked, two cheap proofs are tried on the sides read as pointwise maxima of
sums of monomials: a termwise certificate (:mod:`patternalg.laws.certificate`: a convex
combination of the larger side's arguments above each argument of the smaller side, as
``max(a, b) >= (a + b) / 2``), and for numeric normal forms in x the pointwise order of
:mod:`patternalg.algebra.normal_forms.dominance`. Neither asks sympy's assumption system, which takes
minutes on ``A - A / n**100``.

>>> import sympy
>>> a, b = sympy.symbols("a b", positive=True)
>>> decide(sympy.Max(a, b), (a + b) / 2, ">=")
True
>>> decide(sympy.Max(a, b), a, "==")
False
>>> from patternalg.syntax.symbols import n
>>> decide(a / n, a, "<=", counts=[n])
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

import sympy

from ..algebra.bindings import as_value
from ..algebra.normal_forms.dominance import below_the_rest, is_numeric
from ..algebra.normal_forms.normal_form import NormalForm, normal_form
from ..syntax.symbols import log2, x
from .certificate import dominates

__all__ = ["decide", "RELATIONS"]

#: the relations of the law language
RELATIONS = ("==", "<=", ">=", "<", ">")
#: at most this many Max cases are explored
_CASE_BUDGET = 256


def _ln2_form(expr: sympy.Expr) -> sympy.Expr:
    """log2 written with the natural log, whose sign sympy knows."""
    return expr.replace(
        lambda e: isinstance(e, log2), lambda e: sympy.log(e.args[0]) / sympy.log(2)
    )


#: beyond these a proof by sympy's assumptions is not tried: its ``simplify`` and ``expand``
#: take minutes (and recurse past Python's limit) on ``A/(1 + n)^3000`` or a 10,000-node side
_SYMPY_EXPONENT = 64
_SYMPY_NODES = 5_000
#: and on decimals this many orders of magnitude apart where a maximum splits a side into
#: cases (each case divides by another's decimals): its polynomials make them integers of
#: hundreds of digits and factor them (Max(1.6e308 + 1.0001/n, 1e-300*x + 1e300*x/n) against
#: Max(1e300*x**2, log2(x)) took 10 s; with 1e1000 beside 1e-1000, longer than anyone waits)
_SYMPY_DECADES = 200


def _beyond_sympy(*sides: sympy.Expr) -> bool:
    """Whether the ``sides`` have a power with an integer exponent beyond
    :data:`_SYMPY_EXPONENT`, more than :data:`_SYMPY_NODES` nodes (counted without recursion)
    or, where a maximum splits them into cases, decimals more than :data:`_SYMPY_DECADES`
    orders of magnitude apart (a pool nested 4,000 deep, 7.6e-1205 beside 1, is proved).

    >>> from patternalg.syntax.symbols import n
    >>> _beyond_sympy(x / n**3000), _beyond_sympy(x / n**2)
    (True, False)
    >>> far = sympy.Max(sympy.Float("1.6e308"), x), sympy.Float("1e-300") * x
    >>> _beyond_sympy(*far), _beyond_sympy(far[0].args[0] + x, far[1]), _beyond_sympy(sympy.Float("1e300") * x, x)
    (True, False, False)
    """
    decades: list[float] = []
    for expr in sides:
        nodes = 0
        for node in sympy.preorder_traversal(expr):
            nodes += 1
            if nodes > _SYMPY_NODES:
                return True
            if node.is_Pow and node.exp.is_Integer and abs(int(node.exp)) > _SYMPY_EXPONENT:
                return True
            if node.is_Float and node:
                _, _, exponent, bits = node._mpf_  # the binary exponent of its leading bit
                decades.append((exponent + bits) * math.log10(2))
    split = any(expr.has(sympy.Max) for expr in sides)  # cases, each side divided by another's
    return split and bool(decades) and max(decades) - min(decades) > _SYMPY_DECADES


def _is_zero(expr: sympy.Expr) -> bool:
    """Whether sympy shows ``expr`` to be 0 (its ``simplify`` not on decimals, as in
    :func:`_sign_holds`)."""
    forms: list[Callable[[sympy.Expr], sympy.Expr]] = [sympy.expand]
    if not expr.has(sympy.Float):
        forms.append(sympy.simplify)
    return any(_shown(form, expr) == 0 for form in forms)


def _shown(form: Callable[[sympy.Expr], sympy.Expr], expr: sympy.Expr) -> sympy.Expr | None:
    """``form(expr)``, or None where sympy's arithmetic overflowed on the way (its
    polynomials make 1e-1000 an integer of a thousand digits: ``too many digits``)."""
    try:
        return form(expr)
    except OverflowError:
        return None


def _sign_holds(expr: sympy.Expr, strict: bool) -> bool:
    """Whether sympy's assumptions establish expr > 0 (strict) or expr >= 0, Max-free."""
    attribute = "is_positive" if strict else "is_nonnegative"
    forms: list[Callable[[sympy.Expr], sympy.Expr]] = [
        lambda e: e,
        lambda e: sympy.factor_terms(sympy.together(sympy.expand(e))),
    ]
    if not expr.has(sympy.Float):  # simplify folds a decimal into a log: log2(x) >= 1e-300 "held"
        forms.append(sympy.simplify)
    return any(getattr(_shown(form, expr), attribute, None) is True for form in forms)


def _slack(constraint: sympy.Expr, expr: sympy.Expr) -> sympy.Expr:
    """Use ``constraint >= 0`` in ``expr``: solve it for a linear symbol, or drop it (sound).

    Symbols of ``expr`` go first (solving for any other changes nothing), then those with
    a positive coefficient: ``b - a >= 0`` becomes ``b = a + t``, which keeps ``b``
    positive where ``a = b - t`` would not.
    """
    candidates = []
    for sym in sorted(constraint.free_symbols, key=lambda s: s.name):
        coefficient = sympy.diff(constraint, sym)
        if coefficient.has(sym) or not (coefficient.is_positive or coefficient.is_negative):
            continue
        useless = sym not in expr.free_symbols
        candidates.append(((useless, not coefficient.is_positive), sym, coefficient))
    for _, sym, coefficient in sorted(candidates, key=lambda c: c[0]):
        rest = sympy.expand(constraint - coefficient * sym)
        if rest.has(sym):
            continue
        t = sympy.Dummy("t", nonnegative=True)
        return expr.xreplace({sym: (t - rest) / coefficient})
    return expr


def _innermost_max(expr: sympy.Expr) -> sympy.Max | None:
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.Max) and not any(a.has(sympy.Max) for a in node.args):
            return node
    return None


def _holds(expr: sympy.Expr, strict: bool, budget: list[int]) -> bool:
    """expr >= 0 (or > 0) everywhere, splitting pointwise maxima into cases."""
    node = _innermost_max(expr)
    if node is None:
        return _sign_holds(expr, strict)
    for chosen in node.args:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        case = expr.xreplace({node: chosen})
        if _holds(case, strict, budget):
            continue  # true in this case even without knowing that ``chosen`` is the max
        for other in node.args:
            if other is not chosen:
                case = _slack(sympy.Add(chosen, -other), case)
        if not _holds(case, strict, budget):
            return False
    return True


def _numeric_forms(expr: sympy.Expr) -> list[NormalForm] | None:
    """The arguments of a maximum (or the one expression) as numeric normal forms, or None."""
    forms = []
    for arg in sympy.Max.make_args(expr):
        form = normal_form(arg)
        if form is None or not is_numeric(form):
            return None
        forms.append(form)
    return forms


def _numeric_below(big: sympy.Expr, small: sympy.Expr) -> bool:
    """Whether every argument of ``small`` is below the maximum of ``big``'s, decided on
    their normal forms with numeric coefficients (False if they are not such forms)."""
    tops, lows = _numeric_forms(big), _numeric_forms(small)
    if tops is None or lows is None:
        return False
    return all(below_the_rest(b, tops) for b in lows)


def _at_least(big: sympy.Expr, small: sympy.Expr, strict: bool, counts: list[sympy.Symbol]) -> bool:
    """``big >= small`` (``>`` if strict) proved without sympy's assumptions, or False."""
    tops, lows = sympy.Max.make_args(big), sympy.Max.make_args(small)
    # a certificate takes every symbol positive: a strict one says nothing where one may be 0
    zero = any(s.is_positive is not True for s in (big - small).free_symbols)
    if not (strict and zero) and dominates(tops, lows, strict=strict, counts=counts):
        return True
    return not strict and _numeric_below(big, small)


def _cheap(lhs: sympy.Expr, rhs: sympy.Expr, relation: str, counts: list[sympy.Symbol]) -> bool:
    """The relation proved by a certificate or on numeric normal forms (False: not proved)."""
    if relation == "==":
        return _at_least(lhs, rhs, False, counts) and _at_least(rhs, lhs, False, counts)
    if relation in ("<=", "<"):
        lhs, rhs = rhs, lhs
    return _at_least(lhs, rhs, relation in ("<", ">"), counts)


def _side(value: sympy.Expr | float | str) -> sympy.Expr:
    """A side of a relation as an expression: an expression as it is (an evaluated model's
    decimals need not read back as literals: a pool nested 4,000 deep has a coefficient of
    1e-1205), anything else read as :func:`~patternalg.algebra.bindings.as_value` reads it."""
    return value if isinstance(value, sympy.Expr) else as_value(value)


def decide(
    lhs: sympy.Expr,
    rhs: sympy.Expr,
    relation: str,
    counts: Iterable[sympy.Symbol] = (),
) -> bool:
    """True if ``lhs relation rhs`` provably holds for all x >= 1, counts >= 1, symbols > 0.

    >>> from patternalg.syntax.symbols import x, log2
    >>> decide(x * log2(x) + x, x, ">=")
    True
    >>> decide(x * log2(x), x, ">=")  # false at x = 1
    False
    >>> decide(x, 2 * x, ">")
    False
    >>> decide(x, 1.0000000001 * x, "<")  # within the rounding: equal, not less
    False
    """
    if relation not in RELATIONS:
        raise ValueError(f"unknown relation {relation!r} (valid: {', '.join(RELATIONS)})")
    counts = list(counts)
    lhs, rhs = _side(lhs), _side(rhs)
    if relation in ("<", ">") and decide(lhs, rhs, "==", counts):
        return False  # equal to the rounding (x and 1.0000000001*x): not less, as the search says
    if _cheap(lhs, rhs, relation, counts):
        return True
    if _beyond_sympy(lhs, rhs):
        return False  # not proved: sympy's assumptions would take minutes (the search decides)
    shift = {x: 1 + sympy.Dummy("s", nonnegative=True)}
    shift.update({c: 1 + sympy.Dummy(f"{c}_1", nonnegative=True) for c in counts})
    left = _ln2_form(lhs.xreplace(shift))
    right = _ln2_form(rhs.xreplace(shift))
    difference = sympy.Add(left, -right)
    if relation == "==":
        if _is_zero(difference):
            return True
        return all(_holds(d, False, [_CASE_BUDGET]) for d in (difference, -difference))
    if relation in ("<=", "<"):
        difference = -difference
    return _holds(difference, relation in ("<", ">"), [_CASE_BUDGET])
