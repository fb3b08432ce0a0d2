"""``sweep``: a table of models over a grid of one or two symbols, with each pipe's bottleneck.

>>> from patternalg.algebra.grid import parse_axis
>>> result = sweep(["pipe(inc, nop)"], [parse_axis("x=4,1024")])
>>> result.values[0].tolist(), result.bottlenecks[0].tolist()
([5422.97, 549053.44], ['nop', 'inc'])
>>> result.rows()[0]
[4.0, 5422.97, 'nop']
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import sympy

from .._internal.display import brief, counted, listed, ranges_text
from .._internal.frozen import ReadOnlyArrays
from .._internal.limits import printable
from .._internal.surface import at_text, either, flag
from .._internal.tables import Tabular, distinct, number, with_unit
from ..algebra.arrays import Compiled, compile_term, count_symbols
from ..algebra.bindings import as_value
from ..algebra.domains import negative_note, range_notes
from ..algebra.grid import Axis, check_count_axis, check_distinct, check_not_fixed
from ..algebra.machine_notes import machine_notes
from ..algebra.pointwise import with_counts
from ..algebra.semantics import Semantics
from ..algebra.term_symbols import term_symbols
from ..algebra.units import in_unit
from ..arguments import as_axes, as_bindings, as_seed, as_terms
from ..errors import EvaluationError
from ..library.machines import MachineLike, semantics_of
from ..library.model_library import AtomicModel, ModelLibrary
from ..syntax.arith import format_expr, number_text
from ..syntax.parser import parse
from ..syntax.symbols import symbol
from ..syntax.terms import Term

__all__ = ["Sweep", "sweep", "Prepared", "prepare", "tabulate"]


@dataclass(frozen=True, eq=False)
class Prepared:
    """Terms compiled on a grid, every atom in one unit (what sweep and compare start from)."""

    compiled: list[Compiled]
    grid: dict[str, np.ndarray]  #: the axes as broadcast arrays
    library: Mapping[str, AtomicModel]  #: the atoms converted to :attr:`unit`
    unit: str
    notes: tuple[str, ...]  #: which atoms were converted


def prepare(
    terms: Sequence[str | Term],
    axes: Sequence[Axis],
    at: Mapping[str, Any] | None,
    library: Mapping[str, AtomicModel] | None,
    unit: str | None = None,
    semantics: Semantics = Semantics.EXACT,
) -> Prepared:
    """Parse ``terms``, convert their atoms to one unit (``unit``, else their common one)
    and compile them with ``at`` bound, to be evaluated under ``semantics``; the grid of
    ``axes`` as broadcast arrays."""
    parsed = [parse(t) if isinstance(t, str) else t for t in terms]
    if not parsed:
        raise EvaluationError("no term given")
    library, unit, notes = in_unit(parsed, ModelLibrary.of(library), unit)
    semantics = semantics.in_unit(unit)
    notes = (*notes, *machine_notes([with_counts(t, at) for t in parsed], semantics))
    fixed = {k: as_value(v, k) for k, v in (at or {}).items()}
    names = [a.name for a in axes]
    for name in sorted({n for n in names if names.count(n) > 1}):
        raise EvaluationError(f"{flag('over')} names {name} twice; give each symbol one grid")
    if len(axes) > 2:
        raise EvaluationError(f"at most two symbols can be swept, got {len(axes)}")
    for axis in axes:
        check_distinct(axis, flag("over", axis.name))
    check_not_fixed(axes, fixed)
    symbols = [term_symbols(t, library, semantics) for t in parsed]
    known = set().union(*(s.bindable for s in symbols))
    notes += tuple(n for s in symbols for n in s.notes([*fixed, *names]))
    notes += tuple(a.note for a in axes if a.note)  # a count's range rounded to whole numbers
    for name in fixed:  # one term's symbol may be bound for it alone
        if name not in known:
            raise EvaluationError(
                f"{at_text(f'{name}=...')}: no term has a symbol {name} (their symbols: "
                f"{', '.join(sorted(known))})"
            )
    compiled = [compile_term(t, library, fixed, partial=True, semantics=semantics) for t in parsed]
    for axis in axes:  # a term constant in the symbol (x: always known) is a flat row
        if axis.name not in known:
            raise EvaluationError(f"{flag('over', axis.name)}: no term has a symbol {axis.name}")
        if any(axis.name in count_symbols(c.term) for c in compiled):
            check_count_axis(axis, flag("over", axis.name))
    for c in compiled:  # before compare solves for crossovers with a symbol still free
        c.require(names)
    grid = dict(zip(names, np.meshgrid(*(a.values for a in axes), indexing="ij"), strict=True))
    for c in compiled:
        c.check_counts(grid)
    return Prepared(compiled, grid, library, unit, notes)


@dataclass(frozen=True, eq=False)
class Sweep(ReadOnlyArrays, Tabular):
    """The values of each term at every point of a grid (immutable; arrays are read-only)."""

    terms: tuple[str, ...]
    axes: tuple[Axis, ...]
    values: tuple[np.ndarray, ...]  #: one array per term, shape = the grid's
    bottlenecks: tuple[np.ndarray, ...]  #: the stage that sets the pace of each term's outer pipe (with its hand-off)
    unit: str  #: of every value (each term's atoms converted to it)
    fixed: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()  #: which atoms were converted to :attr:`unit`
    #: with ``interval=``: per term the (low, high) arrays of the central interval
    intervals: tuple[tuple[np.ndarray, np.ndarray], ...] = ()
    level: float | None = None  #: the intervals' level

    def __repr__(self) -> str:
        """The terms, the first few by name, and the grid, on one line (never its rows)."""
        over = "; ".join(
            f"{ranges_text([(a.name, (a.values.min(), a.values.max()))])} ({counted(a.values.size, 'point')})"
            for a in self.axes
        )
        return brief("Sweep", f"{counted(len(self.terms), 'term')}: {listed(self.terms, 4)}; over {over}; in {self.unit}")

    def header(self) -> list[str]:
        """Column names: the swept symbols, then per term its value (with the unit), with
        an interval its ``low`` and ``high``, and its bottleneck; a term given twice has its
        second columns named with `` (2)`` (:func:`~patternalg._internal.tables.distinct`).

        >>> from patternalg.algebra.grid import parse_axis
        >>> sweep(["inc", "inc"], [parse_axis("x=1,2")]).header()
        ['x', 'inc [ns]', 'bottleneck of inc', 'inc [ns] (2)', 'bottleneck of inc (2)']
        """
        cols = [a.name for a in self.axes]
        for term in self.terms:
            cols.append(with_unit(term, self.unit))
            if self.intervals:
                cols += [f"low of {term}", f"high of {term}"]
            cols.append(f"bottleneck of {term}")
        return distinct(cols)

    def column_digits(self, digits: int | None = None) -> dict[int, int | None]:
        """Each term's values (and bounds) in ``digits`` significant digits."""
        width = 4 if self.intervals else 2
        first = len(self.axes)
        return {first + k * width + i: digits for k in range(len(self.terms)) for i in range(width - 1)}

    def rows(self) -> list[list[Any]]:
        """One row per grid point, in the order of the grid (first symbol slowest)."""
        mesh = np.meshgrid(*(a.values for a in self.axes), indexing="ij")
        flat_axes = [m.ravel() for m in mesh]
        columns: list[list[np.ndarray]] = []
        for k, (v, b) in enumerate(zip(self.values, self.bottlenecks, strict=True)):
            bounds = list(self.intervals[k]) if self.intervals else []
            columns.append([a.ravel() for a in (v, *bounds, b)])
        return [
            [float(a[i]) for a in flat_axes]
            + [number(c[i]) if j < len(cs) - 1 else c[i] for cs in columns for j, c in enumerate(cs)]
            for i in range(flat_axes[0].size)
        ]

    def to_json(self) -> dict[str, Any]:
        """``{terms, over, at, unit, header, rows, notes}``, with an interval its ``level``."""
        data: dict[str, Any] = {
            "terms": list(self.terms),
            "over": {a.name: [float(v) for v in a.values] for a in self.axes},
            "at": dict(self.fixed),
            "unit": self.unit,
            "header": self.header(),
            "rows": self.rows(),
            "notes": list(self.notes),
        }
        if self.level is not None:
            data["level"] = self.level
        return data

    def plot(self, ax: Any = None) -> Any:
        """The curves over the one swept symbol, bottleneck stretches shaded (matplotlib axes)."""
        from ..plotting.results import plot_sweep

        return plot_sweep(self, ax=ax)




