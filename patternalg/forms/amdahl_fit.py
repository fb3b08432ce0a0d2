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

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import sympy

from ..arith import format_expr
from ..errors import FitError
from ..inputs import check_columns, column_warnings
from ..library import AtomicModel
from ..measurements import Series, read
from ..measurements.checks import require_above, require_columns, require_distinct
from ..symbols import x as x_symbol
from ..units import measured_unit
from . import FitReport
from .amdahl import alpha_from_times, build_expr

__all__ = [
    "ALPHA_METHODS",
    "AmdahlFit",
    "fit_tseq",
    "point_alphas",
    "aggregate_alpha",
    "fit_joint",
    "fit_amdahl",
    "poly_expr",
    "fit_file",
]

ALPHA_METHODS = ("highest", "mean", "clamped-mean", "joint")


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
    raise FitError(f"unknown alpha aggregation '{method}' (valid: {', '.join(ALPHA_METHODS)})")


def fit_joint(
    x: np.ndarray, p: np.ndarray, t: np.ndarray, degree: int, start: tuple[np.ndarray, float]
) -> tuple[np.ndarray, float]:
    """All coefficients and alpha by least squares on the relative residuals (model - t)/t.

    ``start`` is the initial (coefficients, alpha); alpha is bounded to [0, 1].
    """
    from scipy.optimize import least_squares

    scale = float(np.max(np.abs(x))) or 1.0
    powers = (x / scale)[:, None] ** np.arange(degree + 1)
    share = lambda a: a / p + 1 - a  # noqa: E731 - the Amdahl factor of T_seq

    def residuals(theta: np.ndarray) -> np.ndarray:
        return (powers @ theta[:-1] * share(theta[-1]) - t) / t

    def jacobian(theta: np.ndarray) -> np.ndarray:
        d_coef = powers * (share(theta[-1]) / t)[:, None]
        d_alpha = (powers @ theta[:-1]) * (1 / p - 1) / t
        return np.column_stack([d_coef, d_alpha])

    coefficients, alpha = start
    theta0 = np.append(coefficients * scale ** np.arange(degree + 1), np.clip(alpha, 0.0, 1.0))
    lower = np.append(np.full(degree + 1, -np.inf), 0.0)
    upper = np.append(np.full(degree + 1, np.inf), 1.0)
    result = least_squares(residuals, theta0, jac=jacobian, bounds=(lower, upper), x_scale="jac")
    theta = result.x
    return theta[:-1] / scale ** np.arange(degree + 1), float(theta[-1])


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


# --- the fit command ------------------------------------------------------------------------
def _check(points: Series, degree: int, method: str) -> None:
    ones = points.subset(points.column("p") == 1)
    if method != "joint":
        if len(ones) == 0:
            raise FitError(
                f"{points.path}: kernel '{points.kernel}', column 'p': no rows with p = 1 to fit "
                "T_seq from (measure on 1 core, or use --alpha joint)"
            )
        require_distinct(ones, "x", degree + 1, f"T_seq of degree {degree} (rows with p = 1)")
        if not (points.column("p") > 1).any():
            raise FitError(
                f"{points.path}: kernel '{points.kernel}', column 'p': no rows with p > 1 "
                "to estimate alpha from"
            )
    else:
        require_distinct(points, "x", degree + 1, f"T_seq of degree {degree}")
        require_distinct(points, "p", 2, "alpha")


def _report(
    points: Series,
    value: np.ndarray,
    name: str,
    fit: AmdahlFit,
    degree: int,
    has_x: bool,
    unit: str,
) -> FitReport:
    x, p = points.column("x"), points.column("p")
    mse = float(np.mean((fit.predict(x, p) - value) ** 2))
    tseq = format_expr(fit.tseq_expr())
    spec = (("alpha", fit.alpha), ("tseq", tseq))
    expr = build_expr(dict(spec), f"fit of {points.path}")
    stats = (
        ("mse", mse),
        ("points", len(points)),
        ("degree", degree),
        ("alpha_method", fit.method),
        ("alpha_raw", fit.alpha_raw),
    )
    model = AtomicModel(
        name=name,
        expr=expr,
        unit=unit,
        source=f"fit of {points.path}, kernel {points.kernel}: extended Amdahl (paper 002), "
        f"alpha by {fit.method}",
        form="amdahl",
        spec=spec,
        x_range=(float(x.min()), float(x.max())) if has_x else None,
        domain=(("p", (float(p.min()), float(p.max()))),),
        fit=stats,
    )
    parameters = {"alpha": fit.alpha, **{f"c{i}": c for i, c in enumerate(fit.coefficients)}}
    record = {
        "kernel": points.kernel,
        "atom": name,
        "form": "amdahl",
        "model": format_expr(expr),
        "parameters": parameters,
        "mse": mse,
        "points": len(points),
        "degree": degree,
        "alpha_method": fit.method,
        "alpha_raw": fit.alpha_raw,
    }
    clipped = "" if fit.alpha == fit.alpha_raw else f" (clipped from {fit.alpha_raw:.4g})"
    summary = (
        f"{name}: {format_expr(expr)}  [amdahl, alpha {fit.alpha:.6g}{clipped} by {fit.method}, "
        f"T_seq degree {degree}, mse {mse:.4g} over {len(points)} points]"
    )
    return FitReport(model=model, summary=summary, record=record)


def fit_file(path: str, args: argparse.Namespace) -> list[FitReport]:
    """``patternalg fit FILE --form amdahl [--degree K] [--alpha METHOD]``: one model per kernel.

    Columns ``x`` (optional: without it T_seq is a constant), ``p`` and ``time`` (or the
    ``--metric`` column); repetitions are aggregated by median (or ``--aggregate``).
    """
    value = getattr(args, "metric", None) or "time"
    method = getattr(args, "alpha", None) or "highest"
    how = getattr(args, "aggregate", None) or "median"
    ms = read(path, getattr(args, "input_format", None), value=value)
    require_columns(ms, [["p"]])
    check_columns(ms, ("x", "p"), "amdahl")  # its times must be > 0: checked below
    for warning in column_warnings(ms):
        print(f"warning: {warning}", file=sys.stderr)
    unit = measured_unit(ms.value_name, ms.unit, getattr(args, "unit", None), ms.path)
    has_x = "x" in ms.parameters
    degree = getattr(args, "degree", None)
    degree = (1 if has_x else 0) if degree is None else degree
    if degree < 0:
        raise FitError(f"--degree {degree}: the degree of T_seq must be 0 or more")
    if degree > 0 and not has_x:
        raise FitError(
            f"missing column 'x' (--degree {degree} needs the "
            "predictor value x; without x, T_seq is a constant: --degree 0)",
            location=ms.location(),
        )
    for s in ms:
        require_above(s, "p", 1.0, strict=False, what="a core count p")
    for s in ms:
        require_above(s, s.metric, 0.0, strict=True, what=f"the {s.metric}")
    reports = []
    for s, name in zip(ms, ms.atoms(), strict=True):
        if not has_x:
            s = s.with_column("x", np.ones(len(s)))
        points = s.over(["x", "p"])
        _check(points, degree, method)
        measured = points.aggregate(how)
        fit = fit_amdahl(points.column("x"), points.column("p"), measured, degree, method)
        reports.append(_report(points, measured, name, fit, degree, has_x, unit))
    return reports
