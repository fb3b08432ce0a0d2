"""PreSca's fitted model: the performance function of a workload in p, and its model-file table.

Inside the measured range the interpolating polynomial applies (of the values, or of their
inverse), elsewhere the chosen candidate function; the closed form is a ``Piecewise`` of
the two, and :meth:`PerformanceFunction.spec` / :func:`build_expr` write and read the
``presca`` table of a model file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy

from ...errors import ModelFileError
from ...symbols import p as P
from .. import spec_keys, spec_number
from .candidates import CANDIDATES, Candidate, CubicLn, candidate_named, numbers

__all__ = ["PerformanceFunction", "build_expr"]


@dataclass(frozen=True)
class PerformanceFunction:
    """A workload's performance in p: ``polynomial`` on ``p_range``, ``candidate`` elsewhere.

    Either part may be missing (an interpolation-only function covers ``p_range`` only).
    """

    candidate: Candidate | None = None
    parameters: tuple[float, ...] = ()
    polynomial: tuple[float, ...] = ()
    p_range: tuple[float, float] | None = None
    #: the polynomial interpolates 1/value (a rate) and the function is its inverse
    inverse: bool = False

    def __call__(self, n: np.ndarray) -> np.ndarray:
        """Values at thread counts ``n``.

        >>> PerformanceFunction(polynomial=(1.0, 2.0), p_range=(1, 4))(np.array([2]))
        array([5.])
        """
        n = np.asarray(n, dtype=float)
        out = np.full(n.shape, np.nan)
        inside = np.zeros(n.shape, dtype=bool)
        if self.polynomial and self.p_range is not None:
            inside = (n >= self.p_range[0]) & (n <= self.p_range[1])
            values = np.polyval(np.asarray(self.polynomial)[::-1], n[inside])
            out[inside] = 1.0 / values if self.inverse else values
        if self.candidate is not None:
            out[~inside] = self.candidate.values(np.asarray(self.parameters), n[~inside])
        return out

    @property
    def name(self) -> str:
        """The candidate function's name, or ``poly<degree>`` for an interpolation only."""
        if self.candidate is not None:
            return self.candidate.name
        degree = f"poly{len(self.polynomial) - 1}"
        return f"1/{degree}" if self.inverse else degree

    def expr(self) -> sympy.Expr:
        """The closed form in ``p`` (a ``Piecewise`` when both parts are present).

        >>> PerformanceFunction(CubicLn(), (1.0, 2.0, 0.0, 0.0)).expr()
        2.0*log(p) + 1.0
        """
        p_range = None if self.p_range is None else tuple(numbers(self.p_range))
        return _closed_form(
            self.candidate, numbers(self.parameters), numbers(self.polynomial), p_range, self.inverse
        )

    def spec(self) -> tuple[tuple[str, Any], ...]:
        """The keys of the ``presca`` table in a model file (see :func:`build_expr`)."""
        keys: list[tuple[str, Any]] = []
        if self.candidate is not None:
            keys.append(("kernel", self.candidate.name))
            named = zip(self.candidate.params, self.parameters, strict=True)
            keys.append(("parameters", {k: float(v) for k, v in named}))
        if self.polynomial and self.p_range is not None:
            keys.append(("interpolation", [float(c) for c in self.polynomial]))
            keys.append(("interpolation_range", [float(v) for v in self.p_range]))
            if self.inverse:
                keys.append(("interpolation_of", "inverse"))
        return tuple(keys)


