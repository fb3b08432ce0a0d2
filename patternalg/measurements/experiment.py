"""Extra-P's saved experiments (``extrap ... --save-experiment FILE.extra-p``, or the GUI's
*Save experiment*): a ZIP archive holding ``experiment.json``, whose measurements are laid
out as in Extra-P's JSON input, each point with its statistics.

A point's repetitions are read where the experiment kept them (``--keep-values``: arrays in
the archive's ``values/`` files, read as plain numbers, never unpickled); otherwise its
median is its one value, with a note. Extra-P's own models in the experiment are notes
beside ours (``fit`` makes its own). Read from its path (a binary file), recognised by the
``.extra-p`` suffix or the ZIP signature.

>>> data = {"modelers": [{"name": "Default", "models": {"sort": {"time": {"hypothesis": {
...     "function": {"constant_coefficient": 2.5, "compound_terms": [{"coefficient": 0.125,
...     "simple_terms": [{"term_type": "polynomial", "exponent": "1"},
...                      {"term_type": "logarithm", "exponent": 1.0}]}]}}}}}}]}
>>> own_models(data, ("x",))
["Extra-P's own model of sort (time), 'Default': 2.5 + 0.125*x*log2(x)"]
"""

from __future__ import annotations

import io
import os
import stat
import struct
import sys
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

import numpy as np

from .._internal.limits import MAX_FILE_BYTES
from .._internal.reading import TooLarge, check_size, read_stream
from ..errors import Location, MeasurementError, reason
from ..syntax.arith import number_text
from .base import STDIN, PathReader, measured
from .json import _loads, collected, coordinates
from .model import Measurements, Stated

__all__ = ["ExtrapExperimentReader"]

#: the first bytes of a ZIP archive
ZIP_SIGNATURE = b"PK\x03\x04"
#: what the first bytes of an experiment of Extra-P 3 (a binary format) hold
EXTRAP3_MAGIC = b"EXTRAP_EXPERIMENT"
#: the archive member that holds the experiment
EXPERIMENT = "experiment.json"
#: the first bytes of the archive's value and index files
VALUES_MAGIC, INDEX_MAGIC = b"Extra-P VALUES\0\0", b"Extra-P INDEX\0\0\0"
#: the value types a point's repetitions may be stored as (numpy kinds)
NUMERIC_KINDS = "fiu"


def _archive(path: str | Path) -> str | Path | IO[bytes]:
    """What to open the archive from: a regular file's path, or standard input's bytes
    (``-``, bounded); an error for a FIFO or a device (a FIFO without a writer would block)."""
    if str(path) == "-":
        if not hasattr(sys.stdin, "buffer"):  # replaced by a text stream
            raise MeasurementError(
                "an Extra-P experiment is a ZIP archive: standard input gives text", location=Location(STDIN)
            )
        return io.BytesIO(read_stream(sys.stdin.buffer, text=False))
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise MeasurementError(
            "an Extra-P experiment is read from a file (a ZIP archive) or standard input, not a "
            "stream", location=Location(str(path)),
        )  # fmt: skip
    check_size(path)
    return path


def _head(path: str | Path) -> bytes:
    """The first bytes of a regular file (none of anything else: a FIFO would block an
    open(), a device is no archive; the text reader says why it cannot be read)."""
    try:
        if not os.path.isfile(path):
            return b""
        with open(path, "rb") as handle:
            return handle.read(32)
    except (OSError, ValueError):
        return b""


