"""The uncertainty of one-parameter PMNF fits, for a batch of kernels at once.

Two methods (``fit --uncertainty``; ``auto``, the default, is the first for up to
:data:`~patternalg.forms.fit_options.AUTO_BOOTSTRAP` kernels, the second for more), measured in
docs/fitting.md ("Uncertainty"):

* ``bootstrap``: each point's repetitions resampled :data:`~patternalg.forms.spread.DRAWS`
  times, aggregated as the fit aggregates them, and the hypothesis chosen and fitted again by
  the same modeler; the terms are the constant, the fit's block and the blocks the draws
  chose most often (:func:`_kept`), and the covariance the second moments of the draws'
  coefficients around the fitted ones (a block's coefficient is 0 in a draw that chose
  another), so that a choice the repetitions cannot pin down widens the interval, reweighted
  (:func:`~patternalg.forms.spread.reweighted_moments`: the few draws far off, which no
  central interval of the draws holds, do not set the normal's width). The
  resampling is fixed by the number of repetitions of each point (same file, same model
  file, byte for byte);
* ``linear``: the chosen hypothesis ``c0 + c1 * b(x)`` only, whose coefficients are linear
  in the aggregated values: :func:`~patternalg.forms.spread.linear_covariance` (the
  repetitions' infinitesimal jackknife plus the residuals' least-squares covariance) with the
  weights of the modeler's final fit (``default``: ``1/y``; ``basic`` and the constant
  model: none). No draws: it costs about what the fit costs.

>>> x = np.array([4.0, 8, 16, 32, 64])
>>> values = (3 + 0.5 * x)[None, :, None] * np.array([0.99, 1.0, 1.01])
>>> from patternalg.forms.pmnf.default import select_default
>>> def select(y, noise=None):
...     return select_default(x, y, noise=noise)
>>> chosen = select(values.mean(-1))
>>> (u,) = uncertainties(x, values, values.mean(-1), chosen, ["default"], "mean", "x", "linear", select)
>>> u.terms, u.repetitions, u.method
((1, x), 3, 'linear')
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import fields
from typing import Any

import numpy as np
import sympy

from ...algebra.normal_forms.blocks import BUILDING_BLOCKS
from ...algebra.uncertainty import Uncertainty
from ...syntax.symbols import log2, symbol
from ..spread import (
    DRAWS,
    aggregate_variance,
    drawing_order,
    linear_covariance,
    median_noise,
    repetitions_of,
    resampled,
    reweighted_moments,
    series_noise,
)
from .default import Selection, basis

__all__ = ["growth_rates", "held_out_errors", "pooled_noise", "uncertainties", "multi_covariances"]

#: the blocks besides the fit's own that an uncertainty keeps at most, and the share of the
#: draws that must have chosen one (the terms stay few: the model file stays compact)
ALTERNATIVES, MIN_SHARE = 3, 0.02
#: the most fits made each way to see how a hypothesis errs beyond the sizes it saw
_ORIGINS = 8
#: what a prediction's variance is floored at when weighing it (exact data: all weigh alike)
_TINY = 1e-12
#: the kernels whose draws are made and chosen at once (bounds memory: 200 draws each)
_KERNELS = 500
#: the most numbers (rows x points x hypotheses) one selection of draws holds (some 160 MB an array)
_NUMBERS = 20_000_000

Values = np.ndarray | Sequence[Sequence[np.ndarray]]
Select = Callable[[np.ndarray, np.ndarray | None], Selection]


@functools.cache
def _block(var: str, index: int) -> sympy.Expr:
    """Building block ``index`` in ``var``: ``x^i*log2(x)^j``."""
    i, j = BUILDING_BLOCKS[index]
    x = symbol(var)
    return x ** sympy.Rational(i) * log2(x) ** j  # type: ignore[no-any-return]


def _kernels(
    values: Values, how: str, y: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per kernel and point: the variance of the aggregate (infinitesimal jackknife), the
    median and the count of repetitions. ``values`` is (K, P, R), or per kernel per point
    an array of its repetitions (their counts may differ); ``y`` (K, P) their aggregates."""
    if isinstance(values, np.ndarray):
        k, p, r = values.shape
        variance = aggregate_variance(values, how, y)
        return variance, np.median(values, axis=-1), np.full((k, p), r)
    variance = np.array([[aggregate_variance(v, how) for v in kernel] for kernel in values])
    medians = np.array([[np.median(v) for v in kernel] for kernel in values])
    return variance, medians, np.array([[len(v) for v in kernel] for kernel in values])


