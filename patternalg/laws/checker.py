"""The checker: prove a law, or search for a counterexample of it.

:func:`check` tries, in order: a symbolic proof (status ``proved``); a search for a
counterexample with hypothesis (none found in N examples: ``no-counterexample``, which is a search, not a proof); for a law that fails
pointwise, the same relation as x -> oo by the limit of the ratio of the two sides
(``holds-asymptotically``, with the pointwise counterexample, or ``refuted``).
The law language is :mod:`patternalg.laws.language`, the built-in laws
:mod:`patternalg.laws.builtin`.

>>> law = parse_law("tpool_2(tpool_3(A)) == tpool_6(A)")
>>> check(law, semantics="asymptotic").status
'proved'
>>> result = check(parse_law("seq(A, B) <= pipe(A, B)"), semantics="exact", examples=50, seed=1)
>>> result.status, result.counterexample.bindings
('refuted', (('A', 'k0'), ('B', 'k0')))
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

import sympy
from hypothesis import HealthCheck, Phase, Verbosity, assume, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

from .._internal.callbacks import ProgressCallback
from .._internal.limits import held_in_full
from ..algebra.bindings import counts
from ..algebra.evaluation import Derivation, evaluate
from ..algebra.machine import MachineSemantics
from ..algebra.normal_forms.normal_form import (
    NormalForm,
    compare,
    compare_normal_forms,
    eventual,
    normal_form,
)
from ..algebra.pointwise import substitute_counts
from ..algebra.render import value_text
from ..algebra.semantics import Semantics
from ..algebra.units import DEFAULT_UNIT, in_one_unit, kind
from ..arguments import as_callback, as_int
from ..errors import EvaluationError
from ..library.model_library import AtomicModel, ModelLibrary
from ..syntax.arith import format_expr
from ..syntax.symbols import log2, x
from ..syntax.terms import Atom, MapReduce, Meta, Pipe, Seq, Term, TPool
from . import strategies as pst
from .builtin import BUILTIN_LAWS, as_law, builtin_law
from .language import Law, parse_law, validate
from .proof import RELATIONS, decide
from .results import RTOL, STATUSES, CheckResult, Counterexample

#: ``check``, and the names this module had before the law language, the built-in laws and the
#: results moved to modules of their own (``patternalg.laws`` exports them all)
__all__ = [
    "check",
    "Law",
    "parse_law",
    "validate",
    "BUILTIN_LAWS",
    "builtin_law",
    "Counterexample",
    "CheckResult",
    "STATUSES",
    "RELATIONS",
]

#: input sizes every drawn instantiation is also checked at
_GRID = (1, 2, 2**10, 2**20, pst.MAX_INPUT_SIZE)
#: how many random PMNF atoms an instantiation may use besides the library's
_GENERATED = 3


# --- numbers --------------------------------------------------------------------------------
_FLOAT_OPS: dict[type, Callable[[list[float]], float]] = {
    sympy.Add: math.fsum,
    sympy.Mul: math.prod,
    sympy.Pow: lambda a: a[0] ** a[1],
    sympy.Max: max,
    sympy.Min: min,
    log2: lambda a: math.log2(a[0]),
    sympy.log: lambda a: math.log(a[0]),
}


def _to_float(expr: sympy.Expr, env: Mapping[sympy.Symbol, float]) -> float:
    """A closed form's value at ``env``, in floats (fast: no ``subs``, no ``lambdify``)."""
    if expr.is_Number:
        return float(expr)
    if expr.is_Symbol:
        return env[expr]
    op = _FLOAT_OPS.get(type(expr))
    if op is None:
        values = {s: sympy.Float(v) for s, v in env.items()}
        return float(expr.xreplace(values).evalf())
    return op([_to_float(a, env) for a in expr.args])


