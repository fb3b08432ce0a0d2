"""``explore``: the designs reachable from a term by rewrites that built-in laws justify.

Each rewrite is one of the algebra's laws (:data:`patternalg.laws.checker.BUILTIN_LAWS`) read
left to right or right to left at one place of the term, and is named by the law and
the semantics under which the law holds (:data:`LAW_SEMANTICS`):

* ``pipe_vs_tpool2_seq``: ``pipe(A, B)`` <-> ``tpool_2(seq(A, B))``
* ``pipe_tpool_layering``: ``pipe(tpool_n(A), tpool_n(B))`` <-> ``tpool_n(pipe(A, B))``
* ``pipe_le_seq``: stage fission ``seq(A, B)`` -> ``pipe(A, B)`` and fusion, back
* ``tpool_speedup``: task-pool introduction ``A`` -> ``tpool_2(A)`` and elimination
* ``tpool_more``: replication ``tpool_n(A)`` -> ``tpool_{n+1}(A)`` and back

Designs are counted in threads (an atom or a pipe stage costs one thread, ``seq`` the
larger of its parts, ``pipe`` the sum of its stages, ``tpool_n`` n times its body), kept
within the budget, and ranked by the pointwise model at the given point (or, without
one, by the asymptotic closed form). Designs of the same model (the same value at the
point, the same normal form without one) are one answer: the one with the fewest threads
and the shortest text is shown, the others counted (``equivalent``). Every design carries
its chain of rewrites (the shortest found).

>>> result = explore("pipe(qsort, inc)", threads=2, at={"x": 1024})
>>> result.designs[0].term, [r.law for r in result.designs[0].rewrites]
('tpool_2(seq(qsort, inc))', ['pipe_vs_tpool2_seq'])
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import sympy

from .._internal.callbacks import ProgressCallback
from .._internal.limits import MAX_SEARCH_REBUILDS, printable, whole_number_text
from .._internal.tables import Tabular, fields_json, with_unit
from ..algebra.arrays import SYMBOLIC_NODES
from ..algebra.bindings import as_value, decided_number, held_by_double
from ..algebra.domains import negative_note, range_notes
from ..algebra.evaluation import evaluate
from ..algebra.fold import model_symbols
from ..algebra.machine import MachineSemantics, cores_of
from ..algebra.pointwise import at_point, with_counts
from ..algebra.semantics import Semantics
from ..algebra.units import in_unit
from ..arguments import as_bindings, as_term
from ..errors import EvaluationError
from ..laws.builtin import builtin_law
from ..library.machines import MachineLike, semantics_of
from ..library.model_library import AtomicModel, ModelLibrary
from ..syntax.arith import format_expr, number_text
from ..syntax.symbols import symbol
from ..syntax.terms import Term
from .design_values import DesignValues, text_length, thread_count
from .options import EXPANSIONS, EXPLORE_THREADS, EXPLORE_TOP
from .rewrites import REBUILDS, RULES, Make, neighbours

__all__ = ["Rewrite", "Design", "Exploration", "explore", "thread_count", "LAW_SEMANTICS", "RULES"]

#: the semantics under which each law that explore uses holds (checked by the test suite
#: against ``patternalg.laws.checker.check``): "proved" or "no-counterexample" there.
#: "machine" is every machine; a machine with a hand-off makes a pipe of light stages slower
#: than their ``seq``, one with a dispatch cost makes a pool of a light atom slower than the
#: atom (``tpool_2(inc)`` at 1,024 in the authors' framework: a speed-up of 0.78), and one
#: whose atoms have speed-ups of their own runs a pipeline's stages without them (so
#: ``pipe(tpool_4(qsort), tpool_4(inc))`` is not ``tpool_4(pipe(qsort, inc))``) and counts
#: the threads a speed-up leaves idle as busy (so a pool of pools beyond the cores can be
#: slower than fewer threads)
LAW_SEMANTICS: dict[str, tuple[str, ...]] = {
    "pipe_vs_tpool2_seq": ("exact", "machine without a dispatch cost or speed-ups"),
    "pipe_tpool_layering": ("asymptotic", "exact", "machine without a dispatch cost or speed-ups"),
    "pipe_le_seq": ("asymptotic", "exact", "machine without a hand-off"),
    "tpool_speedup": ("asymptotic", "exact", "machine without a dispatch cost or speed-ups"),
    "tpool_more": ("asymptotic", "exact", "machine without a dispatch cost or speed-ups"),
}


#: where a law that does not hold on every such machine was used: its instance holds
HERE = "this machine at the point"

#: what a machine may have that a law may need it without, in the order names say them
_FEATURES = ("a hand-off", "a dispatch cost", "speed-ups")


def semantics_names(semantics: Semantics) -> frozenset[str]:
    """The names :data:`LAW_SEMANTICS` gives ``semantics``: its own, and for a machine
    "machine" and what it is without (each set of the features it lacks, as in "machine
    without a dispatch cost or speed-ups": it has neither).

    >>> from patternalg.algebra.machine import Machine
    >>> sorted(semantics_names(Machine(2, handoff=100, speedups={"qsort": "p"}).semantics))
    ['machine', 'machine without a dispatch cost']
    >>> len(semantics_names(Machine(2).semantics))
    8
    """
    if not isinstance(semantics, MachineSemantics):
        return frozenset({semantics.name})
    machine = semantics.machine
    has = dict(zip(_FEATURES, (machine.handoff != 0, machine.dispatch != 0, semantics.speeds_up()), strict=True))
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
    >>> sorted(usable_laws(Machine(16, speedups={"qsort": "p/(1 + 0.05*(p - 1))"}).semantics))
    ['pipe_le_seq']
    """
    names = semantics_names(semantics)
    return frozenset(law for law, holds in LAW_SEMANTICS.items() if names & set(holds))


#: runs of one law a derivation lists in order before it only counts each law
_RUNS = 6


@dataclass(frozen=True)
class Rewrite:
    """One step: ``before`` became ``after`` by ``law`` read in ``direction``; ``relation``
    holds between the whole designs (``before >= after``: the step never slows the design)."""

    law: str
    direction: str  #: "->" (left to right) or "<-"
    relation: str  #: between before and after: "==", ">=" or "<="
    semantics: tuple[str, ...]
    before: str
    after: str

    def to_json(self) -> dict[str, Any]:
        """``{law, direction, relation, semantics, before, after}``."""
        return fields_json(self)

    def step(self) -> str:
        """The law and the way it was applied, its sides in the order read.

        >>> Rewrite("pipe_vs_tpool2_seq", "->", ">=", ("exact",), "b", "a").step()
        'pipe_vs_tpool2_seq: pipe(A, B) => tpool_2(seq(A, B))'
        """
        law = builtin_law(self.law)
        source, target = (law.lhs, law.rhs) if self.direction == "->" else (law.rhs, law.lhs)
        return f"{self.law}: {source} => {target}"


@dataclass(frozen=True)
class Design:
    """A design reached from the start term, its value, thread count and rewrite chain."""

    term: str
    value: float | None  #: the pointwise model at the point (None when ranked asymptotically)
    #: its closed form with the point's non-x symbols bound: the paper's asymptotic one, or
    #: on a machine the machine's (whose values rank the designs), there None for a design
    #: of more than ``SYMBOLIC_NODES`` sub-terms (its value is folded; the form took seconds)
    model: str | None
    threads: int
    rewrites: tuple[Rewrite, ...]
    #: other designs reached with the same model (rewritings of this one, not shown)
    equivalent: int = 0
    #: with ``interval=``: the central interval of what a measurement would show, and
    #: whether a measurement could tell this design from the best (None: not asked)
    interval: tuple[float, float] | None = None
    indistinguishable: bool | None = None

    def to_json(self) -> dict[str, Any]:
        """``{term, value, model, threads, rewrites, equivalent}`` (and ``interval``,
        ``indistinguishable`` with an interval)."""
        data = fields_json(self)
        if self.interval is None:
            data.pop("interval")
            data.pop("indistinguishable")
        else:
            data["interval"] = list(self.interval)
        return data

    def derivation(self) -> str:
        """The chain of rewrites in one short line: each law with the way it was applied
        (its sides, metavariables for the parts), in order with repeats counted, or, for a
        chain of more than :data:`_RUNS` runs, how often each was used.

        >>> more = Rewrite("tpool_more", "<-", ">=", ("exact",), "a", "b")
        >>> fewer = Rewrite("tpool_more", "->", "<=", ("exact",), "b", "a")
        >>> Design("b", 1.0, "1", 3, (more, more)).derivation()
        'by 2 rewrites: tpool_more: tpool_n(A) => tpool_{n + 1}(A) x2'
        >>> Design("b", 1.0, "1", 3, (more, fewer) * 4 + (more,)).derivation()
        'by 9 rewrites: tpool_more: tpool_n(A) => tpool_{n + 1}(A) x5, tpool_more: tpool_{n + 1}(A) => tpool_n(A) x4 (in all)'
        """
        steps = [r.step() for r in self.rewrites]
        runs: list[list[Any]] = []
        for step in steps:
            if runs and runs[-1][0] == step:
                runs[-1][1] += 1
            else:
                runs.append([step, 1])
        note = ""
        if len(runs) > _RUNS:
            runs = [[step, steps.count(step)] for step in dict.fromkeys(steps)]
            note = " (in all)"
        laws = ", ".join(step if count == 1 else f"{step} x{count}" for step, count in runs)
        return f"by {len(steps)} rewrite{'s' if len(steps) != 1 else ''}: {laws}{note}"


@dataclass(frozen=True)
class Exploration(Tabular):
    """The ranked designs of :func:`explore`."""

    start: str
    threads: int
    at: tuple[tuple[str, str], ...]
    designs: tuple[Design, ...]  #: the best ``top``, best first
    visited: int  #: designs within the thread budget that were reached
    #: True where the search visited every design that its rewrites (:func:`.rewrites.neighbours`)
    #: reach from the start through designs within the budget (one reached only through a
    #: design of more threads is not: a larger budget may find it); False if it stopped
    complete: bool
    unit: str  #: of every value and closed form (the atoms converted to it)
    notes: tuple[str, ...] = ()  #: which atoms were converted to :attr:`unit`
    level: float | None = None  #: with ``interval=``: the intervals' level

    def to_json(self) -> dict[str, Any]:
        """``{start, threads, at, designs, visited, complete, unit, notes}`` (and ``level``)."""
        data = {**fields_json(self), "at": dict(self.at)}
        if self.level is None:
            data.pop("level")
        return data

    def header(self) -> list[str]:
        """Columns of the ranking (with an interval: ``low``, ``high`` after the value)."""
        bounds = ["low", "high", _CANNOT_TELL] if self.level is not None else []
        return ["rank", "term", with_unit("value", self.unit), *bounds, "threads", "rewrites", "equivalent"]

    def rows(self) -> list[list[Any]]:
        """One row per design; rewrites as ``law ->`` steps; with an interval, its ends and
        whether a measurement could not tell the design from the best (the best: empty)."""
        return [
            [
                i + 1,
                d.term,
                d.value if d.value is not None else d.model,
                *([] if self.level is None else [*(d.interval or (None, None)), d.indistinguishable if i else None]),
                d.threads,
                "; ".join(r.step() for r in d.rewrites),
                d.equivalent,
            ]
            for i, d in enumerate(self.designs)
        ]

    def plot(self, ax: Any = None) -> Any:
        """The ranked designs' values as bars, best on top (matplotlib axes)."""
        from ..plotting.results import plot_exploration

        return plot_exploration(self, ax=ax)

    def lines(self, why: bool = False) -> list[str]:
        """The ranking for people: each design (the simplest of those with its model, the
        others counted) and the laws that lead to it in one line; ``why``: each step."""
        unit = f" {self.unit}"
        lines = []
        for i, d in enumerate(self.designs):
            shown = f"{d.value:.6g}{unit}" if d.value is not None else d.model or ""
            if d.interval is not None:
                low, high = (number_text(v, 3) for v in d.interval)
                shown += f" [{low}, {high}]" + (f" ({_CANNOT_TELL})" if d.indistinguishable and i else "")
            others = d.equivalent
            more = f"; and {others} equivalent rewriting{'s' if others > 1 else ''}" if others else ""
            lines.append(f"{i + 1}. {d.term}  =  {shown}  ({_threads(d.threads)}{more})")
            if not why:
                if d.rewrites:
                    lines.append(f"     {d.derivation()}")
                continue
            for r in d.rewrites:
                lines.append(
                    f"     {r.law} {r.direction} [{'/'.join(r.semantics)}]: "
                    f"{r.before}  {r.relation}  {r.after}"
                )
        return lines + self._summary()

    def _summary(self) -> list[str]:
        """The lines after the designs: the search's extent, how they are ranked."""
        budget = _threads(self.threads)
        state = (
            f"complete: all that the rewrites reach through designs within {budget}"
            if self.complete
            else "stopped: raise --expansions to search further"
        )
        designs = f"{self.visited} design{'s' if self.visited != 1 else ''}"
        lines = [f"{designs} within {budget} visited ({state})"]
        if any(d.value is None for d in self.designs):
            lines.append(f"models in {self.unit}, ranked by their growth in x")
        if self.level is not None:
            lines.append(
                f"intervals: {100 * self.level:g} % of what a measurement would show; a design "
                "the best is faster than in fewer of the joint draws cannot be told from it"
            )
        return lines

    def caption(self) -> str:
        """How far the search went, how the designs are ranked, and with an interval which
        ranks a measurement could not tell from the best (above the HTML table).

        >>> explore("pipe(qsort, inc)", threads=2, at={"x": 1024}).caption()
        '6 designs within 2 threads visited (complete: all that the rewrites reach through designs within 2 threads)'
        """
        summary = self._summary()
        if self.level is not None:
            ranks = [str(i + 1) for i, d in enumerate(self.designs) if i and d.indistinguishable]
            summary.append(
                f"{_CANNOT_TELL} at {100 * self.level:g} %: "
                + (f"rank {', '.join(ranks)}" if ranks else "none of the others")
            )
        return "; ".join(summary)


#: a design a measurement could not tell from the best (with ``interval=``)
_CANNOT_TELL = "cannot tell from the best"


def _threads(count: int) -> str:
    return f"{count} thread{'s' if count != 1 else ''}"


def _shortest(
    start: Term, edges: Mapping[Term, list[tuple[Term, int]]]
) -> tuple[dict[Term, tuple[Term, int] | None], dict[Term, int]]:
    """The shortest derivation of every design reached over the rewrites found: its parent
    and rule, and its depth (breadth first)."""
    parent: dict[Term, tuple[Term, int] | None] = {start: None}
    depth = {start: 0}
    frontier = [start]
    while frontier:
        following = []
        for design in frontier:
            for new, rule in edges.get(design, ()):
                if new not in parent:
                    parent[new], depth[new] = (design, rule), depth[design] + 1
                    following.append(new)
        frontier = following
    return parent, depth


def _same_model(designs: list[Term], rank: Callable[[Term], Any]) -> list[list[Term]]:
    """``designs`` (sorted by ``rank``) in runs of the same model: the same value at the
    point (to a relative 1e-12, the rounding of different association orders) or the same
    normal form (to the same precision in each coefficient)."""
    groups: list[list[Term]] = []
    key: Any = None
    for design in designs:
        mine = rank(design)
        if groups and _close(mine, key):
            groups[-1].append(design)
        else:
            groups.append([design])
            key = mine
    return groups


def _close(a: Any, b: Any) -> bool:
    """Whether two ranks (numbers, or tuples of (i, j, c) terms) are equal to a relative
    1e-12 in every number."""
    if isinstance(a, tuple):
        return len(a) == len(b) and all(
            _close(u, v) for s, t in zip(a, b, strict=True) for u, v in zip(s, t, strict=True)
        )
    return bool(abs(a - b) <= 1e-12 * max(abs(a), abs(b)))


def explore(
    term: str | Term,
    *,
    threads: int | None = None,
    at: Mapping[str, Any] | None = None,
    top: int = EXPLORE_TOP.default,
    expansions: int = EXPANSIONS.default,
    library: Mapping[str, AtomicModel] | None = None,
    unit: str | None = None,
    progress: ProgressCallback = None,
    machine: MachineLike = None,
    cores: int | None = None,
    interval: float | None = None,
    seed: int = 0,
) -> Exploration:
    """Designs reachable from ``term`` by law-justified rewrites within ``threads`` threads,
    best first (pointwise at ``at`` if it binds x, else by asymptotic growth); values in
    ``unit`` (default: the atoms' common unit; times of different units: ns).

    The search is best first: the most promising design found so far is rewritten next,
    until none is left (``complete``) or ``expansions`` designs have been rewritten;
    ``progress(expanded, expansions)`` after each.

    ``machine`` (a machine, a machine file's path or a number of cores; ``cores``, as
    ``--cores``: replaces its cores, or alone a machine of that many) ranks under its
    semantics at the point (``at`` must bind x), rewrites where the rewrite's relation holds
    between the whole designs at the point (a pool around qsort, not around a light atom its
    dispatch cost slows; the machine semantics is not compositional, so a law that holds on
    such a machine, :func:`usable_laws`, is checked there too, and named by where it holds),
    and makes ``threads`` default to its cores.
    ``interval`` (a level such as 0.9; at a point) gives each shown design its interval and
    says which a measurement could not tell from the best (:mod:`.intervals`).
    """
    semantics = semantics_of("exact", machine, cores)
    cores = cores_of(semantics)
    if threads is None and cores is None:
        raise EvaluationError("explore needs a thread budget (--threads N, or a machine: --cores N)")
    budget = EXPLORE_THREADS.value(threads if threads is not None else cores)
    top = EXPLORE_TOP.value(top)
    expansions = EXPANSIONS.value(expansions)
    start, at, library = as_term(term), as_bindings(at), ModelLibrary.of(library)
    library, unit, notes = in_unit([start], library, unit)
    semantics = semantics.in_unit(unit)
    fixed = {k: decided_number(k, as_value(v)) for k, v in (at or {}).items()}
    laws = usable_laws(semantics) if cores is not None else None
    if cores is not None and threads is not None and budget > cores:
        notes += (f"--threads {budget} on {cores} cores: beyond them the cores bound the values",)
    # every binding names a symbol of the design (on a machine, x its hand-off reads), once
    at_point(start, library, fixed, semantics if cores is not None else Semantics.ASYMPTOTIC)
    start = with_counts(start, fixed)  # --at n=2: the designs have 2 threads there, not n
    pointwise = _at_a_point(start, library, semantics, fixed)
    used = thread_count(start)
    if used > budget:
        raise EvaluationError(
            f"{printable(str(start))} already uses {whole_number_text(used)} threads, more than --threads {budget}"
        )
    values = DesignValues(library, fixed, semantics)
    if pointwise:  # checks every name and count once, with the user's message
        value = values.number(start)
        if not held_by_double(value, lambda: at_point(start, library, fixed, semantics).expr):
            where = ", ".join(f"{k}={format_expr(v)}" for k, v in fixed.items())
            side = "beyond" if math.isinf(value) else "below"
            raise EvaluationError(
                f"{printable(str(start))} is {side} a double's range at --at {where} (eval gives "
                "its value there): explore ranks designs by their values at the point"
                + ("; give a smaller x" if math.isinf(value) else "")
            )
    else:
        values.form(start)
    slower = values.slower_at_point if pointwise else values.slower_asymptotically
    # on a machine (always at a point) every rewrite is used where it holds between the
    # whole designs there: a pool of qsort, not of a light atom its dispatch slows; and a
    # law that holds on the machine need not hold inside a term, where its sides share the
    # cores and pools of the rest (the machine semantics is not compositional: pipe_le_seq
    # holds without a hand-off, but tpool_2(pipe(qsort, inc)) pays a whole dispatch where
    # tpool_2(seq(qsort, inc)) pays at most an element's time)
    counts: dict[Term, int] = {}

    def holds_here(relation: str, before: Term, after: Term) -> bool:  # a design beyond the budget is not kept
        return thread_count(after, counts) <= budget and values.relation_holds(relation, before, after)

    checked = frozenset[str]() if laws is not None else None
    rank: Callable[[Term], Any] = values.number if pointwise else values.growth
    make = Make()
    make.intern(start)
    parent: dict[Term, tuple[Term, int] | None] = {start: None}
    depth = {start: 0}
    # best first: the most promising design is expanded next, up to ``expansions`` of them
    queue = [(rank(start), 0, 0, start)]
    #: every rewrite within the budget (as many as the neighbours generated: the search's
    #: own work), for the shortest derivations
    edges: dict[Term, list[tuple[Term, int]]] = {}
    complete, expanded, left = True, 0, MAX_SEARCH_REBUILDS
    notes_cut: list[str] = []
    while queue:
        if expanded >= expansions or left <= 0:
            complete = False
            if left <= 0:
                notes_cut.append(
                    f"the search stopped after {expanded:,} designs: it had rebuilt "
                    f"{MAX_SEARCH_REBUILDS:,} sub-terms (the limit of one search, "
                    "docs/errors.md); rewrite an inner part on its own to search there"
                )
            break
        *_, design = heapq.heappop(queue)
        expanded += 1
        if progress is not None:
            progress(expanded, expansions)
        found, cut, rebuilt = neighbours(design, slower, make, min(REBUILDS, left), checked, holds_here if laws is not None else None)
        left -= rebuilt
        if cut and left > 0 and not notes_cut:
            notes_cut.append(
                f"designs of thousands of sub-terms: each expansion tried only the rewrites "
                f"nearest the root (until {REBUILDS:,} sub-terms were rebuilt); rewrite an "
                "inner part on its own to search there"
            )
        for new, rule in found:
            if new in parent:
                edges.setdefault(design, []).append((new, rule))
                continue
            if thread_count(new, counts) > budget:
                continue
            edges.setdefault(design, []).append((new, rule))
            parent[new] = (design, rule)
            depth[new] = depth[design] + 1
            heapq.heappush(queue, (rank(new), depth[new], len(parent), new))
    parent, depth = _shortest(start, edges)
    groups = _same_model(sorted(parent, key=rank), rank)
    lengths: dict[Term, int] = {}
    designs = [
        min(g, key=lambda d: (thread_count(d, counts), text_length(d, lengths), depth[d]))
        for g in groups
    ]
    complete = complete and not notes_cut
    notes += tuple(notes_cut)
    notes += tuple(range_notes([start, designs[0]], library, fixed, {}))
    if pointwise:
        notes += tuple(negative_note(str(designs[0]), values.number(designs[0]), unit))
    mapping = {symbol(k): v for k, v in fixed.items() if k != "x"}
    ranked = []
    for design, group in zip(designs[:top], groups, strict=False):
        chain: list[Rewrite] = []
        node = design
        while parent[node] is not None:
            before, rule = parent[node]  # type: ignore[misc]
            law, direction, relation, _ = RULES[rule]
            holds = LAW_SEMANTICS[law] if laws is None or law in laws else (HERE,)
            chain.append(Rewrite(law, direction, relation, holds, str(before), str(node)))
            node = before
        model = None
        if cores is None or sum(1 for _ in design.walk()) <= SYMBOLIC_NODES:  # a machine's: seconds per deep design
            closed = evaluate(design, library, Semantics.ASYMPTOTIC if cores is None else semantics)
            model = format_expr(closed.xreplace(mapping))
        ranked.append(
            Design(
                str(design),
                values.number(design) if pointwise else None,
                model,
                thread_count(design),
                tuple(reversed(chain)),
                len(group) - 1,
            )
        )
    if interval is not None:
        if not pointwise:
            raise EvaluationError("explore --interval compares values at a point: give --at x=...")
        ranked, more = _with_intervals(ranked, library, fixed, semantics, interval, seed)
        notes += more
    return Exploration(
        str(start),
        budget,
        tuple((k, str(v)) for k, v in fixed.items()),
        tuple(ranked),
        len(parent),
        complete,
        unit,
        notes,
        interval,
    )


def _at_a_point(start: Term, library: Mapping[str, AtomicModel], semantics: Semantics, fixed: Mapping[str, Any]) -> bool:
    """Whether the designs reached from ``start`` are ranked by their values at ``fixed``:
    it binds x, or every symbol of their models (a table's n, an x-free model's p) and what
    the semantics reads (a machine's hand-off in x: a pipe a rewrite makes pays it); a
    machine ranks only at a point, else an error names what the point lacks."""
    needed = model_symbols(start, library, semantics) | semantics.reads()
    if "x" in fixed or (fixed and needed <= set(fixed)):
        return True
    if cores_of(semantics) is None:
        return False
    lacking = sorted(needed - set(fixed)) or ["x"]
    read = sorted(semantics.reads() & set(lacking))
    why = f" (the machine's hand-off or dispatch cost reads {', '.join(read)})" if read else ""
    raise EvaluationError(
        "explore on a machine ranks designs at a point: give "
        + " ".join(f"--at {name}=..." for name in lacking) + why
    )


def _with_intervals(
    designs: list[Design],
    library: Mapping[str, AtomicModel],
    fixed: Mapping[str, sympy.Expr],
    semantics: Semantics,
    level: float,
    seed: int,
) -> tuple[list[Design], tuple[str, ...]]:
    """The designs with their intervals, each marked when the best is faster than it in
    fewer than ``level`` of the joint draws (the draws of an atom are shared by all)."""
    import numpy as np

    from ..algebra.intervals import Spread, check_level, no_uncertainty_note

    level = check_level(level)
    spreads = [Spread.of(d.term, library, fixed, semantics=semantics) for d in designs]
    draws = np.stack([s.draws({}, seed=seed) for s in spreads])  # (designs, draws)
    low, high = np.quantile(draws, [(1 - level) / 2, (1 + level) / 2], axis=1)
    faster = (draws[:1] < draws).mean(axis=1)
    marked = [
        replace(d, interval=(float(lo), float(hi)), indistinguishable=bool(share < level))
        for d, lo, hi, share in zip(designs, low, high, faster, strict=True)
    ]
    missing = sorted({name for s in spreads for name in s.missing})
    return marked, (no_uncertainty_note(missing, library),) if missing else ()
