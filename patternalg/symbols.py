"""The symbols of patternalg, created once with their assumptions.

``Symbol("x")`` and ``Symbol("x", positive=True)`` are different symbols to sympy, so
every symbol of a model goes through :func:`symbol`.

>>> symbol("x") is x
True
>>> x.is_positive
True
"""

from __future__ import annotations

import sympy
from sympy.codegen.cfunctions import log2

__all__ = ["x", "p", "phi", "n", "m", "o", "symbol", "log2"]

_CACHE: dict[str, sympy.Symbol] = {}


def symbol(name: str) -> sympy.Symbol:
    """Return the one positive symbol called ``name``.

    >>> symbol("n") == sympy.Symbol("n", positive=True)
    True
    """
    found = _CACHE.get(name)
    if found is None:
        found = _CACHE[name] = sympy.Symbol(name, positive=True)
    return found


x = symbol("x")  #: the input size (count of input elements)
p = symbol("p")  #: the cores an atom gets
phi = symbol("phi")  #: F_CPU / F_Mem, the frequency ratio of the memory-wall model
n = symbol("n")  #: threads of a task pool, threads per node of mapReduce
m = symbol("m")  #: compute nodes of mapReduce
o = symbol("o")  #: keys handled by a shuffle
