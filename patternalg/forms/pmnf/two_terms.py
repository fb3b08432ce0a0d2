"""Two terms and a constant: ``c0 + c1*x^i*log2(x)^j1 + c2*x^i*log2(x)^j2``, for the default
modeler (:func:`.default.select_default`).

The pairs are the building blocks of one power ``i`` with two log exponents ``j1 < j2``
(31 pairs over x >= 1: ``x + x*log2(x)``, ``x*log2(x) + x*log2(x)^2``, ...): a cost per
element that drifts slowly with the size, as a sort's does on a real machine (7.0 down to
5.7 ns per x*log2(x) from 1,024 to 262,144 on ``benchmarks/realdata``), which no single
term and constant follows at both ends. Each pair of each kernel is fitted by least squares
of the relative error (weights ``1/y^2``) and scored by its **held-out** error: every size
left out in turn and predicted from the others (the leave-one-out residual of a weighted
least-squares fit is ``r_l / (1 - h_l)``, its leverage ``h_l``: no refit per fold).

A pair replaces the one-term choice only when both say so (:func:`admit`):

* it predicts the sizes left out at least :data:`GAIN` (8) times better (sum of squared
  relative held-out errors) than the one-term choice does, and
* where the repetitions give the noise of each point, the one-term choice misses the
  points by more than that noise explains (a lack-of-fit test at 1 %).

A pair admitted on a size's noise alone is a miss of the truth on generated one-term
kernels (``benchmarks/bench_fit.py``): at a gain of 4 and 5 % the recovery fell by 0.4 to
0.8 points, at 8 and 1 % by 0.1 to 0.2 (2,000 kernels per noise level); on the real atoms of
``benchmarks/realdata`` both admit the same pairs.

>>> from patternalg.forms.pmnf.default import basis
>>> x = 2.0 ** np.arange(10, 19)
>>> y = 30000 + 9.0 * x + 4.5 * x * np.log2(x)     # per element 9 + 4.5 log2(x)
>>> blocks = np.arange(42)
>>> found = fit_pairs(basis(x, blocks), y[None], pairs_for(blocks), 0.0005)
>>> best = int(np.argmin(found.score[:, 0]))
>>> [BUILDING_BLOCKS[blocks[h]] for h in pairs_for(blocks)[best]]
[(Fraction(1, 1), 0), (Fraction(1, 1), 1)]
>>> [round(float(c[best, 0]), 6) for c in (found.c0, found.c1, found.c2)]
[30000.0, 9.0, 4.5]
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ...algebra.normal_forms.blocks import BUILDING_BLOCKS
from .sums import sum_first

__all__ = ["GAIN", "LACK_OF_FIT", "Pairs", "admit", "chi2_quantile", "fit_pairs", "pairs_for"]

#: a pair must predict the sizes left out this many times better than one term does
GAIN = 8.0
#: the one-term choice must miss by more than the noise at this level (one-sided)
LACK_OF_FIT = 0.01
#: the standard normal quantile of 1 - LACK_OF_FIT (the chi-square quantile's approximation)
_Z = 2.3263478740408408
#: a pair whose columns are this close to collinear (1 - correlation^2) is not fitted
_COLLINEAR = 1e-9


def pairs_for(blocks: np.ndarray) -> np.ndarray:
    """The pairs of the usable ``blocks`` of one power with two log exponents: positions
    into ``blocks``, shape (M, 2), the smaller exponent first.

    >>> len(pairs_for(np.arange(42))), len(pairs_for(np.arange(42)[[2, 3, 8]]))
    (31, 0)
    """
    return _pairs(tuple(int(h) for h in blocks))


@functools.cache
def _pairs(blocks: tuple[int, ...]) -> np.ndarray:
    found = [
        (a, b)
        for a, h in enumerate(blocks)
        for b, g in enumerate(blocks)
        if BUILDING_BLOCKS[h][0] == BUILDING_BLOCKS[g][0]
        and BUILDING_BLOCKS[h][1] < BUILDING_BLOCKS[g][1]
    ]
    result = np.array(found, dtype=np.intp).reshape(len(found), 2)
    result.flags.writeable = False
    return result


@dataclass(frozen=True)
class Pairs:
    """Every pair of every kernel: coefficients (M, K), the held-out relative errors (P, M,
    K: the points first), their sum of squares ``score`` (M, K; inf where the pair is not
    usable: a coefficient not above 0, a negligible term, collinear columns) and the
    in-sample relative residuals' sum of squares ``rss`` (M, K)."""

    c0: np.ndarray
    c1: np.ndarray
    c2: np.ndarray
    held_out: np.ndarray
    score: np.ndarray
    rss: np.ndarray


