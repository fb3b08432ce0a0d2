"""Measurements as a table, a row per series: what a notebook shows of ``read(path)``
(its ``_repr_html_``), and ``measurements.table()``, printed, as CSV or as a DataFrame.

>>> from patternalg.measurements.readers import CsvReader
>>> ms = CsvReader.read("m.csv", "kernel,x,time_ms\\nsort,8,10\\nsort,8,12\\nsort,64,100\\nsort,64,104\\nscan,8,3\\n")
>>> print(ms.table())   # noise: the median of 1.41/11 and 2.83/102
kernel  metric   points  measured      repetitions  median first  median last  unit  noise
sort    time_ms  2       x in [8, 64]  2            11            102          ms    0.0781472735001176
scan    time_ms  1       x in [8, 8]   1            3             3            ms
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._internal.display import counts_text, ranges_text
from .._internal.tables import Tabular

__all__ = ["MeasurementsTable"]


def _noise(series: Any) -> float | None:
    """The median over the points of the repetitions' relative standard deviation (their
    sample standard deviation over their mean); None where no point was measured twice."""
    spreads = [float(np.std(v, ddof=1) / abs(np.mean(v))) for v in series.values if len(v) > 1 and np.mean(v) != 0]
    return float(np.median(spreads)) if spreads else None


@dataclass(frozen=True)
class MeasurementsTable(Tabular):
    """One row per series: its kernel and metric, how many points and where, how often each
    was measured, the median of the repetitions at the first and at the last point, the
    unit, and the noise: the median over the points of the repetitions' relative standard
    deviation (a fraction: 0.05 is 5 %, shown in percent in a notebook)."""

    measurements: Any  # Measurements (model.py imports this module)
    series: tuple[Any, ...]  # its Series, all or those a notebook shows
    #: the series of the measurements, where ``series`` holds only some (a notebook shows
    #: the first and the last of many)
    count: int | None = None

    def header(self) -> list[str]:
        return ["kernel", "metric", "points", "measured", "repetitions", "median first", "median last", "unit", "noise"]

    def rows(self) -> list[list[Any]]:
        rows = []
        for s in self.series:
            ranges = zip(s.parameters, zip(s.points.min(axis=0), s.points.max(axis=0), strict=True), strict=True) if len(s) else ()
            ends = [float(np.median(s.values[i])) if len(s) else None for i in (0, -1)]
            rows.append([s.kernel, s.metric, len(s), ranges_text(ranges), counts_text(len(v) for v in s.values), *ends, s.unit or self.measurements.unit or "", _noise(s)])
        return rows

    def percent_columns(self) -> frozenset[int]:
        return frozenset({8})

    def caption(self) -> str:
        count = len(self.series) if self.count is None else self.count
        return f"{count:,} series from {self.measurements.path}"

    @property
    def notes(self) -> tuple[str, ...]:
        """How the source was read (shown under the notebook's table)."""
        return tuple(self.measurements.notes)

    def unbuilt_rows(self) -> int:
        return 0 if self.count is None else self.count - len(self.series)

    def holder(self) -> str:
        return ".table()"
