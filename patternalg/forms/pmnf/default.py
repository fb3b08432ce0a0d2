"""Our PMNF modeler, and the least-squares numerics it shares with Extra-P's (:mod:`.basic`).

A hypothesis is ``c0 + c1 * x^i * log2(x)^j`` for one building block ``(i, j)``; index
``-1`` stands for the constant model ``c0``. Both modelers take the points ``x`` (P,)
shared by a batch of kernels and their aggregated values ``Y`` (K, P), and return a
:class:`Selection` (one chosen hypothesis and its coefficients per kernel).

* :func:`~.basic.select_basic` is Extra-P 4.2.5's Basic modeler (module :mod:`.basic`);
* :func:`select_default` is ours: the hypothesis chosen by relative-error-weighted least
  squares (so that the small-x points count as much as the large ones under
  multiplicative noise): the growing hypothesis with the lowest relative residual, kept
  only if it beats the constant model in leave-one-out relative error; its coefficients
  then fitted with weights ``1/y`` (variance proportional to the value), so that the
  large values, next to where a model is used to predict, count more.

>>> x = np.array([4.0, 8, 16, 32, 64])
>>> y = 3 + 0.5 * x**1.5
>>> BUILDING_BLOCKS[select_default(x, y[None, :]).index[0]]
(Fraction(3, 2), 0)
>>> exact = select_default(x, 3 * x[None, :])   # no rounding error left in the constant
>>> BUILDING_BLOCKS[exact.index[0]], float(exact.c0[0]), round(float(exact.c1[0]), 12)
((Fraction(1, 1), 0), 0.0, 3.0)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, fields, replace

import numpy as np

from ...algebra.normal_forms.blocks import BUILDING_BLOCKS
from .sums import max_first, sum_first
from .two_terms import admit, chi2_quantile, fit_pairs, pairs_for

__all__ = ["Selection", "basis", "blocks_for", "power_of_two", "select_default"]

#: a term contributing less than this share of every value is rejected (Extra-P's default)
MIN_TERM_CONTRIBUTION = 0.0005
#: a leave-one-out constant below this share of the smallest value counts as 0 (Extra-P)
CLEAN_CONSTANT = 0.0005
#: a hypothesis whose constant is negative competes with this many times its residual
NEGATIVE_CONSTANT_PENALTY = 10.0
#: a constant below this share of the smallest value is rounding error, and 0: exact data
#: get exact models (``3*x``, not ``3*x + 4.6e-16``)
ROUNDING_CONSTANT = 1e-12
#: the most points whose leave-one-out fits are made one by one (n fits of n points: n^2
#: numbers); beyond, the same scores from one fit and its leverages (linear in n: a hyperfine
#: scan of 100,000 values needed 10^10 numbers)
LOO_DIRECT = 64


@dataclass(frozen=True)
class Selection:
    """The chosen hypothesis per kernel: ``index`` into the blocks (-1: constant), c0, c1;
    a second term's block ``index2`` (-1: none, the default modeler's two terms of one
    power, :mod:`.two_terms`) and its coefficient ``c2``."""

    index: np.ndarray
    c0: np.ndarray
    c1: np.ndarray
    criterion: np.ndarray
    index2: np.ndarray
    c2: np.ndarray

    @classmethod
    def one_term(
        cls, index: np.ndarray, c0: np.ndarray, c1: np.ndarray, criterion: np.ndarray
    ) -> Selection:
        """A selection of one term (or a constant) per kernel."""
        return cls(index, c0, c1, criterion, np.full(len(index), -1), np.zeros(len(index)))

    def values(self, x: np.ndarray) -> np.ndarray:
        """The chosen models' values at ``x`` (K, P).

        >>> s = Selection(np.array([18, -1]), np.array([1.0, 2.0]), np.array([0.5, 0.0]),
        ...               np.zeros(2), np.array([19, -1]), np.array([0.25, 0.0]))
        >>> s.values(np.array([2.0, 4.0])).tolist()   # 1 + x/2 + x*log2(x)/4; 2
        [[2.5, 5.0], [2.0, 2.0]]
        """
        blocks = basis(x, np.arange(len(BUILDING_BLOCKS)))
        slope = np.where(self.index < 0, 0.0, self.c1)[:, None]
        fitted = self.c0[:, None] + slope * blocks[np.maximum(self.index, 0)]
        second = self.index2 >= 0
        if second.any():
            fitted[second] += self.c2[second, None] * blocks[self.index2[second]]
        return fitted

    def scaled(self, factor: np.ndarray) -> Selection:
        """The same hypotheses with the coefficients times ``factor`` (K, 1): in another unit."""
        return replace(
            self, c0=self.c0 * factor[:, 0], c1=self.c1 * factor[:, 0], c2=self.c2 * factor[:, 0]
        )


def power_of_two(y: np.ndarray) -> np.ndarray:
    """Per kernel (a row of ``y``, (K, P)) the power of two at or below its largest
    magnitude, (K, 1); 1 for a kernel of zeros.

    The modelers divide the values by it first: the division is exact and changes no
    relative error, so the choice is what it would be in any unit, and the squares and
    inverses they compute stay within the doubles (``(1e160)**2`` overflows, ``(1e-160)**2``
    is 0, and a ranking of NaNs is arbitrary).

    >>> np.log2(power_of_two(np.array([[3e200, 1.0], [0.0, 0.0], [0.75, 0.5]]))).ravel().tolist()
    [665.0, 0.0, -1.0]
    """
    top = np.abs(y).max(-1, keepdims=True)
    usable = np.isfinite(top) & (top > 0)
    return np.exp2(np.floor(np.log2(np.where(usable, top, 1.0))))


def blocks_for(x: np.ndarray) -> np.ndarray:
    """Indices of the usable building blocks: log terms only if every x >= 1 (as Extra-P).

    >>> len(blocks_for(np.array([1.0, 2.0]))), len(blocks_for(np.array([0.5, 2.0])))
    (42, 19)
    """
    log_ok = bool(np.all(x >= 1.0))
    return np.array([h for h, (_, j) in enumerate(BUILDING_BLOCKS) if log_ok or j == 0])


def basis(x: np.ndarray, blocks: np.ndarray) -> np.ndarray:
    """The values ``x^i * log2(x)^j`` of the given building blocks: shape (H, P), read-only
    (the last few are kept: a file's kernels share their points, batch after batch).

    >>> basis(np.array([2.0, 4.0]), np.array([0, 18])).tolist()
    [[1.0, 2.0], [2.0, 4.0]]
    """
    x = np.ascontiguousarray(x, dtype=float)
    return _basis(x.tobytes(), np.asarray(blocks, dtype=np.intp).tobytes())


@functools.lru_cache(maxsize=32)
def _basis(points: bytes, blocks: bytes) -> np.ndarray:
    x = np.frombuffer(points, dtype=float)
    rows = []
    for h in np.frombuffer(blocks, dtype=np.intp).tolist():
        i, j = BUILDING_BLOCKS[h]
        row = np.ones_like(x)
        if i != 0:
            row = row * x ** float(i)
        if j != 0:
            row = row * np.log2(x) ** float(j)
        rows.append(row)
    result = np.array(rows, dtype=float).reshape(len(rows), len(x))
    result.flags.writeable = False
    return result


def _line_fit(b: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weighted least squares of ``y ~ c0 + c1*b`` along the first axis (broadcasting)."""
    sw = sum_first(w)
    bbar = sum_first(w * b) / sw
    ybar = sum_first(w * y) / sw
    db = b - bbar
    wdb = w * db  # shared by both sums
    with np.errstate(divide="ignore", invalid="ignore"):
        c1 = sum_first(wdb * (y - ybar)) / sum_first(wdb * db)
    return ybar - c1 * bbar, c1


def _loo_score(chosen: np.ndarray, y: np.ndarray, direct: int = LOO_DIRECT) -> np.ndarray:
    """The leave-one-out relative error of each kernel's fit ``y ~ c0 + c1 * chosen``
    (weights ``1/y^2``): the sum over the points of the squared relative error at each point
    of the fit without it. Up to ``direct`` points, the n fits made one by one;
    beyond, from the fit of all points and each point's leverage ``h`` (the prediction
    without point l misses it by ``r_l / (1 - h_l)``: the same number, in O(n)).

    >>> x = np.array([[1.0, 2, 3, 4, 5, 6]])
    >>> y = 3 + 2 * x + np.array([[0.1, -0.2, 0.05, 0.1, -0.1, 0.2]])
    >>> bool(np.allclose(_loo_score(x, y, direct=0), _loo_score(x, y), rtol=1e-9))
    True
    """
    n = y.shape[-1]
    if n <= direct:
        train = ~np.eye(n, dtype=bool)  # (L, P): fold l trains without point l
        fold_w = (1.0 / y**2).T[:, :, None] * train.T[:, None, :]  # (P, K, L)
        f0, f1 = _line_fit(chosen.T[:, :, None], y.T[:, :, None], fold_w)  # (K, L)
        predicted = f0 + f1 * chosen
        return (((predicted - y) / y) ** 2).sum(-1)  # type: ignore[no-any-return]
    w = 1.0 / y**2
    sw = w.sum(-1, keepdims=True)
    mean = (w * chosen).sum(-1, keepdims=True) / sw
    spread = (w * (chosen - mean) ** 2).sum(-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        c1 = (w * (chosen - mean) * (y - (w * y).sum(-1, keepdims=True) / sw)).sum(
            -1, keepdims=True
        ) / spread
        c0 = (w * y).sum(-1, keepdims=True) / sw - c1 * mean
        leverage = w * (1.0 / sw + (chosen - mean) ** 2 / spread)
        missed = (y - c0 - c1 * chosen) / (1.0 - leverage)
        return ((missed / y) ** 2).sum(-1)  # type: ignore[no-any-return]


def _rejected(c1: np.ndarray, terms: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Extra-P's rule: a zero coefficient, or a term below 0.0005 of every value.

    ``terms`` is ``c1 * b``: each hypothesis's term at each point (the points first), ``y``
    the values broadcast against it.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        contribution = terms / y
    contribution = max_first(np.abs(contribution, out=contribution))
    return (c1 == 0) | (contribution < MIN_TERM_CONTRIBUTION)


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
    return Selection.one_term(
        index=np.where(is_const, -1, blocks[term]),
        c0=np.where(is_const, y.mean(-1), c0[rows, term]),
        c1=np.where(is_const, 0.0, c1[rows, term]),
        criterion=scores[rows, pick],
    )


def select_default(
    x: np.ndarray,
    y: np.ndarray,
    parsimony: str = "loo",
    growing: bool = True,
    negative_constant: float = NEGATIVE_CONSTANT_PENALTY,
    noise: np.ndarray | None = None,
    two_terms: bool = True,
    within_noise: bool = True,
) -> Selection:
    """Our modeler for positive values ``y`` (K, P): relative-error-weighted least squares.

    * every hypothesis is fitted with weights ``1/y^2``: the relative error that
      multiplicative noise makes, so small-x points count as much as large ones;
    * among the hypotheses (one term each, hence equally complex), the lowest sum of
      squared relative residuals wins; with ``growing``, terms with a negative
      coefficient are rejected (the building blocks grow, so such a model turns
      negative beyond the range), as are Extra-P's negligible terms;
    * a hypothesis with a negative constant competes with ``negative_constant`` (10) times
      its residual: a measured cost has no negative fixed part, and a negative ``c0`` is
      how a term that grows too slowly makes up for it (qsort's lower half on a real
      machine fits ``72*x - 3600`` better than ``5.1*x*log2(x) + 23000``); it is kept when
      nothing with ``c0 >= 0`` fits within that factor, as for exact counts like ``x - 1``;
    * parsimony: the winner must beat the constant model (the mean) in leave-one-out
      relative error (``parsimony="loo"``) or by BIC (``"bic"``), else the model is constant;
      and with ``within_noise``, where the points' ``noise`` is known, the constant must miss
      them by more than that noise explains (the lack-of-fit test of the pairs below, at
      1 %): a term that only follows the noise extrapolates it (``nop``, 46.8 to 47.9 ns over
      x = 1,024 .. 16,384 on ``data22``, fitted as ``46.8 + 2.5e-14*x^3*log2(x)``: 8,006 ns
      at 262,144);
    * the winner's coefficients are fitted again with weights ``1/y``: a measured time is a
      sum of per-element costs, its variance grows like its value. Relative weights let the
      smallest values, where start-up and cache effects are largest, pull the coefficient,
      and a model mostly predicts beyond the largest measured value (on the real
      measurements of ``benchmarks/bench_fidelity.py``: 2.7 % -> 1.8 % median error at the
      largest size). The relative fit stays if the refit would change the coefficient's sign;
    * with ``two_terms``, the best pair of terms of one power (:mod:`.two_terms`) replaces
      that choice where it predicts the sizes left out (leave-one-size-out, relative) at
      least eight times better and the choice misses by more than the points' noise
      (``noise``: per kernel the relative variance of a point's aggregate, pooled; None:
      not known, and the held-out gain alone decides). Among hypotheses of one term, which
      have as many coefficients, the fit decides: chosen by held-out error instead, they
      recover the truth of generated kernels less often (82.2 against 85.8 % at 10 %
      noise) and the real atoms beyond the fitted range worse (13.5 against 10.4 %,
      docs/pmnf.md).
    """
    scale = power_of_two(y)
    y = y / scale
    k, n = y.shape
    blocks = blocks_for(x)
    b = basis(x, blocks)  # (H, P)
    # every hypothesis of every kernel at every point: (P, H, K), the points first (the
    # sums over them add whole slices) and the kernels last (long inner loops)
    points_first = b.T[:, :, None]
    y_t = np.ascontiguousarray(y.T)[:, None, :]  # (P, 1, K)
    c0, c1 = _line_fit(points_first, y_t, 1.0 / y_t**2)  # (H, K)
    terms = c1 * points_first
    residual = terms + c0  # in place from here: the values of
    residual -= y_t  # ((c0 + c1 * b - y) / y) ** 2, fewer arrays
    residual /= y_t
    wrss = sum_first(residual * residual)
    usable = np.isfinite(wrss) & ~_rejected(c1, terms, y_t) & (c1 > 0 if growing else True)
    wrss = np.where(usable, wrss, np.inf)
    best = np.argmin(np.where(c0 < 0, negative_constant * wrss, wrss), axis=0)
    rows = np.arange(k)
    chosen = b[best]  # (K, P)
    const_rss = (((y.mean(-1, keepdims=True) - y) / y) ** 2).sum(-1)
    held_out = None
    if parsimony == "bic":
        tiny = np.finfo(float).tiny
        term_score = n * np.log(np.maximum(wrss[best, rows], tiny) / n) + 2 * np.log(n)
        const_score = n * np.log(np.maximum(const_rss, tiny) / n) + np.log(n)
    else:
        term_score = _loo_score(chosen, y)
        others = (y.sum(-1, keepdims=True) - y) / (n - 1)
        const_score = (((others - y) / y) ** 2).sum(-1)
        held_out = (term_score, const_score)
    # the winners refitted with weights 1/y, as a correction of the relative fit (exact
    # data keep their exact coefficients)
    won0, won1 = c0[best, rows], c1[best, rows]
    d0, d1 = _line_fit(chosen.T, (y - won0[:, None] - won1[:, None] * chosen).T, (1.0 / y).T)
    refit = np.isfinite(d0) & np.isfinite(d1) & ((won1 + d1) * won1 > 0)
    c0[best, rows] = np.where(refit, won0 + d0, won0)
    c1[best, rows] = np.where(refit, won1 + d1, won1)
    keep = np.isfinite(wrss[best, rows]) & (term_score < const_score)
    if within_noise and noise is not None and n > 1:
        with np.errstate(divide="ignore", invalid="ignore"):
            flat = const_rss / noise <= chi2_quantile(np.full(k, n - 1.0))
        keep &= ~(flat & np.isfinite(noise))
    pick = np.where(keep, best + 1, 0)
    scores = np.concatenate([const_score[:, None], np.full((k, len(blocks)), np.inf)], axis=1)
    scores[rows, best + 1] = term_score
    result = _selection(pick, blocks, y, c0.T, c1.T, scores)
    if two_terms and held_out is not None and n > 3:
        rss = np.where(keep, wrss[best, rows], const_rss)
        result = _with_pairs(
            result, b, blocks, y, np.where(keep, *held_out), rss, n - 1 - keep, noise,
            negative_constant,
        )  # fmt: skip
    rounding = np.abs(result.c0) < ROUNDING_CONSTANT * y.min(-1)
    return replace(result, c0=np.where(rounding, 0.0, result.c0)).scaled(scale)


def _with_pairs(
    chosen: Selection,
    b: np.ndarray,
    blocks: np.ndarray,
    y: np.ndarray,
    score: np.ndarray,
    rss: np.ndarray,
    dof: np.ndarray,
    noise: np.ndarray | None,
    negative_constant: float,
) -> Selection:
    """``chosen`` with the kernels whose best pair of terms :func:`.two_terms.admit` admits
    replaced by it, its coefficients fitted again with weights ``1/y`` (unless a
    coefficient would not stay above 0)."""
    pairs = pairs_for(blocks)
    if not len(pairs):
        return chosen
    found = fit_pairs(b, y, pairs, MIN_TERM_CONTRIBUTION)
    admitted, best = admit(found, score, rss, dof, noise, negative_constant)
    rows = np.flatnonzero(admitted)
    if not len(rows):
        return chosen
    pair, at = best[rows], np.arange(len(rows))
    refit = fit_pairs(b, y[rows], pairs, MIN_TERM_CONTRIBUTION, power=1.0)
    kept = (refit.c1[pair, at] > 0) & (refit.c2[pair, at] > 0)
    new = {f.name: getattr(chosen, f.name).copy() for f in fields(Selection)}
    for name, final, first in zip(
        ("c0", "c1", "c2"), (refit.c0, refit.c1, refit.c2), (found.c0, found.c1, found.c2),
        strict=True,
    ):  # fmt: skip
        new[name][rows] = np.where(kept, final[pair, at], first[pair, rows])
    new["index"][rows] = blocks[pairs[pair, 0]]
    new["index2"][rows] = blocks[pairs[pair, 1]]
    new["criterion"][rows] = found.score[pair, rows]
    return Selection(**new)
