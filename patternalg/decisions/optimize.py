"""``optimize``: the thread counts (integers >= 1) that minimise a model under linear budgets.

The answer is a proven optimum, not a heuristic's guess. Where every free count is a task
pool's thread count, the model never grows with it (eq. 3 divides by it; seq adds and
pipe takes a maximum, both monotone), so a branch and bound may cut every partial
assignment whose model, with each open count at its largest allowed value, is already
worse than the best found. On a machine with a dispatch cost a pool of two threads may be
slower than its body (it pays ``min(d(x), A)`` per element, a pool of one none), so the
model never grows with a count only from 2 on, and the bound is the least model over the
corners of the open counts' box, each count at 1 or at its largest (where a count's
polynomial has whole coefficients, so that every count from 2 on keeps its pools at two
threads or more). Otherwise (annotations such as ``[p=b]``, mapReduce counts, a machine's
speed-ups) the feasible assignments are enumerated exhaustively, in numpy.

>>> result = optimize("pipe(tpool_a(qsort), tpool_b(inc))", budget="a+b<=24", at={"x": 1024})
>>> result.best.assignment, round(result.best.value, 1), result.best.bottleneck
((('a', 22), ('b', 2)), 481359.1, 'tpool_22(qsort)')
>>> result.method
'branch-and-bound'
"""

from __future__ import annotations

import math
import sys
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import sympy

from .._internal.callbacks import ProgressCallback
from .._internal.display import as_digits, brief, cell, listed
from .._internal.limits import MAX_ASSIGNMENTS, printable
from .._internal.surface import flag
from .._internal.tables import Tabular, distinct, with_unit
from ..algebra.arrays import compile_term, count_symbols
from ..algebra.bindings import as_value, held_by_double
from ..algebra.domains import negative_note, range_notes
from ..algebra.grid import Axis, check_not_fixed
from ..algebra.machine import cores_of, threads_needed
from ..algebra.machine_notes import machine_notes
from ..algebra.numpy_code import numpy_function
from ..algebra.pointwise import at_point, bottleneck_at
from ..algebra.term_symbols import TermSymbols, term_symbols
from ..algebra.units import in_unit
from ..arguments import as_axis, as_bindings, as_callback, as_seed, as_term, as_texts
from ..errors import EvaluationError
from ..library.machines import MachineLike, semantics_of
from ..library.model_library import AtomicModel, ModelLibrary
from ..syntax.arith import number_text
from ..syntax.symbols import symbol
from ..syntax.terms import Atom, Term
from .allocation_search import (
    MAX_EXHAUSTIVE,
    MOST_CORNERED,
    Kept,
    branch_and_bound,
    even_count,
    feasible,
    monotone,
    none_feasible,
    pool_overhead,
)
from .budget import (
    Budget,
    assignments_at_most,
    parse_budget,
    thread_budgets,
    too_small,
    upper_bounds,
)
from .options import OBJECTIVES, OPTIMIZE_THREADS, OPTIMIZE_TOP

__all__ = ["Candidate", "Optimum", "optimize", "free_counts", "MAX_EXHAUSTIVE"]


@dataclass(frozen=True)
class Candidate:
    """One assignment of the free counts, its model value and (at a point) its bottleneck."""

    assignment: tuple[tuple[str, int], ...]
    value: float
    bottleneck: str | None = None
    #: with ``interval=``: the central interval of what a measurement would show
    interval: tuple[float, float] | None = None

    def to_json(self) -> dict[str, Any]:
        """``{assignment, value, bottleneck}`` (and ``interval`` with one)."""
        data: dict[str, Any] = {
            "assignment": dict(self.assignment),
            "value": self.value,
            "bottleneck": self.bottleneck,
        }
        if self.interval is not None:
            data["interval"] = list(self.interval)
        return data


