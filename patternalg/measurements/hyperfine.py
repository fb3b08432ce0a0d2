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

Its CSV (``--export-csv``) holds each command's summary, not its runs: the ``median`` is
each point's one value (``--metric`` names another column: ``mean``, ``min``, ``user``,
...), with a note; its parameters are the columns ``parameter_NAME``.

>>> text = '''command,mean,stddev,median,user,system,min,max,parameter_n
... ./k 8,1.5,0.5,1.5,1,0.1,1,2,8
... ./k 16,3,0,3,2,0.2,3,3,16'''
>>> ms = HyperfineCsvReader.read("hf.csv", text)
>>> ms.parameters, ms.series[0].kernel, [v.tolist() for v in ms.series[0].values], ms.unit
(('n',), './k {n}', [[1.5], [3.0]], 's')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from itertools import combinations, islice

from .._internal.display import listed
from ..errors import Location, MeasurementError
from .base import Reader, ValueChoice, is_number_text, measured, number
from .harness import HarnessReader, Points, Summary, text_field
from .model import Measurements

__all__ = ["HyperfineReader", "HyperfineCsvReader", "kernel_of", "kernels_of"]


def kernel_of(command: str, numeric: dict[str, str]) -> str:
    """``command`` with each value of ``numeric`` (name -> value as written) as ``{name}``,
    where it stands alone (not inside a longer number or word); a value that stands alone
    nowhere is replaced where it is not inside a longer number (``make -j8``: ``-j{n}``).

    >>> kernel_of("./k1 -n 100 -t 100.5 --size=100", {"n": "100"})
    './k1 -n {n} -t 100.5 --size={n}'
    >>> kernel_of("make -j8", {"n": "8"}), kernel_of("./bench --size 4M -t 4.5", {"m": "4"})
    ('make -j{n}', './bench --size {m}M -t 4.5')
    """
    return next(_templates(command, numeric))


def kernels_of(runs: list[tuple[str, dict[str, str]]]) -> list[str]:
    """The kernel of each of ``runs`` (a command and its numeric parameters' values, as
    :func:`kernel_of` takes them): where a value also stands in the command as a literal
    (``./k 2 2`` of a scan of ``./k {n} 2``), the template most runs agree on.

    >>> kernels_of([("./k 1 2", {"n": "1"}), ("./k 2 2", {"n": "2"}), ("./k 3 2", {"n": "3"})])
    ['./k {n} 2', './k {n} 2', './k {n} 2']
    """
    candidates = [list(islice(_templates(c, values), MAX_TEMPLATES)) for c, values in runs]
    votes = Counter(t for found in candidates for t in set(found))
    return [max(found, key=votes.__getitem__) for found in candidates]  # the first of the most


#: how many templates of one command are weighed against the others' at most
MAX_TEMPLATES = 64


def _templates(command: str, numeric: dict[str, str]) -> Iterator[str]:
    """The templates ``command`` may come from, :func:`kernel_of`'s first: each value of
    ``numeric`` written as ``{name}`` in every place it stands alone, then in fewer."""
    if not numeric:
        yield command
        return
    (name, value), *rest = sorted(numeric.items(), key=lambda item: -len(item[1]))
    places = _places(command, value, _in_word) or _places(command, value, _in_number)
    for kept in range(len(places)):  # how many places keep the literal, fewest first
        for literal in combinations(places, kept):
            replaced = [p for p in places if p not in literal]
            yield from _templates(_written(command, value, f"{{{name}}}", replaced), dict(rest))
    if not places:
        yield from _templates(command, dict(rest))


def _written(text: str, value: str, replacement: str, places: list[int]) -> str:
    """``text`` with ``value`` at each of ``places`` (its start, ascending) replaced."""
    parts, start = list[str](), 0
    for pos in places:
        parts += (text[start:pos], replacement)
        start = pos + len(value)
    return "".join(parts) + text[start:]


def _places(text: str, value: str, inside: Callable[[str, int], bool]) -> list[int]:
    """Where ``value`` occurs in ``text`` with no character on either side that ``inside``
    says continues it, left to right: linear in ``text``, no pattern built per value (a file
    of 100,000 results names 100,000 values).

    >>> _places("-n 8 -m 18 -k 8.5 8", "8", _in_word)
    [3, 18]
    """
    found: list[int] = []
    pos = text.find(value)
    while pos >= 0 and value:
        end = pos + len(value)
        if not (inside(text, pos - 1) or inside(text, end)):
            found.append(pos)
        pos = text.find(value, end if found and found[-1] == pos else pos + 1)
    return found


def _in_word(text: str, index: int) -> bool:
    """Whether ``text[index]`` exists and continues a word or a number."""
    return 0 <= index < len(text) and (text[index].isalnum() or text[index] in "_.")


