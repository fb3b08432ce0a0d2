"""Every atom of a profile's term fitted over the runs, and every node's inclusive time.

The atoms' values (their own time, times the threads of the pools around them) and the
nodes' measured inclusive values become :class:`~patternalg.measurements.Measurements`
over the runs' parameters (runs at equal values are repetitions) and are fitted by PMNF's
default modeler with its uncertainty, as ``patternalg fit`` fits a file (the same rule for
times that are not positive, the same notes); the atoms' models are written as a model file
by the one model-file writer. The inclusive models are the per-node check's reference (a leaf
outside a pool has its atom's values, and so its atom's model).

>>> import numpy as np
>>> from patternalg.profiles.tree import CallTree
>>> from patternalg.profiles.term import profile_term
>>> n = np.array([8.0, 16.0, 32.0, 64.0, 128.0])
>>> tree = CallTree((("main",), ("main", "solve")), np.array([2 + 3 * n, 3 * n]),
...                 tuple(f"r{i}" for i in range(5)), ("n",), n[:, None], "time", "s")
>>> fitted = fit_profile(profile_term(tree))
>>> [fitted.library[a].expr for a in ("main", "main.solve")]
[2.00000000000000, 3.0*n]
>>> fitted.model_file().splitlines()[:3]
['format = 1', '', '[models.main]']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from .._internal.callbacks import ProgressCallback
from .._internal.display import brief, counted, listed
from .._internal.toml_writer import table_text
from ..arguments import expect
from ..forms.pmnf.form import PMNF
from ..forms.report import FitReport
from ..library.model_library import ModelLibrary
from ..measurements.checks import NOT_RUN
from ..measurements.model import Measurements, Series
from .term import ProfileTerm
from .tree import PROGRAM, Path

__all__ = ["ProfileFit", "fit_profile", "point_groups", "INCLUSIVE"]

#: the prefix of the inclusive models' names (never an atom's: those are lowercase paths)
INCLUSIVE = "k_inclusive."


@dataclass(frozen=True)
class ProfileFit:
    """The fits of a profile's term: ``atoms`` (one report per atom, in the term's order)
    and ``inclusive`` (each node's inclusive time fitted directly, by call path)."""

    built: ProfileTerm
    atoms: tuple[FitReport, ...]
    inclusive: Mapping[Path, FitReport]

    def __repr__(self) -> str:
        """``ProfileFit(12 atoms fitted: main, ... and 9 more; 30 nodes' inclusive times)``."""
        atoms = [report.atom for report in self.atoms]
        what = f"{counted(len(atoms), 'atom')} fitted: {listed(atoms, 3)}; "
        return brief("ProfileFit", what + f"{counted(len(self.inclusive), 'node')}' inclusive times")

    @property
    def library(self) -> ModelLibrary:
        """The atoms' models by name (what ``--models app.toml`` gives back), as a library
        the decisions take (``library=``) and a notebook shows as a table."""
        return ModelLibrary(report.model for report in self.atoms)

    def _repr_html_(self) -> str:
        """A notebook's table of the fitted atoms (the library's), under the term's notes."""
        from ..library.table import LibraryTable

        title = f"{counted(len(self.atoms), 'atom')} fitted of {self.built.tree!r}"
        models = tuple(report.model for report in self.atoms)
        return LibraryTable(models, title=title, notes=self.notes, held_by=".library.table()")._repr_html_()

    @property
    def notes(self) -> tuple[str, ...]:
        """The term's notes and the fits' (times that are not positive), each once."""
        fits = (note for report in self.atoms for note in report.notes)
        return tuple(dict.fromkeys([*self.built.notes, *fits]))

    def model_file(self) -> str:
        """The atoms' models as a model file (TOML), as ``patternalg fit --out`` writes one."""
        tables = (table_text(report.table(), "models", report.atom) for report in self.atoms)
        return "format = 1\n" + "".join(tables)


def fit_profile(
    built: ProfileTerm,
    *,
    modeler: str = "default",
    uncertainty: str = "auto",
    progress: ProgressCallback = None,
    allow_nonpositive: bool = False,
) -> ProfileFit:
    """Fit every atom of ``built`` and every node's inclusive time (see the module);
    ``allow_nonpositive`` as ``fit --allow-nonpositive`` (an own time of 0 is kept)."""
    expect(built, ProfileTerm, "built", "a ProfileTerm, e.g. profile_term(CallTree.of(runs, 'n'))")
    tree = built.tree
    source = _described(tree.metric, tree.runs, tree.points)
    atoms = [(name, "/".join(path) or PROGRAM, built.work[name]) for path, name in built.atoms.items()]
    parents = {path[:-1] for path in built.atoms if path != tree.root}
    # a leaf outside a pool: its inclusive values are its atom's (own + what was folded in)
    same = {p for p in built.atoms if p not in parents and not _pooled(p, built.pools)}
    inclusive = built.inclusive
    nodes = [(f"{INCLUSIVE}{built.atoms[p]}", "/".join(p) or PROGRAM, v) for p, v in inclusive.items() if p not in same]
    data = _measurements(source, tree.parameters, tree.points, tree.unit, [*atoms, *nodes])
    total = len(data.series)

    def counted(done: int, _: int | None = None) -> None:
        if progress is not None:
            progress(done, total)

    reports = PMNF.fit_each(data, modeler=modeler, uncertainty=uncertainty, progress=counted,
                            allow_nonpositive=allow_nonpositive)  # fmt: skip
    named = [replace(r, atom=name) for r, (name, _, _) in zip(reports, [*atoms, *nodes], strict=True)]
    cut = tree.overlap()
    named[: len(atoms)] = [_said_zero(r, p in cut, inclusive.get(p)) for r, p in zip(named, built.atoms, strict=False)]
    own = dict(zip(built.atoms, named[: len(atoms)], strict=True))
    fitted = iter(named[len(atoms) :])
    return ProfileFit(
        built,
        tuple(named[: len(atoms)]),
        {p: own[p] if p in same else next(fitted) for p in inclusive},
    )


def _said_zero(report: FitReport, cut: bool, inclusive: np.ndarray | None) -> FitReport:
    """A node's own time of 0 where the node ran, said why (not taken for a code path that
    did not run): ``cut`` at 0 because its children add up to more, or its children take
    all of its time (a program's root that only calls ``main``), where its ``inclusive``
    values are positive."""
    if cut:
        why = "every own time is 0: cut at 0 where the node's children add up to more than it"
    elif inclusive is not None and bool(np.all(inclusive > 0)):
        why = "every own time is 0: the node's children take all of its time"
    else:
        return report
    return replace(report, notes=tuple(n.replace(NOT_RUN, why) for n in report.notes))


def _pooled(path: Path, pools: Mapping[Path, int]) -> bool:
    """Whether ``path`` or a node above it runs a pool (its atom then holds N threads' work)."""
    return any(path[:k] in pools for k in range(len(path) + 1))


def _described(metric: str, runs: Sequence[str], points: np.ndarray) -> str:
    """Where the values come from, for a model's ``source``: the runs' first and last by
    their parameter values.

    >>> _described("time", ["r_10.json", "r_160.json", "r_20.json"], np.array([[10.0], [160.0], [20.0]]))
    'time of 3 profiled runs (r_10.json .. r_160.json)'
    """
    order = np.lexsort(np.asarray(points, dtype=float).T[::-1])
    names = [str(runs[i]).rsplit("/", 1)[-1] for i in order]
    shown = names[0] if len(names) == 1 else f"{names[0]} .. {names[-1]}"
    return f"{metric} of {len(runs)} profiled run{'s' if len(runs) != 1 else ''} ({shown})"


def point_groups(points: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """The distinct points of the runs (sorted) and, at each, the runs there (repetitions).

    >>> unique, groups = point_groups(np.array([[8.0], [4.0], [8.0]]))
    >>> unique.ravel().tolist(), [g.tolist() for g in groups]
    ([4.0, 8.0], [[1], [0, 2]])
    """
    unique, inverse = np.unique(points, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    order = np.argsort(inverse, kind="stable")  # one sort, not a pass over the runs per point
    return unique, tuple(np.split(order, np.cumsum(np.bincount(inverse, minlength=len(unique)))[:-1]))


def _measurements(
    source: str,
    parameters: tuple[str, ...],
    points: np.ndarray,
    unit: str,
    rows: Sequence[tuple[str, str, np.ndarray]],
) -> Measurements:
    """One series per row (name, call path, a value per run), runs at equal points being
    repetitions of that point."""
    unique, groups = point_groups(points)
    lines = tuple((0,) * len(g) for g in groups)
    series = tuple(
        Series(path, "time", parameters, unique, tuple(np.asarray(values)[g] for g in groups), lines, source, unit)
        for _, path, values in rows
    )
    return Measurements(source, "profile", parameters, "time", unit, series)
