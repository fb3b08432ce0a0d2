"""The numerics of PMNF fitting: every hypothesis of every kernel at once, with numpy.

A hypothesis is ``c0 + c1 * x^i * log2(x)^j`` for one building block ``(i, j)``; index
``-1`` stands for the constant model ``c0``. Both modelers take the points ``x`` (P,)
shared by a batch of kernels and their aggregated values ``Y`` (K, P), and return a
:class:`Selection` (one chosen hypothesis and its coefficients per kernel).

* :func:`select_basic` is Extra-P 4.2.5's Basic modeler: unweighted least squares,
  selection by the summed leave-one-out SMAPE (strict ``<``: ties go to the earlier
  building block), the in-sample constant model as the starting best, rejection of a
  zero coefficient or of a term below 0.0005 of every value, no log terms if x < 1.
* :func:`select_default` is ours: the hypothesis chosen by relative-error-weighted least
  squares (so that the small-x points count as much as the large ones under
  multiplicative noise): the growing hypothesis with the lowest relative residual, kept
  only if it beats the constant model in leave-one-out relative error; its coefficients
  then fitted with weights ``1/y`` (variance proportional to the value), so that the
  large values, next to where a model is used to predict, count more.

>>> x = np.array([4.0, 8, 16, 32, 64])
>>> y = 3 + 0.5 * x**1.5
>>> s = select_basic(x, y[None, :])
>>> BUILDING_BLOCKS[s.index[0]], round(float(s.c0[0]), 9), round(float(s.c1[0]), 9)
((Fraction(3, 2), 0), 3.0, 0.5)
>>> BUILDING_BLOCKS[select_default(x, y[None, :]).index[0]]
(Fraction(3, 2), 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

__all__ = ["BUILDING_BLOCKS", "Selection", "basis", "blocks_for", "select_basic", "select_default"]

#: Extra-P 4.2.5's 42 building blocks (exponent of x, exponent of log2 x), in its search order
# fmt: off
BUILDING_BLOCKS: tuple[tuple[Fraction, int], ...] = tuple(
    (Fraction(a, b), c)
    for a, b, c in [
        (0, 1, 1), (0, 1, 2), (1, 4, 0), (1, 3, 0), (1, 4, 1), (1, 3, 1), (1, 4, 2), (1, 3, 2),
        (1, 2, 0), (1, 2, 1), (1, 2, 2), (2, 3, 0), (3, 4, 0), (2, 3, 1), (3, 4, 1), (4, 5, 0),
        (2, 3, 2), (3, 4, 2), (1, 1, 0), (1, 1, 1), (1, 1, 2), (5, 4, 0), (5, 4, 1), (4, 3, 0),
        (4, 3, 1), (3, 2, 0), (3, 2, 1), (3, 2, 2), (5, 3, 0), (7, 4, 0), (2, 1, 0), (2, 1, 1),
        (2, 1, 2), (9, 4, 0), (7, 3, 0), (5, 2, 0), (5, 2, 1), (5, 2, 2), (8, 3, 0), (11, 4, 0),
        (3, 1, 0), (3, 1, 1),
    ]
)
# fmt: on
#: a term contributing less than this share of every value is rejected (Extra-P's default)
MIN_TERM_CONTRIBUTION = 0.0005
#: a leave-one-out constant below this share of the smallest value counts as 0 (Extra-P)
CLEAN_CONSTANT = 0.0005


@dataclass(frozen=True)
class Selection:
    """The chosen hypothesis per kernel: ``index`` into the blocks (-1: constant), c0, c1."""

    index: np.ndarray
    c0: np.ndarray
    c1: np.ndarray
    criterion: np.ndarray


def blocks_for(x: np.ndarray) -> np.ndarray:
    """Indices of the usable building blocks: log terms only if every x >= 1 (as Extra-P).

    >>> len(blocks_for(np.array([1.0, 2.0]))), len(blocks_for(np.array([0.5, 2.0])))
    (42, 19)
    """
    log_ok = bool(np.all(x >= 1.0))
    return np.array([h for h, (_, j) in enumerate(BUILDING_BLOCKS) if log_ok or j == 0])


def basis(x: np.ndarray, blocks: np.ndarray) -> np.ndarray:
    """The values ``x^i * log2(x)^j`` of the given building blocks: shape (H, P).

    >>> basis(np.array([2.0, 4.0]), np.array([0, 18])).tolist()
    [[1.0, 2.0], [2.0, 4.0]]
    """
    rows = []
    for h in blocks:
        i, j = BUILDING_BLOCKS[h]
        row = np.ones_like(x)
        if i != 0:
            row = row * x ** float(i)
        if j != 0:
            row = row * np.log2(x) ** float(j)
        rows.append(row)
    return np.array(rows, dtype=float).reshape(len(rows), len(x))


def _line_fit(b: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weighted least squares of ``y ~ c0 + c1*b`` along the last axis (broadcasting)."""
    sw = w.sum(-1)
    bbar = (w * b).sum(-1) / sw
    ybar = (w * y).sum(-1) / sw
    db = b - bbar[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        c1 = (w * db * (y - ybar[..., None])).sum(-1) / (w * db * db).sum(-1)
    return ybar - c1 * bbar, c1


def _rejected(c1: np.ndarray, b: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Extra-P's rule: a zero coefficient, or a term below 0.0005 of every value. (K, H)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        contribution = np.abs(c1[..., None] * b[None] / y[:, None, :]).max(-1)
    return (c1 == 0) | (contribution < MIN_TERM_CONTRIBUTION)


def _constant_smape(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """In-sample RSS and SMAPE (%) of the mean, as Extra-P scores its constant model."""
    mean = y.mean(-1, keepdims=True)
    diff = mean - y
    abssum = np.abs(y) + np.abs(mean)
    with np.errstate(divide="ignore", invalid="ignore"):
        parts = np.where(abssum != 0, np.abs(diff) / abssum * 2, 0.0)
    return (diff * diff).sum(-1), parts.sum(-1) / y.shape[-1] * 100


def select_basic(x: np.ndarray, y: np.ndarray) -> Selection:
    """Extra-P 4.2.5's Basic single-parameter modeler for the kernels ``y`` (K, P) at ``x``."""
    k, n = y.shape
    blocks = blocks_for(x)
    b = basis(x, blocks)  # (H, P)
    train = ~np.eye(n, dtype=bool)  # (L, P): row l trains without point l
    w = train.astype(float)
    # leave-one-out fits, all folds of all hypotheses of all kernels: (K, H, L)
    c0, c1 = _line_fit(b[None, :, None, :], y[:, None, None, :], w[None, None])
    lowest = np.where(train[None], y[:, None, :], np.inf).min(-1)  # (K, L)
    with np.errstate(divide="ignore", invalid="ignore"):
        small = np.where(
            lowest[:, None, :] == 0,
            np.abs(c0) < CLEAN_CONSTANT,
            np.abs(c0 / lowest[:, None, :]) < CLEAN_CONSTANT,
        )
    c0 = np.where(small, 0.0, c0)
    predicted = c0 + c1 * b[None]  # at the left-out point l of each fold
    actual = y[:, None, :]
    diff = predicted - actual
    abssum = np.abs(actual) + np.abs(predicted)
    with np.errstate(divide="ignore", invalid="ignore"):
        parts = np.where(abssum != 0, np.abs(diff) / abssum * 2 / n * 100, 0.0)
    smape = np.zeros(parts.shape[:2])
    rss = np.zeros(parts.shape[:2])
    for fold in range(n):  # Extra-P's order of summation
        smape = smape + parts[..., fold]
        rss = rss + diff[..., fold] * diff[..., fold]
    full0, full1 = _line_fit(b[None], y[:, None, :], np.ones((1, 1, n)))
    usable = np.isfinite(rss) & ~_rejected(full1, b, y)
    const_rss, const_smape = _constant_smape(y)
    scores = np.concatenate(
        [const_smape[:, None], np.where(usable & ~np.isnan(smape), smape, np.inf)], axis=1
    )
    pick = np.where(const_rss == 0, 0, np.argmin(scores, axis=1))
    return _selection(pick, blocks, y, full0, full1, scores)


def _selection(
    pick: np.ndarray,
    blocks: np.ndarray,
    y: np.ndarray,
    c0: np.ndarray,
    c1: np.ndarray,
    scores: np.ndarray,
) -> Selection:
    """Gather per kernel the chosen column (0: constant, h + 1: block ``blocks[h]``)."""
    rows = np.arange(len(pick))
    term = np.maximum(pick - 1, 0)
    is_const = pick == 0
    return Selection(
        index=np.where(is_const, -1, blocks[term]),
        c0=np.where(is_const, y.mean(-1), c0[rows, term]),
        c1=np.where(is_const, 0.0, c1[rows, term]),
        criterion=scores[rows, pick],
    )


def select_default(
    x: np.ndarray, y: np.ndarray, parsimony: str = "loo", growing: bool = True
) -> Selection:
    """Our modeler for positive values ``y`` (K, P): relative-error-weighted least squares.

    * every hypothesis is fitted with weights ``1/y^2``: the relative error that
      multiplicative noise makes, so small-x points count as much as large ones;
    * among the hypotheses (one term each, hence equally complex), the lowest sum of
      squared relative residuals wins; with ``growing``, terms with a negative
      coefficient are rejected (the building blocks grow, so such a model turns
      negative beyond the range), as are Extra-P's negligible terms;
    * parsimony: the winner must beat the constant model (the mean) in leave-one-out
      relative error (``parsimony="loo"``) or by BIC (``"bic"``), else the model is constant;
    * the winner's coefficients are fitted again with weights ``1/y``: a measured time is a
      sum of per-element costs, its variance grows like its value. Relative weights let the
      smallest values, where start-up and cache effects are largest, pull the coefficient,
      and a model mostly predicts beyond the largest measured value (on the real
      measurements of ``benchmarks/bench_fidelity.py``: 2.7 % -> 1.8 % median error at the
      largest size). The relative fit stays if the refit would change the coefficient's sign.
    """
    # a power of two near the largest value: exact, changes no relative error, and keeps
    # 1/y^2 from overflowing
    scale = np.exp2(np.floor(np.log2(y.max(-1, keepdims=True))))
    y = y / scale
    k, n = y.shape
    blocks = blocks_for(x)
    b = basis(x, blocks)[None]  # (1, H, P)
    relative = 1.0 / y**2
    c0, c1 = _line_fit(b, y[:, None, :], relative[:, None, :])
    residual = (((c0[..., None] + c1[..., None] * b) - y[:, None, :]) / y[:, None, :]) ** 2
    wrss = residual.sum(-1)
    usable = np.isfinite(wrss) & ~_rejected(c1, b[0], y) & (c1 > 0 if growing else True)
    wrss = np.where(usable, wrss, np.inf)
    best = np.argmin(wrss, axis=1)
    rows = np.arange(k)
    const_rss = (((y.mean(-1, keepdims=True) - y) / y) ** 2).sum(-1)
    if parsimony == "bic":
        tiny = np.finfo(float).tiny
        term_score = n * np.log(np.maximum(wrss[rows, best], tiny) / n) + 2 * np.log(n)
        const_score = n * np.log(np.maximum(const_rss, tiny) / n) + np.log(n)
    else:
        train = ~np.eye(n, dtype=bool)[None]  # (1, L, P)
        fold_w = relative[:, None, :] * train
        f0, f1 = _line_fit(b[0][best][:, None, :], y[:, None, :], fold_w)  # (K, L)
        predicted = f0 + f1 * b[0][best]
        term_score = (((predicted - y) / y) ** 2).sum(-1)
        others = (y.sum(-1, keepdims=True) - y) / (n - 1)
        const_score = (((others - y) / y) ** 2).sum(-1)
    # the winners refitted with weights 1/y, as a correction of the relative fit (exact
    # data keep their exact coefficients)
    won0, won1 = c0[rows, best], c1[rows, best]
    d0, d1 = _line_fit(b[0][best], y - won0[:, None] - won1[:, None] * b[0][best], 1.0 / y)
    refit = np.isfinite(d0) & np.isfinite(d1) & ((won1 + d1) * won1 > 0)
    c0[rows, best] = np.where(refit, won0 + d0, won0)
    c1[rows, best] = np.where(refit, won1 + d1, won1)
    keep = np.isfinite(wrss[rows, best]) & (term_score < const_score)
    pick = np.where(keep, best + 1, 0)
    scores = np.concatenate([const_score[:, None], np.full((k, len(blocks)), np.inf)], axis=1)
    scores[rows, best + 1] = term_score
    result = _selection(pick, blocks, y, c0, c1, scores)
    return Selection(
        result.index, result.c0 * scale[:, 0], result.c1 * scale[:, 0], scores[rows, pick]
    )
