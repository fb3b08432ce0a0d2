"""The callbacks long-running library functions take (the library never prints)."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["ProgressCallback"]

#: ``progress(done, total)``, called as work advances (the CLI draws it; None: nobody asks)
ProgressCallback = Callable[[int, int], None] | None
