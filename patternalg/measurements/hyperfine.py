"""hyperfine's JSON (``--export-json``).

Each result is a point: its numeric ``parameters`` (``--parameter-scan``, ``-L`` with numbers)
are the coordinates, its ``times`` the repetitions in seconds (files older than ``times``:
the ``mean``, with a note). The kernel is the command with each numeric parameter's value
written back as ``{name}``; a parameter that is not a number (``-L compiler gcc,clang``)
stays in the command, so each of its values is a kernel of its own.

>>> text = '''{"results": [
...  {"command": "./k 8", "mean": 1.5, "times": [1, 2], "parameters": {"n": "8"}},
...  {"command": "./k 16", "mean": 3, "times": [3], "parameters": {"n": "16"}}]}'''
>>> ms = HyperfineReader.read("hf.json", text)
>>> ms.parameters, ms.series[0].kernel, [v.tolist() for v in ms.series[0].values], ms.unit
(('n',), './k {n}', [[1.0, 2.0], [3.0]], 's')
"""

from __future__ import annotations

import math
import re

from ..errors import Location, MeasurementError
from .base import ValueChoice, measured, number
from .harness import HarnessReader, Points, text_field
from .model import Measurements

__all__ = ["HyperfineReader", "kernel_of"]


def kernel_of(command: str, numeric: dict[str, str]) -> str:
    """``command`` with each value of ``numeric`` (name -> value as written) as ``{name}``,
    where it stands alone (not inside a longer number or word).

    >>> kernel_of("./k1 -n 100 -t 100.5 --size=100", {"n": "100"})
    './k1 -n {n} -t 100.5 --size={n}'
    """
    for name, value in sorted(numeric.items(), key=lambda item: -len(item[1])):
        command = re.sub(rf"(?<![\w.]){re.escape(value)}(?![\w.])", f"{{{name}}}", command)
    return command


class HyperfineReader(HarnessReader):
    """hyperfine's ``--export-json`` files; times are in seconds."""

    name = "hyperfine"
    harness = "hyperfine"
    entries_key = "results"

    @classmethod
    def sniff_text(cls, first: str, text: str) -> bool:
        keys = ('"results"', '"command"', '"mean"')
        return first.startswith("{") and all(key in text for key in keys)

    @classmethod
    def read(
        cls, path: str, text: str, *, metric: str | None = None, value: ValueChoice = None
    ) -> Measurements:
        results = cls.rows(path, text)
        given: list[dict[str, str]] = []
        for i, result in enumerate(results):
            parameters = result.get("parameters") or {}
            if not isinstance(parameters, dict) or not all(
                isinstance(v, str | int | float) for v in parameters.values()
            ):
                raise MeasurementError(
                    "expected 'parameters': names mapped to values",
                    location=Location(path, key=f"results[{i}].parameters"),
                )
            given.append({str(k): str(v) for k, v in parameters.items()})
        numeric = {name for p in given for name in p if all(_is_number(q.get(name)) for q in given)}
        points = Points(path, cls.name)
        for i, (result, parameters) in enumerate(zip(results, given, strict=True)):
            key = f"results[{i}]"
            command = text_field(result, "command", path, key)
            values = {n: v for n, v in parameters.items() if n in numeric}
            coordinates = {
                n: number(v, path, key=f"{key}.parameters.{n}") for n, v in values.items()
            }
            points.add(
                kernel_of(command, values),
                coordinates,
                _times(result, path, key, points),
                key=key,
                unit="s",
            )
        return points.result("time", "time", unit="s")


def _is_number(text: str | None) -> bool:
    try:
        return text is not None and math.isfinite(float(text))
    except ValueError:
        return False


def _times(result: dict[str, object], path: str, key: str, points: Points) -> list[float]:
    """A result's repetitions: its ``times``, else (an old file) its ``mean``, with a note."""
    times = result.get("times")
    if times is None:
        if "mean" not in result:
            raise MeasurementError("no 'times' and no 'mean'", location=Location(path, key=key))
        points.note("results without 'times' (an older hyperfine): each mean is one value")
        return [number(result["mean"], path, key=f"{key}.mean")]
    if not isinstance(times, list) or not times:
        raise MeasurementError(
            "expected 'times': a non-empty list of seconds",
            location=Location(path, key=f"{key}.times"),
        )
    return [measured(t, path, key=f"{key}.times[{j}]") for j, t in enumerate(times)]
