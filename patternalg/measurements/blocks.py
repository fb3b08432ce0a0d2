"""Regular Extra-P text files read a batch of kernels at a time, as bytes: the fast path of ``fit``.

A text file is *regular* when a header of PARAMETER and POINTS lines and at most one
METRIC line is followed by ``REGION name`` blocks, each with one ``DATA`` line per point,
every DATA line holding the same number of values, the region names distinct, the points
distinct and one metric throughout. Between the lines of a block, and between blocks, may
come blank lines, ``#`` comments and METRIC lines naming that one metric (a METRIC line
after each REGION, as Extra-P's own files have it); a METRIC line among a block's DATA
lines, or an indented line, is not regular. :func:`text_blocks` reads such files a batch of
kernels at a time (memory bounded by the batch, not the file) into :class:`Block` s: the
same numbers, names and lines that :func:`~patternalg.measurements.read` gives
(``Block.series`` builds its series). Anything else raises :class:`Irregular`, before or
while the blocks are read, and the caller reads the file with
:func:`~patternalg.measurements.read`, whose messages say what is wrong.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "m.txt")
>>> _ = open(path, "w").write("PARAMETER n\\nPOINTS 1 2 3\\n\\nREGION sort\\nMETRIC time\\n"
...     "DATA 1 1.5\\nDATA 2 2.5\\nDATA 3 3.5\\n\\nREGION inc\\nMETRIC time\\nDATA 1 1\\n"
...     "DATA 2 2\\nDATA 3 3\\n")
>>> (block,) = text_blocks(path)
>>> block.kernels, block.metric, block.values.shape, block.series()[1].lines
(('sort', 'inc'), 'time', (2, 3, 2), ((12, 12), (13, 13), (14, 14)))
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path
from typing import BinaryIO, NamedTuple

import fastnumbers
import numpy as np

from .._internal.reading import check_size
from ..errors import PatternalgError
from .base import Irregular
from .model import Measurements, Series
from .names import split_unit
from .readers import path_reader, sniff
from .text import _State

__all__ = ["Block", "Irregular", "Kernel", "Summary", "text_blocks"]

#: characters that end a line for ``str.splitlines`` (the reference reader) but not for files
_OTHER_LINE_ENDS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_ASCII_LINE_ENDS = b"\x0b\x0c\x1c\x1d\x1e"
#: the first byte of each kind of line after the header (an empty line's is its line end)
DATA, REGION, METRIC, COMMENT, BLANK, SPACE, TAB = b"DRM#\n \t"


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
    ``lines[k, i]`` is the line of that point's DATA.
    """

    path: str
    parameters: tuple[str, ...]
    metric: str
    unit: str | None
    points: np.ndarray
    kernels: tuple[str, ...]
    values: np.ndarray
    lines: np.ndarray
    #: the line that declares the parameters (the first PARAMETER line), for messages
    line: int = 0

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
                tuple((line,) * count for line in self.lines[k].tolist()),
                self.path,
                self.unit,
            )
            for k, kernel in enumerate(self.kernels)
        ]


#: the first kernels of a file a :class:`Summary` keeps (the notes on values that fall
#: look at as many: ``forms.pmnf.falling``)
HEAD = 200


class Summary:
    """What the notes of a fit read of a file streamed as :class:`Block` s, gathered block
    by block with memory bounded by :data:`HEAD` kernels: read as ``Measurements`` is (its
    ``path``, ``parameters``, ``value_name``, ``len``), with the counts of points and
    repetitions of every kernel, the largest value, and the first kernels' names and values.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "m.txt")
    >>> _ = open(path, "w").write("PARAMETER n\\nPOINTS 1 2 3\\nREGION a\\nDATA 1 1.5\\n"
    ...     "DATA 2 2.5\\nDATA 3 3.5\\nREGION b\\nDATA 7 1\\nDATA 2 2\\nDATA 3 3\\n")
    >>> blocks = text_blocks(path, batch=1)
    >>> summary = Summary(next(blocks))
    >>> summary.add(next(blocks))
    >>> len(summary), summary.sizes, summary.largest, summary.kernels
    (2, (6, 12), 7.0, ('a', 'b'))
    """

    #: the name of the measured value where no METRIC line names it (the text reader's)
    value_name = "value"

    def __init__(self, first: Block) -> None:
        self.path, self.parameters, self.line = first.path, first.parameters, first.line
        self.metric, self.unit, self.points = first.metric, first.unit, first.points
        self.kernels: tuple[str, ...] = ()
        self.values = first.values[:0]
        self.count = self.point_count = self.value_count = 0
        self.largest = -np.inf
        self.add(first)

    def add(self, block: Block) -> None:
        """Count in the kernels of ``block`` (the next of the same file)."""
        self.count += len(block)
        self.point_count += len(block) * len(block.points)
        self.value_count += block.values.size
        self.largest = max(self.largest, float(np.max(block.values, initial=-np.inf)))
        room = HEAD - len(self.kernels)
        if room > 0 and block.values.shape[1:] == self.values.shape[1:]:
            self.kernels += block.kernels[:room]
            self.values = np.concatenate([self.values, block.values[:room]])

    def __len__(self) -> int:
        return self.count

    @property
    def sizes(self) -> tuple[int, int]:
        """The points of all kernels, and their repetitions."""
        return self.point_count, self.value_count

    def measurements(self) -> Measurements:
        """The file's ``Measurements`` without its series: what checks of its columns read."""
        return Measurements(
            self.path, "text", self.parameters, self.value_name, self.unit, (), line=self.line
        )


