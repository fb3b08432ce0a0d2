"""A comparison's stretches: between two crossovers, the design that wins and how far the
others are above it at the stretch's ends.

>>> import numpy as np
>>> values = lambda p: np.stack([np.asarray(p, dtype=float), np.full(len(p), 4.0)])
>>> scan = np.array([1.0, 2.0, 4.0, 8.0])
>>> at_4 = Crossover("x", 4.0, True, "crossover", ("id", "four"), 4.0)
>>> found = stretches(values, ("id", "four"), [at_4], 1.0, 8.0, scan, values(scan), False)
>>> [(i.start, i.end, i.winner, i.ratios[1]) for i in found]
[(1.0, 4.0, 'id', ('four', 4.0, 1.0)), (4.0, 8.0, 'four', ('four', 1.0, 1.0))]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .._internal.tables import number
from .classify import Crossover
from .crossovers import TIE_RTOL

__all__ = ["Interval", "named", "stretches"]


@dataclass(frozen=True)
class Interval:
    """A stretch of the swept symbol with one winner; ``ratios`` are each design's model over
    the winner's at the two ends."""

    start: float
    end: float
    winner: str
    ratios: tuple[tuple[str, float | None, float | None], ...]
    ties: tuple[str, ...] = ()  #: designs equal to the winner inside the interval

    def to_json(self) -> dict[str, Any]:
        """``{from, to, winner, ties, ratio}`` (ratio: design -> [at from, at to])."""
        return {
            "from": self.start,
            "to": self.end,
            "winner": self.winner,
            "ties": list(self.ties),
            "ratio": {name: [a, b] for name, a, b in self.ratios},
        }


def stretches(
    values: Callable[[np.ndarray], np.ndarray],
    names: Sequence[str],
    crossovers: Sequence[Crossover],
    lo: float,
    hi: float,
    scan: np.ndarray,
    scanned: np.ndarray,
    integer: bool,
    cuts: Sequence[float] = (),
) -> list[Interval]:
    """The stretches of [``lo``, ``hi``] between ``crossovers``, each with its winner: each
    crossover ends one stretch and starts the next (over a count, between integers; across a
    stretch where its designs are equal, the stretch is one of its own), and so does each of
    ``cuts`` (where a design's gap inside the range begins or ends). ``values(points)`` gives
    every design's values (designs × points); ``scanned`` is it at ``scan``."""
    edges, bounds = _edges(crossovers, lo, hi, cuts)
    intervals = []
    for i, ((_, start), (end, _)) in enumerate(zip(edges, edges[1:], strict=False)):
        # the geometric mean as a product of roots: 16 * 1.7e308 is no float
        mid = math.sqrt(start) * math.sqrt(end) if start > 0 else start / 2 + end / 2
        if integer:  # at an integer inside, else at an end that is no crossover
            mid = float(min(max(math.floor(mid), start + 1), end - 1))
            if end - start < 2:
                mid = start if start == lo else end
        ends = values(np.array([start, mid, end]))
        inside = (scan > start) & (scan < end) & ((scan == np.round(scan)) if integer else True)
        sample = np.concatenate([ends[:, 1:2], scanned[:, inside]], axis=1)
        win = _interval_winner(ends, sample)
        at_start, at_end = _equal_at(bounds[i], start, names[win]), _equal_at(bounds[i + 1], end, names[win])
        gap = np.isnan(sample).all(axis=1)  # no value inside: no ratio at its ends either
        ratios = tuple(
            (
                names[k],
                1.0 if names[k] in at_start else None if gap[k] else _ratio(ends[k, 0], ends[win, 0]),
                1.0 if names[k] in at_end else None if gap[k] else _ratio(ends[k, 2], ends[win, 2]),
            )
            for k in range(len(names))
        )
        ties = tuple(  # equal at both ends and inside (to rounding): no crossover in between
            names[k] for k in range(len(names))
            if k != win and _equal(ends[k], ends[win]) and _equal(sample[k], sample[win])
        )
        intervals.append(Interval(start, end, names[win], ratios, ties))
    return intervals


def _interval_winner(ends: np.ndarray, inside: np.ndarray) -> int:
    """The design fastest in a stretch without crossovers, from its values at the stretch's
    start, inside point and end (``ends``) and at the points inside it (``inside``): the
    design no other is below anywhere inside (to rounding: a pipe beside a sequence that
    adds 1e-297 ns to 1e-3 ns); of designs equal everywhere inside (a pool beside a stage
    that needs no core of its own, up to the cores), the one smaller at the ends, where they
    part. Where every design is below another somewhere (a crossover too close to find),
    the smallest at the inside point.

    >>> _interval_winner(np.array([[4.0, 2.0, 2.1], [4.0, 2.0, 2.0], [5.0, 3.0, 1.0]]),
    ...                  np.array([[2.0], [2.0], [3.0]]))
    1
    >>> _interval_winner(np.array([[1e-3, 1e-3, 1.0], [1e-3, 1e-3, 1.1]]),
    ...                  np.array([[1e-3, 1e-3 + 1e-6], [1e-3, 1e-3]]))
    1
    """
    with np.errstate(invalid="ignore"):
        lowest = np.min(inside, axis=0, where=~np.isnan(inside), initial=np.inf)
        # a design without a value at a point takes no part there (a gap inside the range)
        lacking = np.isnan(inside)
        never_below = np.all((inside <= lowest + TIE_RTOL * np.abs(lowest)) | lacking, axis=1) & ~lacking.all(axis=1)
    tied = np.flatnonzero(never_below).tolist()
    if not tied:
        point = ends[:, 1]
        best = np.min(point, where=~np.isnan(point), initial=np.inf)
        tied = [k for k in range(len(ends)) if point[k] == best] or [0]
    return min(tied, key=lambda k: (float(ends[k, 0] + ends[k, 2]), k))