def pooled_noise(values: Values, how: str, y: np.ndarray) -> np.ndarray:
    """Per kernel the relative variance of a point's aggregate (``how``), the mean over its
    points; NaN for a kernel measured once per point (its noise is not known).

    >>> v = np.array([[[9.0, 10, 11], [18, 20, 22]], [[5, 5, 5], [7, 7, 7]]])
    >>> [round(float(n), 4) for n in pooled_noise(v, "mean", v.mean(-1))]
    [0.0022, 0.0]
    >>> pooled_noise(np.ones((1, 2, 1)), "mean", np.ones((1, 2))).tolist()
    [nan]
    """
    variance, _, counts = _kernels(values, how, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        pooled = (variance / (y * y)).mean(-1)
    return np.where(counts.max(axis=-1) > 1, pooled, np.nan)


def _noise(values: Values, medians: np.ndarray) -> np.ndarray:
    """:func:`~patternalg.forms.spread.median_noise` of each kernel."""
    if isinstance(values, np.ndarray):
        return median_noise(values, medians)
    return np.array([series_noise(kernel)[0] for kernel in values])


def _kept(own: list[int], index: np.ndarray) -> list[int]:
    """The blocks an uncertainty's terms keep: the fit's own (none, one or two), then the
    blocks the draws chose most often (``index``: every term of every draw; at most
    :data:`ALTERNATIVES`, each in :data:`MIN_SHARE` of the draws or more; the most
    frequent one if the fit has none and no block is that frequent)."""
    blocks, counts = np.unique(index[(index >= 0) & ~np.isin(index, own)], return_counts=True)
    order = np.argsort(-counts, kind="stable")
    others = [int(blocks[i]) for i in order[:ALTERNATIVES] if counts[i] >= MIN_SHARE * DRAWS]
    if not own and not others and len(blocks):
        others = [int(blocks[order[0]])]
    return own + others


def _own(fitted: Selection, k: int) -> tuple[list[int], list[float]]:
    """Kernel ``k``'s blocks and their coefficients (none for a constant model)."""
    pairs = ((fitted.index[k], fitted.c1[k]), (fitted.index2[k], fitted.c2[k]))
    return [int(h) for h, _ in pairs if h >= 0], [float(c) for h, c in pairs if h >= 0]


def _bootstrap(
    var: str, x: np.ndarray, fitted: Selection, k: int, drawn: Selection, row: int
) -> tuple[tuple[sympy.Expr, ...], np.ndarray]:
    """Kernel ``k``'s terms and the second moments of its draws' coefficients (rows
    ``row * DRAWS ..`` of ``drawn``) around the fit, reweighted
    (:func:`~patternalg.forms.spread.reweighted_moments`). A draw's term on a block not kept
    (:func:`_kept`) counts as the kept block nearest in growth, its coefficient scaled to
    the same value at the largest x. A block no draw kept by the reweighting moved is left
    out."""
    rows = slice(row * DRAWS, (row + 1) * DRAWS)
    slots = [(drawn.index[rows], drawn.c1[rows]), (drawn.index2[rows], drawn.c2[rows])]
    own, mine = _own(fitted, k)
    kept = _kept(own, np.concatenate([index for index, _ in slots]))
    if kept:
        top = basis(np.array([x.max()]), np.arange(len(BUILDING_BLOCKS)))[:, 0]
        for s, (index, c) in enumerate(slots):
            near = np.array(kept)[np.abs(np.array(kept)[None, :] - index[:, None]).argmin(-1)]
            moved = (index >= 0) & ~np.isin(index, kept)
            slots[s] = (
                np.where(moved, near, index),
                np.where(moved, c * top[np.maximum(index, 0)] / top[near], c),
            )
    deltas = [drawn.c0[rows] - fitted.c0[k]]
    for h in kept:
        center = mine[own.index(h)] if h in own else 0.0
        deltas.append(sum(np.where(index == h, c, 0.0) for index, c in slots) - center)
    d = np.stack(deltas, axis=-1)  # (DRAWS, terms)
    moments = reweighted_moments(d)
    # an alternative every draw that chose it was left out by has no spread: not a term
    live = [i for i in range(len(kept) + 1) if i <= len(own) or moments[i, i] > 0]
    terms = (sympy.Integer(1), *(_block(var, kept[i - 1]) for i in live[1:]))
    return terms, moments[np.ix_(live, live)]


def _linear(
    x: np.ndarray, y: np.ndarray, fitted: Selection, used: Sequence[str], variance: np.ndarray
) -> list[np.ndarray]:
    """The covariance of each kernel's chosen hypothesis (:func:`linear_covariance`)."""
    chosen = np.asarray(fitted.index, dtype=np.intp)
    second = np.asarray(fitted.index2, dtype=np.intp)
    values = basis(x, np.arange(len(BUILDING_BLOCKS)))
    ones = np.ones_like(y)
    weighted = np.array([m == "default" for m in used]) & (chosen >= 0)
    weights = np.where(weighted[:, None], 1.0 / np.where(y > 0, y, 1.0), 1.0)
    result: list[Any] = [None] * len(y)
    for terms in (0, 1, 2):  # the constant model, one term, two terms
        rows = np.flatnonzero((chosen >= 0).astype(int) + (second >= 0) == terms)
        if len(rows):
            columns = [ones[rows], *(values[h[rows]] for h in (chosen, second)[:terms])]
            covariance = linear_covariance(
                np.stack(columns, axis=-1), y[rows], weights[rows], variance[rows]
            )
            for k, matrix in zip(rows.tolist(), covariance, strict=True):
                result[k] = matrix
    return result


def held_out_errors(
    x: np.ndarray, y: np.ndarray, fitted: Selection, used: Sequence[str]
) -> np.ndarray:
    """Each kernel's error at each point when its chosen hypothesis is fitted without that
    point, relative to the value there, (predicted - measured) / measured: ``r / (1 - h) /
    y`` with the residual ``r`` of the fit and the leverage ``h`` of the point under the
    weights of the modeler's final fit (``default``: ``1/y``; ``basic`` and the constant
    model: none), (K, P); the same as fitting again without each point:

    >>> from patternalg.forms.pmnf.default import select_default
    >>> x = np.array([4.0, 8, 16, 32, 64])
    >>> y = (3 + 0.5 * x)[None, :] * np.array([1.0, 1.02, 0.98, 1.0, 1.01])
    >>> errors = held_out_errors(x, y, select_default(x, y), ["default"])[0]
    >>> refits = []
    >>> for left in range(5):
    ...     keep = np.arange(5) != left
    ...     design = np.stack([np.ones(4), x[keep]], 1) / np.sqrt(y[0, keep])[:, None]
    ...     c0, c1 = np.linalg.lstsq(design, np.sqrt(y[0, keep]), rcond=None)[0]
    ...     refits.append((c0 + c1 * x[left]) / y[0, left] - 1)
    >>> bool(np.allclose(errors, refits)), [round(float(e), 4) for e in errors]
    (True, [-0.0048, -0.0281, 0.028, 0.0053, -0.0166])
    """
    residual = fitted.values(x) - y
    leverage = np.zeros_like(y)
    for rows, design, w in _designs(x, y, fitted, used):
        normal = np.einsum("kp,kpi,kpj->kij", w, design, design)
        with np.errstate(all="ignore"):
            inverse = np.linalg.pinv(normal)
        leverage[rows] = w * np.einsum("kpi,kij,kpj->kp", design, inverse, design)
    with np.errstate(divide="ignore", invalid="ignore"):
        return residual / (1.0 - leverage) / y  # type: ignore[no-any-return]


def growth_rates(
    x: np.ndarray, y: np.ndarray, fitted: Selection, used: Sequence[str], noise: np.ndarray
) -> np.ndarray:
    """How fast each kernel's chosen hypothesis errs beyond the sizes it is fitted on, per
    doubling of x, below them and above them (K, 2): ``e^2 - noise^2 - v = rate^2 * d^2``
    fitted by least squares weighted ``1 / (noise^2 + v)^2`` over the fits of the hypothesis
    (with the modeler's weights) to the lowest sizes predicting each larger one (to the
    highest predicting each smaller one), ``e`` a prediction's relative error, ``d`` its
    distance in log2(x) from the sizes fitted and ``v`` the variance the fitted points'
    ``noise`` (a median's relative sd, per kernel) gives the prediction; NaN where no fit
    has more points than coefficients. Evenly chosen origins (at most ``_ORIGINS`` each
    way) bound the cost of a scan of many sizes.

    A hypothesis that holds errs by nothing, a shape that only fits the sizes seen errs more
    the further it goes (``x*log2(x)`` measured, ``c0 + c1*x`` fitted):

    >>> from patternalg.forms.pmnf.default import Selection
    >>> x = np.array([4.0, 8, 16, 32, 64])
    >>> line = Selection.one_term(np.array([18, 18]), np.zeros(2), np.ones(2), np.zeros(2))
    >>> y = np.array([3 + 0.5 * x, x * np.log2(x)])
    >>> growth_rates(x, y, line, ["default"] * 2, np.zeros(2)).round(3).tolist()
    [[0.0, 0.0], [1.519, 0.137]]
    """
    order = np.argsort(x)
    x, y = x[order], y[:, order]
    logs = np.log2(x)
    rates = np.full((len(y), 2), np.nan)
    for rows, design, w in _designs(x, y, fitted, used):
        m = design.shape[-1]
        for side, every in enumerate((range(len(x) - m - 1, 0, -1), range(m + 1, len(x)))):
            ends = list(every)
            if len(ends) > _ORIGINS:  # a scan of many sizes: evenly chosen origins
                ends = [ends[i] for i in np.linspace(0, len(ends) - 1, _ORIGINS).round().astype(int).tolist()]
            total, reach = np.zeros(len(rows)), np.zeros(len(rows))
            for end in ends:
                seen = np.arange(len(x)) >= end if side == 0 else np.arange(len(x)) < end
                ws = np.where(seen, w, 0.0)
                normal = np.einsum("kp,kpi,kpj->kij", ws, design, design)
                right = np.einsum("kp,kpi,kp->ki", ws, design, y[rows])
                # the points' own noise (relative sd: sd * y) through the weighted fit
                spread = ws * noise[rows, None] * y[rows]
                meat = np.einsum("kp,kpi,kpj->kij", spread * spread, design, design)
                with np.errstate(all="ignore"):
                    inverse = np.linalg.pinv(normal)
                    coef = np.einsum("kij,kj->ki", inverse, right)
                    predicted = np.einsum("kpi,ki->kp", design, coef)
                    error = predicted / y[rows] - 1
                    sandwich = inverse @ meat @ inverse
                    drawn = np.einsum("kpi,kij,kpj->kp", design, sandwich, design) / y[rows] ** 2
                    edge = logs[end] if side == 0 else logs[end - 1]
                    # what the noise of the point and of the fit's points explains is not the
                    # shape's; a prediction counts as little as that noise makes it move
                    explained = (noise[rows, None] ** 2 + drawn)[:, ~seen]
                    missed = error[:, ~seen] ** 2 - explained
                    weight = 1.0 / (explained + _TINY) ** 2
                    d2 = (logs[~seen] - edge) ** 2
                total += np.nansum(weight * d2 * missed, axis=-1)
                reach += np.nansum(weight * d2 * d2, axis=-1)
            with np.errstate(all="ignore"):
                rates[rows, side] = np.where(reach > 0, np.sqrt(np.clip(total, 0.0, None) / reach), np.nan)
    return rates


def _designs(
    x: np.ndarray, y: np.ndarray, fitted: Selection, used: Sequence[str]
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The kernels grouped by how many terms their chosen hypothesis has: their rows, the
    design (the constant and the chosen blocks, each scaled to at most 1: (K, P, m)) and the
    weights of the modeler's final fit (``default``: ``1/y``; ``basic`` and the constant
    model: none)."""
    chosen, second = np.asarray(fitted.index), np.asarray(fitted.index2)
    values = basis(x, np.arange(len(BUILDING_BLOCKS)))
    weighted = np.array([m == "default" for m in used]) & (chosen >= 0)
    weights = np.where(weighted[:, None], 1.0 / np.where(y > 0, y, 1.0), 1.0)
    for terms in (0, 1, 2):
        rows = np.flatnonzero((chosen >= 0).astype(int) + (second >= 0) == terms)
        if not len(rows):
            continue
        columns = [np.ones_like(y[rows])] + [values[h[rows]] for h in (chosen, second)[:terms]]
        yield rows, np.stack([c / c.max(-1, keepdims=True) for c in columns], axis=-1), weights[rows]


def uncertainties(
    x: np.ndarray,
    values: Values,
    y: np.ndarray,
    fitted: Selection,
    used: Sequence[str],
    how: str,
    var: str,
    method: str,
    select: Select,
    noise: np.ndarray | None = None,
) -> list[Uncertainty | None]:
    """The uncertainty of each kernel's fit ``fitted`` (chosen by the modelers ``used`` from
    its aggregated values ``y`` at ``x``) from its repetitions ``values``, by ``method``
    (``bootstrap``: re-chosen by ``select``, which takes aggregated values (K, P) and their
    pooled ``noise`` (K,) as :func:`pooled_noise` gives it; ``linear``; ``none``); None for
    a kernel measured once per point, or whose covariance is not finite."""
    if method == "none" or not len(y):
        return [None] * len(y)
    variance, medians, counts = _kernels(values, how, y)
    noise, reps = _noise(values, medians), repetitions_of(counts)
    repeated: list[bool] = np.asarray(counts.max(axis=-1) > 1, dtype=bool).tolist()
    if not any(repeated):  # one value per point: nothing to resample
        return [None] * len(y)
    found: list[tuple[tuple[sympy.Expr, ...], np.ndarray]]
    if method == "bootstrap":
        found = []
        for start in range(0, len(y), _KERNELS):  # the draws of a few kernels at a time
            part = None if noise is None else np.repeat(noise[start : start + _KERNELS], DRAWS)
            rows = resampled(values[start : start + _KERNELS], how).reshape(-1, len(x))
            drawn = _chosen_by_rows(select, rows, part)
            done = min(len(y) - start, _KERNELS)
            found += [_bootstrap(var, x, fitted, start + k, drawn, k) for k in range(done)]
    else:
        found = [
            (_terms(var, _own(fitted, k)[0]), matrix)
            for k, matrix in enumerate(_linear(x, y, fitted, used, variance))
        ]
    held_out = held_out_errors(x, y, fitted, used)
    growth = growth_rates(x, y, fitted, used, np.nan_to_num(noise))
    at = x.tolist()
    return [
        Uncertainty(
            terms, tuple(map(tuple, matrix.tolist())), int(r), float(n), method,
            tuple((p, e) for p, e in zip(at, errors.tolist(), strict=True) if np.isfinite(e)),
            tuple(float(g) for g in rate) if np.isfinite(rate).all() else (),
        )  # fmt: skip
        if ok and np.isfinite(matrix).all() and np.isfinite(n)
        else None
        for (terms, matrix), r, n, ok, errors, rate in zip(
            found, reps, noise, repeated, held_out, growth, strict=True
        )
    ]


def _chosen_by_rows(select: Select, rows: np.ndarray, noise: np.ndarray | None) -> Selection:
    """``select(rows, noise)``, a slice of the rows at a time where they have many points:
    the selection holds every hypothesis at every point of every row (``_NUMBERS`` numbers
    at most: 200 draws of one kernel of 100,000 points would be 6 GB)."""
    count = max(1, _NUMBERS // max(1, rows.shape[1] * len(BUILDING_BLOCKS)))
    if len(rows) <= count:
        return select(rows, noise)
    parts = [
        select(rows[start : start + count], None if noise is None else noise[start : start + count])
        for start in range(0, len(rows), count)
    ]
    return Selection(
        **{f.name: np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(Selection)}
    )


def _terms(var: str, blocks: list[int]) -> tuple[sympy.Expr, ...]:
    """The basis of a hypothesis of ``blocks`` in ``var``: ``(1, x^i*log2(x)^j, ...)``."""
    return (sympy.Integer(1), *(_block(var, h) for h in blocks))


def multi_covariances(
    points: np.ndarray,
    values: Values,
    y: np.ndarray,
    models: Sequence[Any],
    used: Sequence[str],
    how: str,
    method: str,
    parameters: Sequence[str],
) -> list[tuple[np.ndarray, float, int] | None]:
    """The covariance of the constant and the coefficients of each kernel's chosen
    multi-parameter hypothesis (a :class:`~.multi.MultiModel` at ``points`` (P, k) over
    ``parameters``), with its noise and repetitions; None where :func:`uncertainties` gives
    none. ``bootstrap`` refits the chosen terms to each draw by the modeler's least squares
    (it does not choose again: the multi-parameter selection costs a hundred times more),
    its draws dealt to the points by name (:func:`~patternalg.forms.spread.drawing_order`),
    ``linear`` as one parameter."""
    from .multi import MultiModel

    if method == "none" or not len(y):
        return [None] * len(y)
    variance, medians, counts = _kernels(values, how, y)
    noise, reps = _noise(values, medians), repetitions_of(counts)
    repeated: list[bool] = np.asarray(counts.max(axis=-1) > 1, dtype=bool).tolist()
    if not any(repeated):
        return [None] * len(y)
    order = drawing_order(points, parameters)
    drawn = resampled(values, how, order) if method == "bootstrap" else None
    result: list[tuple[np.ndarray, float, int] | None] = []
    for k, model in enumerate(models):
        columns = [MultiModel(0.0, (term,), (1.0,), 0.0)(points) for term in model.terms]
        design = np.column_stack([np.ones(len(points)), *columns])  # (P, m)
        weighted = used[k] == "default" and bool(model.terms)
        if drawn is not None:
            draws = drawn[k]  # (DRAWS, P)
            w = 1.0 / np.where(draws > 0, draws, 1.0) if weighted else np.ones_like(draws)
            normal = np.einsum("dp,pi,pj->dij", w, design, design)
            right = np.einsum("dp,pi,dp->di", w, design, draws)
            with np.errstate(all="ignore"):
                coefficients = np.linalg.solve(normal, right[..., None])[..., 0]
            deltas = coefficients - np.array([model.constant, *model.coefficients])
            covariance = deltas.T @ deltas / len(deltas)
        else:
            w = 1.0 / np.where(y[k] > 0, y[k], 1.0) if weighted else np.ones(len(points))
            covariance = linear_covariance(
                design[None], y[k][None], w[None], variance[k][None],
                residual=(y[k] - model(points))[None],
            )[0]  # fmt: skip
        ok = repeated[k] and np.isfinite(covariance).all() and np.isfinite(noise[k])
        result.append((covariance, float(noise[k]), int(reps[k])) if ok else None)
    return result
