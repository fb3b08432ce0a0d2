"""Our multi-parameter modeler, chosen to predict: cross-validated among sums and products.

For positive values ``y`` (K, n) at ``points`` (n, k):

1. per parameter, the lines of the grid along it are averaged (as Extra-P selects them,
   :func:`~.multi.line_points`) and the building blocks ranked by their relative-error-weighted
   fit ``c0 + c1 * block`` (growing terms only); the best ``top`` blocks are the candidate
   factors of that parameter (2 for two parameters, 1 for three or more);
2. the candidate hypotheses: the constant; each parameter's factors alone and two of them
   summed; for every choice of factors of a set of parameters, Extra-P's sums and products
   (:func:`~.multi_basic.combinations`) and, for two parameters, ``a + b + a*b``; a two-term
   hypothesis of one parameter plus a term of the other;
3. every candidate is fitted by least squares of the relative error (weights ``1/y``) and
   scored by cross-validation: each line of the grid (all points with one value of one
   parameter) is left out in turn and predicted from the rest — the mean squared relative
   error of those predictions is the score. If leaving a line out makes the
   richest hypothesis undeterminable (sparse designs), points are left out one at a time.
   Hypotheses with a negative term coefficient (they turn negative as the parameters grow)
   or a term below 0.0005 of every value (Extra-P's rule) are skipped — except a negative
   term that another term of the hypothesis multiplies (``-c*a + d*a*b = a*(d*b - c)``
   still grows: an offset the product outgrows);
4. the lowest score wins; a more complex hypothesis must beat a simpler one by ``margin``
   (relative), and by more than rounding may make of either score, to be chosen; of
   hypotheses as complex, scores within rounding of the best are a tie the earliest wins;
5. the winner's coefficients are fitted again with weights ``1/y``, as the
   single-parameter ``default`` does (a time's variance grows like its value, and the
   large values lie next to where a model predicts), unless a coefficient changes sign.
   On the real LULESH measurements of ``benchmarks/bench_fit_multi.py`` steps 3 and 5
   lowered the error at a held-out largest problem size from 18 % to 11 % (median).

Both leave-out schemes use the closed form of least-squares cross-validation (the
residual of the full fit through ``(I - H_SS)^-1``), so no hypothesis is refitted per fold.

An additive truth, ``5 + 2 x + 3 sqrt(p)``, is found as a sum of one term per parameter:

>>> x, p = np.meshgrid([4.0, 8, 16, 32, 64], [2.0, 4, 8, 16, 32])
>>> pts = np.column_stack([x.ravel(), p.ravel()])
>>> m = select_multi_default(pts, (5 + 2 * pts[:, 0] + 3 * np.sqrt(pts[:, 1]))[None, :])[0]
>>> [round(c, 6) for c in (m.constant, *m.coefficients)]
[5.0, 2.0, 3.0]
>>> m.terms  # x^1 with p^0, then x^0 with p^(1/2)
(((Fraction(1, 1), 0), (Fraction(0, 1), 0)), ((Fraction(0, 1), 0), (Fraction(1, 2), 0)))
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import numpy as np

from .default import MIN_TERM_CONTRIBUTION, ROUNDING_CONSTANT, basis, blocks_for
from .multi import MultiModel, line_points, lstsq, model_from, rounding_bound, scaled_fits
from .multi_basic import combinations

__all__ = ["candidates", "select_multi_default"]

#: a hypothesis with more terms must score this much (relative) lower than a simpler one
MARGIN = 0.15
_CHUNK = 4_000_000  # array elements per batch of kernels (bounds memory)


def candidates(top: Sequence[Sequence[int]]) -> list[tuple[tuple[int, ...], ...]]:
    """The candidate hypotheses from the candidate blocks ``top[p]`` of each parameter.

    A hypothesis is a tuple of terms; a term has one block index per parameter (-1: absent).

    >>> hs = candidates([[18], [0]])  # x and log2(p)
    >>> [h for h in hs if len(h) <= 1]
    [(), ((18, -1),), ((-1, 0),), ((18, 0),)]
    >>> len(candidates([[18, 25], [0, 8]])), len(candidates([[18], [0], [8]]))
    (31, 42)
    """
    k = len(top)
    found: dict[frozenset, tuple[tuple[int, ...], ...]] = {frozenset(): ()}

    def add(terms: list[tuple[int, ...]]) -> None:
        found.setdefault(frozenset(terms), tuple(terms))

    def term(blocks: dict[int, int]) -> tuple[int, ...]:
        return tuple(blocks.get(p, -1) for p in range(k))

    for size in range(1, k + 1):
        for subset in itertools.combinations(range(k), size):
            shapes = combinations(size) + ([[(0,), (1,), (0, 1)]] if size == 2 else [])
            for choice in itertools.product(*(top[p] for p in subset)):
                for shape in shapes:
                    add([term({subset[i]: choice[i] for i in t}) for t in shape])
    for p in range(k):
        for first, second in itertools.combinations(top[p], 2):
            pair = [term({p: first}), term({p: second})]
            add(pair)
            for q in range(k):
                for other in top[q] if q != p and k == 2 else []:
                    add([*pair, term({q: other})])
    return sorted(found.values(), key=len)


def _ranked_blocks(x: np.ndarray, y: np.ndarray, top: int) -> np.ndarray:
    """The ``top`` best growing blocks per kernel for ``y`` (K, m) at ``x``: (K, top)."""
    blocks = blocks_for(x)
    b = basis(x, blocks)[None]  # (1, H, m)
    w = 1.0 / y[:, None, :] ** 2
    sw = w.sum(-1)
    bbar, ybar = (w * b).sum(-1) / sw, (w * y[:, None, :]).sum(-1) / sw
    db = b - bbar[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        c1 = (w * db * (y[:, None, :] - ybar[..., None])).sum(-1) / (w * db * db).sum(-1)
        c0 = ybar - c1 * bbar
        relative = ((c0[..., None] + c1[..., None] * b) / y[:, None, :] - 1) ** 2
        small = np.abs(c1[..., None] * b / y[:, None, :]).max(-1) < MIN_TERM_CONTRIBUTION
    score = np.where(np.isfinite(c1) & (c1 > 0) & ~small, relative.sum(-1), np.inf)
    order = np.argsort(score, axis=1, kind="stable")[:, :top]
    return blocks[order]


def _line_folds(points: np.ndarray) -> list[np.ndarray]:
    """Leave-one-line-out folds (one value of one parameter), or single points if sparse."""
    folds = [
        np.flatnonzero(points[:, p] == value)
        for p in range(points.shape[1])
        for value in np.unique(points[:, p])
    ]
    generic = np.log2(points) + 1.0  # a generic factor per parameter, positive
    full = np.column_stack(
        [np.ones(len(points)), generic, np.prod(generic, axis=1)]
        if points.shape[1] > 1
        else [np.ones(len(points)), generic]
    )
    rank = np.linalg.matrix_rank(full)
    for fold in folds:
        keep = np.ones(len(points), dtype=bool)
        keep[fold] = False
        if keep.sum() <= rank or np.linalg.matrix_rank(full[keep]) < rank:
            return [np.array([i]) for i in range(len(points))]
    return folds


def select_multi_default(
    points: np.ndarray, values: np.ndarray, margin: float = MARGIN
) -> list[MultiModel]:
    """Our choice for each kernel: ``points`` (n, k) shared, positive ``values`` (K, n)
    (divided by a power of two first, :func:`~.multi.scaled_fits`: the choice in any unit)."""
    return scaled_fits(functools.partial(_select, margin=margin), points, values)


def _select(points: np.ndarray, y: np.ndarray, margin: float) -> list[MultiModel]:
    """:func:`select_multi_default` of the values ``y`` (K, n), their largest within [1, 2)."""
    n, k = points.shape
    ranked = []  # per parameter: the candidate blocks of each kernel, (K, slots)
    for lines in line_points(points):
        x = np.array([value for value, _ in lines])
        line_y = np.stack([y[:, members].mean(-1) for _, members in lines], axis=-1)
        slots = 0 if len(x) < 3 else min(2 if k <= 2 else 1, len(blocks_for(x)))
        ranked.append(_ranked_blocks(x, line_y, slots) if slots else np.zeros((len(y), 0), int))
    # hypotheses over slots (the t-th candidate block of a parameter), the same for all kernels
    hypotheses = candidates([list(range(r.shape[1])) for r in ranked])
    folds = _line_folds(points)
    chunk = max(1, _CHUNK // (len(hypotheses) * n * n))
    models: list[MultiModel] = []
    for start in range(0, len(y), chunk):
        part = slice(start, start + chunk)
        factors = [_factor_values(points[:, p], r[part]) for p, r in enumerate(ranked)]
        models += _choose(y[part], hypotheses, factors, [r[part] for r in ranked], folds, margin)
    return models


def _factor_values(x: np.ndarray, blocks: np.ndarray) -> np.ndarray:
    """``x^i * log2(x)^j`` of each kernel's candidate blocks: (K, slots, n)."""
    used = np.unique(blocks)
    table = basis(x, used)  # (U, n)
    return table[np.searchsorted(used, blocks)]


