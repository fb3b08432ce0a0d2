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
import math
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import sympy

from .._internal.callbacks import ProgressCallback
from .._internal.limits import MAX_SEARCH_REBUILDS, printable, whole_number_text
from .._internal.surface import at_text, either, flag
from ..algebra.arrays import SYMBOLIC_NODES
from ..algebra.bindings import as_value, decided_number, held_by_double
from ..algebra.domains import negative_note, range_notes
from ..algebra.evaluation import evaluate
from ..algebra.machine import MachineSemantics, cores_of
from ..algebra.pointwise import at_point, with_counts
from ..algebra.semantics import Semantics
from ..algebra.term_symbols import term_symbols
from ..algebra.units import in_unit
from ..arguments import as_bindings, as_callback, as_seed, as_term
from ..errors import EvaluationError
from ..library.machines import MachineLike, semantics_of
from ..library.model_library import AtomicModel, ModelLibrary
from ..syntax.arith import format_expr
from ..syntax.symbols import symbol
from ..syntax.terms import Term, TextOrder
from .design_values import DesignValues, text_length, thread_count
from .exploration import Design, Exploration, Rewrite
from .law_semantics import HERE, LAW_SEMANTICS, usable_laws
from .options import EXPANSIONS, EXPLORE_THREADS, EXPLORE_TOP
from .rewrites import REBUILDS, RULES, Make, neighbours

__all__ = ["Rewrite", "Design", "Exploration", "explore", "thread_count", "LAW_SEMANTICS", "RULES"]


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


def _simplest(group: list[Term], key: Callable[[Term], tuple[int, ...]]) -> Term:
    """The design of ``group`` (designs of one model) shown for it: the least ``key`` (fewest
    threads, shortest text, shortest derivation), and of those the first by its text, so that
    the choice does not depend on the order the ranking's rounding put them in.

    >>> from patternalg.syntax.parser import parse
    >>> pair = [parse("tpool_2(seq(qsort, tpool_2(inc)))"), parse("tpool_2(seq(tpool_2(qsort), inc))")]
    >>> str(_simplest(pair, lambda d: (4,))) == str(_simplest(pair[::-1], lambda d: (4,)))
    True
    """
    keys = {d: key(d) for d in group}
    least = min(keys.values())
    return min((d for d in group if keys[d] == least), key=TextOrder)


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
    ``progress(expanded, expansions)`` after each, and ``progress(expanded, expanded)`` where
    the search ends with none left (a bar then completes).

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
    progress, seed = as_callback(progress, "progress", "progress(done, total)"), as_seed(seed)
    semantics = semantics_of("exact", machine, cores)
    cores = cores_of(semantics)
    if threads is None and cores is None:
        raise EvaluationError(f"explore needs a thread budget ({flag('threads', 'N')}, or a machine: {flag('cores', 'N')})")
    budget = EXPLORE_THREADS.value(threads if threads is not None else cores)
    top = EXPLORE_TOP.value(top)
    expansions = EXPANSIONS.value(expansions)
    start, at, library = as_term(term), as_bindings(at), ModelLibrary.of(library)
    library, unit, notes = in_unit([start], library, unit)
    semantics = semantics.in_unit(unit)
    fixed = {k: decided_number(k, as_value(v, k)) for k, v in (at or {}).items()}
    laws = usable_laws(semantics) if cores is not None else None
    if cores is not None and threads is not None and budget > cores:
        notes += (f"{flag('threads', str(budget))} on {cores} cores: beyond them the cores bound the values",)
    # every binding names a symbol of the design (on a machine, x its hand-off reads), once;
    # a symbol it writes that nothing reads (qsort[p=n]'s n) is noted
    notes += at_point(start, library, fixed, semantics if cores is not None else Semantics.ASYMPTOTIC).unread
    start = with_counts(start, fixed)  # --at n=2: the designs have 2 threads there, not n
    pointwise = _at_a_point(start, library, semantics, fixed)
    used = thread_count(start)
    if used > budget:
        raise EvaluationError(
            f"{printable(str(start))} already uses {whole_number_text(used)} threads, more than {flag('threads', str(budget))}"
        )
    values = DesignValues(library, fixed, semantics)
    if pointwise:  # checks every name and count once, with the user's message
        value = values.number(start)
        if not held_by_double(value, lambda: at_point(start, library, fixed, semantics).expr):
            where = ", ".join(f"{k}={format_expr(v)}" for k, v in fixed.items())
            side = "beyond" if math.isinf(value) else "below"
            raise EvaluationError(
                f"{printable(str(start))} is {side} a double's range at {at_text(where)} ({either('eval', 'model')} gives "
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
    expanded, left = 0, MAX_SEARCH_REBUILDS
    stopped = ""
    notes_cut: list[str] = []
    while queue:
        if left <= 0:
            stopped = (
                f"it rebuilt {MAX_SEARCH_REBUILDS:,} sub-terms, the limit of one search: rewrite an "
                "inner part on its own to search there"
            )
            notes_cut.append(
                f"the search stopped after {expanded:,} designs: it had rebuilt "
                f"{MAX_SEARCH_REBUILDS:,} sub-terms (the limit of one search, "
                "docs/errors.md); rewrite an inner part on its own to search there"
            )
            break
        if expanded >= expansions:
            stopped = f"raise {flag('expansions')} to search further"
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
    if progress is not None and not queue and expanded < expansions:
        progress(expanded, expanded)  # complete before the budget: every design was rewritten
    parent, depth = _shortest(start, edges)
    groups = _same_model(sorted(parent, key=rank), rank)
    lengths: dict[Term, int] = {}
    designs = [_simplest(g, lambda d: (thread_count(d, counts), text_length(d, lengths), depth[d])) for g in groups]
    if notes_cut and left > 0:  # more expansions would search further, but not everywhere
        nearest = "each expansion tried only the rewrites nearest the root: rewrite an inner part on its own to search there"
        stopped = f"{stopped}; {nearest}" if stopped else nearest
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
            raise EvaluationError(f"explore {flag('interval')} compares values at a point: give {at_text('x=...')}")
        ranked, more = _with_intervals(ranked, library, fixed, semantics, interval, seed)
        notes += more
    return Exploration(
        str(start),
        budget,
        tuple((k, str(v)) for k, v in fixed.items()),
        tuple(ranked),
        len(parent),
        not stopped,
        unit,
        notes,
        interval,
        stopped,
    )


def _at_a_point(start: Term, library: Mapping[str, AtomicModel], semantics: Semantics, fixed: Mapping[str, Any]) -> bool:
    """Whether the designs reached from ``start`` are ranked by their values at ``fixed``:
    it binds x, or every symbol of their models (a table's n, an x-free model's p) and what
    the semantics reads (a machine's hand-off in x: a pipe a rewrite makes pays it); a
    machine ranks only at a point, else an error names what the point lacks."""
    found = term_symbols(start, library, semantics)
    needed = found.model | found.reads
    if "x" in fixed or (fixed and needed <= set(fixed)):
        return True
    if cores_of(semantics) is None:
        return False
    lacking = sorted(needed - set(fixed)) or ["x"]
    read = sorted(semantics.reads() & set(lacking))
    costs = semantics.costs_reading(set(read)) if isinstance(semantics, MachineSemantics) else []
    what = " and ".join(costs) if costs else "costs"
    why = f" (the machine's {what} read{'s' if len(costs) == 1 else ''} {', '.join(read)})" if read else ""
    raise EvaluationError(
        "explore on a machine ranks designs at a point: give "
        + " ".join(at_text(f"{name}=...") for name in lacking) + why
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
