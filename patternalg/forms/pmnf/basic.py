"""Extra-P 4.2.5's Basic single-parameter modeler, reproduced with numpy for many kernels at once.

Unweighted least squares, selection by the summed leave-one-out SMAPE (strict ``<``: ties
go to the earlier building block), the in-sample constant model as the starting best,
rejection of a zero coefficient or of a term below 0.0005 of every value, no log terms if
x < 1.

>>> from patternalg.algebra.normal_forms.blocks import BUILDING_BLOCKS
>>> x = np.array([4.0, 8, 16, 32, 64])
>>> s = select_basic(x, (3 + 0.5 * x**1.5)[None, :])
>>> BUILDING_BLOCKS[s.index[0]], round(float(s.c0[0]), 9), round(float(s.c1[0]), 9)
((Fraction(3, 2), 0), 3.0, 0.5)
"""

from __future__ import annotations

import numpy as np

from .default import (
    CLEAN_CONSTANT,
    Selection,
    _line_fit,
    _rejected,
    _selection,
    basis,
    blocks_for,
)

__all__ = ["select_basic"]


def _points_first(*arrays: np.ndarray) -> list[np.ndarray]:
    """Views of ``arrays`` with their last axis (the points) first, as :func:`._line_fit`
    and :func:`._rejected` take them."""
    return [np.moveaxis(a, -1, 0) for a in arrays]


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
    c0, c1 = _line_fit(*_points_first(b[None, :, None, :], y[:, None, None, :], w[None, None]))
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
    full0, full1 = _line_fit(*_points_first(b[None], y[:, None, :], np.ones((1, 1, n))))
    terms, values = _points_first(full1[..., None] * b[None], y[:, None, :])
    usable = np.isfinite(rss) & ~_rejected(full1, terms, values)
    const_rss, const_smape = _constant_smape(y)
    scores = np.concatenate(
        [const_smape[:, None], np.where(usable & ~np.isnan(smape), smape, np.inf)], axis=1
    )
    pick = np.where(const_rss == 0, 0, np.argmin(scores, axis=1))
    return _selection(pick, blocks, y, full0, full1, scores)
