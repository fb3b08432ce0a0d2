"""Caliper profiles: ``.cali`` files (through ``caliper-reader``, the extra
``patternalg[profiles]``) and Caliper JSON (``cali-query``'s ``json-split``, as Hatchet reads
it, and its plain ``json``: a list of records, or an object with ``records`` and ``globals``).

Each record is one call path (``path``: its regions from the top; a record without one is
time outside every region) with its metric values; the run's globals (Adiak's metadata:
``mpi.world.size``, ``problem_size``, ...) are its metadata. A metric is named by its alias
where Caliper gives one (``Avg time/rank``, ``Max time/rank``, ``Min time/rank``, ``Total
time`` in a Spot profile) and its unit is Caliper's (``sec``: seconds); a metric whose name
says it is inclusive (``inclusive``, ``time (inc)``, ``Avg time/rank``) is taken as it is,
any other is exclusive (its inclusive values are summed from the call paths below). Records of the same call path are added (several ranks' records:
their total, with a note).

>>> rows = [{"path": ["main"], "avg#inclusive#sum#time.duration": 3.0},
...         {"path": ["main", "solve"], "avg#inclusive#sum#time.duration": 2.0}]
>>> profile = from_records("run.json", rows, {}, None)
>>> profile.metric, profile.unit, dict(profile.values)
('avg#inclusive#sum#time.duration', 's', {('main',): 3.0, ('main', 'solve'): 2.0})
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from .._internal.reading import read_text
from .._internal.surface import flag
from ..errors import Location, MeasurementError, close_names, did_you_mean
from .tree import ROOT, Path, Profile, inclusive_of, named_inclusive

__all__ = ["read_cali", "read_json", "from_records", "DEFAULT_METRIC", "caliper_reader"]

#: the metric taken where a profile has several (``--metric`` picks another)
DEFAULT_METRIC = "Avg time/rank"
#: Caliper's units of time -> patternalg's
_UNITS = {"sec": "s", "s": "s", "usec": "us", "us": "us", "msec": "ms", "ms": "ms", "nsec": "ns", "ns": "ns"}
#: the bytes read at a ``.cali`` file's end to find its last record
_TAIL = 1 << 20
#: the attributes that name a record's rank (a json-split of several ranks: the mean over them)
_RANKS = ("mpi.rank", "rank")
#: record fields that name where a value was measured, not a metric
_NOT_METRICS = {"path", "mpi.rank", "rank", "spot.channel", "function", "loop", "region", "mpi.function"}


def caliper_reader() -> Any:
    """The ``caliperreader`` module, or an error naming the extra that installs it."""
    try:
        import caliperreader
    except ImportError:
        raise MeasurementError(
            "reading Caliper .cali files needs caliper-reader, which is not installed: "
            "pip install 'patternalg[profiles]'"
        ) from None
    return caliperreader


def read_cali(path: str, metric: str | None = None) -> Profile:
    """One ``.cali`` profile (see the module)."""
    reader_module = caliper_reader()
    reader = reader_module.CaliperReader()
    _check_whole(str(path))
    try:
        reader.read(str(path))
    except Exception as exc:  # caliper-reader raises whatever its parser meets in a damaged file
        raise MeasurementError(
            f"cannot read the Caliper file: {exc or type(exc).__name__}", location=Location(str(path))
        ) from None
    described: dict[str, dict[str, Any]] = {}
    for name in reader.attributes():
        try:
            meta = reader.attribute(name).metadata()
        except Exception:  # an attribute without metadata is no metric
            continue
        if meta.get("is_value") and name not in _NOT_METRICS:
            described[name] = {"alias": meta.get("attribute.alias"), "unit": meta.get("attribute.unit")}
    rows = [
        (_path_of(record.get("path")), record)
        for record in reader.records
        if record.get("spot.channel", "regionprofile") == "regionprofile"  # not Spot's time series
    ]
    return _profile(str(path), rows, described, dict(reader.globals), metric)


def _check_whole(path: str) -> None:
    """An error if the ``.cali`` file is cut short: Caliper ends each record with a line end
    and the file with its globals record (``__rec=globals``), and caliper-reader reads a cut
    file's records up to the cut without a word (a run cut short lost most of its regions
    silently)."""
    try:
        with open(path, "rb") as stream:
            size = stream.seek(0, 2)
            stream.seek(max(size - _TAIL, 0))
            tail = stream.read()
    except OSError:
        return  # the reader says what it cannot read
    if not tail:
        return  # an empty recording: it records no metric
    if not tail.endswith(b"\n"):
        raise MeasurementError(
            "the file ends inside a record (cut short?): a Caliper file ends each record with a line end",
            location=Location(path),
        )
    body = tail.rstrip(b"\r\n")
    if b"\n" not in body and size > len(tail):
        return  # a last line longer than the tail read: not judged
    if not body.rsplit(b"\n", 1)[-1].startswith(b"__rec=globals"):
        raise MeasurementError(
            "the file ends before its globals record (cut short at a line end?): a Caliper "
            "file ends with __rec=globals",
            location=Location(path),
        )


def read_json(path: str, metric: str | None = None) -> Profile:
    """One Caliper JSON profile (see the module)."""
    try:
        document = json.loads(read_text(path))
    except RecursionError:
        raise MeasurementError(
            "cannot read the Caliper JSON: arrays and objects nested too deep",
            location=Location(str(path)),
        ) from None
    except (OSError, ValueError) as exc:
        raise MeasurementError(
            f"cannot read the Caliper JSON: {exc}", location=Location(str(path))
        ) from None
    if isinstance(document, dict) and {"data", "columns", "nodes"} <= set(document):
        return _json_split(str(path), document, metric)
    if isinstance(document, dict) and isinstance(document.get("records"), list):
        globals_ = document.get("globals")
        return from_records(str(path), document["records"], globals_ if isinstance(globals_, dict) else {}, metric)
    if isinstance(document, list):
        return from_records(str(path), document, {}, metric)
    raise MeasurementError(
        "not a Caliper JSON profile (json-split: data, columns, nodes; or json: a list of "
        "records with a path)",
        location=Location(str(path)),
    )


def from_records(
    source: str, records: Iterable[Any], metadata: Mapping[str, Any], metric: str | None
) -> Profile:
    """A profile of plain records (dicts with ``path``, a list or ``a/b/c``, and numbers)."""
    rows: list[tuple[Path, Mapping[str, Any]]] = []
    described: dict[str, dict[str, Any]] = {}
    for number, record in enumerate(records):
        if not isinstance(record, dict):
            raise MeasurementError(f"record {number} is not an object", location=Location(source))
        rows.append((_path_of(record.get("path")), record))
        for key, value in record.items():
            if key not in _NOT_METRICS and isinstance(value, int | float) and not isinstance(value, bool):
                described.setdefault(key, {"alias": None, "unit": None})
    return _profile(source, rows, described, metadata, metric)


def _json_split(source: str, document: Mapping[str, Any], metric: str | None) -> Profile:
    """``cali-query -q '... format json-split'`` (what Hatchet's ``from_caliper`` reads)."""
    columns = _items_of(source, document, "columns", str, "a list of column names")
    nodes = _items_of(source, document, "nodes", dict, "a list of node objects")
    data = _items_of(source, document, "data", list, "a list of rows (lists)")
    meta = _items_of(source, document, "column_metadata", dict, "a list of objects, one per column")
    where = "path" if "path" in columns else "source.function#callpath.address"
    if where not in columns:
        raise MeasurementError(
            "json-split without a path column (path or source.function#callpath.address)",
            location=Location(source),
        )
    paths: list[Path] = []
    for node in nodes:  # parents come before their children
        parent = node.get("parent")
        above = paths[parent] if isinstance(parent, int) and 0 <= parent < len(paths) else ()
        paths.append((*above, str(node.get("label", ""))) if node.get("column") == where else ())
    meta = meta or [{}] * len(columns)
    described = {
        name: {"alias": m.get("attribute.alias"), "unit": m.get("attribute.unit")}
        for name, m in zip(columns, meta, strict=False)
        if m.get("is_value") and name not in _NOT_METRICS
    }
    rows = []
    for row in data:
        record = dict(zip(columns, row, strict=False))
        at = record.get(where)
        rows.append((paths[at] if isinstance(at, int) and 0 <= at < len(paths) else ROOT, record))
    metadata = {k: v for k, v in document.items() if k not in ("data", "columns", "column_metadata", "nodes")}
    return _profile(source, rows, described, metadata, metric)


def _items_of(source: str, document: Mapping[str, Any], key: str, kind: type, what: str) -> list[Any]:
    """``document[key]`` as a list of ``kind`` (empty if absent), or an error naming the key."""
    value = document.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, kind) for item in value):
        raise MeasurementError(f"json-split: {key!r} is not {what}", location=Location(source))
    return value


