"""The module paths of the previous release, kept importing for this one (the modules moved
into packages by concern): ``import patternalg.pointwise`` gives
``patternalg.algebra.pointwise``, with a :class:`DeprecationWarning` naming the new path.

>>> import importlib, warnings
>>> with warnings.catch_warnings(record=True):
...     warnings.simplefilter("always")
...     importlib.import_module("patternalg.strategies").__name__
'patternalg.laws.strategies'
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import warnings
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:  # the protocol, for the type checker only
    from importlib.abc import Loader

__all__ = ["MOVED", "install"]

#: old module -> its new home
MOVED = {
    "patternalg.lalr": "patternalg.syntax.lalr",
    "patternalg.grammar_tables": "patternalg.syntax.grammar_tables",
    "patternalg.terms": "patternalg.syntax.terms",
    "patternalg.arith": "patternalg.syntax.arith",
    "patternalg.symbols": "patternalg.syntax.symbols",
    "patternalg.pointwise": "patternalg.algebra.pointwise",
    "patternalg.bindings": "patternalg.algebra.bindings",
    "patternalg.domains": "patternalg.algebra.domains",
    "patternalg.units": "patternalg.algebra.units",
    "patternalg.explanation": "patternalg.library.evaluate",
    "patternalg.decisions.explanation": "patternalg.library.evaluate",
    "patternalg.decisions.numeric": "patternalg.algebra.arrays",
    "patternalg.decisions.intervals": "patternalg.algebra.intervals",
    "patternalg.decisions.grid": "patternalg.algebra.grid",
    "patternalg.decisions.machines": "patternalg.library.machines",
    "patternalg.decisions.results": "patternalg._internal.tables",
    "patternalg.decisions.validation": "patternalg.evidence.validation",
    "patternalg.decisions.calibration": "patternalg.evidence.calibration",
    "patternalg.render": "patternalg.algebra.render",
    "patternalg.model": "patternalg.algebra.atomic_model",
    "patternalg.pmnf": "patternalg.algebra.normal_forms",
    "patternalg.pmnf.blocks": "patternalg.algebra.normal_forms.blocks",
    "patternalg.pmnf.dominance": "patternalg.algebra.normal_forms.dominance",
    "patternalg.pmnf.maximum": "patternalg.algebra.normal_forms.maximum",
    "patternalg.pmnf.normal_form": "patternalg.algebra.normal_forms.normal_form",
    "patternalg.pmnf.render": "patternalg.algebra.normal_forms.render",
    "patternalg.pmnf.sampling": "patternalg.algebra.normal_forms.sampling",
    "patternalg.builtin_tables": "patternalg.library.builtin_tables",
    "patternalg.proof": "patternalg.laws.proof",
    "patternalg.strategies": "patternalg.laws.strategies",
    "patternalg.atomic_write": "patternalg._internal.atomic_write",
    "patternalg.limits": "patternalg._internal.limits",
    "patternalg.options": "patternalg._internal.options",
}


class _Alias:
    """Finds an old path and loads it as the module at its new one (a meta path finder and
    loader by their methods: ``importlib.abc``, their base classes, loads
    ``importlib.resources`` and ``tempfile``, 4 % of ``eval``'s cold start)."""

    def find_spec(
        self, fullname: str, path: object, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, cast("Loader", self))

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED[spec.name]
        warnings.warn(f"{spec.name} moved to {new}", DeprecationWarning, stacklevel=3)
        module = importlib.import_module(new)
        sys.modules[spec.name] = module
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module at the new path is already loaded."""


def install() -> None:
    """Put the finder on ``sys.meta_path`` once."""
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.append(_Alias())
