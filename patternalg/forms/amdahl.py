"""The extended Amdahl form (paper 002): T(x, p) = alpha*T_seq(x)/p + (1 - alpha)*T_seq(x).

``alpha`` is the parallel fraction, ``T_seq`` the sequential (1-core) time, any expression
in x; the simple Amdahl model is the case of a constant ``T_seq``. A model file writes::

    [models.matmul]
    form = "amdahl"
    alpha = 0.98
    tseq = "9.4e-10 * x^3"

>>> build_expr({"alpha": 0.75, "tseq": "4 * x"}, "models.a")
4*x*(0.25 + 0.75/p)
>>> build_expr({"alpha": 1.5, "tseq": 2}, "models.a")
Traceback (most recent call last):
...
patternalg.errors.ModelFileError: models.a.alpha: 1.5 is outside [0.0, 1.0]

Fitting (``patternalg fit FILE --form amdahl``) lives in :mod:`patternalg.forms.amdahl_fit`,
the on-line estimator of section 3.4 in :mod:`patternalg.forms.amdahl_online`; both need
numpy, this module does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar

import sympy

from ..bindings import as_value
from ..errors import ModelFileError
from ..symbols import p, phi
from . import spec_expr, spec_keys, spec_number

__all__ = ["amdahl_expr", "alpha_from_times", "serial_fraction", "build_expr"]

Num = TypeVar("Num")


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

    >>> from patternalg.symbols import x
    >>> amdahl_expr(sympy.Rational(1, 2), 10 * x)
    10*x*(1/2 + 1/(2*p))
    >>> _.xreplace({p: 1})
    10*x
    """
    a, t = as_value(alpha), as_value(tseq)
    return sympy.Mul(t, sympy.Add(sympy.Mul(a, sympy.Pow(p, -1)), serial_fraction(a)))


def alpha_from_times(t_seq: Num, t_p: Num, cores: Num) -> Num:
    """The parallel fraction that explains ``t_p`` on ``cores`` cores: (1 - T_p/T_seq)*p/(p-1).

    This solves T_p = a*T_seq/p + (1 - a)*T_seq for a. (Paper 002 prints
    p/(1-p) * T_p/T_seq, which drops a term.) Works on numbers and numpy arrays; p > 1.

    >>> alpha_from_times(100.0, 32.5, 4.0)
    0.9
    """
    return (1 - t_p / t_seq) * cores / (cores - 1)  # type: ignore[operator, no-any-return]


def build_expr(spec: Mapping[str, Any], where: str) -> sympy.Expr:
    """The closed form from the keys ``alpha`` (in [0, 1]) and ``tseq`` (an expression in x)."""
    spec_keys(spec, where, required=["alpha", "tseq"])
    alpha = spec_number(spec, "alpha", where, 0.0, 1.0)
    tseq = spec_expr(spec, "tseq", where)
    resources = sorted(s.name for s in tseq.free_symbols & {p, phi})
    if resources:
        raise ModelFileError(
            f"{where}.tseq: the sequential time must not depend on {resources[0]} "
            "(the form adds the dependence on p)"
        )
    return amdahl_expr(alpha, tseq)
