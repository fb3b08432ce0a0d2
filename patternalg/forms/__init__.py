"""Families of atomic models: one :class:`~patternalg.forms.base.Form` subclass per family.

``FORMS`` names the class of each family; :func:`form_class` loads it when first needed, so
``patternalg eval`` loads no family it does not use (and numpy only to evaluate numerically).
The classes are importable from here (``from patternalg.forms import *``), which is what a
model's ``repr`` needs to be evaluated back.

>>> form_class("expr").from_table({"model": "536.185*x"}, "example").expr
536.185*x
>>> form_class("amdhal", "m.toml: models.a")
Traceback (most recent call last):
...
patternalg.errors.ModelFileError: m.toml: models.a: unknown form 'amdhal' (did you mean 'amdahl'? valid: amdahl, expr, memwall, pmnf, presca)
"""

from __future__ import annotations

import difflib
import importlib
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import sympy

from ..errors import ModelFileError
from .base import FitReport, Form, Option, Parameter, check_keys

if TYPE_CHECKING:
    from types import ModuleType

__all__ = [
    "FORMS",
    "Form",
    "Parameter",
    "Option",
    "FitReport",
    "form_class",
    "Expression",
    "PMNF",
    "Amdahl",
    "Memwall",
]

#: form name -> "module:Class" of its family (a bare module: a family not yet on the protocol)
FORMS: dict[str, str] = {
    "expr": "patternalg.forms.expr:Expression",
    "pmnf": "patternalg.forms.pmnf:PMNF",
    "amdahl": "patternalg.forms.amdahl:Amdahl",
    "memwall": "patternalg.forms.memwall:Memwall",
    "presca": "patternalg.forms.presca",
}
#: class name -> form name, for ``from patternalg.forms import Expression``
_CLASSES = {target.partition(":")[2]: name for name, target in FORMS.items() if ":" in target}


def _target(form: str, where: str) -> str:
    target = FORMS.get(form)
    if target is None:
        prefix = f"{where}: " if where else ""
        close = difflib.get_close_matches(form, list(FORMS), n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        raise ModelFileError(
            f"{prefix}unknown form '{form}' ({hint}valid: {', '.join(sorted(FORMS))})"
        )
    return target


def form_class(form: str, where: str = "") -> type[Form]:
    """The class of the family ``form``; a ModelFileError naming ``where`` if there is none."""
    module, _, name = _target(form, where).partition(":")
    found: type[Form] = getattr(importlib.import_module(module), name or "FORM")
    return found


def form_module(form: str, where: str = "") -> ModuleType:
    """The module of a family not yet on the protocol (``build_expr``, ``fit_file``)."""
    return importlib.import_module(_target(form, where).partition(":")[0])


def build_form(form: str, spec: Mapping[str, Any], where: str) -> sympy.Expr:
    """The closed form of a model of ``form`` from the keys of its model-file table."""
    if ":" in _target(form, where):
        return form_class(form, where).from_table(spec, where).expr
    return form_module(form, where).build_expr(spec, where)  # type: ignore[no-any-return]


def __getattr__(name: str) -> Any:
    if name in _CLASSES:
        return form_class(_CLASSES[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --- for the families not yet on the protocol (presca) ------------------------------------
@dataclass(frozen=True)
class LegacyFitReport:
    """What a family not yet on the protocol returns per kernel."""

    model: Any  # patternalg.library.AtomicModel
    summary: str
    record: Mapping[str, Any] = field(default_factory=dict)


spec_keys = check_keys


def spec_expr(spec: Mapping[str, Any], key: str, where: str) -> sympy.Expr:
    """An expression-valued key: a number, or a string in the grammar's arithmetic."""
    return Parameter(key, kind="expression").value(spec[key], where)


def spec_number(
    spec: Mapping[str, Any], key: str, where: str, low: float = -math.inf, high: float = math.inf
) -> sympy.Expr:
    """A number-valued key within [low, high], as an exact sympy number."""
    return Parameter(key, bounds=(low, high)).value(spec[key], where)
