"""What ``validate`` found: each series predicted and measured (:class:`Validated`: its
relative errors, at its largest x, covered by its intervals or not, against the halves of
its repetitions), and the whole (:class:`Validation`: the table, a summary per term and
overall, coverage, the text report).

>>> v = Validated("inc", "inc", "m.txt", ("x",), "x", np.array([[1.0], [2.0]]),
...               np.array([110.0, 190.0]), np.array([100.0, 200.0]), "ns")
>>> v.error.tolist(), v.summary()["worst"]
([0.1, -0.05], 0.1)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from .._internal.display import (
    aligned,
    as_digits,
    brief,
    counted,
    listed,
    percent_cell,
    ranges_text,
)
from .._internal.tables import Tabular, number, with_unit
from ..syntax.arith import number_text
from .coverage import coverage, covered, half_width
from .halves import InHalves, halves_overall, range_text

__all__ = ["Validation", "Validated", "relative_error"]


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
    #: the measured aggregate of each half of the repetitions: shape (halves, points), NaN
    #: at a point with too few (:func:`patternalg.measurements.halves.in_halves`)
    halves: np.ndarray | None = None

    def __post_init__(self) -> None:
        """Each array read-only: what a caller changes in a result would change its report."""
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, np.ndarray):
                view = value.view()
                view.flags.writeable = False
                object.__setattr__(self, field.name, view)

    def __repr__(self) -> str:
        """The term, where it was measured and how far off it is, on one line (never its arrays).

        >>> Validated("inc", "inc", "m.txt", ("x",), "x", np.array([[1.0], [2.0]]),
        ...           np.array([110.0, 190.0]), np.array([100.0, 200.0]), "ns")
        Validated(inc of m.txt: 2 points, x in [1, 2]; median |error| 7.5 %, worst 10 %)
        """
        ranges = ranges_text((name, (self.points[:, i].min(), self.points[:, i].max())) for i, name in enumerate(self.parameters))
        median, worst = _spread(self.error)  # not summary(): it halves the repetitions too
        return brief("Validated", f"{self.term} of {self.path}: {counted(len(self.points), 'point')}, {ranges}; "
                     f"median |error| {percent_cell(median)}, worst {percent_cell(worst)}")  # fmt: skip

    def covered(self) -> np.ndarray:
        """A mask of the points whose measured value lies in the interval."""
        return covered(self)

    def half_width(self) -> np.ndarray:
        """The interval's half width relative to the prediction at every point."""
        return half_width(self)

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

    @functools.cached_property
    def in_halves(self) -> InHalves | None:
        """The errors against the halves of the repetitions (None without :attr:`halves`)."""
        return None if self.halves is None else InHalves.of(self.error, relative_error(self.predicted, self.halves))

    def summary(self) -> dict[str, Any]:
        """``{term, kernel, file, unit, points, median, worst, worst_at}`` (|errors|; and
        ``rules_median``, ``rules_worst`` when compared; with repetitions to halve,
        ``worst_in_halves``: the worst cell's least and greatest error against a half, and
        ``worst_holds``: whether it keeps its sign in every half)."""
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
        at_worst = None if worst is None or self.in_halves is None else self.in_halves.at(index)
        if at_worst is not None:
            found["worst_in_halves"], found["worst_holds"] = at_worst["in_halves"], at_worst["holds"]
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

    def __repr__(self) -> str:
        """The terms, by name the first few, and the overall errors, on one line."""
        found = self.overall()
        what = f"{counted(len(self.validated), 'term')}: {listed(self.terms, 3)}; {self.semantics}, "
        what += f"median |error| {percent_cell(found['median'])}, worst {percent_cell(found['worst'])}"
        if self.level is not None:
            what += f"; {percent_cell(found['coverage']['share'])} covered at {percent_cell(self.level)}"
        return brief("Validation", what)

    @property
    def terms(self) -> tuple[str, ...]:
        """The terms validated, in the order of the files."""
        return tuple(v.term for v in self.validated)

    def _several(self) -> bool:
        return len(self.files) > 1

    def halved(self) -> bool:
        """Whether any point has repetitions enough to halve."""
        return any(v.halves is not None for v in self.validated)

    def header(self) -> list[str]:
        """``term``, the parameters, ``predicted``, ``measured``, ``error`` (and
        ``rules_predicted``, ``rules_error`` when compared; ``low``, ``high`` with intervals;
        ``halves_low``, ``halves_high``, the least and the greatest error against a half of
        the repetitions, where there are enough; ``file`` first for several)."""
        cols = ["file"] if self._several() else []
        cols += ["term", *self.parameters, "predicted", "measured", "error"]
        cols += ["rules_predicted", "rules_error"] if self.rules else []
        cols += ["low", "high"] if self.level is not None else []
        return cols + (["halves_low", "halves_high"] if self.halved() else [])

    def percent_columns(self) -> frozenset[int]:
        """The errors (against the measurement, the rules', against each half)."""
        relative = ("error", "rules_error", "halves_low", "halves_high")
        return frozenset(i for i, name in enumerate(self.header()) if name in relative)

    def column_digits(self, digits: int | None = None) -> dict[int, int | None]:
        """Predicted and measured values in ``digits`` significant digits."""
        header = self.header()
        first = header.index("predicted")
        shown = [first, first + 1] + ([first + 3] if self.rules else [])
        if self.level is not None:
            shown += [header.index("low"), header.index("high")]
        return dict.fromkeys(shown, digits)

    def rows(self) -> list[list[Any]]:
        """One row per term and point; relative errors as fractions (0.05 is 5 %)."""
        rows = []
        halved = self.halved()
        for v in self.validated:
            error, rules = v.error, v.rules_error
            least, greatest = _error_range(v)
            for i, point in enumerate(v.points):
                coordinates = dict(zip(v.parameters, map(float, point), strict=True))
                row: list[Any] = [v.path] if self._several() else []
                row += [v.term, *(coordinates.get(p) for p in self.parameters)]
                row += [number(v.predicted[i]), number(v.measured[i]), number(error[i])]
                if rules is not None and v.rules_predicted is not None:
                    row += [number(v.rules_predicted[i]), number(rules[i])]
                if v.low is not None and v.high is not None:
                    row += [number(v.low[i]), number(v.high[i])]
                if halved:
                    row += [number(least[i]), number(greatest[i])]
                rows.append(row)
        return rows

    def caption(self) -> str:
        """The summary in one line, above the notebook's table (and each term's unit where
        the terms are in several)."""
        every = self.overall()
        line = _overall_line(f"validation ({self.semantics}), {every['cells']} cells", every, self.rules)
        units = {v.unit for v in self.validated}
        if len(units) > 1:
            line += "; values in " + ", ".join(f"{v.unit} ({v.term})" for v in self.validated)
        return line

    def html_header(self) -> list[str]:
        """:meth:`header` with the values' unit where the terms have one, as the text's
        tables show it (``predicted [s]``)."""
        header, units = self.header(), {v.unit for v in self.validated}
        if len(units) != 1:
            return header
        unit = units.pop()
        valued = set(self.column_digits())
        return [with_unit(name, unit) if i in valued else name for i, name in enumerate(header)]

    def overall(self) -> dict[str, Any]:
        """``{cells, median, worst, largest: {cells, median, worst}}``: |errors| over every
        cell and over the cells at each term's largest x (and the rules' beside them); with
        intervals, ``coverage``; with repetitions to halve, ``halves``
        (:func:`~patternalg.evidence.halves.halves_overall`)."""

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
        halves = halves_overall(
            [(v.term, v.path, v.parameters, v.points, v.in_halves) for v in self.validated if v.in_halves is not None]
        )
        if halves is not None:
            found["halves"] = halves
        return found

    def coverage(self) -> dict[str, Any]:
        """With intervals: ``{level, cells, covered, share, median_half_width}`` over every
        cell with a measured value, and the same at the largest x (``largest``)."""
        return coverage(self.validated, self.level)

    def size_name(self) -> str:
        """The measured parameter that is x, as the files name it (``n``: a CSV's size
        column) where every term's is the same, else ``x``."""
        names = {v.size for v in self.validated if v.size is not None}
        return names.pop() if len(names) == 1 else "x"

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

    def lines(self, digits: int | None = None) -> list[str]:
        """A table per term (errors in percent) and the summary."""
        digits = as_digits(digits)
        lines: list[str] = []
        for v in self.validated:
            lines += _term_table(v, self.rules, digits, self.halved(), self._several())
            lines.append("")
        return lines + self.summary_text()

    def details(self) -> list[str]:
        """Under the notebook's table: the summary its command prints (:meth:`summary_text`)."""
        return self.summary_text()

    def summary_text(self) -> list[str]:
        """The summary: median and worst |error| per term (and its file, of several), then
        over every cell and at the largest x, the intervals' coverage, and what the halves of
        the repetitions say."""
        rules, halved, several = self.rules, self.halved(), self._several()
        header = ["file"] if several else []
        header += ["term", "points", "median |error|", "worst |error|"]
        header += ["worst in halves"] if halved else []
        header += [f"{rules}: median", f"{rules}: worst"] if rules else []
        body = []
        changes = []
        for found in self.summary():
            row = [found["file"]] if several else []
            row += [found["term"], str(found["points"]), _percent(found["median"])]
            row.append(_percent(found["worst"]) + _where(found["worst_at"]))
            if halved:
                row.append(range_text(found.get("worst_in_halves")))
                if found.get("worst_holds") is False:
                    changes.append(_in_file(found["term"], found["file"], several))
            if rules:
                row += [_percent(found["rules_median"]), _percent(found["rules_worst"])]
            body.append(row)
        lines = [f"summary ({self.semantics}; measured: the {self.aggregate} of the repetitions)"]
        lines += aligned([header, *body])
        every = self.overall()
        lines.append(_overall_line(f"all {every['cells']} cells", every, rules))
        size = self.size_name()
        if every["largest"]["cells"]:
            cells = every["largest"]["cells"]
            what = f"the {cells} cell{'s' if cells > 1 else ''} at the largest {size}"
            lines.append(_overall_line(what, every["largest"], rules))
        if self.level is not None:
            found = every["coverage"]
            lines.append(
                f"{100 * self.level:g} % intervals cover {found['covered']} of {found['cells']} measured "
                f"values ({_percent(found['share'])}), median half-width {_percent(found['median_half_width'])}"
                f" of the prediction (at the largest {size}: {found['largest']['covered']} of "
                f"{found['largest']['cells']})"
            )
        if "halves" in every:
            lines += _halves_lines(every["halves"], changes, several)
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


