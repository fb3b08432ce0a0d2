"""Whether an error is the model's or the measurement's: each error again against every
half of the repetitions (:mod:`patternalg.measurements.halves`: the first and the second
half, the odd and the even ones).

An error that keeps its sign against every half *holds*: the model misses whichever half
measured it. One that changes sign is within what the measurement itself moves, however
large it is: a pool with no work whose median moves by 75 % between the two halves of its
run says nothing about the model by missing by 70 %. How far the error moves (the largest
distance of a half's error from the error) is that movement, in the error's own terms.

>>> from patternalg.evidence.validated import Validated
>>> v = Validated("inc", "inc", "m.txt", ("x",), "x", np.array([[1.0], [2.0], [4.0]]),
...               np.array([110.0, 190.0, 50.0]), np.array([100.0, 200.0, 50.0]), "ns",
...               halves=np.array([[105.0, 160.0, np.nan], [95.0, 240.0, np.nan]]))
>>> [[round(e, 4) for e in row] for row in errors_in_halves(v).tolist()]
[[0.0476, 0.1875, nan], [0.1579, -0.2083, nan]]
>>> holds(v).tolist(), [round(m, 4) for m in moved(v).tolist()]
([True, False, False], [0.0579, 0.2375, nan])
>>> [[round(e, 4) for e in side.tolist()] for side in error_range(v)]
[[0.0476, -0.2083, nan], [0.1579, 0.1875, nan]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

__all__ = ["Halved", "errors_in_halves", "halved_points", "error_range", "holds", "moved", "halves_overall"]


class Halved(Protocol):
    """A series predicted, with its measured values in halves
    (:class:`~patternalg.evidence.validated.Validated`)."""

    @property
    def term(self) -> str: ...
    @property
    def parameters(self) -> tuple[str, ...]: ...
    @property
    def points(self) -> np.ndarray: ...
    @property
    def predicted(self) -> np.ndarray: ...
    @property
    def error(self) -> np.ndarray: ...
    @property
    def halves(self) -> np.ndarray | None: ...


def errors_in_halves(v: Halved) -> np.ndarray:
    """The error against each half: shape (halves, points), NaN where a point has no halves."""
    if v.halves is None:
        return np.full((0, len(v.points)), np.nan)
    with np.errstate(all="ignore"):
        found = (v.predicted - v.halves) / v.halves
    return np.where(np.isfinite(found), found, np.nan)


def halved_points(v: Halved) -> np.ndarray:
    """A mask of the points with an error against every half."""
    found = errors_in_halves(v)
    return np.isfinite(v.error) & (np.isfinite(found).all(axis=0) if len(found) else False)


def error_range(v: Halved) -> tuple[np.ndarray, np.ndarray]:
    """The least and the greatest error against a half at each point (NaN where a point
    has no error against every half)."""
    found = errors_in_halves(v)
    if not len(found):
        return np.full(len(v.points), np.nan), np.full(len(v.points), np.nan)
    mask = halved_points(v)
    least = np.where(mask, np.min(np.where(mask, found, 0.0), axis=0), np.nan)
    greatest = np.where(mask, np.max(np.where(mask, found, 0.0), axis=0), np.nan)
    return least, greatest


def holds(v: Halved) -> np.ndarray:
    """A mask of the points whose error keeps its sign against every half (False where a
    point has no halves)."""
    found = errors_in_halves(v)
    if not len(found):
        return np.zeros(len(v.points), dtype=bool)
    with np.errstate(invalid="ignore"):
        same = (np.sign(found) == np.sign(v.error)) & (found != 0)
    return halved_points(v) & same.all(axis=0)


def moved(v: Halved) -> np.ndarray:
    """How far the error moves at each point: the largest |error against a half - error|
    (NaN where a point has no halves)."""
    found = errors_in_halves(v)
    if not len(found):
        return np.full(len(v.points), np.nan)
    with np.errstate(invalid="ignore"):
        distance = np.abs(found - v.error).max(axis=0)
    return np.where(halved_points(v), distance, np.nan)


def halves_overall(validated: Sequence[Halved]) -> dict[str, Any] | None:
    """Over the points with halves: ``{cells, hold, median_moved, most_moved, most_moved_term,
    most_moved_at}`` (None if no point has halves)."""
    masks = [halved_points(v) for v in validated]
    if not any(mask.any() for mask in masks):
        return None
    distances = [moved(v)[mask] for v, mask in zip(validated, masks, strict=True)]
    most = max(range(len(validated)), key=lambda k: distances[k].max(initial=-np.inf))
    at = np.flatnonzero(masks[most])[int(np.argmax(distances[most]))]
    joined = np.concatenate(distances)
    return {
        "cells": len(joined),
        "hold": int(sum(int(holds(v)[mask].sum()) for v, mask in zip(validated, masks, strict=True))),
        "median_moved": float(np.median(joined)),
        "most_moved": float(joined.max()),
        "most_moved_term": validated[most].term,
        "most_moved_at": dict(zip(validated[most].parameters, map(float, validated[most].points[at]), strict=True)),
    }
