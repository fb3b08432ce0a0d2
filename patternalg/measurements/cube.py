"""Score-P / Cube input (the optional extra ``patternalg[cube]``, which installs ``pycubexr``).

A Cube set is a directory with one folder per run, named by its parameter values as Extra-P
expects: ``[PREFIX.]NAME VALUE[[.|,]NAME VALUE ...][.rN]`` (``mm.p8.n1024.r1``, ``mm.x1y1z1``,
``run.x20,5.y2``; a comma may stand for the decimal point). Each folder holds one or more
``*.cubex`` profiles (names starting with ``.`` are skipped; a folder that cannot be read and
a ``*.cubex`` that is no regular file are left out with a note). Profiles with the same parameter
values are repetitions, whatever their ``.rN``; a parameter with one value in every folder is
dropped. Each call path (``main->solve``) is a kernel; its values are the exclusive values of
the metric (``time`` unless another is asked for), one per location (process or thread) of
each profile under weak scaling (or only those not zero, ``weak_threaded``), their sum under
strong scaling. A call path that some points lack is merged into its nearest ancestor that
every point has (Extra-P 4.2.5 means to, but in effect drops such call paths).

>>> point_of("mm.p8.n1024.r1"), point_of("x20,5y1"), point_of("run.a1.5.b2")
((('p', 'n'), (8.0, 1024.0)), (('x', 'y'), (20.5, 1.0)), (('a', 'b'), (1.5, 2.0)))
>>> point_of("x1.5y2")  # no prefix: Extra-P would take "x1" for one
(('x', 'y'), (1.5, 2.0))
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from .._internal.limits import MAX_MESSAGE, printable
from .._internal.reading import not_regular
from ..errors import Location, MeasurementError, reason
from .base import DirectoryReader
from .model import Measurements, Series

__all__ = ["CubeReader", "cube_files", "point_of", "NAMING", "exclusive_values"]

#: how a folder of a Cube set is named, for messages
NAMING = "[PREFIX.]NAME VALUE[NAME VALUE ...][.rN], e.g. mm.p8.n1024.r1"
#: the scalings: how the values of one profile's locations become repetitions
SCALINGS = ("weak", "weak_threaded", "strong")
_REPETITION = re.compile(r"\.r\d+$")
_PAIRS = re.compile(r"(?:[^\d.,]+[\d.,]+)+")
_PAIR = re.compile(r"([^\d.,]+)([\d.,]+)")
_NAME = re.compile(r"[A-Za-z_]+")
#: units of time as Cube writes them -> as patternalg writes them (others, such as the
#: ``occ`` of visits or the ``#`` of hardware counters, are no unit of time: not kept)
_UNITS = {"sec": "s"}

Point = tuple[float, ...]


def point_of(folder: str) -> tuple[tuple[str, ...], Point]:
    """The parameter names and values that a folder's name states (see the module's doc)."""
    whole = _REPETITION.sub("", folder)
    rest = whole.split(".", 1)[1] if "." in whole else whole  # before the first dot: a prefix
    rest = rest if _PAIRS.fullmatch(rest) or not _PAIRS.fullmatch(whole) else whole  # x1.5y2
    if not _PAIRS.fullmatch(rest):
        raise MeasurementError(f"folder '{folder}' is not named by parameter values ({NAMING})")
    names, values = [], []
    for name, text in _PAIR.findall(rest):
        if not _NAME.fullmatch(name):
            raise MeasurementError(
                f"folder '{folder}': '{name}' is not a parameter name of letters ({NAMING})"
            )
        try:
            values.append(float(text.replace(",", ".").rstrip(".")))
        except ValueError:
            raise MeasurementError(
                f"folder '{folder}': {name}{text} has no number ({NAMING})"
            ) from None
        names.append(name)
    return tuple(names), tuple(values)


def cube_files(directory: Path) -> tuple[list[Path], list[str]]:
    """The Cube files one folder below ``directory``, sorted, and a note on each folder that
    cannot be read and each ``*.cubex`` that is no regular file (a pipe would block the
    reading), left out; an error if ``directory`` cannot be read."""
    try:
        folders = sorted(entry.path for entry in os.scandir(directory) if entry.is_dir())
    except OSError as exc:
        raise MeasurementError(f"cannot read the directory: {reason(exc)}", location=Location(str(directory))) from None
    files, notes = [], []
    for folder in folders:
        try:
            entries = [e for e in os.scandir(folder) if e.name.endswith(".cubex") and not e.name.startswith(".")]
        except OSError as exc:
            notes.append(f"{printable(folder, MAX_MESSAGE)}: cannot be read ({reason(exc)}): its profiles are left out")
            continue
        for entry in entries:
            if entry.is_file():
                files.append(Path(entry.path))
            else:
                notes.append(not_regular(entry.path))
    return sorted(files), notes


def _profiles(directory: Path) -> tuple[list[Path], list[str]]:
    """:func:`cube_files`, an error if there are none."""
    files, notes = cube_files(directory)
    if not files:
        raise MeasurementError(
            f"no Cube files (FOLDER/*.cubex, folders named {NAMING}){''.join(f'; {n}' for n in notes[:1])}",
            location=Location(str(directory)),
        )
    return files, notes


def _points(directory: Path, files: list[Path]) -> tuple[tuple[str, ...], list[Point]]:
    """The varying parameters and each file's point in them."""
    named = []
    for file in files:
        try:
            named.append(point_of(file.parent.name))
        except MeasurementError as exc:
            raise MeasurementError(exc.message, location=Location(str(directory))) from None
    first = named[0][0]
    for file, (names, _) in zip(files, named, strict=True):
        if names != first:
            raise MeasurementError(
                f"folder '{file.parent.name}' names the parameters {', '.join(names)} but "
                f"folder '{files[0].parent.name}' {', '.join(first)} (every folder must name "
                "the same parameters in the same order)",
                location=Location(str(directory)),
            )
    varying = [i for i in range(len(first)) if len({values[i] for _, values in named}) > 1]
    if not varying:
        raise MeasurementError(
            f"every folder has the same parameter values ({files[0].parent.name}): nothing varies",
            location=Location(str(directory)),
        )
    return tuple(first[i] for i in varying), [tuple(v[i] for i in varying) for _, v in named]