def _choose(
    y: np.ndarray,
    hypotheses: list[tuple[tuple[int, ...], ...]],
    factors: list[np.ndarray],
    blocks: list[np.ndarray],
    folds: list[np.ndarray],
    margin: float,
) -> list[MultiModel]:
    """Fit and cross-validate every hypothesis for the kernels ``y`` (K, n); pick per kernel."""
    kernels, n = y.shape
    width = 1 + max(len(h) for h in hypotheses)
    a = np.zeros((kernels, len(hypotheses), n, width))
    a[..., 0] = 1.0
    for c, hypothesis in enumerate(hypotheses):
        for column, term in enumerate(hypothesis, start=1):
            value = np.ones((kernels, n))
            for p, slot in enumerate(term):
                if slot >= 0:
                    value = value * factors[p][:, slot]
            a[:, c, :, column] = value
    scale = np.abs(a).max(axis=2, keepdims=True)
    scale = np.where(scale == 0, 1.0, scale)
    z = a / scale / y[:, None, :, None]  # rows weighted by 1/y, columns of comparable size
    u, s, vt = np.linalg.svd(z, full_matrices=False)
    keep = s > s[..., :1] * 1e-10
    u = u * keep[..., None, :]
    inverse = np.where(keep, 1.0 / np.where(keep, s, 1.0), 0.0)
    # least squares of z @ c = 1 (the relative error), and its relative residuals
    coefficients = (np.swapaxes(vt, -1, -2) @ (inverse * u.sum(-2))[..., None])[..., 0]
    residual = 1.0 - (z @ coefficients[..., None])[..., 0]
    total = np.zeros((kernels, len(hypotheses)))
    amplified = np.zeros((kernels, len(hypotheses)))
    for fold in folds:
        # leaving the fold S out changes its residuals to (I - H_SS)^-1 r_S, H = U U^T;
        # the tiny ridge turns an undeterminable fold into a huge error instead of a failure
        us = u[..., fold, :]
        block = (1.0 + 1e-10) * np.eye(len(fold)) - us @ np.swapaxes(us, -1, -2)
        given = np.stack(np.broadcast_arrays(residual[..., fold], 1.0), axis=-1)
        error = np.linalg.solve(block, given)  # the residuals', and a unit rounding's
        total = total + (error[..., 0] ** 2).sum(-1)
        amplified = amplified + (error[..., 1] ** 2).sum(-1)
    left_out = sum(len(f) for f in folds)
    score = total / left_out
    # the score rounding alone may make: each relative residual moved by the fit's rounding
    # (:func:`.multi.rounding_bound`), through the same leave-out
    floor = rounding_bound(s[..., 0], coefficients, n) ** 2 * amplified / left_out
    real = coefficients / scale[:, :, 0, :]
    sizes = np.array([len(h) for h in hypotheses])
    terms = np.arange(width)[None, :] >= 1
    used = terms & (np.arange(width)[None, :] <= sizes[:, None])  # (C, m)
    must_grow = used & ~_dominated(hypotheses, width)
    negative = (must_grow[None] & (real <= 0)).any(-1)
    share = np.abs(coefficients[..., None, :] * z).max(-2)  # each term's largest share of y
    negligible = (used[None] & (share < MIN_TERM_CONTRIBUTION)).any(-1)
    score = np.where(negative | negligible | ~np.isfinite(score), np.inf, score)
    pick = _parsimonious(score, np.nan_to_num(floor, nan=np.inf), sizes, margin)
    rows = np.arange(kernels)
    real[rows, pick] = _refit(y, a[rows, pick], real[rows, pick])
    constant = real[rows, pick, 0]
    real[rows, pick, 0] = np.where(np.abs(constant) < ROUNDING_CONSTANT * y.min(-1), 0.0, constant)
    k = len(factors)
    models = []
    for r, c in enumerate(pick):
        spelled = [tuple(int(blocks[p][r, t]) if t >= 0 else -1 for p, t in enumerate(term))
                   for term in hypotheses[c]]  # fmt: skip
        coefficients_rc = real[r, c, 1 : 1 + sizes[c]]
        models.append(model_from(k, real[r, c, 0], spelled, coefficients_rc, np.sqrt(score[r, c])))
    return models


