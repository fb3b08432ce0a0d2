"""Extra-P 4.2.5's multi-parameter modeler, for many kernels at once with numpy.

Written from the description of Extra-P's ``MultiParameterModeler`` (``single parameter
point selection = auto``, SMAPE comparison, sums and products allowed):

1. per parameter, the points of the longest lines of the grid along it, averaged over the
   lines (:func:`~.multi.line_points`), are modeled by the single-parameter Basic modeler
   (:func:`~patternalg.forms.pmnf.basic.select_basic`);
2. a kernel none of whose parameters got a term is the mean of all its values; one with a
   single parameter's term keeps that term, with the coefficients of the single-parameter
   fit or, if their SMAPE is lower, refitted to all points;
3. otherwise the hypotheses built from the per-parameter terms ``a, b (, c)`` are fitted
   to all points by least squares: ``a*b`` and ``a+b``, for two parameters also ``a*b+a``
   and ``a*b+b``, for three the 21 mixed sums of products Extra-P lists;
4. the lowest in-sample SMAPE wins (strict ``<``, starting from ``a*b`` whatever its
   terms), skipping hypotheses with a zero coefficient or a term below 0.0005 of every value.
   SMAPEs equal up to rounding (hypotheses with the same fitted values, as ``a+b``,
   ``a+a*b`` and ``b+a*b`` on a cross- or L-shaped design, where ``a*b`` is a combination
   of ``1, a, b``) are a tie that the earlier hypothesis wins. Extra-P decides those by the
   last bits of LAPACK's least squares, which differ between builds: its own arithmetic
   replayed (its point order, ``lstsq`` with the retry, its scalar SMAPE loop, strict
   ``<``) gives Extra-P's choices under the numpy/OpenBLAS of Extra-P's environment, and
   other ones under ours (see ``tests/data/extrap/MULTIPARAM.md``), so no replay is made.

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

from ...algebra.normal_forms.blocks import BUILDING_BLOCKS
from .basic import select_basic
from .default import MIN_TERM_CONTRIBUTION, Selection, basis
from .multi import MultiModel, line_points, lstsq, model_from, rounding_moves, scaled_fits, smape

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
    add: list[tuple[int, ...]] = [(p,) for p in range(active)]
    found: list[list[tuple[int, ...]]] = [[mult], add]
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
    """Extra-P's choice for each kernel: ``points`` (n, k) shared, ``values`` (K, n)
    (divided by a power of two first, :func:`~.multi.scaled_fits`: Extra-P's numbers)."""
    return scaled_fits(_select, points, values)


def _select(points: np.ndarray, y: np.ndarray) -> list[MultiModel]:
    """:func:`select_multi_basic` of the values ``y`` (K, n), their largest within [1, 2)."""
    k = points.shape[1]
    singles = []
    for lines in line_points(points):
        x = np.array([value for value, _ in lines])
        line_y = np.stack([y[:, members].mean(-1) for _, members in lines], axis=-1)
        with np.errstate(divide="ignore", invalid="ignore"):  # lines of one or two points
            singles.append(select_basic(x, line_y))
    blocks = np.stack([s.index for s in singles], axis=1)  # (K, k), -1: constant
    table = basis_table(points)
    models: list[MultiModel | None] = [None] * len(y)
    active_sets: dict[tuple[int, ...], list[int]] = {}
    for row, chosen in enumerate(blocks >= 0):
        active_sets.setdefault(tuple(np.flatnonzero(chosen).tolist()), []).append(row)
    for active, rows in active_sets.items():
        members = np.array(rows)
        if not active:
            found = [model_from(k, c, [], [], s) for c, s in
                     zip(y[members].mean(-1), smape(y[members].mean(-1, keepdims=True), y[members]), strict=True)]  # fmt: skip
        else:
            factors = np.stack([table[p][blocks[members, p]] for p in active], axis=1)  # (R, a, n)
            if len(active) == 1:
                fits = _one_term(y[members], factors[:, 0], singles[active[0]], members)
            else:
                fits = _combined(y[members], factors)
            terms = combinations(len(active)) if len(active) > 1 else [[(0,)]]
            found = [
                model_from(k, c0, [_term(blocks[row], active, t) for t in terms[h]], cs, score)
                for row, (h, c0, cs, score) in zip(rows, fits, strict=True)
            ]
        for row, model in zip(rows, found, strict=True):
            models[row] = model
    return [m for m in models if m is not None]


def basis_table(points: np.ndarray) -> list[np.ndarray]:
    """Per parameter, the values of every building block at the points: (42, n) each."""
    return [basis(points[:, p], np.arange(len(BUILDING_BLOCKS))) for p in range(points.shape[1])]


def _term(blocks: np.ndarray, active: Sequence[int], positions: tuple[int, ...]) -> tuple[int, ...]:
    """The block-index term multiplying the active parameters at ``positions``."""
    chosen = {active[i] for i in positions}
    return tuple(int(b) if p in chosen else -1 for p, b in enumerate(blocks))


Found = tuple[int, float, np.ndarray, float]  # hypothesis number, constant, coefficients, SMAPE


def _one_term(
    y: np.ndarray, values: np.ndarray, single: Selection, rows: np.ndarray
) -> list[Found]:
    """One parameter's term: its single-parameter coefficients, or refitted if better."""
    c0, c1 = single.c0[rows], single.c1[rows]
    reused = smape(c0[:, None] + c1[:, None] * values, y)
    design = np.stack([np.ones_like(values), values], axis=-1)
    refit = lstsq(design, y)
    refit_smape = smape(refit[:, :1] + refit[:, 1:] * values, y)
    better = refit_smape < reused
    return [
        (0, r[0], r[1:], s) if b else (0, a, np.array([c]), u)
        for r, s, b, a, c, u in zip(refit, refit_smape, better, c0, c1, reused, strict=True)
    ]


def _combined(y: np.ndarray, factors: np.ndarray) -> list[Found]:
    """Fit every combination of the per-parameter terms ``factors`` (K, a, n); best SMAPE."""
    kernels, active, n = factors.shape
    fits = []
    for combination in combinations(active):
        columns = [np.prod(factors[:, list(t)], axis=1) for t in combination]
        design = np.stack([np.ones((kernels, n)), *columns], axis=-1)  # (K, n, m)
        coefficients = lstsq(design, y)  # (K, m)
        fitted = coefficients[:, :1]
        for c, t in zip(
            coefficients[:, 1:].T, combination, strict=True
        ):  # Extra-P's order of rounding
            value = c[:, None]
            for i in t:
                value = value * factors[:, i]
            fitted = fitted + value
        with np.errstate(divide="ignore", invalid="ignore"):
            share = np.abs(
                coefficients[:, 1:, None] * np.moveaxis(design[..., 1:], -1, 1) / y[:, None]
            )
            too_small = share.max(-1) < MIN_TERM_CONTRIBUTION
        rejected = np.any((coefficients[:, 1:] == 0) | too_small, axis=1)
        # the SMAPE rounding may make: each fitted value moved by the fit's rounding, bounded
        # point by point (the columns' scales differ by orders: a bound by the norms is loose)
        moved = rounding_moves(design, coefficients)
        total = np.abs(fitted) + np.abs(y)
        with np.errstate(divide="ignore", invalid="ignore"):
            floor = np.where(total > 0, 2 * moved / total, 0.0).mean(-1) * 100
        fits.append((coefficients, smape(fitted, y), rejected, floor))
    scores = np.stack([np.where(r, np.inf, s) for _, s, r, _ in fits], axis=1)
    floors = np.stack([np.where(np.isfinite(f), f, 0.0) for *_, f in fits], axis=1)
    first = fits[0][1]
    scores[:, 0] = np.where(np.isnan(first), -np.inf, first)  # the start, whatever its terms
    scores = np.where(np.isnan(scores), np.inf, scores)
    # equal in exact arithmetic (equivalent hypotheses on sparse designs): the earliest wins,
    # equal meaning within TIE or within what rounding may make of either fit's SMAPE
    rows = np.arange(kernels)
    winner = np.argmin(scores, axis=1)
    best = scores[rows, winner][:, None]
    margin = TIE * np.abs(best) + floors + floors[rows, winner][:, None]
    margin = np.where(np.isfinite(best), margin, 0.0)  # -inf: a start with no SMAPE
    pick = np.argmax(scores <= best + margin, axis=1)
    return [
        (int(h), fits[h][0][r, 0], fits[h][0][r, 1:], float(fits[h][1][r]))
        for r, h in enumerate(pick)
    ]
