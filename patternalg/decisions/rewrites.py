"""The rewrites ``explore`` applies: each law of :data:`RULES` read one way at one place of a
term, built hash-consed (:class:`Make`), and :func:`neighbours`, every design one rewrite
away, with bounded rebuilding.

>>> from patternalg.syntax.parser import parse
>>> found, cut, rebuilt = neighbours(parse("pipe(qsort, inc)"), lambda pipe: 0, Make())
>>> [RULES[i][0] for _, i in found][:2], cut, rebuilt
(['pipe_vs_tpool2_seq', 'pipe_le_seq'], False, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy

from ..syntax.terms import MapReduce, Pipe, Seq, Term, TPool

__all__ = ["Make", "Rule", "RULES", "REBUILDS", "neighbours"]


class Make:
    """Builds terms hash-consed: an equal term built twice is the same object, so the
    search's lookups compare identities, and a pool's count is expanded once."""

    def __init__(self) -> None:
        self.made: dict[tuple[Any, ...], Term] = {}

    def node(self, kind: type, *parts: Any) -> Term:
        key = (kind, *(p if isinstance(p, int) else id(p) for p in parts))
        found = self.made.get(key)
        if found is None:
            if kind is TPool:
                found = TPool(sympy.Integer(parts[0]), parts[1])
            else:
                found = kind(*parts)
            self.made[key] = found
        return found

    def intern(self, term: Term) -> None:
        """Make every node of ``term`` the one built for its parts, so a rewrite that leads
        back to a part of ``term`` gives that very object (no comparison of whole terms)."""
        for node in term.post_order():
            if isinstance(node, Seq | Pipe):
                self.made.setdefault((type(node), id(node.left), id(node.right)), node)
            elif isinstance(node, TPool) and node.count.is_Integer:
                self.made.setdefault((TPool, int(node.count), id(node.body)), node)

    def seq(self, left: Term, right: Term) -> Term:
        return self.node(Seq, left, right)

    def pipe(self, left: Term, right: Term) -> Term:
        return self.node(Pipe, left, right)

    def pool(self, count: int | sympy.Expr, body: Term) -> Term:
        return self.node(TPool, int(count), body)


Rule = Callable[[Term, Make], list[Term]]


def _to_tpool2_seq(t: Term, make: Make) -> list[Term]:
    return [make.pool(2, make.seq(t.left, t.right))] if isinstance(t, Pipe) else []


def _from_tpool2_seq(t: Term, make: Make) -> list[Term]:
    if isinstance(t, TPool) and t.count == 2 and isinstance(t.body, Seq):
        return [make.pipe(t.body.left, t.body.right)]
    return []


def _layer(t: Term, make: Make) -> list[Term]:
    if (
        isinstance(t, Pipe)
        and isinstance(t.left, TPool)
        and isinstance(t.right, TPool)
        and t.left.count == t.right.count
    ):
        return [make.pool(t.left.count, make.pipe(t.left.body, t.right.body))]
    return []


def _unlayer(t: Term, make: Make) -> list[Term]:
    if isinstance(t, TPool) and isinstance(t.body, Pipe):
        if isinstance(t.body.left, TPool) or isinstance(t.body.right, TPool):
            return []  # a pool in a pool is tpool_nest's business, not a new design
        return [make.pipe(make.pool(t.count, t.body.left), make.pool(t.count, t.body.right))]
    return []


def _fission(t: Term, make: Make) -> list[Term]:
    return [make.pipe(t.left, t.right)] if isinstance(t, Seq) else []


def _fusion(t: Term, make: Make) -> list[Term]:
    return [make.seq(t.left, t.right)] if isinstance(t, Pipe) else []


def _introduce(t: Term, make: Make) -> list[Term]:
    return [] if isinstance(t, TPool | MapReduce) else [make.pool(2, t)]


def _eliminate(t: Term, make: Make) -> list[Term]:
    return [t.body] if isinstance(t, TPool) and t.count == 2 else []


def _more(t: Term, make: Make) -> list[Term]:
    return [make.pool(int(t.count) + 1, t.body)] if isinstance(t, TPool) else []


def _fewer(t: Term, make: Make) -> list[Term]:
    if isinstance(t, TPool) and t.count > 2:
        return [make.pool(int(t.count) - 1, t.body)]
    return []


#: (law id, direction, relation between before and after, rule)
RULES: tuple[tuple[str, str, str, Rule], ...] = (
    ("pipe_vs_tpool2_seq", "->", ">=", _to_tpool2_seq),
    ("pipe_vs_tpool2_seq", "<-", "<=", _from_tpool2_seq),
    ("pipe_tpool_layering", "->", "==", _layer),
    ("pipe_tpool_layering", "<-", "==", _unlayer),
    ("pipe_le_seq", "<-", ">=", _fission),  # seq(A, B) >= pipe(A, B)
    ("pipe_le_seq", "->", "<=", _fusion),
    ("tpool_speedup", "<-", ">=", _introduce),  # A >= tpool_2(A)
    ("tpool_speedup", "->", "<=", _eliminate),
    ("tpool_more", "<-", ">=", _more),  # tpool_n(A) >= tpool_{n+1}(A)
    ("tpool_more", "->", "<=", _fewer),
)


#: the rules that put a pool at the place they rewrite: none is used directly in a pool
_POOLED = (_introduce, _to_tpool2_seq, _layer)


def _rebuild(node: Term, children: list[Term], make: Make) -> Term:
    if isinstance(node, Seq):
        return make.seq(children[0], children[1])
    if isinstance(node, Pipe):
        return make.pipe(children[0], children[1])
    if isinstance(node, TPool):
        return make.pool(node.count, children[0])
    raise AssertionError(f"not rebuilt: {type(node).__name__}")  # pragma: no cover


#: sub-terms one expansion may rebuild (each rewrite rebuilds the path from its place to the
#: root): the rewrites of a design of thousands of sub-terms are tried nearest the root first
#: and stop there, so one expansion costs about as much as one walk over the design
REBUILDS = 20_000


#: where a node sits: (its parent, its slot in the parent, the parent's own place), or None
#: at the root; shared by siblings, so walking a design costs one entry per node
_Place = tuple[Term, int, "_Place"] | None


def neighbours(
    term: Term,
    slower: Callable[[Pipe], int],
    make: Make,
    rebuilds: int = REBUILDS,
    laws: frozenset[str] | None = None,
    holds_here: Callable[[str, Term, Term], bool] | None = None,
) -> tuple[list[tuple[Term, int]], bool, int]:
    """Every design one rewrite away (not inside mapReduces), with the index of its rule,
    in depth-first order from the root; whether the list stopped early, because building
    the designs rebuilt ``rebuilds`` sub-terms; and how many it rebuilt. ``laws``: the laws
    that may be used everywhere (default: every law of :data:`RULES`); ``holds_here(relation,
    before, after)``: whether an instance of one of the others holds between ``term`` and
    the design it rewrites it to (then it is used there).

    Threads are only added on the critical path: a task pool is introduced around a part,
    and gets one more thread, only where that part sets the pace (the whole term, the parts
    of a ``seq`` on the path, through each pipe its slower stage, as ``slower`` says):
    replication of the bottleneck, not of every stage. No rule puts a pool directly in a
    pool (``tpool_nest``'s business). Until 2026-11-30 pools were introduced only around the
    whole term or a pipe stage, so ``seq(tpool_2(qsort), inc)``, one rewrite from
    ``seq(qsort, inc)``, was reached only through a design of 3 threads, and pipe stages
    in a pool layered into a pool directly in one (a design of 8 threads reached
    ``tpool_2(tpool_2(seq(nop, nop)))``, of 4, that 4 to 7 threads could not).
    """
    found: list[tuple[Term, int]] = []
    budget = rebuilds
    # (node, its place, on the critical path?)
    stack: list[tuple[Term, _Place, bool]] = [(term, None, True)]
    while stack:
        node, place, critical = stack.pop()
        up = place[0] if place is not None else None
        for index, (law, _, relation, rule) in enumerate(RULES):
            everywhere = laws is None or law in laws
            if not everywhere and holds_here is None:
                continue
            if (rule is _more or rule is _introduce) and not critical:
                continue
            if rule in _POOLED and isinstance(up, TPool):
                continue  # no pool directly in a pool (tpool_nest's business)
            for replacement in rule(node, make):
                new, where = replacement, place
                while where is not None:
                    parent, slot, where = where
                    kids = list(parent.children())
                    kids[slot] = new
                    new = _rebuild(parent, kids, make)
                    rebuilds -= 1
                # the whole designs: on a machine a part's relation alone says nothing of
                # the design's (the pools around it share its cores)
                if everywhere or holds_here(relation, term, new):  # type: ignore[misc]
                    found.append((new, index))
                if rebuilds <= 0:
                    return found, True, budget - rebuilds
        if isinstance(node, MapReduce):
            continue
        bottleneck = slower(node) if isinstance(node, Pipe) else None
        for slot, child in enumerate(node.children()):
            on_path = critical and (bottleneck is None or bottleneck == slot)
            stack.append((child, (node, slot, place), on_path))
    return found, False, budget - rebuilds
