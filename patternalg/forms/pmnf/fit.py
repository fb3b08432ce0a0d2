"""Fitting PMNF to many kernels at once: kernels measured at the same points share one batch.

:func:`fit_series` aggregates each series, checks it, and selects per kernel one hypothesis
``c0 + c1 * x^i * log2(x)^j`` with the ``basic`` (Extra-P 4.2.5, :mod:`.basic`) or the
``default`` modeler (ours, :mod:`.default`), with its in-sample statistics.

>>> from patternalg.measurements import Series
>>> x = np.array([[4.0], [8], [16], [32], [64]])
>>> s = Series("scale", "time", ("n",), x, tuple(3 + 0.5 * x), ((2,), (3,), (4,), (5,), (6,)), "m")
>>> (result,) = fit_series([s], "default", "median")
>>> result.index, round(result.c0, 9), round(result.c1, 9), result.modeler
(18, 3.0, 0.5, 'default')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from ..._internal.callbacks import ProgressCallback
from ..._internal.surface import flag
from ...algebra.normal_forms.blocks import BUILDING_BLOCKS
from ...algebra.uncertainty import Uncertainty
from ...errors import FitError
from ...measurements.model import Series
from ...syntax.parser import SYMBOL_RULE, is_symbol_name
from .default import Selection
from .modelers import choose
from .uncertainty import pooled_noise, uncertainties

__all__ = [
    "Fitted",
    "FitColumns",
    "parse_param_options",
    "fit_series",
    "fit_columns",
    "fit_matrix",
    "batch_size",
    "check_points",
]

_CHUNK = 1_500_000  # array elements per batch of kernels (bounds memory)


def parse_param_options(
    options: Iterable[str], parameters: Sequence[str], path: str
) -> dict[str, str]:
    """``NAME=SYMBOL`` options as a mapping; a single parameter they do not name keeps its own
    name (``n`` is the symbol n), unless its name cannot be a symbol (``n ranks``: then x).

    >>> parse_param_options(["p=x"], ["p"], "m.txt"), parse_param_options([], ["n"], "m.txt")
    ({'p': 'x'}, {'n': 'n'})
    >>> parse_param_options([], ["n ranks"], "m.txt")
    {'n ranks': 'x'}
    >>> parse_param_options(["p=y", "p=z"], ["x", "p"], "m.txt")
    Traceback (most recent call last):
    ...
    patternalg.errors.FitError: param=p is given twice (y and z); one parameter takes one symbol
    """
    mapping: dict[str, str] = {}
    for option in options:
        name, sep, target = (part.strip() for part in option.partition("="))
        if not sep or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", target or "") or not name:
            raise FitError(f"{flag('param', repr(option))}: expected NAME=SYMBOL, e.g. {flag('param', 'p=x')}")
        if not is_symbol_name(target):
            raise FitError(f"{flag('param', repr(option))}: '{target}' is no symbol ({SYMBOL_RULE})")
        if name not in parameters:
            raise FitError(
                f"{flag('param', repr(option))}: {path} has no parameter '{name}' "
                f"(its parameters: {', '.join(parameters)})"
            )
        if name in mapping:
            raise FitError(
                f"{flag('param', name)} is given twice ({mapping[name]} and {target}); one parameter "
                "takes one symbol"
            )
        mapping[name] = target
    if len(parameters) == 1 and parameters[0] not in mapping:
        own = parameters[0]
        mapping[own] = own if is_symbol_name(own) else "x"
    return mapping



#: the parameter values a pmnf fit handles in double precision: beyond them the squares of
#: the largest building blocks (x^3 * log2(x)^2) overflow, and those hypotheses drop out
#: unseen (on exact data the default modeler still chooses every block right from 1e-50 to
#: 2.6e42, and basic what Extra-P chooses, whose least squares loses most blocks there)
PARAMETER_RANGE = (1e-40, 1e40)


def parameter_problem(values: np.ndarray) -> tuple[tuple[int, ...], str] | None:
    """The index of the first parameter value a pmnf fit cannot use, and why; or None.

    >>> parameter_problem(np.array([[1.0, 2.0], [0.0, 3.0]]))
    ((1, 0), '0 is not positive')
    >>> parameter_problem(np.array([4.0, 8.0, 1e300]))
    ((2,), '1e+300 is outside 1e-40 .. 1e+40, the values a pmnf fit handles in double precision')
    >>> parameter_problem(np.array([4.0, 8.0]))
    """
    low, high = PARAMETER_RANGE
    bad = np.argwhere(~((values >= low) & (values <= high)))
    if not len(bad):
        return None
    at = tuple(int(i) for i in bad[0])
    value = float(values[at])
    if value <= 0:
        return at, f"{value:g} is not positive"
    return at, (
        f"{value:g} is outside {low:g} .. {high:g}, the values a pmnf fit handles in double "
        "precision"
    )


def check_points(s: Any) -> np.ndarray:
    """The parameter values of a one-parameter series; a FitError unless a pmnf fit can
    take them (at least 3, each in :data:`PARAMETER_RANGE`)."""
    x = s.points[:, 0]
    where = f"{s.location()}: {s.label}"
    if len(x) < 3:
        raise FitError(
            f"{where}: {len(x)} measured point{'s' if len(x) != 1 else ''}; "
            "a pmnf fit needs at least 3 distinct values of the parameter (Extra-P advises 5)"
        )
    problem = parameter_problem(x)
    if problem:
        raise FitError(f"{s.location(problem[0][0])}: {s.label}: parameter value {problem[1]}")
    return x


def _select(
    modeler: str, x: np.ndarray, y: np.ndarray, noise: np.ndarray | None = None
) -> tuple[Selection, np.ndarray]:
    """The modeler's choice per kernel, and which modeler chose it (:func:`.modelers.choose`)."""
    result, rows, others, chosen = choose(modeler, "one", x, y, noise)
    if others is not None:
        merged = {f.name: getattr(result, f.name).copy() for f in fields(Selection)}
        for name, values in merged.items():
            values[rows] = getattr(others, name)
        result = Selection(**merged)
    return result, chosen