@dataclass(frozen=True)
class Optimum(Tabular):
    """The result of :func:`optimize`."""

    term: str
    variables: tuple[str, ...]
    budgets: tuple[str, ...]
    best: Candidate
    runners_up: tuple[Candidate, ...]
    even_split: Candidate | None
    method: str  #: "branch-and-bound" or "exhaustive"
    evaluated: int  #: assignments whose model was computed
    objective: str  #: "point", "max" or "mean" (over the swept symbol)
    unit: str  #: of every value (the term's atoms converted to it)
    notes: tuple[str, ...] = ()  #: which atoms were converted to :attr:`unit`
    #: with ``interval=``: the assignments a measurement could not tell from the best (it is
    #: faster than them in fewer than ``level`` of the joint draws), and the level
    indistinguishable: tuple[Candidate, ...] = ()
    level: float | None = None
    #: whether the best is proven the optimum: false only for a branch and bound asked for
    #: (``method=``) where the model may grow with a count, so that its bound may cut it
    proven: bool = True

    def __repr__(self) -> str:
        """The term, its budgets and the best assignment with its value, on one line."""
        best = ", ".join(f"{k}={v}" for k, v in self.best.assignment)
        shown = f"{self.term} under {'; '.join(self.budgets)}: best {best} = {cell(self.best.value)} {self.unit}"
        return brief("Optimum", shown)

    @property
    def gain(self) -> float | None:
        """The even split's value over the best one (how much faster the best is)."""
        if self.even_split is None or self.best.value == 0:
            return None
        return self.even_split.value / self.best.value

    def to_json(self) -> dict[str, Any]:
        """``{term, variables, budgets, best, runners_up, even_split, gain, method, ...}``
        (and ``indistinguishable``, ``level`` with an interval; ``proven``, false, where a
        branch and bound asked for may have cut the optimum)."""
        data = {
            "term": self.term,
            "variables": list(self.variables),
            "budgets": list(self.budgets),
            "best": self.best.to_json(),
            "runners_up": [c.to_json() for c in self.runners_up],
            "even_split": None if self.even_split is None else self.even_split.to_json(),
            "gain": self.gain,
            "method": self.method,
            "evaluated": self.evaluated,
            "objective": self.objective,
            "unit": self.unit,
            "notes": list(self.notes),
        }
        if not self.proven:
            data["proven"] = False
        if self.level is not None:
            data["level"] = self.level
            data["indistinguishable"] = [c.to_json() for c in self.indistinguishable]
        return data

    def header(self) -> list[str]:
        """Columns: rank, each count, value, (with an interval: low, high,) bottleneck,
        whether the row is the even split; a count named as another column (``rank``) is
        named with `` (2)`` (:func:`~patternalg._internal.tables.distinct`)."""
        bounds = ["low", "high"] if self.level is not None else []
        return distinct(["rank", *self.variables, with_unit("value", self.unit), *bounds, "bottleneck", "even split"])

    def rows(self) -> list[list[Any]]:
        """The best (rank 1), the runners-up (2, 3, ...) and the even split (no rank, its
        ``even split`` True)."""
        ranked: list[tuple[int | None, Candidate]] = [(i + 1, c) for i, c in enumerate((self.best, *self.runners_up))]
        if self.even_split is not None:
            ranked.append((None, self.even_split))
        rows = []
        for r, c in ranked:
            bounds = [] if self.level is None else list(c.interval or (None, None))
            rows.append([r, *(v for _, v in c.assignment), c.value, *bounds, c.bottleneck, r is None])
        return rows

    def plot(self, ax: Any = None) -> Any:
        """The best assignments and the even split as bars, best on top (matplotlib axes)."""
        from ..plotting.results import plot_optimum

        return plot_optimum(self, ax=ax)

    def column_digits(self, digits: int | None = None) -> dict[int, int | None]:
        """The values (after the rank and the counts) in ``digits`` significant digits."""
        first = 1 + len(self.variables)
        return dict.fromkeys(range(first, first + (3 if self.level is not None else 1)), digits)

    def lines(self, digits: int | None = None) -> list[str]:
        """The answer for people: values and the gain of the best over the even split in
        ``digits`` significant digits (default 15, no float noise), as compare's ratios."""
        digits = as_digits(digits)
        unit = f" {self.unit}"

        def show(c: Candidate) -> str:
            where = ", ".join(f"{k}={cell(v)}" for k, v in c.assignment)
            neck = f" (bottleneck: {c.bottleneck})" if c.bottleneck else ""
            return f"{where}: {cell(c.value, digits)}{unit}{neck}"

        lines = [f"best: {show(self.best)}"]
        lines += [f"  next: {show(c)}" for c in self.runners_up]
        if self.even_split is not None:
            gain = self.gain
            if self.even_split.value == self.best.value:
                verdict = "; no split is faster"
            else:
                verdict = f"; the best is {number_text(gain, digits)}x faster" if gain is not None else ""
            lines.append(f"even split: {show(self.even_split)}{verdict}")
        return lines + self._summary()

    def caption(self) -> str:
        """How the optimum was found, and with an interval what the draws cannot tell from
        it (above the HTML table, whose rows are the best, the runners-up and the even split).

        >>> optimize("pipe(tpool_a(qsort), tpool_b(inc))", budgets=["a+b<=4"], at={"x": 1024}).caption()
        'proven optimum by branch-and-bound (7 assignments evaluated)'
        """
        return "; ".join(self._summary())

    def _summary(self) -> list[str]:
        """The lines after the assignments: the proof and, with an interval, the ties."""
        lines = [f"proven optimum by {self.method} ({self.evaluated} assignments evaluated)"]
        if not self.proven:
            lines = [
                f"best found by {self.method}, not proven: the model may grow with a count, so "
                f"the bound may have cut the optimum ({self.evaluated} assignments evaluated; "
                "exhaustive tries them all)"
            ]
        if self.level is not None:
            if self.indistinguishable:
                assignments = [", ".join(f"{k}={v}" for k, v in c.assignment) for c in self.indistinguishable]
                shown = listed(assignments, 8, "; ", width=200)
                lines.append(f"not distinguishable from the best at {100 * self.level:g} %: {shown}")
            else:
                lines.append(f"the best is faster than every other assignment in {100 * self.level:g} % of the draws")
        return lines