def _holds_at(relation: str, a: Any, b: Any) -> bool:
    """``a relation b`` up to :data:`RTOL` of the larger (doubles, or sympy's decimals)."""
    tolerance = RTOL * max(abs(a), abs(b))
    if relation == "==":
        return bool(abs(a - b) <= tolerance)
    if relation == "<=":
        return bool(a <= b + tolerance)
    if relation == ">=":
        return bool(a >= b - tolerance)
    if relation == "<":
        return bool(a < b - tolerance)
    return bool(a > b + tolerance)


def _largest(expr: sympy.Expr) -> NormalForm | None:
    """The normal form of ``expr`` as x -> oo: of the fastest-growing argument of a maximum."""
    largest = None
    for arg in sympy.Max.make_args(expr):
        form = normal_form(arg)
        if form is None:
            return None
        order = 1 if largest is None else compare_normal_forms(form, largest)
        if order is None:
            return None
        largest = form if order > 0 else largest
    return largest


def _ratio_limit(lhs: sympy.Expr, rhs: sympy.Expr) -> sympy.Expr | None:
    """lim lhs/rhs as x -> oo: read off the leading terms of PMNF shapes (of a maximum's
    fastest-growing argument, of a minimum's slowest), else sympy.limit."""
    lhs, rhs = eventual(lhs), eventual(rhs)
    fl, fr = _largest(lhs), _largest(rhs)
    left, right = (next(f.items(), None) if f is not None else None for f in (fl, fr))
    if left is not None and right is not None:
        (kl, cl), (kr, cr) = left, right
        if kl != kr:
            return sympy.oo if kl > kr else sympy.Integer(0)
        ratio = cl / cr
        near = float(ratio) if ratio.is_Float else math.nan  # inf past a double: 1e300 / 1e-1000
        if math.isfinite(near) and math.isclose(near, round(near), rel_tol=RTOL):
            return sympy.Integer(round(near))  # 2.0000000000000004 -> 2
        return ratio
    try:
        return sympy.limit(lhs / rhs, x, sympy.oo)
    except (NotImplementedError, ValueError, TypeError, ZeroDivisionError):
        return None


def _ratio_text(ratio: sympy.Expr) -> str:
    """A limit of lhs/rhs as a value prints (1.2, not 1.2000000000000002); exact ones
    (``2/3``, ``oo``) as they are."""
    return (value_text(ratio) if ratio.is_Float else None) or format_expr(ratio)


#: a relation read with both sides negated: ``a <= b`` is ``-a >= -b``
_FLIPPED = {"==": "==", "<=": ">=", ">=": "<=", "<": ">", ">": "<"}


def _holds_asymptotically(
    relation: str, lhs: sympy.Expr, rhs: sympy.Expr
) -> tuple[bool | None, sympy.Expr | None]:
    """The relation as x -> oo, and lim lhs/rhs: between sides eventually positive ``==``
    means ratio -> 1, ``<=`` ratio -> at most 1, and so on, and a strict relation with
    ratio -> 1 asks which side is eventually larger; sides eventually negative are negated
    (the relation flipped), sides of opposite signs are ordered by them. None where the
    signs, the limit or the order cannot be read.

    >>> _holds_asymptotically("<=", (10 - x) / 2, 10 - x)
    (False, 1/2)
    >>> _holds_asymptotically(">", 1 + sympy.Max(3 * x, 5), sympy.Max(3 * x, 5))
    (True, 1)
    """
    lhs, rhs = eventual(lhs), eventual(rhs)
    ratio = _ratio_limit(lhs, rhs)
    signs = _eventual_sign(lhs), _eventual_sign(rhs)
    if signs[0] is None or signs[1] is None:
        return None, ratio
    if signs[0] != signs[1] or signs[0] == 0:
        return _satisfied(relation, (signs[0] > signs[1]) - (signs[0] < signs[1])), ratio
    if signs[0] < 0:
        relation, lhs, rhs = _FLIPPED[relation], -lhs, -rhs
    if ratio is None or not ratio.is_extended_nonnegative:
        return None, ratio
    if ratio != 1:
        return _satisfied(relation, 1 if ratio > 1 else -1), ratio
    if relation in ("==", "<=", ">="):
        return True, ratio
    order = compare(lhs, rhs)
    return (None if order is None else _satisfied(relation, order)), ratio


