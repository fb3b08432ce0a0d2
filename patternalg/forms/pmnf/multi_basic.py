"""Extra-P 4.2.5's multi-parameter modeler, for many kernels at once with numpy.

Written from the description of Extra-P's ``MultiParameterModeler`` (``single parameter
point selection = auto``, SMAPE comparison, sums and products allowed):

1. per parameter, the points of the longest lines of the grid along it, averaged over the
   lines (:func:`~.multi.line_points`), are modeled by the single-parameter Basic modeler
   (:func:`~patternalg.forms.pmnf_fit.select_basic`);
2. a kernel none of whose parameters got a term is the mean of all its values; one with a
   single parameter's term keeps that term, with the coefficients of the single-parameter
   fit or, if their SMAPE is lower, refitted to all points;
3. otherwise the hypotheses built from the per-parameter terms ``a, b (, c)`` are fitted
   to all points by least squares: ``a*b`` and ``a+b``, for two parameters also ``a*b+a``
   and ``a*b+b``, for three the 21 mixed sums of products Extra-P lists;
4. the lowest in-sample SMAPE wins (strict ``<``, starting from ``a*b`` whatever its
   terms), skipping hypotheses with a zero coefficient or a term below 0.0005 of every value.
   SMAPEs equal up to rounding (hypotheses with the same fitted values, as ``a+b`` and
   ``a+a*b`` on a cross-shaped design) are a tie that the earlier hypothesis wins; Extra-P
   decides those by the last bits of its arithmetic.

``values`` are the aggregated values (Extra-P takes the mean of the repetitions).

>>> pts = np.array([[x, p] for x in (4.0, 8, 16, 32, 64) for p in (2.0, 4, 8, 16, 32)])
>>> y = 3 + 0.5 * pts[:, 0] * np.log2(pts[:, 1])
>>> m = select_multi_basic(pts, y[None, :])[0]
>>> m.terms, [round(c, 9) for c in (m.constant, *m.coefficients)]
((((Fraction(1, 1), 0), (Fraction(0, 1), 1)),), [3.0, 0.5])
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..pmnf_fit import MIN_TERM_CONTRIBUTION, basis, select_basic
from .multi import MultiModel, line_points, lstsq, model_from, smape, term_values

__all__ = ["combinations", "select_multi_basic"]

#: SMAPEs this close (relative) count as equal: Extra-P decides such ties by rounding
TIE = 1e-9


def combinations(active: int) -> list[list[tuple[int, ...]]]:
    """Extra-P's hypotheses over ``active`` parameters with a term, in its order.

    Each hypothesis is a list of terms; a term lists the positions of the parameters it
    multiplies. For two: ``a*b``, ``a+b``, ``a+a*b``, ``b+a*b``.

    >>> combinations(2)
    [[(0, 1)], [(0,), (1,)], [(0,), (0, 1)], [(1,), (0, 1)]]
    >>> len(combinations(3)), len(combinations(4))
    (23, 2)
    """
    mult = tuple(range(active))
    add = [(p,) for p in range(active)]
    found = [[mult], add]
    if active == 2:
        found += [[add[0], mult], [add[1], mult]]
    elif active == 3:
        xy, yz, xz = (0, 1), (1, 2), (0, 2)
        x, y, z = add
        found += [
            [mult, x], [mult, y], [mult, z],
            [mult, xy], [mult, yz], [mult, xz],
            [mult, xy, z], [mult, yz, x], [mult, xz, y],
            [mult, x, y], [mult, x, z], [mult, y, z],
            [xy, z], [xy, z, y], [xy, z, x],
            [xz, y], [xz, y, x], [xz, y, z],
            [yz, x], [yz, x, y], [yz, x, z],
        ]  # fmt: skip
    return found


def select_multi_basic(points: np.ndarray, values: np.ndarray) -> list[MultiModel]:
    """Extra-P's choice for each kernel: ``points`` (n, k) shared, ``values`` (K, n)."""
    points = np.asarray(points, dtype=float)
    y = np.atleast_2d(np.asarray(values, dtype=float))
    k = points.shape[1]
    singles = []
    for lines in line_points(points):
        x = np.array([value for value, _ in lines])
        line_y = np.stack([y[:, members].mean(-1) for _, members in lines], axis=-1)
        singles.append(select_basic(x, line_y))
    blocks = np.stack([s.index for s in singles], axis=1)  # (K, k), -1: constant
    groups: dict[tuple[int, ...], list[int]] = {}
    for row, key in enumerate(map(tuple, blocks.tolist())):
        groups.setdefault(key, []).append(row)
    models: list[MultiModel | None] = [None] * len(y)
    for key, rows in groups.items():
        active = [p for p in range(k) if key[p] >= 0]
        members = np.array(rows)
        if not active:
            chosen = [model_from(k, c, [], [], smape(c, y[r])) for r, c in
                      zip(rows, y[members].mean(-1))]  # fmt: skip
        elif len(active) == 1:
            chosen = _one_term(points, y[members], key, active[0], singles, members)
        else:
            chosen = _combined(points, y[members], key, active)
        for row, model in zip(rows, chosen):
            models[row] = model
    return [m for m in models if m is not None]