def _refit(y: np.ndarray, a: np.ndarray, relative: np.ndarray) -> np.ndarray:
    """The winners' coefficients (K, m) fitted again with weights ``1/y``, as the
    single-parameter ``default`` does: a correction of the relative fit ``relative`` on the
    designs ``a`` (K, n, m) (exact data keep their coefficients), kept where no term
    coefficient changes its sign.

    >>> a = np.array([[[1.0, 1.0], [1.0, 2.0], [1.0, 4.0]]])
    >>> _refit(np.array([[3.0, 5.0, 9.0]]), a, np.array([[1.0, 2.0]])).round(12).tolist()
    [[1.0, 2.0]]
    """
    scale = np.abs(a).max(axis=1, keepdims=True)
    scale = np.where(scale == 0, 1.0, scale)
    design = a / scale  # columns of comparable size
    start = relative * scale[:, 0]
    root = np.sqrt(y)
    residual = (y - (design @ start[..., None])[..., 0]) / root
    refit = start + lstsq(design / root[..., None], residual)
    same = (refit[:, 1:] * start[:, 1:] > 0) | (start[:, 1:] == 0)
    keep = np.all(same, axis=1) & np.all(np.isfinite(refit), axis=1)
    return np.where(keep[:, None], refit / scale[:, 0], relative)


