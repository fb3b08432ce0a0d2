"""The callbacks long-running library functions take (the library never prints)."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import PatternalgError

__all__ = ["ProgressCallback", "OnError"]

#: ``progress(done, total)``, called as work advances (the CLI draws it; None: nobody asks)
ProgressCallback = Callable[[int, int], None] | None
#: ``on_error(error)``, given a series a fit of many left out (None: its error stops them all)
OnError = Callable[[PatternalgError], None] | None