def _path_of(value: Any) -> Path:
    if value is None:
        return ROOT
    if isinstance(value, str):
        return tuple(part for part in value.split("/") if part)
    return tuple(str(part) for part in value)


def _profile(
    source: str,
    rows: Sequence[tuple[Path, Mapping[str, Any]]],
    described: Mapping[str, Mapping[str, Any]],
    metadata: Mapping[str, Any],
    metric: str | None,
) -> Profile:
    """The profile of ``rows`` in the metric chosen among ``described``."""
    key, name = _chosen(source, described, metric)
    sums: dict[Path, float] = {}
    counts: dict[Path, int] = {}
    ranks = {record[r] for _, record in rows for r in _RANKS if record.get(r) is not None}
    for path, record in rows:
        value = record.get(key)
        if value is None:
            continue
        number = _number(value)
        if number is None:
            raise MeasurementError(
                f"call path {'/'.join(path) or '(outside every region)'}: {name} is {value!r}, not "
                "a number",
                location=Location(source),
            )
        sums[path] = sums.get(path, 0.0) + number
        counts[path] = counts.get(path, 0) + 1
    if not sums:
        raise MeasurementError(f"no record has a value of {name}", location=Location(source))
    if len(ranks) > 1:  # the mean over the run's ranks, a rank without the path 0 (as Cube's)
        sums = {path: v / len(ranks) for path, v in sums.items()}
    values: dict[Path, float] = sums
    if not (named_inclusive(key) or named_inclusive(name)):
        inside = {path: np.array([v]) for path, v in sums.items() if path}
        values = {path: float(v[0]) for path, v in inclusive_of(inside).items()}
        if ROOT in sums:
            values[ROOT] = sums[ROOT]
    unit = _UNITS.get(str(described[key].get("unit") or "sec").lower())
    if unit is None:
        raise MeasurementError(
            f"the metric {name} is in {described[key].get('unit')!r}, not a unit of time",
            location=Location(source),
        )
    meta = {str(k): v if isinstance(v, str) else json.dumps(v) for k, v in metadata.items()}
    several = sum(1 for c in counts.values() if c > 1)
    how = f"the mean over the {len(ranks)} ranks" if len(ranks) > 1 else "added"
    notes = (
        (f"{source}: {several} call path{'s' if several != 1 else ''} with several records (ranks, "
         f"or other attributes): their values of {name} {how}",) if several else ()
    )  # fmt: skip
    return Profile(source, values, meta, name, unit, notes=notes)


def _chosen(source: str, described: Mapping[str, Mapping[str, Any]], metric: str | None) -> tuple[str, str]:
    """The key and the name of the metric asked for (by alias or name), else the default."""
    names = {str(d.get("alias") or key): key for key, d in described.items()}
    if metric is None:
        if DEFAULT_METRIC in names:
            return names[DEFAULT_METRIC], DEFAULT_METRIC
        times = [n for n in names if "time" in n]
        if len(times) == 1 or len(names) == 1:
            chosen = times[0] if times else next(iter(names))
            return names[chosen], chosen
    elif metric in names:
        return names[metric], metric
    elif metric in described:
        return metric, metric
    if not names:  # an empty recording: nothing to choose from
        raise MeasurementError("the profile records no metric (no region was measured)", location=Location(source))
    valid = ", ".join(f"'{n}'" for n in names)
    what = f"no metric '{metric}'" if metric is not None else f"several metrics: choose one with {flag('metric')}"
    hint = did_you_mean(close_names(metric, list(names)) if metric else [], quote="'", before="; ")
    raise MeasurementError(f"{what} (the profile has: {valid}){hint}", location=Location(source))


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None
