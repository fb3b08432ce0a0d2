"""Regular Extra-P text files, read in batches of kernels with numpy: the fast path of ``fit``.

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

import io
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..errors import PatternalgError
from .model import Series
from .names import split_unit
from .readers import sniff
from .text import _State

__all__ = ["Block", "Irregular", "Kernel", "text_blocks"]

#: characters that end a line for ``str.splitlines`` (the reference reader) but not for files
_OTHER_LINE_ENDS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def _other_line_end(text: str) -> bool:
    """Whether ``text`` holds one of :data:`_OTHER_LINE_ENDS` (an ASCII text is searched
    for the five ASCII ones, each by a fast substring search: the regular expression scans
    a batch's megabytes character by character).

    >>> _other_line_end("DATA 1\\n"), _other_line_end("DATA 1\\x0c"), _other_line_end("\\u2028")
    (False, True, True)
    """
    if text.isascii():
        return (
            "\x0b" in text or "\x0c" in text or "\x1c" in text or "\x1d" in text or "\x1e" in text
        )
    return _OTHER_LINE_ENDS.search(text) is not None


class Irregular(Exception):
    """The file is not a regular text file: read it with ``read``."""


class Kernel(NamedTuple):
    """What a fit needs to know of a series besides its numbers."""

    kernel: str
    metric: str
    parameters: tuple[str, ...]
    path: str


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
            )
            for k, (kernel, line) in enumerate(zip(self.kernels, self.lines, strict=True))
        ]


def text_blocks(
    path: str | Path, batch: int = 10_000, format: str | None = None
) -> Iterator[Block]:
    """The kernels of the regular text file ``path``, ``batch`` at a time.

    Raises :class:`Irregular` (possibly after some blocks) if the file is not regular, or
    if ``read(path, format)`` would not read it as a text file.
    """
    name = str(path)
    if format not in (None, "text") or name == "-":
        raise Irregular
    try:
        handle = open(path, encoding="utf-8-sig")  # noqa: SIM115 (closed below)
    except OSError:
        raise Irregular from None
    with handle:
        try:
            state, header, number = _header(name, handle)
        except (PatternalgError, UnicodeDecodeError):
            raise Irregular from None
        if format is None and sniff(name, "".join(header)) != "text":
            raise Irregular
        parameters = tuple(state.parameters)
        points = np.array(state.points, dtype=float).reshape(len(state.points), len(parameters))
        width = len(points) + 1
        metric = state.metric.strip()
        seen: set[str] = set()
        pending = [header[-1]]
        while True:
            try:
                lines = pending + list(itertools.islice(handle, batch * width - len(pending)))
            except UnicodeDecodeError:
                raise Irregular from None
            pending = []
            if not lines:
                return
            if len(lines) < batch * width:  # the end: blank lines after the last DATA are fine
                while lines and not lines[-1].strip():
                    lines.pop()
            kernels, values = _batch(lines, width, seen)
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


def _header(path: str, handle: io.TextIOBase) -> tuple[_State, list[str], int]:
    """The header read by the reference reader's rules, its lines up to the first REGION
    line, and that line's number."""
    state = _State(path)
    lines = []
    for number, line in enumerate(handle, start=1):
        lines.append(line)
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
            return state, lines, number
        if _OTHER_LINE_ENDS.search(line) or (words and words[0] in ("DATA", "REGION")):
            raise Irregular
        if words and words[0] == "METRIC" and state.metric:
            raise Irregular  # several metrics: the reference names atoms after them
        state.feed(number, line)
    raise Irregular


def _batch(lines: list[str], width: int, seen: set[str]) -> tuple[tuple[str, ...], np.ndarray]:
    """Kernel names and values (K, points, repetitions) of whole REGION blocks ``lines``."""
    if len(lines) % width:
        raise Irregular
    if not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    regions = lines[0::width]
    del lines[0::width]
    region_text, data_text = "".join(regions), "".join(lines)
    count = len(regions)
    regular = (
        region_text.startswith("REGION ")
        and region_text.count("\nREGION ") == count - 1
        and data_text.startswith("DATA ")
        and data_text.count("\nDATA ") == len(lines) - 1
        and data_text.count("DATA ") == len(lines)
        and not _other_line_end(region_text)
        and not _other_line_end(data_text)
    )
    if not regular:
        raise Irregular
    kernels = tuple(" ".join(line.split()[1:]) for line in regions)
    if "" in kernels or len(set(kernels)) != count or not seen.isdisjoint(kernels):
        raise Irregular  # the reference merges a region named twice, and rejects no name
    seen.update(kernels)
    try:
        values = np.loadtxt(
            io.StringIO(data_text.replace("DATA ", " ")), dtype=float, comments=None, ndmin=2
        )
    except ValueError:
        raise Irregular from None
    if values.shape[0] != len(lines) or not np.isfinite(values).all():
        raise Irregular
    return kernels, values.reshape(count, width - 1, values.shape[1])
