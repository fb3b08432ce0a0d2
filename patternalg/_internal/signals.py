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

__all__ = ["ENDING", "INTERRUPTING", "ending_handled"]

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
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Any] = {}
    for number in numbers:
        action = signal.signal(number, lambda signum, frame: handler(signum, previous))
        previous[number] = signal.SIG_DFL if action is None else action
    try:
        yield
    finally:
        for number, action in previous.items():
            signal.signal(number, action)
