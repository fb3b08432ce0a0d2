"""Extra-P's JSON, JSON Lines and TaLPas formats.

JSON: ``{"parameters": [...], "measurements": {kernel: {metric: [{"point", "values"}]}}}``
(values are located by their key path), or Extra-P's legacy JSON, whose parameters, call
paths, metrics and coordinates are lists with ids and whose measurements name them, one
value each (read as Extra-P reads it: tested against its own reading); JSON Lines: one object a line with ``params``,
optional ``callpath`` and ``metric``, and ``value``; TaLPas: the same with ``parameters``
and ``;`` between the properties.

>>> JsonLinesReader.read("m.jsonl", '{"params": {"x": 1}, "value": [2, 3]}\\n').series[0].lines
((1, 1),)
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from typing import Any

from ..errors import Location, MeasurementError
from .base import Collector, Reader, ValueChoice, measured, number
from .model import Measurements, Stated, where

__all__ = ["JsonReader", "JsonLinesReader", "TalpasReader"]


def _number_or_text(text: str) -> float | str:
    """A JSON number as a float; its text if it overflows, so the error can say so."""
    value = float(text)
    return value if math.isfinite(value) else text


def _loads(text: str, path: str, line: int = 0) -> Any:
    """``json.loads`` with overflowing numbers kept as text, too deep nesting an error."""
    try:
        return json.loads(text, parse_int=_number_or_text, parse_float=_number_or_text)
    except json.JSONDecodeError as exc:
        kind = "not a JSON object" if line else "not valid JSON"
        raise MeasurementError(
            f"{kind}: {exc.msg}", location=Location(path, line or exc.lineno)
        ) from None
    except RecursionError:
        raise MeasurementError(
            "arrays and objects nested too deep to read "
            f"(at most about {sys.getrecursionlimit()} levels)",
            location=where(path, line),
        ) from None


def _values(
    value: object, path: str, line: int = 0, key: str | None = None, convert: Any = number
) -> list[float]:
    """The numbers of a JSON value or list, each as ``convert`` (:func:`number`, or
    :func:`measured` for measured values) reads it."""
    items = value if isinstance(value, list) else [value]
    if not items:
        raise MeasurementError("no values", location=where(path, line, key))
    return [convert(v, path, line, key) for v in items]


class JsonReader(Reader):
    """Extra-P's JSON format: the current one, and the legacy one of ids (``callpaths``)."""

    name = "json"

    @classmethod
    def sniff(cls, first: str) -> bool:
        return first.startswith(("{", "["))

    @classmethod
    def read(
        cls, path: str, text: str, *, metric: str | None = None, value: ValueChoice = None
    ) -> Measurements:
        data = _loads(text, path)
        if not isinstance(data, dict):
            raise MeasurementError(
                "expected Extra-P's JSON format "
                '{"parameters": [...], "measurements": {...}}',
                location=Location(path),
            )
        if "callpaths" in data:
            return _legacy(path, data, cls.name)
        return collected(path, data, cls.name, _point_and_values)


def _legacy(path: str, data: dict[str, Any], fmt: str) -> Measurements:
    """Extra-P's legacy JSON: ``parameters``, ``callpaths``, ``metrics`` and ``coordinates``
    listed with their ``id``, and ``measurements`` as one object per value naming the ids of
    its coordinate, call path and metric (values of the same three are repetitions)."""
    names = {key: _by_id(path, data, key, "name") for key in ("parameters", "callpaths", "metrics")}
    order = sorted(names["parameters"], key=_id_order)  # the coordinates' values by parameter id
    points: dict[Id, tuple[float, ...]] = {}
    for key, pairs in _by_id(path, data, "coordinates", "parameter_value_pairs").items():
        at = f"coordinates[id={key}].parameter_value_pairs"
        if not isinstance(pairs, list) or not all(isinstance(p, dict) for p in pairs):
            raise MeasurementError("expected a list of objects", location=Location(path, key=at))
        found = {_id(p.get("parameter_id")): p.get("parameter_value") for p in pairs}
        if sorted(found, key=_id_order) != order:
            raise MeasurementError(
                f"expected a value for each parameter id ({', '.join(map(str, order))})",
                location=Location(path, key=at),
            )
        points[key] = tuple(number(found[i], path, key=at) for i in order)
    collector = Collector(path, [str(names["parameters"][i]) for i in order])
    entries = data.get("measurements")
    if not isinstance(entries, list) or not entries:
        raise MeasurementError(
            "expected 'measurements': a non-empty list", location=Location(path, key="measurements")
        )
    for i, entry in enumerate(entries):
        at = f"measurements[{i}]"
        if not isinstance(entry, dict):
            raise MeasurementError("expected an object", location=Location(path, key=at))
        ids = []
        for field, known in (("coordinate_id", points), ("callpath_id", names["callpaths"]),
                             ("metric_id", names["metrics"])):  # fmt: skip
            if _id(entry.get(field)) not in known:
                raise MeasurementError(
                    f"'{field}' {_id_text(entry.get(field))} names no entry of its list",
                    location=Location(path, key=f"{at}.{field}"),
                )
            ids.append(entry[field])
        kernel, metric = str(names["callpaths"][ids[1]]), str(names["metrics"][ids[2]])
        with collector.reading(kernel, metric):
            value = measured(entry.get("value"), path, key=f"{at}.value")
            collector.add(kernel, metric, points[ids[0]], [value], 0)
    return collector.result(fmt)


