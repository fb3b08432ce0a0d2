"""``compare``: which design is fastest where, with the crossover points between them.

Crossovers are solved algebraically where the difference of two models is, piece by
piece of its ``max``es, a polynomial of degree at most 4 in x, in log2(x), in a root of x
or (over a count) in the count: its roots are the eigenvalues of the companion matrix, in
bounded time (never a symbolic solve); other sign changes are bracketed on a log grid and
refined by a bounded bisection to a relative 1e-9, and each crossover says which
(``exact``). Where two designs are equal without changing places (one never loses) the
point is a *touch*, not a crossover; a stretch where they are equal is crossed from its
start to its end if the winner changes across it (``equal_from``), else touched at its ends,
and nothing inside it is either. A count (a thread count) takes integers: the winner
changes between two integers, and a crossover says which (``previous``, ``value``).

>>> result = compare(["inc", "nop"], over=parse_axis("x=1..1e6:log"))
>>> [(round(c.value, 4), c.exact) for c in result.crossovers]
[(10.114, True)]
>>> [(i.winner, round(i.start, 4)) for i in result.intervals]
[('inc', 1.0), ('nop', 10.114)]
>>> result.asymptotic_winner
'nop'
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import sympy

from .._internal.callbacks import ProgressCallback
from .._internal.limits import printable
from .._internal.tables import Tabular, number
from ..algebra.arrays import Compiled, count_symbols
from ..algebra.domains import negative_note, range_notes
from ..algebra.evaluation import size_of
from ..algebra.grid import Axis, parse_axis, spaced
from ..algebra.machine import MachineSemantics, threads_needed, threads_text
from ..algebra.pointwise import with_counts
from ..algebra.semantics import Semantics
from ..arguments import as_axes, as_bindings, as_terms
from ..errors import EvaluationError
from ..library.machines import MachineLike, semantics_of
from ..library.model_library import AtomicModel, ModelLibrary
from ..syntax.arith import bounds_text, number_text
from ..syntax.symbols import symbol
from ..syntax.terms import Term
from .asymptotic import asymptotic_winner
from .classify import Crossover, classify
from .confidence import Range, confidence
from .crossovers import REFINED_DIGITS, RTOL, TIE_RTOL, exact_roots, numeric_roots
from .options import DEFAULT_RANGE
from .sweep import Sweep, prepare, tabulate, with_intervals

__all__ = ["Crossover", "Range", "Interval", "Region", "Comparison", "compare", "DEFAULT_RANGE"]

_SCAN = 4096  #: points of the scan that brackets sign changes
#: a stretch where no design wins in the level's share of the draws
UNDECIDED = "undecided (the measurements cannot tell)"


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


@dataclass(frozen=True, eq=False)
class Region:
    """The winner in every cell of a two-symbol grid."""

    axes: tuple[Axis, Axis]
    winners: np.ndarray  #: indices into the compared terms (-1: none), shape (len(axes[0]), len(axes[1]))

    def lines(self, terms: Sequence[str]) -> list[str]:
        """A character map: the first symbol across, the second up; a legend below."""
        first, second = self.axes
        lines = [f"{second.name} \\ {first.name}"]
        labels = [number_text(v) for v in second.values]
        width = max(10, *map(len, labels))  # the rows' bars in one column
        for j in reversed(range(len(second))):
            row = "".join("." if w < 0 else chr(ord("A") + int(w)) for w in self.winners[:, j])
            lines.append(f"{labels[j]:>{width}} | {row}")
        lines.append(f"{'':>{width}} + {number_text(first.values[0])} .. {number_text(first.values[-1])}")
        lines += [f"  {chr(ord('A') + i)} = {t}" for i, t in enumerate(terms)]
        if (self.winners < 0).any():
            lines.append("  . = no value to compare (beyond a double's range, or undefined there)")
        return lines

    def runs(self, terms: Sequence[str]) -> list[tuple[float, float, float, str | None]]:
        """The map's rows as a table: for each value of the second symbol (ascending), each
        run of cells along the first with one winner: ``(second, first from, first to,
        winner)`` (None: no value to compare). The winner changes between a run's end and
        the next one's start.

        >>> region = Region((parse_axis("x=1,2,3"), parse_axis("n=1,2")), np.array([[0, 1], [1, 1], [1, -1]]))
        >>> region.runs(["a", "b"])
        [(1.0, 1.0, 1.0, 'a'), (1.0, 2.0, 3.0, 'b'), (2.0, 1.0, 2.0, 'b'), (2.0, 3.0, 3.0, None)]
        """
        first, second = self.axes
        runs = []
        for j in range(len(second)):
            column = self.winners[:, j]
            start = 0
            for i in range(1, len(first) + 1):
                if i == len(first) or column[i] != column[start]:
                    w = int(column[start])
                    name = terms[w] if w >= 0 else None
                    runs.append((float(second.values[j]), float(first.values[start]), float(first.values[i - 1]), name))
                    start = i
        return runs

    def to_json(self, terms: Sequence[str]) -> list[dict[str, Any]]:
        """One cell per grid point: both symbols' values and the winner."""
        first, second = self.axes
        return [
            {
                first.name: float(first.values[i]),
                second.name: float(second.values[j]),
                "winner": terms[int(self.winners[i, j])] if self.winners[i, j] >= 0 else None,
            }
            for i in range(len(first))
            for j in range(len(second))
        ]


