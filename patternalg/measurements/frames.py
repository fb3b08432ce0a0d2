"""Measurements as a long pandas DataFrame (one row a repetition) and back.

The columns are ``kernel``, ``metric``, the parameters, the value column (named as the
measurements name it), ``unit`` and ``line`` (the source line, 0 where unknown), and where a
summary states the repetitions behind a value (:class:`~patternalg.measurements.Stated`),
``stated_deviation`` and ``stated_count`` (NaN on the other rows; read back as pairs); the
frame's ``attrs`` keep the rest (source, format, ...), so that reading a frame made by
:func:`to_frame` gives equal measurements. This module builds plain data; the
:class:`~patternalg.measurements.Measurements` methods build the objects.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._internal.frames import pandas
from ..errors import Location, MeasurementError
from .cells import number
from .names import split_unit, summary_columns

__all__ = ["to_frame", "from_frame", "SOURCE"]

#: how measurements made from a DataFrame name their source
SOURCE = "<dataframe>"
#: the columns every long frame has beside the parameters and the value
TEXT_COLUMNS = ("kernel", "metric")
EXTRA_COLUMNS = ("unit", "line")
#: the columns of what summaries state, where some do
STATED_COLUMNS = ("stated_deviation", "stated_count")


def to_frame(ms: Any) -> Any:
    """The long DataFrame of measurements ``ms`` (:class:`Measurements`)."""
    pd = pandas()
    value = ms.value_name
    summarised = any(s.stated for s in ms)
    names = [*TEXT_COLUMNS, *ms.parameters, value, *EXTRA_COLUMNS, *(STATED_COLUMNS if summarised else ())]
    if len(set(names)) < len(names):
        raise MeasurementError(
            f"columns {', '.join(names)} repeat a name: a DataFrame needs distinct columns",
            location=Location(ms.path),
        )
    counts = [len(v) for s in ms for v in s.values]
    points = (
        np.concatenate([np.repeat(s.points, [len(v) for v in s.values], axis=0) for s in ms])
        if counts
        else np.empty((0, len(ms.parameters)))
    )
    columns: dict[str, Any] = {
        "kernel": [s.kernel for s in ms for v in s.values for _ in v],
        "metric": [s.metric for s in ms for v in s.values for _ in v],
    }
    for i, name in enumerate(ms.parameters):
        columns[name] = points[:, i].astype(float)
    columns[value] = np.concatenate([s.repetitions() for s in ms]) if counts else []
    columns["unit"] = [s.unit for s in ms for v in s.values for _ in v]
    columns["line"] = np.array([n for s in ms for ls in s.lines for n in ls], dtype=np.int64)
    if summarised:
        said = [st for s in ms for v, st in zip(s.values, s.stated or [None] * len(s.values), strict=True) for _ in v]
        columns["stated_deviation"] = [math.nan if st is None else st.deviation for st in said]
        columns["stated_count"] = [math.nan if st is None else float(st.count) for st in said]
    frame = pd.DataFrame(columns, columns=names)
    frame.attrs.update(
        path=ms.path,
        format=ms.format,
        parameters=list(ms.parameters),
        value_name=value,
        unit=ms.unit,
        columns=list(ms.columns),
        line=ms.line,
        notes=list(ms.notes),
    )
    return frame


def from_frame(
    frame: Any,
    parameters: Sequence[str] | None,
    value: str | None,
    kernel: str,
    metric: str,
    unit: str | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The keyword arguments of the :class:`Measurements` in ``frame``, and of its series;
    ``unit``: the values' unit, which the frame's own (its ``unit`` column, the value column's
    name) may not contradict."""
    pd = pandas()
    if not isinstance(frame, pd.DataFrame):
        raise MeasurementError(
            f"expected a pandas DataFrame, got {type(frame).__name__}", location=Location(SOURCE)
        )
    attrs = frame.attrs
    path = str(attrs.get("path", SOURCE))
    names = list(parameters if parameters is not None else attrs.get("parameters", ()))
    value = value if value is not None else attrs.get("value_name")
    columns = [str(c) for c in frame.columns]
    if value is None:
        raise MeasurementError(
            f"say which column holds the values: value=... (columns: {', '.join(columns)})",
            location=Location(path),
        )
    if not names:
        raise MeasurementError(
            f"say which columns are parameters: parameters=[...] (columns: {', '.join(columns)})",
            location=Location(path),
        )
    for name in [*names, value]:
        if name not in columns:
            raise MeasurementError(
                f"no column '{name}' (columns: {', '.join(columns)})", location=Location(path)
            )
    numbers = {name: _numbers(frame, name, path) for name in names}
    count = len(frame)
    if not count:
        raise MeasurementError(
            "no measurements found (the DataFrame is empty)", location=Location(path)
        )
    kernels = _texts(frame, kernel, "kernel", path, name=True)
    metrics = _texts(frame, metric, value, path)
    numbers[value], bad = _cells(frame, value, path)
    rejected: dict[tuple[str, str], MeasurementError] = {}
    for i, error in bad:  # a value that is none leaves its series out, as in a CSV file
        rejected.setdefault((kernels[i], metrics[i]), error)
    if rejected and len(rejected) == len(set(zip(kernels, metrics, strict=True))):
        raise next(iter(rejected.values()))  # nothing else to read
    units = list(frame["unit"]) if "unit" in columns else [None] * count
    lines = [int(n) for n in _numbers(frame, "line", path)] if "line" in columns else [0] * count
    points = np.column_stack([numbers[n] for n in names])
    grouped: dict[tuple[str, str], dict[tuple[float, ...], tuple[list[float], list[int]]]] = {}
    first_unit: dict[tuple[str, str], Any] = {}
    said = _stated_rows(frame, columns, count, value)
    stated_at: dict[tuple[str, str], dict[tuple[float, ...], tuple[float, float]]] = {}
    for i, key in enumerate(zip(kernels, metrics, strict=True)):
        if key in rejected:
            continue
        point = tuple(points[i].tolist())
        found, at = grouped.setdefault(key, {}).setdefault(point, ([], []))
        found.append(float(numbers[value][i]))
        at.append(lines[i])
        first_unit.setdefault(key, units[i])
        pair = said[i]
        if pair is not None:
            stated_at.setdefault(key, {})[point] = pair
    if unit is not None:
        unit = _check_unit(unit, {_text_or_none(u) for u in first_unit.values()} | {split_unit(value)[1]}, path)
        first_unit = dict.fromkeys(first_unit, unit)
    series = [
        {
            "kernel": k,
            "metric": m,
            "parameters": tuple(names),
            "points": np.array(list(by_point), dtype=float).reshape(len(by_point), len(names)),
            "values": tuple(np.array(v, dtype=float) for v, _ in by_point.values()),
            "lines": tuple(tuple(ls) for _, ls in by_point.values()),
            "path": path,
            "unit": _text_or_none(first_unit[(k, m)]) or split_unit(m)[1],
            "stated": tuple(stated_at[(k, m)].get(p) for p in by_point) if (k, m) in stated_at else (),
        }
        for (k, m), by_point in grouped.items()
    ]
    shared = {s["unit"] for s in series}
    measurements = {
        "path": path,
        "format": str(attrs.get("format", "dataframe")),
        "parameters": tuple(names),
        "value_name": value,
        "unit": attrs.get("unit", shared.pop() if len(shared) == 1 else None),
        "columns": tuple(attrs.get("columns", columns)),
        "line": int(attrs.get("line", 0)),
        "notes": tuple(attrs.get("notes", ())),
        "left_out": tuple((k, m, error) for (k, m), error in rejected.items()),
    }
    return measurements, series


