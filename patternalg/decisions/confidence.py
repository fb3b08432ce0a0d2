"""``compare --interval``: where a comparison's winner is decided at a confidence level.

Every design's atoms are drawn jointly (:class:`~patternalg.algebra.intervals.Spread`, shared
atoms drawn once) over the comparison's scan; a stretch of the scan is a :class:`Range` won by
the design that wins in at least the level's share of the draws there and by the models'
values (the comparison's own winner), or undecided; each crossover gets the undecided stretch
around it as its interval. The two can differ where the draws are not centred on the value:
a pipe is its slower stage in every draw, so where its stages are close it is slower in most
draws than its value says (and values near or below 0, extrapolated, are no times): there the
section says undecided, never contradicting the crossovers above it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..algebra.arrays import Compiled
from ..algebra.atomic_model import AtomicModel
from ..algebra.bindings import as_value
from ..algebra.semantics import Semantics

__all__ = ["Range", "Confidence", "confidence"]


@dataclass(frozen=True)
class Range:
    """With ``interval=``: a stretch where one design wins in at least the stated share of
    the draws (``winner``), or none does (``winner`` None: undecided)."""

    start: float
    end: float
    winner: str | None
    share: float  #: the least share of the draws the winner wins in the stretch (undecided: the best design's)
    #: undecided, where asked (``explain=True``): the sources of the draws that alone leave it
    #: undecided (:attr:`~patternalg.algebra.intervals.Spread.sources`: ``fit qsort``,
    #: ``noise``, ``numbers``, ``missed``; the fits of many atoms as one, ``fits``); empty:
    #: none alone does, only together
    undecided_by: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """``{from, to, winner, share}``, and ``undecided_by`` where it was asked."""
        data: dict[str, Any] = {"from": self.start, "to": self.end, "winner": self.winner, "share": self.share}
        if self.undecided_by is not None:
            data["undecided_by"] = list(self.undecided_by)
        return data



@dataclass(frozen=True)
class Confidence:
    """What the draws decide over a comparison's scan: its :class:`Range` stretches, the
    undecided stretch around each crossover, the level and a note for atoms without an
    uncertainty."""

    ranges: tuple[Range, ...]
    around: tuple[tuple[float, float], ...]  #: per crossover, in order
    level: float
    notes: tuple[str, ...]
    exact: frozenset[str] = frozenset()  #: the designs every draw leaves at their values


def confidence(
    compiled: Sequence[Compiled],
    library: Mapping[str, AtomicModel],
    at: Mapping[str, Any] | None,
    symbol: str,
    scan: np.ndarray,
    crossovers: Sequence[float],
    level: float,
    seed: int,
    semantics: Semantics,
    count: bool = False,
    explain: bool = False,
) -> Confidence:
    """Where the designs (``compiled``, in one unit under ``semantics``) are told apart at the
    confidence ``level`` over ``scan`` of ``symbol``, ``seed`` fixing the draws; the undecided
    stretch around each of ``crossovers``. Over a ``count`` (a thread count: integers only)
    the scan's integers, each stretch ending at its own last one (the winner changes between
    two integers; a stretch ended at 9.9 beside a crossover between n = 9 and n = 10).
    ``explain``: each undecided stretch says which sources alone leave it so
    (:func:`_undecided_by`)."""
    from ..algebra.intervals import Spread, check_level, decided, no_uncertainty_note, winner_shares

    level = check_level(level)
    fixed = {k: as_value(v, k) for k, v in (at or {}).items()}
    spreads = [Spread.of(c.term, library, fixed, semantics=semantics, partial=True) for c in compiled]
    if count:
        scan = np.unique(np.round(scan))
    scan = _draw_scan(scan, sum(sum(1 for _ in c.term.walk()) for c in compiled))
    shares = winner_shares(spreads, {symbol: scan}, seed)
    labels = decided(shares, level)
    with np.errstate(invalid="ignore"):
        values = np.stack([c.values({symbol: scan}) for c in compiled])
    point = np.argmin(np.where(np.isfinite(values), values, np.inf), axis=0)
    labels = np.where(labels == point, labels, -1)  # decided: by the draws and the values
    spans = _spans(labels, count)
    ranges = []
    for first, last, low, high, label in spans:
        drawn = shares[:, first : last + 1]
        share = drawn.max(axis=0) if label < 0 else drawn[label]  # undecided: the best design's
        winner = str(compiled[label].term) if label >= 0 else None
        by = None
        if explain and label < 0:
            by = _undecided_by(spreads, symbol, scan[first : last + 1], point[first : last + 1], level, seed)
        ranges.append(Range(float(scan[low]), float(scan[high]), winner, float(share.min()), by))
    around = tuple(_around(value, scan, spans) for value in crossovers)
    missing = sorted({name for s in spreads for name in s.missing})
    notes = (no_uncertainty_note(missing, library),) if missing else ()
    exact = frozenset(str(c.term) for c, s in zip(compiled, spreads, strict=True) if s.exact)
    return Confidence(tuple(ranges), around, level, notes, exact)


#: the most points of an undecided stretch whose draws :func:`_undecided_by` takes source by source
_EXPLAINED_POINTS = 16


def _undecided_by(
    spreads: Sequence[Any], symbol: str, points: np.ndarray, winners: np.ndarray, level: float, seed: int
) -> tuple[str, ...]:
    """The sources of the draws (every design's, in the order an interval lists them) that
    alone leave some of ``points`` (an undecided stretch's, ``winners`` the designs fastest
    there by their values; at most :data:`_EXPLAINED_POINTS` of them, evenly chosen)
    undecided at ``level``: with only that source drawn, every design's jointly as among
    all of them, the fastest by value wins in less than that share of the draws. What a
    designer would measure again (more repetitions for the noise, more sizes of the atom
    for its fit, the calibration compositions for the machine's numbers and miss) to tell
    the designs apart; near a crossover every source does."""
    from ..algebra.interval_sources import source_groups
    from ..algebra.intervals import winner_shares

    if len(points) > _EXPLAINED_POINTS:
        chosen = np.unique(np.linspace(0, len(points) - 1, _EXPLAINED_POINTS).round().astype(int))
        points, winners = points[chosen], winners[chosen]
    kept = []
    for name, only in source_groups(k for s in spreads for k in s.sources):
        shares = winner_shares(list(spreads), {symbol: points}, seed, only=only)
        if np.any(shares[winners, np.arange(len(points))] < level):
            kept.append(name)
    return tuple(kept)


#: sub-terms x scan points the draws of ``compare --interval`` fold at most (each point is
#: folded once per draw): a few seconds; small designs keep the whole scan
_DRAWN_NODES = 4096 * 64


def _draw_scan(scan: np.ndarray, nodes: int) -> np.ndarray:
    """``scan`` thinned (both ends kept) so that the draws fold at most :data:`_DRAWN_NODES`
    sub-terms x points, and at least 64 points: a 10,000-node design is drawn in seconds.

    >>> len(_draw_scan(np.arange(4096.0), 10)), len(_draw_scan(np.arange(4096.0), 20000))
    (4096, 64)
    """
    points = int(np.clip(_DRAWN_NODES // max(nodes, 1), 64, len(scan)))
    if points >= len(scan):
        return scan
    return scan[np.unique(np.linspace(0, len(scan) - 1, points).round().astype(int))]


def _spans(labels: np.ndarray, count: bool) -> list[tuple[int, int, int, int, int]]:
    """The stretches of equal ``labels`` (-1: undecided): each one's first and last point,
    the points it spans from and to, and its label. Over a count each spans its own points;
    else they meet, and an undecided one spans from the last decided point before it to the
    first after it (the scan's ends where there is none): the winner changes somewhere
    between them, and a crossover's interval is that span (:func:`_around`, over a count too).

    >>> _spans(np.array([0, 0, -1, -1, 1, 1, 0]), count=False)
    [(0, 1, 0, 1, 0), (2, 3, 1, 4, -1), (4, 5, 4, 6, 1), (6, 6, 6, 6, 0)]
    >>> _spans(np.array([0, 0, -1, -1, 1, 1, 0]), count=True)
    [(0, 1, 0, 1, 0), (2, 3, 2, 3, -1), (4, 5, 4, 5, 1), (6, 6, 6, 6, 0)]
    """
    starts = [0, *(int(i) for i in np.flatnonzero(labels[1:] != labels[:-1]) + 1), len(labels)]
    spans = []
    for first, after in itertools.pairwise(starts):
        last, label = after - 1, int(labels[first])
        if count:
            low, high = first, last
        elif label < 0:
            low, high = max(first - 1, 0), min(after, len(labels) - 1)
        else:  # to the next stretch's first point; to its own last where the next is undecided
            undecided_next = after < len(labels) and labels[after] < 0
            low, high = first, last if undecided_next else min(after, len(labels) - 1)
        spans.append((first, last, low, high, label))
    return spans


def _around(value: float, scan: np.ndarray, spans: Sequence[tuple[int, int, int, int, int]]) -> tuple[float, float]:
    """The interval of a crossover at ``value``: from the last decided point of ``scan``
    before the undecided stretch there to the first after it (as the stretch's range spans
    it over x, :func:`_spans`; over a count the range keeps its own integers, and the
    winner changes between the decided ones beside them), else the scan points beside it.

    >>> scan = np.arange(5.0, 11.0)  # 5 .. 10: undecided at 7, the winner changes in (7, 8)
    >>> _around(7.5, scan, _spans(np.array([0, 0, -1, 1, 1, 1]), count=True))
    (6.0, 8.0)
    >>> _around(7.5, scan, _spans(np.array([0, 0, 0, 1, 1, 1]), count=True))
    (7.0, 8.0)
    """
    j = int(np.clip(np.searchsorted(scan, value), 1, len(scan) - 1))
    for first, last, _, _, label in spans:
        if label < 0 and first <= j and j - 1 <= last:
            return float(scan[max(first - 1, 0)]), float(scan[min(last + 1, len(scan) - 1)])
    return float(scan[j - 1]), float(scan[j])
