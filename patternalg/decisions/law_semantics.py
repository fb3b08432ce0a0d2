"""Which of the laws ``explore`` uses hold under which semantics: a machine's by what it has
(a hand-off, a dispatch cost, a turn, speed-ups, a wake) and what it is without."""

from __future__ import annotations

import itertools

from ..algebra.machine import MachineSemantics
from ..algebra.semantics import Semantics

__all__ = ["LAW_SEMANTICS", "HERE", "semantics_names", "usable_laws"]

#: the semantics under which each law that explore uses holds (checked by the test suite
#: against ``patternalg.laws.checker.check``): "proved" or "no-counterexample" there.
#: "machine" is every machine; a machine with a hand-off makes a pipe of light stages slower
#: than their ``seq``, one with a dispatch cost makes a pool of a light atom slower than the
#: atom (``tpool_2(inc)`` at 1,024 in the authors' framework: a speed-up of 0.78), as one
#: with a turn does (``tpool_2(nop)`` four times ``nop`` on ``data23``), and one
#: whose atoms have speed-ups of their own runs a pipeline's stages without them (so
#: ``pipe(tpool_4(qsort), tpool_4(inc))`` is not ``tpool_4(pipe(qsort, inc))``) and counts
#: the threads a speed-up leaves idle as busy (so a pool of pools beyond the cores can be
#: slower than fewer threads); and one with a wake makes a pipe whose second stage is the
#: faster pay to wake it (``pipe(inc, nop)`` 2.3 times ``seq(inc, nop)`` at x = 1,024 on
#: ``data21``)
LAW_SEMANTICS: dict[str, tuple[str, ...]] = {
    "pipe_vs_tpool2_seq": ("exact", "machine without a dispatch cost or a turn or speed-ups"),
    "pipe_tpool_layering": ("asymptotic", "exact", "machine without a dispatch cost or speed-ups"),
    "pipe_le_seq": ("asymptotic", "exact", "machine without a hand-off or a wake"),
    "tpool_speedup": ("asymptotic", "exact", "machine without a dispatch cost or a turn or speed-ups"),
    "tpool_more": ("asymptotic", "exact", "machine without a dispatch cost or a turn or speed-ups"),
}


#: where a law that does not hold on every such machine was used: its instance holds
HERE = "this machine at the point"

#: what a machine may have that a law may need it without, in the order names say them
_FEATURES = ("a hand-off", "a dispatch cost", "a turn", "speed-ups", "a wake")


def semantics_names(semantics: Semantics) -> frozenset[str]:
    """The names :data:`LAW_SEMANTICS` gives ``semantics``: its own, and for a machine
    "machine" and what it is without (each set of the features it lacks, as in "machine
    without a dispatch cost or a turn or speed-ups": it has none of them).

    >>> from patternalg.algebra.machine import Machine
    >>> sorted(semantics_names(Machine(2, handoff=100, speedups={"qsort": "p"}, wake=5000).semantics))
    ['machine', 'machine without a dispatch cost', 'machine without a dispatch cost or a turn', 'machine without a turn']
    >>> len(semantics_names(Machine(2).semantics))
    32
    """
    if not isinstance(semantics, MachineSemantics):
        return frozenset({semantics.name})
    machine = semantics.machine
    has = dict(zip(_FEATURES, (machine.handoff != 0, machine.dispatch != 0, semantics.pays_turn(), semantics.speeds_up(),
                               semantics.pays_wake()), strict=True))  # fmt: skip
    lacks = [feature for feature in _FEATURES if not has[feature]]
    names = {"machine"}
    for count in range(1, len(lacks) + 1):
        names |= {"machine without " + " or ".join(some) for some in itertools.combinations(lacks, count)}
    return frozenset(names)


def usable_laws(semantics: Semantics) -> frozenset[str]:
    """The laws :data:`LAW_SEMANTICS` says hold under ``semantics`` (the ranking's).

    >>> from patternalg.algebra.machine import Machine
    >>> sorted(usable_laws(Machine(2, handoff=100).semantics))
    ['pipe_tpool_layering', 'pipe_vs_tpool2_seq', 'tpool_more', 'tpool_speedup']
    >>> sorted(usable_laws(Machine(2, dispatch=800).semantics))
    ['pipe_le_seq']
    >>> sorted(usable_laws(Machine(2, turn=200).semantics))  # the turn bounds both sides of the layering alike
    ['pipe_le_seq', 'pipe_tpool_layering']
    >>> sorted(usable_laws(Machine(16, speedups={"qsort": "p/(1 + 0.05*(p - 1))"}).semantics))
    ['pipe_le_seq']
    """
    names = semantics_names(semantics)
    return frozenset(law for law, holds in LAW_SEMANTICS.items() if names & set(holds))