def free_counts(
    term: Term, fixed: Sequence[str] = (), vary: Sequence[str] = (), unread: Collection[str] = ()
) -> tuple[str, ...]:
    """The symbols of thread counts and annotations that no ``--at`` fixes and something
    reads (``unread``: :meth:`~patternalg.algebra.term_symbols.TermSymbols.unread`, those
    only an atom that ignores them names), plus ``vary``.

    >>> free_counts(as_term("pipe(tpool_a(qsort), inc[p=b])"))
    ('a', 'b')
    >>> free_counts(as_term("pipe(tpool_a(qsort), inc[p=b])"), unread=["b"])
    ('a',)
    """
    found = count_symbols(term)
    for node in term.walk():
        if isinstance(node, Atom):
            found |= {s.name for _, v in node.annotations for s in v.free_symbols}
    found = (found - set(unread)) | set(vary)
    return tuple(sorted(found - set(fixed) - {"x"}))


def _check_read(term: Term, symbols: TermSymbols, vary: Sequence[str]) -> None:
    """Refuse to choose a ``--vary`` symbol that nothing in ``term`` reads: every value of
    it gives the same model (``tpool_a(qsort) --vary b`` listed b=1 .. 6 as equals).

    >>> from patternalg.algebra.term_symbols import term_symbols
    >>> term = as_term("tpool_a(qsort[p=b])")
    >>> _check_read(term, term_symbols(term, ModelLibrary.builtin()), ["b"])
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: vary=b: b changes nothing, so there is nothing to choose: qsort ignores p (its model has no p)
    """
    unread = symbols.unread()
    for name in vary:
        if name in symbols.model:
            continue
        why = unread.get(name, f"{printable(str(term))} has no symbol {name}")
        raise EvaluationError(f"{flag('vary', name)}: {name} changes nothing, so there is nothing to choose: {why}")


def _check_chosen(
    term: Term, fixed: Collection[str], over: Axis | None, vary: Sequence[str], unread: Collection[str] = ()
) -> None:
    """Refuse a symbol to choose that is also given a value, which would silently win: a
    free count (or a ``--vary`` symbol) that ``--over`` sweeps (it answered ``a=1`` with the
    sweep's a in the model), a ``--vary`` symbol that ``--at`` fixes, and ``--vary x`` (the
    size, never chosen).

    >>> from patternalg.algebra.grid import parse_axis
    >>> _check_chosen(as_term("tpool_a(inc)"), ["x"], parse_axis("x=1..4"), [])
    >>> _check_chosen(as_term("tpool_a(inc)"), ["x"], parse_axis("a=1..4"), [])
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: a is both swept (over=) and chosen (a free count of tpool_a(inc)): fix it with at=, or sweep another symbol
    """
    for name in vary:
        if name == "x":
            raise EvaluationError(
                f"{flag('vary', 'x')}: x is the problem size, which optimize does not choose (fix it with {flag('at')}, "
                f"or sweep it with {flag('over')} and choose {flag('objective')})"
            )
        if name in fixed:
            raise EvaluationError(f"{name} is both chosen ({flag('vary')}) and fixed ({flag('at')})")
    if over is not None and over.name in free_counts(term, (), vary, unread):
        chosen = flag("vary") if over.name in vary else f"a free count of {printable(str(term))}"
        raise EvaluationError(
            f"{over.name} is both swept ({flag('over')}) and chosen ({chosen}): fix it with {flag('at')}, or sweep another symbol"
        )


