"""A term's model in one call (``patternalg.algebra.atomic_model``), and with its derivation as one immutable result (``patternalg.explain``).

This is what ``patternalg eval --explain`` prints and what a notebook shows: the model, or
its value where symbols are bound (pipes of numbers are their pointwise maximum, see
:mod:`patternalg.algebra.pointwise`), every sub-term's model, the notes a reader must know, an HTML
table, LaTeX, and a picture over x.

>>> e = explain("pipe(inc, nop)", x=4)
>>> e.value, e.point.bottleneck_at_point
(5422.97, 'nop')
>>> explain("pipe(tpool_4(qsort), inc)").text()
'258.5425*x*log2(x)'
>>> [row[:2] for row in explain("seq(qsort, nop)").rows()]
[['seq', '1034.17*x*log2(x) + 5422.97'], ['· qsort', '1034.17*x*log2(x)'], ['· nop', '5422.97 ns']]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from os import PathLike
from typing import Any

import sympy

from .._internal.display import HtmlTable
from ..algebra.bindings import as_value
from ..algebra.domains import extrapolations, point_notes
from ..algebra.evaluation import Derivation, evaluate
from ..algebra.pointwise import PointValue, at_point, undecided_note
from ..algebra.render import (
    DEFAULT_DIGITS,
    EXPLAIN_STEPS,
    as_latex,
    as_number,
    as_text,
    exact_number,
    explain_lines,
    shown_steps,
    term_label,
    value_digits,
    value_text,
    with_unit,
)
from ..algebra.semantics import Semantics
from ..algebra.units import atom_names, check_unit, converted_note, in_one_unit
from ..arguments import as_int, as_optional_text, as_term
from ..errors import EvaluationError
from ..library.model_library import AtomicModel, ModelLibrary
from ..syntax.arith import number_text
from ..syntax.symbols import symbol
from ..syntax.terms import Term
from .machines import MachineLike, machine_notes, semantics_of

__all__ = ["Evaluation", "explain", "model"]

#: significant digits of a value shown with its interval (the interval says how many mean something)
INTERVAL_DIGITS = 3

#: the range of x an evaluation is drawn over by default
PLOT_RANGE = "x=1..2^30"


@dataclass(frozen=True, eq=False)
class Evaluation(HtmlTable):
    """A term's model (``expr``), how it was derived, and, with bindings, its value there."""

    term: Term
    expr: sympy.Expr
    semantics: Semantics
    derivation: Derivation = field(repr=False)
    point: PointValue | None
    notes: tuple[str, ...]
    library: Mapping[str, AtomicModel] = field(repr=False)
    #: the unit of the model and its values (every atom converted to it)
    unit: str = "ns"
    #: where a symbol's value lies outside an atom's measured range
    extrapolated: tuple[Any, ...] = ()
    #: significant digits of the value by default: the atoms' own precision (see
    #: :func:`~patternalg.algebra.render.value_digits`)
    digits: int = DEFAULT_DIGITS
    #: with ``interval=``: the central interval of what a measurement would show, its level
    interval: tuple[float, float] | None = None
    level: float | None = None

    @property
    def value(self) -> float | None:
        """The model's value when no symbol is free and a double holds it, else None."""
        return as_number(self.expr)

    @property
    def bindings(self) -> dict[str, sympy.Expr]:
        """The symbols bound to values (empty without a point)."""
        return dict(self.point.bindings) if self.point is not None else {}

    def text(self, digits: int | None = None) -> str:
        """The value or the model in the grammar's arithmetic; with ``digits``, the value or
        every coefficient in that many significant digits, else as precise as the atoms'
        coefficients (:attr:`digits`; a closed form's coefficients in their shortest form)."""
        if self.interval is not None and self.value is not None and self.level is not None:
            shown = digits or INTERVAL_DIGITS
            low, high = (number_text(v, shown) for v in self.interval)
            return f"{number_text(self.value, shown)} {self.unit} [{low}, {high}] ({100 * self.level:g} %)"
        value = value_text(self.expr, digits or self.digits)
        return f"{value} {self.unit}" if value is not None else as_text(self.expr, digits)

    def lines(self, digits: int | None = None, limit: int | None = EXPLAIN_STEPS) -> list[str]:
        """The derivation as ``eval --explain`` prints it, every value in the digits of
        :meth:`text` (``digits``, else :attr:`digits`); of more than ``limit`` sub-terms
        the first and last ``limit // 2`` (``limit=None``: all)."""
        mapping = {symbol(k): v for k, v in self.bindings.items()}
        return explain_lines(
            self.derivation, mapping, self.point, self.unit, digits or self.digits, limit
        )

    def caption(self) -> str:
        where = ", ".join(f"{k} = {as_text(v)}" for k, v in self.bindings.items())
        return f"{self.term} = {self.text()}" + (f" at {where}" if where else "")

    def header(self) -> list[str]:
        """Columns: each sub-term, its model, its value at the point, what was decided."""
        return ["sub-term", "model", "at the point", "note"]

    def rows(self) -> list[list[Any]]:
        """One row per step of the derivation, sub-terms indented by their depth (of a
        long one the first and last :data:`~patternalg.render.EXPLAIN_STEPS` // 2)."""
        steps = self.derivation.steps
        here = self.point.steps if self.point is not None else (None,) * len(steps)
        head, tail = shown_steps(len(steps))
        rows = []
        for index in (*head, *tail):
            step, at = steps[index], here[index]
            if tail and index == tail[0]:
                rows.append([f"... {tail[0] - len(head):,} more sub-terms ...", "", "", ""])
            rows.append(
                [
                    "· " * min(step.depth, 40) + term_label(step.term),
                    with_unit(step.model, self.unit, self.digits),
                    "" if at is None else with_unit(at.value, self.unit, self.digits),
                    step.note,
                ]
            )
        return rows

    def _repr_latex_(self) -> str:
        """The model, or the value with its unit (as ``eval --format latex``)."""
        unit = f" \\; \\mathrm{{{self.unit}}}" if self.value is not None else ""
        return f"${as_latex(self.expr)}{unit}$"

    def plot(self, ax: Any = None, *, over: str = PLOT_RANGE) -> Any:
        """The model over ``over`` (other bindings kept), the point marked if x is bound;
        returns the matplotlib axes."""
        from ..plotting.results import plot_evaluation
        from .grid import curve_axis
        from .sweep import sweep

        axis = curve_axis(over)
        bound = self.bindings
        fixed = {k: v for k, v in bound.items() if k != axis.name}
        curves = sweep([self.term], [axis], at=fixed, library=self.library, unit=self.unit)
        value = self.value
        point = None
        if axis.name in bound and value is not None:
            point = (axis.name, float(bound[axis.name]), value)
        return plot_evaluation(curves, point, ax=ax)


