"""Python's cProfile: a ``.pstats`` file (``python -m cProfile -o run.pstats``, or
``Profile.dump_stats``) read with the standard library's :mod:`pstats`, as a call tree.

cProfile records a call *graph*: per function its calls, own and cumulative time, and per
caller the calls and time from that caller. The call tree is unfolded from the functions
called from outside the profile (the function of ``runcall``, those called between
``enable`` and ``disable``; several of them: under ``program``): a function whose calls
outnumber its callers' edges' was also called from outside, with the time of those calls,
its cumulative time less its callers' edge times. A function reached from several callers
is attributed **by the callers' edge times**: under the call path ``.../f/g`` it gets the
cumulative time of the calls from ``f`` to ``g``, scaled by the share of ``f``'s own
cumulative time that this path holds (a function called from two places splits its callees'
time in proportion to the time each place spent in it; gprof makes the same assumption with
call counts). **Recursion**: functions that call each other (``a -> b -> a``, or ``f -> f``)
are a cycle, and a cycle is one node, named by the function it was entered at, as gprof
does: its own time is the cycle's functions' own time, its children the functions they call
outside the cycle (cProfile counts the edge ``a -> leaf`` over every level of the recursion,
so ``a/leaf`` beside ``a/b/a/leaf`` would count it twice); a note names the cycles of
several functions. The nodes' own times add up to the time the profile measured. A call
path is named by its functions, ``name (file:line)``, or a built-in's name (``sorted``,
``list.append``); the profiler's own ``disable`` is left out.
The metric is ``time``, in seconds.

>>> import cProfile, os, tempfile
>>> def leaf(n): return sum(range(n))
>>> def work(n): return leaf(n) + leaf(2 * n)
>>> profiler = cProfile.Profile()
>>> _ = profiler.runcall(work, 100_000)
>>> path = os.path.join(tempfile.mkdtemp(), "run_n100000.pstats")
>>> profiler.dump_stats(path)
>>> profile = read_pstats(path)
>>> [p[-1].split(" (")[0] for p in sorted(profile.values, key=len)][:3]
['work', 'leaf', 'sum']
"""

from __future__ import annotations

import os
import pstats
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .._internal.display import listed
from ..errors import Location, MeasurementError, close_names, did_you_mean
from .tree import Path, Profile

__all__ = ["read_pstats", "by_calls", "METRIC", "MAX_NODES"]

#: cProfile's one metric: the time in seconds
METRIC = "time"
#: call paths unfolded at most (a call graph unfolds into exponentially many paths)
MAX_NODES = 200_000

Function = tuple[str, int, str]
#: the profiler's own calls (``Profile.disable`` after ``runcall``; the profile module's
#: ``setprofile``): not the program's
_PROFILER = {("~", 0, "<method 'disable' of '_lsprof.Profiler' objects>"), ("", 0, "setprofile")}
#: the file of the frames the pure-Python profile module makes up around what it runs
#: (``profiler``, ``<function g at 0x...>``), at line 0: their callees are called from outside
_MADE_UP = "profile"
#: a memory address in a function's name (`` at 0x7f67fd26a7a0``)
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def read_pstats(path: str, metric: str | None = None) -> Profile:
    """One cProfile run as a :class:`~patternalg.profiles.tree.Profile` (see the module)."""
    if metric not in (None, METRIC):
        hint = did_you_mean(close_names(metric, [METRIC]), quote="'", before="; ")
        raise MeasurementError(
            f"no metric '{metric}' (a cProfile run has: '{METRIC}'){hint}", location=Location(path)
        )
    try:
        raw: Mapping[Function, Any] = pstats.Stats(str(path)).stats  # type: ignore[attr-defined]
    except Exception as exc:  # marshal's and pstats' errors on a file that is no profile
        raise MeasurementError(
            f"cannot read the cProfile file: {exc or type(exc).__name__}", location=Location(path)
        ) from None
    raw = {f: entry for f, entry in raw.items() if f[:2] != (_MADE_UP, 0)}
    if not raw:
        raise MeasurementError("the cProfile file records no call", location=Location(path))
    values, cut, cycles = _unfold(raw)
    notes = _notes(str(path), cut, cycles)
    if by_calls(raw):
        notes += (
            "a run written by Python's profile module records no time per caller: a function's "
            "time is shared among its callers by their calls (gprof's assumption)",
        )
    return Profile(str(path), values, {}, METRIC, "s", notes=notes)


