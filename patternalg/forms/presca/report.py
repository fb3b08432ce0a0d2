"""PreSca as a model family: the atomic model, the summary and the JSON record of a fit."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...arith import format_expr
from ...errors import FitError
from .. import LegacyFitReport as FitReport
from .algorithm import CHECKPOINTS, predict
from .form import Presca
from .workloads import Workload, read_performance, thread_column

__all__ = ["fit_model", "fit_file"]


def fit_model(
    workload: Workload,
    upto: int,
    checkpoints: int = CHECKPOINTS,
    unit: str | None = None,
    interpolation: str = "auto",
    notes: Sequence[str] = (),
) -> FitReport:
    """PreSca on one workload: the atomic model (:class:`Presca`'s), a summary and a record.

    ``unit`` defaults to ``ns`` for a time and to the metric's name otherwise; ``notes``
    (e.g. about the file) go into the record with PreSca's own.
    """
    result = predict(
        workload.p, workload.value, upto, checkpoints, workload.higher_is_better, interpolation
    )
    function = result.function
    fitted = Presca.from_prediction(result, workload.p, workload.metric, upto)
    model = fitted.atomic_model(
        workload.name,
        unit=unit or (workload.metric if workload.higher_is_better else "ns"),
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
    return FitReport(model=model, summary=summary, record=record)


def fit_file(path: str | Path, args: Any) -> list[FitReport]:
    """``patternalg fit FILE --form presca`` (and ``predict``): one report per workload.

    Reads ``args.metric``, and if present ``args.param`` (the thread column, ``NAME=p``),
    ``args.upto`` (default twice the highest measured thread count), ``args.checkpoints``,
    ``args.higher_is_better`` and ``args.interpolate``.
    """
    threads = thread_column(getattr(args, "param", None) or ())
    workloads = read_performance(
        path, getattr(args, "metric", None), getattr(args, "higher_is_better", None), threads
    )
    checkpoints = getattr(args, "checkpoints", None)
    checkpoints = CHECKPOINTS if checkpoints is None else checkpoints
    if checkpoints < 1:
        raise FitError(f"--checkpoints must be at least 1, got {checkpoints}")
    reports = []
    for workload in workloads:
        upto = getattr(args, "upto", None)
        upto = 2 * int(workload.p.max()) if upto is None else upto
        if upto < 1:
            raise FitError(f"--upto must be at least 1, got {upto}")
        notes = []
        if threads is None and workload.threads != "p":
            notes.append(
                f"column '{workload.threads}' of {path} is the thread count p "
                "(use --param NAME=p to choose another)"
            )
        reports.append(
            fit_model(
                workload,
                upto,
                checkpoints,
                getattr(args, "unit", None),
                getattr(args, "interpolate", None) or "auto",
                notes,
            )
        )
    return reports
