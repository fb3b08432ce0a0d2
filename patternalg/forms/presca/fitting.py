"""Fitting one candidate function to measurements by its relative error (paper 004, section 3)."""

from __future__ import annotations

import math

import numpy as np

from .candidates import Candidate

__all__ = ["fit_candidate"]

#: a relative residual this small is rounding (a few units in the last place of a double):
#: a first guess that fits every point so closely is kept as it is
_ROUNDING = 8 * np.finfo(float).eps


def fit_candidate(
    function: Candidate, n: np.ndarray, y: np.ndarray, max_iterations: int = 20
) -> np.ndarray | None:
    """Parameters of ``function`` minimising the squared relative error on (n, y), or None.

    None (the paper's NULL) when there are fewer points than free parameters or the fit
    degenerates. The first guess is a linearised least-squares fit (re-weighted for the
    rational functions), sharpened by Levenberg-Marquardt on the relative residuals;
    Nelder-Mead (at most ``max_iterations`` function evaluations per parameter, as the
    paper's fitter) then minimises sum(((f(n) - y) / y)^2) from there. A guess that already
    fits to rounding is kept: the polish would only trade its zeros for terms that cancel
    in the scaled units and not in the caller's (a constant's ExpRat gained b = d = -2e-9).

    >>> import numpy as np
    >>> from patternalg.forms.presca.candidates import CANDIDATES
    >>> n = np.arange(1.0, 9.0)
    >>> theta = fit_candidate(CANDIDATES[0], n, (3 + 2 * n) / (1 + 0.5 * n + 0.01 * n**2))
    >>> np.round(theta, 6).tolist()
    [3.0, 2.0, 0.5, 0.01]
    """
    from scipy.optimize import least_squares, minimize

    n = np.asarray(n, dtype=float)
    y = np.asarray(y, dtype=float)
    free = function.free
    if len(n) < free:
        return None
    n_scale = float(n.max()) if function.scales_n else 1.0
    y_scale = float(np.mean(y))
    t, ys = n / n_scale, y / y_scale
    start = function.initial(t, ys)
    if start is None:
        return None

    relative = function.residuals(t, ys)

    def objective(theta: np.ndarray) -> float:
        r = relative(theta)
        value = float(r @ r)
        return value if math.isfinite(value) else math.inf

    rounding = len(t) * _ROUNDING**2  # a guess this close is kept: see the docstring
    with np.errstate(all="ignore"):
        if rounding < objective(start) < math.inf:
            # Levenberg-Marquardt on the same residuals sharpens the linearised guess
            jacobian = function.jacobian(t, ys)
            try:
                found = least_squares(relative, start, jacobian, method="lm", max_nfev=50 * free)
                if objective(found.x) < objective(start):
                    start = found.x
            except (ValueError, np.linalg.LinAlgError):
                pass
        if rounding < objective(start) < math.inf:
            budget = max_iterations * free
            found = minimize(
                objective,
                start,
                method="Nelder-Mead",
                options={"maxiter": budget, "maxfev": budget, "xatol": 1e-10, "fatol": 1e-16},
            )
            if math.isfinite(found.fun) and found.fun <= objective(start):
                start = found.x
    theta = function.unscale(np.asarray(start, dtype=float), n_scale, y_scale)
    if not np.all(np.isfinite(theta)) or not np.all(np.isfinite(function.values(theta, n))):
        return None
    return theta
