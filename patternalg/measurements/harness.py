"""What the readers of benchmark harnesses' JSON share (Google Benchmark, hyperfine,
pytest-benchmark): :class:`HarnessReader`, the document and its list of entries, and :class:`Points`, which turns
kernels measured at named coordinates into :class:`Measurements` over one set of parameters.

A harness file names its coordinates per entry; a kernel without any numeric coordinate
cannot be fitted over a parameter and is left out with a note, and kernels over different
parameters cannot share one :class:`Measurements` (an error naming both).

>>> points = Points("b.json", "demo")
>>> points.add("sort", {"n": 8.0}, [1.0, 2.0], key="results[0]")
>>> points.add("hello", {}, [1.0], key="results[1]")
>>> ms = points.result("time", "time", unit="s")
>>> ms.parameters, [s.kernel for s in ms], ms.notes
(('n',), ['sort'], ('hello (results[1]) has no numeric parameter to fit over: left out',))
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any, ClassVar, NamedTuple

from .._internal.surface import flag
from ..errors import Location, MeasurementError
from .base import Collector, Reader, csv_cells
from .json import _loads
from .model import Measurements, Stated

__all__ = ["HarnessReader", "document", "entries", "Points", "is_number", "Summary", "declaring"]

#: the parameters a read declares (``--parameters``), None: none; :class:`Points` reads it
_DECLARED: ContextVar[Sequence[str] | None] = ContextVar("declared", default=None)


@contextmanager
def declaring(parameters: Sequence[str] | None) -> Iterator[None]:
    """Harness readers within declare ``parameters``: a kernel over others is kept over
    those (:meth:`Points.result`)."""
    token = _DECLARED.set(parameters)
    try:
        yield
    finally:
        _DECLARED.reset(token)


def is_number(value: object) -> bool:
    """Whether a JSON value is a number (not a bool, not text that reads as one)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def document(path: str, text: str, what: str) -> dict[str, Any]:
    """The top-level JSON object of a ``what`` file (an error if it is not an object)."""
    data = _loads(text, path)
    if not isinstance(data, dict):
        raise MeasurementError(f"expected {what}'s JSON object", location=Location(path))
    return data


def entries(data: Mapping[str, Any], key: str, path: str, what: str) -> list[dict[str, Any]]:
    """The non-empty list of objects under ``key``; an error naming the first that is not."""
    found = data.get(key)
    if not isinstance(found, list) or not found:
        raise MeasurementError(
            f'expected {what}\'s "{key}": a non-empty list', location=Location(path, key=key)
        )
    for i, entry in enumerate(found):
        if not isinstance(entry, dict):
            raise MeasurementError(
                f"expected an object, got {entry!r:.40}", location=Location(path, key=f"{key}[{i}]")
            )
    return found


@dataclass(frozen=True)
class Summary:
    """A harness's CSV summary (hyperfine's, pytest-benchmark's): its header, and its rows
    with their line numbers, each a mapping of column to cell."""

    header: list[str]
    rows: list[tuple[int, dict[str, str]]]

    @classmethod
    def read(
        cls, path: str, text: str, fits: Callable[[list[str]], bool], expected: str, what: str
    ) -> Summary:
        """The summary in ``text``: a header that ``fits`` (else an error naming the
        ``expected`` one), then rows of its width (blank lines skipped); a summary of no
        ``what`` is an error."""
        reader = csv_cells(text.splitlines(), path)
        header = [h.strip() for h in next(reader, (1, []))[1]]
        if not header or not fits(header):
            raise MeasurementError(f"expected {expected}", location=Location(path, 1))
        rows = []
        for line, cells in reader:
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != len(header):
                raise MeasurementError(
                    f"{len(cells)} cells under a header of {len(header)} columns",
                    location=Location(path, line),
                )
            rows.append((line, dict(zip(header, cells, strict=True))))
        if not rows:
            raise MeasurementError(f"no {what} under the header", location=Location(path, 1))
        return cls(header, rows)

    def parameters(self, prefix: str) -> list[dict[str, str]]:
        """Each row's parameters: its columns named ``prefix`` + NAME, by NAME."""
        return [{h[len(prefix) :]: v for h, v in row.items() if h.startswith(prefix)} for _, row in self.rows]


class HarnessReader(Reader):
    """A harness's JSON document: never recognised by its first line (it opens a JSON
    object), only by its own keys (:meth:`sniff_text`); its entries are the non-empty list
    of objects under :attr:`entries_key`, and :attr:`harness` names it in messages."""

    #: the harness's name in messages, and the key of its list of entries
    harness: ClassVar[str]
    entries_key: ClassVar[str]

    @classmethod
    def sniff(cls, first: str) -> bool:
        return False  # a JSON document: recognised by sniff_text

    @classmethod
    def empty(cls, text: str) -> bool:
        """Whether the document ``text`` lists no entries (``"results": []``): a harness's
        file recognised by its other keys all the same, to say that it holds none.

        >>> class R(HarnessReader): entries_key = "results"
        >>> R.empty('{"results": [ ]}'), R.empty('{"results": [{}]}')
        (True, False)
        """
        return re.search(rf'"{cls.entries_key}"\s*:\s*\[\s*\]', text) is not None

    @classmethod
    def rows(cls, path: str, text: str) -> list[dict[str, Any]]:
        """The entries of the document ``text`` (read from ``path``)."""
        return entries(document(path, text, cls.harness), cls.entries_key, path, cls.harness)


def text_field(entry: Mapping[str, Any], name: str, path: str, key: str) -> str:
    """``entry[name]``, which must be a non-empty string."""
    value = entry.get(name)
    if not isinstance(value, str) or not value.strip():
        raise MeasurementError(
            f"expected '{name}': a non-empty string, got {value!r:.40}",
            location=Location(path, key=key),
        )
    return value


