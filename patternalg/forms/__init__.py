"""Families of atomic models, each with its closed form and its fitter.

A form module ``patternalg.forms.NAME`` provides

* ``build_expr(spec, where) -> sympy.Expr``: the closed form from the keys of a model file
  table (``spec`` holds every key but the common ones: form, unit, source, x_range, fit);
and its fitter (:data:`FITTERS`, the same module or ``NAME_fit``) provides
``fit_file(path, options) -> list[FitReport]`` if the form can be fitted from a
measurement file by ``patternalg fit FILE --form NAME`` (``options`` is the parsed
command line).

Forms load lazily, so ``patternalg eval`` never imports numpy or scipy for the built-ins.

>>> build_form("expr", {"model": "536.185*x"}, "example")
536.185*x
"""

from __future__ import annotations

import difflib
import importlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import sympy

from ..errors import ModelFileError, ParseError
from ..model import COMMON_KEYS

__all__ = [
    "FORMS",
    "FitReport",
    "build_form",
    "form_module",
    "fit_file",
    "spec_keys",
    "spec_expr",
    "spec_number",
]

#: form name -> module that implements it
FORMS: dict[str, str] = {
    "expr": "patternalg.forms.expr",
    "pmnf": "patternalg.forms.pmnf",
    "amdahl": "patternalg.forms.amdahl",
    "memwall": "patternalg.forms.memwall",
    "presca": "patternalg.forms.presca",
}
#: form name -> module whose ``fit_file`` fits it (the fitters import their forms, not back)
FITTERS: dict[str, str] = {
    "pmnf": "patternalg.forms.pmnf",
    "amdahl": "patternalg.forms.amdahl_fit",
    "memwall": "patternalg.forms.memwall_fit",
    "presca": "patternalg.forms.presca",
}


@dataclass(frozen=True)
class FitReport:
    """What a fitter returns per kernel: the model, a line for people, a record for JSON."""

    model: Any  # patternalg.library.AtomicModel
    summary: str
    record: Mapping[str, Any] = field(default_factory=dict)


def form_module(form: str, where: str = "") -> ModuleType:
    """The module implementing ``form``; a clear error for unknown forms."""
    module = FORMS.get(form)
    if module is None:
        prefix = f"{where}: " if where else ""
        raise ModelFileError(f"{prefix}unknown form '{form}' (valid: {', '.join(sorted(FORMS))})")
    return importlib.import_module(module)


def fit_file(form: str, path: str, options: Any) -> list[FitReport]:
    """``patternalg fit FILE --form FORM``: the form's fitter applied to ``path``."""
    module = FITTERS.get(form)
    if module is None:
        raise ModelFileError(f"form '{form}' cannot be fitted (fittable: {', '.join(FITTERS)})")
    fit: Callable[[str, Any], list[FitReport]] = importlib.import_module(module).fit_file
    return fit(path, options)


def build_form(form: str, spec: Mapping[str, Any], where: str) -> sympy.Expr:
    """The closed form of a model of ``form`` from the keys of its model-file table."""
    builder: Callable[[Mapping[str, Any], str], sympy.Expr] = form_module(form, where).build_expr
    return builder(spec, where)


# --- helpers for form builders -------------------------------------------------------------
def spec_keys(
    spec: Mapping[str, Any], where: str, required: Sequence[str], optional: Sequence[str] = ()
) -> None:
    """Check that ``spec`` has every required key and nothing unknown."""
    valid = [*required, *optional]
    for key in spec:
        if key not in valid:
            close = difflib.get_close_matches(key, valid, n=1)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise ModelFileError(
                f"{where}.{key}: unknown key ({hint}valid: {', '.join([*valid, *COMMON_KEYS])})"
            )
    for key in required:
        if key not in spec:
            raise ModelFileError(f"{where}: missing key '{key}'")


def spec_expr(spec: Mapping[str, Any], key: str, where: str) -> sympy.Expr:
    """An expression-valued key: a number, or a string in the grammar's arithmetic."""
    from ..syntax import parse_arithmetic

    value = spec[key]
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ModelFileError(f"{where}.{key}: expected an expression string or a number")
    if not isinstance(value, str):
        return spec_number(spec, key, where)
    try:
        return parse_arithmetic(value)
    except ParseError as exc:
        raise ModelFileError(f"{where}.{key}: {exc}") from None


def spec_number(
    spec: Mapping[str, Any],
    key: str,
    where: str,
    low: float = -math.inf,
    high: float = math.inf,
) -> sympy.Expr:
    """A number-valued key within [low, high], as an exact sympy number."""
    value = spec[key]
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ModelFileError(f"{where}.{key}: expected a finite number, got {value!r}")
    if not low <= value <= high:
        raise ModelFileError(f"{where}.{key}: {value} is outside [{low}, {high}]")
    return sympy.Integer(value) if isinstance(value, int) else sympy.Float(value)