def build_expr(spec: Mapping[str, Any], where: str) -> sympy.Expr:
    """The closed form in p of a ``presca`` model-file table.

    Keys: ``kernel`` (the candidate function: Rat12, Rat22, Rat23, Rat33, CubicLn, ExpRat)
    with ``parameters`` (a table of its parameters in Table 1's names), and/or
    ``interpolation`` (the polynomial's coefficients, lowest power first) with
    ``interpolation_range`` ([low, high]) and ``interpolation_of`` (``value``, the default,
    or ``inverse``: the polynomial is of 1/value).

    >>> build_expr({"kernel": "Rat12", "parameters": {"a0": 1, "a1": 2, "b1": 0, "b2": 0.5}}, "m")
    (2*p + 1)/(0.5*p**2 + 1)
    >>> build_expr({"kernel": "Rat21"}, "models.w")
    Traceback (most recent call last):
    ...
    patternalg.errors.ModelFileError: models.w.kernel: unknown kernel function 'Rat21' (valid: ...)
    """
    spec_keys(
        spec,
        where,
        [],
        ["kernel", "parameters", "interpolation", "interpolation_range", "interpolation_of"],
    )
    candidate: Candidate | None = None
    parameters: tuple[sympy.Expr, ...] = ()
    if "kernel" in spec:
        candidate = candidate_named(str(spec["kernel"]))
        if candidate is None:
            raise ModelFileError(
                f"{where}.kernel: unknown kernel function {spec['kernel']!r} "
                f"(valid: {', '.join(f.name for f in CANDIDATES)})"
            )
        table = spec.get("parameters")
        if not isinstance(table, Mapping) or sorted(table) != sorted(candidate.params):
            raise ModelFileError(
                f"{where}.parameters: {candidate.name} needs a table of exactly "
                f"{', '.join(candidate.params)}"
            )
        parameters = tuple(spec_number(table, k, f"{where}.parameters") for k in candidate.params)
    polynomial: tuple[sympy.Expr, ...] = ()
    p_range: tuple[sympy.Expr, sympy.Expr] | None = None
    if ("interpolation" in spec) != ("interpolation_range" in spec):
        raise ModelFileError(f"{where}: interpolation and interpolation_range go together")
    if "interpolation" in spec:
        polynomial = _numbers_list(spec, "interpolation", where, "a list of coefficients")
        bounds = _numbers_list(spec, "interpolation_range", where, "[low, high]", length=2)
        low, high = bounds
        if low > high:
            raise ModelFileError(f"{where}.interpolation_range: low {low} is above high {high}")
        p_range = (low, high)
    if candidate is None and not polynomial:
        raise ModelFileError(f"{where}: a presca model needs 'kernel' or 'interpolation'")
    of = spec.get("interpolation_of", "value")
    if of not in ("value", "inverse"):
        raise ModelFileError(f"{where}.interpolation_of: {of!r} (valid: value, inverse)")
    return _closed_form(candidate, parameters, polynomial, p_range, of == "inverse")


def _numbers_list(
    spec: Mapping[str, Any], key: str, where: str, expected: str, length: int | None = None
) -> tuple[sympy.Expr, ...]:
    """A non-empty list of numbers (of ``length`` if given) under ``key``."""
    values = spec[key]
    if not isinstance(values, list) or not values or length not in (None, len(values)):
        raise ModelFileError(f"{where}.{key}: expected {expected}")
    items = {str(i): v for i, v in enumerate(values)}
    return tuple(spec_number(items, str(i), f"{where}.{key}") for i in range(len(values)))


def _closed_form(
    candidate: Candidate | None,
    parameters: Sequence[sympy.Expr],
    polynomial: Sequence[sympy.Expr],
    p_range: Sequence[sympy.Expr] | None,
    inverse: bool = False,
) -> sympy.Expr:
    """Piecewise(polynomial on p_range, candidate function elsewhere), or whichever is present;
    with ``inverse`` the polynomial is of 1/value and the function uses its inverse."""
    outer = candidate.expr(parameters) if candidate is not None else None
    if not polynomial or p_range is None:
        assert outer is not None
        return outer
    poly = sympy.Add(*[c * P**i for i, c in enumerate(polynomial)])
    if inverse:
        poly = sympy.Pow(poly, -1)
    if outer is None:
        return poly
    return sympy.Piecewise((poly, sympy.And(P >= p_range[0], P <= p_range[1])), (outer, True))
