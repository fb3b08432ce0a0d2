"""A measurement's journal: every finished run appended as one JSON line, synced, before the
next starts; locked while a measurement writes it; read back to resume the runs of the same
plan (a partly written last line cut off, anything else refused in one line)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from .._internal.json_values import finite_number
from .._internal.limits import printable
from .._internal.reading import read_bytes
from .._internal.surface import either
from ..errors import PatternalgError, reason

__all__ = ["JOURNAL_KIND", "Journal", "JournaledPlan", "journal_path", "kept", "resume"]

#: the first line of a journal names it
JOURNAL_KIND = "patternalg-measure-journal"
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
#: what a journal that is no regular file is, by its type
_KINDS = {stat.S_IFIFO: "a FIFO", stat.S_IFCHR: "a device", stat.S_IFBLK: "a device", stat.S_IFSOCK: "a socket"}


class JournaledPlan(Protocol):
    """What the journal reads of a measurement's plan (:class:`~.runner.Plan`)."""

    @property
    def repetitions(self) -> int: ...
    @property
    def regions(self) -> Sequence[tuple[str, Sequence[str]]]: ...
    @property
    def parameters(self) -> Sequence[str]: ...
    @property
    def points(self) -> Sequence[Sequence[int | float]]: ...
    @property
    def value_regex(self) -> str | None: ...

    def identity(self) -> dict[str, Any]:
        """What makes two plans' runs the same."""


def journal_path(out: str | Path) -> Path:
    """Where the runs of a measurement written to ``out`` are journaled: ``OUT.journal``,
    or for a name too long for that (a file name has at most 255 bytes), the name's first
    50 characters (4 bytes each at most), a hash of the whole and ``.journal``.

    >>> journal_path("k.txt").name, journal_path("k" * 250).name
    ('k.txt.journal', 'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk-b2c715564e4cfe3e.journal')
    """
    out = Path(out)
    name = out.name + ".journal"
    if len(os.fsencode(name)) > 255:
        digest = hashlib.sha256(os.fsencode(out.name)).hexdigest()[:16]
        name = f"{out.name[:50]}-{digest}.journal"
    return out.with_name(name)