def _error_range(v: Validated) -> tuple[np.ndarray, np.ndarray]:
    """The least and the greatest error against a half at each point (NaN where none)."""
    if v.in_halves is None:
        return np.full(len(v.points), np.nan), np.full(len(v.points), np.nan)
    return v.in_halves.least, v.in_halves.greatest


def _in_file(term: str, path: str, several: bool) -> str:
    """A term as the text names it: with its file where there are ``several``.

    >>> _in_file("tpool_2(inc)", "b/m.txt", True), _in_file("tpool_2(inc)", "b/m.txt", False)
    ('tpool_2(inc) in b/m.txt', 'tpool_2(inc)')
    """
    return f"{term} in {path}" if several else term


def _halves_lines(found: Mapping[str, Any], changes: list[str], several: bool) -> list[str]:
    """What the halves of the repetitions say: how many errors keep their sign, how far
    they move, and the terms whose worst error is within that (each with its file, of
    ``several``)."""
    lines = [
        f"against each half of the repetitions (first, second, odd, even): {found['hold']} of "
        f"{found['cells']} errors keep their sign; they move by a median of "
        f"{_points(found['median_moved'])}, at most {_points(found['most_moved'])} "
        f"({_in_file(found['most_moved_term'], found['most_moved_file'], several)}{_where(found['most_moved_at'])})"
    ]
    if changes:
        shown = listed(changes, 6)
        lines.append(
            f"the worst error of {shown} changes sign between halves: the measurement moves as "
            "much as the model misses there (more repetitions, or a quieter machine, would tell)"
        )
    return lines


