"""Fitting PMNF in two or three parameters: symbols, checks, batches, statistics, closed forms.

:func:`symbol_names` maps a file's parameters to the symbols of the models (``--param``);
:func:`fit_multi` checks each series (enough points along lines of the grid, positive
parameter values), fits all kernels sharing their points at once with
:func:`~.multi_basic.select_multi_basic` or :func:`~.multi_default.select_multi_default`,
and :func:`multi_text` / :func:`multi_expr` write a result as the grammar's arithmetic / sympy.

>>> from patternalg.measurements import Series
>>> pts = np.array([[x, p] for x in (4.0, 8, 16, 32, 64) for p in (2.0, 4, 8, 16, 32)])
>>> y = 3 + 0.5 * pts[:, 0] * np.log2(pts[:, 1])
>>> s = Series("solve", "time", ("n", "p"), pts, tuple(y[:, None]), ((0,),) * 25, "m.txt")
>>> (fitted,) = fit_multi([s], "default", "median")
>>> multi_text(fitted.model, ("x", "p"), digits=6), fitted.modeler
('0.5*x*log2(p) + 3.0', 'default')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy

from ..._internal.callbacks import ProgressCallback
from ..._internal.surface import flag
from ...algebra.uncertainty import Uncertainty
from ...errors import FitError
from ...measurements.model import Series
from ...syntax.arith import number_text
from ...syntax.parser import SYMBOL_RULE, is_symbol_name
from ...syntax.symbols import log2, symbol
from .fit import parameter_problem, parse_param_options, repetitions_array
from .modelers import choose
from .multi import Exponents, MultiModel, line_points, smape
from .uncertainty import multi_covariances

__all__ = [
    "MultiFitted",
    "fit_multi",
    "fitted_models",
    "multi_expr",
    "multi_text",
    "multi_hypothesis",
    "symbol_names",
]

#: the most parameters a pmnf fit takes
MAX_PARAMETERS = 3
_CHUNK = 2_000  # kernels per batch


def symbol_names(
    options: Iterable[str], parameters: Sequence[str], path: str
) -> tuple[dict[str, str], str]:
    """The symbol of each parameter, and a note saying which defaults were taken ('' if none).

    ``NAME=SYMBOL`` options first; every other parameter keeps its own name as its symbol
    (``n`` is n, ``p`` is p); one whose name cannot be a symbol needs ``--param``.

    >>> symbol_names([], ["p", "n"], "m.txt")
    ({'p': 'p', 'n': 'n'}, '')
    >>> symbol_names(["n=x"], ["p", "n"], "m.txt")
    ({'n': 'x', 'p': 'p'}, "parameters of m.txt: 'p' is p (choose others with param='NAME=SYMBOL')")
    >>> symbol_names(["p=x", "n=x"], ["p", "n"], "m.txt")
    Traceback (most recent call last):
    ...
    patternalg.errors.FitError: param=: parameters 'p' and 'n' of m.txt both map to the symbol x
    """
    mapping = parse_param_options(options, parameters, path)
    given = set(mapping)
    rest = [name for name in parameters if name not in mapping]
    for name in rest:
        if not is_symbol_name(name):
            raise FitError(
                f"{path}: parameter '{name}' is no symbol ({SYMBOL_RULE}): name one with "
                f"{flag('param', f'{name}=SYMBOL')} (its parameters: {', '.join(parameters)})"
            )
        mapping[name] = name
    seen: dict[str, str] = {}
    for name in parameters:
        other = seen.setdefault(mapping[name], name)
        if other != name:
            raise FitError(
                f"{flag('param')}: parameters '{other}' and '{name}' of {path} both map to the symbol "
                f"{mapping[name]}"
            )
    note = ""
    if given and rest:  # some renamed: say what the others are
        said = ", ".join(f"'{name}' is {mapping[name]}" for name in rest)
        note = f"parameters of {path}: {said} (choose others with {flag('param', 'NAME=SYMBOL')})"
    return {name: mapping[name] for name in (*given, *rest)}, note


@dataclass(frozen=True)
class MultiFitted:
    """One kernel's model, the modeler that chose it, its statistics and measured ranges."""

    model: MultiModel
    modeler: str
    stats: dict[str, float]
    points: int
    ranges: tuple[tuple[float, float], ...]
    #: the covariance of the constant and the coefficients, the noise and the repetitions
    spread: tuple[np.ndarray, float, int] | None = None