def _satisfied(relation: str, order: int) -> bool:
    """Whether sides ordered by ``order`` (1: lhs larger, 0: alike, -1: smaller) satisfy ``relation``."""
    return order in {"==": (0,), "<=": (-1, 0), ">=": (0, 1), "<": (-1,), ">": (1,)}[relation]


def _eventual_sign(expr: sympy.Expr) -> int | None:
    """The sign of ``expr`` for every large x (1, -1, or 0 for 0), None if not read:
    of its leading term where it is a normal form, else of its limit.

    >>> _eventual_sign(10 - x), _eventual_sign(x - 10), _eventual_sign(sympy.Integer(0))
    (-1, 1, 0)
    """
    if expr == 0:
        return 0
    form = normal_form(expr)
    lead = next(form.items(), None) if form is not None else None
    try:
        value = lead[1] if lead is not None else sympy.limit(expr, x, sympy.oo)
    except (NotImplementedError, ValueError, TypeError, ZeroDivisionError):
        return None
    return 1 if value.is_positive else -1 if value.is_negative else None


# --- the instantiations the search draws ----------------------------------------------------
@dataclass(frozen=True)
class _Case:
    """One drawn instantiation: generated atoms, terms for metavariables, values, an x."""

    library: ModelLibrary
    generated: tuple[AtomicModel, ...]
    bindings: tuple[tuple[str, Term], ...]
    values: tuple[tuple[sympy.Symbol, int], ...]
    x: int


class _Found(Exception):
    """Raised inside the hypothesis test to report a failing instance (and where it fails)."""

    def __init__(self, instance: _Instance, at: int | None) -> None:
        super().__init__(f"{instance.case.bindings} at x = {at}")
        self.instance = instance
        self.at = at


def _free_prefix(library: Mapping[str, AtomicModel]) -> str:
    prefix = "k"
    while any(name.startswith(prefix) for name in library):
        prefix += "k"
    return prefix


#: the most threads a drawn pool has (besides, on a machine of more cores, about as many)
_POOL = 8


def _cases(
    law: Law, library: ModelLibrary, symbols: tuple[sympy.Symbol, ...], cores: int | None = None
) -> st.SearchStrategy[_Case]:
    """Instantiations: terms over up to three generated PMNF atoms and the library's atoms in x.

    The terms are drawn first and only the generated atoms they use get a model drawn,
    which saves most of hypothesis's drawing time. A pool has up to 8 threads; on a machine
    of more ``cores``, pools of about as many threads are drawn too (where the cores bound a
    term: a 16-core machine's laws were hardly tried there).
    """
    metas = law.metavariables()
    prefix = _free_prefix(library)
    generated_names = [f"{prefix}{i}" for i in range(_GENERATED)] if metas else []
    usable = [
        name
        for name, model in library.items()
        if model.expr.free_symbols <= {x} and model.unit == DEFAULT_UNIT
    ]
    counts = pst.thread_counts(_POOL)
    if cores is not None and cores > _POOL:
        counts = st.one_of(counts, st.sampled_from(sorted({max(1, cores - 1), cores, cores + 1, 2 * cores})).map(sympy.Integer))
    atoms = generated_names + usable  # none where no metavariable needs a term drawn
    term = pst.terms(max_depth=3, atoms=atoms, mapreduce=False, annotations=False, counts=counts) if atoms else st.nothing()
    model = pst.models()
    values = _symbol_values(law, symbols)
    size = pst.input_sizes()

    @st.composite
    def draw_case(draw: Callable[..., Any]) -> _Case:
        bindings = tuple((meta, draw(term)) for meta in metas)
        used = {n.name for _, t in bindings for n in t.walk() if isinstance(n, Atom)}
        generated = tuple(
            AtomicModel(name, draw(model), source="generated")
            for name in generated_names
            if name in used
        )
        return _Case(
            library.merged(generated) if generated else library,
            generated,
            bindings,
            draw(values),
            draw(size),
        )

    return draw_case()


