"""The extended Amdahl form (paper 002): T(x, p) = alpha*T_seq(x)/p + (1 - alpha)*T_seq(x).

``alpha`` is the parallel fraction, ``T_seq`` the sequential (1-core) time, any expression
in x; the simple Amdahl model is the case of a constant ``T_seq``. A model file writes::

    [models.matmul]
    form = "amdahl"
    alpha = 0.98
    tseq = "9.4e-10 * x^3"

>>> Amdahl(0.75, "4 * x").expr
4*x*(0.25 + 0.75/p)
>>> Amdahl.from_table({"alpha": 1.5, "tseq": 2}, "models.a")
Traceback (most recent call last):
...
patternalg.errors.ModelFileError: models.a.alpha: 1.5 is outside [0.0, 1.0]

The fitters (``patternalg fit FILE --form amdahl``) are in :mod:`.fit`, the on-line
estimator of section 3.4 in :mod:`.online`; both need numpy, this module does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, ClassVar

import sympy

from ..._internal.options import Option
from ...algebra.bindings import as_value
from ...syntax.symbols import p, phi
from ..base import Form
from ..fit_options import aggregate_option, uncertainty_option, unit_option
from ..parameters import Parameter

__all__ = ["Amdahl", "ALPHA_METHODS", "amdahl_expr", "serial_fraction"]

#: how alpha is estimated (see :mod:`.fit`); ``highest`` is the paper's choice
ALPHA_METHODS = ("highest", "mean", "clamped-mean", "joint")


def serial_fraction(fraction: sympy.Expr) -> sympy.Expr:
    """1 - ``fraction``; for a float, the decimal difference (1 - 0.9946 prints as 0.0054, not
    0.00539999999999996) when it still adds up to exactly 1, so that models stay exact at p = 1.

    >>> serial_fraction(sympy.Float(0.9946)), serial_fraction(sympy.Rational(3, 4))
    (0.00540000000000000, 1/4)
    """
    if not isinstance(fraction, sympy.Float):
        return sympy.Add(1, -fraction)
    value = float(fraction)
    decimal = float(1 - Decimal(repr(value)))
    return sympy.Float(decimal if decimal + value == 1.0 else 1.0 - value)


def amdahl_expr(alpha: sympy.Expr | float, tseq: sympy.Expr | float) -> sympy.Expr:
    """The closed form alpha*T_seq/p + (1 - alpha)*T_seq, in the symbol ``p``.

    It is kept as T_seq*(alpha/p + 1 - alpha), so T_seq stays readable.

    >>> from patternalg.syntax.symbols import x
    >>> amdahl_expr(sympy.Rational(1, 2), 10 * x)
    10*x*(1/2 + 1/(2*p))
    >>> _.xreplace({p: 1})
    10*x
    """
    a, t = as_value(alpha), as_value(tseq)
    return sympy.Mul(t, sympy.Add(sympy.Mul(a, sympy.Pow(p, -1)), serial_fraction(a)))


def _tseq_check(tseq: sympy.Expr) -> str | None:
    resources = sorted(s.name for s in tseq.free_symbols & {p, phi})
    if resources:
        return (
            f"the sequential time must not depend on {resources[0]} "
            "(the form adds the dependence on p)"
        )
    return None


class Amdahl(Form):
    """Extended Amdahl model (paper 002)."""

    name = "amdahl"
    parameters: ClassVar[tuple[Parameter, ...]] = (
        Parameter("alpha", bounds=(0.0, 1.0), help="the parallel fraction"),
        Parameter("tseq", kind="expression", check=_tseq_check, help="T_seq, an expression in x"),
    )
    fitter = "patternalg.forms.amdahl.fit:AmdahlFitter"
    inputs = ("x", "p")
    fit_options: ClassVar[tuple[Option, ...]] = (
        Option(
            "degree",
            None,
            "degree of the T_seq polynomial",
            type=int,
            minimum=0,
            default_text="1 with a column x, else 0",
        ),
        Option(
            "alpha_method",
            "highest",
            "how alpha is estimated",
            choices=ALPHA_METHODS,
            cli="--alpha",
        ),
        aggregate_option("median"),
        unit_option(),
        uncertainty_option(),
    )

    def _build(self, values: Mapping[str, sympy.Expr]) -> sympy.Expr:
        return amdahl_expr(values["alpha"], values["tseq"])

    def record(self) -> dict[str, Any]:
        """For JSON: the parameters are alpha and the T_seq coefficients c0 .. cK."""
        from ...syntax.symbols import x

        tseq = self._cache_values()["tseq"]
        coefficients = sympy.Poly(tseq, x).all_coeffs()[::-1] if tseq.free_symbols else [tseq]
        parameters = {"alpha": float(self.values["alpha"])}
        parameters.update({f"c{i}": float(c) for i, c in enumerate(coefficients)})
        return {**super().record(), "parameters": parameters}
