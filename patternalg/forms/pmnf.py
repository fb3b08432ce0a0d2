"""Extra-P's performance model normal form: ``c0 + c1 * x^i * log2(x)^j``, fitted to measurements.

A model file holds a fitted model as plain arithmetic (``build_expr`` parses ``model``)::

    [models.sort]
    form = "pmnf"
    model = "2.818 + 0.4827*x**(5/4)*log2(x)"
    x_range = [4.0, 64.0]
    fit = { hypothesis = "x^(5/4)*log2(x)^1", smape = 1.2, ... }

``fit_file`` is ``patternalg fit FILE --form pmnf``: it reads any measurement format of
:mod:`patternalg.measurements`, fits every kernel with the ``basic`` (Extra-P 4.2.5) or
the ``default`` modeler (see :mod:`patternalg.forms.pmnf_fit`) and returns one
:class:`~patternalg.forms.FitReport` per kernel.

>>> build_expr({"model": "2.818 + 0.4827*x^(5/4)*log2(x)"}, "models.sort")
0.4827*x**(5/4)*log2(x) + 2.818
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import sympy

from ..arith import FUNCTIONS
from ..errors import FitError
from ..inputs import checked
from ..library import AtomicModel
from ..measurements import Measurements, Series, read
from ..pmnf.blocks import BUILDING_BLOCKS
from ..pmnf.render import hypothesis_text, pmnf_expr, pmnf_text
from ..symbols import symbol
from ..units import measured_unit
from . import FitReport
from .expr import build_expr
from .pmnf_fit import Selection, basis, select_basic, select_default

__all__ = [
    "MODELERS",
    "build_expr",
    "parse_param_options",
    "fit_measurements",
    "fit_file",
]

#: modeler name -> its default aggregation of repetitions (measured: see docs/pmnf.md)
MODELERS = {"basic": "mean", "default": "median"}
_CHUNK = 1_500_000  # array elements per batch of kernels (bounds memory)


def parse_param_options(
    options: Iterable[str], parameters: Sequence[str], path: str
) -> dict[str, str]:
    """``NAME=SYMBOL`` options as a mapping; the single parameter defaults to ``x``.

    >>> parse_param_options(["p=p"], ["p"], "m.txt"), parse_param_options([], ["n"], "m.txt")
    ({'p': 'p'}, {'n': 'x'})
    """
    mapping: dict[str, str] = {}
    for option in options:
        name, sep, target = (part.strip() for part in option.partition("="))
        if not sep or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", target or "") or not name:
            raise FitError(f"--param {option!r}: expected NAME=SYMBOL, e.g. --param p=x")
        if target in FUNCTIONS or target in ("seq", "pipe", "log", "ln"):
            raise FitError(f"--param {option!r}: '{target}' is a reserved word, not a symbol")
        if name not in parameters:
            raise FitError(
                f"--param {option!r}: {path} has no parameter '{name}' "
                f"(its parameters: {', '.join(parameters)})"
            )
        mapping[name] = target
    if len(parameters) == 1 and parameters[0] not in mapping:
        mapping[parameters[0]] = "x"
    return mapping


class _Progress:
    """``fitting: done/total kernels`` on stderr, if it is a terminal and fitting is slow."""

    def __init__(self, total: int) -> None:
        self.total, self.start, self.shown = total, time.perf_counter(), False
        self.tty = sys.stderr.isatty()

    def update(self, done: int) -> None:
        if self.tty and time.perf_counter() - self.start > 1.0:
            sys.stderr.write(f"\rfitting: {done}/{self.total} kernels")
            self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 40 + "\r")


def _check(s: Series) -> np.ndarray:
    x = s.points[:, 0]
    where = f"{s.location()}: {s.label}"
    if len(x) < 3:
        raise FitError(
            f"{where}: {len(x)} measured point{'s' if len(x) != 1 else ''}; "
            "a pmnf fit needs at least 3 distinct values of the parameter (Extra-P advises 5)"
        )
    if np.any(x <= 0):
        raise FitError(f"{where}: parameter value {x[x <= 0][0]:g} is not positive")
    return x


def _select(modeler: str, x: np.ndarray, y: np.ndarray) -> tuple[Selection, np.ndarray]:
    """The modeler's choice per kernel; ``default`` falls back to ``basic`` for values <= 0."""
    chosen = np.zeros(len(y), dtype=object)
    chosen[:] = modeler
    if modeler == "basic":
        return select_basic(x, y), chosen
    fallback = np.any(y <= 0, axis=1)
    result = select_default(x, np.where(fallback[:, None], 1.0, y))
    if fallback.any():
        basic = select_basic(x, y[fallback])
        chosen[fallback] = "basic (values <= 0)"
        merged = {f: getattr(result, f).copy() for f in ("index", "c0", "c1", "criterion")}
        for field, values in merged.items():
            values[fallback] = getattr(basic, field)
        result = Selection(**merged)
    return result, chosen