#: the values a law's symbol is drawn from: the first this many valid ones from 1 up
_VALUES = 64


def _valid_counts(law_counts: Collection[sympy.Expr], values: Mapping[sympy.Symbol, int]) -> bool:
    """Whether ``values`` make every count of a law (``law_counts``, :func:`_law_counts`) a
    positive integer (``tpool_{k-2}`` takes k >= 3, ``tpool_{k/2}`` an even k): a law is
    about pools that exist."""
    for count in law_counts:
        value = count.xreplace(values)
        if value.free_symbols or not (value.is_integer and value.is_positive):
            return False
    return True


def _law_counts(law: Law) -> frozenset[sympy.Expr]:
    """The distinct counts of ``law``'s two sides (a law over ``tpool_n`` nested 10,000 deep
    has one: each candidate value was checked against every pool, 1.3 million times).

    >>> sorted(map(str, _law_counts(parse_law("tpool_n(tpool_n(tpool_{n+1}(A))) >= tpool_2(A)"))))
    ['2', 'n', 'n + 1']
    """
    return frozenset(count for side in (law.lhs, law.rhs) for _, count in counts(side))


def _symbol_values(law: Law, symbols: tuple[sympy.Symbol, ...]) -> st.SearchStrategy[tuple[tuple[sympy.Symbol, int], ...]]:
    """Values of ``symbols`` (counts and the atoms' other symbols) that make every count
    of ``law`` a positive integer: for one symbol, the first :data:`_VALUES` such values;
    for several, integers from 1 to 64 filtered."""
    law_counts = _law_counts(law)
    if len(symbols) == 1:
        (only,) = symbols
        valid = (v for v in range(1, 16 * _VALUES) if _valid_counts(law_counts, {only: sympy.Integer(v)}))
        found = list(itertools.islice(valid, _VALUES))  # the first ones: no more checked
        if not found:
            raise _no_valid_counts(law, f"no value of {only} from 1 to {16 * _VALUES} makes")
        return st.sampled_from(found).map(lambda v: ((only, v),))
    drawn = st.tuples(*(st.integers(1, _VALUES) for _ in symbols)).map(lambda vs: tuple(zip(symbols, vs, strict=True)))
    return drawn.filter(lambda pairs: _valid_counts(law_counts, {s: sympy.Integer(v) for s, v in pairs}))


def _no_valid_counts(law: Law, none: str) -> EvaluationError:
    """The error of a law whose counts no values drawn make whole: ``none`` says which."""
    named = dict.fromkeys(what for side in (law.lhs, law.rhs) for what, count in counts(side) if count.free_symbols)
    return EvaluationError(
        f"{law}: {none} every count a whole number >= 1 ({'; '.join(named)}), so it has no instance "
        "to check; valid: counts whole for some values, e.g. tpool_{n/2} (n even) or tpool_{n+1}"
    )


@dataclass
class _Instance:
    """A case evaluated: both sides' closed forms with the counts bound."""

    case: _Case
    lhs: sympy.Expr
    rhs: sympy.Expr
    models: dict[str, sympy.Expr]
    undecided: bool = False  #: some pipe fell back to the pointwise Max

    def counterexample(self, at: int | None, ratio: sympy.Expr | None) -> Counterexample:
        used = {n.name for _, t in self.case.bindings for n in t.walk() if isinstance(n, Atom)}
        sides = _sides_at(self.lhs, self.rhs, at) if at is not None else None
        lhs, rhs = _in_doubles(sides) if sides is not None else (None, None)
        return Counterexample(
            bindings=tuple((k, str(t)) for k, t in self.case.bindings),
            atoms=tuple(
                (m.name, format_expr(m.expr)) for m in self.case.generated if m.name in used
            ),
            models=tuple((k, format_expr(v)) for k, v in self.models.items()),
            symbols=tuple((s.name, v) for s, v in self.case.values),
            x=at,
            lhs=lhs,
            rhs=rhs,
            ratio_limit=None if ratio is None else _ratio_text(ratio),
        )