def _dominated(hypotheses: list[tuple[tuple[int, ...], ...]], width: int) -> np.ndarray:
    """Which columns (C, width) hold a term that another term of its hypothesis multiplies.

    Such a term may have a negative coefficient: the product outgrows it as the parameters
    grow (``-a + a*b = a*(b - 1)``), so the model still grows where it is used to predict.

    >>> _dominated([((0, -1), (0, 0)), ((0, -1), (-1, 0))], 3).tolist()
    [[False, True, False], [False, False, False]]
    """
    found = np.zeros((len(hypotheses), width), dtype=bool)
    for c, hypothesis in enumerate(hypotheses):
        for column, term in enumerate(hypothesis, start=1):
            factors = {(p, b) for p, b in enumerate(term) if b >= 0}
            found[c, column] = any(
                factors < {(p, b) for p, b in enumerate(other) if b >= 0} for other in hypothesis
            )
    return found


def _parsimonious(
    score: np.ndarray, floor: np.ndarray, sizes: np.ndarray, margin: float
) -> np.ndarray:
    """Per kernel the best score, preferring fewer terms unless more beat them by ``margin``
    (relative) and by more than either's ``floor``, the score rounding alone may make; of
    hypotheses as large, scores within rounding of the best are a tie the earliest wins
    (``a+b``, ``a+a*b`` and ``b+a*b`` fit exact data on an L-shaped design alike).

    >>> sizes, no_floor = np.array([0, 1, 2, 3]), np.zeros((1, 4))
    >>> _parsimonious(np.array([[1.0, 0.5, 0.49, 0.3]]), no_floor, sizes, 0.05).tolist()
    [3]
    >>> _parsimonious(np.array([[1.0, 0.5, 0.49, 0.48]]), no_floor, sizes, 0.05).tolist()
    [1]
    >>> rounding = np.full((1, 4), 1e-30)  # exact fits: below 1e-30 is rounding
    >>> _parsimonious(np.array([[1.0, 2e-31, 5e-32, 1e-32]]), rounding, sizes, 0.05).tolist()
    [1]
    >>> tied = _parsimonious(np.array([[1.0, 0.5, 0.49]]), np.full((1, 3), 0.02), sizes[[0, 1, 1]], 0.05)
    >>> tied.tolist()  # 0.5 and 0.49 within rounding: the earlier
    [1]
    """
    rows = np.arange(len(score))
    pick = np.zeros(len(score), dtype=int)
    best = score[:, 0].copy()
    for size in np.unique(sizes)[1:]:
        columns = np.flatnonzero(sizes == size)
        lowest = columns[np.argmin(score[:, columns], axis=1)]
        reach = score[rows, lowest] + floor[rows, lowest]
        local = columns[np.argmax(score[:, columns] <= reach[:, None] + floor[:, columns], axis=1)]
        value = score[rows, local]
        noise = np.maximum(floor[rows, local], floor[rows, pick])
        better = value + noise < best * (1 - margin)
        pick = np.where(better, local, pick)
        best = np.where(better, value, best)
    return pick
