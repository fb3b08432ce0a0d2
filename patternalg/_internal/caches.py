"""Objects that cache what they compute in ``functools.cached_property`` values (a closed
form, a lambdified function, a fold's derivation): pickled and copied without them, each
built again on first use in the copy.

>>> import copy, functools
>>> class Squared(Recomputed):
...     def __init__(self, n: int) -> None:
...         self.n = n
...     @functools.cached_property
...     def square(self) -> int:
...         return self.n * self.n
>>> s = Squared(3)
>>> s.square, sorted(vars(s)), sorted(s.__getstate__())
(9, ['n', 'square'], ['n'])
>>> twin = copy.copy(s)
>>> sorted(vars(twin)), twin.square
(['n'], 9)
"""

from __future__ import annotations

import functools
from typing import Any

__all__ = ["Recomputed", "cached_names"]


def cached_names(kind: type) -> frozenset[str]:
    """The names of the ``functools.cached_property`` values of ``kind`` and its bases."""
    return frozenset(
        name
        for base in kind.__mro__
        for name, value in vars(base).items()
        if isinstance(value, functools.cached_property)
    )


class Recomputed:
    """A base whose instances pickle and copy (``copy.copy``, ``copy.deepcopy``) without the
    values of their cached properties: a lambda cannot be pickled, and a cache is no part of
    what the object is."""

    def __getstate__(self) -> dict[str, Any]:
        cached = cached_names(type(self))
        return {name: value for name, value in vars(self).items() if name not in cached}
