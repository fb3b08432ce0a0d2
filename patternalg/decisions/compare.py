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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .._internal.callbacks import ProgressCallback
from .._internal.display import as_digits, brief, counted, listed, ranges_text
from .._internal.limits import printable
from .._internal.surface import flag, switch
from .._internal.tables import Tabular, distinct
from ..algebra.arrays import Compiled, count_symbols
from ..algebra.domains import negative_note, range_notes
from ..algebra.evaluation import size_of
from ..algebra.grid import Axis, parse_axis, spaced
from ..algebra.machine import MachineSemantics, threads_needed, threads_text
from ..algebra.pointwise import with_counts
from ..algebra.semantics import Semantics
from ..arguments import as_axes, as_bindings, as_callback, as_seed, as_terms, expect
from ..errors import EvaluationError
from ..library.machines import MachineLike, semantics_of
from ..library.model_library import AtomicModel, ModelLibrary
from ..syntax.arith import digits_apart, number_text
from ..syntax.symbols import symbol
from ..syntax.terms import Term
from .asymptotic import asymptotic_winner
from .classify import Crossover, classify
from .compared_range import finite_span, gap_edges, scan_points, underflows_lacking
from .confidence import Range, confidence
from .crossovers import REFINED_DIGITS, RTOL, exact_roots, numeric_roots
from .options import DEFAULT_RANGE
from .region_map import Region, region_map
from .stretches import Interval, named, stretches
from .sweep import Sweep, prepare, tabulate, with_intervals

__all__ = ["Crossover", "Range", "Interval", "Region", "Comparison", "compare", "DEFAULT_RANGE"]

