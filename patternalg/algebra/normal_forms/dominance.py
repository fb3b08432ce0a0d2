"""Pointwise order of normal forms for x >= 1, decided on their terms (no sympy assumptions).

:func:`nonnegative` proves ``h(x) >= 0`` for every x >= 1 for a normal form ``h`` with
numeric coefficients, in floating point. With x = 2^t (t >= 0) each term
``c * x^i * log2(x)^j`` is ``c * 2^(i*t) * t^j``, a product of two monotone positive
functions of t; so

* beyond a point T where the leading term outweighs the sum of all negative terms (each
  negative term's ratio to the leading one decreases from T on), h stays positive;
* on [0, T], branch and bound: on an interval, the positive terms at their smallest and the
  negative terms at their largest bound h from below; intervals where that bound is
  negative are halved, up to a budget.

What is not proved within the budget counts as not proved (a pipe keeps both stages in its
``Max``, which is never wrong). :func:`samples` and :func:`signs_differ` refute a sign cheaply
for coefficients in other symbols (thread counts, p, phi) by evaluating them at fixed
positive points.

>>> from patternalg.algebra.normal_forms.normal_form import normal_form
>>> from patternalg.syntax.symbols import x, log2
>>> nonnegative(normal_form(x - 1)), nonnegative(normal_form(2 * x - 3))
(True, False)
>>> nonnegative(normal_form(x * log2(x) - 2 * x + 2))  # 0 at x = 1 and 2, negative between
False
>>> nonnegative(normal_form(x**2 - 2 * x * log2(x) + 1)), nonnegative(normal_form(x * log2(x) - x + 1))
(True, True)
"""

from __future__ import annotations

import math

from ..._internal.limits import held_in_full
from .bounds import LARGEST_SUMMED, ROUNDING
from .normal_form import NormalForm, binary_order
from .sampling import samples

__all__ = ["nonnegative", "below", "below_the_rest", "is_numeric", "refuted_by_samples"]

#: intervals of t = log2(x) examined before giving up a proof
_BUDGET = 400

Term = tuple[float, float, float]  # (exponent of x, exponent of log2(x), coefficient)


def is_numeric(form: NormalForm) -> bool:
    """Whether every coefficient and exponent of ``form`` is a number (no n, p, phi, ...)."""
    return all(c.is_Number and i.is_Number and j.is_Number for (i, j), c in form.items())


def _terms_of(*forms: NormalForm) -> list[list[Term]] | None:
    """The forms' terms in floats, every coefficient a normal double: as they are, or, where
    one is beyond a double's range (a pool nested 700 deep has 1e-334) or its sums would be
    (1.6e308 twice), all scaled by the one power of two that brings the largest to [1, 2)
    (an order of forms, and the sign of one, do not change under a positive factor common
    to all); None where even then one is not held (coefficients further apart than a
    double's range): not proved, never a wrong "yes" from a coefficient read as 0.

    >>> from patternalg.algebra.normal_forms.normal_form import normal_form
    >>> import sympy
    >>> from patternalg.syntax.symbols import x
    >>> tiny = sympy.Float(3) ** -700
    >>> _terms_of(normal_form(tiny * x), normal_form(tiny * x / 3))
    [[(1.0, 0.0, 1.44...)], [(1.0, 0.0, 0.48...)]]
    >>> _terms_of(normal_form(x + tiny)) is None
    True
    """
    plain = [form.float_terms() for form in forms]
    if all(map(_held, plain)):
        return plain
    orders = [binary_order(c) for form in forms for _, c in form.items()]
    scaled = [form.float_terms(max((o for o in orders if o is not None), default=0)) for form in forms]
    return scaled if all(map(_held, scaled)) else None


def _held(terms: list[Term]) -> bool:
    """Whether every coefficient is a normal double (not 0 or subnormal) that sums of a few
    do not overflow (below :data:`~.bounds.LARGEST_SUMMED`)."""
    return all(held_in_full(c, LARGEST_SUMMED) for _, _, c in terms)


def _factor_range(a: float, b: float, t0: float, t1: float) -> tuple[float, float]:
    """The smallest and largest value of 2^(a*t) * t^b on [t0, t1] (t0 >= 0)."""
    exp_lo, exp_hi = sorted((2.0 ** (a * t0), 2.0 ** (a * t1)))
    if b == 0:
        return exp_lo, exp_hi
    p0 = math.inf if (t0 == 0 and b < 0) else t0**b
    p1 = t1**b
    pow_lo, pow_hi = sorted((p0, p1))
    return exp_lo * pow_lo, exp_hi * pow_hi


def _value(terms: list[Term], t: float) -> float:
    return math.fsum(c * 2.0 ** (a * t) * (t**b if b else 1.0) for a, b, c in terms)