def check_series(s: Any) -> None:
    """A FitError unless every parameter is positive and varies along a line of >= 3 points."""
    where = f"{s.location()}: {s.label}"
    k = len(s.parameters)
    if k > MAX_PARAMETERS:
        raise FitError(
            f"{s.path}: pmnf fits 1 to {MAX_PARAMETERS} parameters; the file has {k} "
            f"({', '.join(s.parameters)})"
        )
    if not len(s.points):  # every point left out (a parameter <= 0 at each): no grid at all
        raise FitError(f"{where}: no measured points; a pmnf fit in {k} parameters needs at least 3 along each")
    problem = parameter_problem(s.points)
    if problem:
        (row, column), why = problem
        raise FitError(f"{s.location(row)}: {s.label}: parameter {s.parameters[column]} = {why}")
    for column, (name, lines) in enumerate(zip(s.parameters, line_points(s.points), strict=True)):
        others = ",".join(n for n in s.parameters if n != name)
        constant = len(np.unique(s.points[:, column])) == 1  # the same at every point
        if len(lines) < 3:
            raise FitError(
                f"{where}: parameter '{name}' takes {len(lines)} value"
                f"{'s' if len(lines) != 1 else ''} along the longest lines of the grid (points "
                f"where only '{name}' changes); a pmnf fit in {k} parameters needs at least 3 "
                f"there for each parameter (Extra-P advises 5)"
                + (f"; it is {number_text(s.points[0, column])} at every point: to fit without it, {flag('parameters', others)}" if constant else "")
            )


def fit_multi(
    series: Sequence[Any],
    modeler: str,
    aggregate: str,
    progress: ProgressCallback = None,
    method: str = "bootstrap",
) -> list[MultiFitted]:
    """Fit every series (2 or 3 parameters); kernels measured at the same points at once,
    each with the covariance of its coefficients by ``method`` (:mod:`.uncertainty`).

    ``default`` falls back to ``basic`` for kernels with a value <= 0 (relative errors need
    positive values).
    """
    groups: dict[bytes, list[int]] = {}
    for k, s in enumerate(series):
        groups.setdefault(s.points.tobytes() + repr(s.points.shape).encode(), []).append(k)
    for members in groups.values():  # the checks depend on the points only
        check_series(series[members[0]])
    results: list[MultiFitted | None] = [None] * len(series)
    done = 0
    for members in groups.values():
        points = series[members[0]].points
        ranges = tuple((float(c.min()), float(c.max())) for c in points.T)
        for start in range(0, len(members), _CHUNK):
            part = members[start : start + _CHUNK]
            chosen = [series[k] for k in part]
            y = Series.aggregate_all(chosen, aggregate)
            models, used = _select(modeler, points, y)
            spreads = multi_covariances(
                points, repetitions_array(chosen), y, models, used, aggregate, method,
                series[members[0]].parameters,
            )
            for row, k in enumerate(part):
                results[k] = MultiFitted(
                    models[row], used[row], _statistics(points, y[row], models[row]), len(points),
                    ranges, spreads[row],
                )  # fmt: skip
            done += len(part)
            if progress is not None:
                progress(done, len(series))
    return [r for r in results if r is not None]


def fitted_models(
    series: Sequence[Any],
    param: Iterable[str],
    modeler: str,
    aggregate: str,
    progress: ProgressCallback = None,
    method: str = "bootstrap",
) -> list[dict[str, Any]]:
    """Per series the keyword arguments of a fitted PMNF: values, domain, statistics, expr,
    uncertainty (by ``method``)."""
    parameters, path = series[0].parameters, series[0].path
    mapping = symbol_names(param, parameters, path)[0]
    names = tuple(mapping[p] for p in parameters)
    found = []
    fits = fit_multi(series, modeler, aggregate, progress, method)
    for s, fitted in zip(series, fits, strict=True):
        model = fitted.model
        terms = [
            {"coefficient": c, "factors": [{"symbol": name, "i": str(i), "j": j}
                                           for name, (i, j) in zip(names, term, strict=True) if (i, j) != (0, 0)]}
            for term, c in zip(model.terms, model.coefficients, strict=True)
        ]  # fmt: skip
        statistics = {
            "hypothesis": multi_hypothesis(model, names),
            "constant": model.constant,
            "terms": terms,
            **fitted.stats,
            "modeler": fitted.modeler,
            "aggregate": aggregate,
            "file_parameters": list(parameters),
            "symbols": list(names),
            "file": path,
            "points": fitted.points,
            "kernel": s.kernel,
            "metric": s.metric,
        }
        found.append({
            "table": {"model": multi_text(model, names)},
            "domain": dict(zip(names, fitted.ranges, strict=True)),
            "statistics": statistics,
            "expr": lambda model=model: multi_expr(model, names),
            "uncertainty": _uncertainty(fitted, names, method),
        })  # fmt: skip
    return found


def _uncertainty(fitted: MultiFitted, names: Sequence[str], method: str) -> Uncertainty | None:
    """The uncertainty of one fit: its terms the constant and the hypothesis's products."""
    if fitted.spread is None:
        return None
    covariance, noise, repetitions = fitted.spread
    symbols = [symbol(name) for name in names]
    terms = (sympy.Integer(1), *(sympy.Mul(*_factors(term, symbols)) for term in fitted.model.terms))
    return Uncertainty(terms, tuple(map(tuple, covariance.tolist())), repetitions, noise, method)