def sweep(
    terms: Sequence[str | Term],
    over: Sequence[Axis | str] | Axis | str | None = None,
    *,
    at: Mapping[str, Any] | None = None,
    library: Mapping[str, AtomicModel] | None = None,
    unit: str | None = None,
    machine: MachineLike = None,
    cores: int | None = None,
    interval: float | None = None,
    seed: int = 0,
) -> Sweep:
    """The pointwise model of every term at every point of the grid ``over`` (one or two
    axes: required, None is an error naming it), every atom converted to ``unit`` (default: the atoms' common unit; times of
    different units: ns); under the semantics of ``machine`` (a machine, a machine file's
    path or a number of cores; ``cores``, as ``--cores``: replaces its cores, or alone a
    machine of that many) if given; ``interval`` (a level such as 0.9) adds each
    value's central interval of what a measurement would show (``seed`` fixes the draws)."""
    terms, at, library, seed = as_terms(terms), as_bindings(at), ModelLibrary.of(library), as_seed(seed)
    over = as_axes(over, integer=set().union(*map(count_symbols, terms)))
    if not over:
        raise EvaluationError(f"sweep needs a grid: {flag('over', 'SYMBOL=A..B[:N][:lin|log]')}")
    ready = prepare(terms, over, at, library, unit, semantics_of("exact", machine, cores))
    fixed = tuple((k, format_expr(as_value(v, k))) for k, v in (at or {}).items())
    outside = range_notes(
        [c.term for c in ready.compiled], ready.library, at or {}, {a.name: a.bounds for a in over}
    )
    result = tabulate(
        ready.compiled, over, ready.grid, ready.unit, fixed, (*ready.notes, *outside)
    )
    if interval is None:
        return result
    return with_intervals(result, ready.compiled, ready.library, ready.grid, at, interval, seed)


