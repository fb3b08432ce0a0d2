"""Which designs are fastest on either side of each point where two may be equal, and
the crossovers (the winner changes) and touches (it does not) they make, read in order
along the swept symbol.

The candidates are the points :mod:`.crossovers` finds; each is read where it lies and at
widening distances either side of it, until one design is fastest. A stretch where
designs are equal is crossed from its start to its end if the winner changes across it,
else touched at its ends; nothing inside it is either. Over a count, only integers are
points.

>>> values = lambda at: np.stack([at, 10.0 + 0.0 * at])
>>> crossovers, touches = classify([(10.0, True)], values, ("x", "ten"), "x", 1.0, 100.0)
>>> [(c.value, c.designs) for c in crossovers], touches
([(10.0, ('x', 'ten'))], [])
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._internal.tables import fields_json, number
from .crossovers import TIE_RTOL

__all__ = ["Crossover", "classify"]


@dataclass(frozen=True)
class Crossover:
    """A point where two designs are equal: a ``crossover`` (the winner changes) or a ``touch``."""

    symbol: str
    value: float
    exact: bool  #: a root of a polynomial piece (True) or bracketed and refined to RTOL
    kind: str  #: "crossover" or "touch"
    designs: tuple[str, str]  #: for a crossover: the winner below, the winner above
    #: the two designs' (equal) model there, in the comparison's unit (``value`` is a
    #: position of the swept symbol, unit-free); over a count, the new winner's at ``value``
    model_value: float | None = None
    #: over a count (integers only): the last integer where the old winner wins, when the
    #: winner changes between two integers (``value`` is then the first of the new one)
    previous: float | None = None
    #: with ``interval=``: where the measurements could put it (the undecided stretch
    #: around it at the confidence, else the scan points on either side)
    interval: tuple[float, float] | None = None
    #: a crossover across a stretch where the two designs are equal: where the stretch
    #: begins (``value``: where it ends; the first design wins up to it, the second from ``value``)
    equal_from: float | None = None
    #: for a crossover: the other designs as fast as each of ``designs`` on its side (just
    #: below it, just above it), equal to them at ``value`` too; which of a side's designs
    #: is named is the winner of the stretch on that side (:func:`~.stretches.named`)
    ties: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    def to_json(self) -> dict[str, Any]:
        """``{symbol, value, exact, kind, designs, model_value, previous, equal_from, ties}``
        (and ``interval`` with an interval)."""
        data = fields_json(self)
        if self.interval is None:
            data.pop("interval", None)
        else:
            data["interval"] = list(self.interval)
        return data


def classify(
    candidates: list[tuple[float, bool]],
    values: Callable[[np.ndarray], np.ndarray],
    names: tuple[str, ...],
    symbol_name: str,
    lo: float,
    hi: float,
    integer: bool = False,
) -> tuple[list[Crossover], list[Crossover]]:
    """The crossovers (the winner changes) and touches (it does not) among the candidates:
    the fastest designs just before each candidate, at it and just after it, read in order
    along the axis (:func:`_walk`), exact roots winning over numeric ones at a point.

    Over a count (``integer``), only integers are points: a candidate stands for the step
    from the integer below it to the one above it (at an integer: the steps on either side).
    """
    steps = _count_steps(candidates, values, lo, hi) if integer else _steps(candidates, values, lo, hi)
    return _walk(steps, names, symbol_name)


@dataclass(frozen=True)
class _Step:
    """The fastest designs (equal to rounding) on either side of a candidate: ``left`` up to
    ``last`` and ``right`` from ``first`` (the same point, or over a count two integers),
    and ``here``, those equal at the point to the precision it is found to."""

    last: float
    first: float
    left: frozenset[int]
    here: frozenset[int]
    right: frozenset[int]
    levels: tuple[float, float]  #: the fastest design's value at ``last`` and at ``first``
    exact: bool
    gap: bool = False  #: between two integers, where the winner changes with no point between


#: how far, as a share of the change of two designs' difference over a candidate's
#: neighbourhood (1e-6 of its position either side), they may be apart at the candidate and
#: still be equal there: a root refined to RTOL (1e-9) is off by half of that at most, which
#: is 2.5e-4 of the change; relative to the values alone, two designs crossing where both
#: pass through 0 were never equal (0.5e-7 ns apart at values of 1e-7 ns)
_POSITION_SLACK = 5e-3


#: how far either side of a candidate the fastest designs are read, as multiples of 1e-6 of
#: its position, the last reading midway to the next candidate whatever this says
_REACH = (1.0, 16.0, 256.0, 4096.0, 65536.0)


def _steps(
    candidates: list[tuple[float, bool]], values: Callable[[np.ndarray], np.ndarray], lo: float, hi: float
) -> list[_Step]:
    """One step per candidate inside (lo, hi), in order: the fastest designs before it, at
    it and after it (every point in one evaluation: a deep term's fold is not free).

    Each side is read 1e-6 of the candidate's position away, then further
    (:data:`_REACH`) up to midway to the next candidate (or the end of the range; no two
    designs change places in between, every point where a pair is equal being a
    candidate): the nearest reading with one fastest design, else the furthest. Right
    beside a point, two designs that touch (600 + (x - 9.3)^2 against 600) or cross where
    their difference is flat (600 + (x - 9.3)^3) are equal to rounding, and neither was seen.
    """
    points: list[tuple[float, bool]] = []
    for point, exact in sorted(candidates, key=lambda c: (c[0], not c[1])):
        if lo < point < hi and not (points and abs(point - points[-1][0]) <= 1e-7 * abs(point)):
            points.append((point, exact))  # the same point found twice: the exact one first
    if not points:
        return []
    at = np.array([p for p, _ in points], dtype=float)
    ends = np.array([lo, *at, hi])
    with np.errstate(invalid="ignore"):  # the geometric mean as a product of roots (16 * 1.7e308)
        middles = np.where(ends[:-1] > 0, np.sqrt(ends[:-1]) * np.sqrt(ends[1:]), ends[:-1] / 2 + ends[1:] / 2)
    step = np.maximum(np.abs(at) * 1e-6, 1e-12)
    reach = np.array([*_REACH, np.inf])[:, None] * step
    before = at - np.minimum(reach, at - middles[:-1])  # readings x candidates
    after = at + np.minimum(reach, middles[1:] - at)
    near = values(np.concatenate([at, before.ravel(), after.ravel()]))
    n = len(points)
    here, sides = near[:, :n], near[:, n:].reshape(len(near), 2, len(reach), n)
    known = np.where(np.isnan(here), np.inf, here)
    level, best = known.min(axis=0), known.argmin(axis=0)
    change = np.abs(sides[:, 1, 0] - sides[:, 0, 0])
    with np.errstate(invalid="ignore"):
        slack = 1e-7 * np.abs(level) + _POSITION_SLACK * np.abs(change - change[best, np.arange(n)])
    middle = _fastest(here, slack)
    left, right = (_resolved(sides[:, side]) for side in (0, 1))
    return [
        _Step(point, point, left[k], middle[k], right[k], (float(level[k]),) * 2, exact)
        for k, (point, exact) in enumerate(points)
    ]


def _resolved(readings: np.ndarray) -> list[frozenset[int]]:
    """Per candidate (``readings``: designs x readings, nearest first, x candidates) the
    fastest designs at the nearest reading where one design is, else at the furthest.

    >>> _resolved(np.array([[[1.0], [1.0], [1.0]], [[1.0], [2.0], [3.0]]]))
    [frozenset({0})]
    """
    designs, count, n = readings.shape
    fastest = _fastest(readings.reshape(designs, count * n))
    chosen = []
    for k in range(n):
        sets = [fastest[j * n + k] for j in range(count)]
        chosen.append(next((one for one in sets if len(one) == 1), sets[-1]))
    return chosen


def _count_steps(
    candidates: list[tuple[float, bool]], values: Callable[[np.ndarray], np.ndarray], lo: float, hi: float
) -> list[_Step]:
    """Over a count: one step per pair of neighbouring integers with a candidate between or
    at them, inside [lo, hi], in order."""
    gaps: dict[int, bool] = {}
    for point, exact in candidates:
        if not lo < point < hi:
            continue
        near = round(point)
        on = abs(point - near) <= 1e-9 * max(1.0, abs(point))
        for last in (near - 1, near) if on else (math.floor(point),):
            gaps[last] = gaps.get(last, False) or exact
    if not gaps:
        return []
    lasts = sorted(gaps)
    both = values(np.array([[k, k + 1] for k in lasts], dtype=float).ravel()).reshape(-1, len(lasts), 2)
    left, right = _fastest(both[:, :, 0]), _fastest(both[:, :, 1])
    levels = np.min(np.where(np.isnan(both), np.inf, both), axis=0).tolist()
    return [
        _Step(float(k), float(k + 1), left[j], left[j] | right[j], right[j], (levels[j][0], levels[j][1]), gaps[k], True)
        for j, k in enumerate(lasts)
    ]


def _fastest(values: np.ndarray, slack: np.ndarray | float = 0.0) -> list[frozenset[int]]:
    """Per point (a column of ``values``: designs x points), the designs no more than the
    smallest value plus rounding (:data:`TIE_RTOL`) and ``slack``; none where no value is a
    number.

    >>> _fastest(np.array([[5422.97, 1.0, np.nan], [5422.97, 2.0, np.nan]]))
    [frozenset({0, 1}), frozenset({0}), frozenset()]
    """
    finite = np.where(np.isnan(values), np.inf, values)
    least = finite.min(axis=0)
    with np.errstate(invalid="ignore"):
        near = (finite <= least + TIE_RTOL * np.abs(least) + slack) & np.isfinite(least)
    return [frozenset(np.flatnonzero(column).tolist()) for column in near.T]


def _walk(steps: list[_Step], names: tuple[str, ...], symbol_name: str) -> tuple[list[Crossover], list[Crossover]]:
    """The crossovers and touches the steps make, read in order. Where other designs join
    the fastest (a stretch where they are equal to it begins) nothing is said until some
    leave again and those left are either only some of the fastest before the stretch or
    none of them (it ends; a*x*log2(x) = b*x*log2(x) below 5 = c, equal up to 10, then b = c
    up to 20, then c: from {a, b} through {a, b, c} and {b, c} to {c}): if none,
    the winner changed across the stretch (a crossover from its start to its end, or at a
    point where it is one), else each end is a touch; a stretch from the start of the range
    is a touch where it ends. Where the fastest become others altogether, that is a
    crossover, and a stretch open then a touch where it began. Nothing inside a stretch is
    either. A step counts only where the designs it changes between are equal at its point."""
    crossovers: list[Crossover] = []
    touches: list[Crossover] = []
    opened: tuple[_Step, frozenset[int]] | None = None  # where a stretch began, the fastest before it

    def touch(where: float, level: float, one: frozenset[int], others: frozenset[int], exact: bool) -> None:
        designs = (names[min(one)], names[min(others - one)])
        if not any(t.value == where and t.designs == designs for t in touches):
            touches.append(Crossover(symbol_name, where, exact, "touch", designs, number(level)))

    def crossing(
        where: float,
        level: float,
        sides: tuple[frozenset[int], frozenset[int]],
        exact: bool,
        previous: float | None = None,
        equal_from: float | None = None,
    ) -> None:  # the fastest below and above: the first given of each named, the others its ties
        below, above = (sorted(side) for side in sides)
        designs = (names[below[0]], names[above[0]])
        ties = (tuple(names[k] for k in below[1:]), tuple(names[k] for k in above[1:]))
        crossovers.append(
            Crossover(symbol_name, where, exact, "crossover", designs, number(level), previous, None, equal_from, ties)
        )

    def began() -> None:  # a touch where the open stretch began
        if opened is not None:
            step, before = opened
            touch(step.first, step.levels[1], before, step.right, step.exact)

    for step in steps:
        left, here, right = step.left, step.here, step.right
        if not left or not right or not left | right <= here:
            continue  # no value, or the change is not at this point
        if left == right:
            if here > left:
                touch(step.last, step.levels[0], left, here, step.exact)
        elif left < right:
            opened = opened or (step, left)
        elif right < left:
            if opened is not None and right & opened[1] and not right <= opened[1]:
                continue  # fewer, but still others beside some of those before the stretch
            if opened is not None and not right & opened[1]:
                begun, before = opened  # the winners below: those still equal at the end
                stretch = begun.first if begun.first != step.last else None
                exact = begun.exact and step.exact
                crossing(step.last, step.levels[0], (before & left or before, right), exact, equal_from=stretch)
            else:
                began()
                touch(step.last, step.levels[0], right, left, step.exact)
            opened = None
        elif not left & right:
            # the designs fastest before an open stretch, those still among them if any
            first = left if opened is None else left & opened[1] or left
            began()
            previous = step.last if step.gap else None
            crossing(step.first, step.levels[1], (first, right), step.exact, previous)
            opened = None
    began()
    crossovers.sort(key=lambda c: c.value)
    touches.sort(key=lambda c: c.value)
    return crossovers, touches
