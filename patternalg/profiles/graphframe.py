"""Any Hatchet GraphFrame or Thicket, from Python: HPCToolkit, TAU, timemory, gprof,
pyinstrument, Caliper, ... through their readers.

The frame's graph gives the call paths (each node's ``name`` from its root); its dataframe the
metric. A GraphFrame is one run (its ``metadata`` the run's); a Thicket is one run per
``profile`` of its dataframe's index, its ``metadata`` table giving each run's. Rows of
several ranks or threads of one node (an index level ``rank`` or ``thread``) are averaged.
Times are in seconds unless ``unit=`` says otherwise.
A metric in ``inc_metrics`` or named inclusive (``time (inc)``; Caliper's ``Avg time/rank``,
``Total time``) is inclusive, another exclusive (then summed up the tree); ``inclusive=``
says so where a reader does not. Nothing here imports Hatchet: the objects are read as they
are.

>>> import pandas as pd
>>> class Node:
...     def __init__(self, name, children=()):
...         self.frame, self.children = {"name": name}, list(children)
>>> solve = Node("solve"); main = Node("main", [solve])
>>> class Graph: roots = [main]
>>> class Frame:
...     graph, metadata, inc_metrics, exc_metrics = Graph(), {"n": 8}, ["time (inc)"], []
...     dataframe = pd.DataFrame({"time (inc)": [3.0, 2.0]}, index=pd.Index([main, solve], name="node"))
>>> (profile,) = from_graphframe(Frame())
>>> dict(profile.values), profile.metadata["n"], profile.metric
({('main',): 3.0, ('main', 'solve'): 2.0}, '8', 'time (inc)')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import MeasurementError, close_names, did_you_mean
from .tree import Path, Profile, inclusive_of

__all__ = ["from_graphframe"]

#: the units of time a frame's metric may be in
_UNITS = ("s", "ms", "us", "ns")


def from_graphframe(
    frame: Any, *, metric: str | None = None, inclusive: bool | None = None, unit: str = "s"
) -> list[Profile]:
    """The runs of a Hatchet GraphFrame (one) or a Thicket (one per profile), as profiles;
    ``unit`` is the metric's unit of time (seconds, as Hatchet's readers give times)."""
    if unit not in _UNITS:
        raise MeasurementError(f"unit={unit!r}: a unit of time ({', '.join(_UNITS)})")
    graph, table = getattr(frame, "graph", None), getattr(frame, "dataframe", None)
    if graph is None or table is None:
        raise MeasurementError("not a GraphFrame or a Thicket (it has no graph and dataframe)")
    columns = [str(c) for c in table.columns]
    chosen = metric or _default(frame, columns)
    if chosen not in columns:
        hint = did_you_mean(close_names(chosen, columns), quote="'", before="; ")
        raise MeasurementError(f"no metric '{chosen}' in the frame (its columns: {', '.join(columns)}){hint}")
    inc = _inclusive(frame, chosen) if inclusive is None else inclusive
    paths = _paths(graph)
    levels = list(table.index.names)
    runs: dict[Any, dict[Path, list[float]]] = {}
    for key, value in table[chosen].items():
        parts = key if isinstance(key, tuple) else (key,)
        run = next((p for name, p in zip(levels, parts, strict=False) if name == "profile"), None)
        path = paths.get(id(parts[0]))
        if path is None:
            continue  # a row of a node outside the graph (filtered away): not in the tree
        runs.setdefault(run, {}).setdefault(path, []).append(float(value))
    profiles = []
    for run, found in runs.items():
        values = {path: float(np.mean(v)) for path, v in found.items()}
        if not inc:
            arrays = inclusive_of({p: np.array([v]) for p, v in values.items()})
            values = {p: float(a[0]) for p, a in arrays.items()}
        source = "graphframe" if run is None else str(run)
        profiles.append(Profile(source, values, _metadata(frame, run), chosen, unit))
    if not profiles:
        raise MeasurementError("the frame has no rows of its graph's nodes")
    return profiles


def _paths(graph: Any) -> dict[int, Path]:
    """Each node's call path (names from its root), by ``id`` (no recursion on depth)."""
    out: dict[int, Path] = {}
    stack: list[tuple[Any, Path]] = [(root, ()) for root in reversed(list(graph.roots))]
    while stack:
        node, above = stack.pop()
        frame = node.frame
        name = str(frame.get("name") if hasattr(frame, "get") else frame["name"])
        path = (*above, name)
        if id(node) in out:
            continue
        out[id(node)] = path
        stack.extend((child, path) for child in reversed(list(node.children)))
    return out


def _default(frame: Any, columns: list[str]) -> str:
    """Caliper's ``Avg time/rank``, else the frame's first inclusive time, else its default."""
    for name in ("Avg time/rank", *getattr(frame, "inc_metrics", ()), getattr(frame, "default_metric", None)):
        if name in columns and "time" in str(name):
            return str(name)
    raise MeasurementError(f"the frame has several metrics: choose one with metric= (its columns: {', '.join(columns)})")


def _inclusive(frame: Any, metric: str) -> bool:
    return (
        metric in list(getattr(frame, "inc_metrics", ()))
        or "(inc)" in metric
        or "inclusive" in metric
        or metric.endswith("time/rank")
        or metric == "Total time"
    )


def _metadata(frame: Any, run: Any) -> dict[str, str]:
    """A run's metadata: a GraphFrame's dict, or a Thicket's row of its metadata table."""
    meta: Any = getattr(frame, "metadata", None)
    if run is not None and hasattr(meta, "loc"):
        try:
            row: Mapping[str, Any] = meta.loc[run].to_dict()
        except KeyError:
            row = {}
    else:
        row = meta if isinstance(meta, Mapping) else {}
    return {str(k): str(v) for k, v in row.items()}