def fit_pairs(
    b: np.ndarray, y: np.ndarray, pairs: np.ndarray, min_term: float, power: float = 2.0
) -> Pairs:
    """Every pair (M, 2) of rows of the blocks' values ``b`` (H, P) fitted to each kernel
    ``y`` (K, P) with weights ``1/y^power``, and its leave-one-size-out relative errors; a
    pair with a term below ``min_term`` of every value is not usable."""
    top = b.max(-1, keepdims=True)
    u = (b / top)[pairs[:, 0]].T[:, :, None]  # (P, M, 1): columns scaled to at most 1
    v = (b / top)[pairs[:, 1]].T[:, :, None]
    y_t = np.ascontiguousarray(y.T)[:, None, :]  # (P, 1, K)
    w = 1.0 / y_t**power
    s0 = sum_first(w)
    mu, mv, my = sum_first(w * u) / s0, sum_first(w * v) / s0, sum_first(w * y_t) / s0
    zu, zv, zy = u - mu, v - mv, y_t - my
    a11, a12, a22 = sum_first(w * zu * zu), sum_first(w * zu * zv), sum_first(w * zv * zv)
    r1, r2 = sum_first(w * zu * zy), sum_first(w * zv * zy)
    det = a11 * a22 - a12 * a12
    with np.errstate(divide="ignore", invalid="ignore"):
        d1, d2 = (a22 * r1 - a12 * r2) / det, (a11 * r2 - a12 * r1) / det
        c0 = my - d1 * mu - d2 * mv
        c1, c2 = d1 / top[pairs[:, 0]], d2 / top[pairs[:, 1]]
        residual = (c0 + d1 * u + d2 * v - y_t) / y_t  # (P, M, K)
        leverage = w * (1.0 / s0 + (a22 * zu * zu - 2 * a12 * zu * zv + a11 * zv * zv) / det)
        held_out = residual / (1.0 - leverage)
        contribution = np.minimum(np.abs(d1 * u / y_t).max(0), np.abs(d2 * v / y_t).max(0))
    score = sum_first(held_out * held_out)
    usable = (
        (det > _COLLINEAR * a11 * a22)
        & (c1 > 0)
        & (c2 > 0)
        & (contribution >= min_term)
        & np.isfinite(score)
    )
    return Pairs(
        c0, c1, c2, held_out, np.where(usable, score, np.inf), sum_first(residual * residual)
    )


def chi2_quantile(dof: np.ndarray) -> np.ndarray:
    """The 1 - :data:`LACK_OF_FIT` quantile of the chi-square distribution (Wilson and
    Hilferty's approximation, within 0.2 % from 2 degrees of freedom on).

    >>> [round(float(q), 2) for q in chi2_quantile(np.array([2.0, 7.0, 30.0]))]
    [9.22, 18.51, 50.91]

    (exactly 9.21, 18.48 and 50.89).
    """
    a = 2.0 / (9.0 * dof)
    return dof * (1.0 - a + _Z * np.sqrt(a)) ** 3  # type: ignore[no-any-return]


def admit(
    pairs: Pairs,
    current_score: np.ndarray,
    current_rss: np.ndarray,
    current_dof: np.ndarray,
    noise: np.ndarray | None,
    negative_constant: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Per kernel: whether its best pair replaces the current choice, and which pair (an
    index into :func:`pairs_for`). ``current_score`` is the current choice's held-out sum
    of squared relative errors, ``current_rss`` its in-sample one with ``current_dof``
    degrees of freedom; ``noise`` the relative variance of a point's aggregate, pooled over
    the points (None, or NaN for a kernel: not known, one value per point: only the gain
    decides). A pair whose constant is negative competes with ``negative_constant`` times
    its score."""
    score = np.where(pairs.c0 < 0, negative_constant * pairs.score, pairs.score)
    best = np.argmin(score, axis=0)
    rows = np.arange(score.shape[1])
    found = score[best, rows]
    admitted = np.isfinite(found) & (GAIN * found <= current_score)
    if noise is not None:
        with np.errstate(divide="ignore", invalid="ignore"):
            misfit = current_rss / noise > chi2_quantile(current_dof)
        admitted &= misfit | np.isnan(noise)  # a kernel measured once: the gain alone
    return admitted, best