def _in_number(text: str, index: int) -> bool:
    """Whether ``text[index]`` exists and continues a number: a digit, or a point beside one."""
    if not 0 <= index < len(text):
        return False
    if text[index] == ".":
        return any(0 <= i < len(text) and text[i].isdigit() for i in (index - 1, index + 1))
    return text[index].isdigit()


class HyperfineReader(HarnessReader):
    """hyperfine's ``--export-json`` files; times are in seconds."""

    name = "hyperfine"
    harness = "hyperfine"
    entries_key = "results"

    @classmethod
    def sniff_text(cls, first: str, text: str) -> bool:
        keys = ('"results"', '"command"', '"mean"')
        listed = all(key in text for key in keys) or (cls.empty(text) and '"parameters"' not in text)
        return first.startswith("{") and listed

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
        numeric = _numeric_everywhere(given)
        points = Points(path, cls.name)
        runs = [
            (text_field(result, "command", path, f"results[{i}]"), {n: v for n, v in parameters.items() if n in numeric})
            for i, (result, parameters) in enumerate(zip(results, given, strict=True))
        ]
        for i, (result, (_, values), kernel) in enumerate(zip(results, runs, kernels_of(runs), strict=True)):
            key = f"results[{i}]"
            coordinates = {
                n: number(v, path, key=f"{key}.parameters.{n}") for n, v in values.items()
            }
            points.add(kernel, coordinates, _times(result, path, key, points), key=key, unit="s")
        failed = [f"{result['command']} ({_failed(result)} of {len(result.get('times') or [])})"
                  for result in results if _failed(result)]  # fmt: skip
        if failed:
            points.note(
                f"runs that exited with a non-zero status (hyperfine -i went on): {listed(failed, 3, '; ', width=300)}"
                ": fitted as measured (a failed "
                "run's time may not be the command's work)"
            )
        return points.result("time", "time", unit="s")


class HyperfineCsvReader(Reader):
    """hyperfine's ``--export-csv`` files: one summary per command, in seconds."""

    name = "hyperfine-csv"
    #: the columns every export starts with
    HEADER = ("command", "mean", "stddev", "median", "user", "system", "min", "max")
    #: the prefix of a parameter's column
    PARAMETER = "parameter_"

    @classmethod
    def sniff(cls, first: str) -> bool:
        return first.startswith(",".join(cls.HEADER))

    @classmethod
    def read(
        cls, path: str, text: str, *, metric: str | None = None, value: ValueChoice = None
    ) -> Measurements:
        table = Summary.read(
            path,
            text,
            lambda header: tuple(header[: len(cls.HEADER)]) == cls.HEADER,
            f"hyperfine's CSV header ({','.join(cls.HEADER)},...)",
            "commands",
        )
        column = metric or "median"
        summaries = [h for h in table.header[1:] if not h.startswith(cls.PARAMETER)]
        if column not in summaries:
            raise MeasurementError(
                f"no column '{column}' of times (valid: {', '.join(summaries)})",
                location=Location(path, 1),
            )
        found, given = table.rows, table.parameters(cls.PARAMETER)
        numeric = _numeric_everywhere(given)
        named = column if metric else "time"
        points = Points(path, cls.name)
        runs = []
        for (line, row), parameters in zip(found, given, strict=True):
            command = row["command"].strip()
            if not command:
                raise MeasurementError("a row without its command", location=Location(path, line))
            runs.append((command, {n: v for n, v in parameters.items() if n in numeric}))
        for (line, row), (_, values), kernel in zip(found, runs, kernels_of(runs), strict=True):
            points.add(
                kernel,
                {n: number(v, path, line, column=cls.PARAMETER + n) for n, v in values.items()},
                [measured(row[column], path, line, column=column)],
                key=f"line {line}",
                metric=named,
                unit="s",
            )
        points.note(
            f"hyperfine's CSV holds a summary of each command's runs: its {column} is one value "
            "(--export-json keeps every run, for intervals)"
        )
        return points.result(named, named, unit="s")


def _numeric_everywhere(given: list[dict[str, str]]) -> set[str]:
    """The parameters every result gives as a number (one pass over the results).

    >>> sorted(_numeric_everywhere([{"n": "8", "cc": "gcc"}, {"n": "16", "cc": "2"}, {"n": "4"}]))
    ['n']
    """
    counts: dict[str, int] = {}
    for parameters in given:
        for name, text in parameters.items():
            if is_number_text(text):
                counts[name] = counts.get(name, 0) + 1
    return {name for name, count in counts.items() if count == len(given)}


def _failed(result: dict[str, object]) -> int:
    """How many of a result's runs exited with a non-zero status (its ``exit_codes``)."""
    codes = result.get("exit_codes")
    return sum(code != 0 for code in codes) if isinstance(codes, list) else 0


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