#: a stretch where no design wins in the level's share of the draws
UNDECIDED = "undecided (the measurements cannot tell)"


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
    #: where a design's gap inside the range begins or ends (a stretch ends there), refined
    #: to :data:`~.crossovers.RTOL` as a crossover is
    cuts: tuple[float, ...] = ()
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

    def __repr__(self) -> str:
        """The designs, the range compared, how many crossovers and the asymptotic winner."""
        winner = self.asymptotic_winner or "none"
        where = "".join(f" at {k} = {number_text(v)}" for k, v in self.slice_at)
        return brief(
            "Comparison",
            f"{listed(self.terms, 4)} over {ranges_text([(self.symbol, self.bounds)])}{where}: "
            f"{counted(len(self.crossovers), 'crossover')}; asymptotic winner: {winner}"
            + ("; with a region map" if self.region is not None else ""),
        )

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
        return distinct([*parts, "from", "to", "winner", "ties with it", *(f"{t} / winner at from" for t in self.terms)])

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
            text = self._range_texts()
            for r in self.ranges:
                verdict = r.winner or UNDECIDED + _undecided_by_text(r)
                rows.append([part, *where, float(text[r.start]), float(text[r.end]), verdict, "", *none])
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
            f"is at {self._placed_text(c)}"
            for c in self.crossovers
            if self.level is not None and c.interval is not None
        ]
        where = [f"{self._along()}:"] if self.slice_at else []
        parts = [found] if found else []
        return " ".join(where + ["; ".join([*parts, *drawn, self._asymptotic_line()])])

    def _briefly(self, c: Crossover) -> str:
        """A crossover or a touch as the caption says it."""
        a, b, at = c.designs[0], c.designs[1], self._position(c.value)
        if c.kind == "touch":
            return f"touch at {c.symbol} = {at}: {a} equals {b}, both {self._level(c)} there"
        if c.previous is not None:
            before = self._position(c.previous)
            return f"crossover between {c.symbol} = {before} and {at}: {_sides(c, 'up to ' + before, 'from ' + at, ('does', 'do'))}"
        if c.equal_from is not None:
            start = self._position(c.equal_from)
            return f"crossover across {c.symbol} in [{start}, {at}]: {_sides(c)}, equal in between"
        return f"crossover at {c.symbol} = {at}: {_sides(c)}, both {self._level(c)} there"

    def _position(self, value: float) -> str:
        """A point on the axis by the one printer: in full, or, where a crossover was
        refined by bisection, in the :data:`REFINED_DIGITS` it is known to."""
        refined = {v for c in (*self.crossovers, *self.touches) if not c.exact for v in (c.value, c.equal_from)}
        refined.update(self.cuts)
        return number_text(value, REFINED_DIGITS if value in refined else None)

    def _stretch_texts(self, ends: Sequence[float]) -> dict[float, str]:
        """The ``ends`` of stretches the draws decide, each one text wherever it is shown (a
        stretch's end is the next one's start): in the few digits that tell it from the ends
        beside it (:func:`~patternalg.syntax.arith.digits_apart`: the draws know no more), an
        end of the compared range as asked; over a count, the integers in full.

        >>> c = Comparison(("a", "b"), "x", (1.0, 1000.0), (), (), (), None, (), "ns")
        >>> c._stretch_texts([1.0, 1.0017, 1000.0, 1.0017, 1.0013])
        {1.0: '1', 1.0013: '1.001', 1.0017: '1.002', 1000.0: '1000'}
        """
        ends = sorted(set(ends))
        if any(self.symbol in count_symbols(c.term) for c in self.compiled):
            return {e: number_text(e) for e in ends}
        shown = dict.fromkeys(ends, 3)
        for a, b in itertools.pairwise(ends):
            shown[a] = max(shown[a], digits_apart(a, b))
            shown[b] = max(shown[b], digits_apart(a, b))
        return {e: number_text(e) if e in self.bounds else number_text(e, shown[e]) for e in ends}

    def _range_texts(self) -> dict[float, str]:
        """The ends of the stretches the draws decide (:attr:`ranges`), as shown."""
        return self._stretch_texts([e for r in self.ranges for e in (r.start, r.end)])

    def _placed_text(self, c: Crossover) -> str:
        """Where the draws place a crossover: ``x in [low, high]``, or ``x = v`` among
        designs no draw moves (:func:`_placed`)."""
        assert c.interval is not None
        low, high = c.interval
        if low == high:
            return f"{self.symbol} = {self._position(c.value)} (no draw moves it: the models are exact)"
        ends = self._stretch_texts(c.interval)
        return f"{self.symbol} in [{ends[low]}, {ends[high]}]"

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
        digits = as_digits(digits)
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
                    f"integers only): {_sides(c, f'wins at {before}', f'from {after} on', ('does', 'do'))} "
                    f"({self._level(c, digits)} there)"
                )
                continue
            if c.equal_from is not None:
                start, end = self._position(c.equal_from), self._position(c.value)
                lines.append(
                    f"crossover across {c.symbol} in [{start}, {end}] ({how}): {_sides(c)}, equal in between; "
                    f"both {self._level(c, digits)} at {c.symbol} = {end}"
                )
                continue
            lines.append(
                f"crossover at {c.symbol} = {self._position(c.value)} ({how}): {_sides(c)}; "
                f"both {self._level(c, digits)} there"
            )
        for c in self.touches:
            how = "exact" if c.exact else f"refined to rel. {RTOL:g}"
            lines.append(
                f"touch at {c.symbol} = {self._position(c.value)} ({how}): {c.designs[0]} equals "
                f"{c.designs[1]} there ({self._level(c, digits)}) and never loses to it nearby"
            )
        if self.level is not None:
            lines.append(f"with {100 * self.level:g} % confidence (what measurements would show):")
            text = self._range_texts()
            for r in self.ranges:
                verdict = f"{r.winner} wins" if r.winner else UNDECIDED
                lines.append(f"  {self.symbol} in [{text[r.start]}, {text[r.end]}]: {verdict}{_undecided_by_text(r)}")
            lines += [
                f"  crossover {c.designs[0]} / {c.designs[1]}: {self._placed_text(c)}"
                for c in self.crossovers
                if c.interval is not None
            ]
        lines.append(self._asymptotic_line())
        if self.region is not None:
            lines += self.region.lines(self.terms)
        return [_in_short(line, self.terms) for line in lines]


def _undecided_by_text(r: Range) -> str:
    """What an undecided range says of the sources that alone leave it so, where asked.

    >>> _undecided_by_text(Range(1.0, 2.0, None, 0.6, ("fit qsort", "noise")))
    "; alone, qsort's fit or a measurement's noise would leave it so"
    >>> _undecided_by_text(Range(1.0, 2.0, None, 0.6, ()))
    '; no source alone would leave it so, only all of them together'
    """
    if r.undecided_by is None:
        return ""
    if not r.undecided_by:
        return "; no source alone would leave it so, only all of them together"
    from ..algebra.interval_sources import source_name

    names = [source_name(k) for k in r.undecided_by]
    return f"; alone, {', '.join(names[:-1]) + ' or ' if len(names) > 1 else ''}{names[-1]} would leave it so"


