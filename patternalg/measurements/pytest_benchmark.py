"""pytest-benchmark's JSON (``--benchmark-json``, or a run saved with ``--benchmark-save``).

A test function is a kernel; its numeric ``params`` (``@pytest.mark.parametrize`` with
numbers) are the coordinates, and each other parameter's value makes a kernel of its own
(``test_pass[order=sorted]``). ``stats.data`` holds the repetitions (seconds a round) where
the file kept them; a saved run without ``--benchmark-save-data`` has only statistics, and
each point's ``stats.mean`` is then its one value, with a note, and its ``stats.stddev``
and ``stats.rounds`` its spread.

>>> text = '''{"machine_info": {}, "benchmarks": [
...  {"name": "test_a[8]", "params": {"n": 8}, "stats": {"mean": 1.5, "data": [1, 2]}},
...  {"name": "test_a[16]", "params": {"n": 16}, "stats": {"mean": 3}}]}'''
>>> ms = PytestBenchmarkReader.read("pb.json", text)
>>> ms.parameters, ms.series[0].kernel, [v.tolist() for v in ms.series[0].values], ms.notes
(('n',), 'test_a', [[1.0, 2.0], [3.0]], ("test_a: no stats.data (a run saved without --benchmark-save-data): the mean of each point's rounds is its one value",))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from ..errors import Location, MeasurementError
from .base import ValueChoice, measured, number
from .harness import HarnessReader, Points, is_number, text_field
from .model import Measurements, Stated

__all__ = ["PytestBenchmarkReader", "function_of", "kernels"]

V = TypeVar("V")


class PytestBenchmarkReader(HarnessReader):
    """pytest-benchmark's JSON; times are in seconds."""

    name = "pytest-benchmark"
    harness = "pytest-benchmark"
    entries_key = "benchmarks"

    @classmethod
    def sniff_text(cls, first: str, text: str) -> bool:
        return (
            first.startswith("{")
            and '"benchmarks"' in text
            and ('"machine_info"' in text or ('"fullname"' in text and '"stats"' in text))
        )

    @classmethod
    def read(
        cls, path: str, text: str, *, metric: str | None = None, value: ValueChoice = None
    ) -> Measurements:
        rows = cls.rows(path, text)
        params: list[dict[str, Any]] = []
        for i, row in enumerate(rows):
            found = row.get("params") or {}
            if not isinstance(found, dict):
                raise MeasurementError(
                    "expected 'params': names mapped to values",
                    location=Location(path, key=f"benchmarks[{i}].params"),
                )
            params.append(found)
        names = [text_field(row, "name", path, f"benchmarks[{i}]") for i, row in enumerate(rows)]
        points = Points(path, cls.name)
        for i, (row, (kernel, numeric)) in enumerate(zip(rows, kernels(names, params, is_number), strict=True)):
            key = f"benchmarks[{i}]"
            coordinates = {n: number(v, path, key=f"{key}.params.{n}") for n, v in numeric.items()}
            rounds, stated = _rounds(row, kernel, path, key, points)
            points.add(kernel, coordinates, rounds, key=key, unit="s", stated=stated)
        return points.result("time", "time", unit="s")


def function_of(name: str) -> str:
    """The test function of a benchmark's name or full name.

    >>> function_of("tests/test_k.py::TestSort::test_sort[1024-sorted]")
    'test_sort'
    """
    return name.partition("[")[0].rpartition("::")[2].strip()


def kernels(
    names: Sequence[str],
    params: Sequence[Mapping[str, V]],
    numeric: Callable[[V], bool],
    label: Callable[[str, V], str] = lambda name, value: f"{name}={value}",
) -> list[tuple[str, dict[str, V]]]:
    """Each benchmark's kernel and its numeric parameters. The kernel is the test function
    of its name, with each parameter that is not ``numeric`` for every benchmark of that
    function written in as ``label`` gives it: ``test_pass[order=sorted]``.

    >>> kernels(["t[8-a]", "t[16-b]"], [{"n": 8, "k": "a"}, {"n": 16, "k": "b"}], is_number)
    [('t[k=a]', {'n': 8}), ('t[k=b]', {'n': 16})]
    """
    functions = [function_of(name) for name in names]
    words = {
        (function, name)
        for function, found in zip(functions, params, strict=True)
        for name, value in found.items()
        if not numeric(value)
    }
    found_kernels = []
    for function, found in zip(functions, params, strict=True):
        labels = [label(n, v) for n, v in found.items() if (function, n) in words]
        kernel = f"{function}[{', '.join(labels)}]" if labels else function
        found_kernels.append((kernel, {n: v for n, v in found.items() if (function, n) not in words}))
    return found_kernels


def _rounds(
    row: dict[str, Any], kernel: str, path: str, key: str, points: Points
) -> tuple[list[float], Stated | None]:
    """A benchmark's repetitions: ``stats.data``, else its ``stats.mean``, with a note, and
    what its ``stats.stddev`` and ``stats.rounds`` state of the rounds behind that mean."""
    stats = row.get("stats")
    if not isinstance(stats, dict):
        raise MeasurementError("expected 'stats': an object", location=Location(path, key=key))
    data = stats.get("data")
    if data is None:
        if "mean" not in stats:
            raise MeasurementError(
                "no 'stats.data' and no 'stats.mean'", location=Location(path, key=f"{key}.stats")
            )
        stated = Stated.of(stats.get("stddev"), stats.get("rounds"))
        points.note(
            f"{kernel}: no stats.data (a run saved without --benchmark-save-data): "
            "the mean of each point's rounds is its one value"
            + (", their stddev and count its spread" if stated else "")
        )
        return [number(stats["mean"], path, key=f"{key}.stats.mean")], stated
    if not isinstance(data, list) or not data:
        raise MeasurementError(
            "expected 'stats.data': a non-empty list of seconds",
            location=Location(path, key=f"{key}.stats.data"),
        )
    return [measured(t, path, key=f"{key}.stats.data[{j}]") for j, t in enumerate(data)], None