#: an id of Extra-P's legacy JSON: a number or a name
Id = float | str


def _id(value: object) -> Id | None:
    """``value`` as an id (a number or a name), else None."""
    if isinstance(value, int | float | str) and not isinstance(value, bool):
        return value
    return None


def _id_order(value: Id | None) -> tuple[bool, float, str]:
    """How ids sort: numbers by value, then names."""
    return (isinstance(value, str), value if isinstance(value, int | float) else 0.0, str(value))


def _id_text(value: object) -> str:
    """An id as its file wrote it (JSON numbers are read as floats: 7.0 is shown 7)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"{value!r:.20}"


def _by_id(path: str, data: dict[str, Any], key: str, field: str) -> dict[Id, Any]:
    """``data[key]``, a list of objects with an ``id`` and ``field``, as id -> field."""
    entries = data.get(key)
    if not isinstance(entries, list) or not entries:
        raise MeasurementError(f"expected '{key}': a non-empty list", location=Location(path, key=key))
    found: dict[Id, Any] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or "id" not in entry or field not in entry:
            raise MeasurementError(
                f'expected {{"id": ..., "{field}": ...}}', location=Location(path, key=f"{key}[{i}]")
            )
        ident = _id(entry["id"])
        if ident is None:
            raise MeasurementError(
                f"an id is a number or a name, got {entry['id']!r:.20}",
                location=Location(path, key=f"{key}[{i}].id"),
            )
        if ident in found:
            raise MeasurementError(
                f"id {_id_text(ident)} listed twice", location=Location(path, key=f"{key}[{i}].id")
            )
        found[ident] = entry[field]
    return found


#: how one entry of Extra-P's measurements gives its point and its repetitions:
#: ``(path, entry, key, parameters) -> (point, values)``
#: reads one entry of Extra-P's document: its point, its values, and what a summary states of
#: the repetitions behind its one value (None: nothing)
EntryReader = Callable[[str, Any, str, int], tuple[tuple[float, ...], list[float], Stated | None]]


def collected(path: str, data: dict[str, Any], fmt: str, entry_of: EntryReader) -> Measurements:
    """The measurements of Extra-P's document ``data`` (``{"parameters": [...],
    "measurements": {kernel: {metric: [entry, ...]}}}``, as its JSON input and its saved
    experiments hold them), each entry read by ``entry_of``."""
    parameters = data.get("parameters")
    measurements = data.get("measurements")
    if not isinstance(parameters, list) or not all(isinstance(p, str) for p in parameters):
        raise MeasurementError("'parameters' must be a list of names", location=Location(path))
    if not isinstance(measurements, dict):
        raise MeasurementError("'measurements' must map kernels to metrics", location=Location(path))
    collector = Collector(path, parameters)
    for kernel, metrics in measurements.items():
        if not isinstance(metrics, dict) or not metrics:
            raise MeasurementError(
                f"expected metrics, got {metrics!r:.40}",
                location=Location(path, key=f"measurements.{kernel}"),
            )
        for name, entries in metrics.items():
            key = f"measurements.{kernel}.{name}"
            if not isinstance(entries, list) or not entries:
                raise MeasurementError(
                    "expected a non-empty list of points", location=Location(path, key=key)
                )
            for i, entry in enumerate(entries):
                with collector.reading(kernel, name):  # a bad entry leaves its series out
                    point, values, stated = entry_of(path, entry, f"{key}[{i}]", len(parameters))
                    collector.add(kernel, name, point, values, 0)
                    if stated is not None:
                        collector.state(kernel, name, point, stated)
    return collector.result(fmt)


def _point_and_values(
    path: str, entry: Any, key: str, parameters: int
) -> tuple[tuple[float, ...], list[float], None]:
    """An entry of Extra-P's JSON input: ``{"point": [...], "values": [...]}``."""
    if not isinstance(entry, dict) or "point" not in entry or "values" not in entry:
        raise MeasurementError(
            'expected {"point": [...], "values": [...]}', location=Location(path, key=key)
        )
    point = coordinates(entry["point"], path, f"{key}.point", parameters)
    return point, _values(entry["values"], path, key=f"{key}.values", convert=measured), None


