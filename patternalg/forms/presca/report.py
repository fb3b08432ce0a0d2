"""PreSca as a model family: the atomic model, the summary and the JSON record of a fit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...arith import format_expr
from ...callbacks import ProgressCallback
from ...errors import FitError
from ...model import AtomicModel
from ...units import measured_unit
from .algorithm import CHECKPOINTS, check_upto, target_count
from .form import Presca
from .workloads import Workload, read_performance, thread_column

__all__ = ["PredictionReport", "fit_model", "predict_file"]


@dataclass(frozen=True)
class PredictionReport:
    """One workload's prediction: the atomic model, a line for people, a record for JSON."""

    model: AtomicModel
    summary: str
    record: Mapping[str, Any] = field(default_factory=dict)


def fit_model(
    workload: Workload,
    upto: int,
    checkpoints: int = CHECKPOINTS,
    unit: str | None = None,
    interpolation: str = "auto",
    notes: Sequence[str] = (),
) -> PredictionReport:
    """PreSca on one workload: the atomic model (:class:`Presca`'s), a summary and a record.

    ``unit`` (``--unit``) defaults to the value column's unit, else ``ns`` for a time and
    ``dimensionless`` otherwise; ``notes``
    (e.g. about the file) go into the record with PreSca's own.
    """
    result = workload.predict(upto, checkpoints=checkpoints, interpolation=interpolation)
    function = result.function
    fitted = Presca.from_prediction(result, workload.p, workload.metric, upto)
    model = fitted.atomic_model(
        workload.name,
        unit=measured_unit(workload.metric, workload.unit, unit, workload.name),
        source=f"PreSca (paper 004) on {len(workload.p)} measurements",
    )
    targets = np.arange(1, upto + 1)
    values = function(targets)
    error = result.checkpoint_error
    summary = Presca.summary.format(atom=workload.name, **fitted.statistics)
    record = {
        "workload": workload.name,
        "kernel": function.name,
        "model": format_expr(function.expr()),
        "pieces": [
            {
                "low": piece.low,
                "high": piece.high,
                "function": piece.function,
                "coefficients": dict(piece.coefficients),
                "text": piece.describe(),
            }
            for piece in function.pieces()
        ],
        "subset": result.subset,
        "checkpoints": result.checkpoints,
        "checkpoint_error": error,
        "notes": [*notes, *(f"{workload.name}: {note}" for note in result.notes)],
        "predictions": [
            {"p": int(t), "value": float(v)} for t, v in zip(targets, values, strict=True)
        ],
    }
    return PredictionReport(model=model, summary=summary, record=record)


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
) -> list[PredictionReport]:
    """``patternalg predict FILE``: one report per workload of a CSV file.

    ``param`` names the thread column (``NAME=p``); ``upto`` defaults to twice the highest
    measured thread count of each workload; ``progress(done, total)`` is called after each.
    """
    threads = thread_column(param)
    workloads = read_performance(path, metric, higher_is_better, threads)
    if checkpoints < 1:
        raise FitError(f"--checkpoints must be at least 1, got {checkpoints}")
    if upto is not None:
        check_upto(upto)  # before any workload is fitted
    reports = []
    for workload in workloads:
        notes = []
        if threads is None and workload.threads != "p":
            notes.append(
                f"column '{workload.threads}' of {path} is the thread count p "
                "(use --param NAME=p to choose another)"
            )
        last = target_count(upto, workload.p)
        reports.append(fit_model(workload, last, checkpoints, unit, interpolate, notes))
        if progress is not None:
            progress(len(reports), len(workloads))
    return reports