def _statistics(x: np.ndarray, y: np.ndarray, chosen: Selection) -> dict[str, np.ndarray]:
    """In-sample RSS, SMAPE (%) and adjusted R² of the chosen models of ``y`` (K, P)."""
    fitted = chosen.values(x)
    diff = fitted - y
    rss = (diff * diff).sum(-1)
    abssum = np.abs(fitted) + np.abs(y)
    share = np.divide(np.abs(diff) * 2, abssum, out=np.zeros_like(y), where=abssum != 0)
    tss = ((y - y.mean(-1, keepdims=True)) ** 2).sum(-1)
    n = y.shape[1]
    k = np.where(chosen.index < 0, 0, 1) + (chosen.index2 >= 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        ar2 = np.where(tss == 0, 1.0, 1.0 - (rss / (n - k - 1)) / (tss / (n - 1)))
    return {"rss": rss, "smape": share.mean(-1) * 100, "ar2": ar2}


@dataclass(frozen=True)
class Fitted:
    """One kernel's chosen hypothesis (``index`` into the blocks, -1: constant; ``index2``
    a second term's block, -1: none), its coefficients, the modeler that chose it, its
    statistics, the measured range and the uncertainty of its coefficients (None without
    repetitions)."""

    index: int
    c0: float
    c1: float
    modeler: str
    stats: dict[str, float]
    points: int
    low: float
    high: float
    uncertainty: Uncertainty | None = None
    index2: int = -1
    c2: float = 0.0


@dataclass(frozen=True)
class FitColumns:
    """The fits of kernels measured at the same points, as columns (one row a kernel):
    what :class:`Fitted` holds, without an object per kernel."""

    index: list[int]
    c0: list[float]
    c1: list[float]
    modeler: list[str]
    stats: dict[str, list[float]]
    points: int
    low: float
    high: float
    uncertainty: list[Uncertainty | None] = field(default_factory=list)
    index2: list[int] = field(default_factory=list)
    c2: list[float] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.index)

    def row(self, k: int) -> Fitted:
        """Kernel ``k``'s fit."""
        stats = {key: values[k] for key, values in self.stats.items()}
        return Fitted(
            self.index[k],
            self.c0[k],
            self.c1[k],
            self.modeler[k],
            stats,
            self.points,
            self.low,
            self.high,
            self.uncertainty[k] if self.uncertainty else None,
            self.index2[k],
            self.c2[k],
        )

    @classmethod
    def joined(cls, parts: Sequence[FitColumns]) -> FitColumns:
        """The columns of ``parts`` (fitted at the same points) one after the other."""
        first = parts[0]
        return cls(
            [i for part in parts for i in part.index],
            [c for part in parts for c in part.c0],
            [c for part in parts for c in part.c1],
            [m for part in parts for m in part.modeler],
            {key: [v for part in parts for v in part.stats[key]] for key in first.stats},
            first.points,
            first.low,
            first.high,
            [u for part in parts for u in part.uncertainty or [None] * len(part)],
            [i for part in parts for i in part.index2],
            [c for part in parts for c in part.c2],
        )


