"""Regular Extra-P text files read a batch of kernels at a time, as bytes: the fast path of ``fit``.

A text file is *regular* when a header of PARAMETER, POINTS and at most one METRIC line
(comments and blank lines allowed) is followed only by ``REGION name`` lines, each with one
``DATA`` line per point, every DATA line holding the same number of values, the region names
distinct and the points distinct. Extra-P writes such files, and
:func:`text_blocks` reads them a batch of kernels at a time (memory bounded by the batch,
not the file) into :class:`Block` s: the same numbers, names and lines that
:func:`~patternalg.measurements.read` gives (``Block.series`` builds its series). Anything
else raises :class:`Irregular`, before or while the blocks are read, and the caller reads
the file with :func:`~patternalg.measurements.read`, whose messages say what is wrong.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "m.txt")
>>> _ = open(path, "w").write("PARAMETER n\\nPOINTS 1 2 3\\nREGION sort\\nDATA 1 1.5\\n"
...     "DATA 2 2.5\\nDATA 3 3.5\\nREGION inc\\nDATA 1 1\\nDATA 2 2\\nDATA 3 3\\n")
>>> (block,) = text_blocks(path)
>>> block.kernels, block.values.shape, block.series()[1].lines
(('sort', 'inc'), (2, 3, 2), ((8, 8), (9, 9), (10, 10)))
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, NamedTuple

import fastnumbers
import numpy as np

from ..errors import PatternalgError
from .model import Series
from .names import split_unit
from .readers import sniff
from .text import _State

__all__ = ["Block", "Irregular", "Kernel", "text_blocks"]

#: characters that end a line for ``str.splitlines`` (the reference reader) but not for files
_OTHER_LINE_ENDS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_ASCII_LINE_ENDS = b"\x0b\x0c\x1c\x1d\x1e"


def _other_line_end(text: str | bytes) -> bool:
    """Whether ``text`` (or ASCII bytes) holds one of :data:`_OTHER_LINE_ENDS` (an ASCII
    text is searched for the five ASCII ones, each by a fast substring search: the regular
    expression scans a batch's megabytes character by character).

    >>> _other_line_end("DATA 1\\n"), _other_line_end(b"DATA 1\\x0c"), _other_line_end("\\u2028")
    (False, True, True)
    """
    if isinstance(text, bytes):
        return any(end in text for end in _ASCII_LINE_ENDS)
    if text.isascii():
        return any(chr(end) in text for end in _ASCII_LINE_ENDS)
    return _OTHER_LINE_ENDS.search(text) is not None


class Irregular(Exception):
    """The file is not a regular text file: read it with ``read``."""


class Kernel(NamedTuple):
    """What a fit needs to know of a series besides its numbers."""

    kernel: str
    metric: str
    parameters: tuple[str, ...]
    path: str
    unit: str | None


@dataclass(frozen=True, eq=False)
class Block:
    """Consecutive kernels of one file measured at the same points, as arrays.

    ``values[k, i, r]`` is repetition ``r`` of kernel ``kernels[k]`` at ``points[i]``;
    ``lines[k]`` is the line of kernel ``k``'s REGION (its DATA follow, one a point).
    """

    path: str
    parameters: tuple[str, ...]
    metric: str
    unit: str | None
    points: np.ndarray
    kernels: tuple[str, ...]
    values: np.ndarray
    lines: np.ndarray

    def __len__(self) -> int:
        return len(self.kernels)

    def series(self) -> list[Series]:
        """The :class:`Series` of these kernels, as ``read`` gives them."""
        count = self.values.shape[2]
        return [
            Series(
                kernel,
                self.metric,
                self.parameters,
                self.points.copy(),
                tuple(self.values[k]),
                tuple((int(line) + 1 + i,) * count for i in range(len(self.points))),
                self.path,
                self.unit,
            )
            for k, (kernel, line) in enumerate(zip(self.kernels, self.lines, strict=True))
        ]


def text_blocks(
    path: str | Path, batch: int = 10_000, format: str | None = None, *, chunk: int = 1 << 22
) -> Iterator[Block]:
    """The kernels of the regular text file ``path``, ``batch`` at a time (the file read
    ``chunk`` bytes at a time).

    Raises :class:`Irregular` (possibly after some blocks) if the file is not regular, or
    if ``read(path, format)`` would not read it as a text file.
    """
    name = str(path)
    if format not in (None, "text") or name == "-":
        raise Irregular
    try:
        handle = open(path, "rb")  # noqa: SIM115 (closed below)
    except OSError:
        raise Irregular from None
    with handle:
        try:
            state, header, number = _header(name, _text_lines(handle))
        except (PatternalgError, UnicodeDecodeError):
            raise Irregular from None
        if format is None and sniff(name, "".join(header)) != "text":
            raise Irregular
        parameters = tuple(state.parameters)
        points = np.array(state.points, dtype=float).reshape(len(state.points), len(parameters))
        width = len(points) + 1
        metric = state.metric.strip()
        seen: set[str] = set()
        lines = _lines(handle, header[-1].removesuffix("\n").encode(), batch * width, chunk)
        for part in lines:
            kernels, values = _batch(part, width, seen)
            yield Block(
                name,
                parameters,
                metric,
                split_unit(metric)[1],
                points,
                kernels,
                values,
                number + width * np.arange(len(kernels)),
            )
            number += width * len(kernels)


def _text_lines(handle: BinaryIO) -> Iterator[str]:
    """The lines of a binary file as text would give them (``utf-8-sig``, universal
    newlines); a lone carriage return (a line end there) raises :class:`Irregular`."""
    for number, line in enumerate(handle):
        text = line.decode("utf-8-sig" if number == 0 else "utf-8")
        if "\r" in text:
            text = text.replace("\r\n", "\n")
            if "\r" in text:
                raise Irregular
        yield text


def _lines(handle: BinaryIO, first: bytes, count: int, chunk: int) -> Iterator[list[bytes]]:
    """The lines after the header (``first`` then the rest of ``handle``), without their
    line ends, ``count`` at a time; the blank lines at the end of the file are dropped.
    CR LF ends a line as LF does; a lone CR raises :class:`Irregular`."""
    pending, tail, end = [first], b"", False
    while pending or not end:
        while len(pending) < count and not end:
            data = handle.read(chunk)
            if data.endswith(b"\r"):  # its LF may come next
                data += handle.read(1)
            end = not data
            text = tail + data
            if b"\r" in text:
                text = text.replace(b"\r\n", b"\n")
                if b"\r" in text:
                    raise Irregular
            pending += text.split(b"\n")
            tail = b"" if end else pending.pop()
        if end:
            while pending and not pending[-1].strip():
                pending.pop()
        part = pending[:count]
        del pending[:count]
        if part:
            yield part


def _header(path: str, lines: Iterator[str]) -> tuple[_State, list[str], int]:
    """The header read by the reference reader's rules, its lines up to the first REGION
    line, and that line's number."""
    state = _State(path)
    header = []
    for number, line in enumerate(lines, start=1):
        header.append(line)
        words = line.split()
        if words and words[0] == "REGION":
            regular = (
                state.parameters
                and state.points
                and len(set(state.points)) == len(state.points)
                and not _OTHER_LINE_ENDS.search(line)
            )
            if not regular:
                raise Irregular
            return state, header, number
        if _OTHER_LINE_ENDS.search(line) or (words and words[0] in ("DATA", "REGION")):
            raise Irregular
        if words and words[0] == "METRIC" and state.metric:
            raise Irregular  # several metrics: the reference names atoms after them
        state.feed(number, line)
    raise Irregular


def _batch(lines: list[bytes], width: int, seen: set[str]) -> tuple[tuple[str, ...], np.ndarray]:
    """Kernel names and values (K, points, repetitions) of whole REGION blocks ``lines``.

    The numbers are parsed by ``fastnumbers`` (correctly rounded, as ``float``; it reads
    no text that ``float`` does not, ``tests/test_scale.py`` checks), ASCII only.
    """
    if len(lines) % width:
        raise Irregular
    regions = lines[0::width]
    del lines[0::width]
    count = len(regions)
    try:
        region_text = b"\n".join(regions).decode("utf-8")
    except UnicodeDecodeError:
        raise Irregular from None
    data = b"\n".join(lines)
    regular = (
        region_text.startswith("REGION ")
        and region_text.count("\nREGION ") == count - 1
        and not _other_line_end(region_text)
        and data.startswith(b"DATA ")
        and data.count(b"\nDATA ") == len(lines) - 1
        and data.isascii()
        and not _other_line_end(data)
    )
    if not regular:
        raise Irregular
    kernels = tuple(" ".join(line.split()[1:]) for line in region_text.split("\n"))
    if "" in kernels or len(set(kernels)) != count or not seen.isdisjoint(kernels):
        raise Irregular  # the reference merges a region named twice, and rejects no name
    seen.update(kernels)
    # every line starts with the word DATA; if every (R+1)-th word is DATA and the others
    # are numbers, every line holds R numbers
    words = data.split()
    per_line, rest = divmod(len(words), len(lines))
    if rest or per_line < 2 or words[0::per_line].count(b"DATA") != len(lines):
        raise Irregular
    del words[0::per_line]
    try:
        values = fastnumbers.try_array(words, dtype=np.float64, on_fail=fastnumbers.RAISE)
    except (ValueError, TypeError):
        raise Irregular from None
    if not np.isfinite(values).all():
        raise Irregular
    return kernels, values.reshape(count, width - 1, per_line - 1)
