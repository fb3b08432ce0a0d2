"""Any Hatchet GraphFrame or Thicket, from Python: HPCToolkit, TAU, timemory, gprof,
pyinstrument, Caliper, ... through their readers.

The frame's graph gives the call paths (each node's ``name`` from its root); its dataframe the
metric. A GraphFrame is one run (its ``metadata`` the run's); a Thicket is one run per
``profile`` of its dataframe's index, its ``metadata`` table giving each run's. A NaN (a
Thicket's node that some runs lack) is the node absent from that run. Rows of
several ranks or threads of one node (an index level ``rank`` or ``thread``) are averaged;
rows of one call path otherwise added (two sibling nodes of one name, ``main/foo`` twice,
are one path: their times add up, as the Caliper and Cube readers add them). A node with
several parents (a call *graph*, such as Hatchet's of a cProfile run) is under each of
them, its value split in proportion to the parents' values (gprof splits a function by its
callers' calls): a guess where the graph has no edge times; read a ``.pstats`` file
itself, whose edges say.
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

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import MeasurementError, close_names, did_you_mean
from .tree import Path, Profile, inclusive_of, named_inclusive

__all__ = ["from_graphframe"]

#: the units of time a frame's metric may be in
_UNITS = ("s", "ms", "us", "ns")
#: the index levels of a node's locations, over which its rows are averaged
_LOCATIONS = ("rank", "thread")
#: call paths unfolded at most (a graph whose nodes have several parents unfolds into many)
MAX_PATHS = 200_000


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
    paths, cut = _paths(graph)
    parents = _reached_from(paths)
    profiles = []
    for run, nodes in _node_values(table, chosen).items():
        values: dict[Path, float] = {}
        for path, ids in paths:
            if ids[-1] in nodes:  # a node with no row (filtered away) is not in the tree
                share = math.prod(_share(nodes, parents[i], above) for above, i in zip(ids, ids[1:], strict=False))
                values[path] = values.get(path, 0.0) + nodes[ids[-1]] * share
        if not inc:
            arrays = inclusive_of({p: np.array([v]) for p, v in values.items()})
            values = {p: float(a[0]) for p, a in arrays.items()}
        source = "graphframe" if run is None else str(run)
        notes = (f"{source}: {cut:,} call paths beyond {MAX_PATHS:,} not unfolded",) if cut else ()
        profiles.append(Profile(source, values, _metadata(frame, run), chosen, unit, notes=notes))
    if not any(p.values for p in profiles):
        raise MeasurementError("the frame has no rows of its graph's nodes")
    return profiles


def _node_values(table: Any, metric: str) -> dict[Any, dict[int, float]]:
    """Each run's value of each node (by ``id``): its rows added, but averaged over the
    run's ranks or threads (index levels ``rank``, ``thread``; a location without the node
    counts 0)."""
    levels = list(table.index.names)
    found: dict[Any, dict[int, dict[tuple[Any, ...], float]]] = {}
    for key, value in table[metric].items():
        if math.isnan(float(value)):  # a Thicket's node some runs lack: absent in this run
            continue
        parts = key if isinstance(key, tuple) else (key,)
        named = dict(zip(levels, parts, strict=False))
        place = tuple(named.get(level) for level in _LOCATIONS)
        rows = found.setdefault(named.get("profile"), {}).setdefault(id(parts[0]), {})
        rows[place] = rows.get(place, 0.0) + float(value)
    out = {}
    for run, nodes in found.items():  # the mean over the run's locations, one without the node 0 (as Cube's)
        places = len({place for rows in nodes.values() for place in rows})
        out[run] = {node: sum(rows.values()) / places for node, rows in nodes.items()}
    return out


def _share(values: Mapping[int, float], parents: set[int], parent: int) -> float:
    """The share of a node's value under ``parent`` among the parents it is reached from:
    in proportion to their values (gprof splits a function by its callers' calls)."""
    if len(parents) == 1:
        return 1.0
    total = sum(values.get(p, 0.0) for p in parents)
    return values.get(parent, 0.0) / total if total > 0 else 1.0 / len(parents)


def _reached_from(paths: list[tuple[Path, tuple[int, ...]]]) -> dict[int, set[int]]:
    """The parents each node is reached from in the call paths."""
    out: dict[int, set[int]] = {}
    for _, ids in paths:
        if len(ids) > 1:
            out.setdefault(ids[-1], set()).add(ids[-2])
    return out


def _paths(graph: Any) -> tuple[list[tuple[Path, tuple[int, ...]]], int]:
    """Every call path of the graph (names from a root) with its nodes' ``id``s, a node
    with several parents under each (no recursion on depth; a node already on the path, a
    cycle, is not entered again), and how many paths beyond :data:`MAX_PATHS` were cut."""
    out: list[tuple[Path, tuple[int, ...]]] = []
    stack: list[tuple[Any, Path, tuple[int, ...]]] = [(root, (), ()) for root in reversed(list(graph.roots))]
    cut = 0
    while stack:
        node, above, ids = stack.pop()
        if id(node) in ids:
            continue
        if len(out) >= MAX_PATHS:
            cut += 1
            continue
        frame = node.frame
        path = (*above, str(frame.get("name") if hasattr(frame, "get") else frame["name"]))
        out.append((path, (*ids, id(node))))
        stack.extend((child, path, (*ids, id(node))) for child in reversed(list(node.children)))
    return out, cut


def _default(frame: Any, columns: list[str]) -> str:
    """Caliper's ``Avg time/rank``, else the frame's first inclusive time, else its default,
    else its only metric (of its ``inc_metrics`` and ``exc_metrics``, or its only column)."""
    for name in ("Avg time/rank", *getattr(frame, "inc_metrics", ()), getattr(frame, "default_metric", None)):
        if name in columns and "time" in str(name):
            return str(name)
    declared = {str(m) for m in (*getattr(frame, "inc_metrics", ()), *getattr(frame, "exc_metrics", ()))}
    metrics = [c for c in columns if c in declared] or columns
    if len(metrics) == 1:
        return metrics[0]
    raise MeasurementError(f"the frame has several metrics: choose one with metric= (its columns: {', '.join(columns)})")


def _inclusive(frame: Any, metric: str) -> bool:
    return metric in list(getattr(frame, "inc_metrics", ())) or named_inclusive(metric)


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
