"""The uncertainty of a memory-wall fit, by the delta method.

The closed form is not linear in its parameters ``theta = (f, k, m1, m2)``, and the
annealing that fits them is too slow to repeat for a bootstrap. So the fit is linearised at
its optimum: ``J`` holds the partial derivatives of the speedup by each parameter at the
measured points (central differences), the parameters' covariance is
:func:`~patternalg.forms.spread.linear_covariance` in that basis (the repetitions'
infinitesimal jackknife of the measured speedups plus the residuals' ``sigma^2 (J^T J)^-1``),
and the terms are the partial derivatives of the model (``1/S_p``) by each parameter, as
central differences of closed forms, so that they print and parse as any model does. A
parameter the data cannot pin down (``J^T J`` singular, say ``k = 0`` where ``m1`` and
``m2`` do nothing) leaves the model without an uncertainty.

>>> import numpy as np
>>> from patternalg.forms.memwall.fit import SpeedupModel
>>> p = np.array([1.0, 2, 4, 8, 16, 1, 2, 4, 8, 16]); phi = np.repeat([1.0, 2.0], 5)
>>> model = SpeedupModel(p, phi)
>>> truth = model(np.array([[0.95, 1.0, 0.1, 0.5]]))[0]
>>> noise = 1 + 0.01 * np.random.default_rng(0).standard_normal((10, 4))
>>> u = memwall_uncertainty((0.95, 1.0, 0.1, 0.5), p, phi, truth[:, None] * noise, "mean", True, model)
>>> len(u.terms), u.method, u.repetitions
(4, 'linear', 4)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import sympy

from ...algebra.uncertainty import Uncertainty
from ...measurements.model import Aggregation
from ..spread import aggregate_variance, linear_covariance, series_noise
from .form import memwall_expr

__all__ = ["memwall_uncertainty"]

#: the relative step of the central differences
STEP = 1e-6


def _steps(theta: np.ndarray) -> np.ndarray:
    return STEP * np.maximum(np.abs(theta), 1e-3)


def memwall_uncertainty(
    theta: Sequence[float],
    p: np.ndarray,
    phi: np.ndarray,
    values: Sequence[np.ndarray],
    how: str,
    speedup: bool,
    speedups: Callable[[np.ndarray], np.ndarray],
) -> Uncertainty | None:
    """The uncertainty of the memwall fit ``theta`` (f, k, m1, m2) to the repetitions
    ``values`` at ``(p, phi)`` (speedups if ``speedup``, else times, turned into speedups
    against the 1-core time at the same phi), aggregated by ``how``; ``speedups`` gives
    the modelled speedups at those points of parameter sets (n, 4) -> (n, points). None
    without repetitions, or if a parameter is not identifiable."""
    noise, repetitions, repeated = series_noise(values)
    if not repeated:
        return None
    center = np.asarray(theta, dtype=float)
    repeats = [np.asarray(v, dtype=float) for v in values]
    y = np.array([Aggregation(how).reduce(v) for v in repeats])
    variance = np.array([aggregate_variance(v, how) for v in repeats])
    if not speedup:  # s_i = t_1 / t_i: relative variances add (t_1 independent of t_i)
        first = _single_index(p, phi)
        relative = variance / (y * y)
        y = y[first] / y
        own = first == np.arange(len(y))  # the 1-core point itself: exactly 1
        variance = np.where(own, 0.0, y * y * (relative + relative[first]))
    h = _steps(center)
    shifted = center + np.diag(h)[:, None, :] * np.array([1.0, -1.0])[None, :, None]  # (4, 2, 4)
    modelled = speedups(shifted.reshape(-1, 4)).reshape(4, 2, -1)
    jacobian = ((modelled[:, 0] - modelled[:, 1]) / (2 * h[:, None])).T  # (P, 4)
    fitted = speedups(center[None])[0]
    covariance = linear_covariance(
        jacobian[None], y[None], np.ones((1, len(y))), variance[None], residual=(y - fitted)[None]
    )[0]
    if not np.isfinite(covariance).all():
        return None
    terms = tuple(
        sympy.Mul(
            sympy.Add(
                memwall_expr(*(center + step).tolist()),
                sympy.Mul(-1, memwall_expr(*(center - step).tolist())),
            ),
            sympy.Float(1 / (2 * h[i])),
        )
        for i, step in enumerate(np.diag(h))
    )
    return Uncertainty(terms, tuple(map(tuple, covariance.tolist())), repetitions, noise, "linear")


def _single_index(p: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """For each point, the index of the 1-core point at its phi."""
    ones = {float(r): int(i) for i, (q, r) in enumerate(zip(p, phi, strict=True)) if q == 1}
    return np.array([ones[float(r)] for r in phi])
