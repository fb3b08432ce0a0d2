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
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence

from .._internal.limits import printable
from .._internal.signals import ENDING
from ..errors import PatternalgError, reason

__all__ = ["run_program", "signals_held", "stop"]


def run_program(argv: Sequence[str], timeout: float, timeout_given: str,
                value_regex: str | None) -> tuple[float, float]:  # fmt: skip
    r"""Run ``argv`` once: its value (its wall time in s, or the number its output shows where
    ``value_regex`` finds one) and its wall time. A run still going after ``timeout`` s (set by
    ``timeout_given``, which the message names) is stopped with its processes, as one
    interrupted is; a failed run, or an output without a number, is an error.

    >>> value, elapsed = run_program(["true"], 10.0, "--timeout", None)
    >>> value == elapsed and 0 < value < 10
    True
    >>> run_program(["echo", "took 42.5 ms"], 10.0, "--timeout", r"took (\S+) ms")[0]
    42.5
    """
    shown = shlex.join(argv)
    start = time.perf_counter()
    try:  # in a session of its own: its processes are stopped together, and only by measure
        process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=os.name == "posix",
        )
    except OSError as exc:
        raise PatternalgError(f"cannot run {printable(shown)}: {reason(exc)}") from None
    try:
        stdout, stderr = process.communicate(timeout=timeout)
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
        last = stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
        raise PatternalgError(f"{shown} failed (exit status {process.returncode}): {last[0]:.200}")
    if value_regex is None:
        return elapsed, elapsed
    output = stdout.decode(errors="replace")
    match = re.search(value_regex, output)
    if match is None:
        raise PatternalgError(
            f"{shown}: its output has no match of --value-regex {value_regex!r}"
        )
    text = match.group(1) if match.groups() else match.group(0)
    with contextlib.suppress(ValueError):
        value = float(text)
        if math.isfinite(value):
            return value, elapsed
    raise PatternalgError(
        f"{shown}: --value-regex matched {text!r:.40}, which is not a finite number"
    )


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
    for pipe in (process.stdout, process.stderr):
        if pipe is not None:
            pipe.close()


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """While the block runs, Ctrl-C, SIGTERM and SIGHUP do nothing (where handlers can be
    set: the main thread); their actions are set again after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.signal(number, signal.SIG_IGN) for number in (signal.SIGINT, *ENDING)}
    try:
        yield
    finally:
        for number, action in previous.items():
            signal.signal(number, signal.SIG_DFL if action is None else action)
