"""The least squares of ``calibrate``: a machine's numbers fitted to the relative errors of
the calibration compositions, with their standard errors and covariance.

:class:`Problem` states it (the compositions, the library they are composed from, the
numbers to fit: the hand-off's ``h0, h1``, the dispatch cost ``d0`` where a calibration
composition has a pool of two or more threads, the turn ``t0`` where one is a pool no
faster than its atom alone, the wake ``w0`` where a stage of one's pipe
waits for the one before it, the serial fractions of the speed-ups asked for); :func:`fit_numbers` solves it by bounded, nonnegative least squares
(:mod:`~patternalg.evidence.batched`); :func:`covariance_record` and :func:`rounded` write
what the machine file keeps.

>>> rounded(123.456789, 3), rounded(1e-12)
(123.0, 0.0)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import sympy

from ..algebra.arrays import compile_term
from ..algebra.atomic_model import AtomicModel
from ..algebra.machine import Machine
from ..algebra.machine_number_kinds import fraction_name, kind_of
from ..algebra.semantics import Semantics
from ..errors import MeasurementError
from ..syntax.symbols import p, x
from ..syntax.terms import Atom, Pipe, Term, TPool
from .absorbed import inherited_covariance, kept_shares, kept_slopes, pseudo_inverse
from .batched import Batch, fit
from .calibrated import DIGITS
from .calibration_regions import Region

__all__ = ["Fitted", "Problem", "covariance_record", "fit_numbers", "pooled_atoms", "rounded", "slower_pools", "spread",
           "standard_errors"]


def _has_pool(terms: Iterable[Term]) -> bool:
    """Whether a term has a task pool of two or more threads (the dispatch cost shows)."""
    return any(
        isinstance(node, TPool) and not (node.count.is_Integer and int(node.count) < 2)
        for term in terms
        for node in term.walk()
    )


def slower_pools(compositions: Sequence[Region], library: Mapping[str, AtomicModel]) -> set[str]:
    """The atoms ``A`` of calibration compositions ``tpool_k(A)``, k >= 2, measured at least as
    slow as ``A`` alone at every size: such a pool gains nothing from its threads, and its
    time is the turn (``tpool_2(nop)``: 4 times ``nop`` on ``data23``). A pool that does gain
    is its atom's time and the dispatch cost above the turn, and where it meets the turn at
    its smallest size alone the two are one (``data5``, calibrated with a turn free on
    ``tpool_2(inc)`` alone: a turn of 5.6 us, ``tpool_2(inc)`` at x = 1,024, and no dispatch
    cost, where a dispatch cost of 0.7 us follows every size)."""
    atoms = set()
    for region in compositions:
        term = region.term
        if isinstance(term, TPool) and isinstance(term.body, Atom) and term.count.is_Integer and int(term.count) >= 2:
            alone = compile_term(term.body, library, {}, semantics="exact").values({"x": region.sizes})
            with np.errstate(all="ignore"):
                if np.all(np.asarray(region.medians) >= np.asarray(alone)):
                    atoms.add(term.body.name)
    return atoms


def _waits(compositions: Sequence[Region], library: Mapping[str, AtomicModel]) -> bool:
    """Whether a stage of a calibration composition's pipe waits for the one before it (its
    second stage composed from the atoms is the faster at a size: the wake shows)."""
    for region in compositions:
        for node in region.term.walk():
            if isinstance(node, Pipe):
                first, second = (compile_term(part, library, {}, semantics="exact").values({"x": region.sizes})
                                 for part in (node.left, node.right))  # fmt: skip
                with np.errstate(all="ignore"):
                    if np.any(np.asarray(second) < np.asarray(first)):
                        return True
    return False


def pooled_atoms(compositions: Sequence[Region], cores: int, library: Mapping[str, AtomicModel]) -> list[str]:
    """The atoms of ``tpool_k(atom)`` compositions with ``2 <= k <= cores`` (a speed-up to
    fit) but those of pools no faster than the atom alone (they measure the turn:
    :func:`slower_pools`)."""
    turns = slower_pools(compositions, library)
    names = []
    for term in (r.term for r in compositions):
        if isinstance(term, TPool) and isinstance(term.body, Atom) and term.count.is_Integer:
            atom = term.body.name
            if 2 <= int(term.count) <= cores and atom not in names and atom not in turns:
                names.append(atom)
    return names


class Problem:
    """The least squares: the calibration compositions' relative errors under a machine."""

    def __init__(self, compositions: Sequence[Region], library: Mapping[str, AtomicModel],
                 cores: int, unit: str, pooled: Sequence[str]) -> None:  # fmt: skip
        self.compositions, self.library, self.cores, self.unit = compositions, library, cores, unit
        self.pooled = list(pooled)
        #: the machine's numbers in theta's order: the hand-off's, the dispatch cost's (where
        #: a calibration composition has a pool of two or more threads), the turn's (where
        #: one is such a pool no faster than its atom alone), the wake's (where a
        #: stage of one's pipe waits for the one before it), the speed-ups'
        self.names = ["h0", "h1"] + (["d0"] if _has_pool(r.term for r in compositions) else [])
        self.names += ["t0"] if slower_pools(compositions, library) else []
        self.names += ["w0"] if _waits(compositions, library) else []
        self.names += [fraction_name(a) for a in self.pooled]

    def machine(self, theta: Sequence[float] | np.ndarray, record: tuple[tuple[str, Any], ...] = (),
                source: str = "") -> Machine:  # fmt: skip
        n = dict(zip(self.names, (_number(t) for t in theta), strict=True))
        speedups = {a: p / (1 + n[fraction_name(a)] * (p - 1)) for a in self.pooled}
        return Machine(self.cores, handoff=n["h0"] + n["h1"] * x, speedups=speedups, unit=self.unit,
                       source=source, calibration=record, dispatch=n.get("d0", 0), turn=n.get("t0", 0),
                       wake=n.get("w0", 0))  # fmt: skip

    def errors(self, semantics: Semantics | str) -> list[np.ndarray]:
        """Per composition, (predicted - measured) / measured at its sizes."""
        return [
            compile_term(r.term, self.library, {}, semantics=semantics).values({"x": r.sizes})
            / r.medians - 1
            for r in self.compositions
        ]

    @functools.cached_property
    def batch(self) -> Batch:
        """The compositions under many trial machines at once (what the fits evaluate)."""
        return Batch([(r.term, r.sizes, r.medians) for r in self.compositions], self.library,
                     cores=self.cores, unit=self.unit, names=self.names, pooled=self.pooled)  # fmt: skip

    def start(self) -> np.ndarray:
        """The fit's first guess (:mod:`~patternalg.algebra.machine_number_kinds`: no hand-off
        nor dispatch cost, a slope of 1, c = 0.05)."""
        return np.array([k.in_unit(k.start, self.unit) for k in map(kind_of, self.names)])


