"""PMNF fits of a regular Extra-P text file, a batch of kernels at a time (``fit``'s fast path).

The file is read by :func:`~patternalg.measurements.blocks.text_blocks` (numbers parsed by
numpy, a batch in memory), each batch fitted by the same :func:`~.fit.fit_matrix` as
:meth:`PMNF.fit_each <patternalg.forms.Form.fit_each>`, and the models built by the same
code, so the reports are the ones ``fit_each(read(path))`` gives. Options that are not
valid raise at once, as ``fit_each`` raises them. A file that is not
regular, a time that is not positive (the rule and its note are ``fit_each``'s), a kernel
named by a composition (``fit_each`` leaves it out), or a fit
that would fail, raises :class:`~patternalg.measurements.blocks.Irregular`
(possibly after some batches): ``fit`` then discards what it has and fits
``read(path)``, whose messages say what is wrong; :func:`regular_only` turns it into the
error that :meth:`PMNF.fit_batches <patternalg.forms.pmnf.PMNF.fit_batches>` documents.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import Location, MeasurementError
from ...measurements.blocks import Block, Irregular, Kernel, text_blocks
from ...measurements.checks import positive_times
from ...measurements.model import Aggregation
from ...measurements.names import atom_names, is_composition, is_time_metric
from ..fit_options import AUTO_BOOTSTRAP, uncertainty_method
from .batch import Reports
from .fit import FitColumns, batch_size, fit_columns, parameter_problem

__all__ = ["fit_text_batches", "regular_only"]


def fit_text_batches(
    cls: Any,
    path: str | Path,
    *,
    metric: str | None = None,
    input_format: str | None = None,
    batch: int = 10_000,
    allow_nonpositive: bool = False,
    **options: Any,
) -> Iterator[tuple[Block, Reports]]:
    """Each batch of ``batch`` kernels of ``path``, in file order, and its reports
    (built when asked for; :meth:`.Reports.bulk_text` gives the text of all at once).

    ``cls`` is the PMNF fitter (:class:`~.fitter.PMNFFitter`); ``options`` are its fit
    options (checked here, before any batch: a bad one raises ``fit_each``'s error);
    ``allow_nonpositive`` as :meth:`~patternalg.forms.Form.fit_each` takes it.
    """
    checked = cls.form.options(**options)
    return _batches(cls, path, metric, input_format, batch, allow_nonpositive, checked)


def regular_only(path: str | Path, batches: Iterator[Any]) -> Iterator[Any]:
    """``batches`` of ``path``, where the fast path does not take the file (it raised
    :class:`Irregular`) a :class:`~patternalg.errors.MeasurementError` that says so."""
    try:
        yield from batches
    except Irregular:
        raise MeasurementError(
            "not a file fit_batches fits: it fits a regular Extra-P text file of one "
            "parameter whose every kernel fit_each fits as measured (docs/scaling.md); "
            "fit this one with PMNF.fit_each(read(path)), which says what is wrong",
            location=Location(str(path)),
        ) from None


def _batches(
    cls: Any,
    path: str | Path,
    metric: str | None,
    input_format: str | None,
    batch: int,
    allow_nonpositive: bool,
    checked: dict[str, Any],
) -> Iterator[tuple[Block, Reports]]:
    """:func:`fit_text_batches` with its options checked."""
    used: set[str] = set()
    blocks = text_blocks(path, batch, input_format)
    method, ahead = _method(checked["uncertainty"], blocks, path)
    for block in itertools.chain(ahead, blocks):
        x = block.points[:, 0] if block.points.shape[1] == 1 else np.empty(0)
        if (metric is not None and metric != block.metric) or len(x) < 3 or parameter_problem(x):
            raise Irregular  # the reference reader and fitter say why
        if any(map(is_composition, block.kernels)):
            raise Irregular  # the reference path leaves the compositions out, with a note
        notes = _nonpositive(block, allow_nonpositive)
        var, how = cls.symbol_and_aggregate(block.parameters, block.path, checked)
        y = Aggregation(how).reduce(block.values, axis=2)
        step = batch_size(len(x))
        fits = FitColumns.joined(
            [
                fit_columns(
                    x,
                    y[start : start + step],
                    checked["modeler"],
                    block.values[start : start + step],
                    how,
                    var.name,
                    method,
                )
                for start in range(0, len(block), step)
            ]
        )
        yield (
            block,
            Reports(
                cls,
                block.kernels,
                Kernel("", block.metric, block.parameters, block.path, block.unit),
                atom_names(block.kernels, used),
                fits,
                var=var,
                how=how,
                checked=checked,
                notes=notes,
                repetitions=block.values.shape[2],
            ),
        )


def _method(asked: str, blocks: Iterator[Block], path: str | Path) -> tuple[str, list[Block]]:
    """How the uncertainty is found (``asked``, ``auto`` decided as ``fit_each`` decides it
    on all the kernels) and the blocks read ahead to decide it: until they hold more kernels
    than ``auto`` resamples (or the file ends), after which only the file's count of kernels
    matters, its REGION lines counted. Up to 10,000 kernels were held to count them: a file
    of 500 kernels of 2,000 repetitions a point, whole."""
    if asked != "auto":
        return asked, []
    ahead: list[Block] = []
    for block in blocks:
        ahead.append(block)
        if sum(map(len, ahead)) > AUTO_BOOTSTRAP:  # no bootstrap: the kernels' count decides
            return uncertainty_method(asked, _regions(path)), ahead
    points = sum(len(block) * len(block.points) for block in ahead)
    values = sum(block.values.size for block in ahead)
    return uncertainty_method(asked, sum(map(len, ahead)), points, values), ahead


#: how a regular file's REGION line begins (after the line end before it)
_REGION_LINE = b"\nREGION "


def _regions(path: str | Path, chunk: int = 1 << 22) -> int:
    """How many REGION lines the file at ``path`` has (a regular file's kernels), read
    ``chunk`` bytes at a time.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "m.txt")
    >>> _ = open(path, "wb").write(b"PARAMETER x\\nPOINTS 1 2\\n" + b"REGION k\\nDATA 1\\nDATA 2\\n" * 5)
    >>> _regions(path), _regions(path, chunk=3)
    (5, 5)
    """
    count, tail = 0, b""
    with open(path, "rb") as handle:
        while data := handle.read(chunk):
            data = tail + data
            count += data.count(_REGION_LINE)
            tail = data[1 - len(_REGION_LINE) :]  # too short for a whole one: none counted twice
    return count


def _nonpositive(block: Block, keep: bool) -> dict[int, str]:
    """The notes on the kernels of ``block`` with times that are not positive, fitted as
    measured (``keep``); Irregular if the rule of ``Form.fit_each`` would change any."""
    if not is_time_metric(block.metric) or (block.values > 0).all():
        return {}
    if not keep:
        raise Irregular  # the reference path applies the rule to each series and says so
    rows = np.flatnonzero(~(block.values > 0).all(axis=(1, 2)))
    series = block.series()
    return {int(k): str(positive_times(series[k], keep=True)[1]) for k in rows}
