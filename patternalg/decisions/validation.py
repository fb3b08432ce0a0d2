"""``validate``: do the models predict what was measured?

Every series of a measurement file whose name is a term (``pipe(qsort, inc)``; an atom is a
term too) is predicted from the models at every measured point, each measurement parameter
bound to the symbol of its name, and compared with the aggregate (default: the median) of the
repetitions there: error = (predicted - measured) / measured, as paper 001 defines it. The
models are converted to the unit of the measured values first. A series that is not a term,
or needs an atom the models lack, is skipped with a note.

>>> from patternalg.measurements import Measurements, Series
>>> s = Series("pipe(inc, nop)", "time", ("x",), np.array([[4.0], [1024.0]]),
...            (np.array([5000.0, 6000.0]), np.array([550000.0])), ((2, 3), (4,)), "m.txt")
>>> data = Measurements("m.txt", "text", ("x",), "time", None, (s,))
>>> result = validate(data, {"inc": "536.185*x", "nop": "5422.97"})
>>> result.header()
['term', 'x', 'predicted', 'measured', 'error']
>>> [row[:4] + [round(row[4], 6)] for row in result.rows()]
[['pipe(inc, nop)', 4.0, 5422.97, 5500.0, -0.014005], ['pipe(inc, nop)', 1024.0, 549053.44, 550000.0, -0.001721]]
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..algebra.domains import range_notes
from ..algebra.semantics import Semantics
from ..algebra.units import atom_names
from ..arguments import as_measurements, as_paths, wrong
from ..errors import EvaluationError, ParseError, UnitError
from ..library.model_library import AtomicModel, ModelLibrary
from ..measurements import Aggregation, Measurements, Series, read
from ..measurements.names import measured_unit, quantity
from ..syntax.arith import number_text
from ..syntax.parser import parse
from ..syntax.terms import Meta, Term
from .numeric import Compiled, compile_term
from .results import Tabular, in_unit, negative_note, number

__all__ = ["Validation", "Validated", "validate", "relative_error"]

#: series named in one note before the rest are counted
_NAMED = 6


def relative_error(predicted: np.ndarray, measured: np.ndarray) -> np.ndarray:
    """(predicted - measured) / measured (paper 001's relative error); NaN where it has no
    finite value (nothing measured, a prediction that is not finite).

    >>> relative_error(np.array([110.0, 5.0, 1.0]), np.array([100.0, 0.0, np.nan])).tolist()
    [0.1, nan, nan]
    """
    with np.errstate(all="ignore"):
        error = (np.asarray(predicted, dtype=float) - measured) / measured
    return np.where(np.isfinite(error), error, np.nan)


def _spread(errors: np.ndarray) -> tuple[float | None, float | None]:
    """The median and the worst |error| of the finite ``errors`` (None if there are none)."""
    finite = np.abs(errors[np.isfinite(errors)])
    if not finite.size:
        return None, None
    return float(np.median(finite)), float(finite.max())


@dataclass(frozen=True, eq=False)
class Validated:
    """One series predicted: its term, the measured points, the predictions and the
    measured aggregates (in :attr:`unit`), and under :attr:`Validation.rules` too."""

    term: str
    kernel: str  #: the series' name in the file
    path: str
    parameters: tuple[str, ...]  #: the file's parameters (the columns of :attr:`points`)
    size: str | None  #: the parameter bound to x (None: x is not measured)
    points: np.ndarray  #: shape (points, parameters)
    predicted: np.ndarray
    measured: np.ndarray
    unit: str
    rules_predicted: np.ndarray | None = None
    #: with ``interval=``: the central interval of what a measurement would show
    low: np.ndarray | None = None
    high: np.ndarray | None = None

    def covered(self) -> np.ndarray:
        """A mask of the points whose measured value lies in the interval."""
        if self.low is None or self.high is None:
            return np.zeros(len(self.points), dtype=bool)
        return (self.low <= self.measured) & (self.measured <= self.high)

    def half_width(self) -> np.ndarray:
        """The interval's half width relative to the prediction at every point."""
        if self.low is None or self.high is None:
            return np.full(len(self.points), np.nan)
        with np.errstate(divide="ignore", invalid="ignore"):
            return (self.high - self.low) / 2 / np.abs(self.predicted)

    @property
    def error(self) -> np.ndarray:
        """(predicted - measured) / measured at every point (NaN where undefined)."""
        return relative_error(self.predicted, self.measured)

    @property
    def rules_error(self) -> np.ndarray | None:
        """The same for the rules' predictions, if compared."""
        if self.rules_predicted is None:
            return None
        return relative_error(self.rules_predicted, self.measured)

    def largest(self) -> np.ndarray:
        """A mask of the points at the largest measured x (none if x is not measured)."""
        if self.size is None:
            return np.zeros(len(self.points), dtype=bool)
        column = self.points[:, self.parameters.index(self.size)]
        return column == column.max()

    def summary(self) -> dict[str, Any]:
        """``{term, kernel, file, unit, points, median, worst, worst_at}`` (|errors|; and
        ``rules_median``, ``rules_worst`` when compared)."""
        median, worst = _spread(self.error)
        at = None
        if worst is not None:
            index = int(np.nanargmax(np.abs(self.error)))
            at = dict(zip(self.parameters, map(float, self.points[index]), strict=True))
        found = {
            "term": self.term,
            "kernel": self.kernel,
            "file": self.path,
            "unit": self.unit,
            "points": len(self.points),
            "median": median,
            "worst": worst,
            "worst_at": at,
        }
        if self.rules_error is not None:
            found["rules_median"], found["rules_worst"] = _spread(self.rules_error)
        return found


@dataclass(frozen=True, eq=False)
class Validation(Tabular):
    """The result of :func:`validate`: one row per term and point (``rows()``), a summary
    per term and overall (``summary()``), and notes (series skipped, extrapolations)."""

    validated: tuple[Validated, ...]
    semantics: str
    rules: str | None
    aggregate: str
    parameters: tuple[str, ...]  #: the parameter columns (of every file)
    files: tuple[str, ...]
    notes: tuple[str, ...] = ()
    level: float | None = None  #: with ``interval=``: the intervals' level

    @property
    def terms(self) -> tuple[str, ...]:
        """The terms validated, in the order of the files."""
        return tuple(v.term for v in self.validated)

    def _several(self) -> bool:
        return len(self.files) > 1

    def header(self) -> list[str]:
        """``term``, the parameters, ``predicted``, ``measured``, ``error`` (and
        ``rules_predicted``, ``rules_error`` when compared; ``file`` first for several)."""
        cols = ["file"] if self._several() else []
        cols += ["term", *self.parameters, "predicted", "measured", "error"]
        cols += ["rules_predicted", "rules_error"] if self.rules else []
        return cols + (["low", "high"] if self.level is not None else [])

    def column_digits(self, digits: int | None = None) -> dict[int, int | None]:
        """Predicted and measured values in ``digits`` significant digits."""
        first = self.header().index("predicted")
        shown = [first, first + 1] + ([first + 3] if self.rules else [])
        if self.level is not None:
            shown += [len(self.header()) - 2, len(self.header()) - 1]
        return dict.fromkeys(shown, digits)

    def rows(self) -> list[list[Any]]:
        """One row per term and point; relative errors as fractions (0.05 is 5 %)."""
        rows = []
        for v in self.validated:
            error, rules = v.error, v.rules_error
            for i, point in enumerate(v.points):
                coordinates = dict(zip(v.parameters, map(float, point), strict=True))
                row: list[Any] = [v.path] if self._several() else []
                row += [v.term, *(coordinates.get(p) for p in self.parameters)]
                row += [number(v.predicted[i]), number(v.measured[i]), number(error[i])]
                if rules is not None and v.rules_predicted is not None:
                    row += [number(v.rules_predicted[i]), number(rules[i])]
                if v.low is not None and v.high is not None:
                    row += [number(v.low[i]), number(v.high[i])]
                rows.append(row)
        return rows

    def caption(self) -> str:
        """The summary in one line, above the notebook's table."""
        every = self.overall()
        return _overall_line(
            f"validation ({self.semantics}), {every['cells']} cells", every, self.rules
        )

    def overall(self) -> dict[str, Any]:
        """``{cells, median, worst, largest: {cells, median, worst}}``: |errors| over every
        cell and over the cells at each term's largest x (and the rules' beside them)."""

        def spread(errors: list[np.ndarray], prefix: str = "") -> dict[str, Any]:
            joined = np.concatenate(errors) if errors else np.empty(0)
            median, worst = _spread(joined)
            return {f"{prefix}median": median, f"{prefix}worst": worst}

        masks = [v.largest() for v in self.validated]
        found: dict[str, Any] = {"cells": sum(len(v.points) for v in self.validated)}
        found |= spread([v.error for v in self.validated])
        largest: dict[str, Any] = {"cells": int(sum(m.sum() for m in masks))}
        largest |= spread([v.error[m] for v, m in zip(self.validated, masks, strict=True)])
        if self.rules:
            rules = [v.rules_error for v in self.validated if v.rules_error is not None]
            found |= spread(rules, "rules_")
            largest |= spread([e[m] for e, m in zip(rules, masks, strict=True)], "rules_")
        found["largest"] = largest
        if self.level is not None:
            found["coverage"] = self.coverage()
        return found

    def coverage(self) -> dict[str, Any]:
        """With intervals: ``{level, cells, covered, share, median_half_width}`` over every
        cell with a measured value, and the same at the largest x (``largest``)."""
        masks = [v.largest() for v in self.validated]

        def count(pick: list[np.ndarray]) -> dict[str, Any]:
            usable = [np.isfinite(v.measured) & np.isfinite(v.predicted) & m for v, m in zip(self.validated, pick, strict=True)]
            cells = int(sum(u.sum() for u in usable))
            covered = int(sum((v.covered() & u).sum() for v, u in zip(self.validated, usable, strict=True)))
            widths = np.concatenate([v.half_width()[u] for v, u in zip(self.validated, usable, strict=True)] or [np.empty(0)])
            return {
                "cells": cells,
                "covered": covered,
                "share": covered / cells if cells else None,
                "median_half_width": float(np.nanmedian(widths)) if widths.size else None,
            }

        found = {"level": self.level, **count([np.ones(len(v.points), dtype=bool) for v in self.validated])}
        found["largest"] = count(masks)
        return found

    def summary(self) -> list[dict[str, Any]]:
        """One :meth:`Validated.summary` per term."""
        return [v.summary() for v in self.validated]

    def to_json(self) -> dict[str, Any]:
        """``{semantics, rules, aggregate, files, parameters, header, rows, terms, overall,
        notes}`` (``terms``: the summary per term)."""
        return {
            "semantics": self.semantics,
            "rules": self.rules,
            "aggregate": self.aggregate,
            "files": list(self.files),
            "parameters": list(self.parameters),
            "header": self.header(),
            "rows": self.rows(),
            "terms": self.summary(),
            "overall": self.overall(),
            "notes": list(self.notes),
        }

    def plot(self, ax: Any = None) -> Any:
        """Predicted against measured, log-log, with the line y = x (matplotlib axes)."""
        from ..plotting.validation import plot_validation

        return plot_validation(self, ax=ax)

    def text(self, digits: int | None = None) -> list[str]:
        """A table per term (errors in percent) and the summary."""
        lines: list[str] = []
        for v in self.validated:
            lines += _term_table(v, self.rules, digits)
            lines.append("")
        return lines + self.summary_text()

    def summary_text(self) -> list[str]:
        """The summary: median and worst |error| per term, then over every cell and at the
        largest x."""
        rules = self.rules
        header = ["term", "points", "median |error|", "worst |error|"]
        header += [f"{rules}: median", f"{rules}: worst"] if rules else []
        body = []
        for found in self.summary():
            row = [found["term"], str(found["points"]), _percent(found["median"])]
            row.append(_percent(found["worst"]) + _where(found["worst_at"]))
            if rules:
                row += [_percent(found["rules_median"]), _percent(found["rules_worst"])]
            body.append(row)
        lines = [f"summary ({self.semantics}; measured: the {self.aggregate} of the repetitions)"]
        lines += _aligned([header, *body])
        every = self.overall()
        lines.append(_overall_line(f"all {every['cells']} cells", every, rules))
        if every["largest"]["cells"]:
            cells = every["largest"]["cells"]
            what = f"the {cells} cell{'s' if cells > 1 else ''} at the largest x"
            lines.append(_overall_line(what, every["largest"], rules))
        if self.level is not None:
            found = every["coverage"]
            lines.append(
                f"{100 * self.level:g} % intervals cover {found['covered']} of {found['cells']} measured "
                f"values ({_percent(found['share'])}), median half-width {_percent(found['median_half_width'])}"
                f" of the prediction (at the largest x: {found['largest']['covered']} of "
                f"{found['largest']['cells']})"
            )
        return lines


def _percent(value: float | None, sign: bool = False) -> str:
    """A relative error in percent (two decimals), or ``-`` where there is none."""
    if value is None or not math.isfinite(value):
        return "-"
    return f"{value:+.2%}" if sign else f"{value:.2%}"


def _where(point: Mapping[str, float] | None) -> str:
    if not point:
        return ""
    return " at " + ", ".join(f"{k} = {number_text(v)}" for k, v in point.items())


def _aligned(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def _overall_line(what: str, found: Mapping[str, Any], rules: str | None) -> str:
    line = f"{what}: median |error| {_percent(found['median'])}, worst {_percent(found['worst'])}"
    if rules:
        line += (
            f" ({rules}: median {_percent(found['rules_median'])}, "
            f"worst {_percent(found['rules_worst'])})"
        )
    return line


def _term_table(v: Validated, rules: str | None, digits: int | None) -> list[str]:
    """One term's table: its points, predicted, measured, error (and the rules')."""
    header = [*v.parameters, f"predicted [{v.unit}]", f"measured [{v.unit}]", "error"]
    header += [f"{rules}: predicted [{v.unit}]", f"{rules}: error"] if rules else []
    body = []
    rules_error = v.rules_error
    for i, point in enumerate(v.points):
        row = [number_text(float(p)) for p in point]
        row += [_value(v.predicted[i], digits), _value(v.measured[i], digits)]
        row.append(_percent(float(v.error[i]), sign=True))
        if rules_error is not None and v.rules_predicted is not None:
            row += [
                _value(v.rules_predicted[i], digits),
                _percent(float(rules_error[i]), sign=True),
            ]
        body.append(row)
    title = v.term if v.kernel == v.term else f"{v.term} (kernel '{v.kernel}')"
    return [title, *("  " + line for line in _aligned([header, *body]))]


def _value(value: float, digits: int | None) -> str:
    return number_text(float(value), digits) if math.isfinite(value) else "-"


# --- the question ------------------------------------------------------------------------


def _sources(measurements: Any) -> list[Measurements]:
    """One measurement source or several (Measurements, series, paths), each as Measurements."""

    def one(value: Any, name: str) -> Measurements:
        found = as_measurements(value, read, name)
        if isinstance(found, Measurements):
            return found
        series = (found,) if isinstance(found, Series) else tuple(found)
        if not series:
            raise wrong(name, "measurements with at least one series", value)
        first = series[0]
        return Measurements(first.path, "series", first.parameters, first.metric, None, series)

    if (
        isinstance(measurements, list | tuple)
        and measurements
        and not all(isinstance(s, Series) for s in measurements)
    ):
        return [one(value, f"measurements[{i}]") for i, value in enumerate(measurements)]
    return [one(measurements, "measurements")]


def _library(models: Any) -> Mapping[str, AtomicModel]:
    """The models: a library or mapping as it is, a model file's path (or several) alone,
    without the built-ins (a model not given is not validated)."""
    if isinstance(models, str | os.PathLike) or (
        isinstance(models, list | tuple)
        and models
        and all(isinstance(m, str | os.PathLike) for m in models)
    ):
        return ModelLibrary.load(as_paths(models, "models"), builtin=False)
    return ModelLibrary.of(models, "models")


@dataclass
class _Skipped:
    """The series left out, by reason, for the notes and for the error if nothing is left."""

    not_terms: list[str]
    unknown: dict[str, list[str]]  #: atom -> the terms that need it
    other: list[str]

    def notes(self, library: Mapping[str, AtomicModel]) -> list[str]:
        notes = []
        if self.not_terms:
            notes.append(
                f"skipped {_names(self.not_terms)}: not terms (a series validates "
                "when its name is a term, e.g. 'pipe(qsort, inc)', or an atom modeled)"
            )
        for atom, terms in self.unknown.items():
            known = ", ".join(sorted(library)[:_NAMED]) or "none"
            notes.append(f"skipped {_names(terms)}: no model of {atom} (the models: {known})")
        return notes + self.other


def _names(names: Sequence[str]) -> str:
    shown = ", ".join(f"'{n}'" for n in names[:_NAMED])
    more = len(names) - _NAMED
    return shown + (f" and {more} more" if more > 0 else "")


def _term_of(
    series: Series, atom: str, library: Mapping[str, AtomicModel]
) -> tuple[Term | None, list[str]]:
    """The term a series is named by, and the atoms of it the models lack. A kernel that is
    not a term whose atoms are modeled (``BM_sort``, ``test_pass[order=sorted]``) is the
    atom ``fit`` named it by (``bM_sort``), if the models have that atom."""
    try:
        term: Term | None = parse(series.kernel)
    except ParseError:
        term = None
    if term is not None and any(isinstance(node, Meta) for node in term.walk()):
        term = None  # a law's metavariable (a capitalised name) stands for no model
    unknown = [] if term is None else [n for n in atom_names(term) if n not in library]
    if (term is None or unknown) and atom in library:
        return parse(atom), []
    return term, unknown


def _bindings(
    symbols: Sequence[str], parameters: Sequence[str], path: str
) -> tuple[dict[str, str], list[str]]:
    """Each symbol the model needs -> the parameter bound to it: by name, and the one
    parameter left to the one symbol left (``fit`` makes a file's one parameter, ``n``, the
    symbol x); and a note saying so."""
    bound = {s: s for s in symbols if s in parameters}
    missing = [s for s in symbols if s not in bound]
    unused = [p for p in parameters if p not in bound.values()]
    notes = []
    if len(missing) == 1 and len(unused) == 1:
        bound[missing[0]] = unused[0]
        notes.append(
            f"parameter '{unused[0]}' of {path} is taken as the symbol {missing[0]}, the one "
            "symbol of the model no parameter names (as fit takes a file's one parameter as x)"
        )
    return bound, notes


def _size(bound: Mapping[str, str], parameters: Sequence[str]) -> str | None:
    """The parameter that is x: bound to it, else named x, else a file's one parameter (a
    model constant in x binds nothing).

    >>> _size({}, ["n"]), _size({"x": "n"}, ["p", "n"]), _size({}, ["p", "q"])
    ('n', 'n', None)
    """
    if "x" in bound:
        return bound["x"]
    if "x" in parameters:
        return "x"
    return parameters[0] if len(parameters) == 1 else None


def _predict(compiled: Compiled, columns: Mapping[str, np.ndarray], points: int) -> np.ndarray:
    """The compiled model at every point (a model constant in the parameters: every point)."""
    values = compiled.values({s: columns[s] for s in compiled.symbols})
    return np.array(np.broadcast_to(values, (points,)), dtype=float)


def _validate_series(
    series: Series,
    term: Term,
    library: Mapping[str, AtomicModel],
    semantics: tuple[Semantics, Semantics | None],
    how: Aggregation,
    interval: tuple[float, int] | None = None,
) -> tuple[Validated | None, list[str]]:
    """One series predicted and measured, and its notes; None and the reason (one note) if
    the file does not measure a symbol its model needs."""
    main, rules = semantics
    unit = measured_unit(quantity(series.metric), series.unit, None, series.path)
    converted, unit, moved = in_unit([term], library, unit)
    main = main.in_unit(unit)
    if moved and series.unit is None:
        moved = (f"{moved[0]} ({series.path} states no unit: taken as {unit}, as fit takes it)",)
    compiled = compile_term(term, converted, {}, semantics=main)
    bound, more = _bindings(compiled.symbols, series.parameters, series.path)
    missing = [s for s in compiled.symbols if s not in bound]
    if missing:
        return None, [
            f"skipped '{series.kernel}': its model needs {', '.join(missing)}, which "
            f"{series.path} does not measure (its parameters: {', '.join(series.parameters)})"
        ]
    columns = {s: series.column(p) for s, p in bound.items()}
    predicted = _predict(compiled, columns, len(series))
    other = None
    if rules is not None:
        other = _predict(compile_term(term, converted, {}, semantics=rules), columns, len(series))
    ranges = {s: (float(c.min()), float(c.max())) for s, c in columns.items()}
    text = str(term)
    notes = [*moved, *more, *range_notes([term], converted, {}, ranges)]
    if np.isfinite(predicted).any():
        notes += negative_note(text, float(np.nanmin(predicted)), unit)
    size = _size(bound, series.parameters)
    low = high = None
    if interval is not None:
        from .intervals import Spread, no_uncertainty_note

        spread = Spread.of(term, converted, {}, semantics=main)
        drawn = spread.draws({s: columns[s] for s in spread.symbols}, seed=interval[1])
        drawn = np.broadcast_to(drawn, (drawn.shape[0], len(series)))
        low, high = np.quantile(drawn, [(1 - interval[0]) / 2, (1 + interval[0]) / 2], axis=0)
        if spread.missing:
            notes.append(no_uncertainty_note(list(spread.missing)))
    validated = Validated(
        text, series.kernel, series.path, series.parameters, size, series.points, predicted,
        series.aggregate(how), unit, other, low, high,
    )  # fmt: skip
    undefined = int(np.isnan(validated.error).sum())
    if undefined:
        notes.append(
            f"{text}: no relative error at {undefined} point(s) (nothing measured, "
            "or no finite prediction): their cells are empty"
        )
    return validated, notes


def validate(
    measurements: Any,
    models: Any,
    *,
    semantics: Semantics | str = "exact",
    rules: Semantics | str | None = None,
    aggregate: Aggregation | str = "median",
    interval: float | None = None,
    seed: int = 0,
) -> Validation:
    """Predict every series of ``measurements`` whose name is a term from ``models`` and
    compare with the measured ``aggregate`` of its repetitions at every point.

    ``measurements``: a :class:`~patternalg.measurements.Measurements`, a series, the path
    of a measurement file in any format :func:`patternalg.measurements.read` knows, or a
    list of them. ``models``: a model file's path (or several; the built-ins are not added:
    an atom they lack is not validated), a :class:`~patternalg.library.ModelLibrary` or a
    mapping of atom names to models. ``semantics``: how the operators combine (any
    registered semantics); ``rules``: a second semantics whose predictions and errors are
    reported beside (e.g. ``exact`` beside a machine's). Series that are not terms, need an
    atom the models lack or a symbol the file does not measure are skipped with a note; an
    EvaluationError if none is left. ``interval`` (a level such as 0.9) adds each
    prediction's central interval of what a measurement would show
    (:mod:`~patternalg.decisions.intervals`) and the share of the measured values it covers.
    """
    sources = _sources(measurements)
    library = _library(models)
    main = Semantics.of(semantics)
    other = None if rules is None else Semantics.of(rules)
    drawn = None
    if interval is not None:
        from .intervals import check_level

        drawn = (check_level(interval), seed)
    try:
        how = Aggregation(aggregate)
    except ValueError:
        valid = ", ".join(a.value for a in Aggregation)
        raise wrong("aggregate", f"one of {valid}", aggregate) from None
    validated: list[Validated] = []
    notes: list[str] = []
    skipped = _Skipped([], {}, [])
    for data in sources:
        notes += data.notes
        for series, atom in zip(data, data.atoms(), strict=True):
            term, unknown = _term_of(series, atom, library)
            if term is None:
                skipped.not_terms.append(series.kernel)
                continue
            if unknown:
                skipped.unknown.setdefault(unknown[0], []).append(series.kernel)
                continue
            if str(term) != series.kernel and atom == str(term):
                notes.append(f"kernel '{series.kernel}' is the atom {atom} (the name fit gives it)")
            try:
                found, more = _validate_series(series, term, library, (main, other), how, drawn)
            except UnitError as exc:
                found, more = None, [f"skipped '{series.kernel}': {exc}"]
            if found is None:
                skipped.other += more
            else:
                validated.append(found)
                notes += more
    notes = skipped.notes(library) + notes
    if not validated:
        raise EvaluationError(_nothing(sources, skipped, library))
    parameters = tuple(dict.fromkeys(p for v in validated for p in v.parameters))
    return Validation(
        tuple(validated),
        main.name,
        None if other is None else other.name,
        how.value,
        parameters,
        tuple(dict.fromkeys(d.path for d in sources)),
        tuple(dict.fromkeys(notes)),
        interval,
    )


def _nothing(sources: Sequence[Measurements], skipped: _Skipped, library: Mapping[str, Any]) -> str:
    """The one line saying that nothing could be validated: what the files had, what would
    be valid."""
    files = ", ".join(d.path for d in sources)
    count = sum(len(d) for d in sources)
    why = []
    if skipped.not_terms:
        why.append(f"not terms: {_names(skipped.not_terms)}")
    for atom, terms in skipped.unknown.items():
        why.append(f"no model of {atom}: {_names(terms)}")
    why += skipped.other
    known = ", ".join(sorted(library)[:_NAMED]) or "none"
    return (
        f"{files}: nothing to validate among {count} series ({'; '.join(why)}); valid: series "
        f"named by terms (e.g. 'pipe(qsort, inc)') whose atoms the models define ({known})"
    )
