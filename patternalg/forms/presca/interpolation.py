"""PreSca inside the measured range: a least-squares polynomial (paper 004, section 2)."""

from __future__ import annotations

import numpy as np

from ...errors import FitError

__all__ = ["MAX_DEGREE", "INTERPOLATIONS", "fit_polynomial", "positive_on", "interpolate"]

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


def positive_on(coeffs: np.ndarray, low: float, high: float) -> bool:
    """Whether the polynomial with ``coeffs`` (lowest power first) is positive everywhere on
    [low, high], between the thread counts too: its minimum there is at an end or at a
    stationary point (a real root of its derivative), so it is checked at exactly those.

    >>> import numpy as np
    >>> positive_on(np.array([1.0, -2.0, 1.1]), 0.0, 2.0)   # 1.1 p^2 - 2 p + 1 > 0
    True
    >>> positive_on(np.array([1.0, -2.0, 0.9]), 0.0, 2.0)   # negative near p = 1.1
    False
    """
    from numpy.polynomial import Polynomial

    largest = float(np.max(np.abs(coeffs)))
    if not 0 < largest < np.inf:  # 1/value beyond a double's range, or all zero
        return False
    polynomial = Polynomial(np.asarray(coeffs) / largest)  # the same signs, no underflow
    scaled = polynomial.convert(domain=[low, high]) if high > low else polynomial
    roots = scaled.deriv().roots() if len(coeffs) > 2 else np.array([])
    inside = [r.real for r in roots if low < r.real < high]
    return bool(np.all(polynomial(np.array([low, high, *inside])) > 0))


def interpolate(
    n: np.ndarray, y: np.ndarray, higher_is_better: bool, how: str
) -> tuple[tuple[float, ...], bool, str]:
    """The interpolating polynomial, whether it is of 1/y, and a note when it is not the
    first choice (the paper's degree min(6, m - 2), of 1/y for ``auto`` on a time).

    ``auto`` interpolates a lower-is-better metric (a time) in its inverse, a rate: times
    fall like 1/p, which no low-degree polynomial follows, while rates are smooth (on the
    benchmark's workloads the share with a 90th-percentile error below 15 % rises from
    50 % to 100 % with 6 and with 8 measurements), and falls back to the polynomial of
    the values. Every polynomial must be positive over the whole measured range, between
    the counts too (:func:`positive_on`; the prediction is a function of p
    everywhere); where none of the paper's degree is, the highest lower degree that is
    applies (degree 0, the mean, always is).

    >>> import numpy as np
    >>> n = np.arange(1.0, 6.0)
    >>> interpolate(n, 1 / (1 + n), higher_is_better=False, how="auto")[1]
    True
    >>> n, y = np.array([1.0, 2, 4, 8, 16, 32]), np.array([10.0, 16, 16, 27, 16, 7])
    >>> interpolate(n, y, higher_is_better=True, how="poly")[2]
    'poly4 is not positive everywhere in 1..32: poly3 is'
    """
    if how not in INTERPOLATIONS:
        raise FitError(f"unknown interpolation {how!r} (valid: {', '.join(INTERPOLATIONS)})")
    default = (False,) if higher_is_better else (True, False)  # auto: 1/y for a time
    inverses = {"inverse": (True,), "poly": (False,)}.get(how, default)
    top = min(MAX_DEGREE, len(n) - 2)
    coeffs, inverse, degree = next(
        (coeffs, inverse, degree)
        for degree in range(top, -1, -1)
        for inverse in inverses
        for coeffs in [fit_polynomial(n, 1.0 / y if inverse else y, degree)]
        if positive_on(coeffs, float(n[0]), float(n[-1]))
    )
    first, chosen = _named(inverses[0], top), _named(inverse, degree)
    where = f"{n[0]:g}..{n[-1]:g}"
    note = "" if first == chosen else f"{first} is not positive everywhere in {where}: {chosen} is"
    return tuple(map(float, coeffs)), inverse, note


def _named(inverse: bool, degree: int) -> str:
    """``poly3``, or ``1/poly3`` for a polynomial of 1/value."""
    return f"{'1/' if inverse else ''}poly{degree}"