@dataclass(frozen=True, eq=False)
class Comparison(Tabular):
    """Which of several designs is fastest where (see :func:`compare`)."""

    terms: tuple[str, ...]
    symbol: str
    bounds: tuple[float, float]
    crossovers: tuple[Crossover, ...]
    touches: tuple[Crossover, ...]
    intervals: tuple[Interval, ...]
    asymptotic_winner: str | None
    #: the designs whose closed forms grow exactly as the asymptotic winner's
    asymptotic_ties: tuple[str, ...]
    unit: str  #: of the models (and of the crossovers' ``model_value``); ratios are unit-free
    region: Region | None = None
    #: with a region map: the second symbol's value at which crossovers are computed
    slice_at: tuple[tuple[str, float], ...] = ()
    #: the designs' numeric models along ``symbol`` (for :meth:`sweep` and :meth:`plot`)
    compiled: tuple[Compiled, ...] = field(default=(), repr=False)
    notes: tuple[str, ...] = ()  #: which atoms were converted to :attr:`unit`
    #: with ``interval=``: who wins where at the confidence ``level``, undecided stretches too
    ranges: tuple[Range, ...] = ()
    level: float | None = None
    #: the size the asymptotic winner is for: x, or the compared symbol where no design's
    #: closed form has x (models fitted over a file's n)
    asymptotic_symbol: str = "x"
    #: with ``interval=``, what :meth:`sweep` draws its bands from: the atoms (in
    #: :attr:`unit`), the symbols bound and the draws' seed
    library: Mapping[str, AtomicModel] = field(default_factory=dict, repr=False)
    at: Mapping[str, Any] = field(default_factory=dict, repr=False)
    seed: int = 0

    def values(self, points: np.ndarray) -> np.ndarray:
        """Each design's model at ``points`` of the swept symbol: shape (designs, points)."""
        grid = np.asarray(points, dtype=float)
        return np.stack([c.values({self.symbol: grid}) for c in self.compiled]).reshape(
            len(self.compiled), grid.size
        )

    def sweep(self, points: int = 256) -> Sweep:
        """The designs' values at ``points`` points over the compared range (log-spaced
        where the range is positive), with each pipe's bottleneck; with an interval, each
        design's interval at its :attr:`level` (the same draws as ``sweep(..., interval=)``).

        >>> result = compare(["inc", "nop"], over=parse_axis("x=1..1e4"))
        >>> curves = result.sweep(5)
        >>> curves.axes[0].values.tolist(), curves.values[1].tolist()
        ([1.0, 10.0, 100.0, 1000.0, 10000.0], [5422.97, 5422.97, 5422.97, 5422.97, 5422.97])
        """
        lo, hi = self.bounds
        spacing = "log" if lo > 0 else "lin"
        grid = spaced(lo, hi, points, spacing)
        axis = Axis(self.symbol, grid, spacing)
        fixed = tuple((k, number_text(v)) for k, v in self.slice_at)
        curves = tabulate(self.compiled, (axis,), {self.symbol: grid}, self.unit, fixed, self.notes)
        if self.level is None:
            return curves
        return with_intervals(curves, self.compiled, self.library, {self.symbol: grid}, self.at, self.level, self.seed)

    def plot(self, ax: Any = None) -> Any:
        """Each design over the compared range, crossovers marked (matplotlib axes)."""
        from ..plotting.results import plot_sweep

        return plot_sweep(self.sweep(), self, ax=ax)

    def to_json(self) -> dict[str, Any]:
        """``{terms, symbol, range, crossovers, touches, intervals, asymptotic_winner,
        asymptotic_ties, asymptotic_symbol, unit, notes}`` and ``cells`` for a two-symbol
        region map."""
        data: dict[str, Any] = {
            "terms": list(self.terms),
            "symbol": self.symbol,
            "range": list(self.bounds),
            "crossovers": [c.to_json() for c in self.crossovers],
            "touches": [c.to_json() for c in self.touches],
            "intervals": [i.to_json() for i in self.intervals],
            "asymptotic_winner": self.asymptotic_winner,
            "asymptotic_ties": list(self.asymptotic_ties),
            "asymptotic_symbol": self.asymptotic_symbol,
            "unit": self.unit,
            "notes": list(self.notes),
        }
        if self.region is not None:
            data["cells"] = self.region.to_json(self.terms)
            data["slice_at"] = dict(self.slice_at)
        if self.level is not None:
            data["level"] = self.level
            data["ranges"] = [r.to_json() for r in self.ranges]
        return data

    @property
    def _parted(self) -> bool:
        """Whether the table has more than the stretches along the symbol: a region map, or
        what the draws decide (each row then names its part)."""
        return self.region is not None or self.level is not None

    def header(self) -> list[str]:
        """Columns of the interval table; with a region map or an interval first the part of
        the answer a row belongs to (and the second symbol's value)."""
        parts = ["part", *(k for k, _ in self.slice_at)] if self._parted else []
        return [*parts, "from", "to", "winner", "ties with it", *(f"{t} / winner at from" for t in self.terms)]

    def rows(self) -> list[list[Any]]:
        """One row per interval: its ends (a refined crossover in the digits it is known
        to), its winner, the designs equal to it there, and each design over it at the
        start. With an interval, then the stretches the draws decide (their ends in the
        digits the draws know them to); with a region map, then its rows' runs of one winner
        (:meth:`Region.runs`); each row first naming its part, as the text does.

        >>> compare(["pipe(inc, inc)", "tpool_2(seq(inc, inc))"]).rows()
        [[1.0, 1099511627776.0, 'pipe(inc, inc)', 'tpool_2(seq(inc, inc))', 1.0, 1.0]]
        """
        along = [
            [self._known(i.start), self._known(i.end), i.winner, ", ".join(i.ties), *(r[1] for r in i.ratios)]
            for i in self.intervals
        ]
        if not self._parted:
            return along
        where = [v for _, v in self.slice_at]
        rows = [[self._along(), *where, *row] for row in along]
        none = [None] * len(self.terms)
        if self.level is not None:
            part = f"with {100 * self.level:g} % confidence"
            for r in self.ranges:
                low, high = (float(end) for end in self._stretch(r.start, r.end))
                rows.append([part, *where, low, high, r.winner or UNDECIDED, "", *none])
        if self.region is not None:
            rows += [["region map", at, start, end, winner, "", *none] for at, start, end, winner in self.region.runs(self.terms)]
        return rows

    def details(self) -> list[str]:
        """The region map, as the text draws it (below the notebook's table)."""
        if self.region is None:
            return []
        return [_in_short(line, self.terms) for line in self.region.lines(self.terms)]

    def _along(self) -> str:
        """The slice the crossovers are found along: ``along x at n = 1``."""
        where = ", ".join(f"{k} = {number_text(v)}" for k, v in self.slice_at)
        return f"along {self.symbol}" + (f" at {where}" if where else "")

    def _known(self, value: float) -> float:
        """A stretch's end as the text gives it (:meth:`_position`)."""
        return float(self._position(value))

    def caption(self) -> str:
        """The crossovers with the models' value there, in the unit, and the asymptotic
        winner (above the HTML table).

        >>> compare(["inc", "nop"], over=parse_axis("x=1..1e6:log")).caption()
        'crossover at x = 10.1139905070078: inc below, nop above, both 5422.97 ns there; asymptotic winner (x -> oo): nop'
        """
        found = "; ".join(self._briefly(c) for c in (*self.crossovers, *self.touches))
        drawn = [
            f"with {100 * self.level:g} % confidence the crossover {c.designs[0]} / {c.designs[1]} "
            f"is at {self.symbol} in [{', '.join(self._stretch(*c.interval))}]"
            for c in self.crossovers
            if self.level is not None and c.interval is not None
        ]
        where = [f"{self._along()}:"] if self.slice_at else []
        parts = [found] if found else []
        return " ".join(where + ["; ".join([*parts, *drawn, self._asymptotic_line()])])

    def _briefly(self, c: Crossover) -> str:
        """A crossover or a touch as the caption says it."""
        a, b, at = c.designs[0], c.designs[1], self._position(c.value)
        if c.previous is not None:
            before = self._position(c.previous)
            return f"crossover between {c.symbol} = {before} and {at}: {a} up to {before}, {b} from {at}"
        if c.equal_from is not None:
            start = self._position(c.equal_from)
            return f"crossover across {c.symbol} in [{start}, {at}]: {a} below, {b} above, equal in between"
        if c.kind == "touch":
            return f"touch at {c.symbol} = {at}: {a} equals {b}, both {self._level(c)} there"
        return f"crossover at {c.symbol} = {at}: {a} below, {b} above, both {self._level(c)} there"

    def _position(self, value: float) -> str:
        """A point on the axis by the one printer: in full, or, where a crossover was
        refined by bisection, in the :data:`REFINED_DIGITS` it is known to."""
        refined = {v for c in (*self.crossovers, *self.touches) if not c.exact for v in (c.value, c.equal_from)}
        return number_text(value, REFINED_DIGITS if value in refined else None)

    def _stretch(self, start: float, end: float) -> tuple[str, str]:
        """A stretch the draws decide: its ends in the few digits the draws know them to
        (:func:`~patternalg.syntax.arith.bounds_text`), an end of the compared range as asked;
        over a count, the integers in full."""
        if any(self.symbol in count_symbols(c.term) for c in self.compiled):
            return number_text(start), number_text(end)
        low, high = bounds_text(start, end)
        return (
            number_text(start) if start in self.bounds else low,
            number_text(end) if end in self.bounds else high,
        )

    def _level(self, c: Crossover, digits: int | None = None) -> str:
        """The designs' value at a crossover (``digits`` significant digits)."""
        if c.model_value is None:
            return "undefined"
        return f"{number_text(c.model_value, digits)} {self.unit}"

    def _asymptotic_line(self) -> str:
        """``asymptotic winner (x -> oo): W`` and the designs that tie with it."""
        winner = self.asymptotic_winner or "undecided"
        ties = f" ties with {', '.join(self.asymptotic_ties)}" if self.asymptotic_ties else ""
        return f"asymptotic winner ({self.asymptotic_symbol} -> oo): {winner}{ties}"

    def lines(self, digits: int | None = None) -> list[str]:
        """The comparison for people, one line each: positions and ratios by the one
        printer, the models' values there in ``digits`` significant digits."""
        lines = []
        if self.slice_at:
            lines.append(f"{self._along()}:")
        for i in self.intervals:
            rest = [(n, a, b) for n, a, b in i.ratios if n != i.winner]
            own = next((a, b) for n, a, b in i.ratios if n == i.winner)
            equal = list(i.ties)
            others = ", ".join(
                f"{n} {_times(a, digits, own[0])} .. {_times(b, digits, own[1])}"
                for n, a, b in rest
                if n not in equal and (a is not None or b is not None)
            )
            verdict = f"{i.winner} wins" if not equal else f"{i.winner} ties with {', '.join(equal)}"
            lines.append(
                f"{self.symbol} in [{self._position(i.start)}, {self._position(i.end)}]: {verdict}"
                + (f" (others over it at the ends: {others})" if others else "")
            )
        for c in self.crossovers:
            how = "exact" if c.exact else f"refined to rel. {RTOL:g}"
            if c.previous is not None:
                before, after = self._position(c.previous), self._position(c.value)
                lines.append(
                    f"crossover between {c.symbol} = {before} and {c.symbol} = {after} (a count: "
                    f"integers only): {c.designs[0]} wins at {before}, {c.designs[1]} from "
                    f"{after} on ({self._level(c, digits)} there)"
                )
                continue
            if c.equal_from is not None:
                start, end = self._position(c.equal_from), self._position(c.value)
                lines.append(
                    f"crossover across {c.symbol} in [{start}, {end}] ({how}): {c.designs[0]} below, "
                    f"{c.designs[1]} above, equal in between; both {self._level(c, digits)} at {c.symbol} = {end}"
                )
                continue
            lines.append(
                f"crossover at {c.symbol} = {self._position(c.value)} ({how}): {c.designs[0]} "
                f"below, {c.designs[1]} above; both {self._level(c, digits)} there"
            )
        for c in self.touches:
            how = "exact" if c.exact else f"refined to rel. {RTOL:g}"
            lines.append(
                f"touch at {c.symbol} = {self._position(c.value)} ({how}): {c.designs[0]} equals "
                f"{c.designs[1]} there ({self._level(c, digits)}) and never loses to it nearby"
            )
        if self.level is not None:
            lines.append(f"with {100 * self.level:g} % confidence (what measurements would show):")
            for r in self.ranges:
                verdict = f"{r.winner} wins" if r.winner else UNDECIDED
                low, high = self._stretch(r.start, r.end)
                lines.append(f"  {self.symbol} in [{low}, {high}]: {verdict}")
            for c in self.crossovers:
                if c.interval is not None:
                    low, high = self._stretch(*c.interval)
                    lines.append(f"  crossover {c.designs[0]} / {c.designs[1]}: {self.symbol} in [{low}, {high}]")
        lines.append(self._asymptotic_line())
        if self.region is not None:
            lines += self.region.lines(self.terms)
        return [_in_short(line, self.terms) for line in lines]


