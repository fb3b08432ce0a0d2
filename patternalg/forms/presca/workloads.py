"""PreSca's measurements: one workload's performance per thread count, read from a CSV file."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..._internal.callbacks import OnError
from ..._internal.limits import MAX_PREDICTED_THREADS
from ..._internal.surface import either, flag
from ...errors import FitError, Location, MeasurementError, PatternalgError
from ...measurements.model import Measurements, Series, hand_left_out
from ...measurements.names import TIME_NAMES, quantity
from .algorithm import CHECKPOINTS, Prediction, predict

__all__ = [
    "AGGREGATE",
    "KNOWN_METRICS",
    "Workload",
    "direction",
    "thread_column",
    "workload",
    "read_performance",
    "read_measurements",
]

#: how the repetitions at one thread count are reduced (the paper averages 10 runs)
AGGREGATE = "mean"
#: metric names (without a unit) whose direction is known: True = higher is better
KNOWN_METRICS = {**dict.fromkeys(TIME_NAMES, False), "throughput": True, "speedup": True}


@dataclass(frozen=True)
class Workload:
    """PreSca's view of one measured :class:`~patternalg.measurements.Series`: its thread
    column merged over the other parameters, under an atom name and a direction."""

    name: str
    series: Series  #: the measurements, over the thread column only
    higher_is_better: bool
    #: the value column's unit, if its name states one (``time_ms``)
    unit: str | None = None

    @property
    def threads(self) -> str:
        """The file's column that holds the thread counts."""
        return self.series.parameters[0]

    @property
    def p(self) -> np.ndarray:
        """The thread counts, ascending."""
        return self.series.column(self.threads).astype(int)

    @property
    def value(self) -> np.ndarray:
        """The mean performance at each thread count."""
        return self.series.aggregate(AGGREGATE)

    @property
    def metric(self) -> str:
        """The metric without its unit (``time[s]`` is a ``time``)."""
        return quantity(self.series.metric)

    def table(self) -> dict[int, float]:
        """Thread count -> performance."""
        return {int(k): float(v) for k, v in zip(self.p, self.value, strict=True)}

    def predict(
        self, upto: int, *, checkpoints: int = CHECKPOINTS, interpolation: str = "auto"
    ) -> Prediction:
        """PreSca's performance function of this workload for 1..upto threads."""
        return predict(
            self.p,
            self.value,
            upto,
            interpolation=interpolation,
            checkpoints=checkpoints,
            higher_is_better=self.higher_is_better,
        )


def direction(metric: str, higher_is_better: bool | None, where: str) -> bool:
    """Whether a higher ``metric`` is better: known for a time (``time``, ``runtime[s]``,
    ``time_ms``, ...: lower), a throughput and a speed-up (higher); else as given.

    >>> direction("throughput", None, "f.csv"), direction("runtime[s]", None, "f.csv")
    (True, False)
    >>> direction("ops", False, "f.csv")
    False
    """
    known = KNOWN_METRICS.get(quantity(metric))
    if known is not None and higher_is_better is not None and known != higher_is_better:
        better = "higher" if known else "lower"
        raise MeasurementError(f"{where}: for column '{metric}' {better} is better by definition")
    if known is not None:
        return known
    if higher_is_better is None:
        raise MeasurementError(
            f"{where}: is a higher '{metric}' better or worse? "
            + either(
                "say --higher-is-better or --lower-is-better (fit --form presca: --better higher|lower), ",
                "say higher_is_better=True or False (Presca's fit: better='higher' or 'lower'), ",
            )
            + f"or {flag('metric', 'NAME')} for another value column"
        )
    return higher_is_better


def thread_column(options: Sequence[str]) -> str | None:
    """The thread column named by ``--param NAME=p`` (or ``--param NAME``), or None.

    >>> thread_column(["threads=p"]), thread_column([]), thread_column(["cores"])
    ('threads', None, 'cores')
    """
    if len(options) > 1:
        raise FitError(
            f"{flag('param')}: a presca model has one parameter, the thread count p; "
            f"got {len(options)} ({either('--param ' + ' --param '.join(options), f'param={list(options)!r}')})"
        )
    if not options:
        return None
    name, _, symbol = options[0].partition("=")
    if symbol.strip() not in ("", "p") or not name.strip():
        column = name.strip() or "NAME"
        raise FitError(
            f"{flag('param', repr(options[0]))}: a presca model is in the thread count p; "
            f"say {flag('param', f'{column}=p')}"
        )
    return name.strip().lower()


