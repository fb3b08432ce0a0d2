"""A law inside the terms around it: ``C[lhs] REL C[rhs]`` for the one-hole contexts C of
every operator (``check --in-context``).

Under the paper's semantics the operators are monotone, so a law that holds holds in every
context. The machine semantics is not compositional: a part shares the cores and pools of
the term around it, and ``pipe_le_seq``, which holds on a machine without a hand-off or a
wake, slows a design inside a pool with a dispatch cost (docs/laws.md). Each context is a law of its
own, with a fresh metavariable for the term beside the hole and a fresh count for a pool's
threads, so the search draws them as it draws the law's own.

>>> from patternalg.laws.language import parse_law
>>> [str(law) for law in in_contexts(parse_law("pipe(A, B) <= seq(A, B)"))][:2]
['tpool_c(pipe(A, B)) <= tpool_c(seq(A, B))', 'seq(Z, pipe(A, B)) <= seq(Z, seq(A, B))']
>>> [law.id for law in in_contexts(parse_law("pipe(A, B) <= seq(A, B)", id="pipe_le_seq"))][-1]
'pipe_le_seq in pipe(_, Z)'
"""

from __future__ import annotations

from collections.abc import Callable

from ..syntax.symbols import symbol
from ..syntax.terms import Meta, Pipe, Seq, Term, TPool
from .builtin import as_law
from .language import Law

__all__ = ["in_contexts"]


def in_contexts(law: Law | str) -> tuple[Law, ...]:
    """``law`` (a law, its text or a built-in law's id) inside each one-hole context: a pool
    of a fresh count, and a ``seq`` and a ``pipe`` with a fresh metavariable on either side
    of it.

    >>> str(in_contexts("A == A")[0])
    'tpool_c(A) == tpool_c(A)'
    """
    law = as_law(law)
    beside = Meta(_fresh("Z", set(law.metavariables())))
    count = symbol(_fresh("c", {s.name for s in law.count_symbols()} | set(law.atoms())))
    contexts: tuple[tuple[str, Callable[[Term], Term]], ...] = (
        (f"tpool_{count}(_)", lambda hole: TPool(count, hole)),
        (f"seq({beside}, _)", lambda hole: Seq(beside, hole)),
        (f"seq(_, {beside})", lambda hole: Seq(hole, beside)),
        (f"pipe({beside}, _)", lambda hole: Pipe(beside, hole)),
        (f"pipe(_, {beside})", lambda hole: Pipe(hole, beside)),
    )
    return tuple(
        Law(around(law.lhs), law.relation, around(law.rhs), f"{law.id} in {text}" if law.id else f"in {text}", law.source)
        for text, around in contexts
    )


def _fresh(name: str, taken: set[str]) -> str:
    """``name``, or ``name`` with the first number that makes it unused."""
    found, number = name, 1
    while found in taken:
        found, number = f"{name}{number}", number + 1
    return found
