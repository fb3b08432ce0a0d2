"""Extra-P 4.2.5's Basic single-parameter modeler, reproduced with numpy for many kernels at once.

Unweighted least squares, selection by the summed leave-one-out SMAPE (strict ``<``: ties
go to the earlier building block), the in-sample constant model as the starting best,
rejection of a zero coefficient or of a term below 0.0005 of every value, no log terms if
x < 1. Each fit is numpy's ``lstsq`` as Extra-P calls it (:func:`_as_lstsq`): where a term
dwarfs the constant (``x^3*log2(x)`` near 10^16), the constant's column is cut and the fit
is the rank-one minimum-norm solution.

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
    LOO_DIRECT,
    Selection,
    _line_fit,
    _rejected,
    _selection,
    basis,
    blocks_for,
    power_of_two,
)

__all__ = ["lstsq_cutoff", "select_basic"]


def lstsq_cutoff(rows: int, columns: int) -> float:
    """numpy's ``lstsq`` with ``rcond=None``, as Extra-P calls it: a design's singular values
    at most this share of the largest are cut (treated as 0).

    >>> lstsq_cutoff(9, 2) == 9 * 2.0**-52  # 9 machine epsilons
    True
    """
    return float(np.finfo(float).eps * max(rows, columns))


def _points_first(*arrays: np.ndarray) -> list[np.ndarray]:
    """Views of ``arrays`` with their last axis (the points) first, as :func:`._line_fit`
    and :func:`._rejected` take them."""
    return [np.moveaxis(a, -1, 0) for a in arrays]


def _folds_direct(b: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each leave-one-out fit ``y ~ c0 + c1*b`` of every hypothesis (``b``: (H, P)) of every
    kernel (``y``: (K, P)) made on its own, as Extra-P makes them: ``c0``, ``c1`` (K, H, L),
    and the smallest value each fold trains on (K, L)."""
    w = _train(y.shape[-1])
    c0, c1 = _line_fit(*_points_first(b[None, :, None, :], y[:, None, None, :], w[None, None]))
    return c0, c1, np.where(w[None] > 0, y[:, None, :], np.inf).min(-1)


def _train(n: int) -> np.ndarray:
    """The leave-one-out folds' weights (L, P): row ``l`` trains on every point but ``l``."""
    return 1.0 - np.eye(n)


