"""The uncertainty of an extended Amdahl fit.

The closed form ``T_seq(x) * (alpha/p + 1 - alpha)`` with ``T_seq = sum_k c_k x^k`` is
linear in ``a_k = c_k (1 - alpha)`` and ``b_k = c_k alpha``: the terms are ``x^k`` and
``x^k/p``, and every fitted model lies in their span, so the perturbation is exact.

* ``bootstrap``: each point's repetitions resampled :data:`~patternalg.forms.spread.DRAWS`
  times, aggregated and fitted again (T_seq and alpha, by the same method); the covariance
  is the second moments of the draws' ``(a, b)`` around the fit's;
* ``linear``: :func:`~patternalg.forms.spread.linear_covariance` in that basis (the
  repetitions' infinitesimal jackknife, the residuals of the fit), as if ``a`` and ``b``
  were free: a little wider than the fit, whose ``b_k/a_k`` is one ratio.

>>> x = np.repeat([100.0, 200.0], 3); p = np.tile([1.0, 4.0, 16.0], 2)
>>> times = [(2 * xv) * (0.9 / pv + 0.1) * np.array([0.98, 1.0, 1.02]) for xv, pv in zip(x, p)]
>>> from patternalg.forms.amdahl.fit import fit_amdahl
>>> def refit(t):
...     return fit_amdahl(x, p, t, 1, "highest")
>>> u = amdahl_uncertainty(x, p, times, 1, "median", "bootstrap", refit)
>>> u.terms, u.repetitions
((1, x, 1/p, x/p), 3)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ...algebra.uncertainty import Uncertainty
from ...errors import FitError
from ...measurements.model import Aggregation
from ...syntax.symbols import p as p_symbol
from ...syntax.symbols import x as x_symbol
from ..spread import DRAWS, aggregate_variance, linear_covariance, resampled, series_noise

__all__ = ["amdahl_uncertainty"]


def _linear_parameters(coefficients: Sequence[float], alpha: float) -> np.ndarray:
    """``(a_0 .. a_K, b_0 .. b_K)`` of a fit."""
    c = np.asarray(coefficients, dtype=float)
    return np.concatenate([c * (1 - alpha), c * alpha])


def amdahl_uncertainty(
    x: np.ndarray,
    p: np.ndarray,
    values: Sequence[np.ndarray],
    degree: int,
    how: str,
    uncertainty: str,
    refit: Callable[[np.ndarray], Any],
) -> Uncertainty | None:
    """The uncertainty of the Amdahl fit ``refit`` (aggregated times at the points ``(x,
    p)`` -> its ``AmdahlFit``, T_seq of ``degree``) to the repetitions ``values``,
    aggregated by ``how``; by ``uncertainty`` (bootstrap, linear, none). None without
    repetitions, or when fewer than nine in ten draws of the bootstrap can be fitted."""
    noise, repetitions, repeated = series_noise(values)
    if uncertainty == "none" or not repeated:
        return None
    powers = [x_symbol**k for k in range(degree + 1)]
    terms = (*powers, *(power / p_symbol for power in powers))
    repeats = [np.asarray(v, dtype=float) for v in values]
    aggregated = resampled([repeats], how)[0] if uncertainty == "bootstrap" else None
    y = np.array([Aggregation(how).reduce(v) for v in repeats])
    fit = refit(y)
    center = _linear_parameters(fit.coefficients, fit.alpha)
    if aggregated is not None:
        draws = []
        for drawn in aggregated:
            try:
                again = refit(drawn)
            except FitError:
                continue
            draws.append(_linear_parameters(again.coefficients, again.alpha) - center)
        if len(draws) < 0.9 * DRAWS:
            return None
        deltas = np.array(draws)
        covariance = deltas.T @ deltas / len(deltas)
    else:
        basis = np.column_stack([x**k for k in range(degree + 1)])
        basis = np.column_stack([basis, basis / p[:, None]])
        variance = np.array([aggregate_variance(v, how) for v in repeats])
        covariance = linear_covariance(
            basis[None],
            y[None],
            np.ones((1, len(y))),
            variance[None],
            residual=(y - fit.predict(x, p))[None],
        )[0]
    if not np.isfinite(covariance).all():
        return None
    return Uncertainty(
        terms, tuple(map(tuple, covariance.tolist())), repetitions, noise, uncertainty
    )
