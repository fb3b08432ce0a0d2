"""The standard streams as a command finds them, made safe once before it runs
(:func:`prepare_streams`, called by the command line).

- A closed stream (``<&-``, ``>&-``, ``2>&-``: Python's ``sys.stdin`` and the others are
  None) has ``/dev/null`` put on its file descriptor, so that no file the command opens
  (an output, ``measure``'s journal) takes its number and no program ``measure`` runs
  inherits it as its standard stream.
- A closed stderr takes the notes and progress bars nowhere: the command runs as ever.
- A closed stdin is read as an error, ``standard input is closed``; a closed stdout is an
  error only where output is due: :class:`ClosedOutput`.
- A stdout or stderr that cannot encode every character (``PYTHONIOENCODING=ascii``, a
  Latin-1 terminal) writes the few non-ASCII characters patternalg prints in ASCII
  (``R²`` as ``R^2``, ``µs`` as ``us``, ``≤`` as ``<=``) and any other character as its
  Python escape (``\\xe9``): :func:`ascii_fallback`.

>>> "R² ≤ 1 µs, é".encode("ascii", errors="patternalg-ascii")
b'R^2 <= 1 us, \\\\xe9'
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import sys
from typing import Any

from ..errors import PatternalgError

__all__ = ["prepare_streams", "ClosedOutput", "ascii_fallback"]

#: the non-ASCII characters patternalg prints, as ASCII
_ASCII = {
    "²": "^2", "³": "^3", "µ": "u", "μ": "u", "×": "x", "·": "*", "≤": "<=", "≥": ">=",
    "≈": "~", "±": "+/-", "…": "...", "—": "--", "–": "-", "→": "->", "∞": "inf", "−": "-",
}  # fmt: skip


def ascii_fallback(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler ``patternalg-ascii``: each character the stream cannot
    encode in its ASCII spelling, else its escape."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end]
    spelt = (_ASCII.get(char) or char.encode("ascii", "backslashreplace").decode() for char in text)
    return "".join(spelt), error.end


codecs.register_error("patternalg-ascii", ascii_fallback)


class ClosedOutput(io.TextIOBase):
    """``sys.stdout`` when it is closed: writing to it is a :class:`PatternalgError`, so a
    command that has output to print says it has nowhere to go (one line, status 2)
    instead of losing it, and one that prints nothing runs as ever."""

    encoding = "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not text:
            return 0
        raise PatternalgError(
            "standard output is closed (>&-): the output has nowhere to go; give the "
            "command a standard output (a file, a pipe or /dev/null)"
        )


class _ClosedInput(io.RawIOBase):
    """The bytes of a closed ``sys.stdin``: none, an ``OSError`` saying it is closed."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise OSError(errno.EBADF, "standard input is closed (<&-)")


def prepare_streams() -> None:
    """Make the standard streams safe to use (see the module's description)."""
    closed = [number for number, stream in enumerate(_streams()) if stream is None]
    for number in closed:
        _occupy(number)
    if sys.stdin is None:
        sys.stdin = io.TextIOWrapper(io.BufferedReader(_ClosedInput()), encoding="utf-8")
    if sys.stdout is None:
        sys.stdout = ClosedOutput()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the process's life
    for stream in (sys.stdout, sys.stderr):
        _fall_back(stream)


def _streams() -> tuple[Any, Any, Any]:
    return sys.stdin, sys.stdout, sys.stderr


def _occupy(number: int) -> None:
    """Put ``/dev/null`` on file descriptor ``number`` if it is closed."""
    try:
        os.fstat(number)
    except OSError:
        opened = os.open(os.devnull, os.O_RDWR)
        if opened != number:
            os.dup2(opened, number)
            os.close(opened)


def _fall_back(stream: Any) -> None:
    """Let ``stream`` write what its encoding cannot, by :func:`ascii_fallback`."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    if codecs.lookup(encoding).name != "utf-8" and hasattr(stream, "reconfigure"):
        stream.reconfigure(errors="patternalg-ascii")
