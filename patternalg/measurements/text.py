"""Extra-P's text format: PARAMETER, POINTS, REGION, METRIC and DATA lines; ``#`` comments.

>>> ms = TextReader.read("m.txt", "PARAMETER n\\nPOINTS 1 2 3\\nREGION sort\\nDATA 1 1.1\\nDATA 2\\nDATA 3\\n")
>>> ms.format, ms.parameters, [s.kernel for s in ms], ms.series[0].lines[0]
('text', ('n',), ['sort'], (4, 4))
"""

from __future__ import annotations

import re

from ..algebra.units import check_unit
from ..errors import Location, MeasurementError, UnitError
from .base import Collector, Reader, ValueChoice, number, numbers
from .model import Measurements
from .names import split_unit

__all__ = ["TextReader"]

FIELDS = ("PARAMETER", "POINTS", "REGION", "METRIC", "DATA")


class _State:
    """The reader's position: parameters, points, the current region/metric and its DATA."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.parameters: list[str] = []
        self.parameter_line = 0
        self.declared: dict[str, int] = {}  # each parameter's PARAMETER line
        self.points: list[tuple[float, ...]] = []
        self.seen: set[tuple[float, ...]] = set()  # the points, to find one given twice
        self.collector: Collector | None = None
        self.region, self.metric = "", ""
        self.block: list[int] = []  # lines of the DATA of the current (region, metric)
        self.opened = 0  # the REGION or METRIC line that opened the current block
        self.blocks: dict[tuple[str, str], int] = {}  # each (region, metric)'s first block
        self.regions: dict[str, int] = {}
        self.with_data: set[str] = set()
        self.bad_units: dict[str, MeasurementError] = {}  # metrics stating no unit pint knows

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
            self.declare(number_, rest)
        elif field == "POINTS":
            self.add_points(number_, rest)
        elif field in ("REGION", "METRIC"):
            self.close_block()
            self.opened = number_
            if field == "REGION":
                self.region = " ".join(rest)
                self.regions.setdefault(self.region, number_)
            else:
                self.metric = " ".join(rest)
                self.check_unit(number_)
        elif field == "DATA":
            self.add_data(number_, rest)
        else:
            raise MeasurementError(
                f"unknown field '{field}' "
                "(valid: PARAMETER, POINTS, REGION, METRIC, DATA, # comment)",
                location=Location(path, number_),
            )

    def declare(self, number_: int, names: list[str]) -> None:
        """The parameters of a PARAMETER line; an error for one declared before."""
        for name in names:
            if name in self.declared:
                raise MeasurementError(
                    f"PARAMETER '{name}' is declared twice (line {self.declared[name]})",
                    location=Location(self.path, number_),
                )
            self.declared[name] = number_
        self.parameters.extend(names)
        self.parameter_line = self.parameter_line or number_

    def check_unit(self, number_: int) -> None:
        """Remember the current METRIC if the unit it states is none pint knows: its
        kernels are left out (:meth:`add_data`)."""
        unit = split_unit(self.metric)[1]
        if unit is None or self.metric in self.bad_units:
            return
        try:
            check_unit(unit, f"METRIC '{self.metric}'")
        except UnitError as error:
            self.bad_units[self.metric] = MeasurementError(str(error), location=Location(self.path, number_))

    def naming(self) -> str:
        """The current block in messages: ``REGION 'r' under METRIC 'time'``."""
        under = f" under METRIC '{self.metric}'" if self.metric else ""
        return f"REGION '{self.region}'{under}"

    def leave_out(self, message: str, number_: int) -> None:
        """Leave out the current (region, metric), ``message`` saying why at line ``number_``."""
        assert self.collector is not None
        error = MeasurementError(message, location=Location(self.path, number_))
        self.collector.reject(self.region, self.metric, error)

    def close_block(self) -> None:
        if self.block and len(self.block) != len(self.points):
            self.leave_out(
                f"{self.naming()} has {len(self.block)} "
                f"DATA lines but POINTS lists {len(self.points)} points",
                self.block[-1],
            )
        self.block.clear()

    def open_block(self, number_: int) -> None:
        """Start the DATA of the current (region, metric) at line ``number_``: left out if
        another block gave it, or its METRIC states no unit."""
        key = (self.region, self.metric)
        first = self.blocks.setdefault(key, self.opened or number_)
        if first != (self.opened or number_):
            self.leave_out(
                f"{self.naming()} is given twice (line {first}): "
                "give each region's DATA once per metric",
                self.opened or number_,
            )
        if self.metric in self.bad_units:
            assert self.collector is not None
            self.collector.reject(self.region, self.metric, self.bad_units[self.metric])

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
        if self.collector is None:
            self.collector = Collector(path, self.parameters)
        if not self.block:
            self.open_block(number_)
        self.with_data.add(self.region)
        if len(self.block) == len(self.points):
            self.leave_out(
                f"{self.naming()} has more DATA lines than the {len(self.points)} POINTS",
                number_,
            )
            return
        point = self.points[len(self.block)]
        self.block.append(number_)
        if not rest:
            self.leave_out("DATA line without values", number_)
            return
        with self.collector.reading(self.region, self.metric):
            self.collector.add(self.region, self.metric, point, numbers(rest, path, number_), number_)


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
