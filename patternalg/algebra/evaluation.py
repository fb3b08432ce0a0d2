"""A term's closed form: the one fold (:mod:`.fold`) over closed forms, whose operators are
paper 001's on normal forms (:mod:`.operators`), combined as a semantics says.

>>> from patternalg.syntax.parser import parse
>>> from patternalg.library.model_library import ModelLibrary
>>> lib = ModelLibrary.builtin()
>>> evaluate(parse("pipe(tpool_4(qsort), inc)"), lib)
258.5425*x*log2(x)
>>> evaluate(parse("tpool_n(qsort)"), lib)
1034.17*x*log2(x)/n
>>> evaluate(parse("pipe(inc, nop)"), lib, Semantics.EXACT)
Max(5422.97, 536.185*x)
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import sympy

from .._internal.caches import Recomputed
from .._internal.surface import at_text
from ..arguments import as_models, as_term, expect, wrong
from ..errors import EvaluationError
from ..syntax.symbols import x
from ..syntax.terms import Atom, MapReduce, Meta, Packed, Pipe, Term, packed, unpacked
from . import operators
from .atomic_model import AtomicModel
from .bindings import as_value, bounded_xreplace, counts
from .fold import Arithmetic, Context, Folded, Plan, fold
from .model_maps import ModelChain
from .normal_forms.counts import counting
from .normal_forms.normal_form import normal_form
from .operators import Value, as_expr, shuffle_model
from .semantics import CORES, CORES_NAME, Semantics

__all__ = ["ClosedForms", "Derivation", "Step", "evaluate", "closed_form", "refused_closed_form", "sub_models", "sub_values"]


def _value(expr: sympy.Expr) -> Value:
    """A model as the evaluator holds it: its normal form if it has one (keeping ``expr``)."""
    normal = normal_form(expr)
    return expr if normal is None else normal


class ClosedForms(Arithmetic[Value]):
    """The arithmetic of closed forms: normal forms where they exist (sums and quotients of
    normal forms stay normal forms), a :class:`~.normal_forms.maximum.Maximum` for stages that
    cannot be ordered, else sympy; x stays free, so a mapReduce's parts are folded as
    functions of x and then taken at their sizes."""

    symbolic = True

    def __init__(self, semantics: Semantics, where: str = "at the point") -> None:
        self.semantics = semantics
        self.where = where  #: the point, for an error: a value too large to build there

    def leaf(self, expr: sympy.Expr, context: Mapping[sympy.Symbol, Value]) -> Value:
        bound = {s: as_expr(context[s]) for s in expr.free_symbols if s in context}
        return _value(bounded_xreplace(expr, bound, self.where) if bound else expr)

    def add(self, left: Value, right: Value) -> Value:
        return operators.m_seq(left, right, self.semantics)

    def divide(self, body: Value, count: Value) -> Value:
        return operators.m_tpool(as_expr(count), body, self.semantics)

    def larger(self, left: Value, right: Value) -> tuple[Value, int | None]:
        return operators.m_pipe(left, right, Semantics.EXACT)

    def smaller(self, left: Value, right: Value) -> Value:
        return operators.m_min(left, right)

    def multiply(self, left: Value, right: Value) -> Value:
        return _value(as_expr(left) * as_expr(right))

    def constant(self, value: Value) -> float | None:
        expr = as_expr(value)
        return float(expr) if expr.is_number else None

    def dominant(self, left: Value, right: Value) -> tuple[Value, int | None]:
        """The stage with the worse O-scaling in x (the paper's pipe)."""
        return operators.m_pipe(left, right, Semantics.ASYMPTOTIC)

    def sized(self, context: Context[Value], size: Value) -> Context[Value]:
        # x bound, or a size that is a number (the map at 1): the part runs at its size, its
        # pipes comparing numbers (at 1 the asymptotically larger stage may be the smaller);
        # x free: the part is a function of x ...
        return {**context, x: size} if x in context or as_expr(size).is_number else context

    def resized(self, value: Value, size: Value) -> Value:
        # ... taken at its size
        return _value(bounded_xreplace(as_expr(value), {x: as_expr(size)}, self.where))


@dataclass(frozen=True)
class Step(Recomputed):
    """One line of a derivation: a sub-term, its model, and what was decided there."""

    term: Term
    value: Value  #: the model as the evaluator held it
    depth: int
    note: str = ""

    @functools.cached_property
    def model(self) -> sympy.Expr:
        """The model as a sympy expression, built on first use (``--explain`` shows it)."""
        return as_expr(self.value)


@dataclass
class Derivation:
    """The record of an evaluation, for ``--explain``: steps in pre-order."""

    steps: list[Step] = field(default_factory=list)
    atoms: dict[str, AtomicModel] = field(default_factory=dict)
    undecided: int = 0

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled with its steps' sub-terms in one flat tuple: each pickled alone, a
        derivation of a term n deep pickled n^2 nodes (68 MB and two minutes at 2,000)."""
        steps = tuple((s.value, s.depth, s.note) for s in self.steps)
        return _derivation, (packed(s.term for s in self.steps), steps, self.atoms, self.undecided)


def _derivation(
    terms: Packed, steps: tuple[tuple[Any, int, str], ...], atoms: dict[str, AtomicModel], undecided: int
) -> Derivation:
    """The derivation :meth:`Derivation.__reduce__` pickled."""
    return Derivation([Step(t, *s) for t, s in zip(unpacked(terms), steps, strict=True)], atoms, undecided)




def evaluate(
    term: Term | str,
    library: Mapping[str, AtomicModel],
    semantics: Semantics | str = Semantics.ASYMPTOTIC,
    *,
    derivation: Derivation | None = None,
    metavariables: Mapping[str, sympy.Expr] | None = None,
) -> sympy.Expr:
    """The closed-form model M[term] as a sympy expression in x (and other symbols).

    ``metavariables`` gives models for the metavariables of a law (``A``, ``B``);
    ``derivation``, if given, is filled with every sub-term's model (for ``--explain``).
    Nothing recurses on the depth of the term.
    """
    term, library = as_term(term), as_models(library)
    models = _metavariable_models(metavariables)
    semantics = Semantics.of(semantics)
    return as_expr(_recorded(term, library, semantics, models, derivation).value)


#: the most pipes a closed form on a machine with a wake is built for: each stage's wake is
#: a minimum beside its time, which the normal forms order only pairwise, so stages of
#: different levels may all stay in the maximum (2026-12-03, 2 cores, 64 pipes: a chain 0.7 s,
#: right-nested 1.3 s, a pool around each 2 s, a seq around each 8 s; 500 pipes so: a minute)
MOST_WOKEN_PIPES = 64


def refused_closed_form(term: Term, semantics: Semantics) -> str | None:
    """Why ``term``'s closed form under ``semantics`` is not built, or None: more pipes than
    one on a machine with a wake is built for (:data:`MOST_WOKEN_PIPES`); its values at
    points and sizes fold numbers and are built all the same.

    >>> from patternalg.syntax.parser import parse
    >>> from patternalg.algebra.machine import Machine
    >>> term = parse("pipe(" * 65 + "inc" + ", nop)" * 65)
    >>> refused_closed_form(term, Machine(2).semantics) is None
    True
    >>> refused_closed_form(term, Machine(2, wake=9000).semantics)[:71]
    '65 pipes on a machine with a wake: its closed form is built for at most'
    """
    from .machine import MachineSemantics

    if not isinstance(semantics, MachineSemantics) or not semantics.pays_wake():
        return None
    pipes = sum(isinstance(node, Pipe) for node in term.walk())
    if pipes <= MOST_WOKEN_PIPES:
        return None
    return (
        f"{pipes} pipes on a machine with a wake: its closed form is built for at most "
        f"{MOST_WOKEN_PIPES} (each stage's wake is a minimum the normal forms order only pairwise); "
        "eval --at, sweep and validate give its values, and a machine file without its wake the closed form"
    )


def _metavariable_models(value: Any) -> Mapping[str, sympy.Expr] | None:
    """``evaluate``'s ``metavariables``: None, or a mapping of names to models, each an
    expression, its text or a number (``{"A": "2*x"}``, ``{"A": 1}``).

    >>> _metavariable_models({"A": "2*x", "B": 1})
    {'A': 2*x, 'B': 1}
    """
    if value is None:
        return None
    what = "a mapping of metavariable names ('A') to models (an expression, its text such as '2*x', or a number)"
    if not isinstance(value, Mapping):
        raise wrong("metavariables", what, value)
    models = {}
    for name, model in value.items():
        expect(name, str, "metavariables key", "a metavariable's name such as 'A'")
        if not isinstance(model, sympy.Expr):
            model = as_value(expect(model, (numbers.Real, str), f"metavariables[{name!r}]", "a model: an expression, its text such as '2*x', or a number"))
        models[name] = model
    return models


def closed_form(
    term: Term, library: Mapping[str, AtomicModel], semantics: Semantics, derivation: Derivation | None = None
) -> tuple[sympy.Expr, int]:
    """The closed-form model of ``term`` (as :func:`evaluate`) and how many of its pipes could
    not be decided (their maximum kept symbolic); ``derivation``, if given, is filled with every
    sub-term's model from the same fold (``eval --explain`` folds once, not twice).

    >>> from patternalg.library.model_library import ModelLibrary
    >>> from patternalg.syntax.parser import parse
    >>> closed_form(parse("pipe(qsort, inc)"), ModelLibrary.builtin(), Semantics.of("asymptotic"))
    (1034.17*x*log2(x), 0)
    """
    found = _recorded(term, library, semantics, None, derivation)
    undecided = sum(1 for node in term.walk() if isinstance(node, Pipe) and found.winners.get(id(node)) is None)
    return as_expr(found.value), undecided


def _recorded(
    term: Term,
    library: Mapping[str, AtomicModel],
    semantics: Semantics,
    metavariables: Mapping[str, sympy.Expr] | None,
    derivation: Derivation | None,
) -> Folded[Value]:
    """The closed-form fold of ``term``; with ``derivation``, every sub-term kept and recorded
    there. Atoms fitted over another size than x (a file's ``n``) are folded in x, where
    the normal forms order stages and growths, and their result named back
    (:func:`size_of`)."""
    size, used = _sized(term, library, semantics, metavariables)
    folded_in: Mapping[str, AtomicModel] = library
    if size is not None:  # only the term's own atoms: a library may hold 20,000, read lazily
        renamed = {k: replace(library[k], expr=library[k].expr.xreplace({size: x})) for k in used}
        folded_in = ModelChain(renamed, library)  # type: ignore[arg-type]
    plan = Plan.of(term, folded_in, metavariables, semantics)
    keep = (lambda node: True) if derivation is not None else (lambda node: False)
    found = _fold(term, folded_in, semantics, {}, keep, plan)
    if size is not None:
        back = {x: size}
        found = Folded(
            as_expr(found.value).xreplace(back),
            {k: as_expr(v).xreplace(back) for k, v in found.kept.items()},
            found.winners,
        )
    if derivation is not None:
        _record(term, found.kept, found.winners, library, derivation)
    return found


def size_of(
    term: Term,
    library: Mapping[str, AtomicModel],
    semantics: Semantics,
    metavariables: Mapping[str, sympy.Expr] | None = None,
) -> sympy.Symbol | None:
    """The one symbol the atoms of ``term`` are models in where it is not x (a table over
    ``n``), else None: x already, several symbols, a thread count of the term, a symbol an
    atom's annotation binds (``kernel[n=8]``; one it binds is not the atom's: ``sa[p=4]`` of
    ``30*n + 250*n*log2(p)`` is a model in n), a metavariable, or a machine (whose hand-off
    is in x).

    >>> from patternalg.syntax.parser import parse
    >>> from patternalg.syntax.symbols import symbol
    >>> n = symbol("n")
    >>> lib = {"a": AtomicModel("a", 3 * n), "b": AtomicModel("b", n**2 + 1)}
    >>> size_of(parse("pipe(a, b)"), lib, Semantics.EXACT), size_of(parse("tpool_n(a)"), lib, Semantics.EXACT)
    (n, None)
    >>> lib["c"] = AtomicModel("c", 530 * n * symbol("p"))
    >>> size_of(parse("pipe(c[p=4], b)"), lib, Semantics.EXACT), size_of(parse("pipe(c, b)"), lib, Semantics.EXACT)
    (n, None)
    """
    return _sized(term, library, semantics, metavariables)[0]


def _sized(
    term: Term,
    library: Mapping[str, AtomicModel],
    semantics: Semantics,
    metavariables: Mapping[str, sympy.Expr] | None,
) -> tuple[sympy.Symbol | None, list[str]]:
    """:func:`size_of`, and the names of the library's models ``term`` uses (its atoms' and
    its mapReduces' shuffles'), from one walk of the term."""
    if metavariables or semantics.reads():  # a machine's hand-off reads x
        return None, []
    uses: set[tuple[str, tuple[tuple[str, sympy.Expr], ...]]] = set()  # each atom with what binds it
    for node in term.walk():
        if isinstance(node, Atom):
            uses.add((node.name, node.annotations))
        elif isinstance(node, MapReduce):
            uses.add((shuffle_model(node, library)[2], ()))
    uses = {(name, annotations) for name, annotations in uses if name in library}
    used = sorted({name for name, _ in uses})
    bound = {k for _, annotations in uses for k, _ in annotations}
    # an annotation's symbol is bound in its atom (sa[p=4] is a model in n alone); its value's
    # symbols are the atom's
    symbols = {
        s
        for name, annotations in uses
        for s in library[name].expr.free_symbols | {s for _, v in annotations for s in v.free_symbols}
        if s.name not in dict(annotations)
    }
    if len(symbols) != 1:
        return None, used
    (size,) = symbols
    if size == x or not isinstance(size, sympy.Symbol) or size.name in bound:
        return None, used
    if size in {c for _, count in counts(term) for c in count.free_symbols}:
        return None, used
    return size, used


def _note(node: Term, winners: Mapping[int, int | None], library: Mapping[str, AtomicModel]) -> str:
    if isinstance(node, Atom):
        return library[node.name].source
    if isinstance(node, Meta):
        return "metavariable"
    if isinstance(node, Pipe):
        winner = winners.get(id(node))
        if winner is None:
            return "could not decide which stage dominates; kept the maximum symbolic"
        return f"bottleneck: {CORES_NAME if winner == CORES else ('left' if winner == 0 else 'right') + ' stage'}"
    if isinstance(node, MapReduce):
        return f"paper 001, eq. (5) with shuffle model {shuffle_model(node, library)[2]}"
    return ""


def noted_winner(note: str) -> int | None:
    """The winner a pipe's derivation note (:func:`_note`) records: 0 left, 1 right,
    :data:`~.semantics.CORES`, None undecided."""
    if not note.startswith("bottleneck"):
        return None
    return CORES if CORES_NAME in note else 0 if "left" in note else 1


def _record(
    term: Term,
    values: Mapping[int, Value],
    winners: Mapping[int, int | None],
    library: Mapping[str, AtomicModel],
    derivation: Derivation,
) -> None:
    stack: list[tuple[Term, int]] = [(term, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Atom):
            derivation.atoms[node.name] = library[node.name]
        elif isinstance(node, MapReduce):
            name = shuffle_model(node, library)[2]
            derivation.atoms[name] = library[name]
        elif isinstance(node, Pipe) and winners.get(id(node)) is None:
            derivation.undecided += 1
        derivation.steps.append(Step(node, values[id(node)], depth, _note(node, winners, library)))
        stack.extend((c, depth + 1) for c in reversed(node.children()))


def sub_models(
    term: Term,
    library: Mapping[str, AtomicModel],
    semantics: Semantics | str,
    context: Mapping[sympy.Symbol, sympy.Expr],
    where: str = "at the point",
) -> tuple[dict[int, sympy.Expr], dict[int, int | None]]:
    """Every sub-term's model (by ``id``) with ``context`` bound at the leaves, and which stage
    won each pipe: the fold over closed forms, for a point where some symbols stay free.

    >>> from patternalg.syntax.parser import parse
    >>> from patternalg.library.model_library import ModelLibrary
    >>> from patternalg.syntax.symbols import n
    >>> term = parse("pipe(tpool_n(qsort), inc)")
    >>> sub_models(term, ModelLibrary.builtin(), "exact", {n: sympy.Integer(2)})[0][id(term)]
    Max(536.185*x, 517.085*x*log2(x))
    """
    held, winners = sub_values(term, library, semantics, context, where)
    return {k: as_expr(v) for k, v in held.items()}, winners


def sub_values(
    term: Term,
    library: Mapping[str, AtomicModel],
    semantics: Semantics | str,
    context: Mapping[sympy.Symbol, sympy.Expr],
    where: str = "at the point",
) -> tuple[dict[int, Value], dict[int, int | None]]:
    """:func:`sub_models` as the fold holds them (normal forms, maxima, sympy), each made a
    sympy expression only where it is shown (a 10,000-deep term's every sub-term: seconds)."""
    found = _fold(term, library, Semantics.of(semantics), context, lambda node: True, None, where)
    return dict(found.kept), dict(found.winners)


def too_deep() -> str:
    """Why a closed form sympy cannot build is refused (its recursive algorithms stop at
    Python's limit), and the binding that avoids it, as the caller gives one."""
    return (
        "the closed form nests too deeply to build (a deep term whose counts are free nests one "
        f"level per level, such as x*(1024 + (1024 + ...)/(2*n))/(2*n)); bind the counts, e.g. {at_text('n=2')}"
    )


def _fold(
    term: Term,
    library: Mapping[str, AtomicModel],
    semantics: Semantics,
    context: Mapping[sympy.Symbol, Value],
    keep: Callable[[Term], bool],
    plan: Plan | None,
    where: str = "at the point",
) -> Folded[Value]:
    """The fold over closed forms, the term's counts >= 1 (:func:`count_floors`); one sympy cannot build is an
    :class:`EvaluationError`, and so is one in x not built (:func:`refused_closed_form`)."""
    refused = None if x in context else refused_closed_form(term, semantics)
    if refused is not None:
        raise EvaluationError(refused)
    try:
        with counting(count_floors(term)):
            return fold(
                term, library, ClosedForms(semantics, where), dict(context), keep, plan, semantics
            )
    except RecursionError:
        raise EvaluationError(too_deep()) from None


def count_floors(term: Term) -> dict[sympy.Expr, Fraction]:
    """The least value of each symbol ``term`` uses in a count (``tpool_n``,
    ``mapReduce_{m,n}``, a shuffle's ``^{o}``), as a count >= 1 makes it: 1 for a bare count,
    ``(1 - b)/a`` for a count ``a*k + b`` of one symbol (the largest over its counts); any
    other count (``n*m``) is at least 1 as a whole (x is a size, no count).

    >>> from patternalg.syntax.parser import parse
    >>> found = count_floors(parse("pipe(tpool_n(inc), tpool_{2*k}(tpool_{j-1}(tpool_{n*m}(inc))))"))
    >>> {str(s): str(floor) for s, floor in sorted(found.items(), key=str)}
    {'j': '2', 'k': '1/2', 'm*n': '1', 'n': '1'}
    """
    found: dict[sympy.Expr, Fraction] = {}
    for _, count in counts(term):
        floor = _floor(count)
        if floor is not None:
            symbol, least = floor
            found[symbol] = max(least, found.get(symbol, least))
        elif count.free_symbols and x not in count.free_symbols and not count.is_Symbol:
            found[count] = Fraction(1)
    return found


@functools.lru_cache(maxsize=4096)
def _floor(count: sympy.Expr) -> tuple[sympy.Symbol, Fraction] | None:
    """The symbol of a count ``a*k + b`` (a, b rational, a > 0) and its least value for a
    count >= 1, if that is above 0 (None for any other count)."""
    if count.is_Symbol:
        return None if count == x else (count, Fraction(1))
    symbols = count.free_symbols
    if len(symbols) != 1 or x in symbols:
        return None
    (symbol,) = symbols
    try:
        poly = sympy.Poly(count, symbol)
    except sympy.PolynomialError:
        return None
    if poly.degree() != 1 or not all(c.is_Rational for c in poly.all_coeffs()):
        return None
    a, b = (Fraction(int(c.p), int(c.q)) for c in poly.all_coeffs())
    least = (1 - b) / a if a > 0 else Fraction(0)
    return (symbol, least) if least > 0 else None
