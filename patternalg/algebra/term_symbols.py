"""Which symbols a term has: the one answer ``eval``, ``sweep``, ``compare``, ``optimize``,
``explore``, ``plot`` and ``validate`` ask for.

A symbol the term writes is one of its symbols, whether or not its model reads it: a count
(``tpool_n``), a mapReduce's size (``^{d,x}``) or an annotation's value (``qsort[p=n]``). A
sequential atom ignores ``p`` and ``phi`` (docs/language.md), and paper 001 gives a task
a model in x alone, so ``tpool_2(qsort[p=n])`` has the model of ``tpool_2(qsort)`` for every
n: a value of n is accepted and changes nothing, which a note says (:meth:`TermSymbols.notes`),
and ``optimize`` chooses no count that nothing reads.

>>> from patternalg.syntax.parser import parse
>>> from patternalg.library.model_library import ModelLibrary
>>> found = term_symbols(parse("tpool_2(qsort[p=n])"), ModelLibrary.builtin())
>>> sorted(found.model), sorted(found.bindable)
(['x'], ['n', 'x'])
>>> found.notes(["n", "x"])
['n changes nothing in tpool_2(qsort[p=n]): qsort ignores p (its model has no p)']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .._internal.limits import printable
from ..syntax.terms import Atom, Term
from .atomic_model import AtomicModel
from .bindings import inputs_of, sizes, symbols_of
from .fold import model_symbols
from .semantics import Semantics

__all__ = ["TermSymbols", "term_symbols", "written_symbols"]


@dataclass(frozen=True)
class TermSymbols:
    """The symbols of one term under one semantics."""

    term: Term
    model: frozenset[str]  #: its pointwise model's free symbols
    reads: frozenset[str]  #: what the semantics itself reads (a machine's hand-off in x)
    #: what ``--at`` and ``--over`` may give a value: the model's and the semantics', the
    #: counts', every symbol the term writes, and x (:func:`~.bindings.symbols_of`)
    bindable: frozenset[str]
    #: the symbols the term writes that nothing reads, each with why (name, why)
    ignored: tuple[tuple[str, str], ...]

    def unread(self) -> dict[str, str]:
        """Each symbol the term writes and nothing reads -> why."""
        return dict(self.ignored)

    def notes(self, given: Iterable[str]) -> list[str]:
        """One note for each of ``given`` (bound or swept names) that nothing reads."""
        given = set(given)
        term = printable(str(self.term))
        return [f"{name} changes nothing in {term}: {why}" for name, why in self.ignored if name in given]


def written_symbols(term: Term) -> frozenset[str]:
    """The symbols ``term``'s annotations and mapReduce sizes write (its counts' are
    :func:`~.arrays.count_symbols`).

    >>> from patternalg.syntax.parser import parse
    >>> sorted(written_symbols(parse("seq(qsort[p=n], mapReduce_{1,m}^{d,x}(nop, nop))")))
    ['d', 'n', 'x']
    """
    found = {s.name for _, size in sizes(term) for s in size.free_symbols}
    for node in term.walk():
        if isinstance(node, Atom):
            found |= {s.name for _, value in node.annotations for s in value.free_symbols}
    return frozenset(found)


def term_symbols(
    term: Term, library: Mapping[str, AtomicModel], semantics: Semantics | str = Semantics.EXACT
) -> TermSymbols:
    """The symbols of ``term``: its model's under ``semantics``, what ``--at`` may bind, and
    those it writes that nothing reads (with why).

    >>> from patternalg.syntax.parser import parse
    >>> from patternalg.library.model_library import ModelLibrary
    >>> term_symbols(parse("mapReduce_{1,1}^{d,x}(nop, nop)"), ModelLibrary.builtin()).ignored
    (('d', 'nothing reads the elements per key d of mapReduce_{1,1}^{d,x}'),)
    >>> term_symbols(parse("seq(qsort[p=n], tpool_n(inc))"), ModelLibrary.builtin()).ignored
    ()
    """
    semantics = Semantics.of(semantics)
    model = frozenset(model_symbols(term, library, semantics))
    reads = semantics.reads()
    has = symbols_of(term, model | reads, inputs_of(term, library))
    written = written_symbols(term)
    ignored = tuple((name, _why(term, library, name)) for name in sorted(written - has))
    return TermSymbols(term, model, reads, frozenset(has | written), ignored)


def _why(term: Term, library: Mapping[str, AtomicModel], name: str) -> str:
    """Why nothing in ``term`` reads ``name``: the atoms that ignore the annotation it is
    in, the sizes no part reads."""
    reasons: dict[str, None] = {}
    for node in term.walk():
        if isinstance(node, Atom) and node.name in library:
            has = {s.name for s in library[node.name].expr.free_symbols}
            for key, value in node.annotations:
                if key not in has and name in {s.name for s in value.free_symbols}:
                    reasons[f"{node.name} ignores {key} (its model has no {key})"] = None
    for what, size in sizes(term):
        if name in {s.name for s in size.free_symbols}:
            reasons[f"nothing reads {what}"] = None
    return "; ".join(reasons) or "its model does not read it"