class _Entry(NamedTuple):
    """One entry of a harness's report, as :class:`Points` gathers it."""

    kernel: str
    metric: str
    coordinates: dict[str, float]
    values: list[float]
    unit: str | None
    key: str
    stated: Stated | None


class Points:
    """Kernels' repetitions at named coordinates, gathered entry by entry."""

    def __init__(self, path: str, fmt: str) -> None:
        self.path, self.fmt = path, fmt
        #: the entries in file order
        self.rows: list[_Entry] = []
        self.notes: list[str] = []

    def add(
        self,
        kernel: str,
        coordinates: Mapping[str, float],
        values: Sequence[float],
        *,
        key: str,
        metric: str = "time",
        unit: str | None = None,
        stated: Stated | None = None,
    ) -> None:
        """Repetitions ``values`` of ``kernel`` (in ``unit``) at ``coordinates``, read at
        ``key``; ``stated``: what a summary states of the repetitions behind one value."""
        self.rows.append(_Entry(kernel, metric, dict(coordinates), list(values), unit, key, stated))

    def note(self, text: str) -> None:
        """Say ``text`` once where the measurements are used (``fit`` prints it)."""
        if text not in self.notes:
            self.notes.append(text)

    def _declared(self, rows: list[_Entry], declared: Sequence[str]) -> list[_Entry]:
        """The ``rows`` over the ``declared`` parameters: a parameter not declared is left
        out of a kernel where it is the same at every point (``/threads:1``); a kernel
        measured at several of its values is left out, with a note (its runs there are no
        repetitions of one point)."""
        values: dict[str, dict[str, set[float]]] = {}
        for row in rows:
            for name, value in row.coordinates.items():
                if name.lower() not in declared:
                    values.setdefault(row.kernel, {}).setdefault(name, set()).add(value)
        for kernel, found in values.items():
            varying = {name: sorted(v) for name, v in found.items() if len(v) > 1}
            for name, (value,) in ((n, v) for n, v in found.items() if len(v) == 1):
                self.note(f"{kernel}: parameter '{name}', not among those declared, is {value:g} at every point: left out")
            for name, among in varying.items():
                self.note(
                    f"{kernel} is measured at {len(among)} values of '{name}' ({', '.join(f'{v:g}' for v in among[:4])}"
                    f"{', ...' if len(among) > 4 else ''}), which is not among the parameters declared: left out "
                    f"(its runs there are no repetitions of one point; declare {name}, or fit it from a file of its own)"
                )
        dropped = {kernel for kernel, found in values.items() if any(len(v) > 1 for v in found.values())}
        return [
            row._replace(coordinates={n: v for n, v in row.coordinates.items() if n.lower() in declared})
            for row in rows
            if row.kernel not in dropped
        ]

    def _over_shared_parameters(self, rows: list[_Entry]) -> tuple[list[_Entry], tuple[str, ...]]:
        """The rows over the parameters most kernels are measured over (the first kernel's
        where as many are over others), and those parameters: one file's measurements are
        over one set of parameters, and a kernel over others is left out with a note."""
        over: dict[frozenset[str], dict[str, None]] = {}
        for row in rows:
            over.setdefault(frozenset(row.coordinates), {})[row.kernel] = None
        shared = max(over, key=lambda names: len(over[names]))  # the first of the most
        for names, kernels in over.items():
            if names != shared:
                self.note(
                    f"{', '.join(kernels)} {'is' if len(kernels) == 1 else 'are'} measured over "
                    f"({', '.join(sorted(names))}), the file's other kernels over "
                    f"({', '.join(sorted(shared))}): left out (one file's kernels are fitted "
                    "over the same parameters; fit them from a file of their own)"
                )
        kept = [row for row in rows if frozenset(row.coordinates) == shared]
        return kept, tuple(kept[0].coordinates)

    def result(self, value_name: str, metric: str, unit: str | None = None) -> Measurements:
        """The measurements of ``metric`` over the parameters every kept kernel has."""
        rows = [row for row in self.rows if row.metric == metric]
        if not rows:
            raise MeasurementError(
                f"no measurements of '{metric}' found", location=Location(self.path)
            )
        kept = []
        for row in rows:
            if row.coordinates:
                kept.append(row)
            else:
                self.note(f"{row.kernel} ({row.key}) has no numeric parameter to fit over: left out")
        if not kept:
            raise MeasurementError(
                "no kernel has a numeric parameter to fit over", location=Location(self.path)
            )
        declared = _DECLARED.get()
        if declared is not None and not (kept := self._declared(rows := kept, declared)):
            every = ",".join(dict.fromkeys(n for row in rows for n in row.coordinates))
            raise MeasurementError(
                f"every kernel is measured at several values of a parameter not declared "
                f"({', '.join(declared)}): declare it too (its parameters: {flag('parameters', every)})",
                location=Location(self.path),
            )
        kept, names = self._over_shared_parameters(kept)
        collector = Collector(self.path, names)
        units: dict[str, str | None] = {}
        for row in kept:
            point = tuple(row.coordinates[n] for n in names)
            collector.add(row.kernel, row.metric, point, row.values, 0)
            if row.stated is not None:
                collector.state(row.kernel, row.metric, point, row.stated)
            units.setdefault(row.kernel.strip(), row.unit)  # as the collector names it
        ms = collector.result(self.fmt, value_name, unit=unit)
        series = tuple(replace(s, unit=units[s.kernel] or unit) for s in ms.series)
        shared = {s.unit for s in series}
        return replace(
            ms,
            series=series,
            unit=shared.pop() if len(shared) == 1 else None,
            notes=(*ms.notes, *self.notes),
        )
