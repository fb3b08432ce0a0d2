"""How far a fit's coefficients would move between runs: the spread of the repetitions,
carried to the coefficients of a fit that is linear in them.

The coefficients of a hypothesis fitted by (weighted) least squares are ``A @ y``, a linear
function of the aggregated values ``y`` (one per point). A bootstrap over the repetitions
of each point (resample each point's repetitions, aggregate, refit, take the covariance of
the coefficients) converges, as its draws grow, to ``A @ diag(v) @ A.T`` with ``v`` the
bootstrap variance of each point's aggregate; :func:`aggregate_variance` gives ``v`` in
closed form, the *infinitesimal jackknife* (Jaeckel 1972; Efron 1982, ch. 6: the delta
method of the bootstrap): exact for the mean (``sum((y_r - mean)^2) / R^2``, the bootstrap
variance of a mean of R values), the M-estimator's sandwich for the biweight, the normal
approximation ``pi/2 * sigma^2 / R`` for the median. It needs no random draws (a file gives
the same model file byte for byte), costs ``O(repetitions)`` per kernel, and runs over
100,000 kernels at once; ``tests/test_uncertainty_fit.py`` compares it with a resampling
bootstrap.

:func:`linear_covariance` adds the least-squares residual covariance
``sigma^2 (X^T W X)^-1`` (the model's misfit: points that scatter around the fitted curve
more than their repetitions say); measured on the committed real runs, the repetitions
alone cover too little (docs/fitting.md, "Uncertainty").

>>> v = np.array([[[1.0, 2.0, 3.0, 4.0]]])
>>> float(aggregate_variance(v, "mean")[0, 0]), 1.25 / 4
(0.3125, 0.3125)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence, Sized

import numpy as np

from .._internal.chi_square import chi2_cdf, chi2_upper_quantile
from ..measurements.model import Aggregation
from ..measurements.robust import TUNING, biweight_location

__all__ = [
    "DRAWS",
    "aggregate_variance",
    "drawing_order",
    "median_noise",
    "noise_by_point",
    "linear_covariance",
    "repetitions_of",
    "resampled",
    "reweighted_moments",
    "series_noise",
]

#: the bootstrap's draws per kernel
DRAWS = 200

#: the share of a normal's draws :func:`reweighted_moments` keeps: the customary cut-off
#: of a reweighted robust covariance (Rousseeuw and Van Driessen 1999, chi2 at 0.975)
KEPT_SHARE = 0.975
#: the most reweighting steps :func:`reweighted_moments` takes (it stops when the draws it
#: keeps stop changing: 2 to 6 steps for 61 of the 78 bootstrap fits of the committed runs'
#: atoms, every size and the lower five, 7 to 16 for the others)
_STEPS = 20
#: the least eigenvalue, relative to the largest, of the draws' moments (each coordinate
#: scaled to spread 1) that :func:`reweighted_moments` counts: half a double's digits, far
#: above rounding (moments singular in exact arithmetic have eigenvalues near 1e-16 of the
#: largest, which a change of unit or of the order of a sum moves across any cut-off near
#: them) and far below any spread of the draws (R's ``lm`` takes a rank at 1e-7)
_RESOLUTION = float(np.sqrt(np.finfo(float).eps))

#: the variance of a median of R normal values is pi/2 times that of their mean
_MEDIAN_EFFICIENCY = math.pi / 2


def _mean_variance(values: np.ndarray) -> np.ndarray:
    """The bootstrap variance of the mean of the last axis: ``sum((v - mean)^2) / R^2``."""
    r = values.shape[-1]
    return np.asarray(((values - values.mean(-1, keepdims=True)) ** 2).sum(-1) / (r * r))


def _robust_sigma(values: np.ndarray) -> np.ndarray:
    """1.4826 median absolute deviations: the standard deviation of normal noise."""
    center = np.median(values, axis=-1, keepdims=True)
    return np.asarray(1.4826 * np.median(np.abs(values - center), axis=-1))


def aggregate_variance(
    values: np.ndarray, how: str, center: np.ndarray | None = None
) -> np.ndarray:
    """The variance of each point's aggregate (``how``: mean, median, biweight, min, max)
    over a bootstrap of its repetitions, in closed form: ``values`` (..., R) -> (...);
    ``center`` (...) the biweight of the values, if the caller has it.

    Where the robust spread is 0 (half the repetitions equal) the mean's is used.

    >>> v = np.array([[10.0, 10.2, 9.9, 10.1, 30.0]])  # the 30 has no weight in the biweight
    >>> bool(aggregate_variance(v, "biweight")[0] < aggregate_variance(v, "mean")[0] / 100)
    True
    """
    values = np.asarray(values, dtype=float)
    mean = _mean_variance(values)
    r = values.shape[-1]
    if how == "mean" or r < 2:
        return mean
    sigma = _robust_sigma(values)
    if how == "biweight":
        found = biweight_location(values, axis=-1) if center is None else center
        middle = np.asarray(found)[..., None]
        scale = TUNING * sigma[..., None]
        with np.errstate(divide="ignore", invalid="ignore"):
            u = (values - middle) / scale
            inside = np.abs(u) < 1
            psi = np.where(inside, u * (1 - u * u) ** 2, 0.0)
            slope = np.where(inside, (1 - u * u) * (1 - 5 * u * u), 0.0).sum(-1)
            robust = scale[..., 0] ** 2 * (psi * psi).sum(-1) / (slope * slope)
        usable = (sigma > 0) & (slope > 0) & np.isfinite(robust)
        return np.where(usable, robust, mean)
    if how == "median":
        return np.where(sigma > 0, _MEDIAN_EFFICIENCY * sigma * sigma / r, mean)
    return mean  # min, max: no closed form; the mean's is the scale of their spread


def median_noise(values: np.ndarray, medians: np.ndarray) -> np.ndarray:
    """The relative standard deviation of a median of R repetitions, pooled over the
    points (root mean square): ``values`` (K, P, R), ``medians`` (K, P) -> (K,)."""
    variance = aggregate_variance(values, "median")
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = np.where(medians != 0, variance / (medians * medians), 0.0)
    return np.asarray(np.sqrt(relative.mean(-1)))


def noise_by_point(values: Sequence[np.ndarray], medians: np.ndarray | None = None) -> np.ndarray:
    """Per point, the :func:`median_noise` of its repetitions ``values`` (around
    ``medians``, by default theirs).

    >>> noise_by_point([np.array([9.0, 10, 11, 10])]).round(4).tolist()
    [0.0465]
    """
    centers = [np.median(v) for v in values] if medians is None else medians
    return np.array([
        median_noise(np.asarray(v, dtype=float)[None, None], np.asarray(m, dtype=float)[None, None])[0]
        for v, m in zip(values, centers, strict=True)
    ])  # fmt: skip


def series_noise(values: Sequence[np.ndarray]) -> tuple[float, int, bool]:
    """One series' :func:`median_noise`, repetitions (:func:`repetitions_of`) and whether
    any point has more than one repetition; ``values`` its repetitions per point."""
    counts = np.array([len(v) for v in values])
    relative = noise_by_point(values) ** 2
    return float(np.sqrt(np.mean(relative))), int(repetitions_of(counts)), bool((counts > 1).any())


def repetitions_of(counts: np.ndarray) -> np.ndarray:
    """The repetitions a kernel's uncertainty states: the median count per point, rounded."""
    return np.asarray(np.floor(np.median(counts, axis=-1) + 0.5).astype(int))


