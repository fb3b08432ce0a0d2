"""PreSca: black-box performance functions of a workload in its thread count p.

Dragojević and Guerraoui (paper 004) predict how a workload scales from a handful of
measurements (p, performance) without a model of its internals:

* inside the measured range, a least-squares polynomial of degree min(6, m - 2);
* beyond it, Algorithm 1: the last ``c`` measurements are checkpoints; every function of
  the kernel of Table 1 is fitted (Nelder-Mead, relative error) to the first ``count``
  measurements for each ``count`` in :data:`SUBSET_COUNTS` up to m - c; candidates that are
  negative or change too abruptly over the target range 1..N (:func:`should_use`) are
  dropped; the lowest mean relative error at the checkpoints wins.

The result is a :class:`PerformanceFunction`, whose closed form is an atomic model in ``p``
(a ``Piecewise``: the polynomial on the measured range, the kernel function elsewhere) and
whose :meth:`~PerformanceFunction.spec` is the ``presca`` table of a model file.

>>> import numpy as np
>>> threads = np.arange(1, 13)
>>> ops = 1000 * threads / (1 + 0.04 * threads + 0.002 * threads**2)   # saturating throughput
>>> result = predict(threads, ops, upto=24, higher_is_better=True)
>>> result.function.kernel.name, round(float(result.function(np.array([24]))[0]))
('Rat12', 7712)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import sympy
from numpy.typing import ArrayLike

from ..arith import format_expr
from ..errors import FitError, Location, MeasurementError, ModelFileError
from ..symbols import p as P
from . import LegacyFitReport as FitReport, spec_keys, spec_number

__all__ = [
    "SUBSET_COUNTS",
    "CHECKPOINTS",
    "X_POW_POS",
    "X_LIN_NEG",
    "KernelFunction",
    "Rational",
    "CubicLn",
    "ExpRat",
    "KERNEL",
    "Candidate",
    "PerformanceFunction",
    "Prediction",
    "Workload",
    "fit_kernel_function",
    "fit_polynomial",
    "should_use",
    "extrapolate",
    "predict",
    "read_performance",
    "build_expr",
    "fit_file",
]

#: sizes of the measurement subsets of Algorithm 1 (the first ``count`` measurements)
SUBSET_COUNTS = (2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32)
#: default number of checkpoints (the measurements with the highest thread counts)
CHECKPOINTS = 4
#: ShouldUseFunc: one more thread may raise the cost at most by (n/(n-1))**X_POW_POS ...
X_POW_POS = 8
#: ... and cut it at most to X_LIN_NEG * (n-1)/n of what it was
X_LIN_NEG = 2.0 / 3.0
#: highest degree of an interpolating polynomial
MAX_DEGREE = 6
#: metric names whose direction is known: True = higher is better
KNOWN_METRICS = {"time": False, "throughput": True, "speedup": True}


# --- the kernel of Table 1 ------------------------------------------------------------------
class KernelFunction:
    """A function type of the kernel: its parameters, values, closed form and first guess.

    Fits run on scaled data (``t = n / n_scale`` where :attr:`scales_n`, ``y / y_scale``)
    so that all parameters are of order one for Nelder-Mead; :meth:`unscale` maps them back.
    """

    name: str = ""
    params: tuple[str, ...] = ()
    scales_n: bool = True

    def values(self, theta: np.ndarray, n: np.ndarray) -> np.ndarray:
        """The function at thread counts ``n`` (vectorised)."""
        raise NotImplementedError

    def initial(self, t: np.ndarray, y: np.ndarray) -> np.ndarray | None:
        """A first guess from a linearised, relatively weighted least-squares problem."""
        raise NotImplementedError

    def residuals(self, t: np.ndarray, y: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        """theta -> relative residuals f(t) / y - 1 (what Nelder-Mead minimises the squares of)."""
        return lambda theta: self.values(theta, t) / y - 1.0

    def jacobian(self, t: np.ndarray, y: np.ndarray) -> Callable[[np.ndarray], np.ndarray] | str:
        """theta -> d residuals / d theta, or scipy's name of a finite-difference scheme."""
        return "2-point"

    def unscale(self, theta: np.ndarray, n_scale: float, y_scale: float) -> np.ndarray:
        """Parameters for unscaled data from those fitted to scaled data."""
        raise NotImplementedError

    def expr(self, theta: Sequence[float]) -> sympy.Expr:
        """The closed form in ``p``."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<kernel function {self.name}>"


def _numbers(theta: Sequence[Any]) -> list[sympy.Expr]:
    """sympy numbers as given (a model file's integers stay exact), floats as Float."""
    return [v if isinstance(v, sympy.Basic) else sympy.Float(float(v)) for v in theta]


def _lstsq(matrix: np.ndarray, rhs: np.ndarray) -> np.ndarray | None:
    if not np.all(np.isfinite(matrix)):
        return None
    solution = np.linalg.lstsq(matrix, rhs, rcond=None)[0]
    return solution if np.all(np.isfinite(solution)) else None


class Rational(KernelFunction):
    """(a0 + a1 n + ... + ak n^k) / (1 + b1 n + ... + bl n^l), e.g. Rat23 = Rational(2, 3).

    >>> Rational(1, 2).params
    ('a0', 'a1', 'b1', 'b2')
    >>> Rational(1, 2).expr([1.0, 2.0, 0.5, 0.25])
    (2.0*p + 1.0)/(0.25*p**2 + 0.5*p + 1)
    """

    def __init__(self, numerator: int, denominator: int) -> None:
        self.numerator = numerator
        self.denominator = denominator
        self.name = f"Rat{numerator}{denominator}"
        self.params = tuple(f"a{i}" for i in range(numerator + 1)) + tuple(
            f"b{i}" for i in range(1, denominator + 1)
        )

    def values(self, theta: np.ndarray, n: np.ndarray) -> np.ndarray:
        a, b = theta[: self.numerator + 1], theta[self.numerator + 1 :]
        with np.errstate(all="ignore"):
            return np.polyval(a[::-1], n) / (1.0 + n * np.polyval(b[::-1], n))

    #: Sanathanan-Koerner re-weightings of the linearised problem
    REWEIGHTINGS = 4

    def initial(self, t: np.ndarray, y: np.ndarray) -> np.ndarray | None:
        # A(t) - y B(t) = y is linear in (a, b); dividing each row by y * (1 + B_previous(t))
        # makes its residual the relative error of the previous iterate (Sanathanan-Koerner)
        num = t[:, None] ** np.arange(self.numerator + 1) / y[:, None]
        den = -(t[:, None] ** np.arange(1, self.denominator + 1))
        matrix = np.hstack([num, den])
        theta = _lstsq(matrix, np.ones_like(t))
        for _ in range(self.REWEIGHTINGS):
            if theta is None:
                return None
            weight = 1.0 / (1.0 + den @ -theta[self.numerator + 1 :])
            better = _lstsq(matrix * weight[:, None], weight)
            if better is None or not np.all(np.isfinite(weight)):
                break
            theta = better
        return theta

    def _powers(self, t: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
        """Powers of t for the numerator (from t^0) and the denominator (from t^1)."""
        powers = t[:, None] ** np.arange(max(self.numerator, self.denominator) + 1)
        top, bottom = powers[:, : self.numerator + 1], powers[:, 1 : self.denominator + 1]
        return top, bottom, self.numerator + 1

    def residuals(self, t: np.ndarray, y: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        top, bottom, split = self._powers(t)

        def relative(theta: np.ndarray) -> np.ndarray:
            return (top @ theta[:split]) / ((1.0 + bottom @ theta[split:]) * y) - 1.0

        return relative

    def jacobian(self, t: np.ndarray, y: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        top, bottom, split = self._powers(t)

        def derivatives(theta: np.ndarray) -> np.ndarray:
            den = (1.0 + bottom @ theta[split:]) * y
            value = (top @ theta[:split]) / den
            return np.hstack([top / den[:, None], -bottom * (value / (den / y))[:, None]])

        return derivatives

    def unscale(self, theta: np.ndarray, n_scale: float, y_scale: float) -> np.ndarray:
        k = self.numerator + 1
        a = theta[:k] * y_scale / n_scale ** np.arange(k)
        b = theta[k:] / n_scale ** np.arange(1, self.denominator + 1)
        return np.concatenate([a, b])

    def expr(self, theta: Sequence[float]) -> sympy.Expr:
        coeffs = _numbers(theta)
        a, b = coeffs[: self.numerator + 1], coeffs[self.numerator + 1 :]
        top = sympy.Add(*[c * P**i for i, c in enumerate(a)])
        bottom = sympy.Add(sympy.Integer(1), *[c * P ** (i + 1) for i, c in enumerate(b)])
        return top / bottom


class CubicLn(KernelFunction):
    """a + b ln(n) + c ln(n)^2 + d ln(n)^3.

    >>> CubicLn().expr([1.0, 2.0, 0.0, 0.5])
    0.5*log(p)**3 + 2.0*log(p) + 1.0
    """

    name = "CubicLn"
    params = ("a", "b", "c", "d")
    scales_n = False

    def values(self, theta: np.ndarray, n: np.ndarray) -> np.ndarray:
        return np.polyval(theta[::-1], np.log(n))

    def initial(self, t: np.ndarray, y: np.ndarray) -> np.ndarray | None:
        return _lstsq(np.log(t)[:, None] ** np.arange(4) / y[:, None], np.ones_like(t))

    def unscale(self, theta: np.ndarray, n_scale: float, y_scale: float) -> np.ndarray:
        return theta * y_scale

    def expr(self, theta: Sequence[float]) -> sympy.Expr:
        return sympy.Add(*[c * sympy.log(P) ** i for i, c in enumerate(_numbers(theta))])


class ExpRat(KernelFunction):
    """(a + b n) / e^(c + d n).

    Only e^-c * (a, b) is identifiable, so fits fix c = 0; a model file may give any c.

    >>> ExpRat().expr([2.0, 1.0, 0.0, 0.1])
    (1.0*p + 2.0)*exp(-0.1*p)
    """

    name = "ExpRat"
    params = ("a", "b", "c", "d")
    #: grid of d (for t = n / n_scale in (0, 1]) searched for the first guess
    D_GRID = np.linspace(-4.0, 8.0, 49)

    def values(self, theta: np.ndarray, n: np.ndarray) -> np.ndarray:
        a, b, c, d = (theta[0], theta[1], 0.0, theta[2]) if len(theta) == 3 else theta
        with np.errstate(all="ignore"):
            return (a + b * n) * np.exp(-(c + d * n))

    def initial(self, t: np.ndarray, y: np.ndarray) -> np.ndarray | None:
        best: tuple[float, np.ndarray] | None = None
        base = np.stack([np.ones_like(t), t], axis=1) / y[:, None]
        for d in self.D_GRID:
            matrix = base * np.exp(-d * t)[:, None]
            ab = _lstsq(matrix, np.ones_like(t))
            if ab is None:
                continue
            residual = float(np.sum((matrix @ ab - 1.0) ** 2))
            if best is None or residual < best[0]:
                best = (residual, np.array([ab[0], ab[1], d]))
        return None if best is None else best[1]

    def unscale(self, theta: np.ndarray, n_scale: float, y_scale: float) -> np.ndarray:
        a, b, d = theta
        return np.array([a * y_scale, b * y_scale / n_scale, 0.0, d / n_scale])

    def expr(self, theta: Sequence[float]) -> sympy.Expr:
        a, b, c, d = _numbers(theta)
        return (a + b * P) * sympy.exp(-(c + d * P))


#: the kernel of Table 1, in the paper's order
KERNEL: tuple[KernelFunction, ...] = (
    Rational(1, 2),
    Rational(2, 2),
    Rational(2, 3),
    Rational(3, 3),
    CubicLn(),
    ExpRat(),
)
_BY_NAME: dict[str, KernelFunction] = {f.name.lower(): f for f in KERNEL}


def _free_params(function: KernelFunction) -> int:
    return 3 if isinstance(function, ExpRat) else len(function.params)


def fit_kernel_function(
    function: KernelFunction, n: np.ndarray, y: np.ndarray, max_iterations: int = 20
) -> np.ndarray | None:
    """Parameters of ``function`` minimising the squared relative error on (n, y), or None.

    None (the paper's NULL) when there are fewer points than free parameters or the fit
    degenerates. The first guess is a linearised least-squares fit (re-weighted for the
    rational functions), sharpened by Levenberg-Marquardt on the relative residuals;
    Nelder-Mead (at most ``max_iterations`` function evaluations per parameter, as the
    paper's fitter) then minimises sum(((f(n) - y) / y)^2) from there.

    >>> import numpy as np
    >>> n = np.arange(1.0, 9.0)
    >>> theta = fit_kernel_function(KERNEL[0], n, (3 + 2 * n) / (1 + 0.5 * n + 0.01 * n**2))
    >>> np.round(theta, 6).tolist()
    [3.0, 2.0, 0.5, 0.01]
    """
    from scipy.optimize import least_squares, minimize

    n = np.asarray(n, dtype=float)
    y = np.asarray(y, dtype=float)
    free = _free_params(function)
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

    with np.errstate(all="ignore"):
        if math.isfinite(objective(start)):
            # Levenberg-Marquardt on the same residuals sharpens the linearised guess
            jacobian = function.jacobian(t, ys)
            try:
                found = least_squares(relative, start, jacobian, method="lm", max_nfev=50 * free)
                if objective(found.x) < objective(start):
                    start = found.x
            except (ValueError, np.linalg.LinAlgError):
                pass
        if math.isfinite(objective(start)):
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


# --- interpolation ----------------------------------------------------------------------------
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


# --- filtering (ShouldUseFunc) ----------------------------------------------------------------
def should_use(values: np.ndarray, higher_is_better: bool) -> bool:
    """ShouldUseFunc of Algorithm 1 on the values at thread counts 1, 2, ..., N.

    Rejects values that are not positive and finite, and abrupt changes: from n-1 to n
    threads the cost (the time; the inverse of a throughput) may drop to no less than
    (2/3)(n-1)/n of what it was and rise to no more than (n/(n-1))^8 of it.

    >>> should_use([10.0, 6.0, 4.5], higher_is_better=False)
    True
    >>> should_use([10.0, 3.0, 2.5], higher_is_better=False)   # 10 -> 3 is faster than 2/3 * 1/2
    False
    >>> should_use([1.0, 3.5, 4.0], higher_is_better=True)     # 3.5x more throughput > 3/2 * 2
    False
    """
    values = np.asarray(values, dtype=float)
    if not np.all(np.isfinite(values)) or np.any(values <= 0):
        return False
    cost = 1.0 / values if higher_is_better else values
    n = np.arange(2, len(cost) + 1, dtype=float)
    previous, current = cost[:-1], cost[1:]
    low = X_LIN_NEG * (n - 1) / n * previous
    high = previous * (n / (n - 1)) ** X_POW_POS
    return bool(np.all((current >= low) & (current <= high)))


# --- the performance function ---------------------------------------------------------------
@dataclass(frozen=True)
class PerformanceFunction:
    """A workload's performance in p: ``polynomial`` on ``p_range``, ``kernel`` elsewhere.

    Either part may be missing (an interpolation-only function covers ``p_range`` only).
    """

    kernel: KernelFunction | None = None
    parameters: tuple[float, ...] = ()
    polynomial: tuple[float, ...] = ()
    p_range: tuple[float, float] | None = None
    #: the polynomial interpolates 1/value (a rate) and the function is its inverse
    inverse: bool = False

    def __call__(self, n: np.ndarray) -> np.ndarray:
        """Values at thread counts ``n``.

        >>> PerformanceFunction(polynomial=(1.0, 2.0), p_range=(1, 4))(np.array([2]))
        array([5.])
        """
        n = np.asarray(n, dtype=float)
        out = np.full(n.shape, np.nan)
        inside = np.zeros(n.shape, dtype=bool)
        if self.polynomial and self.p_range is not None:
            inside = (n >= self.p_range[0]) & (n <= self.p_range[1])
            values = np.polyval(np.asarray(self.polynomial)[::-1], n[inside])
            out[inside] = 1.0 / values if self.inverse else values
        if self.kernel is not None:
            out[~inside] = self.kernel.values(np.asarray(self.parameters), n[~inside])
        return out

    @property
    def name(self) -> str:
        """The kernel function's name, or ``poly<degree>`` for an interpolation only."""
        if self.kernel is not None:
            return self.kernel.name
        degree = f"poly{len(self.polynomial) - 1}"
        return f"1/{degree}" if self.inverse else degree

    def expr(self) -> sympy.Expr:
        """The closed form in ``p`` (a ``Piecewise`` when both parts are present).

        >>> PerformanceFunction(CubicLn(), (1.0, 2.0, 0.0, 0.0)).expr()
        2.0*log(p) + 1.0
        """
        p_range = None if self.p_range is None else tuple(_numbers(self.p_range))
        return _closed_form(
            self.kernel, _numbers(self.parameters), _numbers(self.polynomial), p_range, self.inverse
        )

    def spec(self) -> tuple[tuple[str, Any], ...]:
        """The keys of the ``presca`` table in a model file (see :func:`build_expr`)."""
        keys: list[tuple[str, Any]] = []
        if self.kernel is not None:
            keys.append(("kernel", self.kernel.name))
            named = zip(self.kernel.params, self.parameters, strict=True)
            keys.append(("parameters", {k: float(v) for k, v in named}))
        if self.polynomial and self.p_range is not None:
            keys.append(("interpolation", [float(c) for c in self.polynomial]))
            keys.append(("interpolation_range", [float(v) for v in self.p_range]))
            if self.inverse:
                keys.append(("interpolation_of", "inverse"))
        return tuple(keys)


@dataclass(frozen=True)
class Candidate:
    """One fitted kernel function of Algorithm 1 with the subset it was fitted to."""

    kernel: KernelFunction
    parameters: tuple[float, ...]
    subset: int
    checkpoint_error: float
    usable: bool


@dataclass(frozen=True)
class Prediction:
    """The outcome of PreSca: the function, the winning candidate's facts, all candidates."""

    function: PerformanceFunction
    subset: int | None
    checkpoint_error: float | None
    candidates: tuple[Candidate, ...] = ()


def _as_arrays(n: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Measurements sorted by thread count; distinct counts >= 1 and positive values."""
    n_arr, y_arr = np.asarray(n, dtype=float), np.asarray(y, dtype=float)
    order = np.argsort(n_arr, kind="stable")
    n_arr, y_arr = n_arr[order], y_arr[order]
    if n_arr.shape != y_arr.shape or n_arr.ndim != 1:
        raise FitError(f"{len(n_arr)} thread counts but {len(y_arr)} values")
    repeated = n_arr[1:][np.diff(n_arr) == 0]
    if len(repeated):
        raise FitError(f"thread count {repeated[0]:g} appears twice (average repeated runs first)")
    if len(n_arr) and (n_arr[0] < 1 or not np.all(np.isfinite(y_arr)) or np.any(y_arr <= 0)):
        raise FitError("thread counts must be >= 1 and performance values positive and finite")
    return n_arr, y_arr


def extrapolate(
    n: ArrayLike,
    y: ArrayLike,
    upto: int,
    checkpoints: int = CHECKPOINTS,
    higher_is_better: bool = False,
) -> Prediction:
    """Algorithm 1 (PrescaExtrapolate) on measurements (n, y) for the target range 1..upto.

    >>> import numpy as np
    >>> n = np.arange(1, 13)
    >>> result = extrapolate(n, 5.0 * n / (1 + 0.05 * n), upto=24, higher_is_better=True)
    >>> result.function.kernel.name, result.checkpoint_error < 1e-6
    ('Rat12', True)
    """
    n_arr, y_arr = _as_arrays(n, y)
    if checkpoints < 1:
        raise FitError(f"--checkpoints must be at least 1, got {checkpoints}")
    smallest = min(_free_params(f) for f in KERNEL)
    usable_counts = [c for c in SUBSET_COUNTS if smallest <= c <= len(n_arr) - checkpoints]
    if not usable_counts:
        need = checkpoints + min(c for c in SUBSET_COUNTS if c >= smallest)
        raise FitError(
            f"extrapolation needs at least {need} measurements ({checkpoints} checkpoints and "
            f"a subset of {need - checkpoints} to fit), got {len(n_arr)}"
        )
    check_n, check_y = n_arr[-checkpoints:], y_arr[-checkpoints:]
    targets = np.arange(1, int(upto) + 1, dtype=float)
    candidates: list[Candidate] = []
    for count in usable_counts:
        for function in KERNEL:
            theta = fit_kernel_function(function, n_arr[:count], y_arr[:count])
            if theta is None:
                continue
            error = float(np.mean(np.abs(function.values(theta, check_n) / check_y - 1.0)))
            usable = math.isfinite(error) and should_use(
                function.values(theta, targets), higher_is_better
            )
            candidates.append(Candidate(function, tuple(map(float, theta)), count, error, usable))
    kept = [c for c in candidates if c.usable]
    if not kept:
        raise FitError(
            f"no kernel function fitted to {len(n_arr)} measurements passes the filtering "
            f"heuristics over 1..{upto} threads (negative or too abrupt); "
            "measure more thread counts or lower --upto"
        )
    # lowest checkpoint error; exact ties (noise-free data) go to fewer parameters
    best = min(kept, key=lambda c: (round(c.checkpoint_error, 10), _free_params(c.kernel)))
    return Prediction(
        PerformanceFunction(best.kernel, best.parameters),
        best.subset,
        best.checkpoint_error,
        tuple(candidates),
    )


#: how :func:`predict` interpolates: ``poly`` (the paper's), ``inverse`` (1/value), ``auto``
INTERPOLATIONS = ("auto", "poly", "inverse")


def _interpolate(
    n: np.ndarray, y: np.ndarray, higher_is_better: bool, how: str
) -> tuple[tuple[float, ...], bool]:
    """The interpolating polynomial, and whether it is of 1/y.

    ``auto`` interpolates a lower-is-better metric (a time) in its inverse, a rate: times
    fall like 1/p, which no low-degree polynomial follows, while rates are smooth (on the
    benchmark's workloads the share with a 90th-percentile error below 15 % rises from
    50 % to 100 % with 6 and with 8 measurements). It falls back to the plain polynomial
    where the inverse one is not positive over the measured range.
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


def predict(
    n: ArrayLike,
    y: ArrayLike,
    upto: int,
    checkpoints: int = CHECKPOINTS,
    higher_is_better: bool = False,
    interpolation: str = "auto",
) -> Prediction:
    """PreSca's performance function for 1..upto threads: interpolation and extrapolation.

    Inside the measured range a polynomial of degree min(6, m - 2) applies (of the values,
    or of their inverse: see ``interpolation`` and :func:`_interpolate`); when ``upto`` or
    1 lies outside it, the kernel function chosen by :func:`extrapolate` covers the rest.

    >>> import numpy as np
    >>> n = np.array([1, 2, 4, 6, 8])
    >>> result = predict(n, 50.0 / n + 2, upto=8, interpolation="poly")
    >>> result.function.name, result.checkpoint_error is None
    ('poly3', True)
    >>> exact = predict(n, 1 / (0.5 + 0.25 * n), upto=8)   # 1/time is linear in n
    >>> exact.function.inverse, bool(np.allclose(exact.function(n), 1 / (0.5 + 0.25 * n)))
    (True, True)
    """
    n_arr, y_arr = _as_arrays(n, y)
    if len(n_arr) < 2:
        raise FitError(f"PreSca needs at least 2 measurements, got {len(n_arr)}")
    polynomial, inverse = _interpolate(n_arr, y_arr, higher_is_better, interpolation)
    p_range = (float(n_arr[0]), float(n_arr[-1]))
    if p_range[0] <= 1 and upto <= p_range[1]:
        function = PerformanceFunction(polynomial=polynomial, p_range=p_range, inverse=inverse)
        return Prediction(function, None, None)
    outer = extrapolate(n_arr, y_arr, upto, checkpoints, higher_is_better)
    function = PerformanceFunction(
        outer.function.kernel, outer.function.parameters, polynomial, p_range, inverse
    )
    return Prediction(function, outer.subset, outer.checkpoint_error, outer.candidates)


# --- measurements ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Workload:
    """Measured performance of one workload: thread counts, values, and the direction."""

    name: str
    p: np.ndarray
    value: np.ndarray
    metric: str
    higher_is_better: bool
    unit: str | None = None  # the value column's unit, if its name states one

    def table(self) -> dict[int, float]:
        """Thread count -> performance."""
        return {int(k): float(v) for k, v in zip(self.p, self.value, strict=True)}


def _direction(metric: str, higher_is_better: bool | None, where: str) -> bool:
    known = KNOWN_METRICS.get(metric)
    if known is not None and higher_is_better is not None and known != higher_is_better:
        better = "higher" if known else "lower"
        raise MeasurementError(f"{where}: for column '{metric}' {better} is better by definition")
    if known is not None:
        return known
    if higher_is_better is None:
        raise MeasurementError(
            f"{where}: is a higher '{metric}' better or worse? "
            "say --higher-is-better or --lower-is-better"
        )
    return higher_is_better


def read_performance(
    path: str | Path, metric: str | None = None, higher_is_better: bool | None = None
) -> list[Workload]:
    """Workloads from a CSV with ``p`` and a value column (``kernel`` optional).

    The value column is ``time`` (lower is better), ``throughput`` or ``speedup`` (higher
    is better), or ``metric`` with an explicit ``higher_is_better``. Thread counts must be
    positive whole numbers, values positive; repeated thread counts are averaged (repeated
    runs, as the paper averages 10 runs).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "bench.csv")
    >>> _ = open(path, "w").write("p,throughput\\n1,10\\n2,19\\n2,21\\n4,35\\n")
    >>> [(w.name, w.table(), w.higher_is_better) for w in read_performance(path)]
    [('bench', {1: 10.0, 2: 20.0, 4: 35.0}, True)]
    """
    from ..measurements import atom_names, read
    from ..measurements.checks import first_bad, require_columns
    from ..measurements.names import split_unit

    name = str(path)

    def known(columns: tuple[str, ...]) -> str:
        present = [c for c in columns if split_unit(c)[0].lower() in KNOWN_METRICS]
        if len(present) != 1:
            found = f"several ({', '.join(present)}); choose one" if present else "none"
            raise MeasurementError(
                f"value column: {found} (name it time, throughput or speedup, "
                "or pass --metric NAME)",
                location=Location(name),
            )
        return present[0]

    ms = read(path, "csv", value=metric.strip().lower() if metric is not None else known)
    require_columns(ms, [["p"]])
    metric = split_unit(ms.value_name)[0].lower()  # time[s] is a time, in s
    better = _direction(metric, higher_is_better, name)
    for s in ms:
        bad = first_bad(s, "p", lambda p: (p < 1) | (p != np.floor(p)))
        if bad is not None:
            raise MeasurementError(
                f"column 'p': {bad[1]:g} is not a thread count (a whole number >= 1)",
                location=Location(name, bad[0]),
            )
        bad = first_bad(s, metric, lambda v: v <= 0)
        if bad is not None:
            raise MeasurementError(
                f"column '{metric}': {bad[1]:g} is not positive "
                "(performance must be > 0: PreSca's errors are relative)",
                location=Location(name, bad[0]),
            )
    labels = [s.kernel if "kernel" in ms.columns else Path(name).stem for s in ms]
    workloads = []
    for s, atom in zip(ms, atom_names(labels), strict=True):
        threads = s.over(["p"])
        workloads.append(
            Workload(
                atom, threads.column("p").astype(int), threads.aggregate(), metric, better, ms.unit
            )
        )
    return workloads


# --- model files ------------------------------------------------------------------------------
def build_expr(spec: Mapping[str, Any], where: str) -> sympy.Expr:
    """The closed form in p of a ``presca`` model-file table.

    Keys: ``kernel`` (Rat12, Rat22, Rat23, Rat33, CubicLn, ExpRat) with ``parameters`` (a
    table of the kernel's parameters in Table 1's names), and/or ``interpolation`` (the
    polynomial's coefficients, lowest power first) with ``interpolation_range`` ([low, high])
    and ``interpolation_of`` (``value``, the default, or ``inverse``: the polynomial is of
    1/value).

    >>> build_expr({"kernel": "Rat12", "parameters": {"a0": 1, "a1": 2, "b1": 0, "b2": 0.5}}, "m")
    (2*p + 1)/(0.5*p**2 + 1)
    >>> build_expr({"kernel": "Rat21"}, "models.w")
    Traceback (most recent call last):
    ...
    patternalg.errors.ModelFileError: models.w.kernel: unknown kernel function 'Rat21' (valid: ...)
    """
    spec_keys(
        spec,
        where,
        [],
        ["kernel", "parameters", "interpolation", "interpolation_range", "interpolation_of"],
    )
    kernel: KernelFunction | None = None
    parameters: tuple[float, ...] = ()
    if "kernel" in spec:
        kernel = _BY_NAME.get(str(spec["kernel"]).lower())
        if kernel is None:
            raise ModelFileError(
                f"{where}.kernel: unknown kernel function {spec['kernel']!r} "
                f"(valid: {', '.join(f.name for f in KERNEL)})"
            )
        table = spec.get("parameters")
        if not isinstance(table, Mapping) or sorted(table) != sorted(kernel.params):
            raise ModelFileError(
                f"{where}.parameters: {kernel.name} needs a table of exactly "
                f"{', '.join(kernel.params)}"
            )
        parameters = tuple(spec_number(table, k, f"{where}.parameters") for k in kernel.params)
    polynomial: tuple[sympy.Expr, ...] = ()
    p_range: tuple[sympy.Expr, sympy.Expr] | None = None
    if ("interpolation" in spec) != ("interpolation_range" in spec):
        raise ModelFileError(f"{where}: interpolation and interpolation_range go together")
    if "interpolation" in spec:
        polynomial = _numbers_list(spec, "interpolation", where, "a list of coefficients")
        bounds = _numbers_list(spec, "interpolation_range", where, "[low, high]", length=2)
        low, high = bounds
        if low > high:
            raise ModelFileError(f"{where}.interpolation_range: low {low} is above high {high}")
        p_range = (low, high)
    if kernel is None and not polynomial:
        raise ModelFileError(f"{where}: a presca model needs 'kernel' or 'interpolation'")
    of = spec.get("interpolation_of", "value")
    if of not in ("value", "inverse"):
        raise ModelFileError(f"{where}.interpolation_of: {of!r} (valid: value, inverse)")
    return _closed_form(kernel, parameters, polynomial, p_range, of == "inverse")


def _numbers_list(
    spec: Mapping[str, Any], key: str, where: str, expected: str, length: int | None = None
) -> tuple[sympy.Expr, ...]:
    """A non-empty list of numbers (of ``length`` if given) under ``key``."""
    values = spec[key]
    if not isinstance(values, list) or not values or length not in (None, len(values)):
        raise ModelFileError(f"{where}.{key}: expected {expected}")
    items = {str(i): v for i, v in enumerate(values)}
    return tuple(spec_number(items, str(i), f"{where}.{key}") for i in range(len(values)))


def _closed_form(
    kernel: KernelFunction | None,
    parameters: Sequence[sympy.Expr],
    polynomial: Sequence[sympy.Expr],
    p_range: Sequence[sympy.Expr] | None,
    inverse: bool = False,
) -> sympy.Expr:
    """Piecewise(polynomial on p_range, kernel function elsewhere), or whichever is present;
    with ``inverse`` the polynomial is of 1/value and the function uses its inverse."""
    outer = kernel.expr(parameters) if kernel is not None else None
    if not polynomial or p_range is None:
        assert outer is not None
        return outer
    poly = sympy.Add(*[c * P**i for i, c in enumerate(polynomial)])
    if inverse:
        poly = sympy.Pow(poly, -1)
    if outer is None:
        return poly
    return sympy.Piecewise((poly, sympy.And(P >= p_range[0], P <= p_range[1])), (outer, True))


def fit_model(
    workload: Workload,
    upto: int,
    checkpoints: int = CHECKPOINTS,
    unit: str | None = None,
    interpolation: str = "auto",
) -> FitReport:
    """PreSca on one workload, as an atomic model with its facts in ``fit``.

    ``unit`` (``--unit``) defaults to the value column's unit, else ``ns`` for a time and
    ``dimensionless`` otherwise.
    """
    from ..library import AtomicModel
    from ..units import measured_unit

    result = predict(
        workload.p, workload.value, upto, checkpoints, workload.higher_is_better, interpolation
    )
    function = result.function
    stats: list[tuple[str, Any]] = [
        ("kernel", function.name),
        ("metric", workload.metric),
        ("measurements", len(workload.p)),
    ]
    if result.subset is not None:
        stats += [
            ("subset", result.subset),
            ("checkpoints", checkpoints),
            ("checkpoint_error", result.checkpoint_error),
        ]
    model = AtomicModel(
        name=workload.name,
        expr=function.expr(),
        unit=measured_unit(workload.metric, workload.unit, unit, workload.name),
        source=f"PreSca (paper 004) on {len(workload.p)} measurements",
        form="presca",
        spec=function.spec(),
        fit=tuple(stats),
    )
    targets = np.arange(1, upto + 1)
    values = function(targets)
    error = result.checkpoint_error
    summary = (
        f"{workload.name}: {function.name}"
        + (
            f" on the first {result.subset}, checkpoint error {error:.2%}"
            if error is not None
            else " (interpolation)"
        )
        + f"; predicted {workload.metric} at p={upto}: {values[-1]:.6g}"
    )
    record = {
        "workload": workload.name,
        "kernel": function.name,
        "model": format_expr(function.expr()),
        "subset": result.subset,
        "checkpoint_error": error,
        "predictions": [
            {"p": int(t), "value": float(v)} for t, v in zip(targets, values, strict=True)
        ],
    }
    return FitReport(model=model, summary=summary, record=record)


def fit_file(path: str | Path, args: Any) -> list[FitReport]:
    """``patternalg fit FILE --form presca`` (and ``predict``): one report per workload.

    Reads ``args.metric``, and if present ``args.upto`` (default twice the highest measured
    thread count), ``args.checkpoints``, ``args.higher_is_better`` and ``args.interpolate``.
    """
    workloads = read_performance(
        path, getattr(args, "metric", None), getattr(args, "higher_is_better", None)
    )
    checkpoints = getattr(args, "checkpoints", None)
    checkpoints = CHECKPOINTS if checkpoints is None else checkpoints
    if checkpoints < 1:
        raise FitError(f"--checkpoints must be at least 1, got {checkpoints}")
    reports = []
    for workload in workloads:
        upto = getattr(args, "upto", None)
        upto = 2 * int(workload.p.max()) if upto is None else upto
        if upto < 1:
            raise FitError(f"--upto must be at least 1, got {upto}")
        reports.append(
            fit_model(
                workload,
                upto,
                checkpoints,
                getattr(args, "unit", None),
                getattr(args, "interpolate", None) or "auto",
            )
        )
    return reports
