"""PreSca's prediction (paper 004): interpolation inside, Algorithm 1 beyond the measured range.

Algorithm 1 (PrescaExtrapolate): the last ``c`` measurements are checkpoints; every
candidate function of Table 1 is fitted (relative error) to the first ``count``
measurements for each ``count`` in :data:`SUBSET_COUNTS` up to m - c; candidates that are
negative or change too abruptly over the target range 1..N (:func:`should_use`, the
paper's ShouldUseFunc) are dropped; the lowest mean relative error at the checkpoints wins.

>>> import numpy as np
>>> threads = np.arange(1, 13)
>>> ops = 1000 * threads / (1 + 0.04 * threads + 0.002 * threads**2)   # saturating throughput
>>> result = predict(threads, ops, upto=24, higher_is_better=True)
>>> result.function.candidate.name, round(float(result.function(np.array([24]))[0]))
('Rat12', 7712)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import ArrayLike

from ..._internal.limits import MAX_PREDICTED_THREADS
from ..._internal.surface import flag
from ...arguments import as_int
from ...errors import FitError
from .candidates import CANDIDATES, Candidate
from .fitting import fit_candidate
from .interpolation import interpolate
from .model import PerformanceFunction

__all__ = [
    "SUBSET_COUNTS",
    "CHECKPOINTS",
    "X_POW_POS",
    "X_LIN_NEG",
    "CandidateFit",
    "Prediction",
    "should_use",
    "positive_between",
    "check_upto",
    "target_count",
    "plan",
    "extrapolate",
    "predict",
]

#: sizes of the measurement subsets of Algorithm 1 (the first ``count`` measurements)
SUBSET_COUNTS = (2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32)
#: default number of checkpoints (the measurements with the highest thread counts)
CHECKPOINTS = 4
#: ShouldUseFunc: one more thread may raise the cost at most by (n/(n-1))**X_POW_POS ...
X_POW_POS = 8
#: ... and cut it at most to X_LIN_NEG * (n-1)/n of what it was
X_LIN_NEG = 2.0 / 3.0


def should_use(values: ArrayLike, higher_is_better: bool) -> bool:
    """ShouldUseFunc of Algorithm 1 on the values at thread counts 1, 2, ..., N.

    Rejects values that are not positive and finite, and abrupt changes: from n-1 to n
    threads the cost (the time; the inverse of a throughput) may drop to no less than
    (2/3)(n-1)/n of what it was and rise to no more than (n/(n-1))^8 of it.

    >>> should_use([10.0, 6.0, 4.5], higher_is_better=False)
    True
    >>> should_use([10.0, 3.0, 2.5], higher_is_better=False)   # 10 -> 3 is faster than 2/3 * 1/2
    False
    >>> should_use([1.0, 3.5, 4.0], higher_is_better=True)     # 3.5x more throughput > 3/2 * 2
    False
    """
    values = np.asarray(values, dtype=float)
    if not np.all(np.isfinite(values)) or np.any(values <= 0):
        return False
    cost = 1.0 / values if higher_is_better else values
    n = np.arange(2, len(cost) + 1, dtype=float)
    previous, current = cost[:-1], cost[1:]
    low = X_LIN_NEG * (n - 1) / n * previous
    high = previous * (n / (n - 1)) ** X_POW_POS
    return bool(np.all((current >= low) & (current <= high)))


#: the points per thread at which :func:`positive_between` looks between the counts (at most
#: :data:`_BETWEEN_MOST` in all)
_BETWEEN, _BETWEEN_MOST = 32, 100_001


def positive_between(candidate: Candidate, theta: ArrayLike, upto: int) -> bool:
    """Whether a candidate stays positive and finite between the thread counts 1..upto as
    well as at them (ShouldUseFunc looks at the counts only): a rational's pole between two
    counts is the most abrupt change of all, and the prediction is a function of p
    everywhere (its closed form, its plots, a fractional ``--at p=2.5``).

    >>> from patternalg.forms.presca.candidates import Rational
    >>> rat = Rational(1, 1)   # (a0 + a1 p) / (1 + b1 p): a pole at p = -1 / b1
    >>> positive_between(rat, (1.0, 1.0, 0.0), 8), positive_between(rat, (1.0, 1.0, -1 / 2.5), 8)
    (True, False)
    """
    points = min(_BETWEEN * (int(upto) - 1) + 1, _BETWEEN_MOST)
    with np.errstate(all="ignore"):
        values = candidate.values(np.asarray(theta, dtype=float), np.linspace(1.0, float(upto), points))
    return bool(np.all(np.isfinite(values)) and np.all(values > 0))


@dataclass(frozen=True)
class CandidateFit:
    """One candidate function fitted to one subset: its checkpoint error, and if it is usable."""

    candidate: Candidate
    parameters: tuple[float, ...]
    subset: int
    checkpoint_error: float
    usable: bool


@dataclass(frozen=True)
class Prediction:
    """The outcome of PreSca: the function, the winning candidate's facts, all candidates."""

    function: PerformanceFunction
    subset: int | None
    checkpoint_error: float | None
    candidates: tuple[CandidateFit, ...] = ()
    #: the checkpoints Algorithm 1 used (fewer than asked for when measurements are few)
    checkpoints: int | None = None
    #: what people should know about this prediction (e.g. fewer checkpoints)
    notes: tuple[str, ...] = ()
    #: why the interpolating polynomial is of a lower degree than the paper's, if it is
    interpolation_note: str = ""


