"""Python's cProfile: a ``.pstats`` file (``python -m cProfile -o run.pstats``, or
``Profile.dump_stats``) read with the standard library's :mod:`pstats`, as a call tree.

cProfile records a call *graph*: per function its own and cumulative time, and per caller
the time of the calls from that caller. The call tree is unfolded from the functions no one
called (several of them: under ``program``), and a function reached from several callers
is attributed **by the callers' edge times**: under the call path ``.../f/g`` it gets the
cumulative time of the calls from ``f`` to ``g``, scaled by the share of ``f``'s own
cumulative time that this path holds (a function called from two places splits its callees'
time in proportion to the time each place spent in it; gprof makes the same assumption with
call counts). A **recursive** call (to a function already on the path) is not unfolded
again: cProfile counts a recursion's time once, in its outermost call, so it stays there, as
the function's own time. A call path is named by its functions, ``name (file:line)``, or a
built-in's name (``sorted``, ``list.append``); the profiler's own ``disable`` is left out.
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
from collections.abc import Mapping
from typing import Any

from ..errors import Location, MeasurementError, close_names, did_you_mean
from .tree import Path, Profile

__all__ = ["read_pstats", "METRIC", "MAX_NODES"]

#: cProfile's one metric: the time in seconds
METRIC = "time"
#: call paths unfolded at most (a call graph unfolds into exponentially many paths)
MAX_NODES = 200_000

Function = tuple[str, int, str]
#: the profiler's own calls (``Profile.disable`` after ``runcall``): not the program's
_PROFILER = {("~", 0, "<method 'disable' of '_lsprof.Profiler' objects>")}


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
    if not raw:
        raise MeasurementError("the cProfile file records no call", location=Location(path))
    values, cut = _unfold(raw)
    notes = (
        (f"{path}: {cut:,} call paths beyond {MAX_NODES:,} not unfolded: their time is their "
         "callers' own time",) if cut else ()
    )  # fmt: skip
    return Profile(str(path), values, {}, METRIC, "s", notes=notes)


def _unfold(raw: Mapping[Function, Any]) -> tuple[dict[Path, float], int]:
    """The call tree of a call graph: inclusive time per call path (see the module), and
    how many call paths were left unfolded beyond :data:`MAX_NODES`."""
    callees: dict[Function, list[tuple[Function, float]]] = {f: [] for f in raw}
    for function, (_, _, _, _, callers) in raw.items():
        for caller, edge in callers.items():
            if caller in callees:
                callees[caller].append((function, float(edge[3])))
    labels = _labels(raw)
    roots = sorted(
        (f for f, entry in raw.items() if not entry[4] and f not in _PROFILER),
        key=labels.__getitem__,
    )
    values: dict[Path, float] = {}
    stack: list[tuple[Path, Function, float, frozenset[Function]]] = [
        ((labels[f],), f, float(raw[f][3]), frozenset((f,))) for f in reversed(roots)
    ]
    left = 0
    while stack:
        path, function, inclusive, on_path = stack.pop()
        values[path] = values.get(path, 0.0) + inclusive
        total = float(raw[function][3])
        if inclusive <= 0 or total <= 0:
            continue
        share = inclusive / total
        for callee, edge in sorted(callees[function], key=lambda c: labels[c[0]], reverse=True):
            if callee in on_path:
                continue  # a recursion: its time is the outermost call's (see the module)
            if len(values) + len(stack) >= MAX_NODES:
                left += 1
                continue
            stack.append(((*path, labels[callee]), callee, edge * share, on_path | {callee}))
    return values, left


def _labels(raw: Mapping[Function, Any]) -> dict[Function, str]:
    """Each function's name in a call path: ``name (file:line)``, or a built-in's name."""
    out = {}
    for function in raw:
        file, line, name = function
        if file == "~" and name.startswith("<built-in method "):  # "__new__ of type object at 0x..."
            word = name.removeprefix("<built-in method ").rstrip(">").split(" ", 1)[0]
            out[function] = word.rsplit(".", 1)[-1]
        elif file == "~" and name.startswith("<method '"):
            parts = name.split("'")  # <method 'append' of 'list' objects>
            out[function] = f"{parts[3]}.{parts[1]}" if len(parts) >= 4 else name
        elif file == "~":
            out[function] = name.strip("<>")
        else:
            out[function] = f"{name} ({os.path.basename(file)}:{line})"
    return out