def explain(
    term: str | Term,
    library: Mapping[str, AtomicModel] | None = None,
    semantics: Semantics | str = Semantics.ASYMPTOTIC,
    *,
    unit: str | None = None,
    machine: MachineLike = None,
    interval: float | None = None,
    seed: int = 0,
    **at: float | int | str | sympy.Expr,
) -> Evaluation:
    """The model of ``term`` with its derivation; keywords bind symbols (``x=1024``).

    Every atom is converted to one unit first: ``unit``, else the atoms' common unit (times
    of different units: ns); a time is never added to something else. ``machine`` (a
    :class:`~patternalg.algebra.machine.Machine`, a machine file's path or a number of
    cores) evaluates under that machine's semantics. ``interval`` (a level such as 0.9),
    where every symbol is bound, adds the central interval of what a measurement of the
    term would show (:mod:`~patternalg.decisions.intervals`: the atoms' uncertainties drawn
    jointly through the term, ``seed`` fixing the draws).
    """
    term, original = as_term(term), ModelLibrary.of(library)
    target = check_unit(text, "unit") if (text := as_optional_text(unit, "unit")) else None
    library, result_unit = in_one_unit(term, original, target)
    semantics = semantics_of(semantics, machine).in_unit(result_unit)
    derivation = Derivation()
    point: PointValue | None = None
    if at:
        point = at_point(term, library, at, semantics, derivation=derivation)
        expr, notes = point.expr, point.notes()
    else:
        expr = evaluate(term, library, semantics, derivation=derivation)
        notes = [undecided_note(semantics)] if derivation.undecided else []
    notes.extend(machine_notes([term], semantics))
    converted = converted_note(term, original, result_unit)
    if converted:
        notes.append(converted)
    outside = extrapolations(term, library, at)
    notes.extend(str(item) for item in outside)
    notes.extend(point_notes(at, exact_number(expr), result_unit))
    digits = value_digits(original[name].expr for name in atom_names(term) if name in original)
    bounds, level = None, None
    if interval is not None:
        bounds, level, more = _interval(term, library, at, semantics, interval, seed, expr)
        notes.extend(more)
    return Evaluation(
        term,
        expr,
        semantics,
        derivation,
        point,
        tuple(notes),
        library,
        result_unit,
        tuple(outside),
        digits,
        bounds,
        level,
    )


def _interval(
    term: Term,
    library: Mapping[str, AtomicModel],
    at: Mapping[str, Any],
    semantics: Semantics,
    level: float,
    seed: int,
    expr: sympy.Expr,
) -> tuple[tuple[float, float], float, list[str]]:
    """The interval of :func:`explain` at ``at``, its level and its notes."""
    from .intervals import Spread, check_level, no_uncertainty_note

    level = check_level(level)
    if as_number(expr) is None:
        raise EvaluationError("--interval needs a value: bind every symbol with --at")
    fixed = {name: as_value(v) for name, v in at.items()}
    spread = Spread.of(term, library, fixed, semantics=semantics)
    low, high = spread.interval({}, level, seed=as_int(seed, "seed"))
    notes = [no_uncertainty_note(list(spread.missing))] if spread.missing else []
    return (float(low), float(high)), level, notes


def model(
    text: str | Term,
    library: Mapping[str, AtomicModel] | str | PathLike[str] | None = None,
    semantics: Semantics | str = Semantics.ASYMPTOTIC,
    *,
    machine: MachineLike = None,
    **at: float | int | str | sympy.Expr,
) -> sympy.Expr:
    """Text of a term (or a term) to its closed-form model in one call; keywords bind
    symbols. ``library``: the built-ins, the path of a model file (the built-ins overridden
    by it, as ``--models``), or a mapping of atom names to models or their texts.

    Atoms of different time units are converted to ns first (see :mod:`patternalg.algebra.units`). With bindings, the result is
    the model's value there: a pipe whose stages are numbers at the point is their maximum,
    whatever the semantics (see :mod:`patternalg.algebra.pointwise`).

    >>> model("pipe(tpool_4(qsort), inc)")
    258.5425*x*log2(x)
    >>> model("tpool_n(qsort)", n=2, x=1024)
    5294950.40000000
    >>> model("pipe(inc, nop)", x=4)
    5422.97000000000
    >>> model("tpool_4(qsort)", machine=2)
    517.085*x*log2(x)
    """
    term = as_term(text, "text")
    library, unit = in_one_unit(term, ModelLibrary.of(library))
    semantics = semantics_of(semantics, machine).in_unit(unit)
    if at:
        return at_point(term, library, at, semantics).expr
    return evaluate(term, library, semantics)