class ExtrapExperimentReader(PathReader):
    """A ``.extra-p`` experiment, read from its path."""

    name = "extra-p"
    suffixes = (".extra-p",)

    @classmethod
    def claims(cls, path: str | Path, format: str | None) -> bool:
        """Whether ``path`` is to be read as a saved Extra-P experiment: ``format`` says so,
        else its suffix or its first bytes do. An experiment of Extra-P 3 (binary) is an
        error saying how Extra-P 4 converts it."""
        if format is not None or str(path) == "-":
            return format == cls.name
        if Path(str(path)).suffix.lower() in cls.suffixes:
            return True
        head = _head(path)
        if EXTRAP3_MAGIC in head:
            raise MeasurementError(
                "an experiment of Extra-P 3 (binary), which patternalg does not read: Extra-P 4 "
                f"converts it (extrap --extra-p-3 {path} --save-experiment e.extra-p), and "
                "patternalg reads that",
                location=Location(str(path)),
            )
        return head.startswith(ZIP_SIGNATURE)

    @classmethod
    def read_path(
        cls, path: str | Path, *, metric: str | None = None, scaling: str | None = None
    ) -> Measurements:
        """The measurements of the experiment saved at ``path`` (only ``metric``'s where
        given; an experiment has no ``scaling``)."""
        name = STDIN if str(path) == "-" else str(path)
        try:
            with zipfile.ZipFile(_archive(path)) as archive:
                data = _loads(_member(archive, EXPERIMENT, name).decode("utf-8"), name)
                if not isinstance(data, dict):
                    raise MeasurementError(
                        f"expected an object in {EXPERIMENT}", location=Location(name)
                    )
                kept = _Values(archive, name)
                ms = collected(name, data, cls.name, kept.point_and_values)
                ms = replace(ms, notes=(*ms.notes, *own_models(data, ms.parameters)))
        except MeasurementError:
            raise
        # what a damaged archive raises: a bad header, bad deflate data, a method or an
        # encryption zipfile cannot undo, a member cut short, text that is not UTF-8
        except (OSError, zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError,
                EOFError, ValueError) as exc:  # fmt: skip
            raise MeasurementError(
                f"cannot read an Extra-P experiment (a ZIP archive holding {EXPERIMENT}): "
                f"{reason(exc)}",
                location=Location(name),
            ) from None
        if kept.medians:
            note = (
                f"{kept.medians} point(s) saved without their repetitions (extrap "
                "--keep-values keeps them): each one's median is its one value"
                + (", its std and repetitions its spread" if any(s.stated for s in ms) else "")
            )
            ms = replace(ms, notes=(*ms.notes, note))
        return ms.select(metric=metric) if metric else ms


#: at most this many of Extra-P's own models are shown, one note each
MAX_OWN_MODELS = 12


def own_models(data: dict[str, Any], parameters: Sequence[str]) -> list[str]:
    """Notes showing the models Extra-P made and saved in the experiment (at most
    :data:`MAX_OWN_MODELS`, then how many more), each as Extra-P's functions read: a
    constant and terms of ``p^i*log2(p)^j`` per parameter; a model of another shape is
    counted, not shown."""
    shown: list[str] = []
    more = 0
    modelers = data.get("modelers")
    for modeler in modelers if isinstance(modelers, list) else []:
        models = modeler.get("models") if isinstance(modeler, dict) else None
        for callpath, metrics in (models or {}).items() if isinstance(models, dict) else ():
            for metric, model in metrics.items() if isinstance(metrics, dict) else ():
                text = _function_text(model, parameters)
                if text is None or len(shown) >= MAX_OWN_MODELS:
                    more += 1
                    continue
                shown.append(f"Extra-P's own model of {callpath} ({metric}), '{modeler.get('name')}': {text}")
    if more:
        shown.append(f"{more} more of Extra-P's own models in the experiment (extrap --experiment FILE --print all shows them)")
    return shown


def _function_text(model: object, parameters: Sequence[str]) -> str | None:
    """An Extra-P function as text (4 significant digits), None if it is not one we read."""
    try:
        function = model["hypothesis"]["function"]  # type: ignore[index]
        parts = [number_text(float(function["constant_coefficient"]), 4)]
        for term in function["compound_terms"]:
            pairs = term.get("parameter_term_pairs") or {"0": term}  # one parameter: its terms
            factors = [number_text(float(term["coefficient"]), 4)]
            for index, pair in pairs.items():
                if not 0 <= int(index) < len(parameters):
                    return None
                name = parameters[int(index)]
                for simple in pair["simple_terms"]:
                    exponent = Fraction(str(simple["exponent"]))
                    if exponent.denominator > 1000 or abs(exponent) > 1000:
                        return None
                    base = name if simple["term_type"] == "polynomial" else f"log2({name})"
                    if simple["term_type"] not in ("polynomial", "logarithm"):
                        return None
                    power = "" if exponent == 1 else f"**{exponent}" if exponent.denominator == 1 else f"**({exponent})"
                    factors.append(base + power)
            parts.append("*".join(factors))
    except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError, AttributeError, OverflowError):
        return None
    return " + ".join(parts)


def _member(archive: zipfile.ZipFile, member: str, path: str) -> bytes:
    """The bytes of an archive member, bounded by :data:`MAX_FILE_BYTES` as it unpacks."""
    try:
        info = archive.getinfo(member)
    except KeyError:
        raise MeasurementError(
            f"no {member} in the archive (an Extra-P experiment holds one)",
            location=Location(path),
        ) from None
    if info.file_size > MAX_FILE_BYTES:
        raise TooLarge(MAX_FILE_BYTES)
    with archive.open(info) as handle:
        found = handle.read(MAX_FILE_BYTES + 1)
    if len(found) > MAX_FILE_BYTES:
        raise TooLarge(MAX_FILE_BYTES)
    return found


