"""The law language: ``LHS REL RHS`` read into a :class:`Law`, and the check that a law can be
checked against a model library.

A law is ``LHS REL RHS`` with REL one of ``==``, ``<=``, ``>=``, ``<``, ``>``. Names that
start with an uppercase letter (``A``, ``B``, ``Stage1``) are metavariables and stand for
any term; names that start with a lowercase letter are atoms of the model library;
symbolic thread counts (``tpool_n``, ``tpool_{n*m}``) stand for any positive integer.
A law reads: for all x >= 1 and all instantiations, M[LHS] REL M[RHS].

>>> law = parse_law("tpool_n(tpool_m(A)) == tpool_{n*m}(A)")
>>> law.relation, law.metavariables()
('==', ('A',))
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import sympy

from ..algebra.units import DEFAULT_UNIT, common_unit, is_time, kind
from ..arguments import as_text
from ..errors import EvaluationError, ParseError, UnitError
from ..library.model_library import AtomicModel
from ..syntax.parser import parse_law_parts
from ..syntax.symbols import x
from ..syntax.terms import Atom, MapReduce, Meta, Term, TPool

__all__ = ["Law", "parse_law", "parse_laws", "validate"]


@dataclass(frozen=True)
class Law:
    """A relation between two terms, with an id and a source for the built-in ones."""

    lhs: Term
    relation: str
    rhs: Term
    id: str | None = None
    source: str = ""
    #: the line of a text of several laws (a file) the law starts on; 0 for a law alone
    line: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"{self.lhs} {self.relation} {self.rhs}"

    def metavariables(self) -> tuple[str, ...]:
        """Metavariable names in order of first appearance.

        >>> parse_law("pipe(B, A) == pipe(A, B)").metavariables()
        ('B', 'A')
        """
        return self._names(Meta)

    @functools.cached_property
    def _nodes(self) -> tuple[Term, ...]:
        """Every node of both sides, walked once (a side may be 10,000 deep)."""
        return (*self.lhs.walk(), *self.rhs.walk())

    def _names(self, kind: type[Atom] | type[Meta]) -> tuple[str, ...]:
        return tuple(dict.fromkeys(n.name for n in self._nodes if isinstance(n, kind)))

    def count_symbols(self) -> tuple[sympy.Symbol, ...]:
        """The symbols of thread, node and key counts, sorted by name.

        >>> parse_law("tpool_n(tpool_m(A)) == tpool_{n*m}(A)").count_symbols()
        (m, n)
        """
        found: set[sympy.Symbol] = set()
        for node in self._nodes:
            if isinstance(node, TPool):
                found |= node.count.free_symbols
            elif isinstance(node, MapReduce):
                keys = () if node.shuffle is None else (node.shuffle.keys,)
                for count in (node.nodes, node.threads, *keys):
                    found |= count.free_symbols
        return tuple(sorted(found, key=lambda s: s.name))

    def atoms(self) -> tuple[str, ...]:
        """The atom names the law mentions, in order of first appearance.

        >>> parse_law("pipe(qsort, A) <= seq(A, inc)").atoms()
        ('qsort', 'inc')
        """
        return self._names(Atom)

    def shuffles(self) -> tuple[str, ...]:
        """The shuffle models its mapReduces use (``shuffle`` in the short form)."""
        found = [
            "shuffle" if n.shuffle is None else n.shuffle.name
            for n in self._nodes
            if isinstance(n, MapReduce)
        ]
        return tuple(dict.fromkeys(found))

    def has_mapreduce(self) -> bool:
        """Whether a side contains a mapReduce (whose model is not pointwise in its parts)."""
        return any(isinstance(n, MapReduce) for n in self._nodes)


def parse_law(text: str, *, id: str | None = None, source: str = "") -> Law:
    """Parse ``LHS REL RHS``; capitalised names are metavariables, lowercase ones atoms.

    >>> str(parse_law("pipe(A,B)>=tpool_2(seq(A,B))"))
    'pipe(A, B) >= tpool_2(seq(A, B))'
    """
    lhs, relation, rhs = parse_law_parts(text)
    return Law(lhs, relation, rhs, id, source)


def parse_laws(text: str) -> list[Law]:
    """The laws of a text (a file of your own laws), one after another: a law ends at the
    end of a line where its brackets are closed and its right-hand side has begun; blank
    lines and ``#`` comments are skipped; ``NAME:`` before a law names it. A syntax error
    names its line in the whole text.

    >>> [str(law) for law in parse_laws("# mine\\nseq(A, B) == seq(B, A)\\npipe(A,\\n     B) <=\\n  seq(A, B)\\n")]
    ['seq(A, B) == seq(B, A)', 'pipe(A, B) <= seq(A, B)']
    >>> parse_laws("seq(A, B) == seq(B, A)\\npipe(A, B) <")
    Traceback (most recent call last):
    ...
    patternalg.errors.ParseError: line 2, column 13: syntax error, the text ends too early (expected ...): pipe(A, B) <^
    """
    laws: list[Law] = []
    text = as_text(text, "text", "the text of laws, one after another")
    chunk: list[str] = []
    first, state = 0, (0, False, False)  # the law's first line; its scan (brackets, relation, rhs)
    for number, line in enumerate(text.split("\n"), 1):  # lines as the parser counts them
        code = line.split("#", 1)[0]
        if not chunk and not code.strip():
            continue  # blank or a comment between laws
        first = first or number
        chunk.append(line)
        state = _scan(code, *state)
        if state[0] <= 0 and state[2]:
            laws.append(_law_at("\n".join(chunk), first))
            chunk, first, state = [], 0, (0, False, False)
    if chunk or not laws:  # an unfinished law, or no law at all: the parser says what is missing
        laws.append(_law_at("\n".join(chunk), first or 1))
    return laws


def _scan(code: str, depth: int, related: bool, rhs: bool) -> tuple[int, bool, bool]:
    """A law's open brackets, whether its relation was seen and whether text follows it,
    after one more line of its ``code`` (comments removed), given those before it."""
    for c in code:
        if depth == 0 and c in "<>=":
            related, rhs = True, False
        elif related and not c.isspace():
            rhs = True
        depth += (c in "([{") - (c in ")]}")
    return depth, related, rhs


#: a law's name before it on its first line: ``seq_comm: seq(A, B) == seq(B, A)``
_NAMED = re.compile(r"[ \t]*([A-Za-z_]\w*)[ \t]*:")


def _law_at(text: str, first: int) -> Law:
    """``text`` parsed as one law that starts on line ``first`` of the whole text, with the
    name it may give itself (``NAME:`` before it; its id in the table).

    >>> _law_at("seq_comm: seq(A, B) == seq(B, A)", 1).id
    'seq_comm'
    """
    named = _NAMED.match(text)
    # the name's place kept blank: an error's column is where the user sees it
    law = " " * named.end() + text[named.end() :] if named else text
    try:
        return replace(parse_law(law, id=named.group(1) if named else None), line=first)
    except ParseError as error:
        if error.line and first > 1:
            raise ParseError(error.message, error.line + first - 1, error.column, error.excerpt) from None
        if error.line or not (named or first > 1):
            raise
        # no place of its own (nothing after a name, in a file): where the law was to begin
        after = f" after the name {named.group(1)}" if named else ""
        raise ParseError(f"{error.message}{after}", first, len(text.rstrip()) + 1, text.rstrip() + "^") from None


def validate(law: Law, library: Mapping[str, AtomicModel]) -> str:
    """Raise the error a user should see for a law that cannot be checked with ``library``;
    return the unit its sides are compared in: ns for times (a metavariable's model is
    one), else its atoms' one unit (``cnt > cnt`` of a count in B: B).

    >>> from patternalg.library.model_library import ModelLibrary
    >>> validate(parse_law("pipe(A, qsrot) == A"), ModelLibrary.builtin())
    Traceback (most recent call last):
    ...
    patternalg.errors.UnknownAtomError: unknown atom 'qsrot'; did you mean qsort?
    """
    units = {name: library[name].unit for name in (*law.atoms(), *law.shuffles())}  # unknown: did-you-mean
    unit = common_unit(units)
    if x in law.count_symbols():
        raise EvaluationError(
            f"{law}: x is the input size and cannot be a thread, node or key count"
        )
    if is_time(unit):
        return DEFAULT_UNIT
    if law.metavariables():
        name = next(iter(units))
        raise UnitError(
            f"{law}: cannot compose {name} ({units[name]}, {kind(units[name])}) with the metavariable "
            f"{law.metavariables()[0]}, which stands for a term of times (ns); valid: atoms in a unit of time"
        )
    return unit
