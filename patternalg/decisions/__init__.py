"""Design decisions: sweep, compare, optimize, explore; validate, the models against
measurements; and calibrate, a machine from measurements.

Each question is a function of the package (defined in the module of the same name;
``validate`` in ``validation``, ``calibrate`` in ``calibration``), returning an immutable result with ``to_json()``, ``to_csv()`` and ``_repr_html_``; the CLI
commands of the same names print them:

>>> from patternalg.decisions import compare
>>> [round(c.value, 3) for c in compare(["inc", "nop"]).crossovers]
[10.114]

Modules: ``grid`` (``A..B:N:log`` and lists), ``numeric`` (terms on numpy grids),
``sweep``, ``compare``, ``budget`` (linear budgets), ``optimize``, ``explore``,
``validation``, ``calibration``, ``machines`` (``machine=``), ``results`` (what the results share), ``options`` (the commands' defaults
and numbers, declared once for the CLI and the functions, without numpy).
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .calibration import calibrate
    from .compare import compare
    from .explore import explore
    from .optimize import optimize
    from .sweep import sweep
    from .validation import validate

__all__ = ["sweep", "compare", "optimize", "explore", "validate", "calibrate"]
#: the module of each function whose module is named otherwise
_MODULE = {"validate": "validation", "calibrate": "calibration"}


class _Package(types.ModuleType):
    """The package's ``sweep``, ``compare``, ``optimize``, ``explore``, ``validate`` and
    ``calibrate`` are
    the functions, loaded on first use (a command that needs none of them does not pay for their imports);
    a module of the same name, once imported, does not replace them."""

    def __getattr__(self, name: str) -> Any:
        if name not in __all__:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        module = _MODULE.get(name, name)
        return getattr(importlib.import_module(f"{self.__name__}.{module}"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in __all__ and isinstance(value, types.ModuleType):
            return  # the import system binds a loaded submodule here: the name stays the verb
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
