"""Halves of a series' repetitions: how far a measured value moves when only half of what
measured it is kept.

Two splits of the repetitions at each point, in the order the file lists them: the first
and the second half (what drifts across a run: a clock, the machine's state), and the odd
and the even ones (interleaved: what only the number of repetitions explains). A point
with fewer than :data:`FEWEST` repetitions has no halves.

>>> s = Series("a", "", ("x",), np.array([[8.0], [16.0]]),
...            (np.array([1.0, 2, 3, 4, 5]), np.array([7.0, 9])), ((1, 2, 3, 4, 5), (6, 7)), "m")
>>> [halved(s, which).values[0].tolist() for which in range(len(HALVES))]
[[1.0, 2.0], [3.0, 4.0, 5.0], [1.0, 3.0, 5.0], [2.0, 4.0]]
>>> in_halves(s, "median").tolist()
[[1.5, nan], [4.0, nan], [3.0, nan], [3.0, nan]]
>>> in_halves(halved(s, 0), "median") is None  # two repetitions and one: nothing to halve
True
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .model import Aggregation, Series

__all__ = ["FEWEST", "HALVES", "halved", "in_halves"]

#: the halves, in the order :func:`halved` numbers them
HALVES = ("first half", "second half", "odd", "even")

#: the fewest repetitions a point is halved at (two in each half)
FEWEST = 4


def _cut(count: int, which: int) -> slice:
    """The repetitions of half ``which`` (an index into :data:`HALVES`) among ``count``."""
    return (slice(0, count // 2), slice(count // 2, None), slice(0, None, 2), slice(1, None, 2))[which]


def halved(series: Series, which: int) -> Series:
    """``series`` with half ``which`` (an index into :data:`HALVES`) of the repetitions at
    each point, their source lines with them."""
    cuts = [_cut(len(v), which) for v in series.values]
    return replace(
        series,
        values=tuple(v[c] for v, c in zip(series.values, cuts, strict=True)),
        lines=tuple(n[c] for n, c in zip(series.lines, cuts, strict=True)),
        stated=(),  # half of a summary's repetitions is stated nowhere
    )


def in_halves(series: Series, how: Aggregation | str) -> np.ndarray | None:
    """The ``how`` aggregate of each half of the repetitions at each point: shape (halves,
    points), NaN at a point with fewer than :data:`FEWEST` repetitions (None if every
    point has fewer)."""
    if all(len(values) < FEWEST for values in series.values):
        return None
    agg = Aggregation(how)
    found = np.full((len(HALVES), len(series)), np.nan)
    counts = np.array([len(values) for values in series.values])
    for count in np.unique(counts[counts >= FEWEST]):  # the points with as many, at once
        points = np.flatnonzero(counts == count)
        stacked = np.array([series.values[i] for i in points], dtype=float)
        for which in range(len(HALVES)):
            found[which, points] = agg.reduce(stacked[:, _cut(int(count), which)], axis=1)
    return found
