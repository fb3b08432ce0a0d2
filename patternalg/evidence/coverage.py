"""Intervals against measurements: the interval of what a measurement would show at the
measured points, and the share of measured values the intervals cover (``validate
--interval``; :mod:`patternalg.algebra.intervals` draws them).

>>> import numpy as np
>>> from patternalg.evidence.validated import Validated
>>> v = Validated("inc", "inc", "m.txt", ("x",), "x", np.array([[1.0], [2.0]]),
...               np.array([110.0, 190.0]), np.array([100.0, 200.0]), "ns",
...               low=np.array([95.0, 150.0]), high=np.array([120.0, 195.0]))
>>> found = coverage([v], 0.9)
>>> found["covered"], found["cells"], found["largest"]["covered"]
(1, 2, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from .._internal.limits import printable
from ..algebra.atomic_model import AtomicModel
from ..algebra.semantics import Semantics
from ..errors import EvaluationError
from ..syntax.terms import Term

__all__ = ["Predicted", "covered", "half_width", "coverage", "measured_interval"]


class Predicted(Protocol):
    """A series predicted with intervals (:class:`~patternalg.evidence.validated.Validated`)."""

    @property
    def points(self) -> np.ndarray: ...
    @property
    def predicted(self) -> np.ndarray: ...
    @property
    def measured(self) -> np.ndarray: ...
    @property
    def low(self) -> np.ndarray | None: ...
    @property
    def high(self) -> np.ndarray | None: ...

    def largest(self) -> np.ndarray: ...


def covered(v: Predicted) -> np.ndarray:
    """A mask of the points whose measured value lies in the interval (none without one)."""
    if v.low is None or v.high is None:
        return np.zeros(len(v.points), dtype=bool)
    return (v.low <= v.measured) & (v.measured <= v.high)


def half_width(v: Predicted) -> np.ndarray:
    """The interval's half width relative to the prediction at every point (NaN without one)."""
    if v.low is None or v.high is None:
        return np.full(len(v.points), np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (v.high - v.low) / 2 / np.abs(v.predicted)


def coverage(validated: Sequence[Predicted], level: float | None) -> dict[str, Any]:
    """``{level, cells, covered, share, median_half_width}``: how many measured values (of the
    cells with a measured value and a prediction) the intervals cover, and their median
    half-width relative to the prediction; the same at each term's largest x (``largest``)."""
    masks = [v.largest() for v in validated]

    def count(pick: list[np.ndarray]) -> dict[str, Any]:
        usable = [np.isfinite(v.measured) & np.isfinite(v.predicted) & m for v, m in zip(validated, pick, strict=True)]
        cells = int(sum(u.sum() for u in usable))
        hits = int(sum((covered(v) & u).sum() for v, u in zip(validated, usable, strict=True)))
        widths = np.concatenate([half_width(v)[u] for v, u in zip(validated, usable, strict=True)] or [np.empty(0)])
        return {
            "cells": cells,
            "covered": hits,
            "share": hits / cells if cells else None,
            "median_half_width": float(np.nanmedian(widths)) if widths.size else None,
        }

    found = {"level": level, **count([np.ones(len(v.points), dtype=bool) for v in validated])}
    found["largest"] = count(masks)
    return found


def measured_interval(
    term: Term,
    library: Mapping[str, AtomicModel],
    semantics: Semantics,
    columns: Mapping[str, np.ndarray],
    points: int,
    level: float,
    seed: int,
    count: int | None = None,
) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """The central ``level`` interval of what a measurement of ``term`` would show at each of
    ``points`` points (``columns``: each symbol's values there), drawn ``count`` times (None:
    as ``--interval`` draws) by :class:`~patternalg.algebra.intervals.Spread` with ``seed``,
    and the atoms counted as exact (without an uncertainty: one note for all the terms
    names them)."""
    from ..algebra.intervals import Spread

    spread = Spread.of(term, library, {}, semantics=semantics)
    missing = [s for s in spread.symbols if s not in columns]
    if missing:  # an uncertainty in a symbol its model is not (a model built in Python)
        raise EvaluationError(
            f"the uncertainty of {printable(str(term))} is in {', '.join(missing)}, which the "
            "measurements do not give"
        )
    # x too where the term needs none: a machine's missed spread is by size
    grid = {s: columns[s] for s in (*spread.symbols, "x") if s in columns}
    drawn = spread.draws(grid, seed=seed) if count is None else spread.draws(grid, count, seed)
    # (draws, points); a term constant in its symbols draws one value a draw: (draws,)
    drawn = np.broadcast_to(drawn.reshape(drawn.shape[0], -1), (drawn.shape[0], points))
    low, high = np.quantile(drawn, [(1 - level) / 2, (1 + level) / 2], axis=0)
    return low, high, spread.missing
