"""Fitting the extended Amdahl model (paper 002, section 3) to measurements (x, p, time).

T_seq is a least-squares polynomial of known degree through the 1-core times; alpha comes
from each point with p > 1 by the correctly solved formula and is aggregated:

* ``mean``: the mean of all alphas; ``clamped-mean``: the mean of alphas clamped to [0, 1];
* ``highest``: the paper's choice, the alphas at the highest core count and, among those,
  the highest predictor value x;
* ``joint``: our addition, all polynomial coefficients and alpha at once by non-linear least
  squares (scipy), weighted for relative error, over every point.

>>> import numpy as np
>>> x = np.repeat([100.0, 200.0, 300.0], 3); p = np.tile([1.0, 4.0, 16.0], 3)
>>> t = (2.0 * x) * (0.9 / p + 0.1)
>>> fit = fit_amdahl(x, p, t, degree=1, method="highest")
>>> round(fit.alpha, 12), (np.round(fit.coefficients, 9) + 0.0).tolist()
(0.9, [0.0, 2.0])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

import numpy as np
import sympy

from ..._internal.surface import flag
from ...algebra.uncertainty import Uncertainty
from ...errors import FitError, MeasurementError
from ...measurements.checks import require_above, require_distinct
from ...syntax.arith import format_expr, number_text
from ...syntax.symbols import x as x_symbol
from ..base import Form
from ..fit_options import uncertainty_method
from ..fitting import Fitter
from .form import Amdahl
from .uncertainty import amdahl_uncertainty

__all__ = [
    "AmdahlFit",
    "alpha_from_times",
    "fit_tseq",
    "point_alphas",
    "aggregate_alpha",
    "fit_joint",
    "fit_amdahl",
    "fit_series",
    "poly_expr",
]

Num = TypeVar("Num")


def alpha_from_times(t_seq: Num, t_p: Num, cores: Num) -> Num:
    """The parallel fraction that explains ``t_p`` on ``cores`` cores: (1 - T_p/T_seq)*p/(p-1).

    This solves T_p = a*T_seq/p + (1 - a)*T_seq for a. (Paper 002 prints
    p/(1-p) * T_p/T_seq, which drops a term.) Works on numbers and numpy arrays; p > 1.

    >>> alpha_from_times(100.0, 32.5, 4.0)
    0.9
    """
    return (1 - t_p / t_seq) * cores / (cores - 1)  # type: ignore[operator, no-any-return]


def poly_expr(coefficients: Sequence[float]) -> sympy.Expr:
    """The polynomial c0 + c1*x + ... as a sympy expression with float coefficients.

    >>> poly_expr([1.5, 0.0, 2.0])
    2.0*x**2 + 1.5
    """
    terms = [
        sympy.Mul(sympy.Float(float(c)), sympy.Pow(x_symbol, i))
        for i, c in enumerate(coefficients)
        if c != 0
    ]
    return sympy.Add(*terms) if terms else sympy.Float(0.0)


def fit_tseq(x: np.ndarray, t: np.ndarray, degree: int) -> np.ndarray:
    """Least-squares polynomial of ``degree`` through (x, t); coefficients c0 .. c_degree.

    >>> fit_tseq(np.array([1.0, 2.0, 3.0]), np.array([3.0, 5.0, 7.0]), 1).round(12).tolist()
    [1.0, 2.0]
    """
    if len(np.unique(x)) < degree + 1:
        raise FitError(f"T_seq of degree {degree} needs {degree + 1} distinct x values at p = 1")
    scale = float(np.max(np.abs(x))) or 1.0
    coefficients = np.polynomial.polynomial.polyfit(x / scale, t, degree)
    return np.asarray(coefficients / scale ** np.arange(degree + 1))


def point_alphas(
    coefficients: np.ndarray, x: np.ndarray, p: np.ndarray, t: np.ndarray
) -> np.ndarray:
    """alpha of each point (p > 1 only) against the fitted T_seq.

    >>> point_alphas(np.array([0.0, 10.0]), np.array([2.0]), np.array([4.0]), np.array([6.5]))
    array([0.9])
    """
    parallel = p > 1
    tseq = np.polynomial.polynomial.polyval(x[parallel], coefficients)
    return np.asarray(alpha_from_times(tseq, t[parallel], p[parallel]))


def aggregate_alpha(x: np.ndarray, p: np.ndarray, alphas: np.ndarray, method: str) -> float:
    """One alpha from the per-point alphas of the points with p > 1 (``x``, ``p`` of those).

    >>> a = np.array([1.4, 0.5, 0.9, 0.92])
    >>> [round(aggregate_alpha(np.array([1., 9, 1, 9]), np.array([2., 2, 8, 8]), a, m), 4)
    ...  for m in ("mean", "clamped-mean", "highest")]
    [0.93, 0.83, 0.92]
    """
    if len(alphas) == 0:
        raise FitError("alpha needs measurements with p > 1")
    if method == "mean":
        return float(np.mean(alphas))
    if method == "clamped-mean":
        return float(np.mean(np.clip(alphas, 0.0, 1.0)))
    if method == "highest":
        top = p == p.max()
        top &= x == x[top].max()
        return float(np.mean(alphas[top]))
    raise FitError(f"unknown alpha aggregation '{method}' (valid: highest, mean, clamped-mean)")


def fit_joint(
    x: np.ndarray, p: np.ndarray, t: np.ndarray, degree: int, start: tuple[np.ndarray, float]
) -> tuple[np.ndarray, float]:
    """All coefficients and alpha by least squares on the relative residuals (model - t)/t.

    ``start`` is the initial (coefficients, alpha); alpha is bounded to [0, 1].
    """
    from scipy.optimize import least_squares

    scale = float(np.max(np.abs(x))) or 1.0
    unit = float(np.max(np.abs(t)))  # times near 1: 1e300 or 1e-300 do not overflow
    t = t / unit
    powers = (x / scale)[:, None] ** np.arange(degree + 1)
    share = lambda a: a / p + 1 - a  # noqa: E731 - the Amdahl factor of T_seq

    def residuals(theta: np.ndarray) -> np.ndarray:
        return (powers @ theta[:-1] * share(theta[-1]) - t) / t

    def jacobian(theta: np.ndarray) -> np.ndarray:
        d_coef = powers * (share(theta[-1]) / t)[:, None]
        d_alpha = (powers @ theta[:-1]) * (1 / p - 1) / t
        return np.column_stack([d_coef, d_alpha])

    coefficients, alpha = start
    theta0 = np.append(
        coefficients / unit * scale ** np.arange(degree + 1), np.clip(alpha, 0.0, 1.0)
    )
    lower = np.append(np.full(degree + 1, -np.inf), 0.0)
    upper = np.append(np.full(degree + 1, np.inf), 1.0)
    try:
        with np.errstate(all="ignore"):
            if not (np.isfinite(residuals(theta0)).all() and np.isfinite(jacobian(theta0)).all()):
                raise ValueError("non-finite residuals")
            result = least_squares(
                residuals, theta0, jac=jacobian, bounds=(lower, upper), x_scale="jac"
            )
    except ValueError:  # scipy's "array must not contain infs or NaNs" on overflow
        raise FitError(
            f"the joint fit of alpha cannot weigh times from {np.min(np.abs(t)) * unit:.3g} to "
            f"{unit:.3g} (relative errors overflow); use {flag('alpha', 'highest', keyword='alpha_method')} or rescale the times"
        ) from None
    theta = result.x
    return theta[:-1] * unit / scale ** np.arange(degree + 1), float(theta[-1])


@dataclass(frozen=True)
class AmdahlFit:
    """A fitted extended Amdahl model: T_seq coefficients (c0 first) and alpha.

    ``alpha_raw`` is the aggregate before it is clipped to [0, 1] (a parallel fraction).
    """

    coefficients: tuple[float, ...]
    alpha: float
    alpha_raw: float
    method: str

    def predict(self, x: np.ndarray | float, p: np.ndarray | float) -> np.ndarray:
        """The modelled time at (x, p)."""
        tseq = np.polynomial.polynomial.polyval(x, np.asarray(self.coefficients))
        return np.asarray(tseq * (self.alpha / np.asarray(p, dtype=float) + 1 - self.alpha))

    def tseq_expr(self) -> sympy.Expr:
        """T_seq as a sympy polynomial in x."""
        return poly_expr(self.coefficients)


def fit_amdahl(x: np.ndarray, p: np.ndarray, t: np.ndarray, degree: int, method: str) -> AmdahlFit:
    """Fit T_seq (degree ``degree``) and alpha (aggregated by ``method``) to (x, p, t)."""
    x, p, t = (np.asarray(v, dtype=float) for v in (x, p, t))
    single = p == 1
    if method == "joint":
        if len(np.unique(x[single])) > degree:
            coefficients = fit_tseq(x[single], t[single], degree)
        else:  # no 1-core points: start from the times as if alpha were 0
            coefficients = fit_tseq(x, t, degree)
        start_alpha = 0.5
        if (p > 1).any():
            alphas = point_alphas(coefficients, x, p, t)
            start_alpha = aggregate_alpha(x[p > 1], p[p > 1], alphas, "highest")
        coefficients, alpha = fit_joint(x, p, t, degree, (coefficients, start_alpha))
        raw = alpha
    else:
        coefficients = fit_tseq(x[single], t[single], degree)
        alphas = point_alphas(coefficients, x, p, t)
        raw = aggregate_alpha(x[p > 1], p[p > 1], alphas, method)
        alpha = min(max(raw, 0.0), 1.0)
    return AmdahlFit(tuple(float(c) for c in coefficients), alpha, raw, method)


# --- one measured series ----------------------------------------------------------------
def _check(series: Any, degree: int, method: str) -> None:
    ones = series.subset(series.column("p") == 1)
    if method != "joint":
        if len(ones) == 0:
            raise FitError(
                f"{series.path}: kernel '{series.kernel}', column 'p': no rows with p = 1 to fit "
                f"T_seq from (measure on 1 core, or use {flag('alpha', 'joint', keyword='alpha_method')})"
            )
        require_distinct(ones, "x", degree + 1, f"T_seq of degree {degree} (rows with p = 1)")
        if not (series.column("p") > 1).any():
            raise FitError(
                f"{series.path}: kernel '{series.kernel}', column 'p': no rows with p > 1 "
                "to estimate alpha from"
            )
    else:
        require_distinct(series, "x", degree + 1, f"T_seq of degree {degree}")
        require_distinct(series, "p", 2, "alpha")


def fit_series(
    series: Any,
    *,
    degree: int | None,
    alpha_method: str,
    aggregate: str,
    unit: str | None = None,
    uncertainty: str = "auto",
) -> tuple[dict[str, Any], dict[str, tuple[float, float]], dict[str, Any], Uncertainty | None]:
    """The model-file values, domain, statistics and uncertainty (by ``uncertainty``:
    :mod:`.uncertainty`) of the model fitted to one series.

    ``unit`` is the measured values' unit: the fit report records it; the fit ignores it.

    The series has the parameter ``p`` and, optionally, ``x`` (without it T_seq is a
    constant); repetitions are aggregated by ``aggregate``.
    """
    method, how = alpha_method, aggregate
    has_x = "x" in series.parameters
    degree = (1 if has_x else 0) if degree is None else degree
    require_above(series, "p", 1.0, strict=False, what="a core count p")
    require_above(series, series.metric, 0.0, strict=True, what=f"the {series.metric}")
    if has_x:
        series = series.over(["x", "p"])
    else:
        series = series.over(["p"])
        series = series.with_column("x", np.ones(len(series)))
    _check(series, degree, method)
    x, p, t = series.column("x"), series.column("p"), series.aggregate(how)
    fit = fit_amdahl(x, p, t, degree, method)
    mse = float(np.mean((fit.predict(x, p) - t) ** 2))
    domain = {"p": (float(p.min()), float(p.max()))}
    if has_x:
        domain["x"] = (float(x.min()), float(x.max()))
    statistics = {
        "mse": mse,
        "points": len(series),
        "degree": degree,
        "alpha_method": fit.method,
        "alpha_raw": fit.alpha_raw,
    }
    spread = amdahl_uncertainty(
        x,
        p,
        series.spread_values,
        degree,
        how,
        uncertainty_method(uncertainty, 1),
        lambda t: fit_amdahl(x, p, t, degree, method),
    )
    return {"alpha": fit.alpha, "tseq": format_expr(fit.tseq_expr())}, domain, statistics, spread


class AmdahlFitter(Fitter):
    """The fit of :class:`~.form.Amdahl`: one series at a time by :func:`fit_series`, from
    the time column; the file must have p (and x for a T_seq of degree 1 or more)."""

    form = Amdahl
    summary: ClassVar[str] = (
        "{atom}: {model}  [amdahl, alpha {alpha_text}{clipped} by {alpha_method}, "
        "T_seq degree {degree}, mse {mse_text} over {points} points]"
    )

    checks_own_values = True  # times > 0, always

    series_fit = fit_series

    @classmethod
    def summary_fields(cls, record: Mapping[str, Any]) -> dict[str, str]:
        """alpha (and the raw estimate it was clipped from) as the closed form prints a
        coefficient, the fit's mean squared error in 4 significant digits."""
        alpha, raw = record["parameters"]["alpha"], record.get("alpha_raw", None)
        clipped = raw is not None and raw != alpha
        return {
            "alpha_text": number_text(alpha),
            "clipped": f" (clipped from {number_text(raw)})" if clipped else "",
            "mse_text": number_text(record["mse"], 4),
        }

    @classmethod
    def value_column(cls, metric: str | None) -> str:
        return metric or "time"

    @classmethod
    def prepare(cls, data: Any, options: Mapping[str, Any]) -> None:
        """The columns the file must have: p, and x for a T_seq of degree 1 or more."""
        from ...measurements.checks import require_columns

        require_columns(data, [["p"]])
        degree = options["degree"]
        if degree and "x" not in data.parameters:
            raise MeasurementError(
                f"missing column 'x' ({flag('degree', str(degree))} needs the predictor value x; "
                f"without x, T_seq is a constant: {flag('degree', '0')})",
                location=data.location(),
            )

    @classmethod
    def source(cls, series: Any, model: Form, options: Mapping[str, Any]) -> str:
        return (
            f"fit of {series.path}, kernel {series.kernel}: extended Amdahl (paper 002), "
            f"alpha by {options['alpha_method']}"
        )
