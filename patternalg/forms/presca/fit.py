"""Fitting PreSca: :class:`PrescaFitter`, each workload by the paper's Algorithm 1
(:meth:`~.workloads.Workload.predict`), its notes on the thread column and the checkpoints."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..._internal.surface import flag
from ...algebra.units import is_time
from ...errors import FitError
from ...syntax.arith import number_text
from ..base import Form
from ..fitting import Fitter, atom_names_of, measured_atoms, series_of
from .algorithm import plan, target_count
from .form import Presca
from .workloads import direction, thread_column, workload

__all__ = ["PrescaFitter"]


class PrescaFitter(Fitter):
    """The fit of :class:`~.form.Presca`: one prediction per workload."""

    form = Presca
    summary: ClassVar[str] = "{atom}: {choice}; predicted {metric} at p={upto}: {predicted_value}"

    @classmethod
    def summary_fields(cls, record: Mapping[str, Any]) -> dict[str, str]:
        """The predicted value by the one printer (15 significant digits, no float noise)."""
        return {"predicted_value": number_text(record["predicted"])}
    checks_own_values = True  # Algorithm 1 takes the measured values as they are

    @classmethod
    def fit_model(cls, s: Any, options: Mapping[str, Any]) -> Presca:
        """The prediction of one workload (Algorithm 1)."""
        threads = thread_column(options["param"] or ())
        stated = options["better"]
        better = direction(s.metric, None if stated is None else stated == "higher", s.path)
        _check_unit(s, options["unit"] or s.unit, better)
        measured = workload(s, threads, better, s.atom)
        upto = target_count(options["upto"], measured.p)
        try:
            result = measured.predict(
                upto, checkpoints=options["checkpoints"], interpolation=options["interpolate"]
            )
        except FitError as error:  # too few measurements: say where, and what would do
            within = int(max(measured.p))
            hint = (
                f"; to predict up to p = {upto}, measure more thread counts, or stay "
                f"within the measured range with {flag('upto', str(within))}"
                if upto > within and len(measured.p) > 1  # one point interpolates nothing
                else ""
            )
            raise FitError(f"{s.location()}: {s.label}: {error}{hint}") from None
        return Presca.from_prediction(result, measured.p, measured.metric, upto)

    @classmethod
    def source(cls, series: Any, model: Form, options: Mapping[str, Any]) -> str:
        """The paper's method, how many thread counts, and which file and kernel."""
        count = model.statistics["measurements"]
        return (
            f"PreSca (paper 004) on {count} measurements of {series.path}, kernel '{series.kernel}'"
        )

    @classmethod
    def notes(cls, data: Any, options: Mapping[str, Any]) -> list[str]:
        """Which column is p, and where Algorithm 1 uses fewer checkpoints."""
        checked = Presca.options(**options)
        own = measured_atoms(data)
        series = series_of(own)
        notes = (
            text
            for s, atom in zip(series, atom_names_of(own, series), strict=True)
            for text in cls.series_notes(s, atom, checked)
        )
        return [*dict.fromkeys(notes), *super().notes(data, options)]

    @classmethod
    def series_notes(cls, series: Any, atom: str, checked: Mapping[str, Any]) -> list[str]:
        """The notes of one series fitted as ``atom`` with the checked options: which of its
        columns is p, and whether Algorithm 1 uses fewer checkpoints on it."""
        threads = thread_column(checked["param"] or ())
        column = threads or ("p" if "p" in series.parameters else series.parameters[0])
        notes = []
        if threads is None and column != "p":
            notes.append(
                f"column '{column}' of {series.path} is the thread count p "
                f"(use {flag('param', 'NAME=p')} to choose another)"
            )
        counts = series.column(column)
        measured = len(set(counts.tolist()))
        upto = target_count(checked["upto"], counts)
        if measured >= 4 and (min(counts) > 1 or upto > max(counts)):
            notes += [f"{atom}: {text}" for text in plan(measured, checked["checkpoints"])[2]]
        return notes


def _check_unit(series: Any, unit: str | None, higher_is_better: bool) -> None:
    """Refuse a unit of time for a metric where higher is better: it is no time, and its
    model would compose as one (a throughput added to times as seconds)."""
    if higher_is_better and unit is not None and is_time(unit):
        raise FitError(
            f"{series.location()}: {series.label}: a higher '{series.metric}' is better, so it "
            f"is not a time and {unit} cannot be its unit (valid: no unit, or one that is "
            "not a time, such as 1/s)"
        )