def _tail_start(terms: list[Term]) -> float | None:
    """A T beyond which the leading (positive) term outweighs all negative terms, or None."""
    lead_a, lead_b, lead_c = max(terms)
    if not all(math.isfinite(c) for _, _, c in terms) or lead_c <= 0:
        return None  # coefficients beyond doubles: nothing to tell
    # log(-c) - log(lead_c), not log(-c / lead_c): the ratio of coefficients 1e-320 apart
    # underflows to 0
    negative = [
        (lead_a - a, lead_b - b, math.log(-c) - math.log(lead_c)) for a, b, c in terms if c < 0
    ]
    if not negative:
        return 0.0
    start = 1.0
    for da, db, _ in negative:  # each ratio 2^(-da*t) * t^(-db) decreases from here on
        if da > 0 and db < 0:
            start = max(start, -db / (da * math.log(2)))
    t = start
    while t < 1e6:
        exponents = [lc - da * t * math.log(2) - db * math.log(t) for da, db, lc in negative]
        total = math.inf if max(exponents) > 700 else math.fsum(map(math.exp, exponents))
        if total < 1 - 1e-9:
            return t
        t *= 2
    return None


def _bounded_below(terms: list[Term], t0: float, t1: float) -> bool | None:
    """True if h >= 0 on [t0, t1] by the monotone bounds, False if h < 0 at a point, else None."""
    low, size = 0.0, 0.0
    for a, b, c in terms:
        lo, hi = _factor_range(a, b, t0, t1)
        used = c * (lo if c > 0 else hi)
        low += used
        size += abs(used)  # the rounding of ``low`` is relative to what it adds, not to hi
    if low >= -ROUNDING * size:
        return True
    if _value(terms, (t0 + t1) / 2) < 0 or _value(terms, t1) < 0:
        return False
    return None


def nonnegative(form: NormalForm) -> bool:
    """Whether ``form`` (numeric coefficients) is >= 0 for every x >= 1, as far as provable."""
    terms = _terms_of(form)
    return terms is not None and _nonnegative(terms[0])


def below(small: NormalForm, big: NormalForm) -> bool:
    """Whether ``small <= big`` for every x >= 1 (numeric coefficients), as far as provable:
    :func:`nonnegative` of their difference, taken in floats (no sympy arithmetic)."""
    terms = _terms_of(big, small)
    return terms is not None and _nonnegative(_minus(*terms))


def _nonnegative(terms: list[Term]) -> bool:
    if all(c >= 0 for _, _, c in terms):
        return True  # x^i and log2(x)^j are nonnegative for x >= 1
    if max(terms)[2] < 0 or any(b < 0 for _, b, _ in terms):
        return False  # negative as x grows (or unbounded at x = 1)
    if math.fsum(c for _, b, c in terms if b == 0) < 0:
        return False  # negative at x = 1
    tail = _tail_start(terms)
    if tail is None:
        return False
    if tail == 0:
        return True
    try:
        return _proved_up_to(terms, tail)
    except OverflowError:  # 2^(a*t) beyond floats far out: not proved (never a wrong "yes")
        return False


def _proved_up_to(terms: list[Term], tail: float) -> bool:
    """Whether h >= 0 on [0, tail] by branch and bound within the budget."""
    # [0, 1], [1, 2], [2, 4], ... up to the tail: scales of t differ by orders of magnitude
    edges = [0.0, *(2.0**k for k in range(math.ceil(math.log2(tail)) + 1))]
    pending = list(zip(edges, edges[1:], strict=False))
    for _ in range(_BUDGET):
        if not pending:
            return True
        t0, t1 = pending.pop()
        verdict = _bounded_below(terms, t0, t1)
        if verdict is False:
            return False
        if verdict is None:
            middle = (t0 + t1) / 2
            pending += [(t0, middle), (middle, t1)]
    return not pending


def _minus(big: list[Term], small: list[Term]) -> list[Term]:
    """The terms of big - small (same growth, coefficients subtracted; zeros dropped)."""
    total: dict[tuple[float, float], float] = {}
    for terms, sign in ((big, 1.0), (small, -1.0)):
        for a, b, c in terms:
            total[a, b] = total.get((a, b), 0.0) + sign * c
    return [(a, b, c) for (a, b), c in total.items() if c != 0.0]


