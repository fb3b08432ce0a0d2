"""``compare``: which design is fastest where, with the crossover points between them.

Crossovers are solved algebraically where the difference of two models is, piece by
piece of its ``max``es, a polynomial of degree at most 4 in x, in log2(x), in a root of x
or (over a count) in the count: its roots are the eigenvalues of the companion matrix, in
bounded time (never a symbolic solve); other sign changes are bracketed on a log grid and
refined by a bounded bisection to a relative 1e-9, and each crossover says which
(``exact``). Where two designs are equal without changing places (one never loses) the
point is a *touch*, not a crossover. A count (a thread count) takes integers: the winner
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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy

from .._internal.callbacks import ProgressCallback
from ..algebra.bindings import as_value
from ..algebra.domains import range_notes
from ..algebra.evaluation import evaluate
from ..algebra.normal_forms.normal_form import compare as compare_growth
from ..algebra.normal_forms.normal_form import normal_form
from ..algebra.semantics import Semantics
from ..arguments import as_axes, as_bindings, as_terms
from ..errors import EvaluationError
from ..library.model_library import AtomicModel, ModelLibrary
from ..syntax.arith import number_text
from ..syntax.symbols import symbol, x
from ..syntax.terms import Term
from .grid import Axis, parse_axis, spaced
from .numeric import Compiled, count_symbols
from .options import DEFAULT_RANGE
from .results import Tabular, fields_json, negative_note, number
from .sweep import Sweep, prepare, tabulate

__all__ = ["Crossover", "Interval", "Region", "Comparison", "compare", "DEFAULT_RANGE"]

#: relative precision of numerically refined crossovers
RTOL = 1e-9
#: significant digits a crossover refined to :data:`RTOL` is known to (and printed in)
REFINED_DIGITS = 1 + round(-math.log10(RTOL))
_SCAN = 4096  #: points of the scan that brackets sign changes
_MAX_PIECES = 64  #: equations tried per pair (each max doubles them)
_MAX_NODES = 2_000  #: nodes of a difference solved piece by piece at most
_MAX_DEGREE = 4  #: polynomials of higher degree (x^60 + a*x + b) are bracketed numerically
#: iterations of a bisection or golden-section search at most: halving an interval from
#: 1 down to a root at 1e-303 next to 0 takes about 1,000
_MAX_STEPS = 2_200


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

    def to_json(self) -> dict[str, Any]:
        """``{symbol, value, exact, kind, designs, model_value, previous}``."""
        return fields_json(self)


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
    winners: np.ndarray  #: indices into the compared terms, shape (len(axes[0]), len(axes[1]))

    def text(self, terms: Sequence[str]) -> list[str]:
        """A character map: the first symbol across, the second up; a legend below."""
        first, second = self.axes
        lines = [f"{second.name} \\ {first.name}"]
        for j in reversed(range(len(second))):
            row = "".join(chr(ord("A") + int(w)) for w in self.winners[:, j])
            lines.append(f"{number_text(second.values[j]):>10} | {row}")
        lines.append(f"{'':>10} + {number_text(first.values[0])} .. {number_text(first.values[-1])}")
        lines += [f"  {chr(ord('A') + i)} = {t}" for i, t in enumerate(terms)]
        return lines

    def to_json(self, terms: Sequence[str]) -> list[dict[str, Any]]:
        """One cell per grid point: both symbols' values and the winner."""
        first, second = self.axes
        return [
            {
                first.name: float(first.values[i]),
                second.name: float(second.values[j]),
                "winner": terms[int(self.winners[i, j])],
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
    unit: str  #: of the models (and of the crossovers' ``model_value``); ratios are unit-free
    region: Region | None = None
    #: with a region map: the second symbol's value at which crossovers are computed
    slice_at: tuple[tuple[str, float], ...] = ()
    #: the designs' numeric models along ``symbol`` (for :meth:`sweep` and :meth:`plot`)
    compiled: tuple[Compiled, ...] = field(default=(), repr=False)
    notes: tuple[str, ...] = ()  #: which atoms were converted to :attr:`unit`

    def values(self, points: np.ndarray) -> np.ndarray:
        """Each design's model at ``points`` of the swept symbol: shape (designs, points)."""
        grid = np.asarray(points, dtype=float)
        return np.stack([c.values({self.symbol: grid}) for c in self.compiled]).reshape(
            len(self.compiled), grid.size
        )

    def sweep(self, points: int = 256) -> Sweep:
        """The designs' values at ``points`` points over the compared range (log-spaced
        where the range is positive), with each pipe's bottleneck.

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
        return tabulate(self.compiled, (axis,), {self.symbol: grid}, self.unit, fixed, self.notes)

    def plot(self, ax: Any = None) -> Any:
        """Each design over the compared range, crossovers marked (matplotlib axes)."""
        from ..plotting.results import plot_sweep

        return plot_sweep(self.sweep(), self, ax=ax)

    def to_json(self) -> dict[str, Any]:
        """``{terms, symbol, range, crossovers, touches, intervals, asymptotic_winner, unit,
        notes}`` and ``cells`` for a two-symbol region map."""
        data: dict[str, Any] = {
            "terms": list(self.terms),
            "symbol": self.symbol,
            "range": list(self.bounds),
            "crossovers": [c.to_json() for c in self.crossovers],
            "touches": [c.to_json() for c in self.touches],
            "intervals": [i.to_json() for i in self.intervals],
            "asymptotic_winner": self.asymptotic_winner,
            "unit": self.unit,
            "notes": list(self.notes),
        }
        if self.region is not None:
            data["cells"] = self.region.to_json(self.terms)
            data["slice_at"] = dict(self.slice_at)
        return data

    def header(self) -> list[str]:
        """Columns of the interval table."""
        return ["from", "to", "winner", *(f"{t} / winner at from" for t in self.terms)]

    def rows(self) -> list[list[Any]]:
        """One row per interval."""
        return [[i.start, i.end, i.winner, *(r[1] for r in i.ratios)] for i in self.intervals]

    def caption(self) -> str:
        """The crossovers with the models' value there, in the unit (above the HTML table).

        >>> compare(["inc", "nop"], over=parse_axis("x=1..1e6:log")).caption()
        'crossover at x = 10.1139905070078: inc below, nop above, both 5422.97 ns there'
        """
        return "; ".join(
            f"crossover between {c.symbol} = {self._position(c.previous)} and "
            f"{self._position(c.value)}: {c.designs[0]} up to {self._position(c.previous)}, "
            f"{c.designs[1]} from {self._position(c.value)}"
            if c.previous is not None
            else f"{c.kind} at {c.symbol} = {self._position(c.value)}: {c.designs[0]} "
            + ("below, " if c.kind == "crossover" else "equals ")
            + f"{c.designs[1]}{' above' if c.kind == 'crossover' else ''}, "
            + f"both {self._level(c)} there"
            for c in (*self.crossovers, *self.touches)
        )

    def _position(self, value: float) -> str:
        """A point on the axis by the one printer: in full, or, where a crossover was
        refined by bisection, in the :data:`REFINED_DIGITS` it is known to."""
        refined = {c.value for c in (*self.crossovers, *self.touches) if not c.exact}
        return number_text(value, REFINED_DIGITS if value in refined else None)

    def _level(self, c: Crossover, digits: int | None = None) -> str:
        """The designs' value at a crossover (``digits`` significant digits)."""
        if c.model_value is None:
            return "undefined"
        return f"{number_text(c.model_value, digits)} {self.unit}"

    def text(self, digits: int | None = None) -> list[str]:
        """The comparison for people, one line each: positions and ratios by the one
        printer, the models' values there in ``digits`` significant digits."""
        lines = []
        if self.slice_at:
            where = ", ".join(f"{k} = {number_text(v)}" for k, v in self.slice_at)
            lines.append(f"along {self.symbol} at {where}:")
        for i in self.intervals:
            rest = [(n, a, b) for n, a, b in i.ratios if n != i.winner]
            equal = list(i.ties)
            others = ", ".join(
                f"{n} x{number_text(a)} .. x{number_text(b)}"
                for n, a, b in rest
                if n not in equal and a is not None and b is not None
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
        winner = self.asymptotic_winner or "undecided"
        lines.append(f"asymptotic winner (x -> oo): {winner}")
        if self.region is not None:
            lines += self.region.text(self.terms)
        return lines


# --- finding the points where two models are equal ------------------------------------------
def _small(expr: sympy.Expr) -> bool:
    """Whether ``expr`` has at most :data:`_MAX_NODES` nodes (counted without recursion):
    sympy's own walks recurse, and a big model is bracketed numerically instead.

    >>> _small(x + 1), _small(sympy.Add(*(x**k for k in range(_MAX_NODES))))
    (True, False)
    """
    stack, seen = [expr], 0
    while stack:
        seen += 1
        if seen > _MAX_NODES:
            return False
        stack.extend(stack.pop().args)
    return True


def _pieces(expr: sympy.Expr) -> list[sympy.Expr]:
    """Equations whose roots contain every root of ``expr`` and every point where one of its
    ``max``/``min`` switches argument: each branch of each ``max``, and the switches."""
    out: list[sympy.Expr] = []
    todo = [expr]
    while todo and len(out) + len(todo) <= _MAX_PIECES:
        e = todo.pop()
        found = next(iter(e.atoms(sympy.Max, sympy.Min)), None)
        if found is None:
            out.append(e)
            continue
        args = found.args
        if len(out) + len(args) * (len(args) - 1) // 2 > _MAX_PIECES:
            raise _TooMany  # a pipe of 1,000 stages: half a million differences
        out.extend(a - b for i, a in enumerate(args) for b in args[i + 1 :])
        todo.extend(e.xreplace({found: a}) for a in args)
    if todo:
        raise _TooMany
    return out


class _TooMany(Exception):
    """Too many max/min branches to solve exactly."""


#: a polynomial equation in ``u`` (coefficients highest first), how a root ``u`` gives the
#: swept symbol, and roots of a common factor (log2(x)^j is 0 at x = 1)
_Polynomial = tuple[list[float], Callable[[float], float], tuple[float, ...]]


def _polynomial(piece: sympy.Expr, s: sympy.Symbol) -> _Polynomial | None:
    """``piece`` as a polynomial of degree <= :data:`_MAX_DEGREE` in a variable ``u``, or
    None if it is not one.

    In x, a normal form's terms ``c x^i log2(x)^j`` of one exponent i are a polynomial in
    ``u = log2(x)`` (x = 2^u), of one exponent j one in ``u = x^(1/q)`` (q: the common
    denominator of the i); in another symbol, the numerator of a rational function.

    >>> from patternalg.syntax.symbols import log2, n
    >>> _polynomial(536.185 * x - 5422.97, x)[0]
    [536.185, -5422.97]
    >>> _polynomial(3 * x * log2(x) - 6 * x, x)[0]
    [3.0, -6.0]
    >>> _polynomial(1 / n - sympy.Rational(1, 8), n)[0]
    [-1.0, 8.0]
    >>> _polynomial(sympy.sqrt(x) - log2(x) ** 2, x) is None
    True
    """
    if s != x:
        if not piece.is_rational_function(s):
            return None
        numerator, _ = sympy.fraction(sympy.together(piece))
        try:
            poly = sympy.Poly(numerator, s)
        except sympy.PolynomialError:
            return None
        return _equation(poly.all_coeffs(), lambda u: u, ())
    form = normal_form(piece)
    if form is None:
        return None
    terms = [(i, j, c) for (i, j), c in form.items()]
    if len({i for i, _, _ in terms}) == 1 and all(j.is_Integer and j >= 0 for _, j, _ in terms):
        by_degree = {int(j): c for _, j, c in terms}
        return _equation(
            [by_degree.get(d, 0) for d in range(max(by_degree), -1, -1)], lambda u: 2.0**u, ()
        )
    if len({j for _, j, _ in terms}) == 1 and all(i.is_Rational for i, _, _ in terms):
        q = math.lcm(*(int(i.q) for i, _, _ in terms))
        low = min(i for i, _, _ in terms)
        by_degree = {int((i - low) * q): c for i, _, c in terms}
        return _equation(
            [by_degree.get(d, 0) for d in range(max(by_degree), -1, -1)],
            (lambda u: u) if q == 1 else (lambda u: u**q if u > 0 else math.nan),
            (1.0,) if terms[0][1] > 0 else (),
        )
    return None


def _equation(
    coefficients: Sequence[Any], back: Callable[[float], float], factor_roots: tuple[float, ...]
) -> _Polynomial | None:
    """The equation with float coefficients (leading zeros dropped), if all are numbers of a
    bounded spread and the degree is at most :data:`_MAX_DEGREE`."""
    if not all(sympy.sympify(c).is_number for c in coefficients):
        return None
    try:
        values = [float(c) for c in coefficients]
    except TypeError:  # a complex coefficient
        return None
    while values and values[0] == 0:
        values.pop(0)
    sizes = [abs(v) for v in values if v]
    if (
        not sizes
        or len(values) - 1 > _MAX_DEGREE
        or not all(math.isfinite(v) for v in values)
        or max(sizes) > 1e100 * min(sizes)
    ):
        return None
    return values, back, factor_roots


def _exact_roots(difference: sympy.Expr, s: sympy.Symbol, lo: float, hi: float) -> list[float] | None:
    """Real roots in [lo, hi] of the equations of ``difference``'s pieces, each a polynomial
    solved by its companion matrix (bounded time, unlike a symbolic solve), or None if a
    piece is not a polynomial of a small degree (the caller brackets numerically)."""
    if not _small(difference):
        return None
    try:
        pieces = _pieces(difference)
    except _TooMany:
        return None
    roots: list[float] = []
    for piece in pieces:
        if piece.is_number:
            continue
        found = _polynomial(piece, s)
        if found is None:
            return None
        coefficients, back, factor_roots = found
        candidates = list(factor_roots)
        if len(coefficients) > 1:
            for u in np.roots(coefficients):
                if abs(u.imag) <= 1e-12 * max(1.0, abs(u.real)):
                    with np.errstate(all="ignore"):
                        candidates.append(back(float(u.real)))
        roots += [v for v in candidates if math.isfinite(v) and lo <= v <= hi]
    return roots


def _bisect(f: Callable[[float], float], a: float, b: float) -> float:
    """A root of ``f`` between ``a`` and ``b`` (signs differ) to a relative RTOL, in at most
    :data:`_MAX_STEPS` halvings."""
    fa = f(a)
    for _ in range(_MAX_STEPS):
        if abs(b - a) <= RTOL * max(abs(a), abs(b)):
            break
        mid = math.sqrt(a) * math.sqrt(b) if a > 0 else (a + b) / 2  # a*b underflowed
        if not min(a, b) < mid < max(a, b):  # no double between them (a root at 1e-303)
            break
        fm = f(mid)
        if fm == 0:
            return mid
        if (fm < 0) == (fa < 0):
            a, fa = mid, fm
        else:
            b = mid
    return (a + b) / 2


def _golden_min(f: Callable[[float], float], a: float, b: float) -> float:
    """The minimiser of a unimodal ``f`` on [a, b] to a relative RTOL, in at most
    :data:`_MAX_STEPS` steps."""
    ratio = (math.sqrt(5) - 1) / 2
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    for _ in range(_MAX_STEPS):
        if abs(b - a) <= RTOL * max(abs(a), abs(b)) or not a < c < d < b:
            break
        if f(c) < f(d):
            b, d = d, c
            c = b - ratio * (b - a)
        else:
            a, c = c, d
            d = a + ratio * (b - a)
    return (a + b) / 2


def _numeric_roots(diff: Callable[[np.ndarray], np.ndarray], scan: np.ndarray) -> list[float]:
    """Sign changes of ``diff`` on ``scan`` refined by bisection, and touches (local minima of
    |diff| relative to the models that reach zero) refined by golden section."""
    d = diff(scan)
    if np.all(d == 0):
        return []  # the same model: equal everywhere, never a crossover
    roots = []
    scalar = lambda v: float(diff(np.array([v]))[0])  # noqa: E731
    sign = np.sign(d)
    for change in np.nonzero(sign[:-1] * sign[1:] < 0)[0].tolist():
        roots.append(_bisect(scalar, float(scan[change]), float(scan[change + 1])))
    roots += [float(scan[zero]) for zero in np.nonzero(d == 0)[0]]
    size = np.abs(d)
    for i in range(1, len(scan) - 1):
        lowest = size[i] <= size[i - 1] and size[i] <= size[i + 1]
        # a plateau (overflowed to inf, or a constant difference) has no touch: without this,
        # each of its scan points ran a golden-section search (x^60 against x: 30 s)
        plateau = size[i] == size[i - 1] == size[i + 1] or not np.isfinite(size[i])
        if lowest and not plateau and sign[i - 1] == sign[i + 1] != 0:
            best = _golden_min(lambda v: abs(scalar(v)), float(scan[i - 1]), float(scan[i + 1]))
            roots.append(best)
    return roots


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
) -> Comparison:
    """Which of ``terms`` is fastest where over one swept symbol (default x in 1..2^40),
    with a region map when two symbols are swept. Every atom is converted to ``unit``
    first (default: the atoms' common unit; times of different units: ns);
    ``progress(pairs done, pairs)`` as the crossovers of each pair are found."""
    terms, at, library = as_terms(terms), as_bindings(at), ModelLibrary.of(library)
    axes = as_axes(over, integer=set().union(*map(count_symbols, terms))) if over else [parse_axis(DEFAULT_RANGE)]
    if len(terms) < 2:
        raise EvaluationError(f"compare needs at least two terms, got {len(terms)}")
    ready = prepare(terms, axes, at, library, unit)
    compiled, library = ready.compiled, ready.library
    ranges = {a.name: a.bounds for a in axes}
    notes = [*ready.notes, *range_notes([c.term for c in compiled], library, at or {}, ranges)]
    names = tuple(str(c.term) for c in compiled)
    if len(set(names)) < len(names):
        raise EvaluationError("compare: a term is given twice")
    axis = axes[0]
    s = symbol(axis.name)
    region = _region(compiled, axes) if len(axes) == 2 else None
    if region is not None:  # crossovers along the first symbol at the second's smallest value
        first = float(axes[1].values[0])
        at = {**(at or {}), axes[1].name: int(first) if first.is_integer() else first}
        compiled = prepare(terms, axes[:1], at, library, ready.unit).compiled

    def values(points: np.ndarray) -> np.ndarray:
        return np.stack([c.values({axis.name: points}) for c in compiled])

    lo, hi = axis.bounds
    scan = _scan(axis)
    with np.errstate(invalid="ignore"):
        least = np.nanmin(values(scan), axis=1, initial=np.inf)
    for name, value in zip(names, least, strict=True):
        notes += negative_note(name, float(value), ready.unit)
    candidates: list[tuple[float, bool]] = []
    pairs = list(itertools.combinations(range(len(compiled)), 2))
    for done, (i, j) in enumerate(pairs):
        if progress is not None:
            progress(done, len(pairs))
        left, right = compiled[i].expr, compiled[j].expr
        exact = None if left is None or right is None else _exact_roots(left - right, s, lo, hi)
        if exact is not None:
            candidates += [(r, True) for r in exact]
            continue
        pair = (i, j)
        diff = lambda v, p=pair: (  # noqa: E731
            compiled[p[0]].values({axis.name: v}) - compiled[p[1]].values({axis.name: v})
        )
        candidates += [(r, False) for r in _numeric_roots(diff, scan)]
    integer = any(axis.name in count_symbols(c.term) for c in compiled)
    crossovers, touches = _classify(candidates, values, names, axis.name, lo, hi, integer)
    # each crossover ends one interval and starts the next (over a count, between integers)
    edges = [(lo, lo), *((_last(c), c.value) for c in crossovers), (hi, hi)]
    intervals = []
    for (_, start), (end, _) in zip(edges, edges[1:], strict=False):
        mid = math.sqrt(start * end) if start > 0 else (start + end) / 2
        if integer:  # at an integer inside, else at an end that is no crossover
            mid = float(min(max(math.floor(mid), start + 1), end - 1))
            if end - start < 2:
                mid = start if start == lo else end
        ends = values(np.array([start, mid, end]))
        win = int(_winners(ends[:, 1:2])[0])
        with np.errstate(divide="ignore", invalid="ignore"):  # a winner of 0: no ratio
            ratios = tuple(
                (names[k], number(ends[k, 0] / ends[win, 0]), number(ends[k, 2] / ends[win, 2]))
                for k in range(len(names))
            )
        ties = tuple(
            names[k] for k in range(len(names)) if k != win and ends[k, 1] == ends[win, 1]
        )
        intervals.append(Interval(start, end, names[win], ratios, ties))
    return Comparison(
        names,
        axis.name,
        (lo, hi),
        tuple(crossovers),
        tuple(touches),
        tuple(intervals),
        _asymptotic_winner(compiled, names, library, at),
        ready.unit,
        region,
        () if region is None else ((axes[1].name, float(axes[1].values[0])),),
        tuple(compiled),
        tuple(notes),
    )


def _classify(
    candidates: list[tuple[float, bool]],
    values: Callable[[np.ndarray], np.ndarray],
    names: tuple[str, ...],
    symbol_name: str,
    lo: float,
    hi: float,
    integer: bool = False,
) -> tuple[list[Crossover], list[Crossover]]:
    """Keep the points where the best design ties with another: crossovers where the winner
    changes across the point, touches where it does not (exact roots win over numeric ones).

    Over a count (``integer``), only integers are points: a candidate at an integer is
    classified there, one between two integers is a crossover between them if the winners
    at the two differ (a touch between integers is no touch of integers)."""
    crossovers: list[Crossover] = []
    touches: list[Crossover] = []
    inside = [c for c in sorted(candidates, key=lambda c: (c[0], not c[1])) if lo < c[0] < hi]
    plain: list[tuple[float, bool]] = []  # candidates classified at the point itself
    for point, exact in inside:
        if integer and abs(point - round(point)) > 1e-9 * max(1.0, abs(point)):
            gap = _integer_gap(values, names, symbol_name, math.floor(point), exact)
            if gap is not None and all(c.value != gap.value for c in crossovers):
                crossovers.append(gap)
            continue
        plain.append((float(round(point)) if integer else point, exact))
    if not plain:
        crossovers.sort(key=lambda c: c.value)
        return crossovers, touches
    points = np.array([p for p, _ in plain], dtype=float)
    steps = np.ones_like(points) if integer else np.maximum(np.abs(points) * 1e-6, 1e-12)
    # every candidate's neighbourhood in one evaluation (a deep term's fold is not free)
    near = values(np.concatenate([points - steps, points, points + steps])).reshape(
        len(names), 3, len(plain)
    )
    for column, (point, exact) in enumerate(plain):
        if any(abs(point - c.value) <= 1e-7 * abs(point) for c in crossovers + touches):
            continue  # the same point found twice (the exact one came first)
        around = near[:, :, column]
        at_point = around[:, 1]
        best = float(at_point.min())
        tied = np.nonzero(at_point <= best + 1e-7 * abs(best))[0]
        if len(tied) < 2:
            continue  # two designs cross there, but neither is the fastest
        below, above = int(np.argmin(around[:, 0])), int(np.argmin(around[:, 2]))
        level = number(best)
        if below != above:
            designs = (names[below], names[above])
            crossovers.append(Crossover(symbol_name, point, exact, "crossover", designs, level))
        else:
            other = next(int(k) for k in tied if int(k) != below)
            designs = (names[below], names[other])
            touches.append(Crossover(symbol_name, point, exact, "touch", designs, level))
    crossovers.sort(key=lambda c: c.value)
    return crossovers, touches


def _last(c: Crossover) -> float:
    """Where the interval before a crossover ends (over a count: its last integer)."""
    return c.value if c.previous is None else c.previous


def _integer_gap(
    values: Callable[[np.ndarray], np.ndarray],
    names: tuple[str, ...],
    symbol_name: str,
    last: int,
    exact: bool,
) -> Crossover | None:
    """The crossover between the integers ``last`` and ``last + 1`` if the winner differs
    there (ties go to the earlier design), else None."""
    both = values(np.array([float(last), float(last + 1)]))
    before, after = (int(w) for w in _winners(both))
    if before == after:
        return None
    designs = (names[before], names[after])
    level = number(both[after, 1])
    return Crossover(symbol_name, float(last + 1), exact, "crossover", designs, level, float(last))


def _asymptotic_winner(
    compiled: list[Compiled],
    names: tuple[str, ...],
    library: Mapping[str, AtomicModel],
    at: Mapping[str, Any] | None,
) -> str | None:
    """The design whose asymptotic closed form grows slowest in x (None if undecided)."""
    mapping = {symbol(k): as_value(v) for k, v in (at or {}).items() if k != "x"}
    forms = [evaluate(c.term, library, Semantics.ASYMPTOTIC).xreplace(mapping) for c in compiled]
    best = 0
    for k in range(1, len(forms)):
        order = compare_growth(forms[k], forms[best])
        if order is None:
            return None
        if order < 0:
            best = k
    return names[best]


def _region(compiled: list[Compiled], axes: Sequence[Axis]) -> Region:
    grid = dict(
        zip(
            (a.name for a in axes),
            np.meshgrid(*(a.values for a in axes), indexing="ij"),
            strict=True,
        )
    )
    stacked = np.stack([c.values(grid) for c in compiled])
    return Region((axes[0], axes[1]), _winners(stacked))
