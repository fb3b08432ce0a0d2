"""The signals that end a process without an exception to clean up after (SIGINT raises
KeyboardInterrupt; SIGTERM and SIGHUP do not), and one way to act on them for a while.

>>> import signal
>>> with ending_handled(lambda signum, previous: None):
...     signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
True
>>> signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
True
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["ENDING", "INTERRUPTING", "ending_handled", "signals_set"]

#: SIGTERM and SIGHUP, where the platform has them
ENDING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
#: Ctrl-C and the signals of :data:`ENDING`: what interrupts a measurement
INTERRUPTING = (signal.SIGINT, *ENDING)


@contextlib.contextmanager
def ending_handled(
    handler: Callable[[int, dict[int, Any]], None], numbers: tuple[int, ...] = ENDING
) -> Iterator[None]:
    """While the block runs, a signal of ``numbers`` (:data:`ENDING`) calls ``handler(signum,
    previous)``, ``previous`` the actions set before (``SIG_DFL`` for one set outside Python);
    they are set again after the block. Handlers can only be set from the main thread;
    elsewhere the block runs as it is."""
    previous: dict[int, Any] = {}
    with signals_set(lambda signum, frame: handler(signum, previous), numbers, previous):
        yield


@contextlib.contextmanager
def signals_set(action: Any, numbers: tuple[int, ...] = INTERRUPTING, previous: dict[int, Any] | None = None) -> Iterator[None]:
    """While the block runs, the signals ``numbers`` have the action ``action`` (a handler,
    ``SIG_IGN``); the actions before, kept in ``previous`` as each is replaced (``SIG_DFL``
    for one set outside Python), are set again after it. Only the main thread can set
    handlers: elsewhere the block runs as it is.

    >>> with signals_set(signal.SIG_IGN, (signal.SIGTERM,)):
    ...     signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
    True
    >>> signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    True
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {} if previous is None else previous
    for number in numbers:
        action_before = signal.signal(number, action)
        before[number] = signal.SIG_DFL if action_before is None else action_before
    try:
        yield
    finally:
        for number, kept in before.items():
            signal.signal(number, kept)
