"""A term evaluated: its model, or its value at a point, in one unit, with the notes a reader
must know and, if asked, the interval of what a measurement would show — the algebra's
result, what ``patternalg eval`` prints. The derivation (``--explain``: every sub-term's
model) is a view of it: recorded by the fold that gives a model, folded when asked for at a
point.

>>> from patternalg.library.model_library import ModelLibrary
>>> from patternalg.syntax.parser import parse
>>> e = evaluated(parse("pipe(inc, nop)"), ModelLibrary.builtin(), Semantics.of("asymptotic"), at={"x": 4})
>>> e.value, e.point.bottleneck_at_point
(5422.97, 'nop')
>>> evaluated(parse("pipe(tpool_4(qsort), inc)"), ModelLibrary.builtin(), Semantics.of("asymptotic")).text()
'258.5425*x*log2(x)'
>>> [row[:2] for row in evaluated(parse("seq(qsort, nop)"), ModelLibrary.builtin(), Semantics.of("asymptotic")).rows()]
[['seq', '1034.17*x*log2(x) + 5422.97'], ['· qsort', '1034.17*x*log2(x)'], ['· nop', '5422.97 ns']]
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import sympy

from .._internal.caches import Recomputed
from .._internal.display import HtmlTable, as_digits, brief
from .._internal.surface import flag
from ..errors import EvaluationError
from ..syntax.arith import bounds_text, float_text, latex_number, latex_text, value_digits
from ..syntax.symbols import symbol, x
from ..syntax.terms import Atom, Term
from .atomic_model import AtomicModel, stated_numbers
from .bindings import as_value
from .domains import extrapolation_notes, extrapolations, point_notes
from .evaluation import Derivation, closed_form, evaluate
from .machine import MachineSemantics
from .machine_notes import free_count_note, machine_notes
from .pointwise import PointValue, at_point, undecided_note, with_counts
from .render import (
    DEFAULT_DIGITS,
    EXPLAIN_STEPS,
    as_latex,
    as_number,
    as_text,
    exact_number,
    explain_lines,
    shown_model,
    shown_steps,
    step_notes,
    term_label,
    value_text,
    with_unit,
)
from .semantics import Semantics
from .units import atom_names, check_unit, converted_note, in_one_unit

if TYPE_CHECKING:
    from .interval_sources import IntervalSource
    from .intervals import Spread

__all__ = ["Evaluation", "evaluated"]

#: significant digits of an interval's ends at least (the interval says how many mean something;
#: the value itself prints as it does without one)
INTERVAL_DIGITS = 3

#: the range of x an evaluation is drawn over by default
PLOT_RANGE = "x=1..2^30"


@dataclass(frozen=True, eq=False)
class Evaluation(Recomputed, HtmlTable):
    """A term's model (``expr``), how it was derived, and, with bindings, its value there."""

    term: Term
    expr: sympy.Expr
    semantics: Semantics
    point: PointValue | None
    notes: tuple[str, ...]
    library: Mapping[str, AtomicModel] = field(repr=False)
    #: the unit of the model and its values (every atom converted to it)
    unit: str = "ns"
    #: where a symbol's value lies outside an atom's measured range
    extrapolated: tuple[Any, ...] = ()
    #: significant digits of the value by default: the atoms' own precision (see
    #: :func:`~patternalg.syntax.arith.value_digits`)
    digits: int = DEFAULT_DIGITS
    #: with ``interval=``: the central interval of what a measurement would show, its level
    interval: tuple[float, float] | None = None
    level: float | None = None
    #: without a point: every sub-term's model, recorded by the fold that gave ``expr``
    recorded: Derivation | None = field(default=None, repr=False)
    #: with ``interval=``: the seed it was drawn with
    seed: int = field(default=0, repr=False)

    def __repr__(self) -> str:
        """The term and its model or value (:meth:`caption`), on one line."""
        return brief("Evaluation", self.caption())

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
        coefficients (:attr:`digits`; a closed form's coefficients too, so that those computed
        from the atoms' show no float noise)."""
        digits = as_digits(digits)
        value = value_text(self.expr, digits or self.digits)
        if self.interval is not None and value is not None and self.level is not None:
            low, high = bounds_text(*self.interval, INTERVAL_DIGITS, digits)
            return f"{value} {self.unit} [{low}, {high}] ({100 * self.level:g} %)"
        if value is not None:
            return f"{value} {self.unit}"
        return shown_model(self.expr, digits or self.digits)

    @functools.cached_property
    def _explained(self) -> tuple[Derivation, PointValue | None]:
        """The derivation (every sub-term's model) and the point's steps: folded, once, when a
        view of the derivation is first asked for."""
        if self.point is not None and self.point.refused is not None:  # its values alone
            return self.point.values_derivation(self.library), self.point
        if self.point is not None:  # the point's closed form, with its derivation
            return self.point.derivation, self.point
        if self.recorded is not None:  # recorded by the fold that gave the model
            return self.recorded, None
        derivation = Derivation()
        evaluate(self.term, self.library, self.semantics, derivation=derivation)
        return derivation, None

    @property
    def derivation(self) -> Derivation:
        """How the model was derived: every sub-term's model (:meth:`lines`, :meth:`rows`)."""
        return self._explained[0]

    def lines(self, digits: int | None = None, limit: int | None = EXPLAIN_STEPS) -> list[str]:
        """The derivation as ``eval --explain`` prints it, every value in the digits of
        :meth:`text` (``digits``, else :attr:`digits`); of more than ``limit`` sub-terms
        the first and last ``limit // 2`` (``limit=None``: all); with an interval, first
        what it is made of (:meth:`interval_sources`)."""
        digits = as_digits(digits)
        derivation, point = self._explained
        mapping = {symbol(k): v for k, v in self.bindings.items()}
        lines = explain_lines(derivation, mapping, point, self.unit, digits or self.digits, limit)
        if point is not None and point.refused is not None:
            lines.insert(0, "each sub-term's value at the point (no closed form: it is not built for this term)")
        return self.details() + lines

    def details(self) -> list[str]:
        """With an interval, what it is made of (:meth:`interval_sources`), as one line:
        under the notebook's table, and first in :meth:`lines`."""
        sources = self.interval_sources()
        if not sources or self.level is None or self.value is None:
            return []
        from .interval_sources import sources_line

        return [sources_line(sources, self.value, self.level, self.unit)]

    def interval_sources(self) -> tuple[IntervalSource, ...]:
        """With an interval, each of its sources drawn alone (an atom's fit, a measurement's
        noise, a calibrated machine's numbers, what its operators miss): which made it
        wide (:mod:`~patternalg.algebra.interval_sources`); without one, none.

        >>> from patternalg.library.model_library import ModelLibrary
        >>> from patternalg.syntax.parser import parse
        >>> e = evaluated(parse("pipe(inc, nop)"), ModelLibrary.builtin(), Semantics.of("asymptotic"), at={"x": 4})
        >>> e.interval_sources()
        ()
        """
        return self._sources

    @functools.cached_property
    def _sources(self) -> tuple[IntervalSource, ...]:
        """:meth:`interval_sources`, drawn once, when first asked for."""
        if self.interval is None or self.level is None:
            return ()  # without loading numpy
        from .interval_sources import interval_sources

        return interval_sources(self._spread, self.level, self.seed)

    @functools.cached_property
    def _spread(self) -> Spread:
        """What draws the interval (kept by :func:`evaluated`; compiled again after a copy)."""
        from .intervals import Spread

        fixed = {name: as_value(v, name) for name, v in self.bindings.items()}
        return Spread.of(self.term, self.library, fixed, semantics=self.semantics)

    def caption(self) -> str:
        """The term and :meth:`text`, with a closed form's unit (a value shows its own), and
        the point: ``pipe(inc, nop) = 536.185*x (in ns)``."""
        where = ", ".join(f"{k} = {as_text(v)}" for k, v in self.bindings.items())
        unit = f" (in {self.unit})" if value_text(self.expr, self.digits) is None else ""
        return f"{self.term} = {self.text()}{unit}" + (f" at {where}" if where else "")

    def header(self) -> list[str]:
        """Columns: each sub-term, its model, its value at the point (a number, in
        :attr:`unit`), what was decided."""
        return ["sub-term", "model", f"at the point [{self.unit}]", "note"]

    def column_digits(self, digits: int | None = None) -> dict[int, int | None]:
        """The values at the point in ``digits`` significant digits (default :attr:`digits`)."""
        return {2: digits or self.digits}

    def rows(self) -> list[list[Any]]:
        """One row per step of the derivation, sub-terms indented by their depth (of a
        long one the first and last :data:`~patternalg.render.EXPLAIN_STEPS` // 2)."""
        derivation, point = self._explained
        steps = derivation.steps
        here = point.steps if point is not None else (None,) * len(steps)
        mapping = {symbol(k): v for k, v in self.bindings.items()}
        head, tail = shown_steps(len(steps))
        built = point is None or point.refused is None  # else a sub-term's model is its value
        rows = []
        for index in (*head, *tail):
            step, at = steps[index], here[index]
            if tail and index == tail[0]:
                rows.append([f"... {tail[0] - len(head):,} more sub-terms ...", "", None, ""])
            rows.append(
                [
                    "· " * min(step.depth, 40) + term_label(step.term),
                    with_unit(step.model, self.unit, self.digits)
                    if built or isinstance(step.term, Atom)
                    else "(not built)",
                    None if at is None else at.value,
                    "; ".join(step_notes(derivation, step, at, point, mapping)),
                ]
            )
        return rows

    def latex(self, digits: int | None = None) -> str:
        r"""What :meth:`text` says, in LaTeX (what ``eval --format latex`` prints): the value
        or the model with its unit, and the interval where there is one; ``digits`` as
        :meth:`text`'s (a model's coefficients as sympy prints them without).

        >>> from patternalg.library.model_library import ModelLibrary
        >>> from patternalg.syntax.parser import parse
        >>> e = evaluated(parse("pipe(inc, nop)"), ModelLibrary.builtin(), Semantics.of("asymptotic"), at={"x": 4}, interval=0.9)
        >>> print(e.text(3))
        5420 ns [5420, 5420] (90 %)
        >>> print(e.latex(3))
        5420 \; \mathrm{ns} \; [5420, 5420] \; (90\,\%)
        """
        digits = as_digits(digits)
        value = value_text(self.expr, digits or self.digits)
        if value is None:
            return f"{self.model_latex(digits)} \\; \\mathrm{{{latex_text(self.unit)}}}"
        text = f"{latex_number(value)} \\; \\mathrm{{{latex_text(self.unit)}}}"
        if self.interval is not None and self.level is not None:
            low, high = (latex_number(end) for end in bounds_text(*self.interval, INTERVAL_DIGITS, digits))
            text = f"{text} \\; [{low}, {high}] \\; ({100 * self.level:g}\\,\\%)"
        return text

    def model_latex(self, digits: int | None = None) -> str:
        r"""The closed form in LaTeX, each coefficient in the digits :meth:`text` shows it in
        (``digits``, else :attr:`digits`: the fewest that read back, as precise as the atoms'),
        not sympy's 15 (``4.49842521937172`` for the text's ``4.498425219371718``).

        >>> from patternalg.library.model_library import ModelLibrary
        >>> from patternalg.syntax.parser import parse
        >>> e = evaluated(parse("tpool_3(qsort)"), ModelLibrary.builtin(), Semantics.of("asymptotic"))
        >>> print(e.text(), e.model_latex(), e.model_latex(3))
        344.723333333333*x*log2(x) 344.723333333333 x \log_{2}{\left(x \right)} 345 x \log_{2}{\left(x \right)}
        """
        shown = digits or self.digits
        return as_latex(self.expr.xreplace({f: _latex_rounded(f, shown) for f in self.expr.atoms(sympy.Float)}))

    def _repr_latex_(self) -> str:
        """:meth:`latex` in a notebook's math mode."""
        return f"${self.latex()}$"

    def plot(self, ax: Any = None, *, over: str = PLOT_RANGE) -> Any:
        """The model over ``over`` (other bindings kept), the point marked if x is bound;
        returns the matplotlib axes."""
        from ..plotting.curves import Curve
        from ..plotting.results import plot_evaluation
        from .arrays import compile_term
        from .grid import curve_axis

        axis = curve_axis(over)
        bound = self.bindings
        fixed = {k: v for k, v in bound.items() if k != axis.name}
        pointwise = self.semantics if not self.semantics.compositional else Semantics.of("exact")
        compiled = compile_term(self.term, self.library, fixed, semantics=pointwise)
        grid = {axis.name: axis.values}
        values = compiled.values(grid)
        stages: tuple[str, ...] = ()
        if compiled.has_pipe:
            names = compiled.bottleneck_names(grid)
            stages = tuple(str(n) for n in names)
        curve = Curve(str(self.term), values, stages)
        value = self.value
        point = None
        if axis.name in bound and value is not None:
            point = (axis.name, float(bound[axis.name]), value)
        return plot_evaluation(axis.values, curve, symbol=axis.name, unit=self.unit, point=point, ax=ax)


def evaluated(
    term: Term,
    library: Mapping[str, AtomicModel],
    semantics: Semantics,
    *,
    at: Mapping[str, Any] | None = None,
    unit: str | None = None,
    interval: float | None = None,
    seed: int = 0,
) -> Evaluation:
    """``term``'s model under ``semantics`` (a machine's included), or its value where ``at``
    binds symbols (``{"x": 1024}``), every atom converted to one unit first: ``unit``, else the
    atoms' common unit (times of different units: ns); a time is never added to something
    else. ``interval`` (a level such as 0.9), where every symbol is bound, adds the central
    interval of what a measurement of the term would show (:mod:`~patternalg.algebra.intervals`:
    the atoms' uncertainties drawn jointly through the term, ``seed`` fixing the draws).
    Without ``at`` the fold that gives the model records every sub-term's model too (what
    :meth:`Evaluation.lines` and :meth:`Evaluation.rows` show); at a point they fold it when
    asked."""
    at = dict(at or {})
    target = check_unit(unit, "unit") if unit else None
    converted, result_unit = in_one_unit(term, library, target)
    semantics = semantics.in_unit(result_unit)
    point: PointValue | None = None
    recorded: Derivation | None = None
    if at:
        point = at_point(term, converted, at, semantics)
        expr, notes = point.expr, point.notes()
    else:  # the sub-terms' models kept: --explain and a notebook's table show them
        recorded = Derivation()
        expr, undecided = closed_form(term, converted, semantics, recorded)
        # a pipe left undecided inside may not reach the value (the cores bound the whole)
        notes = [undecided_note(semantics)] if undecided and expr.has(sympy.Max) else []
    notes.extend(machine_notes([with_counts(term, at)], semantics))
    if isinstance(semantics, MachineSemantics) and expr.free_symbols - {x}:  # a closed form in counts
        free_note = free_count_note(with_counts(term, at), semantics.machine)
        notes.extend([free_note] if free_note else [])
    moved = converted_note(term, library, result_unit)
    if moved:
        notes.append(moved)
    outside = extrapolations(term, converted, at)
    notes.extend(extrapolation_notes(outside))
    notes.extend(point_notes(at, exact_number(expr), result_unit))
    digits = value_digits(n for name in atom_names(term) if name in library for n in stated_numbers(library[name]))
    bounds, level, spread = None, None, None
    if interval is not None:
        bounds, level, spread, more = _interval(term, converted, at, semantics, interval, seed, expr)
        notes.extend(more)
    result = Evaluation(
        term,
        expr,
        semantics,
        point,
        tuple(notes),
        converted,
        result_unit,
        tuple(outside),
        digits,
        bounds,
        level,
        recorded,
        seed,
    )
    if spread is not None:  # what drew the interval, kept for what it is made of
        result.__dict__["_spread"] = spread
    return result


def _interval(
    term: Term,
    library: Mapping[str, AtomicModel],
    at: Mapping[str, Any],
    semantics: Semantics,
    level: float,
    seed: int,
    expr: sympy.Expr,
) -> tuple[tuple[float, float], float, Spread, list[str]]:
    """The interval of :func:`explain` at ``at``, its level, what drew it and its notes."""
    from .intervals import Spread, check_level, no_uncertainty_note

    level = check_level(level)
    if as_number(expr) is None:
        if expr.free_symbols:
            raise EvaluationError(f"{flag('interval')} needs a value: bind every symbol with {flag('at')}")
        raise EvaluationError(  # a pool of pools 3,000 deep: 2^-3000 of qsort
            f"{flag('interval')} needs a value a double holds (about 2.2e-308 to 1.8e308), not "
            f"{value_text(expr, 4)}: the draws are taken in doubles"
        )
    fixed = {name: as_value(v, name) for name, v in at.items()}
    spread = Spread.of(term, library, fixed, semantics=semantics)
    low, high = spread.interval({}, level, seed=seed)
    notes = [no_uncertainty_note(spread.missing, library)] if spread.missing else []
    return (float(low), float(high)), level, spread, notes


def _latex_rounded(value: sympy.Float, digits: int) -> sympy.Expr:
    r"""A coefficient in ``digits`` significant digits as LaTeX shows it: a whole number
    as an integer (``1030``, as the text prints it; sympy prints a whole Float ``1030.0``),
    up to the size a double holds every integer of.

    >>> sympy.latex(_latex_rounded(sympy.Float(1034.17), 3)), sympy.latex(_latex_rounded(sympy.Float(0.0123456), 3))
    ('1030', '0.0123')
    """
    rounded = sympy.Float(float_text(value, digits))
    whole = float(rounded).is_integer() and abs(float(rounded)) < 2**53
    return sympy.Integer(int(rounded)) if whole else rounded
