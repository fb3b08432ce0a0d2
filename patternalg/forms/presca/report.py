"""``patternalg predict``: PreSca fitted as ``fit --form presca`` fits it, and its predictions.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "vac.csv")
>>> rows = "".join(f"{k},{100 * (0.1 + 0.9 / k)}\\n" for k in range(1, 9))
>>> _ = open(path, "w").write("p,time\\n" + rows)
>>> (report,) = predict_file(path, upto=12)
>>> summary, predicted, unit = report.summary.rsplit(" ", 2)
>>> summary, round(float(predicted), 4), unit
('vac: Rat12 on the first 4, checkpoint error 0.00%; predicted time at p=12:', 17.5, 'ns')
>>> [row["p"] for row in report.record["predictions"]] == list(range(1, 13))
True
>>> report.header(), report.rows()[-1][0], round(report.rows()[-1][1], 4)
(['p', 'time [ns]'], 12, 17.5)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from ..._internal.callbacks import OnError, ProgressCallback
from ..._internal.display import HtmlTable, as_digits
from ...algebra.atomic_model import AtomicModel
from ...arguments import as_texts
from ...syntax.arith import format_expr
from ..report import FitReport
from .algorithm import CHECKPOINTS
from .fit import PrescaFitter
from .form import Presca
from .workloads import read_measurements, thread_column

__all__ = ["PredictionReport", "predict_file"]


@dataclass(frozen=True)
class PredictionReport(HtmlTable):
    """One workload's prediction: ``fit --form presca``'s report of it, its notes, the
    line a person reads and the record ``predict --format json`` prints; a notebook shows
    it as the table of predictions under the summary and the model range by range."""

    fit: FitReport
    notes: tuple[str, ...] = ()

    @property
    def model(self) -> AtomicModel:
        """The atomic model for the library (the fit's)."""
        return self.fit.model  # type: ignore[no-any-return]

    @property
    def summary(self) -> str:
        """The chosen function, its checkpoint error and the value at the last count, in
        the unit of the rows below it."""
        statistics = self.fit.fitted.statistics
        return PrescaFitter.summary.format(
            atom=self.fit.atom, **statistics, **PrescaFitter.summary_fields(statistics)
        ) + self._unit()

    def _unit(self) -> str:
        """The unit as a value is followed by it (nothing for a dimensionless metric)."""
        unit = self.model.unit
        return "" if unit == "dimensionless" else f" {unit}"

    @cached_property
    def record(self) -> dict[str, Any]:
        """``workload``, ``kernel`` (the chosen function), ``model``, ``pieces``, ``subset``,
        ``checkpoints``, ``checkpoint_error``, ``notes`` and ``predictions`` for 1..upto."""
        fitted = self.fit.fitted
        statistics = fitted.statistics
        targets = np.arange(1, statistics["upto"] + 1)
        values = fitted(p=targets.astype(float))
        return {
            "workload": self.fit.atom,
            "kernel": statistics["function"],
            "model": format_expr(fitted.expr),
            "pieces": [
                {
                    "low": piece.low,
                    "high": piece.high,
                    "function": piece.function,
                    "coefficients": dict(piece.coefficients),
                    "text": piece.describe(),
                }
                for piece in fitted.pieces()  # type: ignore[attr-defined]
            ],
            "subset": statistics.get("subset"),
            "checkpoints": statistics.get("checkpoints"),
            "checkpoint_error": statistics.get("checkpoint_error"),
            "notes": list(self.notes),
            "predictions": [
                {"p": int(t), "value": float(v)} for t, v in zip(targets, values, strict=True)
            ],
        }

    def header(self) -> list[str]:
        """The thread count and the metric with its unit."""
        return ["p", f"{self.fit.fitted.statistics['metric']} [{self.fit.unit}]"]

    def rows(self) -> list[list[Any]]:
        """One row per thread count 1..upto."""
        return [[row["p"], row["value"]] for row in self.record["predictions"]]

    def column_digits(self, digits: int | None = None) -> dict[int, int | None]:
        """The predicted values in ``digits`` significant digits."""
        return {1: digits}

    def lines(self, digits: int | None = None) -> list[str]:
        """What ``predict`` prints: the summary, the model range by range and one line per
        thread count, each value by the one printer (``digits`` significant digits, default
        15, no float noise)."""
        digits = as_digits(digits)
        return [
            self.summary,
            "  model:",
            *(f"    {piece['text']}" for piece in self.record["pieces"]),
            *(f"  p={p:<4} {value}{self._unit()}" for p, value in self.cells(digits)),
        ]

    def caption(self) -> str:
        """The summary and the function of each range of p."""
        return f"{self.summary}; {self.fit.fitted.describe()}"

    def plot(self, ax: Any = None) -> Any:
        """The measurements with the model over them and, dashed, up to ``upto``."""
        return self.fit.plot(ax, extend_to=self.fit.fitted.statistics["upto"])


def predict_file(
    path: str | Path,
    *,
    metric: str | None = None,
    higher_is_better: bool | None = None,
    param: Sequence[str] = (),
    upto: int | None = None,
    checkpoints: int = CHECKPOINTS,
    unit: str | None = None,
    interpolate: str = "auto",
    progress: ProgressCallback = None,
    on_error: OnError = None,
) -> list[PredictionReport]:
    """``patternalg predict FILE``: one report per workload of a measurement file (any
    format ``fit`` reads, recognised from its content); a workload that cannot be
    predicted raises its error, or, given ``on_error``, is handed to it and left out.

    The workloads are fitted by :meth:`Presca.fit_each` with ``fit --form presca``'s
    options; the file is read as :func:`~.workloads.read_performance` reads it (``metric``
    or each column named like a value). ``param`` names the thread column
    (``NAME=p``); ``upto`` defaults to twice the highest measured thread count of each
    workload; ``progress(done, total)`` is called after each.
    """
    options = Presca.options(
        param=as_texts(param, "param", "the thread column as NAME=p, e.g. threads=p"),
        upto=upto,
        checkpoints=checkpoints,
        unit=unit,
        interpolate=interpolate,
        better=None if higher_is_better is None else "higher" if higher_is_better else "lower",
    )
    data = read_measurements(path, metric, thread_column(options["param"] or ()))
    fits = Presca.fit_each(data, progress=progress, on_error=on_error, **options)
    read_notes = data.notes  # what reading left out (a NaN repetition): said once, first
    return [
        PredictionReport(
            fit,
            (*(read_notes if i == 0 else ()), *PrescaFitter.series_notes(fit.series, fit.atom, options)),
        )
        for i, fit in enumerate(fits)
    ]
