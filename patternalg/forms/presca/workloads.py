"""PreSca's measurements: one workload's performance per thread count, read from a CSV file."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...errors import FitError, MeasurementError

__all__ = ["KNOWN_METRICS", "Workload", "thread_column", "read_performance"]

#: metric names whose direction is known: True = higher is better
KNOWN_METRICS = {"time": False, "throughput": True, "speedup": True}


@dataclass(frozen=True)
class Workload:
    """Measured performance of one workload: thread counts, values, and the direction."""

    name: str
    p: np.ndarray
    value: np.ndarray
    metric: str
    higher_is_better: bool
    #: the file's column that held the thread counts
    threads: str = "p"

    def table(self) -> dict[int, float]:
        """Thread count -> performance."""
        return {int(k): float(v) for k, v in zip(self.p, self.value, strict=True)}


def _atom_name(text: str) -> str:
    """A valid atom name made from ``text``: ``'Kmeans-Low'`` -> ``'kmeans_Low'``."""
    from ...library import valid_atom_name

    name = re.sub(r"[^A-Za-z0-9_]+", "_", text.strip()).strip("_")
    name = name[:1].lower() + name[1:]
    if not valid_atom_name(name):
        name = "w_" + name
    return name if valid_atom_name(name) else "workload"


def _direction(metric: str, higher_is_better: bool | None, where: str) -> bool:
    known = KNOWN_METRICS.get(metric)
    if known is not None and higher_is_better is not None and known != higher_is_better:
        better = "higher" if known else "lower"
        raise MeasurementError(f"{where}: for column '{metric}' {better} is better by definition")
    if known is not None:
        return known
    if higher_is_better is None:
        raise MeasurementError(
            f"{where}: is a higher '{metric}' better or worse? "
            "say --higher-is-better or --lower-is-better"
        )
    return higher_is_better


def thread_column(options: Sequence[str]) -> str | None:
    """The thread column named by ``--param NAME=p`` (or ``--param NAME``), or None.

    >>> thread_column(["threads=p"]), thread_column([]), thread_column(["cores"])
    ('threads', None, 'cores')
    """
    if len(options) > 1:
        raise FitError(
            f"--param: a presca model has one parameter, the thread count p; "
            f"got {len(options)} (--param {' --param '.join(options)})"
        )
    if not options:
        return None
    name, _, symbol = options[0].partition("=")
    if symbol.strip() not in ("", "p") or not name.strip():
        raise FitError(
            f"--param {options[0]!r}: a presca model is in the thread count p; "
            f"say --param {name.strip() or 'NAME'}=p"
        )
    return name.strip().lower()


def _header(path: str) -> list[str]:
    from ...measurements import _csv_header

    try:
        return _csv_header(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise MeasurementError(f"{path}: cannot read measurements: {exc}") from None


def read_performance(
    path: str | Path,
    metric: str | None = None,
    higher_is_better: bool | None = None,
    threads: str | None = None,
) -> list[Workload]:
    """Workloads from a CSV with a thread column and a value column (``kernel`` optional).

    The thread column is ``threads`` if given, else ``p`` if the file has one, else the
    file's first column (other than ``kernel``, ``metric`` and the value column). The value
    column is ``time`` (lower is better), ``throughput`` or ``speedup`` (higher is better),
    or ``metric`` with an explicit ``higher_is_better``. Thread counts must be positive
    whole numbers, values positive; repeated thread counts are averaged (repeated runs, as
    the paper averages 10 runs).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "bench.csv")
    >>> _ = open(path, "w").write("p,throughput\\n1,10\\n2,19\\n2,21\\n4,35\\n")
    >>> [(w.name, w.table(), w.higher_is_better) for w in read_performance(path)]
    [('bench', {1: 10.0, 2: 20.0, 4: 35.0}, True)]
    >>> _ = open(path, "w").write("cores,throughput\\n1,10\\n2,19\\n")
    >>> [(w.threads, w.table()) for w in read_performance(path)]
    [('cores', {1: 10.0, 2: 19.0})]
    """
    from ...measurements import read_csv

    name = str(path)
    if threads is None:
        header = _header(name)
        others = [h for h in header if h not in ("kernel", "metric", metric, *KNOWN_METRICS)]
        threads = "p" if "p" in header or not others else others[0]
    if metric is not None:
        metric = metric.strip().lower()
        table = read_csv(path, required=[threads, metric])
    else:
        table = read_csv(path, required=[threads], optional=list(KNOWN_METRICS))
        present = [c for c in table.columns if c in KNOWN_METRICS]
        if len(present) != 1:
            found = f"several ({', '.join(present)}); choose one" if present else "none"
            raise MeasurementError(
                f"{name}: value column: {found} (name it time, throughput or speedup, "
                "or pass --metric NAME)"
            )
        metric = present[0]
    better = _direction(metric, higher_is_better, name)
    workloads = []
    for kernel, columns in table.kernels.items():
        lines = table.lines[kernel]
        counts, values = columns[threads], columns[metric]
        for line, count, value in zip(lines, counts, values, strict=True):
            if count < 1 or count != int(count):
                raise MeasurementError(
                    f"{name}:{line}: column '{threads}': {count:g} is not a thread count "
                    "(a whole number >= 1)"
                )
            if value <= 0:
                raise MeasurementError(
                    f"{name}:{line}: column '{metric}': {value:g} is not positive "
                    "(performance must be > 0: PreSca's errors are relative)"
                )
        unique, inverse = np.unique(counts, return_inverse=True)
        means = np.bincount(inverse, weights=values) / np.bincount(inverse)
        label = kernel if "kernel" in table.text.get(kernel, {}) else Path(name).stem
        workloads.append(
            Workload(_atom_name(label), unique.astype(int), means, metric, better, threads)
        )
    return workloads
