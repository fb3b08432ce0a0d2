"""The search behind ``optimize``: integer counts >= 1 under linear budgets, enumerated or
found by a branch and bound, and when a bound may cut (the model provably never grows with
the counts).

:func:`monotone` says whether every free count only divides task pools (from 2 on where a pool
pays a dispatch cost, :func:`pool_overhead`); :func:`branch_and_bound` then cuts a partial
assignment whose least model at the :func:`_corners` of its open counts is no better than the
kept ones; otherwise :func:`feasible` enumerates every assignment the budgets allow.

>>> from patternalg.decisions.budget import parse_budget
>>> budgets = [parse_budget("a+b<=4", ("a", "b"))]
>>> feasible(budgets, [3.0, 3.0]).tolist()
[[1.0, 1.0], [1.0, 2.0], [1.0, 3.0], [2.0, 1.0], [2.0, 2.0], [3.0, 1.0]]
>>> kept, evaluated = branch_and_bound(lambda rows: 1 / rows[:, 0] + 1 / rows[:, 1], budgets, 2, keep=1)
>>> kept.ranked()
[(1.0, (2, 2))]
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import sympy

from .._internal.callbacks import ProgressCallback
from .._internal.surface import flag
from ..algebra.arrays import count_symbols
from ..algebra.machine import MachineSemantics
from ..algebra.semantics import Semantics
from ..errors import EvaluationError
from ..library.model_library import AtomicModel
from ..syntax.terms import Atom, Term, TPool
from .budget import Budget, upper_bounds

__all__ = ["MAX_EXHAUSTIVE", "MOST_CORNERED", "Kept", "branch_and_bound", "pool_overhead", "even_count", "feasible",
           "monotone", "none_feasible"]


#: the most assignments an exhaustive search enumerates
MAX_EXHAUSTIVE = 5_000_000


#: the most free counts a branch and bound bounds by the corners of their box (2^k
#: assignments a bound) where a pool pays a dispatch cost; beyond, the search is exhaustive
MOST_CORNERED = 12


def monotone(term: Term, names: Sequence[str], library: Mapping[str, AtomicModel], semantics: Semantics) -> bool:
    """Whether every free count only divides task pools, so that the model never grows with
    it (from 2 on where a pool pays a dispatch cost: :func:`from_two`).

    A count that an atom's model also depends on (a model fitted in x and p, in
    ``tpool_p(solver)``) may make the model grow: not monotone; nor is a model on a machine
    with speed-ups (a pool's work grows where its speed-up falls short of its threads) or a
    wake (a pool made faster makes the stage before it pay more to wake it).
    """
    if isinstance(semantics, MachineSemantics) and (semantics.speeds_up() or semantics.pays_wake()):
        return False  # a faster receiving stage can make its sender pay more to wake it
    whole = pool_overhead(semantics)
    in_pools = set()
    for node in term.walk():
        if isinstance(node, TPool):
            count = node.count
            used = {s.name for s in count.free_symbols} & set(names)
            if not used:
                continue
            if not nondecreasing(count, whole):
                return False
            in_pools |= used
    others = count_symbols(term) - in_pools
    for node in term.walk():
        if isinstance(node, Atom):
            others |= {s.name for _, v in node.annotations for s in v.free_symbols}
            bound = {k for k, _ in node.annotations}
            others |= {s.name for s in library[node.name].expr.free_symbols} - bound
    return not (others & set(names)) and set(names) <= in_pools


def pool_overhead(semantics: Semantics) -> bool:
    """Whether a pool pays a dispatch cost or takes at least a turn here, so that a pool of
    two threads may be slower than one (``min(d(x), A)`` beside ``A / 2``, or the turn
    above it: docs/machine.md): its model never grows with its count from 2 on, but may
    from 1 to 2."""
    return isinstance(semantics, MachineSemantics) and (semantics.pays_dispatch() or semantics.pays_turn())


def nondecreasing(count: sympy.Expr, whole: bool = False) -> bool:
    """Whether a pool's count is provably non-decreasing in its symbols: a polynomial with
    no negative coefficient (``min(a, 4)``, ``a - b``: not proved, so not monotone); with
    ``whole``, whole coefficients too, so that the count is 2 or more wherever a symbol of
    it is (``a/2`` is 1 at a = 2).

    >>> from patternalg.syntax.symbols import symbol
    >>> a, b = symbol("a"), symbol("b")
    >>> nondecreasing(2 * a + b), nondecreasing(a - b), nondecreasing(sympy.Min(a, 4))
    (True, False, False)
    >>> nondecreasing(a / 2), nondecreasing(a / 2, whole=True)
    (True, False)
    """
    try:
        poly = sympy.Poly(count, *sorted(count.free_symbols, key=str))
    except sympy.PolynomialError:
        return False
    return all(c.is_number and c >= 0 and (c.is_integer or not whole) for c in poly.coeffs())


def feasible(budgets: Sequence[Budget], upper: Sequence[float]) -> np.ndarray:
    """Every assignment of counts >= 1 within the budgets, one row each."""
    k = len(upper)
    rows = np.ones((1, 0))
    for v in range(k):
        values = np.arange(1, int(upper[v]) + 1, dtype=float)
        if rows.shape[0] * len(values) > MAX_EXHAUSTIVE:
            raise EvaluationError(
                f"more than {MAX_EXHAUSTIVE:,} assignments to try: tighten the budgets "
                f"or fix some counts with {flag('at')}"
            )
        rows = np.hstack(
            [np.repeat(rows, len(values), axis=0), np.tile(values, rows.shape[0])[:, None]]
        )
        keep = np.ones(rows.shape[0], dtype=bool)
        for budget in budgets:
            a = np.array(budget.coefficients)
            rest = sum(c if c > 0 else c * upper[w] for w, c in enumerate(a) if w > v)
            partial = Budget(budget.text, tuple(a[: v + 1]), budget.bound - rest, budget.strict)
            keep &= partial.holds(rows)
        rows = rows[keep]
    return rows


def none_feasible(budgets: Sequence[Budget], upper: Sequence[float]) -> bool:
    """Whether not even the all-ones assignment... or any other meets the budgets."""
    ones = np.ones((1, len(upper)))
    if all(b.holds(ones)[0] for b in budgets):
        return False
    return len(feasible(budgets, upper)) == 0


def _reduced(budgets: Sequence[Budget], prefix: Sequence[float]) -> list[Budget]:
    """The budgets over the remaining counts once ``prefix`` is fixed."""
    fixed = len(prefix)
    return [
        Budget(
            b.text,
            b.coefficients[fixed:],
            b.bound - float(np.dot(b.coefficients[:fixed], prefix)),
            b.strict,
        )
        for b in budgets
    ]


class Kept:
    """The ``size`` smallest (value, assignment) pairs seen so far."""

    def __init__(self, size: int) -> None:
        self.size, self.heap = size, []  # type: ignore[var-annotated]

    def worst(self) -> float:
        return -self.heap[0][0] if len(self.heap) >= self.size else np.inf

    def offer(self, rows: np.ndarray, values: np.ndarray) -> None:
        finite = np.isfinite(values)
        rows, values = rows[finite], values[finite]
        if len(values) > self.size:  # only the smallest few can enter
            order = np.argsort(values, kind="stable")[: self.size]
            rows, values = rows[order], values[order]
        for row, value in zip(rows, values, strict=True):
            if not np.isfinite(value):
                continue
            item = (-float(value), tuple(-int(v) for v in row))
            if len(self.heap) < self.size:
                heapq.heappush(self.heap, item)
            elif item > self.heap[0]:
                heapq.heapreplace(self.heap, item)

    def ranked(self) -> list[tuple[float, tuple[int, ...]]]:
        return sorted((-v, tuple(-c for c in row)) for v, row in self.heap)


def _corners(prefix: Sequence[float], upper: Sequence[float], from_two: bool) -> np.ndarray:
    """The assignments whose least model bounds every completion of ``prefix`` from below:
    each open count at its largest (the model never grows with a count), or with
    ``from_two`` each open count at 1 or at its largest, every combination (the model never
    grows with a count from 2 on, so over 1 .. its largest it is least at one of the ends,
    whatever the other counts are, and over the box least at one of its corners)."""
    if not from_two:
        return np.array([[*prefix, *upper]], dtype=float)
    ends = [sorted({1.0, float(u)}) for u in upper]
    return np.array([[*prefix, *corner] for corner in itertools.product(*ends)], dtype=float)


def branch_and_bound(
    objective: Callable[[np.ndarray], np.ndarray],
    budgets: Sequence[Budget],
    k: int,
    keep: int,
    progress: ProgressCallback = None,
    space: int = 0,
    from_two: bool = False,
    allowed: Callable[[np.ndarray], np.ndarray] | None = None,
) -> tuple[Kept, int]:
    """Depth-first over the counts in order; the last count is tried all at once; a partial
    assignment is cut where the least model at its :func:`_corners` is no better than the
    kept ones. ``progress(evaluated, space)`` as it goes (``space``: the assignments at most);
    ``allowed(rows)``: which complete assignments may be kept (the corners that bound them
    need not be)."""
    best, evaluated = Kept(keep), 0
    stack: list[tuple[float, ...]] = [()]
    while stack:
        if progress is not None:
            progress(evaluated, space)
        prefix = stack.pop()
        upper = upper_bounds(_reduced(budgets, prefix), k - len(prefix))
        if any(u < 1 for u in upper):
            continue  # no completion fits the budgets
        if len(prefix) == k - 1:
            rows = np.array([(*prefix, v) for v in range(1, int(upper[0]) + 1)], dtype=float)
            rows = rows[np.all([b.holds(rows) for b in budgets], axis=0)]
            if allowed is not None and len(rows):
                rows = rows[allowed(rows)]
            if len(rows):
                best.offer(rows, objective(rows))
                evaluated += len(rows)
            continue
        corners = _corners(prefix, upper, from_two)
        evaluated += len(corners)
        values = objective(corners)
        if np.all(values >= best.worst()):  # NaN (no value) bounds nothing: not cut
            continue  # no completion can be better than the kept ones
        stack.extend((*prefix, float(v)) for v in range(1, int(upper[0]) + 1))
    return best, evaluated


def even_count(
    budgets: Sequence[Budget], k: int, allowed: Callable[[np.ndarray], np.ndarray] | None = None
) -> float | None:
    """The largest equal count for all variables that the budgets allow (and ``allowed``:
    with ``tpool_{a/2}``, an even one).

    >>> from patternalg.decisions.budget import parse_budget
    >>> within = [parse_budget("a+b<=10", ("a", "b"))]
    >>> even_count(within, 2), even_count(within, 2, lambda rows: rows[:, 0] % 2 == 0)
    (5.0, 4.0)
    """
    top = min(upper_bounds(budgets, k))
    for v in range(int(top), 0, -1):
        row = np.full((1, k), float(v))
        if all(b.holds(row)[0] for b in budgets) and (allowed is None or allowed(row)[0]):
            return float(v)
    return None