def by_calls(raw: Mapping[Function, Any]) -> bool:
    """Whether a ``pstats`` table records its callers by calls alone (the pure-Python
    :mod:`profile` module's), not by cProfile's calls and times.

    >>> by_calls({("m", 1, "f"): (1, 1, 0.5, 0.5, {("m", 2, "g"): 1})})
    True
    """
    return any(not isinstance(e, tuple) for entry in raw.values() for e in entry[4].values())


def _notes(path: str, cut: int, cycles: list[list[str]]) -> tuple[str, ...]:
    """What unfolding a run left out or joined: callees beyond :data:`MAX_NODES`, cycles."""
    notes = []
    if cut:
        notes.append(
            f"{path}: {cut:,} calls beyond {MAX_NODES:,} call paths not unfolded (each with all "
            "below it): their time is their callers' own time"
        )
    for names in cycles:
        notes.append(
            f"{listed(names, 4)} call each other (a recursive cycle): one node, named by the function it "
            "was entered at, whose own time is theirs"
        )
    return tuple(notes)


def _unfold(raw: Mapping[Function, Any]) -> tuple[dict[Path, float], int, list[list[str]]]:
    """The call tree of a call graph: inclusive time per call path (see the module), how
    many callees were left unfolded beyond :data:`MAX_NODES`, and the recursive cycles of
    several functions (each one node)."""
    graph = _Graph.of(raw)
    labels = _labels(raw)
    roots = sorted(((f, t) for f, t in graph.outside.items() if f not in _PROFILER), key=lambda r: labels[r[0]])
    values: dict[Path, float] = {}
    stack: list[tuple[Path, Function, float]] = [((labels[f],), f, time) for f, time in reversed(roots)]
    left = 0
    while stack:
        path, function, inclusive = stack.pop()
        values[path] = values.get(path, 0.0) + inclusive
        cycle = graph.cycle[function]
        total = graph.total[cycle]
        if inclusive <= 0 or total <= 0:
            continue
        share = inclusive / total
        for callee, edge in sorted(graph.out_of(cycle).items(), key=lambda c: labels[c[0]], reverse=True):
            if len(values) + len(stack) >= MAX_NODES:
                left += 1
                continue
            stack.append(((*path, labels[callee]), callee, edge * share))
    cycles = sorted(sorted(labels[f] for f in c) for c in set(graph.cycle.values()) if len(c) > 1)
    return values, left, cycles


