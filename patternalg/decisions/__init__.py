"""Design decisions: sweep, compare, optimize, explore.

Each question is a function of the package (defined in the module of the same name),
returning an immutable result with ``to_json()``, ``to_csv()`` and ``_repr_html_``; the CLI
commands of the same names print them:

>>> from patternalg.decisions import compare
>>> [round(c.value, 3) for c in compare(["inc", "nop"]).crossovers]
[10.114]

Modules: ``sweep``, ``compare`` (``crossovers``: where designs cross), ``budget`` (linear
budgets), ``optimize``, ``explore`` (``rewrites``: the laws it rewrites by), ``options`` (the
commands' defaults and numbers, declared once for the CLI and the functions, without numpy).
The decisions evaluate terms with the algebra (grids: :mod:`patternalg.algebra.grid`, numpy
folds: :mod:`patternalg.algebra.arrays`, intervals: :mod:`patternalg.algebra.intervals`) and
read no file format; what compares models with measurements is :mod:`patternalg.evidence`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._internal.lazy import lazy_functions

if TYPE_CHECKING:
    from .compare import compare
    from .explore import explore
    from .optimize import optimize
    from .sweep import sweep

__all__ = ["sweep", "compare", "optimize", "explore"]

lazy_functions(__name__, __all__)
