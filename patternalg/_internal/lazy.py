"""A package whose public functions load on first use: ``from patternalg.decisions import
sweep`` is the function, imported from the module of the same name only then, so a command
that needs none of them does not pay for their imports.

>>> import sys, types
>>> package = types.ModuleType("toy")
>>> sys.modules["toy"] = package
>>> lazy_functions("toy", ["wrap"], {"wrap": "textwrap"}, prefix="")
>>> package.wrap("a b", 1)
['a', 'b']
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["lazy_functions"]


def lazy_functions(
    package: str, names: Sequence[str], modules: Mapping[str, str] | None = None, *, prefix: str | None = None
) -> None:
    """Make ``names`` of the loaded module ``package`` its functions, each loaded on first use
    from ``prefix + modules.get(name, name)`` (``prefix``: the package itself, ``package + "."``);
    a submodule of the same name, once imported, does not replace the function."""
    where = dict(modules or {})
    base = f"{package}." if prefix is None else prefix

    class _Package(types.ModuleType):
        def __getattr__(self, name: str) -> Any:
            if name not in names:
                raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
            return getattr(importlib.import_module(base + where.get(name, name)), name)

        def __dir__(self) -> list[str]:
            return sorted({*super().__dir__(), *names})

        def __setattr__(self, name: str, value: Any) -> None:
            if name in names and isinstance(value, types.ModuleType):
                return  # the import system binds a loaded submodule here: the name stays the verb
            super().__setattr__(name, value)

    sys.modules[package].__class__ = _Package