@dataclass(frozen=True)
class _Graph:
    """cProfile's call graph: each function's calls and cumulative time, each edge's
    (caller, callee) calls and cumulative time, and each function's recursive cycle (its
    strongly connected component: ``{f}`` for a function in no cycle)."""

    calls: dict[Function, int]
    time: dict[Function, float]
    edges: dict[Function, dict[Function, tuple[int, float]]]  # callee -> caller -> (calls, time)
    cycle: dict[Function, frozenset[Function]]

    @classmethod
    def of(cls, raw: Mapping[Function, Any]) -> _Graph:
        """The graph of a ``pstats`` table: cProfile's edge is a tuple ``(nc, cc, tt, ct)``;
        the pure-Python :mod:`profile` module's only a count of calls, and the callee's
        cumulative time is then shared among its callers by their calls (:func:`by_calls`).
        """
        calls = {f: int(entry[1]) for f, entry in raw.items()}
        time = {f: float(entry[3]) for f, entry in raw.items()}
        callers = {f: {c: e for c, e in entry[4].items() if c in raw} for f, entry in raw.items()}
        cycle = _cycles(callers)
        primitive = {f: int(entry[0]) for f, entry in raw.items()}

        def edge(callee: Function, caller: Function, e: Any) -> tuple[int, float]:
            if isinstance(e, tuple):
                return int(e[0]), float(e[3])
            # the cumulative time covers the calls from outside the callee's cycle (its
            # primitive calls); a call from inside it is a recursion, within that time
            inside = caller in cycle[callee] or not primitive[callee]
            return int(e), 0.0 if inside else time[callee] * int(e) / primitive[callee]

        edges = {f: {c: edge(f, c, e) for c, e in into.items()} for f, into in callers.items()}
        return cls(calls, time, edges, cycle)

    @cached_property
    def outside(self) -> dict[Function, float]:
        """The functions called from outside the profile (more calls than their callers'
        edges count), and the time of those calls: the cumulative time less the edges from
        callers outside the function's cycle."""
        out = {}
        for function, callers in self.edges.items():
            if self.calls[function] > sum(calls for calls, _ in callers.values()):
                inner = sum(t for c, (_, t) in callers.items() if c not in self.cycle[function])
                out[function] = max(self.time[function] - inner, 0.0)
        return out

    @cached_property
    def total(self) -> dict[frozenset[Function], float]:
        """Each cycle's time: the calls into it from outside it."""
        out: dict[frozenset[Function], float] = {}
        outside = self.outside
        for function, callers in self.edges.items():
            cycle = self.cycle[function]
            into = sum(t for c, (_, t) in callers.items() if c not in cycle)
            out[cycle] = out.get(cycle, 0.0) + into + outside.get(function, 0.0)
        return out

    def out_of(self, cycle: frozenset[Function]) -> dict[Function, float]:
        """The functions a cycle's functions call outside it, with the edges' time added."""
        return self._out_of[cycle]

    @cached_property
    def _out_of(self) -> dict[frozenset[Function], dict[Function, float]]:
        out: dict[frozenset[Function], dict[Function, float]] = {c: {} for c in self.cycle.values()}
        for callee, callers in self.edges.items():
            for caller, (_, time) in callers.items():
                cycle = self.cycle[caller]
                if callee not in cycle:
                    out[cycle][callee] = out[cycle].get(callee, 0.0) + time
        return out


def _cycles(edges: Mapping[Function, Mapping[Function, Any]]) -> dict[Function, frozenset[Function]]:
    """Each function's strongly connected component of the call graph (callee -> callers)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    functions = list(edges)
    number = {f: i for i, f in enumerate(functions)}
    pairs = [(number[c], number[f]) for f, callers in edges.items() for c in callers]
    rows, cols = zip(*pairs, strict=True) if pairs else ((), ())
    graph = coo_matrix(([1] * len(pairs), (rows, cols)), shape=(len(functions), len(functions)))
    _, labels = connected_components(graph, directed=True, connection="strong")
    members: dict[int, list[Function]] = {}
    for function, label in zip(functions, labels, strict=True):
        members.setdefault(int(label), []).append(function)
    return {f: frozenset(members[int(label)]) for f, label in zip(functions, labels, strict=True)}


def _labels(raw: Mapping[Function, Any]) -> dict[Function, str]:
    """Each function's name in a call path: ``name (file:line)``, or a built-in's name
    (without its memory address: the same function in every run)."""
    out = {}
    for function in raw:
        file, line, name = function
        if file == "~" and name.startswith("<built-in method "):  # "__new__ of type object at 0x..."
            word = name.removeprefix("<built-in method ").rstrip(">").split(" ", 1)[0]
            out[function] = word.rsplit(".", 1)[-1]
        elif file == "~" and name.startswith("<method '"):
            parts = name.split("'")  # <method 'append' of 'list' objects>
            out[function] = f"{parts[3]}.{parts[1]}" if len(parts) >= 4 else name
        elif file == "~":  # "<function Random.seed at 0x...>": the address differs run by run
            out[function] = _ADDRESS.sub("", name).strip("<>").removeprefix("function ")
        else:
            out[function] = f"{name} ({os.path.basename(file)}:{line})"
    return out