#: a side without metavariables evaluated once per search: its closed form and whether a
#: pipe in it kept the pointwise Max, by side and the counts bound (a deep side was evaluated
#: again for every example and every step of hypothesis's shrinking: minutes)
_Fixed = dict[tuple[int, tuple[tuple[sympy.Symbol, int], ...]], tuple[sympy.Expr, bool]]


def _instantiate(
    law: Law, case: _Case, semantics: Semantics, fixed: _Fixed | None = None
) -> _Instance:
    """Evaluate both sides with the counts and the symbols of the law's atoms bound first
    (a side without metavariables found in ``fixed`` if given, and kept there)."""
    values = {s: sympy.Integer(v) for s, v in case.values}
    derivation = Derivation()
    models = {
        meta: evaluate(term, case.library, semantics, derivation=derivation)
        for meta, term in case.bindings
    }
    bound = dict(case.bindings)
    sides, undecided = [], bool(derivation.undecided)
    for index, side in enumerate((law.lhs, law.rhs)):
        key = (index, case.values)
        if fixed is not None and key in fixed:
            found, side_undecided = fixed[key]
        else:
            own = Derivation()
            found = evaluate(
                _bound(side if semantics.compositional else _substituted(side, bound), values, case.library),
                case.library,
                semantics,
                metavariables=models,
                derivation=own,
            )
            side_undecided = bool(own.undecided)
            if fixed is not None and not any(isinstance(node, Meta) for node in side.walk()):
                fixed[key] = (found, side_undecided)
        sides.append(found)
        undecided |= side_undecided
    return _Instance(case, sides[0], sides[1], models, undecided)


def _bound(term: Term, values: Mapping[sympy.Symbol, sympy.Expr], library: ModelLibrary) -> Term:
    """``term`` with its counts and annotations at ``values``, and each atom annotated with
    the values of its model's symbols it leaves free: an annotation binds first, so
    ``work[p=2]`` keeps its p and ``work`` takes the law's.

    >>> from patternalg.syntax.parser import parse
    >>> from patternalg.syntax.symbols import symbol
    >>> lib = ModelLibrary.builtin().merged([AtomicModel("work", x / symbol("p"))])
    >>> p, n = symbol("p"), symbol("n")
    >>> _bound(parse("seq(work[p=2], tpool_n(work))"), {p: 4, n: 3}, lib)
    parse('seq(work[p=2], tpool_3(work[p=4]))')
    """

    def annotated(node: Term) -> Term:
        if not isinstance(node, Atom) or node.name not in library:
            return node
        free = sorted(_atom_symbols(node, library) & values.keys(), key=lambda s: s.name)
        return replace(node, annotations=(*node.annotations, *((s.name, values[s]) for s in free)))

    return _leaves_replaced(substitute_counts(term, values), annotated)


def _substituted(term: Term, bindings: Mapping[str, Term]) -> Term:
    """``term`` with its metavariables replaced by the terms they stand for.

    >>> from patternalg.syntax.parser import parse
    >>> _substituted(parse("pipe(A, tpool_2(B))"), {"A": parse("inc"), "B": parse("seq(nop, inc)")})
    parse('pipe(inc, tpool_2(seq(nop, inc)))')
    """
    return _leaves_replaced(term, lambda node: bindings[node.name] if isinstance(node, Meta) else node)


def _leaves_replaced(term: Term, leaf: Callable[[Term], Term]) -> Term:
    """``term`` with each leaf (an atom, a metavariable) replaced by ``leaf`` of it."""
    done: dict[int, Term] = {}
    for node in term.post_order():
        kids = [done[id(c)] for c in node.children()]
        if isinstance(node, Seq | Pipe):
            done[id(node)] = type(node)(kids[0], kids[1])
        elif isinstance(node, TPool):
            done[id(node)] = TPool(node.count, kids[0])
        elif isinstance(node, MapReduce):
            done[id(node)] = replace(node, map=kids[0], reduce=kids[1])
        else:
            done[id(node)] = leaf(node)
    return done[id(term)]


