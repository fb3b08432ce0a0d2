"""Score-P Cube profiles (``.cubex``, the extra ``patternalg[cube]``), read by the Cube reader
of :mod:`patternalg.measurements.cube`, now keeping the call tree.

A Cube file holds each call path's exclusive value of a metric (``time`` by default) per
location (a process or a thread). The inclusive value of a call path is summed from its
own and its descendants' at each location, then taken over the locations as the metric
says: ``Avg time/rank`` (the mean over locations, the default), ``Max time/rank`` (the
slowest location), ``Min time/rank`` or ``Total time`` (their sum); another Cube metric is
named as ``Avg visits/rank``. A run's parameters are read from its folder's name
(``mm.x1000y1z1.r1``) as Extra-P names Cube runs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path as FilePath
from typing import Any

import numpy as np

from .._internal.surface import flag
from ..errors import Location, MeasurementError
from ..measurements.cube import exclusive_values
from .tree import Profile, inclusive_of

__all__ = ["read_cube", "STATISTICS"]

#: how a metric's values over the locations become one: the word before it in the name
STATISTICS: dict[str, Callable[[np.ndarray], Any]] = {
    "Avg": np.mean, "Max": np.max, "Min": np.min, "Total": np.sum,
}  # fmt: skip


def read_cube(path: str, metric: str | None = None) -> Profile:
    """One Cube profile (see the module)."""
    name = metric or "Avg time/rank"
    statistic, cube_metric = _metric(name, path)
    values, unit = exclusive_values(FilePath(path), cube_metric)
    if not values:
        raise MeasurementError(f"no call path has values of '{cube_metric}'", location=Location(path))
    if unit is None:
        raise MeasurementError(
            f"the metric '{cube_metric}' is no time (a profile's term is made of times)",
            location=Location(path),
        )
    inclusive = inclusive_of(values)
    taken = STATISTICS[statistic]
    return Profile(path, {p: float(taken(v)) for p, v in inclusive.items()}, {}, name, unit)


def _metric(name: str, path: str) -> tuple[str, str]:
    """``Avg time/rank`` -> (``Avg``, ``time``); ``Total time`` -> (``Total``, ``time``)."""
    words = name.split(" ", 1)
    if len(words) == 2 and words[0] in STATISTICS:
        rest = words[1].removesuffix("/rank").strip()
        if rest and (words[0] == "Total") == (not words[1].endswith("/rank")):
            return words[0], rest
    raise MeasurementError(
        f"{flag('metric', repr(name))}: a Cube profile's metric is 'Avg time/rank', 'Max time/rank', "
        "'Min time/rank' or 'Total time' (or another Cube metric in place of time)",
        location=Location(path),
    )
