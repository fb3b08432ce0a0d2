"""Running a program for ``patternalg measure``: once, in a session of its own, its value
taken and, on a timeout or an interruption, stopped with every process it started.

A run is never passed through a shell (an argument list); its standard input is empty. It
runs in a session of its own, so that :func:`stop` reaches its children (``sh -c "sleep 25;
..."``'s sleep too) and no signal meant for ``measure`` reaches it; it has no controlling
terminal (docs/fitting.md).
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import select
import shlex
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from typing import IO, Any

from .._internal.limits import printable
from .._internal.signals import signals_set
from .._internal.surface import either, flag
from ..errors import PatternalgError, reason

__all__ = ["run_program", "signals_held", "stop"]


#: the most of a program's standard output ``--value-regex`` searches (bytes): a run that
#: prints more is an error, never read into memory
OUTPUT_LIMIT = 64 * 2**20
#: how much of the end of a failed program's standard error is read for its last line
_TAIL = 4096


def run_program(argv: Sequence[str], timeout: float, timeout_given: str,
                value_regex: str | None) -> tuple[float, float]:  # fmt: skip
    r"""Run ``argv`` once: its value (its wall time in s, or the number its standard output
    shows where ``value_regex`` finds one) and its wall time, from its start to its exit
    (processes it leaves running are not waited for). A run still going after ``timeout`` s
    (set by ``timeout_given``, which the message names) is stopped with its processes, as one
    interrupted is; a failed run, or an output without a number, is an error.

    Its standard output goes to a temporary file where ``value_regex`` searches it (else
    nowhere), its standard error to another, of which only the last line is read: neither is
    held in memory nor read while the run is timed.

    >>> value, elapsed = run_program(["true"], 10.0, "--timeout", None)
    >>> value == elapsed and 0 < value < 10
    True
    >>> run_program(["echo", "took 42.5 ms"], 10.0, "--timeout", r"took (\S+) ms")[0]
    42.5
    """
    shown = shlex.join(argv)
    output: contextlib.AbstractContextManager[Any] = (
        contextlib.nullcontext(subprocess.DEVNULL) if value_regex is None else tempfile.TemporaryFile()
    )
    with output as stdout, tempfile.TemporaryFile() as stderr:
        start = time.perf_counter()
        process: subprocess.Popen[bytes] | OSError
        with _signals_deferred() as noted:
            try:  # in a session of its own: its processes are stopped together, and only by measure
                process = subprocess.Popen(
                    argv, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                    start_new_session=os.name == "posix",
                )  # fmt: skip
            except OSError as exc:
                process = exc
        if noted:  # a signal while it started: it stops, and the signal acts as it would have
            if not isinstance(process, OSError):
                stop(process)
            signal.raise_signal(noted[0])
        if isinstance(process, OSError):
            raise PatternalgError(f"cannot run {printable(shown)}: {reason(process)}")
        try:
            _exited(process, timeout)
        except subprocess.TimeoutExpired:
            stop(process)
            raise PatternalgError(
                f"{printable(shown)}: still running after {timeout:g} s ({timeout_given}); it was stopped"
            ) from None
        except BaseException:  # Ctrl-C, or a SIGTERM (_interrupt): the program stops too
            stop(process)
            raise
        elapsed = time.perf_counter() - start
        if process.returncode != 0:
            raise PatternalgError(f"{shown} failed ({_ending(process.returncode)}): {printable(_last_line(stderr), 200)}")
        if value_regex is None:
            return elapsed, elapsed
        return _value(shown, value_regex, stdout), elapsed


def _exited(process: subprocess.Popen[bytes], timeout: float) -> None:
    """Wait until ``process`` exits (a TimeoutExpired after ``timeout`` s): on Linux at its
    exit itself (a pidfd); elsewhere ``Popen.wait``, which looks every 50 ms at most."""
    opened = getattr(os, "pidfd_open", None)
    try:
        fd = opened(process.pid) if opened else -1
    except OSError:
        fd = -1
    if fd < 0:
        process.wait(timeout)
        return
    try:
        waiting = select.poll()
        waiting.register(fd, select.POLLIN)
        deadline = time.monotonic() + timeout
        while not waiting.poll(_milliseconds(deadline - time.monotonic())):  # a day at most
            if time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(process.args, timeout)
    finally:
        os.close(fd)
    process.wait()


def _milliseconds(seconds: float) -> int:
    """A wait of ``seconds`` as ``poll`` takes it (milliseconds, a C int): a day at most.

    >>> _milliseconds(0.0004), _milliseconds(1e8), _milliseconds(-1.0)
    (1, 86400000, 0)
    """
    return math.ceil(min(max(seconds, 0.0), 86400.0) * 1000)


def _ending(status: int) -> str:
    """How a program with exit status ``status`` (not 0; -N: signal N) ended.

    >>> _ending(3), _ending(-11), _ending(-9)
    ('exit status 3', 'killed by signal SIGSEGV', 'killed by signal SIGKILL: out of memory, or killed')
    """
    if status >= 0:
        return f"exit status {status}"
    try:
        name = signal.Signals(-status).name
    except ValueError:
        name = str(-status)
    return f"killed by signal {name}" + (": out of memory, or killed" if name == "SIGKILL" else "")


def _last_line(stderr: IO[bytes]) -> str:
    """The last line that is not blank of the end of ``stderr`` (a file), or ``no message``."""
    size = stderr.seek(0, os.SEEK_END)
    stderr.seek(max(0, size - _TAIL))
    lines = stderr.read().decode(errors="replace").strip().splitlines()
    return lines[-1] if lines else "no message"


def _value(shown: str, value_regex: str, stdout: IO[bytes]) -> float:
    """The number ``value_regex`` finds in standard output ``stdout`` (a file): its first
    group that takes part in the match, else the whole match; an error if there is none,
    it is no finite number, or the output is larger than :data:`OUTPUT_LIMIT`."""
    size = stdout.seek(0, os.SEEK_END)
    if size > OUTPUT_LIMIT:
        raise PatternalgError(
            f"{shown}: its standard output has {size:,} bytes; {flag('value-regex')} searches "
            f"{OUTPUT_LIMIT:,} at most: print less, or measure the wall time "
            f"({either('no --value-regex', 'value_regex=None')})"
        )
    stdout.seek(0)
    match = re.search(value_regex, stdout.read().decode(errors="replace"))
    if match is None:
        raise PatternalgError(f"{shown}: its standard output has no match of {flag('value-regex', repr(value_regex))}")
    text = next((g for g in match.groups() if g is not None), None) if match.groups() else match[0]
    if text is None:
        raise PatternalgError(
            f"{shown}: {flag('value-regex', repr(value_regex))} matched {match[0]!r:.40}, but none of its "
            "groups took part in the match (the value is the first group that does)"
        )
    with contextlib.suppress(ValueError):
        value = float(text)
        if math.isfinite(value):
            return value
    raise PatternalgError(f"{shown}: {flag('value-regex')} matched {text!r:.40}, which is not a finite number")


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a program that runs in a session of its own and every process it started there
    (``sh -c "sleep 25; ..."``'s sleep too): SIGTERM, and a second later SIGKILL."""
    if os.name != "posix":
        process.kill()
        process.wait()
        return
    # a second Ctrl-C (or SIGTERM) waits until the processes are gone: raised inside the
    # grace second, it would leave them running (the exception under way ends measure)
    with signals_held():
        for signum in (signal.SIGTERM, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signum)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=1.0)
        process.wait()


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """While the block runs, Ctrl-C, SIGTERM and SIGHUP do nothing (where handlers can be
    set: the main thread); their actions are set again after it."""
    with signals_set(signal.SIG_IGN):
        yield


@contextlib.contextmanager
def _signals_deferred() -> Iterator[list[int]]:
    """While the block runs, Ctrl-C, SIGTERM and SIGHUP are noted in the list it gives, not
    acted on (in the main thread): a program started inside is known, and stopped, before
    the signal ends measure. Raised inside ``subprocess.Popen`` once the program had
    started, a KeyboardInterrupt lost the process object, and the program ran on in its
    session, which no signal to measure reaches."""
    noted: list[int] = []
    with signals_set(lambda signum, frame: noted.append(signum)):
        yield noted