#: assignments whose threads optimize reads for its note on the cores (beyond: no note)
_NOTED_ASSIGNMENTS = 100_000


def _most_threads(
    term: Term, fixed: Mapping[str, sympy.Expr], names: Sequence[str], budgets: Sequence[Budget], upper: Sequence[float]
) -> int | float | None:
    """The most threads ``term`` runs at once (:func:`~patternalg.algebra.machine.threads_needed`:
    a ``seq`` its larger part, a ``pipe`` the sum) over the assignments the budgets allow;
    None where a count stays free or there are more than :data:`_NOTED_ASSIGNMENTS`; inf
    where they are more than a double holds. A name that counts no threads (``filt[p=b]``,
    Amdahl's p) adds none.

    >>> from patternalg.syntax.parser import parse
    >>> from .budget import parse_budget
    >>> within = [parse_budget("a+b<=8", ["a", "b"])]
    >>> _most_threads(parse("seq(tpool_a(qsort), tpool_b(inc))"), {}, ["a", "b"], within, [7.0, 7.0])
    7
    >>> _most_threads(parse("pipe(tpool_a(qsort), tpool_b(inc))"), {}, ["a", "b"], within, [7.0, 7.0])
    8
    >>> _most_threads(parse("pipe(tpool_a(qsort), filt[p=b])"), {}, ["a", "b"], within, [7.0, 7.0])
    8
    """
    threads = threads_needed(term).xreplace({symbol(k): v for k, v in fixed.items()})
    counts = [symbol(n) for n in names]
    if not threads.free_symbols <= set(counts) or assignments_at_most(budgets, upper) > _NOTED_ASSIGNMENTS:
        return None
    rows = feasible(budgets, upper)
    with np.errstate(over="ignore"):  # a pool of pools 3,000 deep: a^3000 threads, more than a double holds
        values = numpy_function(counts, threads)(*rows.T)  # names from the grammar
    most = float(np.max(np.broadcast_to(values, rows.shape[:1])))
    return int(most) if math.isfinite(most) else math.inf


def _count_text(count: float) -> str:
    """The most threads as a note says it: up to a count with thousands separators, or more
    than a double holds.

    >>> _count_text(12000), _count_text(math.inf)
    ('up to 12,000', 'more than 1.8e+308')
    """
    return f"up to {count:,}" if math.isfinite(count) else f"more than {sys.float_info.max:.2g}"


