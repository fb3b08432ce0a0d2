"""Profiles from files: each format recognised by its suffix, else by its content.

``.cali`` (Caliper), ``.json`` (Caliper JSON), ``.pstats`` / ``.prof`` (cProfile), ``.cubex``
(Score-P Cube); a directory stands for the profiles in it (a Cube set: its folders'
``*.cubex``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path as FilePath

from .._internal.callbacks import ProgressCallback
from .._internal.reading import check_size
from ..errors import Location, MeasurementError
from .tree import Profile

__all__ = ["read_profile", "read_profiles", "FORMATS"]

Reader = Callable[[str, "str | None"], Profile]


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


def _expanded(paths: Sequence[str]) -> list[str]:
    """The files of ``paths``, a directory standing for its profiles (a Cube set's folders)."""
    out: list[str] = []
    for path in paths:
        folder = FilePath(path)
        if not folder.is_dir():
            out.append(str(path))
            continue
        found = sorted(
            str(p)
            for p in [*folder.glob("*"), *folder.glob("*/*.cubex")]
            if p.is_file() and p.suffix.lower() in FORMATS and not p.name.startswith(".")
        )
        if not found:
            raise MeasurementError(
                f"no profiles in the directory ({', '.join(FORMATS)})", location=Location(str(path))
            )
        out.extend(found)
    return out


def read_profiles(
    paths: Sequence[str],
    metric: str | None = None,
    progress: ProgressCallback = None,
    on_error: Callable[[MeasurementError], None] | None = None,
) -> list[Profile]:
    """The profiles of ``paths`` (files or directories), in order; a file that cannot be
    read raises its error, or, given ``on_error``, is handed to it and left out."""
    files = _expanded(paths)
    profiles = []
    for done, path in enumerate(files, start=1):
        try:
            profiles.append(read_profile(path, metric))
        except MeasurementError as error:
            if on_error is None:
                raise
            on_error(error)
        if progress is not None:
            progress(done, len(files))
    return profiles