def _callpaths(roots: list[Any]) -> Iterator[tuple[Any, tuple[str, ...]]]:
    """Every cnode of the call tree with its call path (its regions' names), depth first."""
    stack: list[tuple[Any, tuple[str, ...]]] = [(root, (root.region.name,)) for root in reversed(roots)]
    while stack:
        cnode, path = stack.pop()
        yield cnode, path
        stack.extend((c, (*path, c.region.name)) for c in reversed(cnode.get_children()))


def _cubexr() -> Any:
    """The ``pycubexr`` module, or an error naming the extra that installs it."""
    try:
        import pycubexr
    except ImportError:
        raise MeasurementError(
            "reading Cube files needs pycubexr, which is not installed: "
            "pip install 'patternalg[cube]'"
        ) from None
    return pycubexr


def exclusive_values(file: Path, metric: str) -> tuple[dict[tuple[str, ...], np.ndarray], str | None]:
    """One profile's exclusive values of ``metric`` per call path (its regions' names; several
    cnodes with the same path are added), one per location (process or thread); and the
    metric's unit (None if it is no time)."""
    cubexr = _cubexr()
    from pycubexr.utils.exceptions import MissingMetricError

    try:
        with cubexr.CubexParser(str(file)) as cube:
            found = {m.name: m for m in cube.all_metrics()}
            if metric not in found:
                raise MeasurementError(
                    f"no metric '{metric}' (the file has: {', '.join(found) or 'none'})",
                    location=Location(str(file)),
                )
            unit = _UNITS.get(found[metric].units)
            try:
                values = cube.get_metric_values(metric=found[metric], cache=False)
            except MissingMetricError:
                return {}, unit
            result: dict[tuple[str, ...], np.ndarray] = {}
            for cnode, path in _callpaths(cube.get_root_cnodes()):
                if cnode.id in values.cnode_indices:
                    value = np.asarray(values.cnode_values(cnode, convert_to_exclusive=True))
                    value = value.astype(float)
                    result[path] = result[path] + value if path in result else value
            return result, unit
    except MeasurementError:
        raise
    except Exception as exc:  # pycubexr raises whatever its parsers meet in a damaged file
        raise MeasurementError(
            f"cannot read the Cube file: {exc}", location=Location(str(file))
        ) from None


