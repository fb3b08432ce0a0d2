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

import importlib
from typing import Any

from .._internal.options import Option
from ..errors import ModelFileError, close_names, did_you_mean
from .base import Form
from .parameters import Parameter
from .report import FitReport

__all__ = [
    "FORMS",
    "Form",
    "Parameter",
    "Option",
    "FitReport",
    "form_class",
    "fit_families",
    "model_form",
    "model_text",
    "uncertain_form",
    "Expression",
    "PMNF",
    "Amdahl",
    "Memwall",
    "Presca",
]

#: form name -> "module:Class" of its family
FORMS: dict[str, str] = {
    "expr": "patternalg.forms.expr:Expression",
    "pmnf": "patternalg.forms.pmnf:PMNF",
    "amdahl": "patternalg.forms.amdahl:Amdahl",
    "memwall": "patternalg.forms.memwall:Memwall",
    "presca": "patternalg.forms.presca:Presca",
}
#: class name -> form name, for ``from patternalg.forms import Expression``
_CLASSES = {target.partition(":")[2]: name for name, target in FORMS.items()}


def _target(form: str, where: str) -> str:
    target = FORMS.get(form)
    if target is None:
        prefix = f"{where}: " if where else ""
        hint = did_you_mean(close_names(form, FORMS), quote="'", after=" ")
        raise ModelFileError(
            f"{prefix}unknown form '{form}' ({hint}valid: {', '.join(sorted(FORMS))})"
        )
    return target


def form_class(form: str, where: str = "") -> type[Form]:
    """The class of the family ``form``; a ModelFileError naming ``where`` if there is none."""
    module, _, name = _target(form, where).partition(":")
    found: type[Form] = getattr(importlib.import_module(module), name)
    return found


def fit_families() -> dict[str, type[Form]]:
    """The families ``fit`` fits (``--form``), by name: every one but a written expression.

    >>> sorted(fit_families())
    ['amdahl', 'memwall', 'pmnf', 'presca']
    """
    classes = (form_class(name) for name in FORMS)
    return {cls.name: cls for cls in classes if cls.fittable()}


def model_form(model: Any) -> Form | None:
    """The family's model behind a library's :class:`~patternalg.algebra.atomic_model.AtomicModel`, or
    None for a plain expression (``form = "expr"``, or a model built in Python).

    >>> from patternalg.algebra.atomic_model import AtomicModel
    >>> from patternalg.syntax.symbols import x
    >>> model_form(AtomicModel("inc", 536.185 * x)) is None
    True
    """
    if not model.spec:
        return None
    # the spec was checked when the model was built: not parsed again (100,000 models)
    return form_class(model.form)._fitted(
        dict(model.spec), domain={}, statistics={}, expr=lambda: model.expr
    )


def uncertain_form(model: Any) -> Form | None:
    """The family's model behind a library's model with its statistics and uncertainty
    (a plain expression's as an :class:`Expression`), or None if it has no uncertainty:
    what shows a model's coefficients with their intervals (``interval_text()``, ``record()``).

    >>> from patternalg.algebra.atomic_model import AtomicModel
    >>> from patternalg.algebra.uncertainty import Uncertainty
    >>> from patternalg.syntax.symbols import x
    >>> u = Uncertainty((x,), ((0.25,),), 5, 0.01, "linear")
    >>> uncertain_form(AtomicModel("inc", 536.185 * x, uncertainty=u)).interval_text()
    'x: 536.2 [535.4, 537] (90 %)'
    """
    if model.uncertainty is None:
        return None
    from ..syntax.arith import format_expr

    spec = dict(model.spec) if model.spec else {"model": format_expr(model.expr)}
    return form_class(model.form if model.spec else "expr")._fitted(
        spec,
        domain={},
        statistics=dict(model.fit),
        expr=lambda: model.expr,
        uncertainty=model.uncertainty,
    )


def model_text(model: Any, digits: int | None = None) -> str:
    """A library model as a person reads it: its family's description, or with ``digits``
    its legend label (:meth:`Form.describe`, :meth:`Form.label`); a plain expression's
    closed form (its numbers in ``digits`` significant digits).

    >>> from patternalg.algebra.atomic_model import AtomicModel
    >>> from patternalg.syntax.symbols import x
    >>> model_text(AtomicModel("inc", 536.185 * x)), model_text(AtomicModel("inc", 536.185 * x), 2)
    ('536.185*x', '540*x')
    """
    form = model_form(model)
    if form is None:
        from ..algebra.render import shown_model
        from ..syntax.arith import format_expr

        return format_expr(model.expr) if digits is None else shown_model(model.expr, digits)
    return form.describe() if digits is None else form.label(digits)


def __getattr__(name: str) -> Any:
    if name in _CLASSES:
        return form_class(_CLASSES[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