def _equal_at(crossover: Crossover | None, point: float, winner: str) -> tuple[str, ...]:
    """The designs equal to ``winner`` at a stretch's end ``point`` that is ``crossover`` (the
    fastest on either side of it, if the winner is one; where a crossover across a stretch
    of equal designs begins, its two; none over a count, where a crossover falls between two
    integers): their ratio there is 1, not what a point refined to :data:`RTOL` gives
    (``x0.99999999919``, ``x1.000000000002``).

    >>> at_4 = Crossover("x", 4.0, False, "crossover", ("a", "b"), 4.0, ties=((), ("c",)))
    >>> _equal_at(at_4, 4.0, "b"), _equal_at(at_4, 4.0, "d")
    (('a', 'b', 'c'), ())
    """
    if crossover is None or crossover.previous is not None:
        return ()
    (below, above), (tied_below, tied_above) = crossover.designs, crossover.ties
    equal = crossover.designs if point != crossover.value else (below, *tied_below, above, *tied_above)
    return equal if winner in equal else ()


def named(crossovers: Sequence[Crossover], intervals: Sequence[Interval]) -> list[Crossover]:
    """``crossovers`` naming on each side, of the designs fastest there, the winner of the
    stretch on that side (the others its ties), so that which design is given first decides
    no more than it decides a stretch's winner. The stretch below a crossover ends where it
    begins (across a stretch of equal designs: where that begins; over a count: at the last
    integer of the old winner), the one above starts at its ``value``.

    >>> at_4 = Crossover("x", 4.0, True, "crossover", ("a", "c"), 4.0, ties=((), ("b",)))
    >>> (c,) = named([at_4], [Interval(1.0, 4.0, "a", ()), Interval(4.0, 8.0, "b", ())])
    >>> c.designs, c.ties
    (('a', 'b'), ((), ('c',)))
    """
    below = {i.end: i.winner for i in intervals}
    above = {i.start: i.winner for i in intervals}
    renamed = []
    for c in crossovers:
        begins = c.value if c.previous is None else c.previous
        first, ties_below = _led(c.designs[0], c.ties[0], below.get(begins if c.equal_from is None else c.equal_from))
        then, ties_above = _led(c.designs[1], c.ties[1], above.get(c.value))
        renamed.append(replace(c, designs=(first, then), ties=(ties_below, ties_above)))
    return renamed


def _led(first: str, ties: tuple[str, ...], winner: str | None) -> tuple[str, tuple[str, ...]]:
    """One side of a crossover led by ``winner`` if it is one of its designs, the rest in the
    order given.

    >>> _led("a", ("b", "c"), "b"), _led("a", ("b",), "d")
    (('b', ('a', 'c')), ('a', ('b',)))
    """
    if winner is None or winner not in (first, *ties):
        return first, ties
    return winner, tuple(d for d in (first, *ties) if d != winner)


def _equal(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two designs' values are equal to rounding (:data:`TIE_RTOL`) at every point."""
    return bool(np.all(np.abs(a - b) <= TIE_RTOL * np.maximum(np.abs(a), np.abs(b))))


def _ratio(value: float, best: float) -> float | None:
    """How many times ``best`` a design's ``value`` is; infinitely many where the winner
    takes no time (``qsort`` at x = 1); None where either is not a positive time (a ratio
    of a negative value says nothing: the negative value has its note).

    >>> _ratio(3.0, 2.0), _ratio(-97.8, -1620.0), _ratio(2.0, 0.0), _ratio(0.0, 0.0)
    (1.5, None, inf, None)
    """
    if value > 0 and best == 0 and math.isfinite(value):
        return math.inf
    if not (value > 0 and best > 0 and math.isfinite(value) and math.isfinite(best)):
        return None
    return number(value / best)


def _edges(
    crossovers: Sequence[Crossover], lo: float, hi: float, cuts: Sequence[float] = ()
) -> tuple[list[tuple[float, float]], list[Crossover | None]]:
    """Where each interval ends and the next begins (the same point, or over a count two
    integers), with the crossover there if any: (lo, lo), each crossover's (a crossover
    across a stretch where its designs are equal: the stretch's two ends) and each cut not
    at one of them, in order, (hi, hi).

    >>> across = Crossover("x", 10.0, True, "crossover", ("d", "b"), 5.0, equal_from=5.0)
    >>> _edges([across], 1.0, 20.0, cuts=[7.0, 10.0])[0]
    [(1.0, 1.0), (5.0, 5.0), (7.0, 7.0), (10.0, 10.0), (20.0, 20.0)]
    """
    found: list[tuple[tuple[float, float], Crossover | None]] = []
    for c in crossovers:
        if c.equal_from is not None:
            found.append(((c.equal_from, c.equal_from), c))
        found.append(((c.value if c.previous is None else c.previous, c.value), c))
    taken = {point for (before, after), _ in found for point in (before, after)}
    found += [((cut, cut), None) for cut in cuts if lo < cut < hi and cut not in taken]
    found.sort(key=lambda edge: edge[0])
    edges = [(lo, lo), *(edge for edge, _ in found), (hi, hi)]
    return edges, [None, *(c for _, c in found), None]