def linear_covariance(
    basis: np.ndarray,
    y: np.ndarray,
    weights: np.ndarray,
    variance: np.ndarray,
    *,
    residuals: bool = True,
    residual: np.ndarray | None = None,
) -> np.ndarray:
    """The covariance of the least-squares coefficients of ``y ~ basis`` with ``weights``:
    the repetitions' part ``A diag(variance) A^T`` plus the residuals' ``sigma^2 (X^T W
    X)^-1`` (``sigma^2`` the weighted residual sum of squares over ``P - k``; the residuals
    of the least-squares fit, or ``residual`` (K, P): those of a fit the basis linearises).

    ``basis`` (K, P, k), ``y``, ``weights``, ``variance`` (K, P) -> (K, k, k); a kernel
    whose normal equations are singular gets NaN. Each column is scaled to at most 1 in
    magnitude first (and the covariance back): the constant beside ``x^3*log2(x)`` at
    x = 262,144 (3e17) is no singular pair, however far apart their scales.

    >>> x = np.array([[[1.0, 1.0], [1.0, 2.0], [1.0, 3.0]]])
    >>> c = linear_covariance(x, np.array([[1.0, 2.0, 3.0]]), np.ones((1, 3)), np.ones((1, 3)))
    >>> np.round(c, 6).tolist()  # exact line: the repetitions' part only
    [[[2.333333, -1.0], [-1.0, 0.5]]]
    """
    k, p = basis.shape[-1], basis.shape[-2]
    scale = np.abs(basis).max(axis=-2, initial=0.0)  # (K, k)
    scale = np.where((scale > 0) & np.isfinite(scale), scale, 1.0)
    basis = basis / scale[:, None, :]
    xw = basis * weights[..., None]  # (K, P, k)
    normal = np.einsum("kpi,kpj->kij", xw, basis)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        singular = ~np.isfinite(normal).all((-1, -2)) | (np.linalg.cond(normal) > 1e14)
        inverse = np.linalg.inv(np.where(singular[:, None, None], np.eye(k), normal))
        hat = inverse @ np.swapaxes(xw, -1, -2)  # (K, k, P): coefficients = hat @ y
        coefficients = np.einsum("kip,kp->ki", hat, y)
        if residual is None:
            residual = y - np.einsum("kpi,ki->kp", basis, coefficients)
        sigma2 = (weights * residual * residual).sum(-1) / max(p - k, 1)
        repeated = np.einsum("kip,kp,kjp->kij", hat, variance, hat)
        covariance = repeated + sigma2[:, None, None] * inverse if residuals else repeated
    covariance = covariance / (scale[:, :, None] * scale[:, None, :])
    return np.where(singular[:, None, None], np.nan, covariance)


