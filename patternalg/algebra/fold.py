"""The one fold over a term at values of its symbols: iterative, each node in its own context.

A term's value somewhere (a number at ``--at x=1024``, numpy arrays over a grid) is a fold
over its tree: atoms are their models evaluated there, ``seq`` adds (paper 001, eq. (2)),
``tpool_n`` divides by n (eq. (3)), ``pipe`` takes the larger stage there (eq. (4) at a
point) and ``mapReduce`` is eq. (5) (:func:`~patternalg.algebra.operators.m_mapreduce`, with its
parts as placeholders) where its map runs at x = 1 and its reduce at x = d(x). The parts of
a mapReduce are evaluated in their own *context* (the values of the symbols where they
run), so nothing builds a model first: no sympy ``Max`` nested per pipe level, no
expression as deep as the term.

Nothing recurses on the term's depth, and the larger child of each node is folded first,
so at most log2(size) values wait at once (a 10,000-deep term over a 4,096-point grid keeps
a few arrays, not 10,000). What a value *is* comes from an :class:`Arithmetic`:
:class:`~patternalg.algebra.pointfold.Numbers` (exact or 192-bit numbers) or
:class:`~patternalg.algebra.arrays.Arrays` (doubles over a grid).

>>> from patternalg.syntax.parser import parse
>>> from patternalg.library.model_library import ModelLibrary
>>> sorted(model_symbols(parse("pipe(tpool_n(qsort), mapReduce_{2,m}^{x,16}(map_grppi, inc))"),
...                      ModelLibrary.builtin()))
['m', 'n', 'x']
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import sympy

from ..syntax.symbols import x
from ..syntax.terms import MapReduce, Pipe, Seq, Term, TPool
from . import operators
from .atomic_model import AtomicModel
from .operators import leaf_model, shuffle_model
from .semantics import Semantics

__all__ = ["TIE", "Arithmetic", "Folded", "Plan", "SharedPlan", "fold", "model_symbols", "mapreduce_form"]

#: two stages within this relative difference are a tie, and the first is the bottleneck: a
#: sum in doubles and in 192 bits rounds differently (``(qsort + inc) + h`` against
#: ``(qsort + h) + inc``, one stage each, named the one at a point and the other on a grid)
TIE = 1e-12

V = TypeVar("V")
Context = dict[sympy.Symbol, V]

#: placeholders for the map phase's M[map](1) and the reduce phase's M[reduce](d(x))
MAP = sympy.Symbol("_map_at_1")
REDUCE = sympy.Symbol("_reduce_at_d")


class Arithmetic(Generic[V]):
    """The numbers a fold computes with: how a sympy expression is evaluated in a context,
    and the operations a semantics builds eqs. (2)-(4) from (:mod:`.semantics`)."""

    #: whether values are expressions that grow with every operation (closed forms): a
    #: semantics then takes a case a free count leaves open as the general one, not as
    #: an expression of both, where carrying both would double the form level by level
    symbolic = False

    def leaf(self, expr: sympy.Expr, context: Mapping[sympy.Symbol, V]) -> V:
        """``expr`` (one of patternalg's own: an atom's model, a count) in ``context``."""
        raise NotImplementedError

    def add(self, left: V, right: V) -> V:
        """The sum (eq. (2))."""
        raise NotImplementedError

    def divide(self, body: V, count: V) -> V:
        """The body over the thread count (eq. (3))."""
        raise NotImplementedError

    def larger(self, left: V, right: V) -> tuple[V, int | None]:
        """The pointwise maximum (eq. (4)) and which stage it is (0 left, 1 right, None
        where it differs from point to point; in numbers, 1 only beyond a :data:`TIE`)."""
        raise NotImplementedError

    def smaller(self, left: V, right: V) -> V:
        """The pointwise minimum (a machine's cores against a thread count)."""
        raise NotImplementedError

    def multiply(self, left: V, right: V) -> V:
        """The product (a machine's work grown by a speed-up below the thread count)."""
        raise NotImplementedError

    def constant(self, value: V) -> float | None:
        """``value`` as one number if it is the same everywhere it is taken (a thread count
        the term gives, not one a grid varies), else None: what a semantics may decide on."""
        return None

    def sized(self, context: Context[V], size: V) -> Context[V]:
        """The context a part of a mapReduce runs in, at ``size`` elements (eq. (5): the
        map at 1, the reduce at d(x)): x is ``size`` there."""
        return {**context, x: size}

    def resized(self, value: V, size: V) -> V:
        """A part's value, folded in :meth:`sized`'s context, at ``size`` (already there)."""
        return value


def mapreduce_form(
    node: MapReduce, library: Mapping[str, AtomicModel], semantics: Semantics = Semantics.EXACT
) -> sympy.Expr:
    """Eq. (5) of ``node`` with its parts as the placeholders :data:`MAP` (M[map](1)) and
    :data:`REDUCE` (M[reduce](d(x))): a small expression in x and the counts (its threads
    per node as ``semantics`` runs them: on a machine, at most its cores)."""
    shuffle, keys, _ = shuffle_model(node, library)
    return operators.m_mapreduce(  # through the module: the one definition of eq. (5)
        node.nodes,
        semantics.threads(node.threads),
        node.per_key,
        node.keys,
        MAP,
        shuffle,
        keys,
        REDUCE,  # M[reduce] already at d(x): the placeholder has no x to substitute
    )


@dataclass
class Folded(Generic[V]):
    """What a fold found: the term's value, the values it was asked to keep (by ``id`` of
    the sub-term) and which stage won each pipe (None: it differs from point to point)."""

    value: V
    kept: dict[int, V] = field(default_factory=dict)
    winners: dict[int, int | None] = field(default_factory=dict)


@dataclass(frozen=True)
class Plan:
    """What a fold of ``term`` needs besides the values, computed once for many folds (a
    ``compare`` evaluates a term thousands of times): the order of every node's children
    (the larger first), the atoms' models and each mapReduce's eq. (5)."""

    term: Term
    order: dict[int, tuple[int, ...]]
    models: dict[int, sympy.Expr]

    @classmethod
    def of(
        cls,
        term: Term,
        library: Mapping[str, AtomicModel],
        metavariables: Mapping[str, sympy.Expr] | None = None,
        semantics: Semantics = Semantics.EXACT,
    ) -> Plan:
        """The plan of ``term`` (atoms and metavariables are checked here: ``metavariables``
        gives the models of a law's ``A``, ``B``) for a fold under ``semantics``."""
        sizes: dict[int, int] = {}
        order: dict[int, tuple[int, ...]] = {}
        models: dict[int, sympy.Expr] = {}
        #: each distinct leaf's model once, by its type, name and annotations (a term's
        #: equality walks it: 10,000 ``inc`` leaves parsed apart compared 10,000 times)
        by_atom: dict[tuple[Any, ...], sympy.Expr] = {}
        for node in term.post_order():
            kids = node.children()
            sizes[id(node)] = 1 + sum(sizes[id(c)] for c in kids)
            if kids:
                # the larger child first: at most log2(size) values wait on the stack
                order[id(node)] = tuple(sorted(range(len(kids)), key=lambda i: -sizes[id(kids[i])]))
            if isinstance(node, MapReduce):
                models[id(node)] = mapreduce_form(node, library, semantics)
            elif not kids:  # an atom (with its annotations); a metavariable: evaluate says so
                leaf = (type(node), getattr(node, "name", None), getattr(node, "annotations", ()))
                if leaf not in by_atom:
                    by_atom[leaf] = leaf_model(node, library, metavariables)
                models[id(node)] = by_atom[leaf]
        return cls(term, order, models)

    def covers(self, term: Term) -> bool:
        """Whether this is the plan of ``term``."""
        return self.term is term

    def first(self, node: Term) -> tuple[int, ...]:
        """The order ``node``'s children are folded in (the larger first)."""
        return self.order[id(node)]

    def model(self, node: Term) -> sympy.Expr:
        """An atom's model, or a mapReduce's eq. (5) with its parts as placeholders."""
        return self.models[id(node)]


class SharedPlan:
    """A plan for every term built of shared parts (``explore``'s designs, thousands of
    terms that differ in a rewritten part): each distinct sub-term's model is made once,
    when a fold first meets it, and children are folded in their order."""

    def __init__(self, library: Mapping[str, AtomicModel], semantics: Semantics = Semantics.EXACT) -> None:
        self.library, self.semantics = library, semantics
        self.models: dict[Term, sympy.Expr] = {}

    def covers(self, term: Term) -> bool:
        """Every term."""
        return True

    def first(self, node: Term) -> tuple[int, ...]:
        """``node``'s children in their order."""
        return tuple(range(len(node.children())))

    def model(self, node: Term) -> sympy.Expr:
        """As :meth:`Plan.model`, made on first need."""
        found = self.models.get(node)
        if found is None:
            if isinstance(node, MapReduce):
                found = mapreduce_form(node, self.library, self.semantics)
            else:
                found = leaf_model(node, self.library, None)
            self.models[node] = found
        return found


def fold(
    term: Term,
    library: Mapping[str, AtomicModel],
    arithmetic: Arithmetic[V],
    context: Mapping[sympy.Symbol, V],
    keep: Callable[[Term], bool] = lambda node: False,
    plan: Plan | SharedPlan | None = None,
    semantics: Semantics | str = Semantics.EXACT,
    memo: dict[tuple[Term, frozenset], V] | None = None,
) -> Folded[V]:
    """The value of ``term`` in ``context`` (a value for x and every other free symbol),
    post-order without recursion; the values of the sub-terms ``keep`` selects are kept.
    ``plan`` is :meth:`Plan.of` ``term``, if already made; ``semantics`` combines (at a
    point and on grids every semantics of the paper is the pointwise one). ``memo`` (for
    an arithmetic of hashable values) keeps each sub-term's value in each context it
    runs in, so that folds of terms which share parts fold each part once.

    >>> from patternalg.syntax.parser import parse
    >>> from patternalg.library.model_library import ModelLibrary
    >>> from patternalg.algebra.pointfold import Numbers
    >>> found = fold(parse("pipe(inc, nop)"), ModelLibrary.builtin(), Numbers(), {x: sympy.Integer(4)})
    >>> float(found.value), list(found.winners.values())
    (5422.97, [1])

    Folds of several terms with one ``memo`` and a :class:`SharedPlan` fold a shared part
    once (here ``qsort`` and ``inc``, then each design's own node):

    >>> library, memo = ModelLibrary.builtin(), {}
    >>> shared = SharedPlan(library)
    >>> for text in ("seq(qsort, inc)", "pipe(qsort, inc)", "tpool_2(seq(qsort, inc))"):
    ...     _ = fold(parse(text), library, Numbers(), {x: sympy.Integer(4)}, plan=shared, memo=memo)
    >>> len(memo)
    5
    """
    semantics = Semantics.of(semantics)
    plan = plan if plan is not None and plan.covers(term) else Plan.of(term, library, None, semantics)
    entering = semantics.enters()  # parts told where they run
    found: Folded[V] = Folded(None)  # type: ignore[arg-type]
    values: list[V] = []
    root: Context[V] = dict(context)
    stack: list[tuple[Term, Context[V], bool]] = [(term, root, False)]
    while stack:
        node, here, ready = stack.pop()
        if memo is not None and not ready and (node, frozenset(here.items())) in memo:
            values.append(memo[node, frozenset(here.items())])
            continue
        kids = node.children()
        if kids and not ready:
            inner = [here] * len(kids)
            if isinstance(node, MapReduce):
                inner = [arithmetic.sized(here, size) for size in _sizes(node, here, arithmetic)]
            if entering:
                inner = [semantics.enter(arithmetic, node, c) for c in inner]
            first = plan.first(node)
            stack.append((node, here, True))
            stack.extend((kids[i], inner[i], False) for i in reversed(first))
            continue
        if kids:
            first = plan.first(node)
            done = values[-len(kids) :]  # in the order folded
            del values[-len(kids) :]
            parts = [done[first.index(i)] for i in range(len(kids))]
            value = _combine(node, parts, here, arithmetic, plan, found, semantics, library)
        else:
            leaf = arithmetic.leaf(plan.model(node), here)
            value = semantics.lift(arithmetic, node, leaf, here, library)
        if memo is not None:
            memo[node, frozenset(here.items())] = value
        if keep(node):
            found.kept[id(node)] = semantics.lower(value)
        values.append(value)
    found.value = semantics.lower(values.pop())
    return found


def _sizes(node: MapReduce, here: Context[V], arithmetic: Arithmetic[V]) -> tuple[V, V]:
    """Where a mapReduce's parts run (eq. (5)): the map at x = 1, the reduce at x = d(x)."""
    return arithmetic.leaf(sympy.Integer(1), here), arithmetic.leaf(node.per_key, here)


def _combine(
    node: Term,
    parts: list[V],
    here: Context[V],
    arithmetic: Arithmetic[V],
    plan: Plan | SharedPlan,
    found: Folded[V],
    semantics: Semantics,
    library: Mapping[str, AtomicModel],
) -> V:
    if isinstance(node, Seq):
        return semantics.seq(arithmetic, parts[0], parts[1])
    if isinstance(node, TPool):
        return semantics.tpool(arithmetic, arithmetic.leaf(node.count, here), parts[0])
    if isinstance(node, Pipe):
        value, found.winners[id(node)] = semantics.pipe(arithmetic, parts[0], parts[1])
        return value
    assert isinstance(node, MapReduce)
    sizes = _sizes(node, here, arithmetic)
    at = [arithmetic.resized(semantics.lower(part), size) for part, size in zip(parts, sizes, strict=True)]
    value = arithmetic.leaf(plan.model(node), {**here, MAP: at[0], REDUCE: at[1]})
    return semantics.lift(arithmetic, node, value, here, library)


def model_symbols(
    term: Term, library: Mapping[str, AtomicModel], semantics: Semantics | str = Semantics.EXACT
) -> set[str]:
    """The names of the free symbols of ``term``'s pointwise model under ``semantics``,
    without building it: a fold whose values are sets of symbols (a machine's dispatch cost
    in x makes a pool of a constant model depend on x; its hand-off only where a stage
    receives data).

    >>> from patternalg.syntax.parser import parse
    >>> from patternalg.library.model_library import ModelLibrary
    >>> from patternalg.algebra.machine import Machine
    >>> sorted(model_symbols(parse("seq(nop, tpool_k(nop))"), ModelLibrary.builtin()))
    ['k']
    >>> sorted(model_symbols(parse("tpool_2(nop)"), ModelLibrary.builtin(), Machine(2, dispatch="x").semantics))
    ['x']
    >>> sorted(model_symbols(parse("nop"), ModelLibrary.builtin(), Machine(2, handoff="x").semantics))
    []
    """
    return {s.name for s in fold(term, library, _Symbols(), {}, semantics=semantics).value}


@functools.lru_cache(maxsize=1024)
def _free_symbols(expr: sympy.Expr) -> frozenset[sympy.Symbol]:
    """``expr.free_symbols``, once per expression: sympy walks the whole tree each time it is
    asked, and a fold asks it at every occurrence of an atom (a 10,000-deep term with its
    interval's draws: 120,000 times, 2.3 s a fold)."""
    return frozenset(expr.free_symbols)


class _Symbols(Arithmetic[frozenset]):
    """An arithmetic whose values are the sets of free symbols a value depends on."""

    def leaf(self, expr: sympy.Expr, context: Mapping[sympy.Symbol, frozenset]) -> frozenset:
        out: set[sympy.Symbol] = set()
        for s in _free_symbols(expr):
            out |= context.get(s, {s})
        return frozenset(out)

    def add(self, left: frozenset, right: frozenset) -> frozenset:
        return left | right

    def divide(self, body: frozenset, count: frozenset) -> frozenset:
        return body | count

    def larger(self, left: frozenset, right: frozenset) -> tuple[frozenset, int | None]:
        return left | right, None

    def smaller(self, left: frozenset, right: frozenset) -> frozenset:
        return left | right

    def multiply(self, left: frozenset, right: frozenset) -> frozenset:
        return left | right

