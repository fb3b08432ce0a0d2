"""Values at a point: a term's model where its symbols are bound to numbers.

The closed form of a pipe under the paper's semantics is its asymptotically slower stage,
a statement about large x. At a concrete point (``--at x=4``, ``model(term, x=4)``) the
pipe is the slower stage *there*: wherever both stages of a pipe are numbers, the pipe is
their maximum, whatever the semantics. Bindings are applied to the leaves (atoms' models,
thread counts) before the operators combine them, so a ``max`` whose arguments become
comparable after binding is resolved as well.

>>> from patternalg.syntax.parser import parse
>>> from patternalg.library.model_library import ModelLibrary
>>> lib = ModelLibrary.builtin()
>>> at = at_point(parse("pipe(inc, nop)"), lib, {"x": 4})
>>> at.value, at.bottleneck_at_point, at.bottleneck_asymptotic
(5422.97, 'nop', 'inc')
>>> at_point(parse("pipe(tpool_n(qsort), tpool_m(qsort))"), lib, {"m": 2, "n": 4}).expr
517.085*x*log2(x)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import sympy

from .._internal.caches import Recomputed
from .._internal.surface import at_text
from ..errors import ArgumentError, EvaluationError
from ..syntax.arith import DOUBLE_DIGITS, check_finite, format_expr, value_digits
from ..syntax.symbols import symbol, x
from ..syntax.terms import Atom, MapReduce, Pipe, Seq, Term, TPool, packed, unpacked
from .atomic_model import AtomicModel
from .bindings import as_value, check_bindings, check_made, substitute, unread_sizes
from .evaluation import (
    Derivation,
    Step,
    evaluate,
    noted_winner,
    refused_closed_form,
    sub_models,
    sub_values,
)
from .fold import fold
from .operators import as_expr
from .pointfold import Numbers, rounded
from .semantics import Semantics, paced_by
from .term_symbols import term_symbols

__all__ = [
    "PointStep",
    "PointValue",
    "ClosedFold",
    "at_point",
    "bottleneck_at",
    "follow_bottleneck",
    "pointwise_models",
    "map_counts",
    "substitute_counts",
]


@dataclass(frozen=True)
class PointStep(Recomputed):
    """One sub-term at the point: its value there and, for a pipe, the stage that wins."""

    term: Term
    held: Any  #: the value as the fold held it: a number, or a closed form in x
    depth: int
    winner: int | None = None  #: 0 left, 1 right, None undecided (pipes only)

    @functools.cached_property
    def value(self) -> sympy.Expr:
        """The value there as a sympy expression, built on first use (``--explain``)."""
        return as_expr(self.held)


def outermost_pipe(term: Term) -> Pipe | None:
    """The first pipe of ``term`` in pre-order, not inside a mapReduce (it evaluates its
    parts at other sizes); None if there is none.

    >>> from patternalg.syntax.parser import parse
    >>> str(outermost_pipe(parse("seq(a, pipe(b, pipe(c, d)))")))
    'pipe(b, pipe(c, d))'
    >>> outermost_pipe(parse("mapReduce_{1,1}^{1,1}(pipe(a, b), c)")) is None
    True
    """
    stack = [term]
    while stack:
        top = stack.pop()
        if isinstance(top, Pipe):
            return top
        if not isinstance(top, MapReduce):
            stack.extend(reversed(top.children()))
    return None


def follow_bottleneck(term: Term, winner: Mapping[int, int | None]) -> Term | str | None:
    """The stage of the outermost pipe of ``term`` that sets its pace, or
    :data:`~.semantics.CORES_NAME` where a machine's cores do (None: undecided, no pipe).

    Pipes inside a mapReduce do not count: it evaluates its parts at other sizes.
    ``winner`` maps ``id(pipe)`` to 0 (left), 1 (right) or :data:`~.semantics.CORES`;
    nested pipes are followed down.
    """
    node: Term | str | None = outermost_pipe(term)
    if node is None:
        return None
    while isinstance(node, Pipe):
        side = winner.get(id(node))
        if side is None:
            return None
        node = paced_by(node, side)
    return node


class ClosedParts(NamedTuple):
    """What a point's closed form says: the form, its value there, its bottleneck and how
    it was derived."""

    closed_form: sympy.Expr | None  #: None where it is not built (``refused`` says why)
    at_point: sympy.Expr | None
    bottleneck: str | None
    derivation: Derivation
    refused: str | None = None


@dataclass(frozen=True)
class ClosedFold:
    """The fold of a point's closed form under ``semantics`` (:meth:`PointValue.closed_form`),
    made when first read: ``term`` with its counts bound (``mapping``, ``where`` as messages
    name it) folded into ``derivation`` if given. An object, not a closure, so that a value
    pickles; a copy folds into a derivation of its own."""

    term: Term
    library: Mapping[str, AtomicModel]
    semantics: Semantics
    mapping: Mapping[sympy.Symbol, Any]
    where: str
    derivation: Derivation | None = None

    def __call__(self) -> ClosedParts:
        refused = refused_closed_form(self.term, self.semantics)
        if refused is not None and self.derivation is None:  # the value needs none (--explain does)
            return ClosedParts(None, None, None, Derivation(), refused)
        folded = self.derivation if self.derivation is not None else Derivation()
        form = evaluate(self.term, self.library, self.semantics, derivation=folded)
        try:  # the fold refused a value too large to build (2^x at x = 10^10) first
            form_at: sympy.Expr | None = substitute(form, self.mapping, self.where)
        except EvaluationError:  # the closed form alone is too large there: no number to show
            form_at = None
        winners = {
            id(s.term): noted_winner(s.note)
            for s in folded.steps
            if isinstance(s.term, Pipe)
        }
        stage = follow_bottleneck(self.term, winners)
        return ClosedParts(form, form_at, None if stage is None else str(stage), folded)

    def __getstate__(self) -> dict[str, Any]:
        return {**vars(self), "derivation": None}  # the caller's, filled already: not the copy's


@dataclass(frozen=True)
class PointValue(Recomputed):
    """A term's model at a point, beside its closed form under ``semantics``."""

    term: Term
    expr: sympy.Expr  #: the model at the point (a number when every symbol is bound)
    semantics: Semantics
    bindings: tuple[tuple[str, sympy.Expr], ...]
    steps: tuple[PointStep, ...]
    bottleneck_at_point: str | None
    #: the closed form's parts, folded on first use (an optimum's candidates need none)
    closed: Callable[[], ClosedParts] = field(repr=False, compare=False)
    undecided: int = 0  #: pipes whose stages stay symbolic and could not be ordered
    #: a note for each bound symbol the term writes and nothing reads (``qsort[p=n]``'s n)
    unread: tuple[str, ...] = ()

    @functools.cached_property
    def _closed_parts(self) -> ClosedParts:
        return self.closed()

    def __getstate__(self) -> dict[str, Any]:
        """Its steps' sub-terms in one flat tuple (each pickled alone: n^2 nodes n deep)."""
        state = super().__getstate__()
        steps = state["steps"]
        held = tuple((s.held, s.depth, s.winner) for s in steps)
        return {**state, "steps": (packed(s.term for s in steps), held)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        terms, held = state["steps"]
        steps = tuple(PointStep(t, *h) for t, h in zip(unpacked(terms), held, strict=True))
        vars(self).update({**state, "steps": steps})

    @property
    def closed_form(self) -> sympy.Expr | None:
        """The closed form under ``semantics``, no bindings (None where it is not built:
        :func:`~.evaluation.refused_closed_form`)."""
        return self._closed_parts.closed_form

    @property
    def closed_form_at_point(self) -> sympy.Expr | None:
        """The closed form with the bindings substituted (None if too large to build there)."""
        return self._closed_parts.at_point

    @property
    def bottleneck_asymptotic(self) -> str | None:
        """The stage that sets the closed form's pace (None: undecided, no pipe)."""
        return self._closed_parts.bottleneck

    @property
    def refused(self) -> str | None:
        """Why no closed form is built beside the value (None: it is, or can be)."""
        return self._closed_parts.refused

    @property
    def derivation(self) -> Derivation:
        """Every sub-term's closed form (``--explain``), folded with the closed form (an
        EvaluationError where the closed form is not built: :meth:`values_derivation`)."""
        refused = self._closed_parts.refused
        if refused is not None:
            raise EvaluationError(f"no derivation of the closed form: {refused}")
        return self._closed_parts.derivation

    def values_derivation(self, library: Mapping[str, AtomicModel]) -> Derivation:
        """What ``--explain`` shows where no closed form is built (:attr:`refused`): every
        sub-term with its value at the point as its model, but an atom with its own (and the
        atoms' models from ``library``: their sources and fitted ranges)."""
        atoms: dict[str, sympy.Expr] = {}
        steps = []
        for s in self.steps:
            model = s.held
            if isinstance(s.term, Atom):
                text = str(s.term)
                if text not in atoms:
                    atoms[text] = evaluate(s.term, library, self.semantics)
                model = atoms[text]
            steps.append(Step(s.term, model, s.depth))
        names = {s.term.name for s in self.steps if isinstance(s.term, Atom)}
        return Derivation(steps, {name: library[name] for name in sorted(names) if name in library})

    @property
    def value(self) -> float | None:
        """The value as a float, or None while a symbol is free."""
        if self.expr.free_symbols:
            return None
        return float(sympy.N(self.expr, 17))

    def notes(self) -> list[str]:
        """What a reader must know about this value; each note only when it is true."""
        notes = []
        where = ", ".join(f"{k} = {format_expr(v)}" for k, v in self.bindings)
        form = self.closed_form
        if (
            form is not None
            and self.bottleneck_at_point is not None
            and self.bottleneck_asymptotic is not None
            and self.bottleneck_at_point != self.bottleneck_asymptotic
        ):
            shown = self.closed_form_at_point
            known = shown is not None and shown.is_number
            digits = value_digits([form])  # the model's digits, no float noise
            gives = f" (it gives {format_expr(sympy.N(shown, DOUBLE_DIGITS), digits)} here)" if known else ""
            sizes = sorted(s.name for s in form.free_symbols)
            large = sizes[0] if len(sizes) == 1 else "x"  # a model over a file's n grows in n
            notes.append(
                f"at {where} the bottleneck is {self.bottleneck_at_point}, not the "
                f"{self.semantics.value} bottleneck {self.bottleneck_asymptotic}; the value is "
                f"the pointwise maximum, the closed form {format_expr(form)} "
                f"holds for large {large}{gives}"
            )
        if self.undecided and self.expr.has(sympy.Max):
            notes.append(undecided_note(self.semantics))
        if self._closed_parts.refused is not None:
            notes.append(f"no closed form beside the value: {self._closed_parts.refused}")
        return [*notes, *self.unread]

    def to_json(self) -> dict[str, Any]:
        """The point's keys of ``eval --format json``."""
        return {
            "value": self.value,
            "at": {k: format_expr(v) for k, v in self.bindings},
            "closed_form": None if self.closed_form is None else format_expr(self.closed_form),
            "bottleneck_at_point": self.bottleneck_at_point,
            "bottleneck_asymptotic": self.bottleneck_asymptotic,
        }


def undecided_note(semantics: Semantics) -> str:
    """The note for a pipe whose maximum stays symbolic, in the words of its semantics."""
    if semantics.pointwise:  # exact, a machine's
        return (
            "some pipe stages cross or depend on unbound symbols (neither is the larger for "
            "every x >= 1); the model keeps their max"
        )
    return "some pipe stages could not be ordered asymptotically; the model keeps their max"


def pointwise_models(
    term: Term,
    library: Mapping[str, AtomicModel],
    mapping: Mapping[sympy.Symbol, sympy.Expr],
    semantics: Semantics | str = Semantics.EXACT,
) -> dict[int, sympy.Expr]:
    """Every sub-term's model as a function of its unbound symbols, pipes as pointwise ``Max``
    (keyed by ``id`` of the sub-term), combined as ``semantics`` says (a semantics whose
    pipe is not pointwise, as the paper's asymptotic one: the exact): evaluated anywhere,
    it gives the value there.

    >>> from patternalg.syntax.parser import parse
    >>> from patternalg.library.model_library import ModelLibrary
    >>> from patternalg.algebra.machine import Machine
    >>> term = parse("pipe(inc, nop)")
    >>> pointwise_models(term, ModelLibrary.builtin(), {})[id(term)]
    Max(5422.97, 536.185*x)
    >>> term = parse("pipe(qsort, inc)")  # on a machine, inc receives its data
    >>> pointwise_models(term, ModelLibrary.builtin(), {}, Machine(2, handoff=100).semantics)[id(term)]
    Max(1034.17*x*log2(x), 536.185*x + 100)
    """
    semantics = Semantics.of(semantics)
    return sub_models(term, library, semantics if semantics.pointwise else Semantics.EXACT, mapping)[0]


def substitute_counts(term: Term, values: Mapping[sympy.Symbol, sympy.Expr]) -> Term:
    """``term`` with the counts of its task pools and mapReduces and its atoms' annotations
    evaluated at ``values``; an error naming the values that make one of them a count or
    size it cannot be.

    Counts are bound before evaluating, so that an asymptotic pipe compares numbers
    rather than falling back to the pointwise Max on a symbolic count.

    >>> from patternalg.syntax.parser import parse
    >>> from patternalg.syntax.symbols import n, symbol
    >>> substitute_counts(parse("pipe(tpool_n(a), b[p=k])"), {n: 4, symbol("k"): 2})
    parse('pipe(tpool_4(a), b[p=2])')
    >>> substitute_counts(parse("tpool_n(a)"), {n: sympy.Integer(0)})
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: n = 0 makes the thread count of tpool_n(...) 0; it must be a positive integer
    """
    try:
        return map_counts(term, lambda count: count.xreplace(values))
    except ArgumentError as exc:
        refused = exc
    check_made(term, values)  # a pattern refused its count: which values made it
    raise refused


def map_counts(term: Term, change: Callable[[sympy.Expr], sympy.Expr]) -> Term:
    """``term`` with ``change`` applied to the counts of its task pools and mapReduces (and
    a mapReduce's size per key) and to its atoms' annotations.

    >>> from patternalg.syntax.parser import parse
    >>> map_counts(parse("seq(tpool_2(a), tpool_{2*n}(b[p=3]))"), lambda count: sympy.Symbol("k"))
    parse('seq(tpool_k(a), tpool_k(b[p=k]))')
    """
    done: dict[int, Term] = {}
    for node in term.post_order():
        new = [done[id(c)] for c in node.children()]
        if isinstance(node, TPool):
            done[id(node)] = TPool(change(node.count), new[0])
        elif isinstance(node, Seq | Pipe):
            done[id(node)] = type(node)(new[0], new[1])
        elif isinstance(node, MapReduce):
            shuffle = node.shuffle
            if shuffle is not None:
                shuffle = replace(
                    shuffle, nodes=change(shuffle.nodes), threads=change(shuffle.threads), keys=change(shuffle.keys)
                )
            done[id(node)] = replace(
                node,
                nodes=change(node.nodes),
                threads=change(node.threads),
                per_key=change(node.per_key),
                keys=change(node.keys),
                map=new[0],
                shuffle=shuffle,
                reduce=new[1],
            )
        elif isinstance(node, Atom) and node.annotations:
            done[id(node)] = Atom(node.name, tuple((k, change(v)) for k, v in node.annotations))
        else:
            done[id(node)] = node
    return done[id(term)]


def with_counts(term: Term, at: Mapping[str, Any] | None) -> Term:
    """``term`` with the counts ``at`` binds (``{"n": 4}``; x and the symbols ``term`` has
    not are left): what a note about a point names.

    >>> from patternalg.syntax.parser import parse
    >>> with_counts(parse("tpool_n(qsort)"), {"n": "4", "x": 1024})
    parse('tpool_4(qsort)')
    """
    counts = {symbol(k): as_value(v, k) for k, v in (at or {}).items() if k != "x"}
    return substitute_counts(term, counts) if counts else term


def _bound(
    term: Term, values: Mapping[str, sympy.Expr]
) -> tuple[dict[sympy.Symbol, sympy.Expr], str, Term]:
    """The point's symbols and values, its ``--at`` text (for errors) and ``term`` with
    its counts bound (the stages named as the point has them: ``tpool_4(qsort)``)."""
    mapping = {symbol(name): v for name, v in values.items()}
    where = at_text(", ".join(f"{k}={format_expr(v)}" for k, v in values.items()))
    counted = {s: v for s, v in mapping.items() if s != x}
    return mapping, where, substitute_counts(term, counted) if counted else term


def bottleneck_at(
    term: Term,
    library: Mapping[str, AtomicModel],
    bindings: Mapping[str, float | int | str | sympy.Expr],
    semantics: Semantics | str = Semantics.ASYMPTOTIC,
) -> str | None:
    """:func:`at_point`'s ``bottleneck_at_point`` where every symbol of ``term`` has a value
    in ``bindings`` (already checked), from one fold that keeps no sub-term's value, and
    none for a term without a pipe outside its mapReduces (an optimum's candidates need
    only this: a term 10,000 deep was folded once per candidate to name none).

    >>> from patternalg.syntax.parser import parse
    >>> from patternalg.library.model_library import ModelLibrary
    >>> bottleneck_at(parse("pipe(tpool_n(inc), nop)"), ModelLibrary.builtin(), {"x": 4, "n": 2})
    'nop'
    """
    if outermost_pipe(term) is None:
        return None
    semantics = Semantics.of(semantics)
    values = {name: as_value(v, name) for name, v in bindings.items()}
    mapping, where, shown = _bound(term, values)
    found = fold(shown, library, Numbers(where), mapping, semantics=semantics)
    stage = follow_bottleneck(shown, found.winners)
    return None if stage is None else str(stage)


def at_point(
    term: Term,
    library: Mapping[str, AtomicModel],
    bindings: Mapping[str, float | int | str | sympy.Expr],
    semantics: Semantics | str = Semantics.ASYMPTOTIC,
    *,
    derivation: Derivation | None = None,
    partial: bool = False,
) -> PointValue:
    """The model of ``term`` at ``bindings``: pipes of numbers are their pointwise maximum.

    ``derivation``, if given, is filled with the closed form's derivation (for ``--explain``).
    With ``partial``, bindings of symbols ``term`` does not have are left out (a part of a
    larger design, whose other parts have them); else they are an error. Where every
    symbol is bound the value is a fold of numbers (:mod:`patternalg.algebra.fold`), exact or in
    192 bits, rounded to a double's 53 bits at the end.

    >>> from patternalg.syntax.parser import parse
    >>> from patternalg.library.model_library import ModelLibrary
    >>> at_point(parse("pipe(inc, nop)"), ModelLibrary.builtin(), {"x": 4}, "exact").expr
    5422.97000000000
    """
    semantics = Semantics.of(semantics)
    values = {name: as_value(v, name) for name, v in bindings.items()}
    symbols = term_symbols(term, library, semantics)
    own = symbols.model
    if partial:
        values = {k: v for k, v in values.items() if k in symbols.bindable}
    check_bindings(term, symbols.bindable, values)
    mapping, where, shown = _bound(term, values)
    mapping.update(unread_sizes(term, own, values, semantics.reads()))  # d beside a constant reduce
    numeric = not any(v.free_symbols for v in values.values())  # --at p=a names a symbol: a closed form in it
    if own <= set(values) and numeric:  # every symbol has a number: a fold of numbers
        found = fold(shown, library, Numbers(where), mapping, lambda node: True, semantics=semantics)
        memo = {k: rounded(v) for k, v in found.kept.items()}
        winner: dict[int, int | None] = dict(found.winners)
    else:  # some symbols stay free: the fold over closed forms, with the values bound
        memo, winner = sub_values(shown, library, semantics, mapping, where)
    result = as_expr(memo[id(shown)])
    if not check_finite(result):
        raise EvaluationError(
            f"at {where.removeprefix('--at ')}: the model is infinite or undefined there (a division by zero or "
            "log of 0)"
        )
    steps, depth_of = [], {id(shown): 0}
    for node in shown.walk():
        depth = depth_of[id(node)]
        for child in node.children():
            depth_of[id(child)] = depth + 1
        steps.append(PointStep(node, memo[id(node)], depth, winner.get(id(node))))
    at_stage = follow_bottleneck(shown, winner)
    undecided = sum(1 for n in shown.walk() if isinstance(n, Pipe) and winner.get(id(n)) is None)

    point = PointValue(
        term=term,
        expr=result,
        semantics=semantics,
        bindings=tuple(values.items()),
        steps=tuple(steps),
        bottleneck_at_point=None if at_stage is None else str(at_stage),
        closed=ClosedFold(shown, library, semantics, mapping, where, derivation),
        undecided=undecided,
        unread=tuple(symbols.notes(values)),
    )
    if derivation is not None:  # the caller reads it: fold the closed form now
        point.closed_form  # noqa: B018
    return point
