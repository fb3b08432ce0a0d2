"""The abstract syntax of terms: frozen, hashable, printable back to the syntax they parse from.

Terms nest arbitrarily deep (a right-nested pipe of depth 10,000 is a fair design
document), so nothing here recurses on depth: hashes are computed bottom-up once, equality
and printing walk an explicit stack.

>>> from patternalg.syntax.parser import parse
>>> t = parse("pipe(tpool_4(qsort), inc)")
>>> t
parse('pipe(tpool_4(qsort), inc)')
>>> t.stages()
(parse('tpool_4(qsort)'), parse('inc'))
>>> parse(str(t)) == t
True
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple

import sympy

from .._internal.expression_limits import expansion_problem
from ..errors import ArgumentError
from .arith import format_expr, latex_text, whole_number

__all__ = [
    "Term", "Atom", "Meta", "Seq", "Pipe", "TPool", "Shuffle", "MapReduce", "canonical",
    "RESERVED_WORDS", "RESERVED_PREFIXES", "writable_atom_name", "count_problem", "TextOrder",
]

#: the patterns' own words: no atom is named so
RESERVED_WORDS = frozenset({"seq", "pipe"})
#: the prefixes of the patterns with counts: no atom's name starts so
RESERVED_PREFIXES = ("tpool_", "mapReduce_")
#: an atom's name as a term writes it: a lowercase letter first; dotted parts may follow
_ATOM_TEXT = re.compile(r"[a-z][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\Z")
#: a metavariable's name: a capital letter first
_META_TEXT = re.compile(r"[A-Z][A-Za-z0-9_]*\Z")


def writable_atom_name(name: object) -> bool:
    """Whether ``name`` is an atom's name that a term's text reads back as that atom.

    >>> writable_atom_name("qsort"), writable_atom_name("Qsort"), writable_atom_name("seq")
    (True, False, False)
    """
    return (
        isinstance(name, str)
        and bool(_ATOM_TEXT.match(name))
        and name not in RESERVED_WORDS
        and not name.startswith(RESERVED_PREFIXES)
    )


def count_problem(value: sympy.Expr, whole: bool = True) -> str | None:
    """Why ``value`` cannot be a pattern's count (``whole``: a thread, node or key count, a
    positive integer) or size (a mapReduce's d and k, an annotation: positive), or None.
    Every symbol is positive, so a count below 1 (a size not above 0) for all their values
    is none: ``-n``, ``1 - n``, ``(a - b)/a``. The parser and the constructors ask this one
    rule (a number is taken as :func:`~.arith.whole_number` reads it).

    >>> n = sympy.Symbol("n", positive=True)
    >>> [count_problem(v) for v in (sympy.Integer(4), n - 1, 1 - n, sympy.Float(2.5))]
    [None, None, 'below 1 for every positive value of its symbols', 'not a positive integer']
    >>> count_problem(sympy.Float(0.5), whole=False), count_problem(-n, whole=False)
    (None, 'not above 0 for any positive value of its symbols')
    """
    if value.is_number:
        if whole and not (value.is_integer and value.is_positive):
            return "not a positive integer"
        return None if whole or value.is_positive else "not a positive number"
    if whole and canonical(value - 1).is_negative:
        return "below 1 for every positive value of its symbols"
    if not whole and canonical(value).is_nonpositive:
        return "not above 0 for any positive value of its symbols"
    return None


def _count(value: object, what: str, *, whole: bool = True) -> sympy.Expr:
    """A pattern's count as an expression: a Python or sympy number must be a positive
    integer (``whole``) or positive; an expression in symbols stays as it is
    (:func:`count_problem`)."""
    given = value
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        value = sympy.Integer(int(value))
    elif isinstance(value, numbers.Real) and not isinstance(value, bool):
        value = sympy.Float(float(value))
    if whole and isinstance(value, sympy.Expr):
        value = whole_number(value)
    if not isinstance(value, sympy.Expr) or count_problem(value, whole):
        wanted = "a positive integer" if whole else "a positive number"
        raise ArgumentError.wanted(what, f"{wanted} or an expression in symbols such as n", given)
    return value


def _term(value: object, what: str) -> None:
    """An error unless ``value`` is a term."""
    if not isinstance(value, Term):
        raise ArgumentError.wanted(what, "a Term (patternalg.parse makes one from its text)", value)


def canonical(expr: sympy.Expr) -> sympy.Expr:
    """The canonical form of a parameter expression: expanded, so that printing and
    parsing it back gives the same expression however it was built.

    >>> from patternalg.syntax.symbols import symbol
    >>> canonical(2 * (symbol("k") + 1))
    2*k + 2
    >>> canonical(sympy.Mul(*(symbol(f"k{i}") + 1 for i in range(12))))
    Traceback (most recent call last):
    ...
    ValueError: the expression expands to more than 1,000 terms (a product of sums: multiply fewer of them)
    """
    too_large = expansion_problem(expr)
    if too_large:
        raise ValueError(too_large)
    return sympy.expand(expr)


def _canonical_fields(obj: object, names: tuple[str, ...]) -> None:
    for name in names:
        object.__setattr__(obj, name, canonical(getattr(obj, name)))


@dataclass(frozen=True, eq=False, repr=False)
class Term:
    """Base class of all terms."""

    _hash: int = field(init=False, repr=False, compare=False)

    def children(self) -> tuple[Term, ...]:
        """The direct sub-terms, left to right."""
        return ()

    def _key(self) -> tuple[object, ...]:
        """What identifies this node besides its children."""
        raise NotImplementedError

    def _normalize(self) -> None:
        """Bring parameter expressions to their canonical form (see :func:`canonical`)."""

    def __post_init__(self) -> None:
        self._normalize()
        own = (type(self).__name__, *self._key(), *(hash(c) for c in self.children()))
        object.__setattr__(self, "_hash", hash(own))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Term):
            return NotImplemented
        stack = [(self, other)]
        while stack:
            a, b = stack.pop()
            if a is b:
                continue
            if type(a) is not type(b) or a._hash != b._hash or a._key() != b._key():
                return False
            ca, cb = a.children(), b.children()
            if len(ca) != len(cb):
                return False
            stack.extend(zip(ca, cb, strict=True))
        return True

    def __str__(self) -> str:
        return format_term(self)

    def __repr__(self) -> str:
        return f"parse({str(self)!r})"

    def __reduce__(self) -> tuple[Callable[[Packed], Term], tuple[Packed]]:
        """Pickled flat, each node once with its children by index (:func:`packed`): pickle
        recursed once per level, and a term 10,000 deep was a RecursionError."""
        return unpacked_term, (packed([self]),)

    def __copy__(self) -> Term:
        return self  # immutable, as a tuple of strings

    def __deepcopy__(self, memo: dict[int, Any]) -> Term:
        return self  # immutable all the way down: its parts are terms, sympy numbers and text

    def _repr_latex_(self) -> str:
        return f"$\\mathtt{{{latex_text(str(self))}}}$"

    def walk(self) -> Iterator[Term]:
        """Every sub-term, this one first (pre-order), without recursion."""
        stack: list[Term] = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children()))

    def post_order(self, skip: Callable[[Term], bool] | None = None) -> Iterator[Term]:
        """Every sub-term once (by identity), children before their parent, without
        recursion; a sub-term for which ``skip`` holds is left out with its parts.

        >>> from patternalg.syntax.parser import parse
        >>> [str(t) for t in parse("seq(a, pipe(b, c))").post_order()]
        ['a', 'b', 'c', 'pipe(b, c)', 'seq(a, pipe(b, c))']
        """
        seen: set[int] = set()
        stack: list[tuple[Term, bool]] = [(self, False)]
        while stack:
            node, ready = stack.pop()
            if id(node) in seen or (skip is not None and skip(node)):
                continue
            kids = node.children()
            if kids and not ready:
                stack.append((node, True))
                stack.extend((c, False) for c in reversed(kids) if id(c) not in seen)
                continue
            seen.add(id(node))
            yield node

    def depth(self) -> int:
        """The nesting depth (an atom has depth 1)."""
        best = 0
        stack: list[tuple[Term, int]] = [(self, 1)]
        while stack:
            node, d = stack.pop()
            best = max(best, d)
            stack.extend((c, d + 1) for c in node.children())
        return best


@dataclass(frozen=True, eq=False, repr=False)
class Atom(Term):
    """A sequential building block whose model comes from the library.

    ``annotations`` bind symbols of the atom's model, sorted by name: ``kernel[p=8, phi=2.5]``.
    """

    name: str
    annotations: tuple[tuple[str, sympy.Expr], ...] = ()

    def _key(self) -> tuple[object, ...]:
        return (self.name, self.annotations)

    def _normalize(self) -> None:
        if not writable_atom_name(self.name):
            raise ArgumentError.wanted(
                "Atom name", "a lowercase letter, then letters, digits and _ (dotted parts may follow)", self.name
            )
        pairs = tuple(sorted((k, canonical(_count(v, f"{self.name}[{k}]", whole=False)))
                             for k, v in self.annotations))  # fmt: skip
        object.__setattr__(self, "annotations", pairs)


@dataclass(frozen=True, eq=False, repr=False)
class Meta(Term):
    """A metavariable of a law (``A``, ``B``): stands for any term."""

    name: str

    def _key(self) -> tuple[object, ...]:
        return (self.name,)

    def _normalize(self) -> None:
        if not (isinstance(self.name, str) and _META_TEXT.match(self.name)):
            raise ArgumentError.wanted("Meta name", "a capital letter, then letters, digits and _", self.name)


@dataclass(frozen=True, eq=False, repr=False)
class _Binary(Term):
    """A pattern of two sub-terms."""

    left: Term
    right: Term

    def children(self) -> tuple[Term, ...]:
        return (self.left, self.right)

    def _key(self) -> tuple[object, ...]:
        return ()

    def _normalize(self) -> None:
        _term(self.left, f"{type(self).__name__} left")
        _term(self.right, f"{type(self).__name__} right")


@dataclass(frozen=True, eq=False, repr=False)
class Seq(_Binary):
    """Sequential concatenation ``seq(left, right)`` (eq. 2: the models add)."""


@dataclass(frozen=True, eq=False, repr=False)
class Pipe(_Binary):
    """A two-stage pipeline ``pipe(left, right)`` (eq. 4: the slower stage)."""

    def stages(self) -> tuple[Term, ...]:
        """The stages of this pipeline with nested pipes flattened, left to right."""
        out: list[Term] = []
        stack: list[Term] = [self]
        while stack:
            node = stack.pop()
            if isinstance(node, Pipe):
                stack.extend((node.right, node.left))
            else:
                out.append(node)
        return tuple(out)


@dataclass(frozen=True, eq=False, repr=False)
class TPool(Term):
    """A task pool ``tpool_count(body)`` with ``count`` threads (eq. 3: the model over count)."""

    count: sympy.Expr
    body: Term

    def children(self) -> tuple[Term, ...]:
        return (self.body,)

    def _normalize(self) -> None:
        object.__setattr__(self, "count", _count(self.count, "TPool count"))
        _term(self.body, "TPool body")
        _canonical_fields(self, ("count",))

    def _key(self) -> tuple[object, ...]:
        return (self.count,)


@dataclass(frozen=True, repr=False)
class Shuffle:
    """The shuffle phase ``shuffle_{m,n}^{o}`` of a mapReduce; ``name`` is its library model."""

    name: str
    nodes: sympy.Expr
    threads: sympy.Expr
    keys: sympy.Expr

    def __post_init__(self) -> None:
        if not writable_atom_name(self.name):
            raise ArgumentError.wanted("Shuffle name", "an atom's name such as shuffle", self.name)
        for name in ("nodes", "threads", "keys"):
            object.__setattr__(self, name, _count(getattr(self, name), f"Shuffle {name}"))
        _canonical_fields(self, ("nodes", "threads", "keys"))

    def __str__(self) -> str:
        return (
            f"{self.name}_{{{format_expr(self.nodes)},{format_expr(self.threads)}}}"
            f"^{{{format_expr(self.keys)}}}"
        )


@dataclass(frozen=True, eq=False, repr=False)
class MapReduce(Term):
    """``mapReduce_{m,n}^{d,k}(map, shuffle_{m,n}^{o}, reduce)`` (eq. 5).

    ``shuffle`` is ``None`` in the short form ``mapReduce_{m,n}^{d,k}(map, reduce)``,
    which uses the library's ``shuffle`` model with o = k(x).
    """

    nodes: sympy.Expr
    threads: sympy.Expr
    per_key: sympy.Expr
    keys: sympy.Expr
    map: Term
    shuffle: Shuffle | None
    reduce: Term

    def children(self) -> tuple[Term, ...]:
        return (self.map, self.reduce)

    def head(self) -> str:
        """``mapReduce_{m,n}^{d,k}``: the operator with its sizes, without its parts."""
        return (
            f"mapReduce_{{{format_expr(self.nodes)},{format_expr(self.threads)}}}"
            f"^{{{format_expr(self.per_key)},{format_expr(self.keys)}}}"
        )

    def _normalize(self) -> None:
        for name in ("nodes", "threads", "per_key", "keys"):
            object.__setattr__(self, name, _count(getattr(self, name), f"MapReduce {name}", whole=name in ("nodes", "threads")))
        _term(self.map, "MapReduce map")
        _term(self.reduce, "MapReduce reduce")
        if self.shuffle is not None and not isinstance(self.shuffle, Shuffle):
            raise ArgumentError.wanted("MapReduce shuffle", "a Shuffle or None", self.shuffle)
        _canonical_fields(self, ("nodes", "threads", "per_key", "keys"))

    def _key(self) -> tuple[object, ...]:
        sh = self.shuffle
        shuffle_key = None if sh is None else (sh.name, sh.nodes, sh.threads, sh.keys)
        return (self.nodes, self.threads, self.per_key, self.keys, shuffle_key)


#: terms as one flat tuple: per node, children first, its class, its fields' values (a
#: sub-term's as its index in the tuple) and which of them are sub-terms
Flat = tuple[tuple[type["Term"], tuple[Any, ...], tuple[int, ...]], ...]


class Packed(NamedTuple):
    """Terms as they pickle: their nodes in one :data:`Flat` tuple, each distinct node once
    (by identity), and where each term is in it."""

    nodes: Flat
    at: tuple[int, ...]


def packed(terms: Iterable[Term]) -> Packed:
    """``terms`` flat, however deep, their shared parts once: a term pickles so, and a record
    of many sub-terms of one term (a derivation's steps) pickles them all in one.

    >>> a = Atom("a")
    >>> nodes, at = packed([Seq(a, a), a])
    >>> [(kind.__name__, values, kids) for kind, values, kids in nodes], at
    ([('Atom', ('a', ()), ()), ('Seq', (0, 0), (0, 1))], (1, 0))
    """
    index: dict[int, int] = {}
    nodes: list[tuple[type[Term], tuple[Any, ...], tuple[int, ...]]] = []
    at: list[int] = []
    for term in terms:
        for node in term.post_order(skip=lambda n: id(n) in index):
            values = [getattr(node, f.name) for f in fields(node) if f.init]
            kids = tuple(i for i, v in enumerate(values) if isinstance(v, Term))
            shown = tuple(index[id(v)] if isinstance(v, Term) else v for v in values)
            index[id(node)] = len(nodes)
            nodes.append((type(node), shown, kids))
        at.append(index[id(term)])
    return Packed(tuple(nodes), tuple(at))


def unpacked(pack: Packed) -> list[Term]:
    """The terms of :func:`packed`, each node built (and checked) by its constructor.

    >>> from patternalg.syntax.parser import parse
    >>> unpacked(packed([parse("tpool_4(pipe(a, b[p=2]))"), parse("c")]))
    [parse('tpool_4(pipe(a, b[p=2]))'), parse('c')]
    """
    built: list[Term] = []
    for kind, values, kids in pack.nodes:
        built.append(kind(*(built[v] if i in kids else v for i, v in enumerate(values))))
    return [built[i] for i in pack.at]


def unpacked_term(pack: Packed) -> Term:
    """The one term of :func:`packed` (what a pickled term is rebuilt by)."""
    return unpacked(pack)[0]


def format_count(count: sympy.Expr) -> str:
    """How a thread count prints after ``tpool_``: ``4``, ``n`` or ``{2*k}``; anything but a
    positive integer or a lowercase symbol in braces, so that the text reads back
    (``tpool_{a - b}``, not ``tpool_a - b``; ``tpool_{N}``: bare, ``tpool_N`` is refused).

    >>> [format_count(c) for c in (sympy.Integer(4), sympy.Symbol("n"), sympy.Integer(-1), sympy.Symbol("N"))]
    ['4', 'n', '{-1}', '{N}']
    """
    if count.is_Integer and count.is_positive:
        return str(int(count))  # not sympy's printer: a law's check prints 10,000 pools' counts
    if count.is_Symbol and count.name[:1].islower():
        return str(count.name)
    return "{" + format_expr(count) + "}"


def _format_atom(atom: Atom) -> str:
    if not atom.annotations:
        return atom.name
    inner = ", ".join(f"{k}={format_expr(v)}" for k, v in atom.annotations)
    return f"{atom.name}[{inner}]"


def format_term(term: Term) -> str:
    """Canonical syntax of ``term`` (binary forms; no recursion on depth).

    >>> from patternalg.syntax.parser import parse
    >>> format_term(parse("pipe(a, b, c)"))
    'pipe(a, pipe(b, c))'
    """
    return "".join(_pieces(term))


def _pieces(term: Term) -> Iterator[str]:
    """The text of ``term`` in order, piece by piece (no recursion on depth)."""
    # the stack holds terms still to print and literal strings to emit
    stack: list[Term | str] = [term]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, Atom):
            yield _format_atom(item)
        elif isinstance(item, Meta):
            yield item.name
        elif isinstance(item, Seq | Pipe):
            yield "seq(" if isinstance(item, Seq) else "pipe("
            stack.extend((")", item.right, ", ", item.left))
        elif isinstance(item, TPool):
            yield f"tpool_{format_count(item.count)}("
            stack.extend((")", item.body))
        elif isinstance(item, MapReduce):
            yield f"{item.head()}("
            middle = ", " if item.shuffle is None else f", {item.shuffle}, "
            stack.extend((")", item.reduce, middle, item.map))
        else:  # pragma: no cover - every Term subclass is handled above
            raise TypeError(f"not a term: {item!r}")


class TextOrder:
    """A sort key that orders terms as their text (``key=str``) does, printing each only as
    far as it must: two deep terms that differ near the front compare in microseconds, not
    in the 20 ms a 10,000-deep term's whole text takes.

    >>> from patternalg.syntax.parser import parse
    >>> designs = [parse("seq(qsort, tpool_2(inc))"), parse("seq(inc, qsort)"), parse("seq(inc, nop)")]
    >>> [str(d) for d in sorted(designs, key=TextOrder)] == sorted(map(str, designs))
    True
    """

    __slots__ = ("_pieces", "_text", "_done")

    def __init__(self, term: Term) -> None:
        self._pieces, self._text, self._done = _pieces(term), "", False

    def _through(self, end: int) -> str:
        """The text up to ``end`` characters (all of it, if shorter)."""
        grown = [self._text]
        length = len(self._text)
        while length < end and not self._done:
            piece = next(self._pieces, None)
            if piece is None:
                self._done = True
            else:
                grown.append(piece)
                length += len(piece)
        self._text = "".join(grown)
        return self._text[:end]

    def __lt__(self, other: TextOrder) -> bool:
        start, step = 0, 256
        while True:
            mine, theirs = self._through(start + step)[start:], other._through(start + step)[start:]
            if mine != theirs or len(mine) < step:  # they differ here, or both end here alike
                return mine < theirs
            start, step = start + step, 2 * step