def _stated_rows(frame: Any, columns: Sequence[str], count: int, value: str) -> list[tuple[Any, Any] | None]:
    """Each row's ``stated_deviation`` and ``stated_count`` (None without them, or where
    they are NaN: a row no summary states); else, where the value column is a summary's
    (``time_mean`` beside ``time_std`` and ``time_count``, as a CSV file names them:
    :func:`~patternalg.measurements.names.summary_columns`), its spread and count columns'."""
    if all(c in columns for c in STATED_COLUMNS):
        pairs = zip(frame["stated_deviation"], frame["stated_count"], strict=True)
        return [None if d != d and c != c else (d, c) for d, c in pairs]  # NaN != NaN
    named = {c.lower(): c for c in columns}
    found = summary_columns(tuple(named)).get(value.lower())
    if found is None or found.repetitions is None:
        return [None] * count
    return list(zip(frame[named[found.spread]], frame[named[found.repetitions]], strict=True))


def _check_unit(unit: Any, stated: set[str | None], path: str) -> str:
    """``unit=`` of :func:`from_frame` as checked: a unit pint reads, and not another than
    the frame states."""
    from ..algebra.units import check_unit

    if not isinstance(unit, str):
        raise MeasurementError(f"unit={unit!r}: expected a unit's name such as 's' or 'ms'", location=Location(path))
    unit = check_unit(unit, "unit=")
    other = sorted(u for u in stated - {None, unit} if u)
    if other:
        raise MeasurementError(
            f"unit={unit!r} contradicts the frame's unit {other[0]!r} (its unit column or the "
            "value column's name): drop unit=, or the frame's",
            location=Location(path),
        )
    return unit


def _numbers(frame: Any, name: str, path: str) -> np.ndarray:
    """A column's finite floats; an error naming the first row that is not one."""
    values, bad = _cells(frame, name, path)
    if bad:
        raise bad[0][1]
    return values


def _cells(frame: Any, name: str, path: str) -> tuple[np.ndarray, list[tuple[int, MeasurementError]]]:
    """A column's floats, and the position and error of each cell that is no finite number
    (its row named by its index label), said as a CSV file's cell is
    (:func:`~patternalg.measurements.cells.number`); a missing one (NaN, None, ``pd.NA``)
    says what would do."""
    column = frame[name]
    try:
        values = np.array(column, dtype=float)
    except (TypeError, ValueError):
        values = np.full(len(column), math.nan)
    if np.isfinite(values).all():
        return values, []
    missing = pandas().isna(column).tolist()
    bad = []
    for i, (index, cell) in enumerate(zip(frame.index, column, strict=True)):
        row = f"row {index}"
        if missing[i]:
            shown = "NaN" if isinstance(cell, float) else f"{cell!r:.10}"
            error = MeasurementError(
                f"column '{name}': {shown} is a missing value: give every row a finite number, or leave out "
                f"the rows without one (df.dropna(subset=[{name!r}]))",
                location=Location(path, key=row),
            )
            bad.append((i, error))
            continue
        try:
            values[i] = number(cell.item() if isinstance(cell, np.generic) else cell, path, key=row, column=name)
        except MeasurementError as error:
            bad.append((i, error))
    return values, bad


def _texts(frame: Any, column: str, default: str, path: str, *, name: bool = False) -> list[str]:
    """A text column's cells (strings; non-empty if they are ``name``s), or ``default``
    on every row."""
    if column not in frame.columns:
        return [default] * len(frame)
    cells = list(frame[column])
    for index, cell in zip(frame.index, cells, strict=True):
        if not isinstance(cell, str) or (name and not cell.strip()):
            raise MeasurementError(
                f"column '{column}': expected a name, got {cell!r:.40}",
                location=Location(path, key=f"row {index}"),
            )
    return cells


def _text_or_none(cell: Any) -> str | None:
    return cell if isinstance(cell, str) else None
