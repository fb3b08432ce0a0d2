"""Measurements and models as the evidence takes them: one source or several (paths of any
format :func:`patternalg.measurements.read` knows, ``Measurements``, series), model files
without the built-ins, and the cores a measurement's own record names.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .._internal.limits import MAX_CORES, printable
from .._internal.reading import read_text
from .._internal.surface import flag
from ..algebra.atomic_model import AtomicModel
from ..arguments import as_measurements, as_paths, wrong
from ..errors import ArgumentError, Location, MeasurementError
from ..library.model_library import ModelLibrary
from ..measurements import Measurements, Series, read
from ..measurements.base import STDIN

__all__ = ["measurement_sources", "once_each", "evidence_models", "recorded_cores", "record_files"]


def measurement_sources(measurements: Any) -> list[Measurements]:
    """One measurement source or several (Measurements, series, paths), each as Measurements."""

    def one(value: Any, name: str) -> Measurements:
        found = as_measurements(value, read, name)
        if isinstance(found, Measurements):
            return found
        series = (found,) if isinstance(found, Series) else tuple(found)
        if not series:
            raise wrong(name, "measurements with at least one series", value)
        first = series[0]
        return Measurements(first.path, "series", first.parameters, first.metric, None, series)

    if (
        isinstance(measurements, list | tuple)
        and measurements
        and not all(isinstance(s, Series) for s in measurements)
    ):
        return [one(value, f"measurements[{i}]") for i, value in enumerate(measurements)]
    return [one(measurements, "measurements")]


def once_each(paths: Iterable[str | os.PathLike[str]]) -> None:
    """A MeasurementError for a measurement file given twice, under any path (standard input
    as ``-`` or ``<stdin>``): its runs would be counted twice, each term listed twice with
    nothing to tell the copies apart. A path that names no file (``<dataframe>``) is left out.

    >>> once_each(["-", "no such file", "no such file"])
    >>> once_each(["-", "<stdin>"])
    Traceback (most recent call last):
    ...
    patternalg.errors.MeasurementError: <stdin>: the file is given twice; give each measurement file once
    """
    seen: set[str] = set()
    for given in paths:
        path = os.fspath(given)
        key = "-" if path in ("-", STDIN) else os.path.realpath(path)
        if key in seen:
            raise MeasurementError(
                "the file is given twice; give each measurement file once", location=Location(printable(path))
            )
        if key == "-" or os.path.isfile(key):
            seen.add(key)


def models_given(models: Any, library: Any) -> Any:
    """The models given as ``models`` or as ``library`` (the decisions' name for them, which
    a notebook passes on from :func:`patternalg.fit`): one of them, not both.

    >>> models_given(None, "m.toml"), models_given("m.toml", None), models_given(None, None)
    ('m.toml', 'm.toml', None)
    >>> models_given("a.toml", "b.toml")
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: models and library: the same models by two names; give one
    """
    if models is not None and library is not None:
        raise ArgumentError("models and library: the same models by two names; give one")
    return library if models is None else models


def evidence_models(models: Any) -> Mapping[str, AtomicModel]:
    """The models: a library or mapping as it is, a model file's path (or several) alone,
    without the built-ins (a model not given is not validated)."""
    if isinstance(models, str | os.PathLike) or (
        isinstance(models, list | tuple)
        and models
        and all(isinstance(m, str | os.PathLike) for m in models)
    ):
        return ModelLibrary.load(as_paths(models, "models"), builtin=False)
    return ModelLibrary.of(models, "models")


_CORES = re.compile(r"^\s*cores:\s*(\d+)\s*$", re.M)
_CPUS = re.compile(r"^\s*CPU\(s\):\s*(\d+)\s*$", re.M)
#: a text file's own record, in a comment before its data (``patternalg measure`` writes it)
_COMMENT_CORES = re.compile(r"^#\s*cores:\s*(\d+)\s*$", re.M)
#: how much of a text file's head is searched for that comment
_HEAD = 4096


def record_files(files: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The records :func:`recorded_cores` reads beside the measurement files: the
    ``machine.txt`` in each one's directory (``calibrate --out`` may replace none of them).

    >>> [str(p) for p in record_files(["runs/a.txt", "runs/b.txt", "c.txt"])]
    ['runs/machine.txt', 'machine.txt']
    """
    return list(dict.fromkeys(Path(name).parent / "machine.txt" for name in files))


def recorded_cores(files: Iterable[str], stdin: str | None = None) -> int | None:
    """The cores the measurements' own record names: a JSON file's ``context.num_cpus`` (Google
    Benchmark's, and ``patternalg measure``'s), a ``# cores: N`` comment at the head of a text
    file (``patternalg measure``'s), else a ``machine.txt`` beside the file (its ``cores:``
    line, as ``benchmarks/realdata/run.sh`` writes it, else lscpu's ``CPU(s):``); None if none
    does. ``stdin`` is the text standard input gave, for a file named ``<stdin>`` (its own
    record only: nothing is beside it).

    >>> recorded_cores(["<stdin>"], "# cores: 4\\nPARAMETER x\\n"), recorded_cores(["<stdin>"], '{"context": {"num_cpus": 8}}')
    (4, 8)
    """
    for name in files:
        path = Path(name)
        if str(name) == STDIN and stdin is not None:
            own = _json_cores(stdin) if stdin.lstrip().startswith("{") else _head_cores(stdin[:_HEAD])
            if own:
                return _core_count(own, path)
            continue
        if not path.is_file():
            continue
        own = _json_cores(_text(path)) if path.suffix == ".json" else _head_cores(_head(path))
        if own:
            return _core_count(own, path)
        (record,) = record_files([path])
        if not record.is_file():  # none, or a pipe or a device, which could block the reading
            continue
        try:
            text = read_text(record)
        except OSError:
            continue
        found = _CORES.search(text) or _CPUS.search(text)
        # a count of more digits than any machine's cores is not converted (int()'s limit)
        cores = (int(found.group(1)) if len(found.group(1)) <= 12 else MAX_CORES + 1) if found else 0
        if cores > 0:
            return _core_count(cores, record)
    return None


def _core_count(cores: int, where: Path) -> int:
    """``cores`` as a record gave it, if a machine can have it (1 to ``MAX_CORES``)."""
    if cores > MAX_CORES:
        raise MeasurementError(
            f"records more cores than a machine has (at most {MAX_CORES:,}): give {flag('cores', 'N')}",
            location=Location(str(where)),
        )
    return cores


def _head(path: Path) -> str:
    """The first bytes of a text file ('' where it cannot be read)."""
    try:
        with open(path, "rb") as file:
            return file.read(_HEAD).decode("utf-8", errors="replace")
    except OSError:
        return ""


def _text(path: Path) -> str:
    """A file's text ('' where it cannot be read)."""
    try:
        return read_text(path)
    except (OSError, ValueError):
        return ""


def _head_cores(head: str) -> int | None:
    """The ``# cores: N`` comment in the head of a text file, if any."""
    found = _COMMENT_CORES.search(head)
    return int(found.group(1)) if found and 0 < int(found.group(1)) < 1 << 31 else None


def _json_cores(text: str) -> int | None:
    """A JSON file's ``context.num_cpus``, if it gives a positive whole number."""
    try:
        cpus = json.loads(text).get("context", {}).get("num_cpus")
    except (ValueError, AttributeError, RecursionError):
        return None
    return cpus if isinstance(cpus, int) and not isinstance(cpus, bool) and cpus > 0 else None
