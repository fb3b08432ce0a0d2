"""On-line thread-count tuners: OPreSca (Algorithm 2 of paper 004) and the Binsearch baseline.

A tuner picks the thread count of each interval from the performance measured in the
earlier ones. The source of measurements is a table ``{threads: performance}`` (the
paper's simulation) or a callable ``run(threads) -> performance`` that runs the workload
for one interval. Tuners only choose among the given thread counts (a sparse table's).

Each run is scored as in Tables 2-3 of the paper against the true performance table:
E (the final error), S (steps to convergence), E_S (mean error per step) and S_{E>10%}
(steps with an error above 10 %). An error is the difference to the best performance
relative to the measured one, ``|value - best| / value``: at most 1 for a time, unbounded
for a throughput -- as in the tables, whose E_S stays below 0.4 for the time-measured STAMP
and Parsec rows and reaches 6.6 for the throughput-measured micro-benchmarks.

>>> table = {n: 100 * n / (1 + 0.002 * n**2) for n in range(1, 49)}   # peak at 22-23
>>> run = run_binsearch(table, higher_is_better=True)
>>> [n for n, _ in run.steps]
[1, 5, 13, 29, 48, 38, 21, 17, 25, 19, 23, 22]
>>> run.chosen, score(run, table, higher_is_better=True).E
(22, 0.0)
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...arguments import as_each, as_int, wrong
from ...errors import PatternalgError
from .candidates import Rational
from .fitting import fit_candidate
from .interpolation import MAX_DEGREE, fit_polynomial

__all__ = [
    "Source",
    "Run",
    "Scores",
    "OPreSca",
    "run_opresca",
    "run_binsearch",
    "step_error",
    "score",
    "mean_scores",
    "RATIONAL_BY_SIZE",
]

#: a table of performance per thread count, or a function that measures one interval
Source = Mapping[int, float] | Callable[[int], float]
#: Algorithm 2, ApproxRat: (numerator, denominator) degrees by number of measurements
RATIONAL_BY_SIZE = {3: (1, 1), 4: (1, 2), 5: (2, 2), 6: (2, 3), 7: (3, 3)}
#: measurements OPreSca takes before it approximates
INITIAL_STEPS = 3
#: error above which a step counts in S_{E>10%}
BAD_STEP = 0.10


@dataclass(frozen=True)
class Run:
    """The intervals of one tuner run: (threads, performance) in order, and the choice."""

    steps: tuple[tuple[int, float], ...]
    chosen: int


@dataclass(frozen=True)
class Scores:
    """E, S, E_S and S_{E>10%} of Tables 2-3 (means when averaged over runs)."""

    E: float
    S: float
    E_S: float
    S_E_gt_10: float

    @property
    def cost(self) -> float:
        """The total cost S * E_S: the summed error of all steps (the paper's cost ratio)."""
        return self.S * self.E_S


def _better(a: float, b: float, higher_is_better: bool) -> bool:
    return a > b if higher_is_better else a < b


def _best_index(values: np.ndarray, higher_is_better: bool) -> int:
    return int(np.argmax(values) if higher_is_better else np.argmin(values))


def step_error(value: float, best: float) -> float:
    """The error of measuring ``value`` where ``best`` was possible: |value - best| / value.

    >>> step_error(12.5, 10.0), step_error(25.0, 100.0)   # a time; a throughput
    (0.2, 3.0)
    """
    return abs(value - best) / value


def score(run: Run, table: Mapping[int, float], higher_is_better: bool) -> Scores:
    """Score a run against the true performance ``table``.

    >>> score(Run(((1, 10.0), (2, 5.0)), 2), {1: 10.0, 2: 5.0}, higher_is_better=False)
    Scores(E=0.0, S=2, E_S=0.25, S_E_gt_10=1)
    """
    values = list(table.values())
    best = max(values) if higher_is_better else min(values)
    errors = [step_error(table[n], best) for n, _ in run.steps]
    return Scores(
        E=step_error(table[run.chosen], best),
        S=len(run.steps),
        E_S=float(np.mean(errors)) if errors else 0.0,
        S_E_gt_10=sum(e > BAD_STEP for e in errors),
    )


def mean_scores(scores: Iterable[Scores]) -> Scores:
    """The mean of each column over runs.

    >>> mean_scores([Scores(0.0, 4, 0.2, 1), Scores(0.1, 6, 0.4, 2)])
    Scores(E=0.05, S=5.0, E_S=0.30000000000000004, S_E_gt_10=1.5)
    """
    rows = np.array([[s.E, s.S, s.E_S, s.S_E_gt_10] for s in scores], dtype=float)
    return Scores(*(float(v) for v in rows.mean(axis=0)))


def _counts(value: Any, name: str) -> list[int]:
    """Thread counts as given: whole numbers (a list or an array of them)."""
    return [int(n) for n in as_each(value, numbers.Integral, name, "thread counts, whole numbers >= 1")]


def _choices(threads: Any) -> list[int]:
    """The thread counts to choose from, ascending: whole numbers >= 1."""
    counts = sorted(set(_counts(threads, "threads")))
    if not counts or counts[0] < 1:
        raise PatternalgError("thread counts must be whole numbers >= 1")
    if len(counts) < INITIAL_STEPS:  # OPreSca measures that many before it approximates
        raise PatternalgError(f"the tuners need at least {INITIAL_STEPS} thread counts to choose from, got {len(counts)}")
    return counts


def _threads(source: Source, threads: Sequence[int] | None) -> list[int]:
    """The counts to choose from (a table's, without ``threads``), the table checked."""
    if not isinstance(source, Mapping) and not callable(source):
        raise wrong("source", "a table {threads: performance} or a function run(threads) -> performance", source)
    if threads is None:
        if not isinstance(source, Mapping):
            raise PatternalgError("a callable source needs the thread counts to choose from")
        threads = list(source)
    counts = _choices(threads)
    if isinstance(source, Mapping):
        missing = [n for n in counts if n not in source]
        if missing:
            raise PatternalgError(f"thread count {missing[0]} is not in the table ({len(source)} counts): choose among its counts")
        for n in counts:
            _performance(source[n], f"source[{n}]")  # the whole table, before a step
    return counts


def _measure(source: Source) -> Callable[[int], float]:
    """The performance of one interval with ``n`` threads, a positive finite number."""
    if isinstance(source, Mapping):
        return lambda n: _performance(source[n], f"source[{n}]")
    return lambda n: _performance(source(n), f"source({n})")


def _performance(value: Any, name: str) -> float:
    """``value``, the performance measured in one interval, as a positive finite float."""
    number = float(value) if isinstance(value, numbers.Real) and not isinstance(value, bool) else math.nan
    if math.isfinite(number) and number > 0:
        return number
    raise wrong(name, "the performance of one interval, a positive finite number", value)


class OPreSca:
    """The OPreSca tuner: ``interval_expired(threads, performance)`` returns the next count.

    The first :data:`INITIAL_STEPS` counts (or every count of a longer ``init``) come from
    ``init`` (in order; missing ones are drawn at random with ``seed`` among the unmeasured
    counts); then every choice is the
    best count predicted from all measurements so far (:meth:`predicted_best`). The tuner
    has converged when that count was already measured. :meth:`workload_change` forgets
    everything and starts over.

    >>> tuner = OPreSca(range(1, 49), higher_is_better=True, init=[12, 24, 36])
    >>> tuner.next_threads()
    12
    """

    def __init__(
        self,
        threads: Iterable[int],
        higher_is_better: bool,
        init: Sequence[int] | None = None,
        seed: int | None = None,
    ) -> None:
        self.threads = _choices(threads)
        self.higher_is_better = higher_is_better
        self.init = [] if init is None else _counts(init, "init")
        unknown = [n for n in self.init if n not in self.threads]
        if unknown:
            raise PatternalgError(
                f"initial thread count {unknown[0]} is not among the counts to choose from "
                f"({self.threads[0]}..{self.threads[-1]}, {len(self.threads)} counts)"
            )
        if len(set(self.init)) != len(self.init):
            raise PatternalgError(f"initial thread counts repeat: {self.init}")
        if seed is not None:
            as_int(seed, "seed", 0)
        self.rng = np.random.default_rng(seed)
        self.measured: dict[int, float] = {}
        self._next: int | None = None

    # --- Algorithm 2 ---------------------------------------------------------------------
    def interval_expired(self, threads: int, performance: float) -> int:
        """Record the last interval's measurement; the thread count for the next one."""
        self.record(threads, performance)
        return self.next_threads()

    def record(self, threads: int, performance: float) -> None:
        """Store the performance measured with ``threads`` in the last interval."""
        self.measured[int(threads)] = float(performance)
        self._next = None

    def next_threads(self) -> int:
        """The count to run next: an initial one, or the predicted best."""
        if self._next is None:
            if len(self.measured) >= max(INITIAL_STEPS, len(self.init)):
                self._next = self.predicted_best()
            else:
                self._next = self._initial()
        return self._next

    @property
    def converged(self) -> bool:
        """Whether the predicted best count was already measured."""
        return len(self.measured) >= INITIAL_STEPS and self.next_threads() in self.measured

    def workload_change(self) -> None:
        """Forget all measurements (the workload changed) and start over."""
        self.measured.clear()
        self._next = None

    def _initial(self) -> int:
        for n in self.init:
            if n not in self.measured:
                return n
        free = [n for n in self.threads if n not in self.measured]
        if not free:
            return self.predicted_best()
        return int(self.rng.choice(free))

    def predicted_best(self) -> int:
        """Algorithm 2's Approximate + MaxPerfThreadCount over the thread counts.

        Interpolation (a polynomial of degree min(m - 1, 6)) when the best measured count
        lies strictly inside the measured range, and the best is then sought inside that
        range; else extrapolation with the rational function for m measurements
        (:data:`RATIONAL_BY_SIZE`) over all counts. Predictions that are not positive and
        finite are ignored; if none is left, the best measured count wins.
        """
        ns = np.array(sorted(self.measured), dtype=float)
        ys = np.array([self.measured[int(n)] for n in ns])
        best = _best_index(ys, self.higher_is_better)
        counts = np.array(self.threads, dtype=float)
        predicted: np.ndarray | None = None
        if 0 < best < len(ns) - 1:
            coeffs = fit_polynomial(ns, ys, min(len(ns) - 1, MAX_DEGREE))
            counts = counts[(counts >= ns[0]) & (counts <= ns[-1])]
            predicted = np.polyval(coeffs[::-1], counts)
        else:
            function = Rational(*RATIONAL_BY_SIZE[min(len(ns), max(RATIONAL_BY_SIZE))])
            theta = fit_candidate(function, ns, ys)
            if theta is not None:
                with np.errstate(all="ignore"):
                    predicted = function.values(theta, counts)
        if predicted is not None:
            valid = np.isfinite(predicted) & (predicted > 0)
            if np.any(valid):
                index = _best_index(predicted[valid], self.higher_is_better)
                return int(counts[valid][index])
        return int(ns[best])


def run_opresca(
    source: Source,
    higher_is_better: bool,
    threads: Sequence[int] | None = None,
    init: Sequence[int] | None = None,
    seed: int | None = None,
) -> Run:
    """Run OPreSca against ``source`` until it converges.

    >>> table = {n: 100 * n / (1 + 0.002 * n**2) for n in range(1, 49)}
    >>> run = run_opresca(table, True, init=[12, 24, 36])
    >>> [n for n, _ in run.steps], run.chosen
    ([12, 24, 36, 25, 23, 22], 22)
    """
    counts = _threads(source, threads)
    measure = _measure(source)
    tuner = OPreSca(counts, higher_is_better, init, seed)
    steps: list[tuple[int, float]] = []
    while not tuner.converged:
        n = tuner.next_threads()
        value = float(measure(n))
        steps.append((n, value))
        tuner.record(n, value)
    return Run(tuple(steps), tuner.next_threads())


def run_binsearch(
    source: Source, higher_is_better: bool, threads: Sequence[int] | None = None
) -> Run:
    """The Binsearch baseline: 1, 5, 13, 29, ... until it gets worse, then a binary search.

    Phase 1 starts at 1 thread with an increment of 4 that doubles each step (the highest
    count ends the phase); phase 2 keeps the best count b with its measured neighbours
    lo < b < hi and measures the middle of the wider side, until no count lies between
    them. Counts missing from a sparse table are replaced by the nearest present one.
    """
    counts = _threads(source, threads)
    measure = _measure(source)
    measured: dict[int, float] = {}
    steps: list[tuple[int, float]] = []

    def probe(n: int) -> float:
        if n not in measured:
            measured[n] = float(measure(n))
            steps.append((n, measured[n]))
        return measured[n]

    def nearest(target: float, among: Sequence[int]) -> int:
        return min(among, key=lambda c: (abs(c - target), c))

    target, increment, previous = 1, 4, None
    while True:
        n = nearest(min(target, counts[-1]), counts)
        if n not in measured:
            value = probe(n)
            if previous is not None and _better(previous, value, higher_is_better):
                break
            previous = value
        if n == counts[-1]:
            break
        target, increment = target + increment, increment * 2

    best = max(measured, key=lambda k: measured[k] if higher_is_better else -measured[k])
    lo = max((k for k in measured if k < best), default=best)
    hi = min((k for k in measured if k > best), default=best)
    while True:
        left = [c for c in counts if lo < c < best]
        right = [c for c in counts if best < c < hi]
        if not left and not right:
            break
        side, bound = (right, hi) if len(right) > len(left) else (left, lo)
        middle = nearest((bound + best) / 2, side)
        if _better(probe(middle), measured[best], higher_is_better):
            lo, hi = (best, hi) if middle > best else (lo, best)
            best = middle
        elif middle > best:
            hi = middle
        else:
            lo = middle
    return Run(tuple(steps), best)
