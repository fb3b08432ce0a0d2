"""The composition operators M[.] of the paper on closed forms.

``seq`` adds (paper 001, eq. (2)), ``tpool_n`` divides by n (eq. (3)), ``pipe`` takes the
slower stage (eq. (4)) and ``mapReduce`` sums its three phases (eq. (5)); on closed forms
each is computed by its ``m_*`` function only, with the normal-form fast paths inside it.
What "slower" means is a :class:`~.semantics.Semantics`; :mod:`.evaluation` folds a term
with these operators into its closed form.

>>> from patternalg.algebra.normal_forms.normal_form import normal_form
>>> from patternalg.syntax.symbols import x
>>> m_pipe(normal_form(536.185 * x), normal_form(sympy.Float(5422.97)), Semantics.EXACT)
(Maximum(Max(5422.97, 536.185*x)), None)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeAlias, TypeVar

import sympy

from .._internal.limits import MAX_MAXIMUM_STAGES, MAX_MINIMUM_CLAUSES
from .._internal.surface import at_text
from ..errors import EvaluationError
from ..syntax.arith import format_expr
from ..syntax.symbols import m as m_symbol
from ..syntax.symbols import n as n_symbol
from ..syntax.symbols import o as o_symbol
from ..syntax.symbols import symbol, x
from ..syntax.terms import Atom, MapReduce, Meta, Term
from .atomic_model import AtomicModel
from .bindings import float_at, substitute
from .normal_forms.counts import Floors, current_counts, nonnegative_on_counts, small_enough
from .normal_forms.dominance import (
    below,
    below_the_rest,
    is_numeric,
    nonnegative,
    refuted_by_samples,
)
from .normal_forms.maximum import Maximum
from .normal_forms.minimum import Clause, Minimum
from .normal_forms.normal_form import (
    NormalForm,
    compare,
    compare_normal_forms,
    extremum_in_x,
    normal_form,
)
from .normal_forms.sampling import signs_differ
from .semantics import Semantics

__all__ = [
    "exact_min",
    "m_min",
    "m_seq",
    "m_tpool",
    "m_pipe",
    "m_mapreduce",
    "as_expr",
    "Value",
    "RESOURCE_SYMBOLS",
    "leaf_model",
    "shuffle_model",
]

#: symbols that annotations may bind on atoms whose models do not use them
RESOURCE_SYMBOLS = frozenset({"p", "phi"})
_SHIFT = sympy.Symbol("_x_minus_1", nonnegative=True)
T = TypeVar("T")


# --- the composition operators --------------------------------------------------------------
#: a sub-term's model: a :class:`NormalForm` where it has one (sums, task pools and pipes of
#: normal forms stay normal forms and never pay for sympy's ``expand``), a :class:`Maximum` of
#: normal forms for a pipe of stages that cannot be ordered, a :class:`Minimum` of those for a
#: pool's capped dispatch that cannot be decided, else a sympy expression
Value: TypeAlias = sympy.Expr | NormalForm | Maximum | Minimum


def as_expr(value: Value) -> sympy.Expr:
    """The sympy expression of a model held either way.

    >>> as_expr(normal_form(x + 1)) == x + 1
    True
    """
    return value.to_expr() if isinstance(value, NormalForm | Maximum | Minimum) else value


def m_seq(left: Value, right: Value, semantics: Semantics = Semantics.ASYMPTOTIC) -> Value:
    """Paper 001, eq. (2): M[seq(f1, f2)] = M[f1] + M[f2].

    Two normal forms add term by term; otherwise the sum is a sympy expression. Under exact
    semantics a maximum of normal forms stays one: max(a, b) + c = max(a + c, b + c), the sums
    below another dropped (so the next pipe compares forms, not sympy ``Max`` expressions).

    >>> from patternalg.syntax.symbols import x
    >>> m_seq(536.185 * x, sympy.Float(5422.97))
    536.185*x + 5422.97
    >>> stages = m_pipe(normal_form(x), normal_form(sympy.Integer(3)), Semantics.EXACT)[0]
    >>> m_seq(stages, normal_form(x), Semantics.EXACT)
    Maximum(Max(2*x, x + 3))
    """
    if isinstance(left, NormalForm) and isinstance(right, NormalForm):
        return left + right
    if semantics.pointwise and Minimum in (type(left), type(right)):
        pairs = _clause_pairs(left, right)  # min(a, b) + c = min(a + c, b + c)
        summed = None if pairs is None else _few_clauses(_minimum([m_seq(a, b, semantics) for a, b in pairs]))
        if summed is not None:
            return summed
    left_forms, right_forms = _forms(left), _forms(right)
    if semantics.pointwise and left_forms is not None and right_forms is not None:
        sums = dict.fromkeys(a + b for a in left_forms for b in right_forms)
        # a maximum plus one form: its stages moved alike, none below another still
        settled = len(sums) if 1 in (len(left_forms), len(right_forms)) else 0
        return _maximum(_pointwise_maxima(list(sums), settled))
    a, b = as_expr(left), as_expr(right)
    if semantics.pointwise:  # a term without extrema moves into each argument of one
        for extremum, other in ((a, b), (b, a)):
            spread = None if extremum_in_x(other) else _spread(extremum, functools.partial(sympy.Add, other))
            if spread is not None:
                return spread
    return sympy.Add(a, b)


def _spread(extremum: sympy.Expr, operation: Callable[[sympy.Expr], sympy.Expr]) -> sympy.Expr | None:
    """An ``operation`` that keeps the order of its argument (adding a term, dividing by a
    count) done to each argument of ``extremum``, a minimum or maximum: ``max(p, q) + c =
    max(p + c, q + c)``, one extremum, not one a level deeper per operation (a ``seq``
    around each of 500 pipes on a machine with a wake passed Python's recursion limit);
    None if ``extremum`` is neither. (A term holding extrema itself is not copied into
    each argument: nested, that doubled a pipe chain's closed form per level.)"""
    if isinstance(extremum, sympy.Max):
        return _symbolic_max([operation(arg) for arg in extremum.args])
    if isinstance(extremum, sympy.Min):
        return sympy.Min(*(operation(arg) for arg in extremum.args), evaluate=False)
    return None


def m_tpool(count: sympy.Expr, body: Value, semantics: Semantics = Semantics.ASYMPTOTIC) -> Value:
    """Paper 001, eq. (3): M[tpool_n(task)] = M[task] / n.

    A normal form divides each coefficient; under exact semantics so does each form of a
    maximum (n > 0: max(a, b) / n = max(a / n, b / n)); otherwise the quotient is a sympy
    expression.

    >>> from patternalg.syntax.symbols import n, x
    >>> m_tpool(n, 1034.17 * x)
    1034.17*x/n
    """
    if isinstance(body, NormalForm):
        return body.scaled(sympy.Pow(count, -1))
    if semantics.pointwise and isinstance(body, Maximum):
        return _divided(body, count)
    if semantics.pointwise and isinstance(body, Minimum):  # each clause, as a maximum's forms
        return Minimum(tuple(_divided(clause, count) for clause in body.clauses))
    if semantics.pointwise:  # n > 0: max(a, b) / n = max(a / n, b / n)
        spread = _spread(as_expr(body), lambda arg: sympy.Mul(arg, sympy.Pow(count, -1)))
        if spread is not None:
            return spread
    return sympy.Mul(as_expr(body), sympy.Pow(count, -1))


def _divided(clause: Clause, count: sympy.Expr) -> Clause:
    """A form or a maximum of forms divided by ``count`` > 0 (each form of a maximum)."""
    if isinstance(clause, NormalForm):
        return clause.scaled(sympy.Pow(count, -1))
    return Maximum(tuple(form.scaled(sympy.Pow(count, -1)) for form in clause.forms))


def _symbolic_max(args: Sequence[sympy.Expr]) -> sympy.Expr:
    """The maximum of stages none of which was shown below another: sympy's ``Max``, which
    drops an argument its assumptions show below another (``max(q, q + r)`` with ``r >= 0``
    is ``q + r``), where every argument has at most 200 operations and none a ``Min``;
    otherwise flattened and unevaluated. Sympy's search takes ``factor_terms`` of every
    difference (a pipe of pools nested 300 deep spent 70 s in it) and, with a ``Min`` inside
    (a pool's capped dispatch), seconds that find nothing dominance did not.

    >>> from patternalg.syntax.symbols import x, n
    >>> _symbolic_max([x, x + x / n]), _symbolic_max([sympy.Max(x, x / n, evaluate=False), x])
    (x + x/n, Max(x, x/n))
    """
    flat = tuple(dict.fromkeys(arg for each in args for arg in sympy.Max.make_args(each)))
    if len(flat) == 1:
        return flat[0]
    if all(small_enough(arg) and not arg.has(sympy.Min) for arg in flat):
        return sympy.Max(*flat)
    return sympy.Max(*flat, evaluate=False)


def _tie_break(a: sympy.Expr, b: sympy.Expr) -> int:
    return 1 if sympy.default_sort_key(a) >= sympy.default_sort_key(b) else -1


def _asymptotic_max(a: sympy.Expr, b: sympy.Expr) -> tuple[sympy.Expr, int | None]:
    order = compare(a, b)
    if order is None:
        return _symbolic_max([a, b]), None
    if order == 0:
        order = _tie_break(a, b)
    return (a, 0) if order > 0 else (b, 1)


#: points where a claimed dominance is tried numerically before sympy is asked to prove it
_PROBES = (1, 2, 1024, 2**20, 2**40)


def _violated_somewhere(difference: sympy.Expr) -> bool:
    """Whether ``difference`` is negative at one of the probe points (cheap refutation, in
    floating point: ``2^x`` at 2^40 is not built exactly; where floats cannot tell, an
    overflow or a value that is not real, the point tells nothing)."""
    if difference.free_symbols - {x}:
        return False
    return any(float_at(difference, {x: sympy.Integer(point)}) < 0 for point in _PROBES)


def _nonnegative_terms(difference: sympy.Expr) -> bool:
    """Whether ``difference`` is a normal form whose terms are all >= 0, so >= 0 for x >= 1
    (x^i and log2(x)^j are), decided without sympy's assumptions."""
    form = normal_form(difference)
    return form is not None and _terms_nonnegative(form)


def _terms_nonnegative(form: NormalForm) -> bool:
    """Whether every coefficient of ``form`` is >= 0 (one in counts: where they are >= 1; a
    Min or Max is not asked of sympy's assumptions, slow and deciding nothing there)."""
    return all(_nonnegative_coefficient(c) for _, c in form.items())


def _nonnegative_coefficient(c: sympy.Expr) -> bool:
    """Whether a normal form's coefficient is >= 0: a number by its sign (no counts to
    floor, no assumptions to ask: the stages of a wake's pipe compare thousands of them)."""
    if c.is_Rational or c.is_Float:
        return bool(c >= 0)
    return nonnegative_on_counts(c) or (not c.has(sympy.Min, sympy.Max) and bool(c.is_nonnegative))


@functools.lru_cache(maxsize=65536)
def _dominated(small: sympy.Expr, big: sympy.Expr) -> bool:
    """Whether ``small <= big`` for every x >= 1 (as far as sympy can tell; where a side
    holds a minimum or maximum in x, a wake's, by the difference's terms alone: sympy's
    expansion of such differences took most of a closed form of 100 pipes)."""
    if extremum_in_x(small) or extremum_in_x(big):
        return _below_by_arguments(small, big)
    difference = big - small
    if _nonnegative_terms(difference):
        return True
    if difference.has(sympy.Min, sympy.Max) or _violated_somewhere(difference):
        return False  # Min/Max (a pool's capped dispatch): sympy's assumptions are slow and decide nothing
    shifted = difference.xreplace({x: _SHIFT + 1}).rewrite(sympy.log)
    return bool(sympy.expand(shifted).is_nonnegative)


@functools.lru_cache(maxsize=65536)
def _below_by_arguments(small: sympy.Expr, big: sympy.Expr) -> bool:
    """Whether ``small <= big`` for every x >= 1 where either holds a minimum or maximum in
    x, from their arguments: ``max(a, b) <= c`` where each is, ``a <= min(b, c)`` where it
    is below each, ``min(a, b) <= c`` where one is, ``a <= max(b, c)`` where it is below one;
    else by the difference's terms (:func:`_nonnegative_sum`). Two stages with their wakes
    are so compared clause by clause, where their difference keeps minima no sum cancels
    (a pool around each of 64 pipes kept 23 stages, now 2). Arguments without extrema are
    compared on their terms, not by sympy's assumptions.

    >>> from patternalg.syntax.symbols import x
    >>> stage = lambda s, r: sympy.Min(s + 3000, sympy.Max(s, 2 * s - r), evaluate=False)
    >>> _below_by_arguments(stage(x, 5), stage(2 * x, 5)), _below_by_arguments(stage(2 * x, 5), stage(x, 5))
    (True, False)
    """
    if not (extremum_in_x(small) or extremum_in_x(big)):
        low, high = normal_form(small), normal_form(big)
        if low is not None and high is not None and is_numeric(low) and is_numeric(high):
            return below(low, high)
        return _nonnegative_terms(big - small)
    if isinstance(small, sympy.Max):
        return all(_below_by_arguments(arg, big) for arg in small.args)
    if isinstance(big, sympy.Min):
        return all(_below_by_arguments(small, arg) for arg in big.args)
    if isinstance(small, sympy.Min) and any(_below_by_arguments(arg, big) for arg in small.args):
        return True
    if isinstance(big, sympy.Max) and any(_below_by_arguments(small, arg) for arg in big.args):
        return True
    return _nonnegative_difference(big, small)


def _nonnegative_difference(big: sympy.Expr, small: sympy.Expr) -> bool:
    """:func:`_nonnegative_sum` of ``big - small``, the difference gathered side by side
    (:func:`_split_sum`) instead of built: sympy's subtraction of two stages with their wakes
    took most of a closed form of 32 pipes.

    >>> from patternalg.syntax.symbols import x
    >>> wake = sympy.Min(3000, sympy.Max(0, x - 5, evaluate=False), evaluate=False)
    >>> _nonnegative_difference(3 * x + wake, x + wake / 2), _nonnegative_difference(3 * x, x + wake)
    (True, False)
    """
    high, high_extrema = _split_sum(big)
    low, low_extrema = _split_sum(small)
    if high is None or low is None:
        return _nonnegative_sum(big - small)  # terms no normal form holds: as they cancel in sympy
    coefficients = dict(high_extrema)
    for extremum, coefficient in low_extrema:
        coefficients[extremum] = coefficients.get(extremum, sympy.Integer(0)) - coefficient
    return _nonnegative_parts(high - low, coefficients.items())


def _nonnegative_sum(difference: sympy.Expr) -> bool:
    """Whether ``difference``, a sum holding minima and maxima in x, is >= 0 for every x >= 1
    by its terms alone: its terms in x a normal form with terms >= 0, each other term a
    number >= 0 times a minimum or maximum that is >= 0 (:func:`_nonnegative_extremum`;
    a pipe's work grows by what each stage pays for its wake, ``min(w, max(0, s - r))``).

    >>> from patternalg.syntax.symbols import x
    >>> wake = sympy.Min(3000, sympy.Max(0, x - 5, evaluate=False), evaluate=False)
    >>> _nonnegative_sum(2 * x + wake / 2), _nonnegative_sum(2 * x - wake)
    (True, False)
    """
    return _nonnegative_parts(*_parts_of_sum(difference))


def _nonnegative_parts(rest: NormalForm | None, extrema: Iterable[tuple[sympy.Expr, sympy.Expr]]) -> bool:
    """Whether a sum of the normal form ``rest`` (None: its terms are none) and of
    ``coefficient * extremum`` for each of ``extrema`` is >= 0 by its parts' shapes."""
    if rest is None:
        return False
    if not all(c == 0 or (c >= 0 and _nonnegative_extremum(e)) for e, c in extrema):
        return False
    return _terms_nonnegative(rest)


def _parts_of_sum(expr: sympy.Expr) -> tuple[NormalForm | None, tuple[tuple[sympy.Expr, sympy.Expr], ...]]:
    """``expr``'s terms without a minimum or maximum in x as a normal form (None: they are
    no normal form), and each other term's extremum with its numeric coefficient."""
    rest: list[sympy.Expr] = []
    extrema: dict[sympy.Expr, sympy.Expr] = {}
    for term in sympy.Add.make_args(expr):
        if extremum_in_x(term):
            coefficient, extremum = term.as_coeff_Mul()
            extrema[extremum] = extrema.get(extremum, sympy.Integer(0)) + coefficient
        else:
            rest.append(term)
    return normal_form(sympy.Add(*rest)), tuple(extrema.items())


#: a stage's parts, once per stage (a maximum's stages are compared pair by pair)
_split_sum = functools.lru_cache(maxsize=65536)(_parts_of_sum)


def _nonnegative_extremum(expr: sympy.Expr) -> bool:
    """Whether ``expr`` is >= 0 for every x >= 1 by its shape: a maximum with an argument
    that is, a minimum whose arguments all are, a normal form whose terms are."""
    if isinstance(expr, sympy.Max):
        return any(_nonnegative_extremum(arg) for arg in expr.args)
    if isinstance(expr, sympy.Min):
        return all(_nonnegative_extremum(arg) for arg in expr.args)
    return not extremum_in_x(expr) and _nonnegative_terms(expr)


def _undominated(args: Sequence[T], below: Callable[[T, T], bool], settled: int = 0) -> list[T]:
    """The arguments of a maximum that another argument is not ``below`` (ties keep the first).

    With ``settled``, the first ``settled`` arguments are a maximum's already, and so are the
    others: no argument is below another of its own side, and only pairs across the sides
    are compared (a pipe of pools nested 1,000 deep compared every pair of its stages at
    every level).
    """
    count = len(args)

    def others(i: int) -> range:
        if not settled:
            return range(count)
        return range(settled, count) if i < settled else range(settled)

    return [
        arg
        for i, arg in enumerate(args)
        if not any(
            below(arg, args[j]) and (j < i or not below(args[j], arg)) for j in others(i) if j != i
        )
    ]


def _exact_max(a: sympy.Expr, b: sympy.Expr) -> tuple[sympy.Expr, int | None]:
    """Pointwise maximum; arguments that are never the maximum for x >= 1 are dropped (each
    side's against the other's: a side's own were compared where it was built)."""
    own = dict.fromkeys(sympy.Max.make_args(a))
    args = list(dict.fromkeys([*own, *sympy.Max.make_args(b)]))
    result = _symbolic_max(_undominated(args, _dominated, len(own)))
    if result == a:
        return a, 0
    if result == b:
        return b, 1
    return result, None


def exact_min(a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
    """Pointwise minimum for x >= 1: the one argument where it is below the other at every
    such x (their difference's terms all >= 0), else ``Min(a, b)``; in symbols other than
    x, ``Min``.

    >>> from patternalg.syntax.symbols import x
    >>> exact_min(sympy.Integer(800), 900 + x), exact_min(sympy.Integer(800), 536 * x)
    (800, Min(800, 536*x))
    """
    if (a.free_symbols | b.free_symbols) <= {x}:  # on the terms only: this runs per pool
        for small, big in ((a, b), (b, a)):
            if _nonnegative_terms(big - small):
                return small
    # undecided: sympy's own search for a redundant argument takes seconds and finds none
    return sympy.Min(a, b, evaluate=False)


def m_min(left: Value, right: Value) -> Value:
    """Pointwise minimum for x >= 1 (a pool's capped dispatch): of numeric normal forms and
    maxima of them, the clauses not above another everywhere, one flat :class:`Minimum` if
    more than one; otherwise :func:`exact_min` of the expressions.

    >>> from patternalg.syntax.symbols import x
    >>> m_min(normal_form(x + 900), normal_form(x * 0 + 800))
    NormalForm(800)
    >>> m_min(normal_form(536 * x - 612), normal_form(x * 0 + 800))
    Minimum(Min(800, 536*x - 612))
    """
    clauses = _clauses(left), _clauses(right)
    if clauses[0] is not None and clauses[1] is not None:
        found = [*clauses[0], *clauses[1]]
        if all(is_numeric(form) for clause in found for form in _forms(clause) or ()):
            return _minimum(found)
    expr = exact_min(as_expr(left), as_expr(right))
    form = normal_form(expr)
    return expr if form is None else form


def _clauses(value: Value) -> tuple[Clause, ...] | None:
    if isinstance(value, NormalForm | Maximum):
        return (value,)
    if isinstance(value, Minimum):
        return value.clauses
    return None


def _clause_pairs(left: Value, right: Value) -> list[tuple[Clause, Clause]] | None:
    """Each clause of ``left`` with each of ``right``: what an operator distributes over."""
    left_clauses, right_clauses = _clauses(left), _clauses(right)
    if left_clauses is None or right_clauses is None:
        return None
    if len(left_clauses) * len(right_clauses) > MAX_MINIMUM_CLAUSES**2:
        return None
    return [(a, b) for a in left_clauses for b in right_clauses]


def _few_clauses(value: Value) -> Value | None:
    """``value`` unless it is a minimum of more than :data:`MAX_MINIMUM_CLAUSES` clauses
    (distributed further, a pipe of k stages that each pay a wake is one of 2^k)."""
    if isinstance(value, Minimum) and len(value.clauses) > MAX_MINIMUM_CLAUSES:
        return None
    return value


def _clause_below(small: Clause, big: Clause) -> bool:
    """Whether ``small <= big`` for every x >= 1: each form of ``small`` below one of ``big``."""
    big_forms = _forms(big) or ()
    return all(any(_form_below(f, g) for g in big_forms) for f in _forms(small) or ())


def _minimum(values: Sequence[Value]) -> Value:
    """The minimum of ``values``: the clauses no other clause is below, one :class:`Minimum`
    if more than one (a sympy ``Min`` if a value is neither a form nor a maximum of forms)."""
    unique: dict[Clause, None] = {}
    for value in values:
        clauses = _clauses(value)
        if clauses is None:
            return sympy.Min(*map(as_expr, values), evaluate=False)
        unique.update(dict.fromkeys(clauses))
    kept = _undominated(list(unique), lambda clause, other: _clause_below(other, clause))
    return kept[0] if len(kept) == 1 else Minimum(tuple(kept))


def _form_below(small: NormalForm, big: NormalForm) -> bool:
    """Whether ``small <= big`` for every x >= 1: on the terms if the coefficients are numbers."""
    return _form_below_on(small, big, current_counts())


@functools.lru_cache(maxsize=65536)
def _form_below_on(small: NormalForm, big: NormalForm, counts: Floors) -> bool:
    if is_numeric(small) and is_numeric(big):
        return below(small, big)
    difference = big - small
    if is_numeric(difference):
        return nonnegative(difference)
    if refuted_by_samples(small, big):
        return False
    if _terms_nonnegative(difference):
        return True
    if _has_min_max(difference):
        return False  # Min/Max of p and phi: sympy's assumptions are slow and decide nothing
    return _dominated(small.to_expr(), big.to_expr())


def _pointwise_maxima(forms: list[NormalForm], settled: int = 0) -> list[NormalForm]:
    """The forms of a pointwise maximum that can be the maximum somewhere for x >= 1: those no
    other form is above, then (numeric ones) those not below the rest taken together
    (``settled``: as :func:`_undominated` says)."""
    kept = _undominated(forms, _form_below, settled)
    for form in list(kept):
        others = [other for other in kept if other is not form]
        if len(others) > 1 and all(map(is_numeric, kept)) and below_the_rest(form, others):
            kept = others
    return kept


def _maximum(kept: list[NormalForm]) -> NormalForm | Maximum:
    """The maximum of stages none of the others is above (one: itself), at most
    :data:`MAX_MAXIMUM_STAGES` of them."""
    if len(kept) > MAX_MAXIMUM_STAGES:
        raise EvaluationError(
            f"the closed form is a maximum of more than {MAX_MAXIMUM_STAGES} stages that "
            "cannot be ordered (nested pipes whose stages cross as a free count varies keep a "
            f"stage per level); bind the counts, e.g. {at_text('n=2')}"
        )
    return kept[0] if len(kept) == 1 else Maximum(tuple(kept))


def _has_min_max(form: NormalForm) -> bool:
    return any(c.has(sympy.Min, sympy.Max) for _, c in form.items())


def _grows_no_faster(small: NormalForm, big: NormalForm) -> bool:
    return _grows_no_faster_on(small, big, current_counts())


@functools.lru_cache(maxsize=65536)
def _grows_no_faster_on(small: NormalForm, big: NormalForm, counts: Floors) -> bool:
    order = compare_normal_forms(big, small)
    return order is not None and order >= 0


def _forms(value: Value) -> tuple[NormalForm, ...] | None:
    if isinstance(value, NormalForm):
        return (value,)
    if isinstance(value, Maximum):
        return value.forms
    return None


def _forms_max(
    left: tuple[NormalForm, ...], right: tuple[NormalForm, ...], semantics: Semantics
) -> tuple[Value, int | None]:
    """The maximum of stages held as normal forms: the stages no other stage beats."""
    stages = list(dict.fromkeys(left + right))
    settled = len(dict.fromkeys(left))  # each side a stage or a maximum already
    if semantics.pointwise:
        kept = _pointwise_maxima(stages, settled)
    else:
        kept = _undominated(stages, _grows_no_faster, settled)
    result = _maximum(kept)
    if set(kept) == set(left):
        return result, 0
    if set(kept) == set(right):
        return result, 1
    return result, None


def m_pipe(
    left: Value, right: Value, semantics: Semantics = Semantics.ASYMPTOTIC
) -> tuple[Value, int | None]:
    """Paper 001, eq. (4): M[pipe(s1, s2)] = max(M[s1], M[s2]), and the bottleneck stage.

    The bottleneck is 0 (left), 1 (right) or None when the maximum stays symbolic. Stages
    held as normal forms are ordered on their terms (no sympy): by growth under asymptotic
    semantics, pointwise for x >= 1 under exact semantics; stages that cannot be ordered
    stay in one flat :class:`Maximum`.

    >>> from patternalg.syntax.symbols import x
    >>> m_pipe(536.185 * x, sympy.Float(5422.97))
    (536.185*x, 0)
    >>> m_pipe(normal_form(536.185 * x), normal_form(sympy.Float(5422.97)), Semantics.EXACT)
    (Maximum(Max(5422.97, 536.185*x)), None)
    """
    left_forms, right_forms = _forms(left), _forms(right)
    if left_forms is not None and right_forms is not None:
        return _forms_max(left_forms, right_forms, semantics)
    pairs = _clause_pairs(left, right) if semantics.pointwise else None
    if pairs is not None:  # max(min(a, b), c) = min(max(a, c), max(b, c))
        maxima = [m_pipe(a, b, semantics) for a, b in pairs]
        winners = {winner for _, winner in maxima}
        winner = winners.pop() if len(winners) == 1 else None
        kept = _few_clauses(_minimum([value for value, _ in maxima]))
        if kept is not None:
            return kept, winner
    a, b = as_expr(left), as_expr(right)
    if semantics.pointwise:
        return _exact_max(a, b)
    return _asymptotic_max(a, b)


def m_mapreduce(
    nodes: sympy.Expr,
    threads: sympy.Expr,
    per_key: sympy.Expr,
    keys: sympy.Expr,
    map_model: Value,
    shuffle_model: sympy.Expr,
    shuffle_keys: sympy.Expr,
    reduce_model: Value,
) -> sympy.Expr:
    """Paper 001, eq. (5): the sum of the map, shuffle and reduce phases.

    x*M[map](1)/(m*n) + M[shuffle_{m,n}^{o}](d(x)) + k(x)*M[reduce](d(x))/(m*n). The shuffle
    model is a model in x (elements per key), m, n and o (keys); paper 001, eqs. (6) and (7)
    are this equation for GrPPi and for Hadoop.
    """
    map_model, reduce_model = as_expr(map_model), as_expr(reduce_model)
    workers = sympy.Mul(nodes, threads)
    # term by term: a nested mapReduce's M[map](1) is a sum, and x*(a + b)/(m*n) kept whole
    # nests one level deeper per mapReduce (200 deep: a minute, then a RecursionError)
    map_phase = sympy.Add(
        *(
            sympy.Mul(x, term, sympy.Pow(workers, -1))
            for term in sympy.Add.make_args(map_model.xreplace({x: sympy.Integer(1)}))
        )
    )
    shuffle_phase = shuffle_model.xreplace(
        {m_symbol: nodes, n_symbol: threads, o_symbol: shuffle_keys, x: per_key}
    )
    reduce_phase = sympy.Mul(keys, reduce_model.xreplace({x: per_key}), sympy.Pow(workers, -1))
    return sympy.Add(map_phase, shuffle_phase, reduce_phase)


# --- the evaluator ---------------------------------------------------------------------------
def _value(expr: sympy.Expr) -> Value:
    """A model as the evaluator holds it: its normal form if it has one (keeping ``expr``)."""
    normal = normal_form(expr)
    return expr if normal is None else normal


def _bind(expr: sympy.Expr, bindings: Mapping[sympy.Symbol, sympy.Expr]) -> sympy.Expr:
    """``expr.xreplace(bindings)``, but a Min/Max whose arguments change order with the other
    symbols stays unevaluated: sympy would spend some 70 ms per Max to find that out."""
    if expr in bindings:
        return bindings[expr]
    if not expr.args or not expr.free_symbols & bindings.keys():
        return expr
    args = [_bind(a, bindings) for a in expr.args]
    if isinstance(expr, sympy.Min | sympy.Max) and all(
        signs_differ(a, b) for i, a in enumerate(args) for b in args[i + 1 :]
    ):
        return expr.func(*args, evaluate=False)
    return expr.func(*args)


def _atom_model(atom: Atom, library: Mapping[str, AtomicModel]) -> tuple[sympy.Expr, AtomicModel]:
    model = library[atom.name]
    if not atom.annotations:
        return model.expr, model
    names = {s.name for s in model.expr.free_symbols}
    bindings = {}
    for key, value in atom.annotations:
        if key not in names and key not in RESOURCE_SYMBOLS:
            raise EvaluationError(
                f"annotation {key}= on {atom.name}: its model has no symbol {key} "
                f"(its symbols: {', '.join(sorted(names)) or 'none'})"
            )
        bindings[symbol(key)] = value
    return substitute(model.expr, bindings, str(atom), _bind), model


def shuffle_model(
    term: MapReduce, library: Mapping[str, AtomicModel]
) -> tuple[sympy.Expr, sympy.Expr, str]:
    if term.shuffle is None:
        return library["shuffle"].expr, term.keys, "shuffle"
    sh = term.shuffle
    if sh.nodes != term.nodes or sh.threads != term.threads:
        raise EvaluationError(
            f"{sh}: the shuffle's m,n must be the mapReduce's "
            f"{{{format_expr(term.nodes)},{format_expr(term.threads)}}}"
        )
    return library[sh.name].expr, sh.keys, sh.name


def leaf_model(
    node: Term, library: Mapping[str, AtomicModel], metavariables: Mapping[str, sympy.Expr] | None
) -> sympy.Expr:
    """The model of a leaf: an atom's (its annotations bound), or a law's metavariable's."""
    if isinstance(node, Atom):
        return _atom_model(node, library)[0]
    if isinstance(node, Meta) and metavariables is not None and node.name in metavariables:
        return metavariables[node.name]
    raise EvaluationError(
        f"{node} is a metavariable (capitalised names stand for any term in laws); "
        "atom names start with a lowercase letter"
    )