#: a design's name longer than this is shown with its middle elided
_NAME_SHOWN = 200


def _in_short(line: str, names: Sequence[str]) -> str:
    """``line`` with each design longer than :data:`_NAME_SHOWN` named in short, its middle
    elided (a term 3,000 deep is 99,000 characters; ``--format json`` has it whole), unless
    two designs would then read alike (a redesign of a profile's term differs in its middle).

    >>> _in_short("a wins", ["a"]), _in_short("x" * 300 + " wins", ["x" * 300])[-8:]
    ('a wins', 'xxx wins')
    >>> one, two = "y" * 150 + "1" + "y" * 150, "y" * 150 + "2" + "y" * 150
    >>> _in_short(one + " wins", [one, two]) == one + " wins"
    True
    """
    shown = {name: printable(name, _NAME_SHOWN) for name in names if len(name) > _NAME_SHOWN}
    if len(set(shown.values())) < len(shown):
        return line
    for name, short in shown.items():
        line = line.replace(name, short)
    return line


# --- the comparison --------------------------------------------------------------------------
def _scan(axis: Axis) -> np.ndarray:
    lo, hi = axis.bounds
    dense = spaced(lo, hi, _SCAN, "log" if lo > 0 else "lin")
    return np.unique(np.concatenate([dense, axis.values]))