def with_intervals(
    result: Sweep,
    compiled: Sequence[Compiled],
    library: Mapping[str, AtomicModel],
    grid: Mapping[str, np.ndarray],
    at: Mapping[str, Any] | None,
    level: float,
    seed: int,
) -> Sweep:
    """``result`` with each term's central ``level`` interval over ``grid`` (the terms
    ``compiled``, their atoms in ``library``, ``seed`` fixing the draws), and its notes."""
    from ..algebra.intervals import Spread, check_level, no_uncertainty_note

    level = check_level(level)
    fixed = {k: as_value(v, k) for k, v in (at or {}).items()}
    bounds: list[tuple[np.ndarray, np.ndarray]] = []
    missing: list[str] = []
    for c in compiled:
        spread = Spread.of(c.term, library, fixed, semantics=c.semantics, partial=True)
        low, high = spread.interval(grid, level, seed=seed)
        for array in (low, high):
            array.setflags(write=False)
        bounds.append((low, high))
        missing += spread.missing
    notes = (no_uncertainty_note(sorted(set(missing)), library),) if missing else ()
    shown = tuple(dict.fromkeys((*result.notes, *notes)))
    return replace(result, intervals=tuple(bounds), level=level, notes=shown)


def undefined_note(
    term: str, lacking: np.ndarray, grid: Mapping[str, np.ndarray], why: str = "has no finite value", hint: str = ""
) -> tuple[str, ...]:
    """A note naming the first grid point of ``lacking`` (where ``term`` has no value to
    show: its cell is left empty), if there is one: ``why`` says what it has there.

    >>> x = np.array([0.0, 1.0, 2.0])
    >>> undefined_note("qsort", x == 0, {"x": x})
    ('qsort has no finite value at x = 0: its cell is empty',)
    >>> undefined_note("inc", x < 0, {"x": x})
    ()
    """
    bad = np.argwhere(lacking)
    if not len(bad):
        return ()
    point = ", ".join(f"{name} = {number_text(axis[tuple(bad[0])])}" for name, axis in grid.items())
    others = len(bad) - 1
    more = "" if not others else f" and {others} other point{'s' if others > 1 else ''}"
    cells = "its cell is" if len(bad) == 1 else "their cells are"
    return (f"{printable(str(term))} {why} at {point}{more}: {cells} empty{hint}",)


def lacking_notes(compiled: Compiled, value: np.ndarray, grid: Mapping[str, np.ndarray]) -> tuple[str, ...]:
    """The notes on the cells left empty: where a term's value is beyond a double's range
    (infinite in doubles where its closed form, evaluated exactly at the first such point, is
    a finite number: ``eval --at`` gives it), and where it has no value (``qsort`` at x = 0).

    >>> from patternalg.library import ModelLibrary
    >>> qsort = compile_term(parse("qsort"), ModelLibrary.builtin(), {})
    >>> grid = {"x": np.array([0.0, 1e302, 1e305])}
    >>> with np.errstate(all="ignore"):
    ...     for line in lacking_notes(qsort, qsort.values(grid), grid):
    ...         print(line)
    qsort is beyond a double's range (1.8e+308) at x = 1e+305: its cell is empty (model(term, x=...) gives its value)
    qsort has no finite value at x = 0: its cell is empty
    """
    infinite = np.isinf(value)
    beyond = np.zeros_like(infinite)
    if infinite.any() and compiled.expr is not None:
        first = tuple(np.argwhere(infinite)[0])
        point = {symbol(name): sympy.Float(float(axis[first])) for name, axis in grid.items()}
        exact = compiled.expr.xreplace(point).evalf()
        if exact.is_number and exact.is_finite:
            beyond = infinite
    term = str(compiled.term)
    return (
        *undefined_note(term, beyond, grid, f"is beyond a double's range ({sys.float_info.max:.2g})", f" ({_at_point(grid)} gives its value)"),
        *undefined_note(term, ~np.isfinite(value) & ~beyond, grid),
    )