def optimize(
    term: str | Term,
    *,
    budget: Sequence[str] | str = (),
    at: Mapping[str, Any] | None = None,
    over: Axis | str | None = None,
    objective: str = "max",
    vary: Sequence[str] = (),
    top: int = OPTIMIZE_TOP.default,
    library: Mapping[str, AtomicModel] | None = None,
    method: str = "auto",
    unit: str | None = None,
    progress: ProgressCallback = None,
    machine: MachineLike = None,
    cores: int | None = None,
    interval: float | None = None,
    seed: int = 0,
    budgets: Sequence[str] | str = (),
    threads: int | None = None,
) -> Optimum:
    """Integer counts >= 1 for the free thread counts of ``term`` minimising its pointwise
    model at ``at`` (or its ``max``/``mean`` over ``over``) under linear ``budget``s (one
    such as ``"a+b<=24"`` or several, as ``--budget`` repeated; ``budgets=``, the older name,
    adds to them); values
    in ``unit`` (default: the atoms' common unit; times of different units: ns).

    ``method``: ``auto`` (branch and bound where the model is provably monotone in every
    count, else exhaustive), ``exhaustive`` or ``branch-and-bound``; a branch and bound
    calls ``progress(evaluated, assignments at most)`` as it goes.

    ``machine`` (a machine, a machine file's path or a number of cores) evaluates under
    its semantics (``cores``, as ``--cores``: replaces its cores, or alone a machine of that
    many); without a ``budget`` the counts then share its cores (``a+b<=cores``).
    ``threads``: at most that many threads in all, as the design runs them
    (:func:`~patternalg.algebra.machine.threads_needed`: ``pipe`` the sum of its stages,
    ``tpool_n`` n times its body), the budgets it takes (:func:`.budget.thread_budgets`)
    beside ``budget``'s.
    ``interval`` (a level such as 0.9) adds the assignments among the best
    :data:`CONTENDERS` that a measurement could not tell from the best (:mod:`.intervals`).
    """
    parsed, at, library = as_term(term), as_bindings(at), ModelLibrary.of(library)
    progress, seed = as_callback(progress, "progress", "progress(done, total)"), as_seed(seed)
    what = "budgets such as 'a+b<=8' (threads=8: at most 8 threads in all)"
    budgets = [*as_texts(budget, "budget", what), *as_texts(budgets, "budgets", what)]
    vary = as_texts(vary, "vary", "symbol names")
    over = as_axis(over) if over is not None else None
    library, unit, notes = in_unit([parsed], library, unit)
    semantics = semantics_of("exact", machine, cores).in_unit(unit)
    cores = cores_of(semantics)  # the machine's, however given
    fixed = {k: as_value(v, k) for k, v in (at or {}).items()}
    check_not_fixed([over] if over is not None else [], fixed)
    symbols = term_symbols(parsed, library, semantics)
    unread = symbols.unread()
    _check_chosen(parsed, fixed, over, vary, unread)
    _check_read(parsed, symbols, vary)
    names = free_counts(parsed, tuple(fixed), vary, unread)
    notes += tuple(symbols.notes(unread))  # given, swept or left free: it changes nothing
    if not names:
        left = [f"{n} changes nothing, {why}" for n, why in symbols.ignored if n not in fixed]
        raise EvaluationError(
            f"{parsed}: no free thread count to choose "
            + (f"({'; '.join(left)})" if left else f"(name counts like tpool_a(...) or kernel[p=b], or give {flag('vary', 'SYMBOL')})")
        )
    if threads is not None:
        most = OPTIMIZE_THREADS.value(threads)
        from_threads = thread_budgets(threads_needed(parsed), most)
        budgets += from_threads
        notes += (f"budget: {'; '.join(from_threads)} (at most {most:,} threads in all)",)
    if not budgets and cores is not None:
        budgets = ["+".join(names) + f"<={cores}"]
        notes += (f"budget: {budgets[0]} (the machine's cores; {flag('budget')} to set one)",)
    if not budgets:
        raise EvaluationError(f"optimize needs at least one {flag('budget')}, e.g. {flag('budget', repr('a+b<=24'))}")
    top = OPTIMIZE_TOP.value(top)
    if objective not in OBJECTIVES:
        raise EvaluationError(f"unknown objective {objective!r} (valid: {', '.join(OBJECTIVES)})")
    parsed_budgets = [parse_budget(b, names, unread) for b in budgets]
    for problem in filter(None, (too_small(b, names) for b in parsed_budgets)):
        raise EvaluationError(problem)
    upper = upper_bounds(parsed_budgets, len(names))
    unbounded = [n for n, u in zip(names, upper, strict=True) if not np.isfinite(u)]
    if unbounded:
        raise EvaluationError(
            f"the budgets leave {', '.join(unbounded)} unbounded (add e.g. "
            f"{flag('budget', repr(f'{unbounded[0]}<=64'))})"
        )
    space = assignments_at_most(parsed_budgets, upper)
    if space > MAX_ASSIGNMENTS:  # a+b<=10^50 searched until memory or patience was gone
        raise EvaluationError(
            f"the budgets allow {f'about {space:.3g}' if math.isfinite(space) else 'over 1e308'} "
            f"assignments of {', '.join(names)} (limit: "
            f"{MAX_ASSIGNMENTS:,}); tighten them"
        )
    if any(u < 1 for u in upper) or none_feasible(parsed_budgets, upper):
        raise EvaluationError(
            f"no assignment of counts >= 1 to {', '.join(names)} meets the budgets "
            f"({'; '.join(budgets)})"
        )
    most_threads = _most_threads(parsed, fixed, names, parsed_budgets, upper) if cores is not None else None
    if cores is not None and most_threads is not None and most_threads > cores:
        limits = ", ".join(f"{n} <= {int(u):,}" for n, u in zip(names, upper, strict=True))
        notes += (
            f"the budgets allow more threads ({limits}: {_count_text(most_threads)} at once) than the "
            f"machine's {cores} cores: beyond them the cores bound the values (machine semantics)",
        )
    notes += tuple(machine_notes([parsed], semantics)) if not names else ()
    compiled = compile_term(parsed, library, fixed, semantics=semantics)
    spare = set(compiled.symbols) - set(names) - ({over.name} if over else set())
    if spare:
        raise EvaluationError(f"{parsed}: no value for {', '.join(sorted(spare))} ({_bind_hint(spare, over)})")

    def grid_of(rows: np.ndarray) -> dict[str, np.ndarray]:
        grid = {n: rows[:, i : i + 1] for i, n in enumerate(names)}
        if over is not None:
            grid[over.name] = over.values[None, :]
        return grid

    def evaluate_rows(rows: np.ndarray) -> np.ndarray:
        values = compiled.values(grid_of(rows)).reshape(rows.shape[0], -1)
        return values.max(axis=1) if objective == "max" else values.mean(axis=1)

    def allowed(rows: np.ndarray) -> np.ndarray:  # tpool_{a/2} at a = 5 is no pool
        return np.asarray(compiled.counts_hold(grid_of(rows)).reshape(rows.shape[0], -1).all(axis=1))

    from_two = pool_overhead(semantics)
    # where the model may grow with a count, a bound cuts no completion for sure
    prunable = monotone(parsed, names, library, semantics) and (not from_two or len(names) <= MOST_CORNERED)
    chosen = method
    if method == "auto":
        chosen = "branch-and-bound" if prunable else "exhaustive"
    keep = max(top + 1, CONTENDERS) if interval is not None else top + 1
    if chosen == "branch-and-bound":
        kept, evaluated = branch_and_bound(
            evaluate_rows, parsed_budgets, len(names), keep, progress, int(space), from_two, allowed
        )
    elif chosen == "exhaustive":
        rows = feasible(parsed_budgets, upper)
        rows = rows[allowed(rows)]
        kept, evaluated = Kept(keep), len(rows)
        kept.offer(rows, evaluate_rows(rows))
    else:
        raise EvaluationError(
            f"unknown method {method!r} (valid: auto, exhaustive, branch-and-bound)"
        )
    ranked = kept.ranked()
    if not ranked:
        rows = feasible(parsed_budgets, upper)
        if not allowed(rows).any():
            try:
                compiled.check_counts(grid_of(rows))
            except EvaluationError as exc:
                raise EvaluationError(
                    f"no assignment of {', '.join(names)} that the budgets allow makes every count of "
                    f"{printable(str(parsed))} a positive integer ({exc})"
                ) from None
        if over is None:
            raise EvaluationError(f"{parsed}: the model has no finite value for any assignment")
        low, high = (number_text(b) for b in over.bounds)
        raise EvaluationError(
            f"{parsed}: the model's {objective} over {over.name} in [{low}, {high}] is no finite "
            "number for any assignment (a value beyond a double, or undefined, somewhere in the "
            f"range): narrow {flag('over')}"
        )

    first = {n: int(v) for n, v in zip(names, ranked[0][1], strict=True)}
    if over is None and not held_by_double(
        ranked[0][0], lambda: at_point(parsed, library, {**fixed, **first}, semantics).expr
    ):
        shown = ", ".join(f"{n}={v}" for n, v in first.items())
        raise EvaluationError(
            f"{printable(str(parsed))}: the model's value is below a double's range at {shown} "
            "(eval gives it there): optimize ranks assignments by their values in doubles"
        )

    necks: dict[tuple[tuple[str, int], ...], str | None] = {}  # the even one is often a contender

    def candidate(row: Sequence[float], value: float) -> Candidate:
        assignment = tuple((n, int(v)) for n, v in zip(names, row, strict=True))
        if over is None and assignment not in necks:
            necks[assignment] = bottleneck_at(parsed, library, {**fixed, **dict(assignment)}, semantics)
        return Candidate(assignment, value, necks.get(assignment))

    even = even_count(parsed_budgets, len(names), allowed)
    even_row = None if even is None else [even] * len(names)
    best = candidate(ranked[0][1], ranked[0][0])
    ranges = {over.name: over.bounds} if over is not None else {}
    notes += (
        *range_notes([parsed], library, {**fixed, **dict(best.assignment)}, ranges),
        *negative_note(str(parsed), best.value, unit),
    )
    contenders = ranked[: top + 1]
    indistinguishable: tuple[Candidate, ...] = ()
    bounds: list[tuple[float, float] | None] = [None] * len(ranked)
    if interval is not None:
        found, bounds, more = _indistinguishable(
            parsed, library, fixed, names, over, objective, ranked, semantics, interval, seed
        )
        indistinguishable = tuple(
            replace(candidate(ranked[i][1], ranked[i][0]), interval=bounds[i]) for i in found
        )
        notes += more
        best = replace(best, interval=bounds[0])
    return Optimum(
        str(parsed),
        names,
        tuple(budgets),
        best,
        tuple(replace(candidate(r, v), interval=b) for (v, r), b in zip(contenders[1:], bounds[1:], strict=False)),
        None
        if even_row is None
        else candidate(even_row, float(evaluate_rows(np.array([even_row]))[0])),
        chosen,
        evaluated,
        "point" if over is None else objective,
        unit,
        notes,
        indistinguishable,
        interval,
        chosen == "exhaustive" or prunable,
    )


