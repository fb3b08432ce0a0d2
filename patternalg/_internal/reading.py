"""Reading the files patternalg is given, bounded: every file, device or pipe is read to
at most :data:`~patternalg._internal.limits.MAX_FILE_BYTES` bytes, and a text file holds no
NUL byte, so ``--machine /dev/zero`` or a huge file is refused at once, not read until
memory runs out.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "m.toml")
>>> _ = open(path, "w").write("format = 1\\n")
>>> read_text(path)
'format = 1\\n'
>>> read_text("/dev/zero")
Traceback (most recent call last):
...
patternalg._internal.reading.NotText: not a text file (a NUL byte at byte 0)
>>> read_text(path, limit=4)
Traceback (most recent call last):
...
patternalg._internal.reading.TooLarge: larger than 4 bytes (the limit of a file read; see docs/errors.md)
>>> decoded(b"x,time\\n1024,5\\xe9\\n")
Traceback (most recent call last):
...
patternalg._internal.reading.NotUtf8: not UTF-8 text (byte 0xe9 on line 2, column 7): save it as UTF-8
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from os import PathLike
from typing import IO, AnyStr

from .limits import MAX_FILE_BYTES, MAX_MESSAGE, printable

__all__ = [
    "read_text",
    "read_bytes",
    "read_stream",
    "decoded",
    "check_size",
    "text_lines",
    "not_regular",
    "TooLarge",
    "NotText",
    "NotUtf8",
]

#: bytes read at a time from a file whose size is not known (a device, a pipe)
_CHUNK = 1 << 20


class TooLarge(OSError):
    """A file larger than the limit (an ``OSError``: callers report it as a read error)."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"larger than {limit:,} bytes (the limit of a file read; see docs/errors.md)"
        )


class NotText(OSError):
    """A file that holds a NUL byte: not text (a device like /dev/zero, a binary file)."""

    def __init__(self, offset: int, start: bytes | str = b"") -> None:
        utf16 = isinstance(start, bytes) and start[:2] in (b"\xff\xfe", b"\xfe\xff")
        super().__init__(
            "UTF-16 text (its byte-order mark): save it as UTF-8"
            if utf16
            else f"not a text file (a NUL byte at byte {offset:,})"
        )


class NotUtf8(OSError):
    """Text that is not UTF-8 (Latin-1, Windows-1252): where its first byte UTF-8 does not
    read is, by line and column (as the readers number lines), and what to do."""

    def __init__(self, error: UnicodeDecodeError) -> None:
        before = error.object[: error.start].decode("utf-8-sig")  # UTF-8 up to the first bad byte
        lines = before.splitlines(keepends=True)
        ended = not lines or lines[-1] != lines[-1].splitlines()[0]  # the byte starts a line
        line, column = len(lines) + ended, 1 if ended else len(lines[-1]) + 1
        super().__init__(
            f"not UTF-8 text (byte 0x{error.object[error.start]:02x} on line {line}, "
            f"column {column}): save it as UTF-8"
        )


def not_regular(path: str) -> str:
    """The note on a file a command finds in a directory and leaves out because it is no
    regular file (reading a pipe without a writer would block).

    >>> not_regular("runs/fifo.cubex")
    'runs/fifo.cubex: not a regular file (a pipe, a device or a directory): left out'
    """
    return f"{printable(path, MAX_MESSAGE)}: not a regular file (a pipe, a device or a directory): left out"


def check_size(path: str | PathLike[str], limit: int = MAX_FILE_BYTES) -> None:
    """Raise :class:`TooLarge` if the regular file at ``path`` is larger than ``limit``
    (a device or a pipe tells its size only when read: :func:`read_bytes` bounds it)."""
    info = os.stat(path)
    if stat.S_ISREG(info.st_mode) and info.st_size > limit:
        raise TooLarge(limit)


def read_stream(handle: IO[AnyStr], limit: int = MAX_FILE_BYTES, *, text: bool = True) -> AnyStr:
    """Everything ``handle`` (binary, or text such as a replaced ``sys.stdin``) gives, to at
    most ``limit`` bytes or characters (:class:`TooLarge` beyond), a NUL refused as soon as it
    is read (:class:`NotText`) unless ``text`` is False (an archive's bytes)."""
    parts: list[AnyStr] = []
    size = 0
    while True:
        part = handle.read(min(_CHUNK, limit + 1 - size))
        if not part:
            return part[:0].join(parts)
        nul = part.find(b"\0" if isinstance(part, bytes) else "\0") if text else -1  # type: ignore[arg-type]
        if nul >= 0:
            raise NotText(size + nul, parts[0] if parts else part)
        parts.append(part)
        size += len(part)
        if size > limit:
            raise TooLarge(limit)


def read_bytes(path: str | PathLike[str], limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the text file at ``path`` (``-``: standard input), bounded as
    :func:`read_stream` bounds them."""
    if str(path) == "-":
        return read_stream(sys.stdin.buffer, limit)
    check_size(path, limit)
    with open(path, "rb") as handle:
        return read_stream(handle, limit)


def decoded(data: bytes) -> str:
    """UTF-8 ``data`` as text, without a leading byte-order mark; :class:`NotUtf8` where it
    is no UTF-8 (the codec's message gave an offset in bytes)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise NotUtf8(exc) from None


def read_text(path: str | PathLike[str], limit: int = MAX_FILE_BYTES) -> str:
    """The text of the file at ``path`` (``-``: standard input), bounded as
    :func:`read_stream` bounds it, with universal newlines as ``open`` reads text and
    without a leading byte-order mark (an editor's; every text input reads alike); an
    ``OSError`` (:class:`TooLarge`, :class:`NotText`, :class:`NotUtf8`) if it cannot be
    read."""
    if str(path) == "-" and not hasattr(sys.stdin, "buffer"):  # replaced by a text stream
        text = read_stream(sys.stdin, limit).removeprefix("\ufeff")
    else:
        text = decoded(read_bytes(path, limit))
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def text_lines(text: str, window: int = 1 << 12) -> Iterator[tuple[int, str]]:
    """The lines of ``text`` as ``text.splitlines()`` gives them, each with the offset just
    after its line end, read ``window`` characters at a time: the first lines of a large
    text without a list of all of them.

    >>> list(text_lines("a\\r\\nb\\x0cc", window=2)), [line for _, line in text_lines("\\n\\nx\\n")]
    ([(3, 'a'), (5, 'b'), (6, 'c')], ['', '', 'x'])
    """
    start = 0
    while start < len(text):
        pieces = text[start : start + window].splitlines(keepends=True)
        if start + window < len(text):
            pieces.pop()  # it may go on (or its CR be followed by LF) beyond the window
        if not pieces:
            window *= 2
            continue
        for piece in pieces:
            start += len(piece)
            yield start, piece.splitlines()[0]
