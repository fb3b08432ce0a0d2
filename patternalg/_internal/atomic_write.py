"""Atomic file writes: every file patternalg writes goes through :func:`write_text_atomic`.

The text is encoded first, written to a temporary file in the target's directory, flushed,
fsynced and renamed over the target (``os.replace``): a reader sees the old file or the new
one, never a truncated one, and a failure leaves the old file as it was. A symbolic link is
written through: its target is replaced (atomically, beside it) and the link stays a link.
What is not a regular file (a device such as ``/dev/stdout``, a pipe, a socket) is refused,
never replaced, nor is a write-protected file (its mode says so, even to root); a file
replaced keeps its owner where the writer may give it (root). A SIGTERM or SIGHUP while the
file is written removes the temporary file, then ends the process as the signal would have
(Ctrl-C already does: KeyboardInterrupt).

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
import signal
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from ..errors import PatternalgError, reason
from .signals import ending_handled

__all__ = ["write_text_atomic", "write_bytes_atomic", "atomic_writer", "check_writable", "same_destination"]


def check_writable(
    path: str | Path, reading: str | Path | Iterable[str | Path] | None = None
) -> Path:
    """The file to write for ``path`` (a symbolic link's target) if a file can be written
    there (checked before long work), else a :class:`PatternalgError` naming what is wrong;
    ``reading`` is the command's input (or inputs), which the output must not replace.

    >>> import os, tempfile
    >>> data = os.path.join(tempfile.mkdtemp(), "m.csv")
    >>> _ = open(data, "w").write("x,time\\n1,2\\n")
    >>> check_writable(data, reading=data)
    Traceback (most recent call last):
    ...
    patternalg.errors.PatternalgError: cannot write ... it is the input being read; give the output another name
    >>> check_writable("")
    Traceback (most recent call last):
    ...
    patternalg.errors.PatternalgError: cannot write '': the name is empty; give a file name
    """
    if not str(path).strip():
        raise PatternalgError(f"cannot write {str(path)!r}: the name is empty; give a file name")
    target = Path(path)
    inputs = [reading] if isinstance(reading, str | Path) else list(reading or ())
    if any(_same_file(target, other) for other in inputs):
        raise PatternalgError(
            f"cannot write {path}: it is the input being read; give the output another name"
        )
    try:
        mode = os.stat(target).st_mode  # through links; a name too long raises here
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise PatternalgError(f"cannot write {path}: {reason(exc)}") from None
    if (mode is not None and stat.S_ISDIR(mode)) or str(path).endswith(os.sep):
        raise PatternalgError(f"cannot write {path}: it is a directory; give a file name")
    if mode is not None and not stat.S_ISREG(mode):
        raise PatternalgError(
            f"cannot write {path}: it is not a regular file (a device, a pipe or a socket) "
            "and is never replaced; give a file name"
        )
    why = None if mode is None else _not_writable(target, mode)
    if why is not None:
        raise PatternalgError(f"cannot write {path}: {why}")
    if target.is_symlink():  # written through: the link's target is the file replaced
        target = Path(os.path.realpath(target))
    parent = target.parent
    if not parent.is_dir():
        raise PatternalgError(f"cannot write {path}: the directory {parent} does not exist")
    return target


def _same_file(path: Path, other: str | Path) -> bool:
    """Whether ``path`` and ``other`` are one existing file; ``-`` (standard input) is the
    file redirected to it (``< data.csv``), if that is a regular file."""
    try:
        if str(other) == "-":
            read = os.fstat(0)
            return stat.S_ISREG(read.st_mode) and os.path.samestat(read, os.stat(path))
        return os.path.samefile(path, other)
    except (OSError, ValueError):
        return False  # either does not exist (or cannot be looked at): not the same file


def same_destination(path: str | Path, other: str | Path) -> bool:
    """Whether writing ``path`` and ``other`` would write one file: the same name once
    ``./``, ``..`` and links are resolved, or one existing file (a hard link).

    >>> same_destination("out.toml", "./out.toml"), same_destination("a.toml", "b.toml")
    (True, False)
    """
    return os.path.realpath(path) == os.path.realpath(other) or _same_file(Path(path), other)


def write_text_atomic(path: str | Path, text: str, *, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` atomically (temporary file, fsync, rename)."""
    with atomic_writer(path, encoding=encoding) as handle:
        handle.write(text)


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temporary file, fsync, rename)."""
    with atomic_writer(path, binary=True) as handle:
        handle.write(data)


#: the characters of a file's name its temporary file's name keeps: 4 bytes each at most,
#: so that any legal name (255 bytes) has a legal temporary name beside it
_KEPT = 50


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
        old = os.stat(target)
        mode, owner = stat.S_IMODE(old.st_mode), (old.st_uid, old.st_gid)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode, owner = 0o666 & ~umask, None
    try:
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:_KEPT]}.", suffix=".tmp")
    except OSError as exc:
        raise PatternalgError(f"cannot write {path}: {reason(exc)}") from None
    try:
        with _removed_on_signal(temp):
            with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else encoding) as handle:
                yield handle
                handle.flush()
                os.fsync(handle.fileno())
            _keep_owner(temp, owner)
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


def _removed_on_signal(temp: str) -> contextlib.AbstractContextManager[None]:
    """While the block runs, a SIGTERM or SIGHUP removes ``temp`` first, then acts as it
    did before (by default: ends the process, with the signal's exit status)."""

    def handler(signum: int, previous: dict[int, Any]) -> None:
        _remove(temp)
        for number, action in previous.items():
            signal.signal(number, action)
        signal.raise_signal(signum)

    return ending_handled(handler)


def _not_writable(target: Path, mode: int) -> str | None:
    """Why an existing file is not to be replaced, or None: its mode has no write bit (even
    for root, who could), the file system is read-only, or it is not the user's to write."""
    if not mode & 0o222:
        return (
            f"it is write-protected (mode {stat.S_IMODE(mode):04o}) and is not replaced; make it "
            "writable (chmod u+w) or give another name"
        )
    if os.access(target, os.W_OK):
        return None
    with contextlib.suppress(OSError, AttributeError):
        if os.statvfs(target).f_flag & os.ST_RDONLY:
            return "the file system is read-only; give a name on another file system"
    owner = os.stat(target).st_uid
    if hasattr(os, "geteuid") and owner != os.geteuid():
        return (
            f"it belongs to {_user_name(owner)} (mode {stat.S_IMODE(mode):04o}), who alone may make "
            "it writable; give another name"
        )
    return f"you may not write it (mode {stat.S_IMODE(mode):04o}); give another name"


def _user_name(uid: int) -> str:
    """A user's name, else ``user <uid>``."""
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return f"user {uid}"


def _keep_owner(temp: str, owner: tuple[int, int] | None) -> None:
    """Give ``temp`` the ``owner`` (user, group) of the file it replaces, where it may (root
    replacing a user's file; a group of one's own): best effort, as editors do."""
    if owner is None or not hasattr(os, "chown"):
        return
    now = os.stat(temp)
    if (now.st_uid, now.st_gid) != owner:
        with contextlib.suppress(OSError):
            os.chown(temp, *owner)


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
