"""A call tree over runs: every call path's inclusive value of one metric in each run.

A :class:`Profile` is one run as a reader gives it: call paths (tuples of region names from
the top) with their inclusive values, the run's metadata and the unit. :meth:`CallTree.of`
joins the runs of one program: one root (the program's single top-level region, or
``program`` above several, whose own time is what ran outside every region), the call
paths every run has (a path some runs lack is left in its parent's own time, with a note:
no node is lost silently), and each run's parameter values. A node's own (exclusive) time
is its inclusive value less its children's.

>>> runs = [Profile(f"r{n}", {("main",): 3.0 * n, ("main", "solve"): 2.0 * n}, {"n": str(n)})
...         for n in (1, 2, 4)]
>>> tree = CallTree.of(runs, ["n"])
>>> tree.paths, tree.points.ravel().tolist(), tree.own()[0].tolist()
((('main',), ('main', 'solve')), [1.0, 2.0, 4.0], [1.0, 2.0, 4.0])
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._internal.display import brief, counted, ranges_text
from ..arguments import as_each, wrong
from ..errors import Location, MeasurementError
from .params import Param, param_text, params_of

__all__ = ["Path", "Profile", "CallTree", "complete", "inclusive_of", "named_inclusive", "ROOT", "PROGRAM"]

#: a call path: the names of the regions from the top
Path = tuple[str, ...]
#: the path of the root above several top-level regions (``program``)
ROOT: Path = ()
#: the name of that root
PROGRAM = "program"
#: own times below this share of a node's inclusive value are rounding (Caliper prints 6
#: decimals), not a load imbalance
_ROUNDING = 1e-6
#: own times below this share of a node's inclusive value are what subtracting its
#: children's values left in doubles (a few units in the last place of the sum)
_LEFTOVER = 1e-12


@dataclass(frozen=True)
class Profile:
    """One run: inclusive ``values`` per call path (``()`` holds the time outside every
    region, if the source says), the run's ``metadata``, the metric and its unit, the
    thread counts of regions known to run threads, and what reading it left out."""

    source: str
    values: Mapping[Path, float]
    metadata: Mapping[str, str] = field(default_factory=dict)
    metric: str = "time"
    unit: str = "s"
    threads: Mapping[Path, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        """``Profile(run.cali: 42 call paths; time in s)``: never its values."""
        return brief("Profile", f"{self.source}: {counted(len(self.values), 'call path')}; {self.metric} in {self.unit}")


def complete(values: Mapping[Path, float]) -> dict[Path, float]:
    """``values`` with every missing prefix of a path added (its inclusive value the sum of
    its children's): a tree, each parent before its children.

    >>> complete({("a", "b", "c"): 2.0, ("a", "d"): 1.0})
    {('a',): 3.0, ('a', 'b'): 2.0, ('a', 'b', 'c'): 2.0, ('a', 'd'): 1.0}
    """
    found = {path: float(v) for path, v in values.items() if path}
    missing: dict[Path, float] = {}
    by_depth: dict[int, list[Path]] = {}
    for path in found:
        by_depth.setdefault(len(path), []).append(path)
    for depth in range(max(by_depth, default=0), 1, -1):  # the deepest first: sums propagate up
        for path in by_depth.get(depth, []):
            parent = path[:-1]
            if parent not in found:
                if parent not in missing:
                    by_depth.setdefault(depth - 1, []).append(parent)
                missing[parent] = missing.get(parent, 0.0) + found.get(path, missing.get(path, 0.0))
    found.update(missing)
    return {path: found[path] for path in sorted(found)}  # tuple order: parents first


def named_inclusive(metric: str) -> bool:
    """Whether a metric's name says it is inclusive: ``time (inc)`` (Hatchet's),
    ``inclusive`` (Caliper's ``avg#inclusive#sum#time.duration``), or Caliper's aliases of
    those (``Avg time/rank``, ``Total time``).

    >>> named_inclusive("time (inc)"), named_inclusive("Max time/rank"), named_inclusive("time")
    (True, True, False)
    """
    return "(inc)" in metric or "inclusive" in metric or metric.endswith("time/rank") or metric == "Total time"


def inclusive_of(exclusive: Mapping[Path, np.ndarray]) -> dict[Path, np.ndarray]:
    """Inclusive values from exclusive ones (arrays, one value per location): each path's
    own plus every descendant's.

    >>> out = inclusive_of({("a",): np.array([1.0]), ("a", "b"): np.array([2.0])})
    >>> {k: v.tolist() for k, v in out.items()}
    {('a',): [3.0], ('a', 'b'): [2.0]}
    >>> out = inclusive_of({("a",): np.array([1.0]), ("a", "b", "c"): np.array([4.0])})
    >>> {k: v.tolist() for k, v in sorted(out.items())}  # a grandchild, its parent unrecorded
    {('a',): [5.0], ('a', 'b'): [4.0], ('a', 'b', 'c'): [4.0]}
    """
    total = {path: np.array(v, dtype=float) for path, v in exclusive.items()}
    for path in exclusive:  # an ancestor the profile records no time of: its own is 0
        for cut in range(1, len(path)):
            total.setdefault(path[:cut], np.zeros_like(total[path]))
    for path in sorted(total, key=len, reverse=True):  # deepest first: each whole when added
        if len(path) > 1:
            total[path[:-1]] = total[path[:-1]] + total[path]
    return total


@dataclass(frozen=True)
class CallTree:
    """The call paths of one program over its runs.

    ``paths`` are pre-order (the root first, each parent before its children);
    ``values[i, r]`` is path ``i``'s inclusive value in run ``r``; ``points[r]`` the run's
    parameter values (one column per symbol of ``parameters``); ``notes`` say what was
    left in a parent's own time and why.
    """

    paths: tuple[Path, ...]
    values: np.ndarray
    runs: tuple[str, ...]
    parameters: tuple[str, ...]
    points: np.ndarray
    metric: str
    unit: str
    threads: Mapping[Path, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        """``CallTree(42 call paths over 5 runs, p in [27, 343]; time in s)``."""
        ranges = ranges_text((name, (self.points[:, i].min(), self.points[:, i].max())) for i, name in enumerate(self.parameters))
        runs = counted(len(self.runs), "run") + (f", {ranges}" if ranges else "")
        return brief("CallTree", f"{counted(len(self.paths), 'call path')} over {runs}; {self.metric} in {self.unit}")

    @property
    def root(self) -> Path:
        """The root's path (``()`` for ``program``)."""
        return self.paths[0]

    def children(self) -> dict[Path, list[Path]]:
        """Each path's children, in the order of :attr:`paths`."""
        kids: dict[Path, list[Path]] = {path: [] for path in self.paths}
        for path in self.paths[1:]:
            kids[path[:-1]].append(path)
        return kids

    def index(self) -> dict[Path, int]:
        """Each path's row in :attr:`values`."""
        return {path: i for i, path in enumerate(self.paths)}

    def own(self) -> np.ndarray:
        """Each node's own time in each run: its inclusive value less its children's, never
        below 0 (see :meth:`overlap` for where the children add up to more), and 0 where it
        is what the subtraction leaves in doubles (a root whose time is its children's left
        1.7e-18 s, fitted as an atom of its own)."""
        own = self._own()
        leftover = np.abs(own) <= _LEFTOVER * np.abs(self.values)
        return np.where(leftover, 0.0, np.maximum(own, 0.0))

    def overlap(self) -> dict[Path, float]:
        """The paths whose children add up to more than the node in some run (beyond
        rounding), and by how much at most, as a share of the node: under ``Max time/rank``
        the slowest ranks of the children are different ranks (load imbalance)."""
        own = self._own()
        scale = np.maximum(np.abs(self.values), 1e-300)
        share = -own / scale
        return {
            path: float(share[i].max())
            for i, path in enumerate(self.paths)
            if share[i].max() > _ROUNDING * 10 and (own[i] < -_ROUNDING).any()
        }

    def _own(self) -> np.ndarray:
        own = self.values.copy()
        index = self.index()
        for path in self.paths[1:]:
            own[index[path[:-1]]] -= self.values[index[path]]
        return own

    @classmethod
    def of(cls, profiles: Sequence[Profile], params: Param | str | Sequence[Param | str]) -> CallTree:
        """The call tree of ``profiles`` (runs of one program: a list of :class:`Profile`),
        each run's parameters read by ``params``: one or a list of
        :class:`~patternalg.profiles.params.Param` or its text ``SOURCE[=SYMBOL]``."""
        profiles = _runs(profiles)
        chosen = params_of(params)
        if not profiles:
            raise MeasurementError("no profiles: give the runs of one program")
        if not chosen:
            raise MeasurementError(f"no parameter: {param_text('SOURCE[=SYMBOL]')} says what varies")
        _same(profiles, "metric", "metrics")
        _same(profiles, "unit", "units")
        trees = _rooted(profiles)
        first = trees[0]
        common = [path for path in first if all(path in t for t in trees[1:])]
        _one_program(profiles, trees, set(common))
        notes = [*dict.fromkeys(n for p in profiles for n in p.notes), *_left_out(profiles, trees, set(common))]
        values = np.array([[t[path] for t in trees] for path in common], dtype=float)
        _check_values(profiles, common, values)
        points = np.array([[param.value(p) for param in chosen] for p in profiles], dtype=float)
        return cls(
            tuple(common),
            values,
            tuple(p.source for p in profiles),
            tuple(param.symbol for param in chosen),
            points,
            profiles[0].metric,
            profiles[0].unit,
            _threads(profiles, set(common)),
            tuple(notes),
        )


def _runs(profiles: Any) -> list[Profile]:
    """The runs of :meth:`CallTree.of`: Profiles (one, or a list of them)."""
    what = "a list of Profiles, e.g. read_profiles(paths) or from_graphframe(thicket)"
    if isinstance(profiles, Profile):
        return [profiles]
    if isinstance(profiles, str | os.PathLike):  # a file's path: read_profiles reads it
        raise wrong("profiles", what, profiles)
    return as_each(profiles, Profile, "profiles", what)


def _same(profiles: Sequence[Profile], attribute: str, what: str) -> None:
    found = {getattr(p, attribute) for p in profiles}
    if len(found) > 1:
        first = profiles[0]
        other = next(p for p in profiles if getattr(p, attribute) != getattr(first, attribute))
        raise MeasurementError(
            f"mixed {what}: {first.source} has {getattr(first, attribute)!r}, {other.source} "
            f"{getattr(other, attribute)!r} (give runs of one {attribute})"
        )


def _rooted(profiles: Sequence[Profile]) -> list[dict[Path, float]]:
    """Each run's values as a tree under one root: the single top-level region of every
    run, else ``program`` (path ``()``) above them all, holding the time outside every region."""
    trees = [complete(p.values) for p in profiles]
    tops = [[path for path in t if len(path) == 1] for t in trees]
    outside = [float(p.values.get(ROOT, 0.0)) for p in profiles]
    if all(len(t) == 1 for t in tops) and not any(outside):
        return trees
    return [
        {ROOT: o + sum(t[path] for path in top), **t}
        for t, top, o in zip(trees, tops, outside, strict=True)
    ]


def _one_program(profiles: Sequence[Profile], trees: list[dict[Path, float]], common: set[Path]) -> None:
    """An error if the runs have different roots, or if the top-level regions every run has
    hold less than half of some run's time (profiles of different programs)."""
    first = next(iter(trees[0]))
    for profile, tree in zip(profiles, trees, strict=True):
        root = next(iter(tree))
        if root != first:
            raise MeasurementError(
                f"{profile.source} is a profile of another program: its root is "
                f"{'/'.join(root)}, {profiles[0].source}'s is {'/'.join(first)} "
                "(give the runs of one program)"
            )
        whole = tree[root]
        apart = [p for p in tree if len(p) == len(root) + 1 and p not in common]
        other = sum(tree[p] for p in apart)
        if whole > 0 and other > 0.5 * whole:
            largest = max(apart, key=tree.__getitem__)
            lacking = next(q for q, t in zip(profiles, trees, strict=True) if largest not in t)
            raise MeasurementError(
                f"{profile.source} and {lacking.source} share call paths holding only "
                f"{100 * (whole - other) / whole:.0f} % of {profile.source}'s time: profiles of "
                "different programs? (give the runs of one program)"
            )


def _left_out(profiles: Sequence[Profile], trees: list[dict[Path, float]], common: set[Path]) -> list[str]:
    """Notes on the call paths some runs lack: their time stays in their parents' own time."""
    missing: dict[Path, int] = {}
    for tree in trees:
        for path in tree:
            if path not in common:
                missing[path] = missing.get(path, 0) + 1
    tops = [p for p in missing if p[:-1] in common]  # the highest left out (their parts go too)
    if not tops:
        return []
    shown = ", ".join("/".join(p) for p in tops[:5]) + (", ..." if len(tops) > 5 else "")
    return [
        f"{len(tops)} call path{'s' if len(tops) != 1 else ''} not in every run ({shown}): "
        f"in the runs that have {'them' if len(tops) != 1 else 'it'}, {'their' if len(tops) != 1 else 'its'} "
        "time is the parent's own time"
    ]


def _check_values(profiles: Sequence[Profile], paths: list[Path], values: np.ndarray) -> None:
    """An error for a time that is not finite or negative, or a root whose time is 0."""
    bad = np.argwhere(~np.isfinite(values) | (values < 0))
    if len(bad):
        row, run = (int(i) for i in bad[0])
        raise MeasurementError(
            f"call path {'/'.join(paths[row]) or PROGRAM} has the time {float(values[row, run])!r} "
            "(a time is finite and not negative)",
            location=Location(profiles[run].source),
        )
    zero = np.flatnonzero(values[0] <= 0)
    if len(zero):
        raise MeasurementError(
            f"the root {'/'.join(paths[0]) or PROGRAM} has the time 0: nothing was measured",
            location=Location(profiles[int(zero[0])].source),
        )


def _threads(profiles: Sequence[Profile], common: set[Path]) -> dict[Path, int]:
    """The thread count of each region every run names the same count for."""
    counts: dict[Path, set[int]] = {}
    for profile in profiles:
        for path, n in profile.threads.items():
            counts.setdefault(path, set()).add(int(n))
    return {
        path: next(iter(found))
        for path, found in counts.items()
        if path in common and len(found) == 1 and next(iter(found)) > 1
    }
