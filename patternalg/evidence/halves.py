"""Whether an error is the model's or the measurement's: each error again against every
half of the repetitions (:mod:`patternalg.measurements.halves`: the first and the second
half, the odd and the even ones).

An error that keeps its sign against every half *holds*: the model misses whichever half
measured it. One that changes sign is within what the measurement itself moves, however
large it is: a pool with no work whose median moves by 75 % between the two halves of its
run says nothing about the model by missing by 70 %. How far the error moves (the largest
distance of a half's error from the error) is that movement, in the error's own terms.

>>> predicted, halves = np.array([110.0, 190.0, 50.0]), np.array([[105.0, 160.0, np.nan], [95.0, 240.0, np.nan]])
>>> found = InHalves.of(np.array([0.1, -0.05, 0.0]), predicted / halves - 1)
>>> [[round(e, 4) for e in row] for row in found.against.tolist()]
[[0.0476, 0.1875, nan], [0.1579, -0.2083, nan]]
>>> found.holds.tolist(), [round(m, 4) for m in found.moved.tolist()]
([True, False, False], [0.0579, 0.2375, nan])
>>> [[round(e, 4) for e in side.tolist()] for side in (found.least, found.greatest)]
[[0.0476, -0.2083, nan], [0.1579, 0.1875, nan]]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["InHalves", "halves_overall", "range_text"]


@dataclass(frozen=True, eq=False)
class InHalves:
    """The errors of one series against the halves of its repetitions, per point."""

    error: np.ndarray  #: (predicted - measured) / measured, against all the repetitions
    against: np.ndarray  #: shape (halves, points): the error against each half
    halved: np.ndarray  #: a mask of the points with an error, and one against every half

    @classmethod
    def of(cls, error: np.ndarray, against: np.ndarray) -> InHalves:
        """From the errors and those against each half (NaN where there are none)."""
        return cls(error, against, np.isfinite(error) & np.isfinite(against).all(axis=0))

    @property
    def least(self) -> np.ndarray:
        """The least error against a half at each point (NaN where not :attr:`halved`)."""
        return np.where(self.halved, np.where(self.halved, self.against, 0.0).min(axis=0), np.nan)

    @property
    def greatest(self) -> np.ndarray:
        """The greatest error against a half at each point (NaN where not :attr:`halved`)."""
        return np.where(self.halved, np.where(self.halved, self.against, 0.0).max(axis=0), np.nan)

    @property
    def holds(self) -> np.ndarray:
        """A mask of the points whose error keeps its sign against every half."""
        with np.errstate(invalid="ignore"):
            same = (np.sign(self.against) == np.sign(self.error)) & (self.against != 0)
        return self.halved & same.all(axis=0)

    @property
    def moved(self) -> np.ndarray:
        """How far the error moves at each point: the largest |error against a half -
        error| (NaN where not :attr:`halved`)."""
        with np.errstate(invalid="ignore"):
            distance = np.abs(self.against - self.error).max(axis=0)
        return np.where(self.halved, distance, np.nan)

    def at(self, index: int) -> dict[str, Any] | None:
        """At point ``index``: ``{in_halves: [least, greatest], holds}`` (None if not
        :attr:`halved` there)."""
        if not self.halved[index]:
            return None
        return {
            "in_halves": [float(self.least[index]), float(self.greatest[index])],
            "holds": bool(self.holds[index]),
        }


def range_text(pair: Sequence[float] | None, gap: str = "") -> str:
    """A least and a greatest error in percent, ``-85.0% to +12.0%`` (``gap`` before each
    ``%``, as the table around it writes them; ``-`` where there are none).

    >>> range_text([-0.85, 0.12]), range_text([-0.123, 0.04], " "), range_text(None)
    ('-85.0% to +12.0%', '-12.3 % to +4.0 %', '-')
    """
    if pair is None:
        return "-"
    low, high = pair
    return f"{100 * low:+.1f}{gap}% to {100 * high:+.1f}{gap}%"


def halves_overall(found: Sequence[tuple[str, str, Sequence[str], np.ndarray, InHalves]]) -> dict[str, Any] | None:
    """Over the points with halves of every ``(term, file, parameters, points, halves)``:
    ``{cells, hold, median_moved, most_moved, most_moved_term, most_moved_file,
    most_moved_at}`` (None if no point has halves)."""
    distances = [halves.moved[halves.halved] for *_, halves in found]
    if not any(d.size for d in distances):
        return None
    most = max(range(len(found)), key=lambda k: distances[k].max(initial=-np.inf))
    term, path, parameters, points, halves = found[most]
    at = np.flatnonzero(halves.halved)[int(np.argmax(distances[most]))]
    joined = np.concatenate(distances)
    return {
        "cells": len(joined),
        "hold": int(sum(int(h.holds.sum()) for *_, h in found)),
        "median_moved": float(np.median(joined)),
        "most_moved": float(joined.max()),
        "most_moved_term": term,
        "most_moved_file": path,
        "most_moved_at": dict(zip(parameters, map(float, points[at]), strict=True)),
    }