def _one_term(
    points: np.ndarray, y: np.ndarray, key: tuple[int, ...], p: int, singles: Sequence, rows: np.ndarray
) -> list[MultiModel]:
    """One parameter's term: its single-parameter coefficients, or refitted if better."""
    term = tuple(b if q == p else -1 for q, b in enumerate(key))
    values = term_values(points, term)
    c0, c1 = singles[p].c0[rows], singles[p].c1[rows]
    reused = smape(c0[:, None] + c1[:, None] * values, y)
    refit = lstsq(np.stack([np.ones_like(values), values], axis=1), y)
    refit_smape = smape(refit @ np.stack([np.ones_like(values), values]), y)
    better = refit_smape < reused
    return [
        model_from(len(key), r[0], [term], [r[1]], s) if b else model_from(len(key), a, [term], [c], u)
        for r, s, b, a, c, u in zip(refit, refit_smape, better, c0, c1, reused)
    ]


def _combined(
    points: np.ndarray, y: np.ndarray, key: tuple[int, ...], active: list[int]
) -> list[MultiModel]:
    """Fit every combination of the per-parameter terms; keep the best by SMAPE."""
    k = len(key)
    factors = {p: basis(points[:, p], np.array([key[p]]))[0] for p in active}
    hypotheses = []
    for combination in combinations(len(active)):
        terms = [tuple(key[q] if q in [active[i] for i in t] else -1 for q in range(k))
                 for t in combination]  # fmt: skip
        columns = [np.prod([factors[active[i]] for i in t], axis=0) for t in combination]
        design = np.stack([np.ones(len(points)), *columns], axis=1)
        coefficients = lstsq(design, y)  # (K, m)
        fitted = coefficients[:, :1]
        for c, t in zip(coefficients[:, 1:].T, combination):  # Extra-P's order of rounding
            value = c[:, None]
            for i in t:
                value = value * factors[active[i]]
            fitted = fitted + value
        with np.errstate(divide="ignore", invalid="ignore"):
            contribution = np.abs(coefficients[:, 1:, None] * design.T[None, 1:] / y[:, None, :])
            too_small = contribution.max(-1) < MIN_TERM_CONTRIBUTION
        rejected = np.any((coefficients[:, 1:] == 0) | too_small, axis=1)
        hypotheses.append((terms, coefficients, smape(fitted, y), rejected))
    scores = np.stack([np.where(r, np.inf, s) for _, _, s, r in hypotheses], axis=1)
    first = hypotheses[0][2]
    scores[:, 0] = np.where(np.isnan(first), -np.inf, first)  # the start, whatever its terms
    scores = np.where(np.isnan(scores), np.inf, scores)
    # equal in exact arithmetic (equivalent hypotheses on sparse designs): the earliest wins
    best = scores.min(axis=1, keepdims=True)
    pick = np.argmax(scores <= best + TIE * np.abs(best), axis=1)
    return [
        model_from(k, hypotheses[h][1][row, 0], hypotheses[h][0], hypotheses[h][1][row, 1:],
                   hypotheses[h][2][row])
        for row, h in enumerate(pick)
    ]  # fmt: skip
