"""Immutable results whose numpy arrays are read-only, in a copy too: numpy unpickles (and
``copy.deepcopy`` copies) an array writable, so that a change to a copy's arrays would change
what it reports.

>>> import copy, numpy as np
>>> class Held(ReadOnlyArrays):
...     def __init__(self, values: np.ndarray) -> None:
...         self.values = read_only(values)
>>> twin = copy.deepcopy(Held(np.arange(3.0)))
>>> twin.values.flags.writeable
False
"""

from __future__ import annotations

from typing import Any

__all__ = ["ReadOnlyArrays", "read_only"]


def read_only(value: Any) -> Any:
    """``value`` with every numpy array in it (in tuples too) made read-only in place."""
    if isinstance(value, tuple):
        return tuple(read_only(v) for v in value)
    if callable(getattr(value, "setflags", None)):
        value.setflags(write=False)
    return value


class ReadOnlyArrays:
    """A base whose instances' arrays stay read-only when they are unpickled or copied."""

    def __setstate__(self, state: dict[str, Any]) -> None:
        vars(self).update({name: read_only(value) for name, value in state.items()})
