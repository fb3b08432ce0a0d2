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

The numbers **inherit** those misses in turn: ``c_qsort`` is off by whatever
``tpool_2(qsort)``'s own miss is, and a pool of 16 threads extrapolates it. Least squares
over points taken as independent gives such a number the variance of one composition's
noise spread over its nine sizes, as if its miss could average out over them; it cannot,
being one level at all of them. :func:`inherited_covariance` gives the numbers the
covariance of both (the noise and the levels, estimated from the residuals).

>>> jac = np.array([[1.0], [1.0], [0.0], [0.0]])  # one number reaches the first composition
>>> kept_shares(jac, np.array([True]), np.array([0, 0, 1, 1])).round(6).tolist()
[0.0, 0.0, 1.0, 1.0]
"""

from __future__ import annotations

import numpy as np

__all__ = ["MIN_LEVELS_SEEN", "inherited_covariance", "kept_shares", "kept_slopes", "pseudo_inverse", "weighted_median"]

#: the compositions' own levels are estimated only where the residuals keep at least this
#: many compositions' worth of them (kept shares summed): ``pipe(inc, inc)`` alone, whose
#: level the hand-off's slope takes up, keeps none, and a level from it would be noise
#: divided by nearly nothing (``h1 = 6.7 +- 540``)
MIN_LEVELS_SEEN = 1.0


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
    left = _left_by_free(jac, free, _compositions(groups))
    if left is None:  # no derivative, or no decomposition at these magnitudes
        return np.ones(len(groups))  # known there: every point keeps its miss
    shares = (left * left).sum(axis=1)
    return np.where(np.isfinite(shares), np.clip(shares, 0.0, 1.0), 1.0)  # type: ignore[no-any-return]


def kept_slopes(jac: np.ndarray, free: np.ndarray, groups: np.ndarray, steps: np.ndarray) -> np.ndarray:
    """Per composition (in the order of ``np.unique(groups)``), the share of a slope of its
    own in ``steps`` (each point's log2(x)) that its residuals still show as a slope once the
    numbers off their bounds took up what they can: ``s^T M s / s^T s``, ``s`` the slope
    (``steps`` less their mean over the composition's points, 0 elsewhere), ``M`` as in
    :func:`kept_shares`. 1 for a composition no number reaches, about 0 where a number of
    its own follows x as the slope does (a hand-off ``h0 + h1*x`` in a pipe's residuals).

    >>> steps = np.tile([10.0, 11.0, 12.0], 2)
    >>> groups = np.repeat([0, 1], 3)
    >>> level = np.array([[1.0]] * 3 + [[0.0]] * 3)  # a number of the first composition's level
    >>> kept_slopes(level, np.array([True]), groups, steps).round(6).tolist()
    [1.0, 1.0]
    >>> follows = np.array([[-1.0], [0.0], [1.0], [0.0], [0.0], [0.0]])  # one that follows x there
    >>> kept_slopes(follows, np.array([True]), groups, steps).round(6).tolist()
    [0.0, 1.0]
    """
    steps, z = np.asarray(steps, dtype=float), _compositions(groups)
    centred = z * (steps[:, None] - (z.T @ steps / z.sum(axis=0))[None, :])
    left = _left_by_free(jac, free, centred)
    if left is None:
        return np.ones(z.shape[1])
    with np.errstate(all="ignore"):
        shares = (centred * left).sum(axis=0) / (centred * centred).sum(axis=0)
    return np.where(np.isfinite(shares), np.clip(shares, 0.0, 1.0), 0.0)  # type: ignore[no-any-return]


def _left_by_free(jac: np.ndarray, free: np.ndarray, columns: np.ndarray) -> np.ndarray | None:
    """``M columns``: what each column (a miss pattern over the points) leaves in the
    residuals once the numbers off their bounds (``free``) took up what they can; None where
    the Jacobian has no finite value or no decomposition exists."""
    used = np.asarray(jac, dtype=float)[:, np.asarray(free, dtype=bool)]
    left = _levels_left(used, columns) if np.all(np.isfinite(used)) else None
    return None if left is None else left[0]


def _compositions(groups: np.ndarray) -> np.ndarray:
    """``Z``: which composition each point is of, one column per composition."""
    groups = np.asarray(groups)
    return (groups[:, None] == np.unique(groups)[None, :]).astype(float)


def _levels_left(used: np.ndarray, z: np.ndarray) -> tuple[np.ndarray, int] | None:
    """``M Z``: what a unit level of each composition (``z``'s columns) leaves in the
    residuals once the numbers whose Jacobian columns are ``used`` took up what they can,
    and how many independent directions they take up; None where no decomposition exists."""
    if not used.size:  # nothing fitted: every level is left whole
        return z, 0
    try:
        basis, values, _ = np.linalg.svd(_unit_columns(used)[0], full_matrices=False)
    except np.linalg.LinAlgError:
        return None
    basis = basis[:, values > values.max(initial=0.0) * max(used.shape) * np.finfo(float).eps]
    return z - basis @ (basis.T @ z), basis.shape[1]


def inherited_covariance(
    jac: np.ndarray, free: np.ndarray, residuals: np.ndarray, groups: np.ndarray
) -> np.ndarray | None:
    """The fitted numbers' covariance with their compositions' own misses in it: each
    composition misses by one relative level of its own (variance ``tau2``, independent from
    composition to composition) beside each point's noise (variance ``sigma2``), and the
    numbers, fitted by least squares, move by ``J^+ (Z m + e)``: covariance
    ``sigma2 (J^T J)^+ + tau2 (J^+ Z)(J^+ Z)^T``. Both variances are estimated from the
    ``residuals`` by moments: the compositions' mean residuals and the residuals about
    those means, whose expected squares are linear in the two (the levels a number of a
    composition's own takes up leave no mean in it, and count for nothing). ``jac``
    (points, numbers) is the relative errors' Jacobian at the fit, ``free`` which numbers
    are off their bounds (only those take up misses), ``groups`` each point's composition.
    None where the levels are not seen (the compositions keep less than
    :data:`MIN_LEVELS_SEEN` of them, or the residuals show none): the points' independent
    noise is then all there is to go on.

    >>> jac = np.repeat([[1.0], [0.0], [0.0]], 3, axis=0)  # one number, of the first composition
    >>> wobble = np.tile([0.01, 0.0, -0.01], 3)
    >>> residuals = wobble + np.repeat([0.0, 0.05, -0.05], 3)  # the others miss by 5 %
    >>> groups = np.repeat([0, 1, 2], 3)
    >>> covariance = inherited_covariance(jac, np.array([True]), residuals, groups)
    >>> round(float(np.sqrt(covariance[0, 0])), 4)   # its composition's miss as likely as theirs
    0.05
    >>> round(float(np.sqrt(residuals @ residuals / (9 - 1) / 3)), 4)   # the points as independent
    0.0255
    >>> print(inherited_covariance(jac, np.array([True]), wobble, groups))  # no level: no word
    None
    """
    jac, residuals = np.asarray(jac, dtype=float), np.asarray(residuals, dtype=float)
    if not np.all(np.isfinite(jac)) or not np.all(np.isfinite(residuals)):
        return None
    z = _compositions(groups)  # (points, compositions)
    counts = z.sum(axis=0)
    left = _levels_left(jac[:, np.asarray(free, dtype=bool)], z)
    if left is None:
        return None
    kept, rank = left  # M Z: what each composition's level leaves in the residuals
    kept_mean = (z.T @ kept) / counts[:, None]  # D^-1 Z^T M Z
    kept_within = kept - z @ kept_mean  # W M Z
    own = np.diagonal(kept_mean).copy()  # z_g^T M z_g / n_g: the share of its level it keeps
    means = (z.T @ residuals) / counts
    within = residuals - z @ means
    moments = np.array([
        [np.sum(kept_mean**2), np.sum(own / counts)],
        [np.sum(kept_within**2), len(residuals) - rank - np.sum(own)],
    ])  # fmt: skip
    seen = np.array([np.sum(means**2), np.sum(within**2)])
    if np.sum(own) < MIN_LEVELS_SEEN:  # the numbers take up (nearly) every level: none to go by
        return None
    if abs(np.linalg.det(moments)) <= 1e-12 * np.abs(moments).max(initial=0.0) ** 2:
        return None
    tau2, sigma2 = np.linalg.solve(moments, seen)
    if not tau2 > 0:
        return None
    if sigma2 < 0:
        tau2, sigma2 = seen.sum() / moments[:, 0].sum(), 0.0
    with np.errstate(all="ignore"):
        inverse = pseudo_inverse(jac)
        moved = inverse @ z
        return sigma2 * (inverse @ inverse.T) + tau2 * (moved @ moved.T)  # type: ignore[no-any-return]


def pseudo_inverse(jac: np.ndarray) -> np.ndarray:
    """``J^+``, taken with ``jac``'s columns scaled to unit length (a column of zeros as it
    is) and scaled back: the same numbers in any unit of time. A cost's column in seconds is
    10^9 times its column in ns while a serial fraction's stays, and a pseudo-inverse's
    cut-off relative to the largest singular value then dropped the fractions' directions
    (their variances came out 0 in seconds). ``sigma2 J^+ J^+T`` is the points' noise
    carried to the numbers, ``sigma2 (J^T J)^+``.

    >>> jac = np.array([[1e9, 0.5], [2e9, 0.6], [0.0, 1.0]])  # a cost in s, a serial fraction
    >>> inverse = pseudo_inverse(jac)
    >>> round(float((inverse @ inverse.T)[1, 1]), 6), bool(np.linalg.pinv(jac.T @ jac)[1, 1] < 1e-12)
    (0.968992, True)
    >>> in_ns = pseudo_inverse(jac * [1e-9, 1.0])  # the same fraction's, the cost in ns
    >>> round(float((in_ns @ in_ns.T)[1, 1]), 6)
    0.968992
    """
    scaled, norms = _unit_columns(np.asarray(jac, dtype=float))
    return np.linalg.pinv(scaled) / norms[:, None]  # type: ignore[no-any-return]


def _unit_columns(jac: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``jac`` with each column divided by its length (a column of zeros by 1), and those
    lengths: a rank cut-off relative to the largest singular value then means the same in
    any unit."""
    norms = np.linalg.norm(jac, axis=0)
    norms = np.where(norms > 0, norms, 1.0)
    return jac / norms, norms


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