def below_the_rest(form: NormalForm, others: list[NormalForm]) -> bool:
    """Whether ``form <= max(others)`` for every x >= 1 (numeric coefficients), proved piece
    by piece: past a point one of the others stays above it, and every interval of t =
    log2(x) before that point has one of the others above it throughout (the bounds of
    :func:`nonnegative`). Such a form is never the maximum, though no single other is above
    it everywhere. Not proved within the budget: False.

    >>> from patternalg.algebra.normal_forms.normal_form import normal_form
    >>> from patternalg.syntax.symbols import x
    >>> middle, low, high = (normal_form(e) for e in (x / 2 + 40, 100 + 0 * x, x))
    >>> below_the_rest(middle, [low, high]), nonnegative(low - middle), nonnegative(high - middle)
    (True, False, False)
    >>> below_the_rest(normal_form(x / 2 + 60), [low, high])  # above both at x = 110
    False
    """
    terms = _terms_of(form, *others)
    if terms is None:
        return False
    mine, *theirs = terms
    differences = [_minus(other, mine) for other in theirs]
    if not differences or any(b < 0 for terms in differences for _, b, _ in terms):
        return False
    if any(_mixed_nonnegative(p, q) for i, p in enumerate(differences) for q in differences[i + 1:]):
        return True
    tails = [
        _tail_start(terms) for terms in differences if terms and max(terms)[2] > 0
    ]
    known = [t for t in tails if t is not None]
    if not known:
        return False
    try:
        return _covered_up_to(differences, min(known))
    except OverflowError:
        return False


def _mixed_nonnegative(p: list[Term], q: list[Term]) -> bool:
    """Whether some mixture ``l*p + (1 - l)*q`` (0 <= l <= 1) of two differences has no
    negative term, within rounding: then at every x one of them is >= 0 (were both
    negative, so would be the mixture). Where two others cross, both differences are 0 at
    the crossing and no interval about it has one of them >= 0 throughout: a mean of the
    others (``3/8*a + 5/8*b`` below ``max(a, b)``, crossing at x = 4.6e9) exhausted the
    branch and bound of :func:`_covered_up_to`.

    >>> a, b = [(3.0, 0.0, 0.4375), (2.0, 0.0, -2e9)], [(2.0, 0.0, 1.2e9), (3.0, 0.0, -0.2625)]
    >>> _mixed_nonnegative(a, b), _mixed_nonnegative(a, [(2.0, 0.0, 1.0), (3.0, 0.0, -1.0)])
    (True, False)
    """
    mine, theirs = ({(a, b): c for a, b, c in terms} for terms in (p, q))
    low, high = 0.0, 1.0
    pairs = [(mine.get(k, 0.0), theirs.get(k, 0.0)) for k in mine.keys() | theirs.keys()]
    for c_p, c_q in pairs:  # c_q + l*(c_p - c_q) >= 0
        slope = c_p - c_q
        if slope > 0:
            low = max(low, -c_q / slope)
        elif slope < 0:
            high = min(high, c_q / -slope)
    mix = min(max((low + high) / 2, 0.0), 1.0)
    return all(
        mix * c_p + (1 - mix) * c_q >= -ROUNDING * (abs(mix * c_p) + abs((1 - mix) * c_q))
        for c_p, c_q in pairs
    )


def _covered_up_to(differences: list[list[Term]], tail: float) -> bool:
    """Whether every interval of [0, tail] has one difference >= 0 throughout (budgeted)."""
    if tail == 0:
        return True
    edges = [0.0, *(2.0**k for k in range(math.ceil(math.log2(max(tail, 1.0))) + 1))]
    pending = list(zip(edges, edges[1:], strict=False))
    for _ in range(_BUDGET):
        if not pending:
            return True
        t0, t1 = pending.pop()
        if not any(
            not terms or _bounded_below(terms, t0, t1) is True for terms in differences
        ):
            middle = (t0 + t1) / 2
            if all(_value(terms, middle) < 0 for terms in differences):
                return False  # the form is above every other there: the maximum, not below
            pending += [(t0, middle), (middle, t1)]
    return not pending


#: points t = log2(x) where a form with symbolic coefficients is tried at sampled symbols
_PROBES = (0.0, 1.0, 10.0, 20.0, 40.0)


def refuted_by_samples(small: NormalForm, big: NormalForm) -> bool:
    """Whether ``small > big`` at some x >= 1 for some positive values of their other symbols.

    >>> from patternalg.algebra.normal_forms.normal_form import normal_form
    >>> from patternalg.syntax.symbols import x, n, m
    >>> refuted_by_samples(normal_form(x / n), normal_form(x / m))
    True
    >>> refuted_by_samples(normal_form(x / (2 * n)), normal_form(x / n))
    False
    """
    terms: list[tuple[float, float, tuple[float, ...]]] = []
    for form, sign in ((big, 1.0), (small, -1.0)):
        for (i, j), c in form.items():
            values = samples(c)
            if values is None or not (i.is_Number and j.is_Number):
                return False
            terms.append((float(i), float(j), tuple(sign * v for v in values)))
    for k in range(len(terms[0][2]) if terms else 0):
        at_k = [(i, j, values[k]) for i, j, values in terms]
        if any(_value(at_k, t) < 0 for t in _PROBES):
            return True
    return False