def batch_size(points: int) -> int:
    """How many kernels measured at ``points`` points are fitted at once (bounds memory)."""
    return max(1, _CHUNK // (len(BUILDING_BLOCKS) * points * points))


def fit_columns(
    x: np.ndarray,
    y: np.ndarray,
    modeler: str,
    values: np.ndarray | Sequence[Sequence[np.ndarray]] | None = None,
    how: str = "mean",
    var: str = "x",
    method: str = "bootstrap",
) -> FitColumns:
    """The fits of kernels measured at the same points ``x`` (P,), aggregated values ``y``
    (K, P) by ``how``; with their repetitions ``values`` ((K, P, R), or per kernel per
    point), the uncertainty of each by ``method`` (:mod:`.uncertainty`, its terms in the
    symbol ``var``)."""
    noise = None if values is None else pooled_noise(values, how, y)
    selection, used = _select(modeler, x, y, noise)
    stats = _statistics(x, y, selection)
    columns = {key: v.tolist() for key, v in stats.items()}
    columns["criterion"] = selection.criterion.tolist()
    spread: list[Uncertainty | None] = []
    if values is not None:
        spread = uncertainties(
            x, values, y, selection, used.tolist(), how, var, method, _chunked(modeler, x),
            noise,
        )
    return FitColumns(
        selection.index.tolist(),
        selection.c0.tolist(),
        selection.c1.tolist(),
        used.tolist(),
        columns,
        len(x),
        float(x.min()),
        float(x.max()),
        spread,
        selection.index2.tolist(),
        selection.c2.tolist(),
    )


def _chunked(modeler: str, x: np.ndarray) -> Callable[..., Selection]:
    """The selection of ``modeler`` at ``x`` for any number of kernels (a batch at a time),
    with the pooled relative noise of each (None: not known)."""

    def select(y: np.ndarray, noise: np.ndarray | None = None) -> Selection:
        step = batch_size(len(x))
        parts = [
            _select(modeler, x, y[s : s + step], None if noise is None else noise[s : s + step])[0]
            for s in range(0, len(y), step)
        ]
        return Selection(
            *(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(Selection))
        )

    return select


def fit_matrix(x: np.ndarray, y: np.ndarray, modeler: str) -> list[Fitted]:
    """:func:`fit_columns` as one :class:`Fitted` per kernel."""
    columns = fit_columns(x, y, modeler)
    return [columns.row(k) for k in range(len(columns))]


def repetitions_array(series: Sequence[Series]) -> np.ndarray | list[tuple[np.ndarray, ...]]:
    """The repetitions of ``series`` (as many points each; a summary's stood in for,
    :attr:`~patternalg.measurements.Series.spread_values`): (K, P, R) when every point has
    as many, else per series per point."""
    values = [s.spread_values for s in series]
    if len({len(v) for kernel in values for v in kernel}) == 1:
        return np.array(values, dtype=float)
    return [tuple(np.asarray(v, dtype=float) for v in kernel) for kernel in values]


def fit_series(
    series: Sequence[Any],
    modeler: str,
    aggregate: str,
    progress: ProgressCallback = None,
    var: str = "x",
    method: str = "bootstrap",
) -> list[Fitted]:
    """Fit every series (one parameter each); all kernels sharing their points at once,
    each with the uncertainty of its coefficients (terms in the symbol ``var``).

    ``progress(done, total)`` is called after each batch; ``method`` is how the
    uncertainty is found (:mod:`.uncertainty`).
    """
    groups: dict[tuple[float, ...], list[int]] = {}
    for k, s in enumerate(series):
        groups.setdefault(tuple(check_points(s)), []).append(k)
    results: list[Fitted | None] = [None] * len(series)
    done = 0
    for key, members in groups.items():
        x = np.array(key)
        chunk = batch_size(len(x))
        for start in range(0, len(members), chunk):
            part = members[start : start + chunk]
            members_part = [series[k] for k in part]
            y = Series.aggregate_all(members_part, aggregate)
            values = repetitions_array(members_part)
            columns = fit_columns(x, y, modeler, values, aggregate, var, method)
            for row, k in enumerate(part):
                results[k] = columns.row(row)
            done += len(part)
            if progress is not None:
                progress(done, len(series))
    return [r for r in results if r is not None]