class _Metric:
    """The one metric of a file: the header's, or the one METRIC lines name before any DATA."""

    def __init__(self, header: str) -> None:
        self.text = header
        self.fixed = False  # a kernel has been read under it

    def check(self, lines: list[bytes], at: np.ndarray, data: np.ndarray, width: int) -> None:
        """The METRIC lines ``lines[i]`` for ``i`` in ``at``, among the DATA lines ``data``
        of kernels of ``width`` points, name this metric (or the first one of the file)."""
        if len(at):
            first = lines[at[0]]
            chosen = [lines[i] for i in at.tolist()]
            if chosen.count(first) != len(chosen) or np.any(np.searchsorted(data, at) % width):
                raise Irregular  # several metrics, or a METRIC among a block's DATA lines
            words = _decoded(first).split()
            if words[0] != "METRIC":
                raise Irregular
            text = " ".join(words[1:])
            if text != self.text and (self.fixed or at[0] > data[0]):
                raise Irregular  # the reference names atoms after several metrics
            self.text = text
        self.fixed = True


#: the text of one part read at once, at most (about): its numbers' transient objects
#: take some 10 times its bytes
PART_BYTES = 1 << 24


def text_blocks(
    path: str | Path,
    batch: int = 10_000,
    format: str | None = None,
    *,
    chunk: int = 1 << 22,
    most: int = PART_BYTES,
) -> Iterator[Block]:
    """The kernels of the regular text file ``path``, ``batch`` at a time, fewer where their
    text passes ``most`` bytes (the file read ``chunk`` bytes at a time).

    Raises :class:`Irregular` (possibly after some blocks) if the file is not regular, or
    if ``read(path, format)`` would not read it as a text file.
    """
    name = str(path)
    if format not in (None, "text") or name == "-":
        raise Irregular
    try:
        if not stat.S_ISREG(os.stat(path).st_mode) or path_reader(path, format) is not None:
            raise Irregular  # a device or a pipe: read() bounds what it reads; or no text file
        check_size(path)
        handle = open(path, "rb")  # noqa: SIM115 (closed below)
    except OSError:
        raise Irregular from None  # read() says why
    with handle:
        try:
            state, header, number = _header(name, _text_lines(handle))
        except (PatternalgError, UnicodeDecodeError, OSError):  # read() says why
            raise Irregular from None
        if format is None and sniff(name, "".join(header)) != "text":
            raise Irregular
        parameters = tuple(state.parameters)
        points = np.array(state.points, dtype=float).reshape(len(state.points), len(parameters))
        order = np.lexsort(points.T[::-1])  # a series keeps its points ascending (Series)
        ascending = bool(np.all(order == np.arange(len(order))))
        metric = _Metric(state.metric)
        seen: set[str] = set()
        first = header[-1].removesuffix("\n").encode()
        for lines, kinds in _parts(_chunks(handle, first, chunk), batch, most):
            kernels, values, at = _batch(lines, kinds, len(points), seen, metric)
            text = metric.text.strip()
            if not ascending:  # C order kept: sums over points round as a series' do
                values, at = np.ascontiguousarray(values[:, order]), np.ascontiguousarray(at[:, order])
            yield Block(
                name,
                parameters,
                text,
                split_unit(text)[1],
                points[order],
                kernels,
                values,
                number + at,
                state.parameter_line,
            )
            number += len(lines)


def _text_lines(handle: BinaryIO) -> Iterator[str]:
    """The lines of a binary file as text would give them (``utf-8-sig``, universal
    newlines); a lone carriage return (a line end there) or a NUL byte (no text: the
    reference reader says where) raises :class:`Irregular`."""
    for number, line in enumerate(handle):
        if b"\0" in line:
            raise Irregular
        text = line.decode("utf-8-sig" if number == 0 else "utf-8")
        if "\r" in text:
            text = text.replace("\r\n", "\n")
            if "\r" in text:
                raise Irregular
        yield text