def _factors(term: tuple[Exponents, ...], symbols: Sequence[sympy.Symbol]) -> list[sympy.Expr]:
    """The factors ``x^i``, ``log2(x)^j`` of one product term."""
    factors: list[sympy.Expr] = []
    for var, (i, j) in zip(symbols, term, strict=True):
        if i != 0:
            factors.append(sympy.Pow(var, sympy.Rational(i.numerator, i.denominator)))
        if j != 0:
            factors.append(sympy.Pow(log2(var), j))
    return factors


def _select(modeler: str, points: np.ndarray, y: np.ndarray) -> tuple[list[MultiModel], list[str]]:
    """The modeler's model per kernel, and which modeler chose it (:func:`.modelers.choose`)."""
    models, rows, others, used = choose(modeler, "multi", points, y)
    for row, model in zip(rows, others if others is not None else (), strict=True):
        models[row] = model
    return models, used.tolist()


def _statistics(points: np.ndarray, y: np.ndarray, model: MultiModel) -> dict[str, float]:
    """In-sample RSS, SMAPE (%) and adjusted R² of one model, and its selection criterion."""
    fitted = model(points)
    rss = float(((fitted - y) ** 2).sum())
    tss = float(((y - y.mean()) ** 2).sum())
    n, terms = len(y), len(model.terms)
    dof = n - terms - 1
    ar2 = 1.0 if tss == 0 else (1.0 - (rss / dof) / (tss / (n - 1)) if dof > 0 else float("nan"))
    return {"rss": rss, "smape": float(smape(fitted, y)), "ar2": ar2, "criterion": model.criterion}


def _factor_text(name: str, exponents: Exponents) -> list[str]:
    i, j = exponents
    factors = []
    if i != 0:
        factors.append(name + ("" if i == 1 else f"**{i}" if i.denominator == 1 else f"**({i})"))
    if j != 0:
        factors.append(f"log2({name})" + (f"**{j}" if j != 1 else ""))
    return factors


def multi_text(model: MultiModel, names: Sequence[str], digits: int | None = None) -> str:
    """The model in the grammar's arithmetic, terms first (``digits``: significant digits).

    >>> from fractions import Fraction as F
    >>> m = MultiModel(-2.5, (((F(1), 0), (F(1, 2), 1)), ((F(0), 0), (F(2), 0))), (0.25, 4.0), 0.0)
    >>> multi_text(m, ("x", "p"))
    '0.25*x*p**(1/2)*log2(p) + 4.0*p**2 - 2.5'
    """

    def number(value: float) -> str:
        return repr(float(f"{value:.{digits}g}")) if digits else repr(float(value))

    parts = []
    for term, c in zip(model.terms, model.coefficients, strict=True):
        factors = [f for name, e in zip(names, term, strict=True) for f in _factor_text(name, e)]
        parts.append("*".join([number(c), *factors]))
    text = " + ".join(parts).replace("+ -", "- ")
    if not parts:
        return number(model.constant)
    if model.constant == 0:
        return text
    return f"{text} {'-' if model.constant < 0 else '+'} {number(abs(model.constant))}"


def multi_expr(model: MultiModel, names: Sequence[str]) -> sympy.Expr:
    """The model as sympy, built with constructors from the symbols called ``names``.

    >>> from fractions import Fraction as F
    >>> multi_expr(MultiModel(1.0, (((F(1), 0), (F(0), 1)),), (2.0,), 0.0), ("x", "p"))
    2.0*x*log2(p) + 1.0
    """
    symbols = [symbol(name) for name in names]
    terms = [sympy.Float(model.constant)] if model.constant != 0 or not model.terms else []
    for term, c in zip(model.terms, model.coefficients, strict=True):
        terms.append(sympy.Mul(sympy.Float(c), *_factors(term, symbols)))
    return sympy.Add(*terms)


def multi_hypothesis(model: MultiModel, names: Sequence[str]) -> str:
    """The hypothesis as Extra-P writes it: terms of ``name^(i)*log2(name)^j`` factors.

    >>> from fractions import Fraction as F
    >>> multi_hypothesis(MultiModel(1.0, (((F(1), 0), (F(0), 1)),), (2.0,), 0.0), ("x", "p"))
    'x^(1)*log2(p)^1'
    """
    if not model.terms:
        return "constant"
    texts = []
    for term in model.terms:
        factors = []
        for name, (i, j) in zip(names, term, strict=True):
            factors += ([f"{name}^({i})"] if i != 0 else []) + ([f"log2({name})^{j}"] if j else [])
        texts.append("*".join(factors))
    return " + ".join(texts)