def _points(value: float) -> str:
    """A distance between two relative errors, in percentage points."""
    return f"{100 * value:.1f} points"


def _overall_line(what: str, found: Mapping[str, Any], rules: str | None) -> str:
    line = f"{what}: median |error| {_percent(found['median'])}, worst {_percent(found['worst'])}"
    if rules:
        line += (
            f" ({rules}: median {_percent(found['rules_median'])}, "
            f"worst {_percent(found['rules_worst'])})"
        )
    return line


def _term_table(v: Validated, rules: str | None, digits: int | None, halved: bool, several: bool) -> list[str]:
    """One term's table: its points, predicted, measured, error (the error against the
    halves of the repetitions, and the rules'), titled with its file where there are
    ``several``."""
    header = [*v.parameters, f"predicted [{v.unit}]", f"measured [{v.unit}]", "error"]
    header += ["error in halves"] if halved else []
    header += [f"{rules}: predicted [{v.unit}]", f"{rules}: error"] if rules else []
    body = []
    rules_error = v.rules_error
    least, greatest = _error_range(v)
    for i, point in enumerate(v.points):
        row = [number_text(float(p)) for p in point]
        row += [_value(v.predicted[i], digits), _value(v.measured[i], digits)]
        row.append(_percent(float(v.error[i]), sign=True))
        if halved:
            pair = [float(least[i]), float(greatest[i])]
            row.append(range_text(pair if math.isfinite(pair[0]) else None))
        if rules_error is not None and v.rules_predicted is not None:
            row += [
                _value(v.rules_predicted[i], digits),
                _percent(float(rules_error[i]), sign=True),
            ]
        body.append(row)
    title = v.term if v.kernel == v.term else f"{v.term} (kernel '{v.kernel}')"
    return [_in_file(title, v.path, several), *("  " + line for line in aligned([header, *body]))]


def _value(value: float, digits: int | None) -> str:
    return number_text(float(value), digits) if math.isfinite(value) else "-"