class _Values:
    """The repetitions an experiment kept, read from its ``values/`` files as entries ask."""

    def __init__(self, archive: zipfile.ZipFile, path: str) -> None:
        self.archive, self.path = archive, path
        self.chunks: dict[int, tuple[bytes, list[int]]] = {}  # chunk -> (values, offsets)
        self.medians = 0  # points read as their median

    def point_and_values(
        self, path: str, entry: Any, key: str, parameters: int
    ) -> tuple[tuple[float, ...], list[float], Stated | None]:
        """An entry of the experiment: its coordinate, and its kept values (else its median,
        with the standard deviation and the repetitions its statistics state)."""
        if not isinstance(entry, dict) or "coordinate" not in entry:
            raise MeasurementError(
                'expected {"coordinate": [...], "median": ..., ...}', location=Location(path, key=key)
            )
        point = coordinates(entry["coordinate"], path, f"{key}.coordinate", parameters)
        where = entry.get("values")
        if where is None:
            if "median" not in entry:
                raise MeasurementError("no values and no median", location=Location(path, key=key))
            self.medians += 1
            median = measured(entry["median"], path, key=f"{key}.median")
            found = Stated.of(entry.get("std"), entry.get("repetitions"))
            return point, [median], found and found.below(median, entry.get("minimum"))
        return point, self._kept(where, f"{key}.values"), None

    def _kept(self, where: object, key: str) -> list[float]:
        """The values an entry's ``[chunk, index]`` points at."""
        whole = [_whole(v) for v in where] if isinstance(where, list) else []
        if len(whole) != 2 or None in whole:
            raise MeasurementError(
                f"expected [chunk, index] of the kept values, got {where!r:.40}",
                location=Location(self.path, key=key),
            )
        chunk, index = int(whole[0]), int(whole[1])  # type: ignore[arg-type]
        values, offsets = self._chunk(chunk, key)
        if index >= len(offsets):
            raise MeasurementError(
                f"value index {index} beyond the {len(offsets)} of values/{chunk}.indx",
                location=Location(self.path, key=key),
            )
        end = offsets[index + 1] if index + 1 < len(offsets) else len(values)
        array = _array(values, offsets[index], end, f"values/{chunk}.vals", self.path, key)
        if array.size == 0:
            raise MeasurementError("no kept values", location=Location(self.path, key=key))
        return [measured(float(v), self.path, key=key) for v in array.ravel()]

    def _chunk(self, chunk: int, key: str) -> tuple[bytes, list[int]]:
        """A chunk's values file and the offsets of its arrays (read once)."""
        if chunk not in self.chunks:
            index = _member(self.archive, f"values/{chunk}.indx", self.path)
            values = _member(self.archive, f"values/{chunk}.vals", self.path)
            if not index.startswith(INDEX_MAGIC) or not values.startswith(VALUES_MAGIC):
                raise MeasurementError(
                    f"values/{chunk}: not Extra-P's value files", location=Location(self.path, key=key)
                )
            head = len(INDEX_MAGIC)
            try:
                (count,) = struct.unpack_from("<Q", index, head)
                offsets = list(struct.unpack_from(f"<{count}Q", index, head + 8))
            except struct.error:
                raise MeasurementError(
                    f"values/{chunk}.indx is cut short", location=Location(self.path, key=key)
                ) from None
            self.chunks[chunk] = (values, offsets)
        return self.chunks[chunk]


def _whole(value: object) -> int | None:
    """``value`` as a whole number >= 0 (JSON reads it as a float), else None."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        if 0 <= value < 2**62 and float(value).is_integer():
            return int(value)
    return None


def _array(data: bytes, start: int, end: int, member: str, path: str, key: str) -> np.ndarray:
    """The numeric array stored (in numpy's ``.npy`` layout) at ``data[start:end]``; its
    header is read first, so a declared shape larger than the bytes there is refused before
    anything is allocated, and an object array (a pickle) is never loaded."""
    handle: IO[bytes] = io.BytesIO(data[start:end] if 0 <= start <= end <= len(data) else b"")
    try:
        version = np.lib.format.read_magic(handle)
        read_header = (
            np.lib.format.read_array_header_1_0
            if version == (1, 0)
            else np.lib.format.read_array_header_2_0
        )
        shape, fortran, dtype = read_header(handle)
    except (ValueError, OSError, SyntaxError, TypeError) as exc:
        raise MeasurementError(
            f"{member}: not an array at byte {start} ({reason(exc)})", location=Location(path, key=key)
        ) from None
    count = int(np.prod(shape, dtype=np.int64)) if shape else 1
    body = handle.read()
    if dtype.kind not in NUMERIC_KINDS or dtype.hasobject or count * dtype.itemsize > len(body):
        raise MeasurementError(
            f"{member}: expected {count} numbers at byte {start}, found {dtype} in {len(body)} bytes",
            location=Location(path, key=key),
        )
    return np.frombuffer(body, dtype=dtype, count=count)