#: the most cells read as 0 whose closed form ``below_range_note`` evaluates exactly
_CHECKED = 20


def below_range_note(compiled: Compiled, value: np.ndarray, grid: Mapping[str, np.ndarray]) -> tuple[str, ...]:
    """A note naming the first grid point where a term's value is below a double's range
    (its closed form is not 0 there, but a double reads it as 0 or as a subnormal of few
    digits), if there is one among the first few such cells: the cell shows that reading.

    >>> from patternalg.library import ModelLibrary
    >>> from patternalg.syntax.symbols import log2, x
    >>> lib = ModelLibrary([AtomicModel("tiny", sympy.Float("1e-1000") * x * log2(x))])
    >>> tiny = compile_term(parse("tiny"), lib, {})
    >>> grid = {"x": np.array([1.0, 2.0, 4.0])}
    >>> below_range_note(tiny, tiny.values(grid), grid)  # at x = 1 it is 0, exactly
    ("tiny is below a double's range (2.2e-308) at x = 2 and 1 other point: shown as 0 (model(term, x=...) gives it)",)
    """
    below = np.argwhere(np.isfinite(value) & (np.abs(value) < sys.float_info.min))
    expr = compiled.expr
    if not len(below) or expr is None:
        return ()
    hits = []
    for at in below[:_CHECKED]:
        point = {name: float(axis[tuple(at)]) for name, axis in grid.items()}
        exact = expr.xreplace({symbol(k): sympy.Float(v) for k, v in point.items()}).evalf()
        if exact.is_number and exact.is_nonzero:
            hits.append(point)
    if not hits:
        return ()
    where = ", ".join(f"{name} = {number_text(v)}" for name, v in hits[0].items())
    others = len(hits) - 1
    more = "" if not others else f" and {others} other point{'s' if others > 1 else ''}"
    if len(below) > _CHECKED:
        more += f" (the first {_CHECKED} of {len(below)} cells read as 0 checked)"
    return (
        f"{printable(str(compiled.term))} is below a double's range ({sys.float_info.min:.2g}) at {where}{more}: "
        f"shown as 0 ({_at_point(grid)} gives it)",
    )


def _at_point(grid: Mapping[str, np.ndarray]) -> str:
    """What gives a term's value at one point of ``grid`` exactly: ``eval --at`` on the
    command line, ``model(term, x=...)`` from Python (the grid's symbols)."""
    return either("eval --at", f"model(term, {', '.join(f'{name}=...' for name in grid)})")


def tabulate(
    compiled: Sequence[Compiled],
    over: Sequence[Axis],
    grid: Mapping[str, np.ndarray],
    unit: str,
    fixed: tuple[tuple[str, str], ...] = (),
    notes: tuple[str, ...] = (),
) -> Sweep:
    """The :class:`Sweep` of models already compiled, on ``grid`` (the broadcast ``over``);
    ``notes`` and one for each model with negative values."""
    values, stages = [], []
    for c in compiled:
        value = c.values(grid)
        value.setflags(write=False)
        if c.has_pipe:
            names = c.bottleneck_names(grid)
            names[~np.isfinite(value)] = None  # no value, no bottleneck
        else:
            names = np.full(value.shape, None, dtype=object)
        names.setflags(write=False)
        values.append(value)
        stages.append(names)
        notes = (*notes, *lacking_notes(c, value, grid), *below_range_note(c, value, grid))
        if value.size and not np.all(np.isnan(value)):
            notes = (*notes, *negative_note(str(c.term), float(np.nanmin(value)), unit))
    return Sweep(
        tuple(str(c.term) for c in compiled),
        tuple(over),
        tuple(values),
        tuple(stages),
        unit,
        fixed,
        tuple(dict.fromkeys(notes)),
    )
