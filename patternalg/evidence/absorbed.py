"""What a calibration's numbers absorb of each composition's own miss.

An operator misses a composition by an amount of its own: ``tpool_2(qsort)`` by whatever
the pool's model leaves out at every size alike. Fitting the machine's numbers to the
calibration compositions moves them to take up what they can of those misses: the serial
fraction ``c_qsort`` is fitted to ``tpool_2(qsort)`` alone, and takes the whole of its
miss, so its residuals show none of it. The residuals of the calibration compositions then
understate what the operators miss elsewhere, the more so the more of the compositions
have a number of their own.

The **kept share** of a point is what its residual keeps of a miss of its composition's
own (one relative level at every size of it, of unit variance, independent from
composition to composition) once the numbers free of their bounds are fitted, linearised
at the fit: ``diag(M Z Z^T M^T)`` with ``M = I - J J^+`` (``J`` the Jacobian of the
relative errors in those numbers, ``Z`` the points' compositions). It is 1 for a
composition no number reaches (``seq(inc, inc)``), 0 for one a number of its own takes in
full, and in between where a number is shared. The width factor counts each calibration
point by it (:func:`weighted_median`, :mod:`~patternalg.evidence.widths`), so a composition
whose residuals are the fit's own says nothing of the misses they hid.

>>> jac = np.array([[1.0], [1.0], [0.0], [0.0]])  # one number reaches the first composition
>>> kept_shares(jac, np.array([True]), np.array([0, 0, 1, 1])).round(6).tolist()
[0.0, 0.0, 1.0, 1.0]
"""

from __future__ import annotations

import numpy as np

__all__ = ["kept_shares", "weighted_median"]


def kept_shares(jac: np.ndarray, free: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Per point, the share of its composition's own miss its residual keeps (module doc):
    ``jac`` (points, numbers) the relative errors' Jacobian at the fit, ``free`` which
    numbers are off their bounds (a number at 0 takes up no miss that would push it below),
    ``groups`` each point's composition.

    >>> jac = np.array([[1.0, 0.0], [1.0, 0.0], [1.0, 1.0], [1.0, 1.0]])
    >>> kept_shares(jac, np.array([True, False]), np.array([0, 0, 1, 1])).round(6).tolist()
    [0.5, 0.5, 0.5, 0.5]
    >>> kept_shares(np.array([[np.nan], [1.0]]), np.array([True]), np.array([0, 1])).tolist()
    [1.0, 1.0]
    """
    groups = np.asarray(groups)
    z = (groups[:, None] == np.unique(groups)[None, :]).astype(float)
    used = np.asarray(jac, dtype=float)[:, np.asarray(free, dtype=bool)]
    if not used.size or not np.all(np.isfinite(used)):  # nothing fitted, or no derivative
        return np.ones(len(groups))  # known there: every point keeps its miss
    try:
        kept = z - used @ (np.linalg.pinv(used) @ z)
    except np.linalg.LinAlgError:  # no decomposition at these magnitudes: as above
        return np.ones(len(groups))
    shares = (kept * kept).sum(axis=1)
    return np.where(np.isfinite(shares), np.clip(shares, 0.0, 1.0), 1.0)  # type: ignore[no-any-return]


def weighted_median(values: np.ndarray, weights: np.ndarray | None = None) -> float:
    """The median of ``values`` with each counted ``weights`` times (all alike: None, the
    plain median): where half the weight lies on either side, the mean of the two values
    that split it there; NaN without weight.

    >>> weighted_median(np.array([1.0, 2.0, 3.0, 10.0])), weighted_median(np.array([1.0, 2, 30]), np.array([1.0, 0.0, 1.0]))
    (2.5, 15.5)
    >>> weighted_median(np.array([1.0, 2, 30]), np.array([3.0, 1.0, 1.0]))
    1.0
    """
    values = np.asarray(values, dtype=float)
    weights = np.ones_like(values) if weights is None else np.asarray(weights, dtype=float)
    values, weights = values[weights > 0], weights[weights > 0]
    if not len(values):
        return float("nan")
    order = np.argsort(values, kind="stable")
    values, cumulative = values[order], np.cumsum(weights[order])
    half = cumulative[-1] / 2
    at = int(np.searchsorted(cumulative, half))
    if at + 1 < len(values) and np.isclose(cumulative[at], half, rtol=1e-12, atol=0.0):
        return float((values[at] + values[at + 1]) / 2)
    return float(values[at])