def _sides(c: Crossover, below: str = "below", above: str = "above", verbs: tuple[str, str] = ("is", "are")) -> str:
    """The designs fastest either side of a crossover as its lines say them: each side's
    stretch winner, and the designs as fast as it there (``verbs``: for one, for several).

    >>> c = Crossover("x", 4.0, True, "crossover", ("a", "d"), 4.0, ties=(("b", "c"), ()))
    >>> _sides(c), _sides(c, "wins at 3", "from 4 on", ("does", "do"))
    ('a below (as are b, c), d above', 'a wins at 3 (as do b, c), d from 4 on')
    """
    said = []
    for name, ties, where in zip(c.designs, c.ties, (below, above), strict=True):
        also = f" (as {verbs[len(ties) > 1]} {', '.join(ties)})" if ties else ""
        said.append(f"{name} {where}{also}")
    return ", ".join(said)


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
def compare(
    terms: Sequence[str | Term] | str | Term,
    *more: str | Term,
    over: Axis | str | Sequence[Axis | str] | None = None,
    at: Mapping[str, Any] | None = None,
    library: Mapping[str, AtomicModel] | None = None,
    unit: str | None = None,
    progress: ProgressCallback = None,
    machine: MachineLike = None,
    cores: int | None = None,
    interval: float | None = None,
    seed: int = 0,
    explain: bool = False,
) -> Comparison:
    """Which of ``terms`` (a list, or the terms one by one, as ``compare A B`` takes them)
    is fastest where over one swept symbol (default x in 1..2^40),
    with a region map when two symbols are swept. Every atom is converted to ``unit``
    first (default: the atoms' common unit; times of different units: ns);
    ``progress(pairs done, pairs)`` as the crossovers of each pair are found; under the
    semantics of ``machine`` (a machine, a machine file's path or a number of cores;
    ``cores``, as ``--cores``: replaces its cores, or alone a machine of that many) if
    given. ``interval`` (a level such as 0.9) draws the designs jointly (:mod:`.intervals`)
    and says per range which design wins in that share of the draws, and where none does;
    each crossover gets the stretch of the axis where it could lie. ``explain``, with an
    interval: each undecided range says which sources of the draws alone leave it so
    (:attr:`Range.undecided_by`: what to measure again to tell the designs apart)."""
    explain = expect(explain, bool, "explain", "True or False")
    if more and not isinstance(terms, str | Term):  # a list and terms after it (models there: library=)
        terms = as_terms([*as_terms(terms), *more])
    else:
        terms = as_terms([terms, *more]) if more else as_terms(terms)
    at, library = as_bindings(at), ModelLibrary.of(library)
    progress, seed = as_callback(progress, "progress", "progress(done, total)"), as_seed(seed)
    semantics = semantics_of("exact", machine, cores)
    # without --over, the designs' size: x, or the one symbol their atoms are models in
    sizes = {size_of(t, library, semantics) for t in terms}
    found = sizes.pop() if len(sizes) == 1 else None
    size = "x" if found is None else found.name
    default = f"{size}={DEFAULT_RANGE.partition('=')[2]}"
    axes = as_axes(over, integer=set().union(*map(count_symbols, terms))) if over else [parse_axis(default)]
    if not over and axes[0].name in at:  # the sweep the user did not write: say it is the default
        other = "p" if size == "n" else "n"
        raise EvaluationError(
            f"compare sweeps {default} when no {flag('over')} is given, and {flag('at')} fixes "
            f"{axes[0].name}: sweep another symbol (e.g. {flag('over', f'{other}=1..64')}) "
            f"or leave {axes[0].name} out of {flag('at')}"
        )
    if len(terms) < 2:
        raise EvaluationError(f"compare needs at least two terms, got {len(terms)}")
    ready = prepare(terms, axes, at, library, unit, semantics)
    compiled, library = ready.compiled, ready.library
    ranges = {a.name: a.bounds for a in axes}
    notes = [*ready.notes, *range_notes([c.term for c in compiled], library, at or {}, ranges)]
    if not over and size != "x":
        notes.append(f"no {flag('over')}: comparing {default.replace('=', ' = ')}, the designs' size as x's default; {flag('over')} sets it")
    notes += _threads_note([with_counts(c.term, at) for c in compiled], semantics)
    names = tuple(str(c.term) for c in compiled)
    if len(set(names)) < len(names):
        raise EvaluationError("compare: a term is given twice")
    axis = axes[0]
    s = symbol(axis.name)
    region = region_map(compiled, axes) if len(axes) == 2 else None
    if region is not None:  # crossovers along the first symbol at the second's smallest value
        first = float(axes[1].values[0])
        at = {**(at or {}), axes[1].name: int(first) if first.is_integer() else first}
        compiled = prepare(terms, axes[:1], at, library, ready.unit, semantics).compiled

    def values(points: np.ndarray) -> np.ndarray:
        return np.stack([c.values({axis.name: points}) for c in compiled])

    scan = scan_points(axis)
    scanned = values(scan)
    with np.errstate(invalid="ignore"):
        least = np.nanmin(scanned, axis=1, initial=np.inf)
    for name, value in zip(names, least, strict=True):
        notes += negative_note(name, float(value), ready.unit)
    lo, hi, narrowed = finite_span(underflows_lacking(scanned, scan, compiled, s), scan, names, axis)
    notes += narrowed
    kept = (scan >= lo) & (scan <= hi)
    scan, scanned = scan[kept], scanned[:, kept]
    candidates: list[tuple[float, bool]] = []
    pairs = list(itertools.combinations(range(len(compiled)), 2))
    for done, (i, j) in enumerate(pairs, start=1):
        left, right = compiled[i].expr, compiled[j].expr
        exact = None if left is None or right is None else exact_roots(left - right, s, lo, hi)
        if exact is not None:
            candidates += [(r, True) for r in exact]
        else:
            both = lambda v, p=(i, j): np.stack([compiled[k].values({axis.name: v}) for k in p])  # noqa: E731
            candidates += [(r, False) for r in numeric_roots(both, scan, scanned[[i, j]])]
        if progress is not None:  # after each pair: the last call says all are done
            progress(done, len(pairs))
    integer = any(axis.name in count_symbols(c.term) for c in compiled)
    crossovers, touches = classify(candidates, values, names, axis.name, lo, hi, integer)
    cuts = [] if integer else gap_edges(scanned, scan, lambda k, v: compiled[k].values({axis.name: v}))
    intervals = stretches(values, names, crossovers, lo, hi, scan, scanned, integer, cuts)
    crossovers = named(crossovers, intervals)
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
        cuts=tuple(cuts),
    )
    if interval is None:  # explain: what keeps a stretch undecided, and without draws none is
        more = (f"{switch('explain')} says what keeps a stretch undecided: it needs {flag('interval', '0.9')}",)
        return replace(result, notes=(*result.notes, *more)) if explain else result
    found = confidence(
        result.compiled, library, at, result.symbol, scan,
        [c.value for c in result.crossovers], interval, seed, semantics.in_unit(result.unit), integer, explain,
    )  # fmt: skip
    placed = tuple(
        replace(c, interval=_placed(c, around, found.exact, integer))
        for c, around in zip(result.crossovers, found.around, strict=True)
    )
    return replace(
        result, crossovers=placed, ranges=found.ranges, level=found.level,
        notes=(*result.notes, *found.notes), library=library, at=dict(at or {}), seed=seed,
    )  # fmt: skip


def _placed(c: Crossover, around: tuple[float, float], exact: frozenset[str], count: bool) -> tuple[float, float]:
    """A crossover's interval: where the draws leave it (``around``, the scan's points beside
    it where they all agree), or, among designs no draw moves (given models), the crossover
    itself (across an equal stretch, that stretch): no measurement would put it elsewhere.
    Over a count the integers beside it stay (the winner changes between them)."""
    if count or not {*c.designs, *c.ties[0], *c.ties[1]} <= exact:
        return around
    return (c.value if c.equal_from is None else c.equal_from, c.value)


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