def coordinates(value: object, path: str, key: str, parameters: int) -> tuple[float, ...]:
    """A point's coordinates, one per parameter."""
    point = tuple(_values(value, path, key=key))
    if len(point) != parameters:
        raise MeasurementError(
            f"{len(point)} coordinates for {parameters} parameters", location=Location(path, key=key)
        )
    return point


class JsonLinesReader(Reader):
    """JSON Lines: ``{"params": {...}, "callpath": ..., "metric": ..., "value": ...}``."""

    name = "jsonl"
    suffixes = (".jsonl",)
    #: the key of the point, and the defaults of callpath and metric (None: required)
    point_key = "params"
    defaults: dict[str, str | None] = {"callpath": "<root>", "metric": "<default>"}

    @classmethod
    def sniff(cls, first: str) -> bool:
        return first.startswith("{") and first.endswith("}") and '"params"' in first

    @classmethod
    def _object(cls, line: str) -> str:
        return line

    @classmethod
    def read(
        cls, path: str, text: str, *, metric: str | None = None, value: ValueChoice = None
    ) -> Measurements:
        required = [cls.point_key, *(k for k, d in cls.defaults.items() if d is None), "value"]
        collector: Collector | None = None
        parameters: list[str] = []
        for number_, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            data = _loads(cls._object(line), path, number_)
            if not isinstance(data, dict):
                raise MeasurementError("expected a JSON object", location=Location(path, number_))
            missing = [k for k in required if k not in data]
            if missing:
                raise MeasurementError(
                    f"missing property '{missing[0]}'", location=Location(path, number_)
                )
            point = data[cls.point_key]
            if not isinstance(point, dict) or not point:
                raise MeasurementError(
                    f"'{cls.point_key}' must map parameter names to values",
                    location=Location(path, number_),
                )
            if collector is None:
                parameters = list(point)
                collector = Collector(path, parameters)
            if sorted(point) != sorted(parameters):
                raise MeasurementError(
                    f"parameters {', '.join(point)} differ from the first "
                    f"line's {', '.join(parameters)}",
                    location=Location(path, number_),
                )
            kernel = data.get("callpath", cls.defaults["callpath"])
            name = data.get("metric", cls.defaults["metric"])
            if not isinstance(kernel, str) or not isinstance(name, str):
                raise MeasurementError(
                    "'callpath' and 'metric' must be strings", location=Location(path, number_)
                )
            with collector.reading(kernel, name):  # a bad line leaves its series out
                coords = tuple(number(point[p], path, number_) for p in parameters)
                values = _values(data["value"], path, number_, convert=measured)
                collector.add(kernel, name, coords, values, number_)
        if collector is None:
            raise MeasurementError("no measurements found", location=Location(path))
        return collector.result(cls.name)


class TalpasReader(JsonLinesReader):
    """TaLPas: ``{"parameters": {...}; "callpath": ...; "metric": ...; "value": ...}``."""

    name = "talpas"
    suffixes = (".talpas",)
    point_key = "parameters"
    defaults = {"callpath": None, "metric": None}

    @classmethod
    def sniff(cls, first: str) -> bool:
        return first.startswith("{") and '"parameters"' in first and ";" in first

    @classmethod
    def _object(cls, line: str) -> str:
        return line.replace(";", ",")