def _atom_symbols(atom: Atom, library: Mapping[str, AtomicModel]) -> set[sympy.Symbol]:
    """The symbols other than x that ``atom``'s model keeps once its annotations bind theirs
    (and those their values name): ``work[p=2]`` has none, ``work[p=q]`` has q."""
    bound = dict(atom.annotations)
    kept = {s for s in library[atom.name].expr.free_symbols if s.name not in bound}
    return (kept | {s for v in bound.values() for s in v.free_symbols}) - {x}


def _pointwise_failure(law: Law, instance: _Instance) -> int | None:
    """The first x (drawn, then a grid) where the relation fails; points without a finite
    real value on both sides (a user model like ``sqrt(x - 5)`` at x = 1) are skipped."""
    for at in (instance.case.x, *_GRID):
        sides = _sides_at(instance.lhs, instance.rhs, at)
        if sides is not None and not _holds_at(law.relation, *sides):
            return at
    return None


def _sides_at(lhs: sympy.Expr, rhs: sympy.Expr, at: int) -> tuple[Any, Any] | None:
    """Both sides at x = ``at``: in floats, or exactly (sympy's decimals, of any exponent)
    where a double does not hold them (a pool 700 deep is 1e-332 ns: 0.0 on both sides);
    None without a finite real value on both.

    >>> tiny = sympy.Float(3) ** -700 * x
    >>> _sides_at(tiny, tiny / 3, 2)
    (2.07...e-334, 6.90...e-335)
    >>> _sides_at(x, 2 * x, 2)
    (2.0, 4.0)
    """
    env = {x: float(at)}
    try:
        values = _to_float(lhs, env), _to_float(rhs, env)
    except (OverflowError, ValueError, ZeroDivisionError, TypeError):
        values = None
    if values is not None and _held(values):
        return values
    try:
        exact = tuple(side.xreplace({x: sympy.Integer(at)}).evalf() for side in (lhs, rhs))
    except (ValueError, ZeroDivisionError, TypeError):
        return None
    return exact if all(v.is_number and v.is_real and v.is_finite for v in exact) else None


def _in_doubles(values: tuple[Any, Any]) -> tuple[float, float] | tuple[None, None]:
    """Both sides as doubles where a double holds each (0 only where it is 0: ``log2(x)`` at
    x = 1, not 1e-400), else None for both."""
    doubles = float(values[0]), float(values[1])
    if all(v == 0 or held_in_full(d) for v, d in zip(values, doubles, strict=True)):
        return doubles
    return None, None


def _held(values: tuple[Any, Any]) -> bool:
    """Whether two values are doubles a comparison can trust: finite, each 0 or normal, not
    both 0 (a value below a double's range reads as 0, or as a subnormal of few digits)."""
    return any(v != 0.0 for v in values) and all(
        isinstance(v, float) and (v == 0.0 or held_in_full(v)) for v in values
    )


def _search(
    law: Law,
    library: ModelLibrary,
    semantics: Semantics,
    examples: int,
    seed: int,
    asymptotic: bool,
    progress: ProgressCallback = None,
    fixed: _Fixed | None = None,
) -> tuple[_Found | None, int]:
    """Run hypothesis on the law: the shrunk failure (if any) and the examples tried until
    found; ``progress(tried, examples)`` after each example; the sides without
    metavariables evaluated once, in ``fixed``."""
    symbols = _other_symbols(law, library)
    tried = [0, False, 0]  # examples tried, whether one failed, instances drawn

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=False,
        phases=(Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
    )
    @hypothesis_seed(seed)
    @given(_cases(law, library, symbols, semantics.machine.cores if isinstance(semantics, MachineSemantics) else None))
    def run(case: _Case) -> None:
        tried[2] += 1
        instance = _instantiate(law, case, semantics, fixed)
        # an asymptotic pipe that could not order its stages kept the pointwise Max: that
        # instance would test the exact semantics, so it is not an example of this one
        assume(not (instance.undecided and semantics is Semantics.ASYMPTOTIC))
        if not tried[1]:
            tried[0] += 1
            if progress is not None:
                progress(min(tried[0], examples), examples)
        if asymptotic:
            holds = _holds_asymptotically(law.relation, instance.lhs, instance.rhs)[0]
            assume(holds is not None)  # neither a failure nor an instance that holds
            if not holds:
                tried[1] = True
                raise _Found(instance, _pointwise_failure(law, instance))
            return
        at = _pointwise_failure(law, instance)
        if at is not None:
            tried[1] = True
            raise _Found(instance, at)

    try:
        run()
    except _Found as found:
        return found, tried[0]
    except Unsatisfiable:
        if not tried[2]:  # no drawn values made the counts whole
            names = ", ".join(s.name for s in symbols)
            raise _no_valid_counts(law, f"none of the values of {names} from 1 to {_VALUES} drawn makes") from None
        # every drawn instance was undecidable; ``tried`` says how many were checked
    return None, int(tried[0])