@functools.cache
def _indices(counts: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """The bootstrap's choice of repetitions at each point, (DRAWS, count) each: fixed by
    the counts, so a file gives the same draws wherever it is cut into batches."""
    rng = np.random.default_rng([DRAWS, *counts])
    return tuple(rng.integers(0, count, (DRAWS, count)) for count in counts)


def drawing_order(points: np.ndarray, parameters: Sequence[str]) -> np.ndarray:
    """The order :func:`resampled` deals its draws to ``points`` (P, k) over ``parameters``:
    by their coordinates with the parameters taken by name, so that the order of a file's
    columns (which orders a series' points) draws nothing; one parameter's points in
    ascending order keep theirs.

    >>> xy = np.array([[1.0, 10.0], [1.0, 20.0], [2.0, 10.0], [2.0, 20.0]])
    >>> drawing_order(xy, ("x", "y")).tolist(), drawing_order(xy[:, ::-1], ("y", "x")).tolist()
    ([0, 1, 2, 3], [0, 1, 2, 3])
    >>> yx = xy[np.lexsort(xy.T)][:, ::-1]  # the same points as a series over y, x lists them
    >>> yx[drawing_order(yx, ("y", "x"))][:, ::-1].tolist() == xy.tolist()
    True
    """
    by_name = np.argsort(np.asarray(parameters, dtype=str), kind="stable")
    return np.lexsort(np.asarray(points)[:, by_name].T[::-1])


def resampled(
    values: np.ndarray | Sequence[Sequence[np.ndarray]], how: str, order: np.ndarray | None = None
) -> np.ndarray:
    """The aggregates (``how``) of :data:`DRAWS` resamplings of each point's repetitions:
    ``values`` (K, P, R), or per kernel per point its repetitions -> (K, DRAWS, P). The
    draws pick positions among the repetitions sorted, so the order a file lists them in
    draws nothing; they are dealt to the points in ``order`` (:func:`drawing_order`; by
    default as given), so neither does the order of its points.

    >>> v = np.array([[[1.0, 1.0, 1.0], [2.0, 4.0, 6.0]]])
    >>> drawn = resampled(v, "mean")
    >>> drawn.shape, bool((drawn[0, :, 0] == 1).all()), bool(drawn[0, :, 1].std() > 0)
    ((1, 200, 2), True, True)
    >>> bool((resampled(v[..., ::-1], "mean") == drawn).all())
    True
    >>> swapped = resampled(v[:, ::-1], "mean", np.array([1, 0]))
    >>> bool((swapped[..., ::-1] == drawn).all())
    True
    """
    reduce = Aggregation(how).reduce
    if not isinstance(values, np.ndarray):
        return np.array(
            [
                np.stack(
                    [reduce(np.sort(np.asarray(v))[i], axis=-1) for v, i in zip(kernel, _dealt(kernel, order), strict=True)],
                    axis=-1,
                )
                for kernel in values
            ]
        ).reshape(len(values), DRAWS, -1)
    values = np.sort(values, axis=-1)
    k, p, r = values.shape
    chosen = np.stack(_dealt([range(r)] * p, order), axis=1)  # (DRAWS, P, R)
    rows = np.arange(p)[None, :, None]
    step = max(1, 1_500_000 // (DRAWS * p * r))
    return np.concatenate(
        [reduce(values[s : s + step][:, rows, chosen], axis=-1) for s in range(0, k, step)]
        or [np.empty((0, DRAWS, p))]
    )


def _dealt(points: Sequence[Sized], order: np.ndarray | None) -> list[np.ndarray]:
    """Per point (its repetitions ``points``) the draws' choice of repetitions
    (:func:`_indices`), dealt to the points in ``order``."""
    if order is None:
        return list(_indices(tuple(map(len, points))))
    dealt = _indices(tuple(len(points[i]) for i in order))
    return [dealt[i] for i in np.argsort(order).tolist()]


def reweighted_moments(deltas: np.ndarray) -> np.ndarray:
    """The second moments of draws ``deltas`` (D, k) around 0, robust to a few draws far
    off: the draws farther than a normal's :data:`KEPT_SHARE` (squared Mahalanobis distance
    beyond chi2 of the moments' rank at that share) are left out, the moments of the rest
    scaled back to a normal's (a normal cut there keeps ``P(chi2_{k+2} <= cut) /
    KEPT_SHARE`` of its second moment), and again in the metric of those, until the draws
    kept stop changing (the reweighting steps of a robust covariance; at most
    :data:`_STEPS`). Normal draws keep their covariance; a hypothesis 2 to 10 % of the
    draws chose, growing as x^3 beside a constant, stops setting a normal's width there,
    which the quantiles of the draws themselves never had.

    >>> rng = np.random.default_rng(1)
    >>> normal = rng.standard_normal((20000, 2)) * [1.0, 3.0]
    >>> [round(float(v), 1) for v in np.diag(reweighted_moments(normal))]
    [1.0, 9.0]
    >>> wild = np.zeros((200, 2))
    >>> wild[:, 0] = rng.standard_normal(200)
    >>> wild[:7, 1] = 10.0 ** rng.uniform(3, 4, 7)  # 7 of 200 draws chose a block far off
    >>> float((wild.T @ wild / 200)[1, 1]) > 1e6, float(reweighted_moments(wild)[1, 1])
    (True, 0.0)
    """
    with np.errstate(over="ignore", invalid="ignore"):
        moments = deltas.T @ deltas / max(len(deltas), 1)
    kept = np.ones(len(deltas), dtype=bool)
    for _ in range(_STEPS):
        if not np.isfinite(moments).all():  # draws near 1e300 overflow: no covariance
            break
        rank, distance = _distances(deltas, moments)
        cut = chi2_upper_quantile(rank, 1.0 - KEPT_SHARE) if rank else 0.0
        near = distance <= cut
        if not near.any():
            break
        chosen = deltas[near]
        moments = KEPT_SHARE / chi2_cdf(rank + 2, cut) * chosen.T @ chosen / len(chosen)
        if (near == kept).all():
            break
        kept = near
    return moments  # type: ignore[no-any-return]


def _distances(deltas: np.ndarray, moments: np.ndarray) -> tuple[int, np.ndarray]:
    """The rank of ``moments`` and each draw's squared Mahalanobis distance in their
    metric, with the coordinates scaled to the moments' own spreads first (a constant in ns
    beside a coefficient of ``x^3*log2(x)`` near 1e-12 is no rank deficit); an eigenvalue
    below :data:`_RESOLUTION` of the largest counts as none (the rank) and as that much
    (the distances: a draw off the others' support, which rounding alone never puts there,
    is far); a draw off the moments' support in a coefficient the others never moved is
    infinitely far. Rank 0 (the moments all 0): every distance infinite.

    Two coefficients no draw moved (a fit's blocks every draw replaced) are one direction,
    whatever rounding says, so the unit or the order of the sums decides nothing:

    >>> d = np.column_stack([np.linspace(-1, 1, 200), np.full(200, -9.5), np.full(200, -0.00664159222557136)])
    >>> [_distances(d * scale, d.T @ d * scale**2 / 200)[0] for scale in (1.0, 1e-3, 1e3)]
    [2, 2, 2]
    """
    spread = np.sqrt(np.clip(np.diag(moments), 0.0, None))
    live = spread > 0
    if not live.any():
        return 0, np.full(len(deltas), np.inf)
    z = deltas[:, live] / spread[live]
    values, vectors = np.linalg.eigh(moments[np.ix_(live, live)] / np.outer(spread[live], spread[live]))
    floor = values.max() * _RESOLUTION
    projected = z @ vectors
    distance = (projected * projected / np.maximum(values, floor)).sum(-1)
    outside = (deltas[:, ~live] != 0).any(-1)
    return int((values > floor).sum()), np.where(outside, np.inf, distance)