#: assignments (the best first) among which ``optimize --interval`` looks for those it cannot
#: tell from the best
CONTENDERS = 200


def _indistinguishable(
    term: Term,
    library: Mapping[str, AtomicModel],
    fixed: Mapping[str, sympy.Expr],
    names: Sequence[str],
    over: Axis | None,
    objective: str,
    ranked: list[tuple[float, Any]],
    semantics: Any,
    level: float,
    seed: int,
) -> tuple[list[int], list[tuple[float, float] | None], tuple[str, ...]]:
    """Indices into ``ranked`` (after the best) of the assignments the best is faster than
    in fewer than ``level`` of the joint draws, each assignment's interval, and the notes."""
    from ..algebra.intervals import BLOCK_VALUES, DRAWS, Spread, check_level, no_uncertainty_note

    level = check_level(level)
    spread = Spread.of(term, library, fixed, semantics=semantics)
    rows = np.array([row for _, row in ranked], dtype=float)
    points = 1 if over is None else len(over.values)
    step = max(1, BLOCK_VALUES // (DRAWS * points))  # assignments a block (as intervals draw)
    objectives = []
    for block in (rows[i : i + step] for i in range(0, len(rows), step)):
        grid = {n: block[:, i : i + 1] for i, n in enumerate(names)}
        if over is not None:
            grid[over.name] = over.values[None, :]
        drawn = spread.draws(grid, seed=seed).reshape(-1, len(block), points)
        objectives.append(drawn.max(axis=2) if objective == "max" else drawn.mean(axis=2))
    values = np.concatenate(objectives, axis=1)
    faster = (values[:, :1] < values[:, 1:]).mean(axis=0)  # the best against each other
    found = [i + 1 for i, share in enumerate(faster) if share < level]
    low, high = np.quantile(values, [(1 - level) / 2, (1 + level) / 2], axis=0)
    bounds: list[tuple[float, float] | None] = [(float(a), float(b)) for a, b in zip(low, high, strict=True)]
    notes = [no_uncertainty_note(spread.missing, library)] if spread.missing else []
    if len(found) == len(rows) - 1 and len(rows) == CONTENDERS:
        notes.append(f"every one of the best {CONTENDERS} assignments is indistinguishable from the best; there may be more")
    return found, bounds, tuple(notes)


def _bind_hint(spare: set[str], over: Any) -> str:
    """How to give the symbols ``spare`` values: ``--at``, or ``--over`` if it sweeps none yet.

    >>> _bind_hint({"p"}, None)
    'bind it with at=, or sweep it with over= and choose objective='
    >>> _bind_hint({"p", "q"}, "x=4..64")
    'bind them with at='
    """
    it = "it" if len(spare) == 1 else "them"
    if over is not None:
        return f"bind {it} with {flag('at')}"
    return f"bind {it} with {flag('at')}, or sweep {'it' if len(spare) == 1 else 'one'} with {flag('over')} and choose {flag('objective')}"