def _statistics(x: np.ndarray, y: np.ndarray, chosen: Selection) -> dict[str, np.ndarray]:
    """In-sample RSS, SMAPE (%) and adjusted R² of the chosen models of ``y`` (K, P)."""
    term = basis(x, np.arange(len(BUILDING_BLOCKS)))[np.maximum(chosen.index, 0)]
    slope = np.where(chosen.index < 0, 0.0, chosen.c1)
    fitted = chosen.c0[:, None] + slope[:, None] * term
    diff = fitted - y
    rss = (diff * diff).sum(-1)
    abssum = np.abs(fitted) + np.abs(y)
    share = np.divide(np.abs(diff) * 2, abssum, out=np.zeros_like(y), where=abssum != 0)
    tss = ((y - y.mean(-1, keepdims=True)) ** 2).sum(-1)
    n, k = y.shape[1], np.where(chosen.index < 0, 0, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ar2 = np.where(tss == 0, 1.0, 1.0 - (rss / (n - k - 1)) / (tss / (n - 1)))
    return {"rss": rss, "smape": share.mean(-1) * 100, "ar2": ar2}


def fit_measurements(
    ms: Measurements,
    modeler: str = "default",
    aggregate: str | None = None,
    params: Sequence[str] = (),
    unit: str = "ns",
) -> list[FitReport]:
    """Fit every series of ``ms``; all kernels sharing their points are fitted at once.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "m.txt")
    >>> _ = open(path, "w").write("PARAMETER n\\nPOINTS 4 8 16 32 64\\nREGION scale\\n"
    ...     + "".join(f"DATA {3 + 0.5 * v:g}\\n" for v in (4, 8, 16, 32, 64)))
    >>> [r.summary for r in fit_measurements(read(path))]
    ['scale: 0.5*x + 3.0']
    """
    if modeler not in MODELERS:
        raise FitError(f"unknown modeler '{modeler}' (valid: {', '.join(MODELERS)})")
    how = aggregate or MODELERS[modeler]
    if len(ms.parameters) != 1:
        raise FitError(
            f"{ms.path}: pmnf fits one parameter; the file has {len(ms.parameters)} "
            f"({', '.join(ms.parameters)})"
        )
    mapping = parse_param_options(params, ms.parameters, ms.path)
    name = mapping[ms.parameters[0]]
    context = _Context(ms, how, symbol(name), ms.parameters[0], unit)
    groups: dict[tuple[float, ...], list[int]] = {}
    for k, s in enumerate(ms.series):
        groups.setdefault(tuple(_check(s)), []).append(k)
    atoms = ms.atoms()
    reports: list[FitReport | None] = [None] * len(ms.series)
    progress = _Progress(len(ms.series))
    done = 0
    for key, members in groups.items():
        x = np.array(key)
        chunk = max(1, _CHUNK // (len(BUILDING_BLOCKS) * len(x) * len(x)))
        for start in range(0, len(members), chunk):
            part = members[start : start + chunk]
            y = np.array([ms.series[k].aggregate(how) for k in part])
            selection, used = _select(modeler, x, y)
            stats = _statistics(x, y, selection)
            for row, k in enumerate(part):
                fitted = _Fitted(
                    int(selection.index[row]),
                    float(selection.c0[row]),
                    float(selection.c1[row]),
                    str(used[row]),
                    {key: float(v[row]) for key, v in stats.items()}
                    | {"criterion": float(selection.criterion[row])},
                )
                reports[k] = _report(context, ms.series[k], atoms[k], x, fitted)
            done += len(part)
            progress.update(done)
    progress.close()
    return [r for r in reports if r is not None]


@dataclass(frozen=True)
class _Fitted:
    """One kernel's chosen hypothesis, coefficients, modeler and statistics."""

    index: int
    c0: float
    c1: float
    modeler: str
    stats: dict[str, float]


@dataclass(frozen=True)
class _Context:
    """What all kernels of one fit share: file, aggregation, symbol, parameter, unit."""

    ms: Measurements
    how: str
    var: sympy.Symbol
    parameter: str
    unit: str


def _report(ctx: _Context, s: Series, atom: str, x: np.ndarray, fitted: _Fitted) -> FitReport:
    index, c0, c1, var = fitted.index, fitted.c0, fitted.c1, ctx.var
    terms = [] if index < 0 else [(c1, *BUILDING_BLOCKS[index])]
    text = pmnf_text(var.name, c0, index, c1)
    low, high = float(x.min()), float(x.max())
    common = {
        **fitted.stats,
        "modeler": fitted.modeler,
        "aggregate": ctx.how,
        "parameter": ctx.parameter,
        "symbol": var.name,
        "range": [low, high],
        "file": ctx.ms.path,
    }
    term = {"coefficient": c1, "i": str(terms[0][1]), "j": terms[0][2]} if terms else {}
    fit = {
        "hypothesis": hypothesis_text(index, var.name),
        "constant": c0,
        **term,
        **common,
        "points": len(x),
        "kernel": s.kernel,
        "metric": s.metric,
    }
    model = AtomicModel(
        name=atom,
        expr=pmnf_expr(var, c0, index, c1),
        unit=ctx.unit,
        source=f"pmnf fit ({fitted.modeler}, {ctx.how}) of {ctx.ms.path}, kernel '{s.kernel}'"
        + (f", metric '{s.metric}'" if s.metric else ""),
        form="pmnf",
        spec=(("model", text),),
        domain=((var.name, (low, high)),),
        fit=tuple(fit.items()),
    )
    record = {
        "kernel": s.kernel,
        "metric": s.metric,
        "atom": atom,
        "model": text,
        "constant": c0,
        "terms": [term] if term else [],
        **common,
    }
    return FitReport(model=model, summary=f"{atom}: {text}", record=record)


def fit_file(path: str, args: argparse.Namespace) -> list[FitReport]:
    """``patternalg fit FILE --form pmnf``: read, fit, and say which symbol the parameter became."""
    ms = read(path, getattr(args, "input_format", None), metric=getattr(args, "metric", None))
    params = getattr(args, "param", None) or ()
    named = [p.partition("=")[0].strip() for p in params]
    used = named or (["x"] if "x" in ms.parameters else list(ms.parameters[:1]))
    allow = bool(getattr(args, "allow_nonpositive", False))
    for warning in checked(ms, used, "pmnf", allow_nonpositive=allow):
        print(f"warning: {warning}", file=sys.stderr)
    reports = fit_measurements(
        ms,
        modeler=getattr(args, "modeler", None) or "default",
        aggregate=getattr(args, "aggregate", None),
        params=getattr(args, "param", None) or (),
        unit=measured_unit(ms.value_name, ms.unit, getattr(args, "unit", None), ms.path),
    )
    if reports and not getattr(args, "param", None):
        name = ms.parameters[0]
        print(
            f"note: parameter '{name}' of {ms.path} is the symbol x in these models"
            + ("" if name == "x" else f" (use --param {name}=SYMBOL to choose another)"),
            file=sys.stderr,
        )
    return reports
