"""Closed forms of ours as numpy functions: :func:`numpy_function`, the one place that
lambdifies.

It is ``sympy.lambdify(symbols, expr, "numpy")`` with numpy's namespace as numpy has
loaded it, instead of the star import that ``"numpy"`` makes: ``from numpy import *``
loads the submodules numpy leaves lazy (``numpy.testing`` with ``unittest``, ``numpy.ma``,
``numpy.polynomial``, ...), which nothing compiled here calls; ``compare`` of two terms took
0.66 s with it and 0.48 s without (farm-bench, median of 15 pairs). Only expressions patternalg built itself are compiled (an atom's model,
a count, a machine's cost: symbol names come from the grammar); user text never reaches
``lambdify``.

>>> import numpy as np
>>> x = sympy.Symbol("x")
>>> f = numpy_function([x], sympy.Max(x, 3) * sympy.log(x, 2) + sympy.Rational(1, 4))
>>> f(np.array([2.0, 8.0])).tolist()
[3.25, 24.25]
>>> numpy_function([x], [x + 1, 2 * x])(np.array([1.0, 2.0]))[1].tolist()
[2.0, 4.0]
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import sympy

__all__ = ["numpy_function"]


@functools.cache
def _namespace() -> dict[str, Any]:
    """numpy's names as loaded (its lazy submodules, ``testing`` among them, stay unloaded)."""
    import numpy as np

    return dict(vars(np))


@functools.cache
def _printer() -> Any:
    """The printer ``lambdify`` would choose for ``"numpy"``, with its settings."""
    from sympy.printing.numpy import NumPyPrinter

    settings = {"fully_qualified_modules": False, "inline": True, "allow_unknown_functions": True}
    return NumPyPrinter(settings)


def numpy_function(symbols: Sequence[sympy.Symbol], expr: Any) -> Callable[..., Any]:
    """``expr`` (an expression, or a list of them) as a numpy function of ``symbols``, in
    their order."""
    return sympy.lambdify(list(symbols), expr, modules=[_namespace()], printer=_printer())  # type: ignore[no-any-return]