def _folds(b: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_folds_direct`'s numbers from the fit of every point: leaving point ``l`` out
    moves the means by ``(mean - v_l) / (n - 1)`` and the centred sums by
    ``n / (n - 1)`` times its own deviations' products (exact identities)."""
    n = y.shape[-1]
    bb, yy = b[None, :, :], y[:, None, :]  # (1, H, P), (K, 1, P)
    mb, my = bb.mean(-1, keepdims=True), yy.mean(-1, keepdims=True)
    db, dy = bb - mb, yy - my
    sbb = _fold_spread(b, None)[None]  # (1, H, L)
    sby = (db * dy).sum(-1, keepdims=True) - n / (n - 1) * db * dy  # (K, H, L)
    with np.errstate(divide="ignore", invalid="ignore"):
        c1 = sby / sbb
    c0 = (my - dy / (n - 1)) - c1 * (mb - db / (n - 1))
    order = np.sort(y, axis=-1)
    lowest = np.where(y == order[:, :1], order[:, 1:2], order[:, :1])  # the least but l
    return c0, c1, lowest


def _fold_sums(a: np.ndarray, train: np.ndarray | None) -> np.ndarray:
    """Each fit's sum of ``a`` (..., P) over its points (..., L): those ``train`` (L, P)
    marks, or (None) all but point ``l``, from the total (linear in the points)."""
    return a.sum(-1, keepdims=True) - a if train is None else a @ train.T


def _fold_spread(b: np.ndarray, train: np.ndarray | None) -> np.ndarray:
    """Each fit's centred sum of squares of ``b`` (H, P) over its points (H, L), as
    :func:`_fold_sums` takes them (None: from the total, as :func:`_folds`)."""
    n = b.shape[-1]
    if train is None:
        db = b - b.mean(-1, keepdims=True)
        return (db * db).sum(-1, keepdims=True) - n / (n - 1) * db * db
    mean = (b @ train.T) / train.sum(-1)
    deviation = (b[:, None, :] - mean[..., None]) * train
    return (deviation * deviation).sum(-1)


def _as_lstsq(
    b: np.ndarray, y: np.ndarray, c0: np.ndarray, c1: np.ndarray, train: np.ndarray | None
) -> None:
    """Make the fits ``c0 + c1*b`` (K, H, L) of every hypothesis ``b`` (H, P) of every
    kernel ``y`` (K, P) on the points of each fit (``train``, see :func:`_fold_sums`) what
    numpy's ``lstsq`` gives, in place: where the design ``[1, b]``'s smaller singular value
    is at most :func:`lstsq_cutoff` of the larger, the rank-one minimum-norm solution.

    From the design's Gram matrix ``[[m, sum b], [sum b, sum b^2]]``: its larger eigenvalue
    is the larger singular value squared, its determinant ``m * sum (b - mean)^2`` the
    product of both squared (no cancellation: the centred sum).

    >>> b, y = np.array([[1.0, 1e16, 2e16]]), np.array([[5.0, 6.0, 7.0]])
    >>> c0, c1 = np.full((1, 1, 1), 5.0), np.full((1, 1, 1), 1e-16)  # what _line_fit finds
    >>> _as_lstsq(b, y, c0, c1, np.ones((1, 3)))
    >>> numpy = np.linalg.lstsq(np.stack([np.ones(3), b[0]], axis=1), y[0], rcond=None)[0]
    >>> fit = np.ravel([c0, c1])
    >>> [f"{c:.3g}" for c in fit], bool(np.allclose(fit, numpy, rtol=1e-12, atol=0))
    (['2.4e-32', '4e-16'], True)
    """
    m = b.shape[-1] - 1 if train is None else int(train[0].sum())
    sb, sbb = _fold_sums(b, train), _fold_sums(b * b, train)  # (H, L)
    larger = (m + sbb) / 2 + np.hypot((sbb - m) / 2, sb)
    cut = np.sqrt(m * np.maximum(_fold_spread(b, train), 0.0)) <= lstsq_cutoff(m, 2) * larger
    rows = np.flatnonzero(cut.any(-1))  # the few hypotheses cut in some fit
    if not len(rows):
        return
    b, cut, sb, sbb, larger = b[rows], cut[rows], sb[rows], sbb[rows], larger[rows]
    sy, sby = _fold_sums(y, train)[:, None], _fold_sums(b[None] * y[:, None], train)
    # the larger eigenvalue's unit eigenvector, from the row of the larger diagonal element
    # (no cancellation; hypot: no overflow of its square up to x = 1e40)
    first = m >= sbb
    v0, v1 = np.where(first, larger - sbb, sb), np.where(first, sb, larger - m)
    with np.errstate(divide="ignore", invalid="ignore"):
        norm = np.hypot(v0, v1)
        v0, v1 = v0 / norm, v1 / norm
        along = (v0 * sy + v1 * sby) / larger
    c0[:, rows] = np.where(cut, v0 * along, c0[:, rows])
    c1[:, rows] = np.where(cut, v1 * along, c1[:, rows])


def _constant_smape(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """In-sample RSS and SMAPE (%) of the mean, as Extra-P scores its constant model."""
    mean = y.mean(-1, keepdims=True)
    diff = mean - y
    abssum = np.abs(y) + np.abs(mean)
    with np.errstate(divide="ignore", invalid="ignore"):
        parts = np.where(abssum != 0, np.abs(diff) / abssum * 2, 0.0)
    return (diff * diff).sum(-1), parts.sum(-1) / y.shape[-1] * 100


def select_basic(x: np.ndarray, y: np.ndarray, direct: int = LOO_DIRECT) -> Selection:
    """Extra-P 4.2.5's Basic single-parameter modeler for the kernels ``y`` (K, P) at ``x``.

    Up to ``direct`` points each leave-one-out fit is made as Extra-P makes it; beyond, the
    same fits from the full fit's sums less the point left out (:func:`_folds`: linear in
    the points, where the folds took n^2 numbers per hypothesis: 2.8 GiB for one kernel of
    3,000 points, 31 GiB for 10,000).

    >>> x = np.geomspace(4, 4096, 80)
    >>> y = (5 + 0.3 * x * np.log2(x) * (1 + 0.05 * np.sin(x)))[None, :]
    >>> folds, one_by_one = select_basic(x, y), select_basic(x, y, direct=80)
    >>> bool(folds.index == one_by_one.index), bool(np.allclose(folds.criterion, one_by_one.criterion, rtol=1e-9))
    (True, True)
    """
    scale = power_of_two(y)  # exact: Extra-P's numbers, without its overflow beyond 1e154
    y = y / scale
    k, n = y.shape
    blocks = blocks_for(x)
    b = basis(x, blocks)  # (H, P)
    # leave-one-out fits, all folds of all hypotheses of all kernels: (K, H, L)
    c0, c1, lowest = _folds(b, y) if n > direct else _folds_direct(b, y)
    _as_lstsq(b, y, c0, c1, None if n > direct else _train(n))
    with np.errstate(divide="ignore", invalid="ignore"):
        small = np.where(
            lowest[:, None, :] == 0,
            np.abs(c0) < CLEAN_CONSTANT / scale[:, :, None],  # Extra-P's, in the values' unit
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
    _as_lstsq(b, y, full0[..., None], full1[..., None], np.ones((1, n)))  # through the views
    terms, values = _points_first(full1[..., None] * b[None], y[:, None, :])
    usable = np.isfinite(rss) & ~_rejected(full1, terms, values)
    const_rss, const_smape = _constant_smape(y)
    scores = np.concatenate(
        [const_smape[:, None], np.where(usable & ~np.isnan(smape), smape, np.inf)], axis=1
    )
    pick = np.where(const_rss == 0, 0, np.argmin(scores, axis=1))
    return _selection(pick, blocks, y, full0, full1, scores).scaled(scale)
