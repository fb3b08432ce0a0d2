"""PreSca inside the measured range: a least-squares polynomial (paper 004, section 2)."""

from __future__ import annotations

import numpy as np

from ...errors import FitError

__all__ = ["MAX_DEGREE", "INTERPOLATIONS", "fit_polynomial", "interpolate"]

#: highest degree of an interpolating polynomial
MAX_DEGREE = 6
#: how :func:`interpolate` works: ``poly`` (the paper's), ``inverse`` (1/value), ``auto``
INTERPOLATIONS = ("auto", "poly", "inverse")


def fit_polynomial(n: np.ndarray, y: np.ndarray, degree: int | None = None) -> np.ndarray:
    """Least-squares polynomial coefficients (lowest power first) of degree min(6, m - 2).

    >>> import numpy as np
    >>> np.round(fit_polynomial(np.arange(1.0, 6.0), [5.0, 8.0, 13.0, 20.0, 29.0]), 9) + 0.0
    array([4., 0., 1., 0.])
    """
    from numpy.polynomial import Polynomial

    n = np.asarray(n, dtype=float)
    if degree is None:
        degree = min(MAX_DEGREE, len(n) - 2)
    if degree < 0 or len(n) < 2:
        raise FitError(f"interpolation needs at least 2 measurements, got {len(n)}")
    fitted = Polynomial.fit(n, np.asarray(y, dtype=float), degree)
    coeffs = fitted.convert().coef
    return np.pad(coeffs, (0, degree + 1 - len(coeffs)))


def interpolate(
    n: np.ndarray, y: np.ndarray, higher_is_better: bool, how: str
) -> tuple[tuple[float, ...], bool]:
    """The interpolating polynomial, and whether it is of 1/y.

    ``auto`` interpolates a lower-is-better metric (a time) in its inverse, a rate: times
    fall like 1/p, which no low-degree polynomial follows, while rates are smooth (on the
    benchmark's workloads the share with a 90th-percentile error below 15 % rises from
    50 % to 100 % with 6 and with 8 measurements). It falls back to the plain polynomial
    where the inverse one is not positive over the measured range.

    >>> import numpy as np
    >>> n = np.arange(1.0, 6.0)
    >>> interpolate(n, 1 / (1 + n), higher_is_better=False, how="auto")[1]
    True
    """
    if how not in INTERPOLATIONS:
        raise FitError(f"unknown interpolation {how!r} (valid: {', '.join(INTERPOLATIONS)})")
    if how == "inverse" or (how == "auto" and not higher_is_better):
        coeffs = fit_polynomial(n, 1.0 / y)
        grid = np.arange(n[0], n[-1] + 1.0)
        if np.all(np.polyval(coeffs[::-1], grid) > 0):
            return tuple(map(float, coeffs)), True
        if how == "inverse":
            raise FitError("the interpolating polynomial of 1/value is not positive; use poly")
    return tuple(map(float, fit_polynomial(n, y))), False