def _winners(values: np.ndarray) -> np.ndarray:
    """Index of the smallest model at each point; ties go to the earlier design."""
    return np.argmin(values, axis=0)


def compare(
    terms: Sequence[str | Term],
    *,
    over: Axis | str | Sequence[Axis | str] | None = None,
    at: Mapping[str, Any] | None = None,
    library: Mapping[str, AtomicModel] | None = None,
    unit: str | None = None,
    progress: ProgressCallback = None,
    machine: MachineLike = None,
    cores: int | None = None,
    interval: float | None = None,
    seed: int = 0,
) -> Comparison:
    """Which of ``terms`` is fastest where over one swept symbol (default x in 1..2^40),
    with a region map when two symbols are swept. Every atom is converted to ``unit``
    first (default: the atoms' common unit; times of different units: ns);
    ``progress(pairs done, pairs)`` as the crossovers of each pair are found; under the
    semantics of ``machine`` (a machine, a machine file's path or a number of cores;
    ``cores``, as ``--cores``: replaces its cores, or alone a machine of that many) if
    given. ``interval`` (a level such as 0.9) draws the designs jointly (:mod:`.intervals`)
    and says per range which design wins in that share of the draws, and where none does;
    each crossover gets the stretch of the axis where it could lie."""
    terms, at, library = as_terms(terms), as_bindings(at), ModelLibrary.of(library)
    semantics = semantics_of("exact", machine, cores)
    # without --over, the designs' size: x, or the one symbol their atoms are models in
    sizes = {size_of(t, library, semantics) for t in terms}
    found = sizes.pop() if len(sizes) == 1 else None
    size = "x" if found is None else found.name
    default = f"{size}={DEFAULT_RANGE.partition('=')[2]}"
    axes = as_axes(over, integer=set().union(*map(count_symbols, terms))) if over else [parse_axis(default)]
    if not over and axes[0].name in at:  # the sweep the user did not write: say it is the default
        raise EvaluationError(
            f"compare sweeps {default} when no --over is given, and --at fixes "
            f"{axes[0].name}: sweep another symbol (e.g. --over {'p' if size == 'n' else 'n'}=1..64) "
            f"or leave {axes[0].name} out of --at"
        )
    if len(terms) < 2:
        raise EvaluationError(f"compare needs at least two terms, got {len(terms)}")
    ready = prepare(terms, axes, at, library, unit, semantics)
    compiled, library = ready.compiled, ready.library
    ranges = {a.name: a.bounds for a in axes}
    notes = [*ready.notes, *range_notes([c.term for c in compiled], library, at or {}, ranges)]
    if not over and size != "x":
        notes.append(f"no --over: comparing {default.replace('=', ' = ')}, the designs' size as x's default; --over sets it")
    notes += _threads_note([with_counts(c.term, at) for c in compiled], semantics)
    names = tuple(str(c.term) for c in compiled)
    if len(set(names)) < len(names):
        raise EvaluationError("compare: a term is given twice")
    axis = axes[0]
    s = symbol(axis.name)
    region = _region(compiled, axes) if len(axes) == 2 else None
    if region is not None:  # crossovers along the first symbol at the second's smallest value
        first = float(axes[1].values[0])
        at = {**(at or {}), axes[1].name: int(first) if first.is_integer() else first}
        compiled = prepare(terms, axes[:1], at, library, ready.unit, semantics).compiled

    def values(points: np.ndarray) -> np.ndarray:
        return np.stack([c.values({axis.name: points}) for c in compiled])

    scan = _scan(axis)
    scanned = values(scan)
    with np.errstate(invalid="ignore"):
        least = np.nanmin(scanned, axis=1, initial=np.inf)
    for name, value in zip(names, least, strict=True):
        notes += negative_note(name, float(value), ready.unit)
    lo, hi, narrowed = _finite_span(_underflows_lacking(scanned, scan, compiled, s), scan, names, axis)
    notes += narrowed
    kept = (scan >= lo) & (scan <= hi)
    scan, scanned = scan[kept], scanned[:, kept]
    candidates: list[tuple[float, bool]] = []
    pairs = list(itertools.combinations(range(len(compiled)), 2))
    for done, (i, j) in enumerate(pairs):
        if progress is not None:
            progress(done, len(pairs))
        left, right = compiled[i].expr, compiled[j].expr
        exact = None if left is None or right is None else exact_roots(left - right, s, lo, hi)
        if exact is not None:
            candidates += [(r, True) for r in exact]
            continue
        both = lambda v, p=(i, j): np.stack([compiled[k].values({axis.name: v}) for k in p])  # noqa: E731
        candidates += [(r, False) for r in numeric_roots(both, scan, scanned[[i, j]])]
    integer = any(axis.name in count_symbols(c.term) for c in compiled)
    crossovers, touches = classify(candidates, values, names, axis.name, lo, hi, integer)
    # each crossover ends one interval and starts the next (over a count, between integers;
    # across a stretch where its designs are equal, the stretch is an interval of its own)
    edges, bounds = _edges(crossovers, lo, hi)
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
        at_start, at_end = _equal_at(bounds[i], names[win]), _equal_at(bounds[i + 1], names[win])
        ratios = tuple(
            (
                names[k],
                1.0 if names[k] in at_start else _ratio(ends[k, 0], ends[win, 0]),
                1.0 if names[k] in at_end else _ratio(ends[k, 2], ends[win, 2]),
            )
            for k in range(len(names))
        )
        ties = tuple(  # equal at both ends and inside (to rounding): no crossover in between
            names[k] for k in range(len(names))
            if k != win and _equal(ends[k], ends[win]) and _equal(sample[k], sample[win])
        )
        intervals.append(Interval(start, end, names[win], ratios, ties))
    winner, ties, size = asymptotic_winner(compiled, names, library, at, semantics)
    result = Comparison(
        names,
        axis.name,
        (lo, hi),
        tuple(crossovers),
        tuple(touches),
        tuple(intervals),
        winner,
        ties,
        ready.unit,
        region,
        () if region is None else ((axes[1].name, float(axes[1].values[0])),),
        tuple(compiled),
        tuple(notes),
        asymptotic_symbol=size,
    )
    if interval is None:
        return result
    found = confidence(
        result.compiled, library, at, result.symbol, scan,
        [c.value for c in result.crossovers], interval, seed, semantics.in_unit(result.unit), integer,
    )  # fmt: skip
    placed = tuple(
        replace(c, interval=around) for c, around in zip(result.crossovers, found.around, strict=True)
    )
    return replace(
        result, crossovers=placed, ranges=found.ranges, level=found.level,
        notes=(*result.notes, *found.notes), library=library, at=dict(at or {}), seed=seed,
    )  # fmt: skip


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


