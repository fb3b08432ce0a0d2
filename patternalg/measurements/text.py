"""Extra-P's text format: PARAMETER, POINTS, REGION, METRIC and DATA lines; ``#`` comments.

>>> ms = TextReader.read("m.txt", "PARAMETER n\\nPOINTS 1 2 3\\nREGION sort\\nDATA 1 1.1\\nDATA 2\\nDATA 3\\n")
>>> ms.format, ms.parameters, [s.kernel for s in ms], ms.series[0].lines[0]
('text', ('n',), ['sort'], (4, 4))
"""

from __future__ import annotations

import re

from ..errors import Location, MeasurementError
from .base import Collector, Reader, ValueChoice, number, numbers
from .model import Measurements

__all__ = ["TextReader"]

FIELDS = ("PARAMETER", "POINTS", "REGION", "METRIC", "DATA")


class _State:
    """The reader's position: parameters, points, the current region/metric and its DATA."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.parameters: list[str] = []
        self.parameter_line = 0
        self.points: list[tuple[float, ...]] = []
        self.seen: set[tuple[float, ...]] = set()  # the points, to find one given twice
        self.collector: Collector | None = None
        self.region, self.metric = "", ""
        self.block: list[int] = []  # lines of the DATA of the current (region, metric)
        self.regions: dict[str, int] = {}
        self.with_data: set[str] = set()

    def feed(self, number_: int, line: str) -> None:
        """Read line ``number_``."""
        path = self.path
        words = line.split()
        if not words or words[0].startswith("#"):
            return
        field, rest = words[0], words[1:]
        if field == "PARAMETER":
            if self.points:
                raise MeasurementError("PARAMETER after POINTS", location=Location(path, number_))
            self.parameters.extend(rest)
            self.parameter_line = self.parameter_line or number_
        elif field == "POINTS":
            self.add_points(number_, rest)
        elif field in ("REGION", "METRIC"):
            self.close_block()
            if field == "REGION":
                self.region = " ".join(rest)
                self.regions.setdefault(self.region, number_)
            else:
                self.metric = " ".join(rest)
        elif field == "DATA":
            self.add_data(number_, rest)
        else:
            raise MeasurementError(
                f"unknown field '{field}' "
                "(valid: PARAMETER, POINTS, REGION, METRIC, DATA, # comment)",
                location=Location(path, number_),
            )

    def close_block(self) -> None:
        if self.block and len(self.block) != len(self.points):
            raise MeasurementError(
                f"REGION '{self.region}' has {len(self.block)} "
                f"DATA lines but POINTS lists {len(self.points)} points",
                location=Location(self.path, self.block[-1]),
            )
        self.block.clear()

    def add_points(self, number_: int, rest: list[str]) -> None:
        path = self.path
        if not self.parameters:
            raise MeasurementError(
                "POINTS before any PARAMETER line", location=Location(path, number_)
            )
        text = " ".join(rest)
        groups = re.findall(r"\(([^()]*)\)", text) if "(" in text else rest
        for group in groups:
            coords = tuple(number(w, path, number_) for w in group.split())
            if len(coords) != len(self.parameters):
                raise MeasurementError(
                    f"point ({group.strip()}) has {len(coords)} coordinates "
                    f"for {len(self.parameters)} parameters ({', '.join(self.parameters)})",
                    location=Location(path, number_),
                )
            if coords in self.seen:
                raise MeasurementError(
                    f"POINTS lists ({group.strip()}) twice: give each point once (its "
                    "repetitions all go on its one DATA line)",
                    location=Location(path, number_),
                )
            self.points.append(coords)
            self.seen.add(coords)

    def add_data(self, number_: int, rest: list[str]) -> None:
        path = self.path
        if not self.points:
            raise MeasurementError("DATA before any POINTS line", location=Location(path, number_))
        if not self.region:
            raise MeasurementError("DATA before any REGION line", location=Location(path, number_))
        if len(self.block) == len(self.points):
            raise MeasurementError(
                f"REGION '{self.region}' has more DATA lines than the {len(self.points)} POINTS",
                location=Location(path, number_),
            )
        if not rest:
            raise MeasurementError("DATA line without values", location=Location(path, number_))
        if self.collector is None:
            self.collector = Collector(path, self.parameters)
        values = numbers(rest, path, number_)
        self.collector.add(self.region, self.metric, self.points[len(self.block)], values, number_)
        self.block.append(number_)
        self.with_data.add(self.region)


class TextReader(Reader):
    """Extra-P's text format (one or more parameters, repetitions on each DATA line)."""

    name = "text"

    @classmethod
    def sniff(cls, first: str) -> bool:
        return first.split(maxsplit=1)[0] in FIELDS

    @classmethod
    def read(
        cls, path: str, text: str, *, metric: str | None = None, value: ValueChoice = None
    ) -> Measurements:
        state = _State(path)
        for number_, line in enumerate(text.splitlines(), start=1):
            state.feed(number_, line)
        state.close_block()
        empty = [name for name in state.regions if name not in state.with_data]
        if empty:
            raise MeasurementError(
                f"REGION '{empty[0]}' has no DATA lines",
                location=Location(path, state.regions[empty[0]]),
            )
        if not state.parameters:
            raise MeasurementError(
                "no PARAMETER line (is this an Extra-P text file?)", location=Location(path)
            )
        if state.collector is None:
            raise MeasurementError("no measurements found", location=Location(path))
        return state.collector.result("text", line=state.parameter_line)