def _other_symbols(law: Law, library: ModelLibrary) -> tuple[sympy.Symbol, ...]:
    """Counts of the law and the symbols other than x its atoms' models keep once their
    annotations bind theirs, sorted by name."""
    found = set(law.count_symbols())
    for node in law._nodes:  # a mapReduce's d and k may name symbols of their own
        if isinstance(node, MapReduce):
            found |= (node.per_key.free_symbols | node.keys.free_symbols) - {x}
        elif isinstance(node, Atom):
            found |= _atom_symbols(node, library)
    return tuple(sorted(found, key=lambda s: s.name))


# --- the proof ------------------------------------------------------------------------------
def _bounded_by_exact(law: Law) -> bool:
    """Whether an asymptotic proof of ``law`` may be its exact one: its larger side has no
    pipe and its smaller side has one (and no mapReduce, whose parts are read elsewhere).

    Under either semantics a pipe's model is, at each x, one of its stages' or their
    maximum; seq and tpool are monotone. So a side's asymptotic model is at most its exact
    one (the pointwise maximum) everywhere, and a side without a pipe has one model. Then
    ``exact(small) <= big`` proves ``asymptotic(small) <= big``, for a pipe of any depth
    whose stages no growth order can rank (unknown A and B).
    """
    if law.relation == "==" or law.has_mapreduce():
        return False
    small, big = (law.lhs, law.rhs) if law.relation in ("<=", "<") else (law.rhs, law.lhs)
    return not _has_pipe(big) and _has_pipe(small)


def _has_pipe(term: Term) -> bool:
    return any(isinstance(node, Pipe) for node in term.walk())


def _prove(law: Law, library: ModelLibrary, semantics: Semantics) -> bool:
    """Instantiate metavariables with symbolic models and decide with sympy.

    Under ``exact`` every operator but mapReduce is pointwise, so a metavariable's model
    at a given x is just a positive number: a positive symbol (nonnegative for a strict
    law: ``qsort`` is 0 at x = 1, where ``tpool_2(qsort) < qsort`` fails). Under ``asymptotic`` a pipe
    compares growth in x, so metavariables become unknown positive functions A(x); a
    proof counts only if no pipe fell back to the pointwise Max (the exact semantics),
    or if the exact semantics bounds the asymptotic one (:func:`_bounded_by_exact`).
    """
    if semantics is Semantics.ASYMPTOTIC and _bounded_by_exact(law):
        if _prove(law, library, Semantics.EXACT):
            return True
    metas = law.metavariables()
    if metas and not semantics.compositional:
        return False  # a metavariable is any term, not a model: only the search can tell
    pointwise = semantics is Semantics.EXACT and not law.has_mapreduce()
    # a model is 0 where its logarithm is (qsort at x = 1): a strict law must hold there too
    sign = {"nonnegative": True} if law.relation in ("<", ">") else {"positive": True}
    plain = {name: sympy.Symbol(f"_{name}", **sign) for name in metas}
    if pointwise:
        stand_ins: dict[str, sympy.Expr] = dict(plain)
    else:
        stand_ins = {name: sympy.Function(f"_{name}", **sign)(x) for name in metas}
    if law.has_mapreduce() and metas:
        return False  # mapReduce evaluates its parts at other points than x
    # the record of every step is only asked whether a pipe fell back to the Max
    derivation = None if pointwise else Derivation()
    try:
        sides = [
            evaluate(s, library, semantics, metavariables=stand_ins, derivation=derivation)
            for s in (law.lhs, law.rhs)
        ]
    except EvaluationError:
        return False
    if derivation is not None and derivation.undecided:
        return False
    back = {stand_ins[name]: plain[name] for name in metas}
    lhs, rhs = (side.xreplace(back) for side in sides)
    return decide(lhs, rhs, law.relation, counts=law.count_symbols())