def _profile(file: Path, metric: str, scaling: str) -> tuple[dict[str, np.ndarray], str | None]:
    """One profile's exclusive values of ``metric`` per call path ``main->solve``, as
    ``scaling`` takes them; and the metric's unit."""
    values, unit = exclusive_values(file, metric)
    return {"->".join(path): _scaled(value, scaling) for path, value in values.items()}, unit


def _scaled(values: np.ndarray, scaling: str) -> np.ndarray:
    """A profile's values per location as repetitions: all (weak), those not zero unless all
    are (weak_threaded: threads that did not run the call path), or their sum (strong)."""
    if scaling == "strong":
        return values.sum(keepdims=True)
    if scaling == "weak_threaded" and values.any():
        return values[values != 0]
    return values


#: call path -> point -> file number -> values (one per location, or their sum)
Values = dict[str, dict[Point, dict[int, np.ndarray]]]


def _merge_incomplete(data: Values, points: int) -> None:
    """Merge each call path that lacks a point into its nearest ancestor that has them all
    (adding the values of the same file); one without such an ancestor is dropped."""
    for path in [p for p, found in data.items() if len(found) < points]:
        found = data.pop(path)
        parent = path
        while "->" in parent:
            parent = parent.rsplit("->", 1)[0]
            if len(data.get(parent, ())) == points:
                break
        else:
            continue
        for point, files in found.items():
            target = data[parent][point]
            for number, value in files.items():
                target[number] = target[number] + value if number in target else value


class CubeReader(DirectoryReader):
    """Score-P / Cube: a directory of folders named by parameter values (see the module)."""

    name = "cube"
    suffixes = (".cubex",)
    scalings = SCALINGS

    @classmethod
    def read_path(
        cls, path: str | Path, *, metric: str | None = None, scaling: str | None = None
    ) -> Measurements:
        """The measurements of a Cube set: ``metric`` (default ``time``) per call path.

        ``scaling`` is ``weak`` (the default: each location's value is a repetition: their mean is the
        mean over processes and threads), ``weak_threaded`` (the same without the zeros of
        threads that did not run the call path) or ``strong`` (a profile's values summed).
        """
        scaling = scaling or "weak"
        if scaling not in SCALINGS:
            raise MeasurementError(f"unknown scaling '{scaling}' (valid: {', '.join(SCALINGS)})")
        directory = Path(path)
        files, notes = _profiles(directory)
        parameters, points = _points(directory, files)
        metric = metric or "time"
        data: Values = {}
        units = set()
        for number, (file, point) in enumerate(
            sorted(zip(files, points, strict=True), key=lambda f: f[1])
        ):
            values, unit = _profile(file, metric, scaling)
            units.add(unit)
            for callpath, value in values.items():
                data.setdefault(callpath, {}).setdefault(point, {})[number] = value
        _merge_incomplete(data, len(set(points)))
        unit = units.pop() if len(units) == 1 else None
        if not data:
            raise MeasurementError(
                f"no Cube file has values of the metric '{metric}'",
                location=Location(str(directory)),
            )
        series = tuple(
            Series(
                callpath,
                metric,
                parameters,
                np.array(sorted(found), dtype=float).reshape(len(found), len(parameters)),
                tuple(np.concatenate(list(found[p].values())) for p in sorted(found)),
                tuple((0,) * sum(map(len, found[p].values())) for p in sorted(found)),
                str(directory),
                unit,
            )
            for callpath, found in data.items()
        )
        return Measurements(str(directory), cls.name, parameters, metric, unit, series, notes=tuple(notes))