class Fitted(NamedTuple):
    """A least squares' outcome: the numbers (0 where the data do not move one: none of
    that cost is measured), their covariance (NaN in the rows and columns of a number the
    data do not move; None without more points than numbers), each calibration point's
    kept share (:mod:`.absorbed`), which numbers the data do not move, and each
    composition's kept share of a slope in log2(x) (:func:`.absorbed.kept_slopes`)."""

    theta: np.ndarray
    covariance: np.ndarray | None
    kept: np.ndarray
    unmoved: np.ndarray
    slopes: np.ndarray


def fit_numbers(problem: Problem) -> Fitted:
    """The numbers by bounded (nonnegative) least squares, and what comes with them."""
    start = problem.start()
    with np.errstate(all="ignore"):
        first = problem.errors(problem.machine(start).semantics)
    for region, error in zip(problem.compositions, first, strict=True):
        if not np.all(np.isfinite(error)):
            raise MeasurementError(
                f"{region.where}: composed from its atoms, {region.term} is beyond double "
                "precision (about 1.8e308) or undefined at some sizes: nothing to fit"
            )
    if "t0" in problem.names:  # at 0 it binds no pool, and the dispatch cost takes up its misses
        start = _best_trial(problem, start, "t0")[0]
    theta, found = fit(problem.batch, start)
    for name in FLAT:
        if name in problem.names:
            theta, found = _scanned_fit(problem, theta, found, name)
    jac, free = found.jac, _off_bounds(problem, theta)
    # a number no composition moves keeps the fit's first guess (a hand-off's slope of 1
    # without a pipe): none of that cost is measured, so the machine has none
    unmoved = ~np.any(jac, axis=0)
    theta = np.where(unmoved, 0.0, theta)
    groups = np.concatenate([np.full(len(r.sizes), i) for i, r in enumerate(problem.compositions)])
    kept = kept_shares(jac, free, groups)
    steps = np.log2(np.concatenate([r.sizes for r in problem.compositions]).astype(float))  # sizes > 0 (regions)
    slopes = kept_slopes(jac, free, groups, steps)
    n, m = len(problem.names), jac.shape[0]
    if m <= n:
        return Fitted(theta, None, kept, unmoved, slopes)
    covariance = inherited_covariance(jac, free, found.fun, groups)
    if covariance is None:  # no composition's own miss seen: the points' noise alone
        with np.errstate(all="ignore"):
            inverse = pseudo_inverse(jac)
            covariance = inverse @ inverse.T * (2 * found.cost / (m - n))
    covariance[unmoved, :] = covariance[:, unmoved] = np.nan
    return Fitted(theta, covariance, kept, unmoved, slopes)


#: the numbers that enter flat where they do not bind: the wake ``w0`` as ``min(wait, w0)``
#: (flat wherever every sender is lighter than it), the turn ``t0`` as ``max(time, t0)``
#: (flat wherever every pool is heavier); a least squares from one first guess stops short
#: of them (``data20``: a wake of 7.5 us where 12.1 us misses less) or never moves them
FLAT = ("t0", "w0")

#: the values of a :data:`FLAT` number tried beside a fit's own (ns)
TRIALS = np.concatenate([[0.0], np.geomspace(10.0, 1e7, 61)])


