"""Fitting a family to measurements: :class:`Fitter`, apart from the family's maths.

A family (:class:`~patternalg.forms.base.Form`) holds its closed form, parameters and
table format; its fitter (a :class:`Fitter` subclass in the family's own module, named by
the family's ``fitter = "module:Class"`` and imported when first fitted, so reading a model
file never imports numpy or scipy) holds everything a fit needs: which column is read, the
checks of the measurements as a whole, one series' fit, the rule for times that are not
positive, the reports with their unit and source, the notes and the summary line of
``patternalg fit``. ``Form.fit`` and ``Form.fit_each`` hand over to it, as numpy's
``Polynomial.fit`` hands over to ``polyfit``.

>>> from patternalg.forms import Amdahl
>>> fitter = Amdahl.fitting()
>>> fitter.form is Amdahl, issubclass(fitter, Fitter), fitter.value_column(None)
(True, True, 'time')
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from .._internal.callbacks import OnError, ProgressCallback
from .._internal.surface import either, flag
from ..arguments import as_measurements
from ..errors import FitError, MeasurementError, PatternalgError
from ..measurements.model import hand_left_out
from .base import Form
from .report import FitReport

__all__ = ["Fitter", "series_of", "atom_names_of", "measured_atoms"]


def _pick(kept: Sequence[int], *lists: Sequence[Any]) -> tuple[list[Any], ...]:
    """The items at ``kept`` of each of ``lists``."""
    return tuple([items[i] for i in kept] for items in lists)


def _passes(
    check: Callable[[Any, Mapping[str, Any]], None],
    series: Any,
    options: Mapping[str, Any],
    on_error: Callable[[FitError], None],
) -> bool:
    """Whether ``series`` passes ``check``; if not, its error goes to ``on_error``."""
    try:
        check(series, options)
    except FitError as error:
        on_error(error)
        return False
    return True


class Fitter:
    """The fit of one family (:attr:`form`), used as a class: every method is a class
    method, so a subclass overrides only what its family does differently.

    A subclass sets :attr:`form` and :attr:`summary`, and :attr:`series_fit` (one series
    at a time), or implements :meth:`fit_model` (one series, built its own way, as
    PreSca's) or :meth:`fit_models` (many series at once, as PMNF's).
    """

    #: the family this fitter fits
    form: ClassVar[type[Form]]
    #: the line ``patternalg fit`` prints per kernel, formatted with the JSON record
    summary: ClassVar[str] = "{atom}: {model}"
    #: whether the fitter checks its measured values itself (then the rule of
    #: :meth:`fit_each` for times that are not positive leaves them alone)
    checks_own_values: ClassVar[bool] = False
    #: the fit of one series (parameters, domain, statistics and, if the family records
    #: one, the :class:`~patternalg.algebra.uncertainty.Uncertainty`), the options as
    #: keywords; None for a fitter that fits its series otherwise (:meth:`fit_models`)
    series_fit: ClassVar[Callable[..., tuple[Any, ...]] | None] = None

    # --- reading and checking ----------------------------------------------------------
    @classmethod
    def read(
        cls,
        path: str | Path,
        format: str | None = None,
        *,
        metric: str | None = None,
        scaling: str | None = None,
        parameters: str | Sequence[str] | None = None,
    ) -> Any:
        """The measurements of a file as ``patternalg fit --form NAME FILE`` reads them (with
        its ``--input-format``, ``--metric``, ``--scaling`` and ``--parameters``)."""
        from ..measurements import read

        return read(path, format, metric=metric, value=cls.value_column(metric), scaling=scaling, parameters=parameters)

    @classmethod
    def fit_file_in_batches(
        cls,
        path: str | Path,
        each: Callable[[Sequence[FitReport]], object],
        *,
        metric: str | None = None,
        format: str | None = None,
        parameters: str | Sequence[str] | None = None,
        **options: Any,
    ) -> Any:
        """Fit a regular Extra-P text file a batch at a time (the fast path of ``fit`` and
        :func:`patternalg.fit`, docs/scaling.md), handing each batch's reports to ``each``:
        the summary of the file's blocks (:class:`~patternalg.measurements.blocks.Summary`),
        or None where this path does not take the file (a family without it, a file that is
        not regular, ``parameters`` other than its own, a fit that fails). The caller then
        drops what ``each`` was handed and reads the whole file (:meth:`read`), whose
        messages say what is wrong."""
        batches = getattr(cls, "fit_batches", None)
        if batches is None or not os.path.isfile(path):
            return None
        from ..measurements.blocks import Irregular, Summary
        from ..measurements.parameters import declared_parameters

        summary = None
        try:
            for block, reports in batches(str(path), metric=metric, input_format=format, **options):
                if summary is None:
                    declared = declared_parameters(parameters)
                    if declared not in (None, [p.lower() for p in block.parameters]):
                        return None  # read() takes the points over the declared ones
                    summary = Summary(block)
                else:
                    summary.add(block)
                each(reports)
        except (Irregular, PatternalgError):
            return None
        return summary

    @classmethod
    def value_column(cls, metric: str | None) -> str | tuple[str, ...] | None:
        """The value column a reader should take from a CSV file: a name, names to choose
        from in order, or None (the reader's choice)."""
        return metric

    @classmethod
    def prepare(cls, data: Any, options: Mapping[str, Any]) -> None:
        """Check ``Measurements`` as a whole before its series are fitted (e.g. its columns);
        the base has nothing to check."""
        return None

    # --- fitting -------------------------------------------------------------------------
    @classmethod
    def fit(cls, data: Any, options: Mapping[str, Any], allow_nonpositive: bool) -> Form:
        """The model fitted to one series (:meth:`Form.fit <patternalg.forms.base.Form.fit>`,
        whose keywords these are)."""
        data = as_measurements(data, cls.read)
        series, checked = cls._fitting(data, options)
        hand_left_out(data, None)  # a series the reader could not read
        if len(series) != 1:
            raise FitError(
                f"{getattr(data, 'path', 'measurements')}: {len(series)} series; fit one "
                "(measurements.select(kernel=..., metric=...)) or use fit_each"
            )
        usable = cls._usable(data, series, atom_names_of(data, series), checked, allow_nonpositive)
        for warning in filter(None, usable[2]):  # no report to carry it: Python's warning
            warnings.warn(warning, UserWarning, stacklevel=3)
        return cls.fit_models(usable[0], checked)[0]

    @classmethod
    def fit_each(
        cls,
        data: Any,
        options: Mapping[str, Any],
        progress: ProgressCallback,
        allow_nonpositive: bool,
        on_error: OnError = None,
    ) -> list[FitReport]:
        """One report per series (:meth:`Form.fit_each <patternalg.forms.base.Form.fit_each>`,
        whose keywords these are); series named by a composition (``pipe(a, b)``) are
        left out (:func:`measured_atoms`). A series that cannot be fitted (too few points)
        stops the fit, or, given ``on_error``, is handed to it and left out."""
        data = measured_atoms(as_measurements(data, cls.read))
        series, checked = cls._fitting(data, options)
        hand_left_out(data, on_error)  # series the reader could not read
        atoms = atom_names_of(data, series)  # named together, whichever fail
        series, notes, warned, atoms = cls._usable(
            data, series, atoms, checked, allow_nonpositive, on_error
        )
        if on_error is not None:
            kept = [i for i, s in enumerate(series) if _passes(cls.check_series, s, checked, on_error)]
            series, notes, warned, atoms = _pick(kept, series, notes, warned, atoms)
        models = cls.fit_models(series, checked, progress, on_error=on_error)
        fitted = [i for i, model in enumerate(models) if model is not None]
        series, notes, warned, atoms, models = _pick(fitted, series, notes, warned, atoms, models)
        reports = cls.reports(series, models, atoms, checked)
        return [
            replace(report, notes=(note,) if note else (), warnings=(warning,) if warning else ())
            for report, note, warning in zip(reports, notes, warned, strict=True)
        ]

    @classmethod
    def defined(cls, series: Any, options: Mapping[str, Any]) -> tuple[Any, str | None]:
        """``series`` without the points where the family's closed form is not defined, and
        a warning naming them (None: every point kept); a FitError if too few points are
        left. The base keeps every point (a family that refuses a value, as a core count
        of 0, refuses the series in its fit)."""
        return series, None

    @classmethod
    def check_series(cls, series: Any, options: Mapping[str, Any]) -> None:
        """A :class:`~patternalg.errors.FitError` if ``series`` alone cannot be fitted (too
        few points, a parameter value the family cannot take), before any series is: the
        base checks nothing (its series fail one by one in :meth:`fit_models`)."""
        return None

    @classmethod
    def fit_models(
        cls,
        series: Sequence[Any],
        options: Mapping[str, Any],
        progress: ProgressCallback = None,
        *,
        on_error: OnError = None,
    ) -> list[Any]:
        """Fitted models of ``series`` (contract 3's ``Series``), one each; None for a series
        whose fit failed and was handed to ``on_error`` (without it, the failure stops all).

        The base fits one series after the other with :meth:`fit_model`; a fitter that
        fits many series at once (PMNF's) overrides this instead (and checks its series
        in :meth:`check_series`).
        """
        models: list[Any] = []
        for done, one in enumerate(series, start=1):
            try:
                models.append(cls.fit_model(one, options))
            except (FitError, MeasurementError) as error:  # a series' own bad cells too
                if on_error is None:
                    raise
                on_error(error)
                models.append(None)
            if progress is not None:
                progress(done, len(series))
        return models

    @classmethod
    def fit_model(cls, series: Any, options: Mapping[str, Any]) -> Form:
        """The model fitted to one series: the family's :meth:`fit_one`, as a model."""
        values, domain, statistics, *spread = cls.fit_one(series, options)
        return cls.form._fitted(
            values, domain=domain, statistics=statistics, uncertainty=next(iter(spread), None)
        )

    @classmethod
    def fit_one(cls, series: Any, options: Mapping[str, Any]) -> tuple[Any, ...]:
        """The parameters, domain and statistics (and the uncertainty, if the family records
        one) of the model fitted to one series: the family's :attr:`series_fit` with the
        checked options as keywords."""
        if cls.series_fit is None:
            raise NotImplementedError(f"{cls.__name__} fits no single series")
        return cls.series_fit(series, **options)

    @classmethod
    def _fitting(cls, data: Any, options: Mapping[str, Any]) -> tuple[list[Any], dict[str, Any]]:
        """The series of ``data`` and the checked options."""
        checked = cls.form.options(**options)
        if hasattr(data, "series"):
            cls.prepare(data, checked)
        return series_of(data), checked

    @classmethod
    def _usable(
        cls,
        data: Any,
        series: Sequence[Any],
        atoms: Sequence[str],
        options: Mapping[str, Any],
        keep: bool,
        on_error: OnError = None,
    ) -> tuple[list[Any], list[str | None], list[str | None], list[str]]:
        """``series`` without the points the family's form is not defined at
        (:meth:`defined`, a warning for each series that lost some), then under the rule
        for times that are not positive (a note for each); the notes, the warnings (None
        where nothing was done) and the ``atoms``. Fitters that check their values
        themselves, and metrics that are not times, keep their times as they are; in a Cube
        profile a thread that never ran a call path spent 0 s there, a real value, kept. A
        series with too few points left, or a negative time, raises its error, or, given
        ``on_error``, is handed to it and left out."""
        from ..measurements.checks import positive_times
        from ..measurements.names import is_time_series

        keep = keep or getattr(data, "format", None) == "cube"
        default = getattr(data, "value_name", "")
        done: list[tuple[Any, str | None, str | None, str]] = []
        for one, atom in zip(series, atoms, strict=True):
            try:
                one, warning = cls.defined(one, options)
                note = None
                timed = hasattr(one, "values") and is_time_series(one.metric or default, one.unit)
                if timed and not cls.checks_own_values:
                    one, note = positive_times(one, keep=keep)
            except (FitError, MeasurementError) as error:
                if on_error is None:
                    raise
                on_error(error)
                continue
            done.append((one, note, warning, atom))
        return (
            [s for s, *_ in done],
            [item[1] for item in done],
            [item[2] for item in done],
            [item[3] for item in done],
        )

    # --- reports and text ------------------------------------------------------------------
    @classmethod
    def reports(
        cls,
        series: Sequence[Any],
        models: Sequence[Form],
        atoms: Sequence[str],
        checked: Mapping[str, Any],
    ) -> list[FitReport]:
        """One report per series, its model and atom name."""
        return [
            FitReport(
                fitted=model,
                atom=atom,
                kernel=s.kernel,
                metric=s.metric,
                unit=cls.unit(s, checked),
                source=cls.source(s, model, checked),
                series=s,
            )
            for s, model, atom in zip(series, models, atoms, strict=True)
        ]

    @classmethod
    def unit(cls, series: Any, options: Mapping[str, Any]) -> str:
        """The unit of a model fitted to ``series``: ``--unit``, else the series' own (the
        value column's ``time_ms``, an Extra-P ``METRIC time_ms``), else ns for a time and
        ``dimensionless`` for a throughput or a speed-up; checked
        (:func:`patternalg.measurements.names.measured_unit`)."""
        from ..measurements.names import measured_unit, quantity

        return measured_unit(quantity(series.metric), series.unit, options.get("unit"), series.path)

    @classmethod
    def source(cls, series: Any, model: Form, options: Mapping[str, Any]) -> str:
        """Where a model fitted to ``series`` comes from (the model file's ``source``)."""
        metric = f", metric '{series.metric}'" if series.metric else ""
        return f"{cls.form.name} fit of {series.path}, kernel '{series.kernel}'{metric}"

    @classmethod
    def repeated(cls, series: Any) -> bool:
        """Whether some point of ``series`` was measured more than once, as the fit merges
        its points, or a summary states the repetitions behind it (a model fitted without
        repetitions has no uncertainty)."""
        return any(len(v) > 1 for v in series.spread_values)

    @classmethod
    def uncertainty_of(cls, data: Any, options: Mapping[str, Any]) -> str | None:
        """How the uncertainty of the kernels of ``data`` is found, where one method is
        found for all: the ``uncertainty`` option (``auto`` resolved by a family that
        resolves it for all its kernels at once), None for a family without one."""
        return options.get("uncertainty")

    @classmethod
    def notes(cls, data: Any, options: Mapping[str, Any]) -> list[str]:
        """What a person fitting ``data`` with ``options`` should know (the CLI prints it):
        the compositions left out, and the unit taken for times that name none; a family
        adds its own."""
        notes = []
        composed = data.compositions() if hasattr(data, "compositions") else ()
        if composed:
            shown = ", ".join(composed[:3]) + (f" and {len(composed) - 3} more" if len(composed) > 3 else "")
            notes.append(
                f"{len(composed)} region(s) of {data.path} named by a composition ({shown}) not "
                "fitted: fit models atoms; validate or calibrate read measured compositions"
            )
        if options.get("unit") is None and any(o.name == "unit" for o in cls.form.fit_options):
            notes += assumed_unit(data)
        return notes

    @classmethod
    def summary_line(cls, record: Mapping[str, Any]) -> str:
        """The :attr:`summary` of one fitted kernel's JSON record, its model as a person
        reads it (:func:`~patternalg.syntax.arith.shown_text`: no float noise)."""
        from ..syntax.arith import shown_text

        fields = {**record, "model": shown_text(record["model"]), **cls.summary_fields(record)}
        return cls.summary.format(**fields)

    @classmethod
    def summary_fields(cls, record: Mapping[str, Any]) -> dict[str, str]:
        """Fields of :attr:`summary` beyond the record's (e.g. a note shown only sometimes)."""
        return {}


def assumed_unit(data: Any) -> list[str]:
    """The note a fit of ``data`` owes where its times name no unit (a CSV column ``time``,
    an Extra-P ``METRIC time``) and are taken as ns: which, and a hint where every value is
    below 1, which few times in ns are (seconds, more likely). ``data``: ``Measurements``, or a
    file streamed in blocks (``measurements.blocks.Summary``: its largest value, of every block).

    >>> from patternalg.measurements.csv import CsvReader
    >>> assumed_unit(CsvReader.read("k.csv", "x,time\\n1,0.012\\n2,0.5\\n"))
    ['k.csv: the times (time) name no unit: read as ns, but every value is below 1 (at most 0.5): if they are seconds, unit=s (or name the column time_s)']
    """
    import numpy as np

    from ..measurements.names import is_time_metric
    from ..syntax.arith import number_text

    default = getattr(data, "value_name", "") or ""
    if hasattr(data, "largest"):  # a file streamed in blocks (measurements.blocks.Summary)
        found = [(data.metric or default, [data.largest])] if data.unit is None else []
    elif isinstance(getattr(data, "series", None), tuple):
        found = [(s.metric or default, s.values) for s in data.series if s.unit is None]
    else:
        return []
    metrics = sorted({m for m, _ in found if is_time_metric(m)})
    if not metrics:
        return []
    largest = max(
        (float(np.max(v)) for m, values in found if m in metrics for v in values if np.size(v)),
        default=math.nan,
    )
    named = [m for m in metrics if m]  # an Extra-P file without METRIC names none
    names = ", ".join(named[:3]) + (", ..." if len(named) > 3 else "")
    head = f"{data.path}: the times{f' ({names})' if names else ''} name no unit: read as ns"
    if largest < 1:
        return [
            f"{head}, but every value is below 1 (at most {number_text(largest, 3)}): if they are "
            f"seconds, {either('fit ', '')}{flag('unit', 's')} (or name the column time_s)"
        ]
    return [f"{head} ({flag('unit', 's')}, or a column or metric named time_s, says otherwise)"]


def measured_atoms(data: Any) -> Any:
    """``data`` without the series named by a composition (``pipe(a, b)``, see
    :meth:`~patternalg.measurements.Measurements.compositions`): a measured composition is
    predicted from its atoms' models (``validate``), not fitted as an atom of its own; an
    error if nothing else is left. Anything but ``Measurements`` as it is."""
    composed = set(data.compositions()) if hasattr(data, "compositions") else set()
    if not composed:
        return data
    kept = tuple(s for s in data.series if s.kernel not in composed)
    if not kept:
        raise FitError(
            f"{data.path}: every region is named by a composition ({', '.join(sorted(composed)[:3])}"
            f"{', ...' if len(composed) > 3 else ''}): fit models atoms; validate or calibrate "
            "read measured compositions, with the atoms' models or measurements"
        )
    return replace(data, series=kept)


def atom_names_of(data: Any, series: Sequence[Any]) -> Sequence[str]:
    """The atom name of each of ``series`` (those of ``data``): ``Measurements`` names them
    distinctly (:meth:`~patternalg.measurements.Measurements.atoms`), a series itself."""
    return data.atoms() if hasattr(data, "atoms") else [s.atom for s in series]


def series_of(data: Any) -> list[Any]:
    """The series of ``data``: one ``Series``, or every series of ``Measurements``."""
    if hasattr(data, "series"):
        return list(data.series)
    if isinstance(data, Iterable) and not hasattr(data, "kernel"):
        return list(data)
    return [data]