class Journal:
    """The journal of a measurement while it runs: locked, so that a second ``measure``
    writing it is refused at once (its runs would disturb the timings, its lines mix with
    these); each record appended as one whole line and synced, a write that fails cut back
    (no half line), and nothing buffered that closing it could fail to write."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd = -1

    def __enter__(self) -> Journal:
        for _ in range(3):  # the path may name a new file once the one locked is removed
            try:
                # not blocking: a FIFO is refused, not waited on
                self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND | _NONBLOCK, 0o666)
            except OSError as exc:
                raise PatternalgError(f"cannot write the journal {self.path}: {reason(exc)}") from None
            try:
                _regular(self.fd, self.path)
                if _locked(self.fd, self.path):
                    return self
            except BaseException:
                os.close(self.fd)
                raise
            os.close(self.fd)
        raise PatternalgError(f"cannot write the journal {self.path}: it is removed and created again as it is opened")

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(OSError):  # every record was synced: nothing is lost
            os.close(self.fd)

    def start(self, header: dict[str, Any]) -> None:
        """Start the journal anew with its ``header``."""
        os.ftruncate(self.fd, 0)
        self.append(header)

    def append(self, record: dict[str, Any]) -> None:
        """Append ``record`` as one line, synced; on an error the journal is as it was."""
        data = (json.dumps(record) + "\n").encode()
        end = os.lseek(self.fd, 0, os.SEEK_END)
        try:
            written = 0
            while written < len(data):
                written += os.write(self.fd, data[written:])
            os.fsync(self.fd)
        except OSError:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, end)
            raise


def _regular(fd: int, path: Path) -> None:
    """An error for a journal that is no regular file: a FIFO (whose reading would wait for
    ever), a device."""
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        kind = _KINDS.get(stat.S_IFMT(mode), "no regular file")
        raise PatternalgError(
            f"cannot write the journal {path}: it is {kind}, not a regular file; remove it, or give another "
            f"{either('--out', 'journal path')}"
        )


def _locked(fd: int, path: Path) -> bool:
    """Lock ``fd`` for this measurement alone (an error if another holds it); whether it is
    still the file ``path`` names (False: removed meanwhile, by a measurement that ended)."""
    try:
        import fcntl
    except ImportError:  # Windows: no lock
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise PatternalgError(
            f"{path}: another patternalg measure is writing this journal{either(' (its --out is the same)', '')}; "
            f"wait for it to end, or give another {either('--out', 'journal path')}"
        ) from None
    except OSError:  # a file system without locks: measure as before
        return True
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except OSError:
        return False


def kept(journal: Path, runs: int) -> str:
    """What a failed measurement leaves: a journal without runs is removed (a corrected
    command starts anew), one with runs is kept for the same command to resume."""
    if not runs:
        journal.unlink(missing_ok=True)
        return "no run was measured (nothing kept: a corrected command starts anew)"
    return (
        f"the {runs} run(s) measured are kept in {journal}: the same command resumes them, "
        "or remove that file to start anew"
    )


def resume(plan: JournaledPlan, journal: Path) -> dict[tuple[int, str, int], float] | None:
    """The finished runs a journal of ``plan`` holds, None if there is no journal (a
    partly written last line, from an interruption while writing it, is cut off); an error
    for a journal of another plan."""
    try:
        data = read_bytes(journal)
        end = max(data.rfind(b"\n"), data.rfind(b"\r")) + 1  # its whole lines, as on disk
        lines = data[:end].decode("utf-8-sig").splitlines()  # LF, CRLF or CR; a BOM
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise PatternalgError(f"cannot read the journal {journal}: {reason(exc)}") from None
    if not lines:
        return None
    number = 1
    try:
        header = _json_line(lines[0])
        if not isinstance(header, dict) or header.get("kind") != JOURNAL_KIND:
            raise ValueError("not a journal of patternalg measure")
        if header.get("plan") != plan.identity():
            if len(lines) == 1:  # nothing measured: nothing to lose
                return None
            raise PatternalgError(
                f"{journal} journals a measurement with other options: run it with the same "
                + either("command, grid, repetitions, --value-regex and --seed", "regions, grid, repetitions, value_regex and seed")
                + " to resume it, or remove the journal to start anew"
            )
        done: dict[tuple[int, str, int], float] = {}
        for index in range(1, len(lines)):
            number = index + 1  # the line, for the message
            key, value = _journaled_run(plan, _json_line(lines[index]))
            if key in done:
                raise ValueError(f"repetition {key[0]} of {key[1]} at point {key[2]} twice")
            done[key] = value
    except ValueError as exc:
        raise PatternalgError(
            f"{journal}:{number} is not a journal this measurement can resume: "
            f"{printable(str(exc), 120)}; remove it to start anew"
        ) from None
    if end != len(data):  # a journal of this plan: its partly written line goes
        with open(journal, "r+b") as log:
            log.truncate(end)
    return done


def _json_line(line: str) -> Any:
    """One line of a journal as JSON; a ValueError if it is not (or nests too deep)."""
    try:
        return json.loads(line)
    except RecursionError:
        raise ValueError("arrays nested too deep") from None


def _journaled_run(plan: JournaledPlan, record: Any) -> tuple[tuple[int, str, int], float]:
    """A journal line's run, checked against ``plan``: a repetition, region and point of
    it, and a finite value (a wall time: at least 0). A hand-edited NaN, a negative time or
    a repetition beyond the plan's is refused, never put in the measurements."""

    def whole(name: str, end: int) -> int:
        value = record.get(name)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < end:
            raise ValueError(f"{name} {value!r:.40}: expected a whole number from 0 to {end - 1}")
        return value

    if not isinstance(record, dict):
        raise ValueError(f"expected a run's object, got {record!r:.40}")
    repetition, point = whole("repetition", plan.repetitions), whole("point", len(plan.points))
    region, value = record.get("region"), record.get("value")
    if region not in dict(plan.regions):
        raise ValueError(f"region {region!r:.40} is not a region of the plan")
    if not isinstance(value, int | float) or not finite_number(value):
        raise ValueError(f"value {value!r:.40}: expected a finite number")
    if plan.value_regex is None and value < 0:
        raise ValueError(f"value {value!r}: a wall time is at least 0")
    at = record.get("at")
    if at is not None and at != dict(zip(plan.parameters, plan.points[point], strict=True)):
        raise ValueError(f"at {at!r:.60}: point {point} of the plan is elsewhere")
    return (repetition, region, point), float(value)