def _as_arrays(n: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Measurements sorted by thread count; distinct counts >= 1 and positive values."""
    try:
        n_arr, y_arr = np.asarray(n, dtype=float), np.asarray(y, dtype=float)
    except (TypeError, ValueError):
        raise FitError("thread counts and values must be numbers") from None
    if n_arr.shape != y_arr.shape or n_arr.ndim != 1:
        raise FitError(f"{n_arr.size} thread counts but {y_arr.size} values: one value per count")
    order = np.argsort(n_arr, kind="stable")
    n_arr, y_arr = n_arr[order], y_arr[order]
    whole = np.isfinite(n_arr) & (n_arr == np.round(n_arr)) & (n_arr <= MAX_PREDICTED_THREADS)
    if not np.all(whole):
        bad = n_arr[~whole][0]
        raise FitError(f"thread count {bad:g}: thread counts are whole numbers from 1 to {MAX_PREDICTED_THREADS:,}")
    repeated = n_arr[1:][np.diff(n_arr) == 0]
    if len(repeated):
        raise FitError(f"thread count {repeated[0]:g} appears twice (average repeated runs first)")
    if len(n_arr) and (n_arr[0] < 1 or not np.all(np.isfinite(y_arr)) or np.any(y_arr <= 0)):
        raise FitError("thread counts must be >= 1 and performance values positive and finite")
    return n_arr, y_arr


def check_upto(upto: int, what: str | None = None) -> None:
    """Refuse a target range 1..upto that is empty or too large to check count by count
    (``what``: how the error names it, by default ``--upto`` or ``upto=``).

    >>> check_upto(64)
    >>> check_upto(10**9)
    Traceback (most recent call last):
    patternalg.errors.FitError: upto= must be between 1 and 1,000,000, got 1,000,000,000
    """
    if not 1 <= upto <= MAX_PREDICTED_THREADS:
        raise FitError(f"{what or flag('upto')} must be between 1 and {MAX_PREDICTED_THREADS:,}, got {upto:,}")


def target_count(upto: int | None, threads: ArrayLike) -> int:
    """The largest thread count to predict for: ``upto``, by default twice the largest
    measured one; either checked by :func:`check_upto`.

    >>> target_count(None, [1, 2, 4, 8]), target_count(12, [1, 2, 4, 8])
    (16, 12)
    """
    last = upto or 2 * int(np.max(threads))
    check_upto(last, flag("upto") if upto else f"{flag('upto')} (twice the largest measured thread count)")
    return last


#: the fewest measurements Algorithm 1 works from: 1 checkpoint and 3 to fit ExpRat
MIN_MEASUREMENTS = 1 + min(f.free for f in CANDIDATES)


def plan(m: int, checkpoints: int = CHECKPOINTS) -> tuple[int, tuple[int, ...], tuple[str, ...]]:
    """Checkpoints, subset sizes and notes of Algorithm 1 for ``m`` measurements.

    The paper's plan -- ``checkpoints`` checkpoints, subsets of 2, 4, ... up to the rest --
    needs ``checkpoints`` + 4 measurements. With fewer, the checkpoints shrink to leave a
    subset of 4 (a subset of 3, fitting only ExpRat, with 4 measurements), never below one,
    and a note says so.

    >>> plan(12), plan(5)
    ((4, (4, 6, 8), ()), (1, (4,), ('5 measurements: 1 checkpoint instead of 4 (that needs 8)',)))
    >>> plan(4)[:2]
    (1, (3,))
    """
    if checkpoints < 1:
        raise FitError(f"{flag('checkpoints')} must be at least 1, got {checkpoints}")
    smallest = min(f.free for f in CANDIDATES)
    if m < MIN_MEASUREMENTS:
        raise FitError(
            f"extrapolation needs at least {MIN_MEASUREMENTS} measurements (1 checkpoint and "
            f"a subset of {MIN_MEASUREMENTS - 1} to fit), got {m}"
        )
    first = min(c for c in SUBSET_COUNTS if c >= smallest)
    used = max(1, min(checkpoints, m - first))
    counts = tuple(c for c in SUBSET_COUNTS if smallest <= c <= m - used) or (m - used,)
    notes: tuple[str, ...] = ()
    if used < checkpoints:
        noun = "checkpoint" if used == 1 else "checkpoints"
        notes = (
            f"{m} measurements: {used} {noun} instead of {checkpoints} "
            f"(that needs {checkpoints + first})",
        )
    return used, counts, notes


def extrapolate(
    n: ArrayLike,
    y: ArrayLike,
    upto: int,
    checkpoints: int = CHECKPOINTS,
    higher_is_better: bool = False,
) -> Prediction:
    """Algorithm 1 (PrescaExtrapolate) on measurements (n, y) for the target range 1..upto.

    With fewer than ``checkpoints`` + 4 measurements it uses fewer checkpoints (:func:`plan`).

    >>> import numpy as np
    >>> n = np.arange(1, 13)
    >>> result = extrapolate(n, 5.0 * n / (1 + 0.05 * n), upto=24, higher_is_better=True)
    >>> result.function.candidate.name, result.checkpoint_error < 1e-6
    ('Rat12', True)
    """
    check_upto(upto)
    n_arr, y_arr = _as_arrays(n, y)
    used, counts, notes = plan(len(n_arr), checkpoints)
    check_n, check_y = n_arr[-used:], y_arr[-used:]
    targets = np.arange(1, int(upto) + 1, dtype=float)
    candidates: list[CandidateFit] = []
    for count in counts:
        for function in CANDIDATES:
            theta = fit_candidate(function, n_arr[:count], y_arr[:count])
            if theta is None:
                continue
            error = float(np.mean(np.abs(function.values(theta, check_n) / check_y - 1.0)))
            usable = (
                math.isfinite(error)
                and should_use(function.values(theta, targets), higher_is_better)
                and positive_between(function, theta, upto)
            )
            candidates.append(
                CandidateFit(function, tuple(map(float, theta)), count, error, usable)
            )
    kept = [c for c in candidates if c.usable]
    if not kept:
        raise FitError(
            f"no candidate function fitted to {len(n_arr)} measurements passes the filtering "
            f"heuristics over 1..{upto} threads (negative or too abrupt); "
            f"measure more thread counts or lower {flag('upto')}"
        )
    # lowest checkpoint error; exact ties (noise-free data) go to fewer parameters
    best = min(kept, key=lambda c: (round(c.checkpoint_error, 10), c.candidate.free))
    return Prediction(
        PerformanceFunction(best.candidate, best.parameters),
        best.subset,
        best.checkpoint_error,
        tuple(candidates),
        used,
        notes,
    )


def predict(
    n: ArrayLike,
    y: ArrayLike,
    upto: int,
    *,
    interpolation: str = "auto",
    checkpoints: int = CHECKPOINTS,
    higher_is_better: bool = False,
) -> Prediction:
    """PreSca's performance function for 1..upto threads: interpolation and extrapolation.

    Inside the measured range a polynomial of degree min(6, m - 2) applies (of the values,
    or of their inverse: see ``interpolation`` and :func:`.interpolation.interpolate`); when
    ``upto`` or 1 lies outside it, the candidate function chosen by :func:`extrapolate`
    covers the rest, scaled to meet the polynomial at the edge (:func:`anchored`).

    >>> import numpy as np
    >>> n = np.array([1, 2, 4, 6, 8])
    >>> result = predict(n, 50.0 / n + 2, upto=8, interpolation="poly")
    >>> result.function.name, result.checkpoint_error is None
    ('poly3', True)
    >>> exact = predict(n, 1 / (0.5 + 0.25 * n), upto=8)   # 1/time is linear in n
    >>> exact.function.inverse, bool(np.allclose(exact.function(n), 1 / (0.5 + 0.25 * n)))
    (True, True)
    """
    upto = as_int(upto, "upto", 1, MAX_PREDICTED_THREADS)
    checkpoints = as_int(checkpoints, "checkpoints", 1)
    n_arr, y_arr = _as_arrays(n, y)
    if len(n_arr) < 2:
        raise FitError(f"PreSca needs at least 2 measurements, got {len(n_arr)}")
    polynomial, inverse, note = interpolate(n_arr, y_arr, higher_is_better, interpolation)
    p_range = (float(n_arr[0]), float(n_arr[-1]))
    inside = PerformanceFunction(polynomial=polynomial, p_range=p_range, inverse=inverse)
    if p_range[0] <= 1 and upto <= p_range[1]:
        return Prediction(inside, None, None, interpolation_note=note)
    outer = extrapolate(n_arr, y_arr, upto, checkpoints, higher_is_better)
    candidate = outer.function.candidate
    assert candidate is not None
    function = anchored(inside, candidate, outer.function.parameters)
    return replace(outer, function=function, interpolation_note=note)


def anchored(
    inside: PerformanceFunction, candidate: Candidate, theta: tuple[float, ...]
) -> PerformanceFunction:
    """The interpolation ``inside`` extended by ``candidate`` scaled to meet it at each edge.

    The candidate was fitted to a subset and chosen at the checkpoints, so it passes near
    but not through the interpolant's value at the edge of the measured range; scaling it
    by the ratio of the two there makes the prediction continuous (above the range, and
    below it when it does not start at 1).

    >>> from patternalg.forms.presca.candidates import CubicLn
    >>> inside = PerformanceFunction(polynomial=(1.0, 1.0), p_range=(1.0, 4.0))
    >>> f = anchored(inside, CubicLn(), (4.0, 1.0, 0.0, 0.0))
    >>> bool(abs(f([4.0])[0] - f([4.0 + 1e-9])[0]) < 1e-6)   # 1 + 4 = 5 on both sides
    True
    >>> bool(np.isclose(f.parameters[0], 4 * 5 / (4 + np.log(4))))   # 5 / CubicLn(4) times a
    True
    """
    assert inside.p_range is not None
    low, high = inside.p_range

    def meet(edge: float) -> tuple[float, ...]:
        at_edge = candidate.values(np.asarray(theta), np.asarray(edge))
        ratio = float(inside.interpolant([edge])[0] / at_edge)
        return candidate.scaled(theta, ratio) if math.isfinite(ratio) and ratio > 0 else theta

    below = meet(low) if low > 1 else ()
    return replace(inside, candidate=candidate, parameters=meet(high), below=below)
