"""The body of a plain CSV table read column by column: the fast path of :class:`~patternalg.measurements.csv.CsvReader`.

A body is *plain* when it is ASCII, holds no quote, no control character but tab and line
ends (LF, or CR LF), no ``#`` but at the start of a comment line, and every other line is
blank or has exactly as many cells as the header. Its lines are read a few megabytes at a
time as bytes: their cells split at once (``bytes.split``), the numbers of each numeric
column parsed by ``fastnumbers.try_array`` (correctly rounded, as ``float``; it reads no
text that ``float`` does not), each text column's cells numbered by their first
appearance. What the reader needs is then arrays, one number a row, and no Python object a
cell survives a chunk. Anything else raises :class:`Irregular`, as does a number that is
not finite, a cell that is no number, or an empty name: the reference reader then reads
the whole table, and its messages say what is wrong.

>>> body = columns("x,k,t\\n8,a,1.5\\n\\n# a comment\\n16, b ,2.5\\n", 6, 1, ",", 3, texts=[1], numbers=[0, 2])
>>> body.lines.tolist(), body.names, body.codes.tolist(), body.numbers.tolist()
([2, 5], [('a',), ('b',)], [0, 1], [[8.0, 16.0], [1.5, 2.5]])
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import fastnumbers
import numpy as np

from .base import Irregular

__all__ = ["Columns", "Irregular", "columns"]

#: what a character is, by its byte: a line end, a carriage return, a tab, a comment's start
_LF, _CR, _TAB, _HASH = b"\n\r\t#"


@dataclass(frozen=True)
class Columns:
    """A table's data rows as columns.

    ``lines[i]`` is row ``i``'s line; ``codes[i]`` numbers its names (the stripped cells of
    the text columns) in ``names``, in order of first appearance; ``numbers[j, i]`` is its
    cell of the ``j``-th numeric column.
    """

    lines: np.ndarray
    names: list[tuple[str, ...]]
    codes: np.ndarray
    numbers: np.ndarray


def columns(
    text: str,
    start: int,
    line: int,
    sep: str,
    width: int,
    *,
    texts: Sequence[int],
    numbers: Sequence[int],
    chunk: int = 1 << 20,
) -> Columns:
    """The rows of ``text[start:]`` (whose first line is line ``line + 1``; cells separated
    by ``sep``, ``width`` a row): the cells of columns ``texts`` stripped and numbered, those
    of columns ``numbers`` as floats. :class:`Irregular` if the body is not plain."""
    if len(sep) != 1 or not sep.isascii() or sep in '"#\n\r' or width < 2 or '"' in text:
        raise Irregular
    most = text.count("\n", start) + 1  # rows at most
    filled = Columns(np.empty(most, dtype=np.int64), [], np.empty(most, dtype=np.int64), np.empty((len(numbers), most)))
    found: dict[bytes | tuple[bytes, ...], int] = {}
    count = 0
    for data, first in _chunks(text, start, line, chunk):
        count += _rows(data, first, sep.encode(), width, texts, numbers, found, filled, count)
    if not count:
        raise Irregular
    names: dict[tuple[str, ...], int] = {}
    numbered = np.array([names.setdefault(_stripped(raw), len(names)) for raw in found], dtype=np.int64)
    if any("" in name for name in names):
        raise Irregular  # an empty name: the reference says where
    codes = filled.codes[:count]
    if len(names) < len(found):  # cells that differ only in blanks around them
        codes = numbered[codes]
    return Columns(filled.lines[:count], list(names), codes, filled.numbers[:, :count])


def _stripped(raw: bytes | tuple[bytes, ...]) -> tuple[str, ...]:
    """The names a row's raw text cells give."""
    return tuple(cell.decode("ascii").strip() for cell in (raw if isinstance(raw, tuple) else (raw,)))


def _chunks(text: str, start: int, line: int, size: int) -> Iterator[tuple[bytes, int]]:
    """``text[start:]`` as ASCII bytes about ``size`` characters at a time, cut after a line
    end, CR LF made LF, each with the number of its first line."""
    while start < len(text):
        end = text.find("\n", start + size)
        end = len(text) if end < 0 else end + 1
        part = text[start:end]
        if not part.isascii():
            raise Irregular
        data = part.encode("ascii")
        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n")
            if b"\r" in data:
                raise Irregular  # a lone CR ends a line for the reference
        yield data, line + 1
        line += data.count(b"\n") + (not data.endswith(b"\n"))
        start = end


def _rows(
    data: bytes,
    first: int,
    sep: bytes,
    width: int,
    texts: Sequence[int],
    numbers: Sequence[int],
    found: dict[bytes | tuple[bytes, ...], int],
    into: Columns,
    at: int,
) -> int:
    """How many data rows whole lines ``data`` (the first one line ``first``) hold, their
    lines, text codes and numbers written ``into`` its arrays from row ``at`` on; ``found``
    numbers the text cells seen so far."""
    codes = np.frombuffer(data, dtype=np.uint8)
    control = codes[codes < 32]
    if np.any((control != _LF) & (control != _TAB)):
        raise Irregular
    ends = np.flatnonzero(codes == _LF)
    if not data.endswith(b"\n"):
        ends = np.append(ends, len(data))
    starts = np.concatenate([[0], ends[:-1] + 1])
    cells = np.diff(np.searchsorted(np.flatnonzero(codes == sep[0]), ends), prepend=0) + 1
    comment = np.zeros(len(ends), dtype=bool)
    hashes = np.flatnonzero(codes == _HASH)
    if len(hashes):
        comment[np.searchsorted(ends, hashes)] = True
        if np.any(codes[starts[comment]] != _HASH):
            raise Irregular  # a # within a row, or after blanks
    data_rows = ~comment & (cells > 1)
    if np.any(cells[data_rows] != width):
        raise Irregular  # the reference says how many cells
    if not data_rows.all():
        lines = data.split(b"\n")
        others = np.flatnonzero(~comment & ~data_rows).tolist()
        if any(lines[i].strip() for i in others):
            raise Irregular  # a row of one cell
        data = b"\n".join(lines[i] for i in np.flatnonzero(data_rows).tolist())
    elif data.endswith(b"\n"):
        data = data[:-1]
    count = int(np.count_nonzero(data_rows))
    if not count:
        return 0
    split = data.replace(b"\n", sep).split(sep)
    end = at + count
    into.lines[at:end] = first + np.flatnonzero(data_rows)
    for values, column in zip(into.numbers[:, at:end], numbers, strict=True):
        try:
            fastnumbers.try_array(split[column::width], values, on_fail=fastnumbers.RAISE)
        except (ValueError, TypeError):
            raise Irregular from None  # the reference says which cell
        if not np.isfinite(values).all():
            raise Irregular  # the reference drops NaN with a note, and refuses an overflow
    keys: Sequence[bytes | tuple[bytes, ...]] = [()] * count  # no text column: one name, ()
    if len(texts) == 1:
        keys = split[texts[0] :: width]
    elif texts:
        keys = list(zip(*(split[c::width] for c in texts), strict=True))
    for key in dict.fromkeys(keys):  # new names numbered in order of first appearance
        found.setdefault(key, len(found))
    into.codes[at:end] = np.fromiter(map(found.__getitem__, keys), dtype=np.int64, count=count)
    return count
