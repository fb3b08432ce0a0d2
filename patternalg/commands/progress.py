"""Progress bars on stderr for the commands that can run long (fit, laws, check, predict, tune,
compare, explore, optimize).

The library never prints: its long-running functions take an optional ``progress(done,
total)`` callback. A command passes a :class:`Progress`, which draws a tqdm bar on stderr
only if stderr is a terminal, ``--quiet`` is not given, and the work has already run for
:data:`DELAY` seconds — so a short command never imports tqdm (about 0.1 s) and a pipe or
a log file never receives a bar.

>>> import argparse
>>> with progress(argparse.Namespace(quiet=True), "fitting", "kernels") as bar:
...     bar(1, 2)
>>> bar.bar is None
True
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Iterator
from types import TracebackType
from typing import Any, TypeVar

__all__ = ["DELAY", "Progress", "progress", "quiet"]

#: seconds of work before a bar appears
DELAY = 1.0

T = TypeVar("T")


def quiet(args: argparse.Namespace) -> bool:
    """Whether ``--quiet`` was given (silences progress and notes, never errors)."""
    return bool(getattr(args, "quiet", False))


class Progress:
    """A ``progress(done, total)`` callback drawing a tqdm bar once the work is slow.

    ``total`` may be None (a count without an end, e.g. kernels of a file read in batches).
    """

    def __init__(self, what: str, unit: str, *, enabled: bool) -> None:
        self.what, self.unit, self.enabled = what, unit, enabled
        self.start = time.perf_counter()
        self.bar: Any = None

    def __call__(self, done: int, total: int | None = None) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            if time.perf_counter() - self.start < DELAY:
                return
            from tqdm import tqdm  # only now: a quick command never pays its import

            self.bar = tqdm(
                total=total, desc=self.what, unit=f" {self.unit}", file=sys.stderr, leave=False
            )
        if total is not None and self.bar.total != total:
            self.bar.total = total
        self.bar.update(done - self.bar.n)

    def iterate(self, items: Iterable[T], total: int | None = None) -> Iterator[T]:
        """``items``, counting each one done."""
        for done, item in enumerate(items, start=1):
            yield item
            self(done, total)

    def close(self) -> None:
        """Remove the bar (``leave=False``): stderr keeps only notes and errors."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def progress(args: argparse.Namespace, what: str, unit: str) -> Progress:
    """The progress of a command: shown on a terminal unless ``--quiet``."""
    return Progress(what, unit, enabled=not quiet(args) and sys.stderr.isatty())
