"""The uncertainty of one-parameter PMNF fits, for a batch of kernels at once.

The chosen hypothesis ``c0 + c1 * b(x)`` is linear in its coefficients, so its
uncertainty's terms are its basis ``(1, b)`` (``(1,)`` for a constant model) and the
perturbation is exact; the covariance is :func:`~patternalg.forms.spread.linear_covariance`
with the weights the modeler's final fit used (``default``: ``1/y``; ``basic`` and the
constant model: none).

>>> x = np.array([4.0, 8, 16, 32, 64])
>>> values = (3 + 0.5 * x)[None, :, None] * np.array([0.99, 1.0, 1.01])
>>> (u,) = uncertainties(x, values, values.mean(-1), [18], ["default"], "mean", "x")
>>> u.terms, u.repetitions, u.method
((1, x), 3, 'infinitesimal-jackknife')
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import sympy

from ...algebra.normal_forms.blocks import BUILDING_BLOCKS
from ...algebra.uncertainty import Uncertainty
from ...syntax.symbols import log2, symbol
from ..spread import aggregate_variance, linear_covariance, median_noise, repetitions_of
from .default import basis

__all__ = ["uncertainties", "METHOD", "kernel_variances"]

#: the ``method`` the uncertainties of fits from repetitions state
METHOD = "infinitesimal-jackknife"


@functools.cache
def _terms(var: str, index: int) -> tuple[sympy.Expr, ...]:
    """The basis of hypothesis ``index`` in ``var``: ``(1,)`` or ``(1, x^i*log2(x)^j)``."""
    one = sympy.Integer(1)
    if index < 0:
        return (one,)
    i, j = BUILDING_BLOCKS[index]
    x = symbol(var)
    return (one, x ** sympy.Rational(i) * log2(x) ** j)


def kernel_variances(
    values: np.ndarray | Sequence[Sequence[np.ndarray]], how: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per kernel and point: the variance of the aggregate, the median, the repetitions;
    and whether the kernel has repetitions at all. ``values`` is (K, P, R), or per kernel
    per point an array of its repetitions (their counts may differ)."""
    if isinstance(values, np.ndarray):
        k, p, r = values.shape
        counts = np.full((k, p), r)
        variance, medians = aggregate_variance(values, how), np.median(values, axis=-1)
    else:
        counts = np.array([[len(v) for v in kernel] for kernel in values])
        variance = np.array([[aggregate_variance(v, how) for v in kernel] for kernel in values])
        medians = np.array([[np.median(v) for v in kernel] for kernel in values])
    return variance, medians, counts, (counts > 1).any(-1)


def _noise(values: np.ndarray | Sequence[Sequence[np.ndarray]], medians: np.ndarray) -> np.ndarray:
    if isinstance(values, np.ndarray):
        return median_noise(values, medians)
    return np.array(
        [
            float(np.sqrt(np.mean([median_noise(v[None, None], m[None, None])[0] ** 2
                                   for v, m in zip(kernel, np.atleast_1d(med), strict=True)])))
            for kernel, med in zip(values, medians, strict=True)
        ]
    )


def uncertainties(
    x: np.ndarray,
    values: np.ndarray | Sequence[Sequence[np.ndarray]],
    y: np.ndarray,
    index: Sequence[int],
    modeler: Sequence[str],
    how: str,
    var: str,
) -> list[Uncertainty | None]:
    """The uncertainty of each kernel's chosen hypothesis ``index[k]`` (fitted by
    ``modeler[k]`` to its aggregated values ``y[k]`` at ``x``), from its repetitions
    ``values``; None for a kernel measured once per point, or whose fit is singular."""
    variance, medians, counts, repeated = kernel_variances(values, how)
    noise = _noise(values, medians)
    reps = repetitions_of(counts)
    chosen = np.asarray(index, dtype=np.intp)
    block = basis(x, np.maximum(chosen, 0))  # (K, P)
    ones = np.ones_like(y)
    weighted = np.array([m == "default" for m in modeler]) & (chosen >= 0)
    weights = np.where(weighted[:, None], 1.0 / np.where(y > 0, y, 1.0), 1.0)
    result: list[Uncertainty | None] = [None] * len(y)
    for constant in (True, False):
        rows = np.flatnonzero((chosen < 0) == constant)
        if not len(rows):
            continue
        columns = [ones[rows]] if constant else [ones[rows], block[rows]]
        covariance = linear_covariance(
            np.stack(columns, axis=-1), y[rows], weights[rows], variance[rows]
        )
        finite = np.isfinite(covariance).all((-1, -2)) & np.isfinite(noise[rows])
        for k, matrix, ok in zip(rows.tolist(), covariance.tolist(), finite.tolist(), strict=True):
            if ok and repeated[k]:
                result[k] = Uncertainty(
                    _terms(var, int(chosen[k])),
                    tuple(map(tuple, matrix)),
                    int(reps[k]),
                    float(noise[k]),
                    METHOD,
                )
    return result