# --- the checker ----------------------------------------------------------------------------
def _in_unit(library: ModelLibrary, unit: str, names: tuple[str, ...] | None = None) -> ModelLibrary:
    """The library with every model of ``unit``'s kind in ``unit`` (of the atoms ``names``, if
    given): a law's sides are compared in one unit, a time's in ns, the generated atoms'.
    Atoms of other kinds stay; instances never draw them. Only a unit other than ns asks pint
    (seconds to load)."""
    chosen = library.values() if names is None else (library[name] for name in names)
    moved = [m.name for m in chosen if m.unit != unit and kind(m.unit) == kind(unit)]
    if not moved:
        return library
    converted, _ = in_one_unit([Atom(name) for name in moved], library, unit)
    return library.merged(converted[name] for name in moved)


def check(
    law: Law | str,
    library: ModelLibrary | None = None,
    semantics: Semantics | str = Semantics.ASYMPTOTIC,
    *,
    examples: int = 100,
    seed: int = 0,
    progress: ProgressCallback = None,
) -> CheckResult:
    """Prove, or search for a counterexample of, ``law`` under ``semantics``.

    Runs are reproducible: the same law, library, semantics, ``examples`` and ``seed``
    give the same result. ``progress(done, examples)`` is called after each example tried.

    >>> check("pipe(A, B) >= tpool_2(seq(A, B))", semantics="exact").status
    'proved'
    >>> check("pipe_le_seq", semantics="exact").law == builtin_law("pipe_le_seq")  # a built-in's id
    True
    """
    started = time.perf_counter()
    law = as_law(law)
    library, seed = ModelLibrary.of(library), as_int(seed, "seed")
    semantics = Semantics.of(semantics)
    as_callback(progress, "progress", "progress(done, total)")
    examples = as_int(examples, "examples", 1)
    unit = validate(law, library)

    def result(status: str, cx: Counterexample | None = None, n: int = 0) -> CheckResult:
        shown = None if cx is None else replace(cx, unit=unit)
        return CheckResult(law, semantics, status, shown, n, time.perf_counter() - started)

    if _prove(law, _in_unit(library, unit, (*law.atoms(), *law.shuffles())), semantics):
        return result("proved")  # the sides' atoms in one unit suffice; the search draws others
    library = _in_unit(library, unit)
    fixed: _Fixed = {}  # the sides without metavariables: the same in both searches
    pointwise, tried = _search(law, library, semantics, examples, seed, False, progress, fixed)
    if pointwise is None:
        return result("no-counterexample", None, tried)
    instance = pointwise.instance
    ok, ratio = _holds_asymptotically(law.relation, instance.lhs, instance.rhs)
    shown = instance.counterexample(pointwise.at, ratio)
    if not ok:
        return result("refuted", shown, tried)
    if law.metavariables() or _other_symbols(law, library):
        found, more = _search(law, library, semantics, examples, seed, True, progress, fixed)
        tried += more
        if found is not None:
            ratio = _holds_asymptotically(law.relation, found.instance.lhs, found.instance.rhs)[1]
            return result("refuted", found.instance.counterexample(found.at, ratio), tried)
    return result("holds-asymptotically", shown, tried)
