"""Atomic file writes: every file patternalg writes goes through :func:`write_text_atomic`.

The text is encoded first, written to a temporary file in the target's directory, flushed,
fsynced and renamed over the target (``os.replace``): a reader sees the old file or the new
one, never a truncated one, and a failure leaves the old file as it was.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "m.toml"
>>> write_text_atomic(path, "a = 1\\n")
>>> path.read_text()
'a = 1\\n'
>>> write_text_atomic(path, "bad \\ud800")
Traceback (most recent call last):
...
patternalg.errors.PatternalgError: cannot write ...m.toml: the text is not valid UTF-8 (a lone surrogate '\\ud800'); the file is unchanged
>>> path.read_text()
'a = 1\\n'
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .errors import PatternalgError, reason

__all__ = ["write_text_atomic", "write_bytes_atomic", "atomic_writer", "check_writable"]


def check_writable(path: str | Path, reading: str | Path | None = None) -> Path:
    """``path`` as a Path if a file can be written there (checked before long work), else a
    :class:`PatternalgError` naming what is wrong; ``reading`` is the command's input,
    which the output must not replace.

    >>> import os, tempfile
    >>> data = os.path.join(tempfile.mkdtemp(), "m.csv")
    >>> _ = open(data, "w").write("x,time\\n1,2\\n")
    >>> check_writable(data, reading=data)
    Traceback (most recent call last):
    ...
    patternalg.errors.PatternalgError: cannot write ... it is the input being read; give the output another name
    """
    target = Path(path)
    if reading is not None and _same_file(target, reading):
        raise PatternalgError(
            f"cannot write {path}: it is the input being read; give the output another name"
        )
    try:
        is_dir = target.is_dir()  # a name too long for the file system raises here
    except OSError as exc:
        raise PatternalgError(f"cannot write {path}: {reason(exc)}") from None
    if is_dir or str(path).endswith(os.sep):
        raise PatternalgError(f"cannot write {path}: it is a directory; give a file name")
    parent = target.parent
    if not parent.is_dir():
        raise PatternalgError(f"cannot write {path}: the directory {parent} does not exist")
    return target


def _same_file(path: Path, other: str | Path) -> bool:
    """Whether ``path`` and ``other`` are one existing file (standard input is none)."""
    try:
        return str(other) != "-" and os.path.samefile(path, other)
    except (OSError, ValueError):
        return False  # either does not exist (or cannot be looked at): not the same file


def write_text_atomic(path: str | Path, text: str, *, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` atomically (temporary file, fsync, rename)."""
    with atomic_writer(path, encoding=encoding) as handle:
        handle.write(text)


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temporary file, fsync, rename)."""
    with atomic_writer(path, binary=True) as handle:
        handle.write(data)


@contextlib.contextmanager
def atomic_writer(
    path: str | Path, *, encoding: str = "utf-8", binary: bool = False
) -> Iterator[IO[Any]]:
    """A file handle whose content replaces ``path`` only when the ``with`` block ends
    without an error: written to a temporary file beside it, flushed, fsynced, renamed.
    On an error the temporary file is removed and ``path`` is unchanged; unencodable text
    and OS errors become one-line :class:`PatternalgError` s."""
    target = check_writable(path)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    try:
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise PatternalgError(f"cannot write {path}: {reason(exc)}") from None
    try:
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else encoding) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, target)
    except UnicodeEncodeError as exc:
        _remove(temp)
        bad = exc.object[exc.start : exc.end]
        raise PatternalgError(
            f"cannot write {path}: the text is not valid {encoding.upper()} (a lone surrogate "
            f"{bad!r}); the file is unchanged"
        ) from None
    except OSError as exc:
        _remove(temp)
        raise PatternalgError(f"cannot write {path}: {reason(exc)}; the file is unchanged") from None
    except BaseException:
        _remove(temp)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable
        directory = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
