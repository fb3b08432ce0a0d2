"""Profiles from files: each format recognised by its suffix, else by its content.

``.cali`` (Caliper), ``.json`` (Caliper JSON), ``.pstats`` / ``.prof`` (cProfile), ``.cubex``
(Score-P Cube); a directory stands for the profiles in it, recognised the same way (a Cube
set: its folders' ``*.cubex``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path as FilePath

from .._internal.callbacks import ProgressCallback
from .._internal.reading import check_size, not_regular
from ..arguments import as_optional_text, as_paths
from ..errors import Location, MeasurementError
from .tree import Profile

__all__ = ["read_profile", "read_profiles", "profile_files", "FORMATS"]

Reader = Callable[[str, "str | None"], Profile]

#: what ``paths`` may be
PATHS = "the path of a profile or a directory of profiles, or a list of them"


def _caliper(path: str, metric: str | None) -> Profile:
    from .caliper import read_cali

    return read_cali(path, metric)


def _caliper_json(path: str, metric: str | None) -> Profile:
    from .caliper import read_json

    return read_json(path, metric)


def _cprofile(path: str, metric: str | None) -> Profile:
    from .cprofile import read_pstats

    return read_pstats(path, metric)


def _cube(path: str, metric: str | None) -> Profile:
    from .cube import read_cube

    return read_cube(path, metric)


#: suffix -> reader
FORMATS: dict[str, Reader] = {
    ".cali": _caliper,
    ".json": _caliper_json,
    ".pstats": _cprofile,
    ".prof": _cprofile,
    ".cubex": _cube,
}


def read_profile(path: str, metric: str | None = None) -> Profile:
    """One profile of a file (see the module)."""
    file = FilePath(path)
    if not file.is_file():
        what = "no such file" if not file.exists() else "not a file"
        raise MeasurementError(what, location=Location(str(path)))
    try:
        check_size(file)
    except OSError as exc:
        raise MeasurementError(f"cannot read the profile: {exc}", location=Location(str(path))) from None
    reader = FORMATS.get(file.suffix.lower()) or _sniffed(file)
    return reader(str(path), metric)


def _sniffed(file: FilePath) -> Reader:
    """The reader of a file without a known suffix, from its first bytes."""
    with open(file, "rb") as handle:
        head = handle.read(64)
    if head.startswith(b"__rec="):
        return _caliper
    if head.lstrip()[:1] in (b"{", b"[") and head.lstrip()[1:2] in (b'"', b"\n", b" ", b"{", b"]", b"}"):
        return _caliper_json
    if head[:1] in (b"{", b"\xfb"):  # marshal's dict: what pstats writes
        return _cprofile
    raise MeasurementError(
        f"not a profile this reads ({', '.join(FORMATS)}: Caliper, Caliper JSON, cProfile, Cube)",
        location=Location(str(file)),
    )


def profile_files(paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[str]:
    """The files ``paths`` stand for: a file itself, a directory the profiles in it (see
    :func:`read_profiles`); what a command that reads them must not overwrite."""
    return _expanded(paths)[0]


def _expanded(paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> tuple[list[str], list[str]]:
    """The files of ``paths`` (one path, or several), a directory standing for its profiles
    (a Cube set's folders' ``*.cubex``), and notes on the files in directories that are no
    profile; an error for a directory without profiles, or a file given twice."""
    out: list[str] = []
    notes: list[str] = []
    for path in map(str, as_paths(paths, "paths", PATHS)):
        folder = FilePath(path)
        if not folder.is_dir():
            out.append(str(path))
            continue
        found, other, unread = _in_directory(folder)
        if not found:
            raise MeasurementError(
                f"no profiles in the directory ({', '.join(FORMATS)}, or a file of these by "
                f"its content){''.join(f'; {n}' for n in unread[:1])}",
                location=Location(str(path)),
            )
        out.extend(found)
        notes.extend(unread)
        if other:
            shown = ", ".join(FilePath(f).name for f in other[:3]) + (", ..." if len(other) > 3 else "")
            notes.append(f"{path}: {len(other)} file{'s' if len(other) != 1 else ''} that {'are' if len(other) != 1 else 'is'} no profile left out ({shown})")
    _once(out)
    return out, notes


def _in_directory(folder: FilePath) -> tuple[list[str], list[str], list[str]]:
    """A directory's profiles (its files and its folders' ``*.cubex``), recognised as a
    named file is, by suffix else by content; its other files (names starting with ``.``
    are skipped); and notes on what cannot be read there or is no regular file (a pipe
    would block the reading), left out."""
    from ..measurements.cube import cube_files

    cubes, notes = cube_files(folder)
    found: list[str] = []
    other: list[str] = []
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.name.startswith(".") or entry.is_dir():
            continue
        if not entry.is_file():
            notes.append(not_regular(entry.path))
        else:
            file = FilePath(entry.path)
            (found if file.suffix.lower() in FORMATS or _recognised(file) else other).append(str(file))
    return sorted([*found, *map(str, cubes)]), other, notes


def _recognised(file: FilePath) -> bool:
    """Whether a file's first bytes are a profile's this reads."""
    try:
        _sniffed(file)
    except (MeasurementError, OSError):
        return False
    return True


def _once(files: Sequence[str]) -> None:
    """An error for a file given twice (by two names, a link of either kind, or in a
    directory also given): one run read twice would be a repetition of itself."""
    seen: dict[tuple[int, int] | str, str] = {}
    for file in files:
        key = _identity(file)
        if key in seen:
            also = f" (also as {seen[key]})" if seen[key] != file else ""
            raise MeasurementError(
                f"the run is given twice{also}: give each run once (repetitions are runs of "
                "their own)",
                location=Location(file),
            )
        seen[key] = file


def _identity(file: str) -> tuple[int, int] | str:
    """What makes two names one file: its device and inode (a hard link is the file
    itself), else, where it cannot be read, its real path."""
    try:
        status = os.stat(file)
    except OSError:
        return os.path.realpath(file)
    return status.st_dev, status.st_ino


def read_profiles(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    metric: str | None = None,
    progress: ProgressCallback = None,
    on_error: Callable[[MeasurementError], None] | None = None,
) -> list[Profile]:
    """The profiles of ``paths`` (a file or directory, or a list of them), in order; a file
    that cannot be read raises its error, or, given ``on_error``, is handed to it and left
    out. A directory's files are recognised as named files are (by suffix, else by content); those
    that are no profile are left out with a note (on the first profile). A file given twice
    is an error."""
    metric = as_optional_text(metric, "metric", "a metric's name, e.g. time")
    files, notes = _expanded(paths)
    profiles: list[Profile] = []
    for done, path in enumerate(files, start=1):
        try:
            profiles.append(read_profile(path, metric))
        except MeasurementError as error:
            if on_error is None:
                raise
            on_error(error)
        if progress is not None:
            progress(done, len(files))
    if profiles and notes:
        profiles[0] = replace(profiles[0], notes=(*profiles[0].notes, *notes))
    return profiles
