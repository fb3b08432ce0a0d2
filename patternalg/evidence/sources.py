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

from ..algebra.atomic_model import AtomicModel
from ..arguments import as_measurements, as_paths, wrong
from ..library.model_library import ModelLibrary
from ..measurements import Measurements, Series, read

__all__ = ["measurement_sources", "evidence_models", "recorded_cores"]


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


def recorded_cores(files: Iterable[str]) -> int | None:
    """The cores the measurements' own record names: a Google Benchmark JSON's
    ``context.num_cpus``, else a ``machine.txt`` beside the file (its ``cores:`` line, as
    ``benchmarks/realdata/run.sh`` writes it, else lscpu's ``CPU(s):``); None if none does."""
    for name in files:
        path = Path(name)
        if not path.is_file():
            continue
        if path.suffix == ".json":
            try:
                cpus = json.loads(path.read_text(encoding="utf-8")).get("context", {}).get("num_cpus")
            except (OSError, ValueError, AttributeError):
                cpus = None
            if isinstance(cpus, int) and not isinstance(cpus, bool) and cpus > 0:
                return cpus
        record = path.parent / "machine.txt"
        try:
            text = record.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        found = _CORES.search(text) or _CPUS.search(text)
        if found and int(found.group(1)) > 0:
            return int(found.group(1))
    return None