def _equal_at(crossover: Crossover | None, winner: str) -> tuple[str, ...]:
    """The designs equal to ``winner`` at a stretch's end that is ``crossover`` (its two, if
    the winner is one; none over a count, where a crossover falls between two integers): their
    ratio there is 1, not what a point refined to :data:`RTOL` gives (``x0.99999999919``)."""
    if crossover is None or crossover.previous is not None or winner not in crossover.designs:
        return ()
    return crossover.designs


def _equal(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two designs' values are equal to rounding (:data:`TIE_RTOL`) at every point."""
    return bool(np.all(np.abs(a - b) <= TIE_RTOL * np.maximum(np.abs(a), np.abs(b))))


def _underflows_lacking(
    scanned: np.ndarray, scan: np.ndarray, compiled: Sequence[Compiled], s: sympy.Symbol
) -> np.ndarray:
    """The scanned values with those below a double's range as infinite too (no value to
    compare: a model of ``1e-1000*x`` reads as 0.0 everywhere, and two such tied): the
    values of a design whose closed form is not 0 where its value is the first or the last
    below the smallest normal double.

    >>> from patternalg.algebra.arrays import compile_term
    >>> from patternalg.library import ModelLibrary
    >>> from patternalg.syntax.parser import parse
    >>> from patternalg.syntax.symbols import x
    >>> lib = ModelLibrary.builtin().merged([AtomicModel("tiny", sympy.Float("1e-1000") * x)])
    >>> designs = [compile_term(parse(t), lib, {}) for t in ("tiny", "inc")]
    >>> scan = np.array([1.0, 2.0])
    >>> _underflows_lacking(np.stack([c.values({"x": scan}) for c in designs]), scan, designs, x)
    array([[     inf,      inf],
           [ 536.185, 1072.37 ]])
    """
    lacking = scanned.copy()
    for row, design in zip(lacking, compiled, strict=True):
        below = np.flatnonzero(np.abs(row) < sys.float_info.min)
        if not below.size or design.expr is None:
            continue
        for at in {below[0], below[-1]}:  # x*log2(x) times 1e-1000 is 0 at x = 1 only
            exact = design.expr.xreplace({s: sympy.Float(float(scan[at]))}).evalf()
            if exact.is_number and exact.is_nonzero:
                row[below] = np.inf
                break
    return lacking


def _finite_span(
    scanned: np.ndarray, scan: np.ndarray, names: Sequence[str], axis: Axis
) -> tuple[float, float, list[str]]:
    """The compared range without the ends where some design has no value: beyond a
    double's range (an overflow), or none at all (qsort's log2(x) at x <= 0), where nothing
    can be compared (a design with a value there "won" against one without), with a note
    naming the designs and what is compared instead; the whole range where every design has
    a value at both ends.

    >>> from patternalg.algebra.grid import parse_axis
    >>> scan, axis = np.array([1.0, 10.0, 100.0]), parse_axis("x=1..100")
    >>> _finite_span(np.array([[1.0, 2.0, np.inf], [1.0, 3.0, 4.0]]), scan, ["a", "b"], axis)[:2]
    (1.0, 10.0)
    >>> _finite_span(np.array([[np.nan, 2.0, 3.0], [1.0, 3.0, 4.0]]), scan, ["a", "b"], axis)
    (10.0, 100.0, ['a has no value on part of x in [1, 100]: compared over x in [10, 100]'])
    """
    lo, hi = axis.bounds
    held = np.flatnonzero(np.isfinite(scanned).all(axis=0))
    if held.size and scan[held[0]] == lo and scan[held[-1]] == hi:
        return lo, hi, _gaps_inside(scanned, scan, names, axis)
    beyond = [printable(n) for n, row in zip(names, scanned, strict=True) if np.isinf(row).any()]
    undefined = [
        printable(n) for n, row in zip(names, scanned, strict=True) if np.isnan(row).any() and not np.isinf(row).any()
    ]
    where = f"{axis.name} in [{number_text(lo)}, {number_text(hi)}]"
    if not held.size:
        why = "beyond a double's range" if beyond else "no value"
        raise EvaluationError(
            f"{', '.join(beyond or undefined)}: {why} at every point of {where} that compare "
            "scanned: compare a range where the models' values are numbers"
        )
    start, end = float(scan[held[0]]), float(scan[held[-1]])
    lacks = [
        f"{', '.join(group)} {verb} on part of {where}"
        for group, verb in (
            (beyond, "goes beyond a double's range" if len(beyond) == 1 else "go beyond a double's range"),
            (undefined, "has no value" if len(undefined) == 1 else "have no value"),
        )
        if group
    ]
    return start, end, [f"{'; '.join(lacks)}: compared over {axis.name} in [{number_text(start)}, {number_text(end)}]"]


def _gaps_inside(scanned: np.ndarray, scan: np.ndarray, names: Sequence[str], axis: Axis) -> list[str]:
    """A note for each design without a value at scan points inside the range, where both
    ends have one (``sqrt((x-300)*(x-600))`` on (300, 600)): there it takes no part, and a
    stretch's winner is the design below the others wherever it has a value.

    >>> from patternalg.algebra.grid import parse_axis
    >>> scan, axis = np.array([200.0, 400.0, 500.0, 700.0]), parse_axis("x=200..700")
    >>> _gaps_inside(np.array([[1.0, np.nan, np.nan, 2.0], [3.0, 4.0, 5.0, 6.0]]), scan, ["mid", "h"], axis)
    ['mid has no value at x from about 400 to 500 (of x in [200, 700]): the designs are compared where they have one']
    """
    notes = []
    for name, row in zip(names, scanned, strict=True):
        lacking = np.flatnonzero(~np.isfinite(row))
        if lacking.size:
            low, high = (number_text(float(scan[i]), 4) for i in (lacking[0], lacking[-1]))
            notes.append(
                f"{printable(name)} has no value at {axis.name} from about {low} to {high} (of {axis.name} in "
                f"[{number_text(axis.bounds[0])}, {number_text(axis.bounds[1])}]): the designs are compared "
                "where they have one"
            )
    return notes


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


def _times(ratio: float | None, digits: int | None = None, winner: float | None = 1.0) -> str:
    """A ratio as the comparison prints it, in ``digits`` significant digits as the values
    are: ``x1.25``, or where it has none, why: the winner's own ratio there (``winner``,
    None where the winner's value is not a positive time) says whose value it is.

    >>> _times(1.25), _times(None), _times(None, winner=None)
    ('x1.25', '(not a positive time)', '(the winner is not a positive time there)')
    """
    if ratio is None:
        return "(not a positive time)" if winner is not None else "(the winner is not a positive time there)"
    if math.isinf(ratio):
        return "(the winner takes no time there)"
    return f"x{number_text(ratio, digits)}"


def _threads_note(terms: Sequence[Term], semantics: Semantics) -> list[str]:
    """Under a machine: a note where the designs run different numbers of threads (one
    gains from cores another leaves idle, or pays for more threads than cores)."""
    if not isinstance(semantics, MachineSemantics):
        return []
    counts = [threads_needed(t) for t in terms]
    if len(set(counts)) < 2:
        return []
    listed = ", ".join(f"{printable(str(t))}: {threads_text(n)}" for t, n in zip(terms, counts, strict=True))
    return [f"the designs run different numbers of threads ({listed}) on {semantics.machine.cores} cores"]


def _edges(crossovers: Sequence[Crossover], lo: float, hi: float) -> tuple[list[tuple[float, float]], list[Crossover | None]]:
    """Where each interval ends and the next begins (the same point, or over a count two
    integers), with the crossover there if any: (lo, lo), each crossover's (a crossover
    across a stretch where its designs are equal: the stretch's two ends), (hi, hi).

    >>> across = Crossover("x", 10.0, True, "crossover", ("d", "b"), 5.0, equal_from=5.0)
    >>> _edges([across], 1.0, 20.0)[0]
    [(1.0, 1.0), (5.0, 5.0), (10.0, 10.0), (20.0, 20.0)]
    """
    edges: list[tuple[float, float]] = [(lo, lo)]
    bounds: list[Crossover | None] = [None]
    for c in crossovers:
        if c.equal_from is not None:
            edges.append((c.equal_from, c.equal_from))
            bounds.append(c)
        edges.append((c.value if c.previous is None else c.previous, c.value))
        bounds.append(c)
    return [*edges, (hi, hi)], [*bounds, None]


def _region(compiled: list[Compiled], axes: Sequence[Axis]) -> Region:
    grid = dict(
        zip(
            (a.name for a in axes),
            np.meshgrid(*(a.values for a in axes), indexing="ij"),
            strict=True,
        )
    )
    stacked = np.stack([c.values(grid) for c in compiled])
    with np.errstate(invalid="ignore"):
        winners = _winners(stacked)
    # no winner where a value is undefined, or where every value is beyond a double
    undecided = np.isnan(stacked).any(axis=0) | np.isinf(stacked).all(axis=0)
    return Region((axes[0], axes[1]), np.where(undecided, -1, winners))