def _scanned_fit(problem: Problem, theta: np.ndarray, found: Any, name: str) -> tuple[np.ndarray, Any]:
    """The fit again from the best of :data:`TRIALS` for the :data:`FLAT` number ``name``
    (the others as fitted) where one of them misses less than the fit does."""
    trial, cost = _best_trial(problem, theta, name)
    if not cost < 2 * found.cost * (1 - 1e-9):
        return theta, found
    again, refound = fit(problem.batch, trial)
    return (again, refound) if refound.cost < found.cost else (theta, found)


def _best_trial(problem: Problem, theta: np.ndarray, name: str) -> tuple[np.ndarray, float]:
    """``theta`` with number ``name`` at the one of :data:`TRIALS` that misses least, and
    the sum of the squared misses there."""
    i = problem.names.index(name)
    trials = np.repeat(theta[None], len(TRIALS), axis=0)
    trials[:, i] = [kind_of(name).in_unit(w, problem.unit) for w in TRIALS]
    with np.errstate(all="ignore"):
        costs = np.nansum(problem.batch.errors(trials) ** 2, axis=1)
    best = int(np.argmin(costs))
    return trials[best], float(costs[best])


def _off_bounds(problem: Problem, theta: np.ndarray) -> np.ndarray:
    """Which numbers are off their bounds by more than a negligible amount (what takes up
    misses): the same in any unit, where scipy's active set is within 1e-12 of a bound in
    the unit's own numbers (a hand-off of 5e-12 ns was free, its 1e-17 s at the bound)."""
    kinds = [kind_of(name) for name in problem.names]
    least = np.array([k.negligible(problem.unit) for k in kinds])
    return (theta > least) & (theta < np.array([k.upper for k in kinds]) - least)  # type: ignore[no-any-return]


def standard_errors(covariance: np.ndarray | None, n: int) -> list[float | None]:
    """Each number's standard error from its ``covariance`` (None where it has none)."""
    if covariance is None:
        return [None] * n
    variances = np.diagonal(covariance)
    return [float(np.sqrt(v)) if math.isfinite(v) and v >= 0 else None for v in variances]


def covariance_record(names: Sequence[str], covariance: np.ndarray | None, unit: str,
                       unkept: Mapping[str, float] | None = None) -> dict[str, Any] | None:  # fmt: skip
    """The numbers' covariance for the machine file (what intervals draw them from,
    :mod:`~patternalg.algebra.machine_numbers`): the numbers the data determine, in their
    order, and ``unit``, the unit of the costs among them; with the variances of the
    serial fractions ``calibrate(speedups="auto")`` fitted and did not keep (``unkept``:
    drawn from 0 upward, independent of the others)."""
    kept = [] if covariance is None else [  # a number the data do not move is NaN throughout
        i for i in range(len(names)) if math.isfinite(covariance[i, i]) and covariance[i, i] >= 0
    ]  # fmt: skip
    if kept and not np.all(np.isfinite(covariance[np.ix_(kept, kept)])):  # type: ignore[index]
        kept = []
    extra = {k: v for k, v in (unkept or {}).items() if math.isfinite(v) and v >= 0}
    if not kept and not extra:
        return None
    size = len(kept) + len(extra)
    matrix = [[0.0] * size for _ in range(size)]
    # 0 below a negligible number's square on the diagonal and a billionth of a correlation
    # off it: what the fit's last steps leave, in any unit
    for a, i in enumerate(kept):
        for b, j in enumerate(kept):
            cell = float(covariance[i, j])  # type: ignore[index]
            least = (kind_of(names[i]).negligible(unit) ** 2 if i == j
                     else 1e-9 * math.sqrt(covariance[i, i] * covariance[j, j]))  # type: ignore[index]  # fmt: skip
            matrix[a][b] = rounded(cell, zero=least)
    for a, (name, variance) in enumerate(extra.items(), start=len(kept)):
        matrix[a][a] = rounded(variance, zero=kind_of(name).negligible(unit) ** 2)
    return {"unit": unit, "names": [names[i] for i in kept] + list(extra), "matrix": matrix}


def _number(value: float) -> sympy.Expr:
    """A fitted number for sympy: whole numbers as integers (``300``, not ``300.0``)."""
    value = float(value)
    return sympy.Integer(int(value)) if value.is_integer() else sympy.Float(value)


def rounded(value: float, digits: int = DIGITS, zero: float = 1e-9) -> float:
    """``value`` in ``digits`` significant digits; 0 below ``zero`` in magnitude (a relative
    error of a billionth; a fitted number's own :meth:`~patternalg.algebra.machine_number_kinds.NumberKind.negligible`)."""
    return 0.0 if abs(value) < zero else float(f"{value:.{digits}g}")


def spread(value: float) -> float:
    """A relative spread for the record: rounded, at most what a machine file may give
    (:data:`~patternalg.library.machine_file.MAX_SPREAD`: a calibration that misses by a
    million times is recorded as missing by that much)."""
    from ..library.machine_file import MAX_SPREAD

    return rounded(min(value, MAX_SPREAD))