def _chunks(handle: BinaryIO, first: bytes, chunk: int) -> Iterator[tuple[list[bytes], np.ndarray]]:
    """The whole lines after the header (``first`` then the rest of ``handle``, read
    ``chunk`` bytes at a time) without their line ends, with the first byte of each
    (:data:`BLANK` for an empty line). CR LF ends a line as LF does; a lone CR, or a NUL
    byte, raises :class:`Irregular`."""
    tail, end = first + b"\n", False
    while not end:
        try:
            data = handle.read(chunk)
            if data.endswith(b"\r"):  # its LF may come next
                data += handle.read(1)
        except OSError:  # read() says why, naming the file
            raise Irregular from None
        end = not data
        text = tail + data
        if b"\0" in data:
            raise Irregular  # not text: the reference reader says where
        if b"\r" in text:
            text = text.replace(b"\r\n", b"\n")
            if b"\r" in text:
                raise Irregular
        if end and text and not text.endswith(b"\n"):
            text += b"\n"
        cut = text.rfind(b"\n") + 1
        text, tail = text[:cut], text[cut:]
        if text:
            codes = np.frombuffer(text, dtype=np.uint8)
            starts = np.flatnonzero(codes == BLANK)[:-1] + 1
            lines = text.split(b"\n")
            lines.pop()  # after the last line end
            yield lines, np.concatenate([codes[:1], codes[starts]])


def _parts(
    chunks: Iterator[tuple[list[bytes], np.ndarray]], batch: int, most: int = PART_BYTES
) -> Iterator[tuple[list[bytes], np.ndarray]]:
    """The lines of ``chunks`` (and their first bytes) cut before every ``batch``-th REGION,
    and before the last REGION read once the lines since the last cut hold ``most`` bytes:
    kernels of thousands of repetitions each are not read 10,000 at a time."""
    lines: list[bytes] = []
    kinds = np.empty(0, dtype=np.uint8)
    size = 0  # the bytes of ``lines`` (each line with its end)
    for more, their_kinds in chunks:
        lines += more
        kinds = np.concatenate([kinds, their_kinds])
        size += sum(map(len, more)) + len(more)
        regions = np.flatnonzero(kinds == REGION)
        cuts = regions[batch::batch].tolist()
        if size >= most and len(regions) and regions[-1] > (cuts[-1] if cuts else 0):
            cuts.append(int(regions[-1]))
        done = 0
        for cut in cuts:
            part = lines[done:cut]
            size -= sum(map(len, part)) + len(part)
            yield part, kinds[done:cut]
            done = cut
        if done:
            del lines[:done]
            kinds = kinds[done:]
    if lines:
        yield lines, kinds


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


def _decoded(text: bytes) -> str:
    """UTF-8 ``text`` that holds no line end of :data:`_OTHER_LINE_ENDS`."""
    try:
        decoded = text.decode("utf-8")
    except UnicodeDecodeError:
        raise Irregular from None
    if _other_line_end(decoded):
        raise Irregular
    return decoded


def _pick(lines: list[bytes], at: np.ndarray) -> list[bytes]:
    """``lines[i]`` for each ``i`` in ``at``."""
    return list(itemgetter(*at.tolist())(lines)) if len(at) > 1 else [lines[i] for i in at]


def _batch(
    lines: list[bytes], kinds: np.ndarray, width: int, seen: set[str], metric: _Metric
) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """Kernel names, values (K, points, repetitions) and the index of each DATA line in
    ``lines`` (K, points) of whole REGION blocks ``lines`` (``kinds``: their first bytes).

    The numbers are parsed by ``fastnumbers`` (correctly rounded, as ``float``; it reads
    no text that ``float`` does not, ``tests/test_scale.py`` checks), ASCII only.
    """
    data_at = np.flatnonzero(kinds == DATA)
    region_at = np.flatnonzero(kinds == REGION)
    comment_at = np.flatnonzero(kinds == COMMENT)
    metric_at = np.flatnonzero(kinds == METRIC)
    count = len(region_at)
    blank = np.count_nonzero(kinds == BLANK)
    blanks_only = np.flatnonzero((kinds == SPACE) | (kinds == TAB))
    known = len(data_at) + count + len(comment_at) + len(metric_at) + blank + len(blanks_only)
    regular = (
        known == len(kinds)  # no indented line, no other field
        and count > 0
        and region_at[0] == 0
        and len(data_at) == count * width
        and np.array_equal(np.searchsorted(data_at, region_at), width * np.arange(count))
    )
    if not regular:
        raise Irregular
    metric.check(lines, metric_at, data_at, width)
    if len(comment_at):
        _decoded(b"\n".join(_pick(lines, comment_at)))
    if len(blanks_only) and _decoded(b"\n".join(_pick(lines, blanks_only))).split():
        raise Irregular  # an indented line
    region_text = _decoded(b"\n".join(_pick(lines, region_at)))
    data_lines = _pick(lines, data_at)
    data = b"\n".join(data_lines)
    regular = (
        region_text.startswith("REGION ")
        and region_text.count("\nREGION ") == count - 1
        and data.startswith(b"DATA ")
        and data.count(b"\nDATA ") == len(data_lines) - 1
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
    per_line, rest = divmod(len(words), len(data_lines))
    if rest or per_line < 2 or words[0::per_line].count(b"DATA") != len(data_lines):
        raise Irregular
    del words[0::per_line]
    try:
        values = fastnumbers.try_array(words, dtype=np.float64, on_fail=fastnumbers.RAISE)
    except (ValueError, TypeError):
        raise Irregular from None
    if not np.isfinite(values).all():
        raise Irregular
    shape = (count, width)
    return kernels, values.reshape(*shape, per_line - 1), data_at.reshape(shape)