def workload(
    series: Series, threads: str | None, higher_is_better: bool, name: str, unit: str | None = None
) -> Workload:
    """The workload ``name`` of one series: its thread column checked, repetitions averaged.

    The thread column is ``threads`` if given, else ``p`` if the series has one, else its
    first parameter.
    """
    from ...measurements.checks import first_bad

    if threads is None:
        threads = "p" if "p" in series.parameters else series.parameters[0]
    bad = first_bad(series, threads, lambda n: (n < 1) | (n != np.floor(n)))
    if bad is not None:
        raise MeasurementError(
            f"column '{threads}': {bad[1]:g} is not a thread count (a whole number >= 1)",
            location=Location(series.path, line=bad[0]),
        )
    bad = first_bad(series, threads, lambda n: n > MAX_PREDICTED_THREADS)
    if bad is not None:  # beyond any range PreSca predicts for (and int64 at 9.2e18)
        raise MeasurementError(
            f"column '{threads}': thread count {bad[1]:g} is above {MAX_PREDICTED_THREADS:,}, "
            "the most PreSca predicts for",
            location=Location(series.path, line=bad[0]),
        )
    bad = first_bad(series, series.metric, lambda v: v <= 0)
    if bad is not None:
        raise MeasurementError(
            f"column '{series.metric}': {bad[1]:g} is not positive "
            "(performance must be > 0: PreSca's errors are relative)",
            location=Location(series.path, line=bad[0]),
        )
    return Workload(name, series.over([threads]), higher_is_better, unit)


def read_performance(
    path: str | Path,
    metric: str | None = None,
    higher_is_better: bool | None = None,
    threads: str | None = None,
    on_error: OnError = None,
) -> list[Workload]:
    """Workloads from measurements with a thread column and a value column (a CSV file's
    ``kernel`` column optional; any format ``fit`` reads); a workload that cannot be read
    raises its error, or, given ``on_error``, is handed to it and left out.

    The thread column is ``threads`` if given, else ``p`` if the file has one, else the
    file's first parameter column. Each value column (as the CSV reader finds them:
    ``metric``, else every column named like a value) is a workload of each kernel (one the
    reader left out, a value that is no number, raises or goes to ``on_error`` alike), lower
    is better for a time (``time``, ``runtime``, ``time_ms``, ...), higher for ``throughput``
    and ``speedup``; any other needs ``higher_is_better``. Thread counts must be positive whole numbers, values positive;
    repeated thread counts are averaged (repeated runs, as the paper averages 10 runs).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "bench.csv")
    >>> _ = open(path, "w").write("p,throughput\\n1,10\\n2,19\\n2,21\\n4,35\\n")
    >>> [(w.name, w.table(), w.higher_is_better) for w in read_performance(path)]
    [('bench', {1: 10.0, 2: 20.0, 4: 35.0}, True)]
    >>> _ = open(path, "w").write("cores,throughput\\n1,10\\n2,19\\n")
    >>> [(w.threads, w.table()) for w in read_performance(path)]
    [('cores', {1: 10.0, 2: 19.0})]
    """
    data = read_measurements(path, metric, threads)
    hand_left_out(data, on_error)  # a series the reader could not read: no workload
    workloads = []
    for series, atom in zip(data, data.atoms(), strict=True):
        try:
            better = direction(series.metric, higher_is_better, data.path)
            workloads.append(workload(series, threads, better, atom, series.unit))
        except PatternalgError as error:
            if on_error is None:
                raise
            on_error(error)
    return workloads


def read_measurements(
    path: str | Path, metric: str | None = None, threads: str | None = None
) -> Measurements:
    """The measurements of :func:`read_performance`: a measurement file in any format
    (read as ``fit`` reads it, the format from its content), its thread column checked as
    there, for fitting through the form protocol."""
    from ...measurements import read
    from ...measurements.checks import require_columns

    metric = None if metric is None else metric.strip().lower()
    data = read(path, metric=metric)
    if threads is not None:
        require_columns(data, [[threads]])
    return data
