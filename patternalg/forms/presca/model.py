"""PreSca's fitted model: the performance function of a workload in p, and its model-file table.

Inside the measured range the interpolating polynomial applies (of the values, or of their
inverse), elsewhere the chosen candidate function; the closed form is a ``Piecewise`` of
the two, and :meth:`PerformanceFunction.spec` / :func:`read_table` write and read the
``presca`` table of a model file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy
from numpy.typing import ArrayLike

from ...errors import ModelFileError
from ...syntax.symbols import p as P
from ..parameters import Parameter, check_keys
from .candidates import CANDIDATES, Candidate, candidate_named, numbers

__all__ = ["Piece", "PerformanceFunction", "KEYS", "Table", "read_table"]


@dataclass(frozen=True)
class Piece:
    """One range of a performance function: ``low <= p <= high`` (None: unbounded) and its
    function, by name with its coefficients (``low`` is exclusive below, ``high`` above the
    measured range)."""

    low: float | None
    high: float | None
    function: str
    coefficients: tuple[tuple[str, float], ...]

    def describe(self, digits: int | None = 6) -> str:
        """``'1 <= p <= 12: 1/poly2 (c0=0.1, c1=0.02, c2=0)'`` -- the range, function and
        coefficients in ``digits`` significant digits (None: the range and function only).

        >>> Piece(12.0, None, "Rat12", (("a0", 1.0), ("a1", 2.0))).describe()
        'p > 12: Rat12 (a0=1, a1=2)'
        >>> Piece(1.0, 12.0, "1/poly2", (("c0", 0.1),)).describe(None)
        '1 <= p <= 12: 1/poly2'
        """
        if self.low is None:
            where = f"p < {self.high:g}"
        elif self.high is None:
            where = f"p > {self.low:g}"
        else:
            where = f"{self.low:g} <= p <= {self.high:g}"
        if digits is None:
            return f"{where}: {self.function}"
        values = ", ".join(f"{k}={v:.{digits}g}" for k, v in self.coefficients)
        return f"{where}: {self.function} ({values})"


@dataclass(frozen=True)
class PerformanceFunction:
    """A workload's performance in p: ``polynomial`` on ``p_range``, ``candidate`` elsewhere.

    Either part may be missing (an interpolation-only function covers ``p_range`` only).
    Beyond the range the candidate has ``parameters``, below it ``below`` if given (fits
    anchor the candidate to the polynomial's value at each edge, so the two differ by a
    factor) and ``parameters`` otherwise.
    """

    candidate: Candidate | None = None
    parameters: tuple[float, ...] = ()
    polynomial: tuple[float, ...] = ()
    p_range: tuple[float, float] | None = None
    #: the polynomial interpolates 1/value (a rate) and the function is its inverse
    inverse: bool = False
    #: the candidate's parameters below ``p_range`` (default: ``parameters``)
    below: tuple[float, ...] = ()

    def __call__(self, n: ArrayLike) -> np.ndarray:
        """Values at thread counts ``n``.

        >>> PerformanceFunction(polynomial=(1.0, 2.0), p_range=(1, 4))(np.array([2]))
        array([5.])
        """
        n = np.asarray(n, dtype=float)
        out = np.full(n.shape, np.nan)
        under = np.zeros(n.shape, dtype=bool)
        over = np.ones(n.shape, dtype=bool)
        if self.polynomial and self.p_range is not None:
            under, over = n < self.p_range[0], n > self.p_range[1]
            inside = ~(under | over)
            out[inside] = self.interpolant(n[inside])
        if self.candidate is not None:
            out[over] = self.candidate.values(np.asarray(self.parameters), n[over])
            below = np.asarray(self.below or self.parameters)
            out[under] = self.candidate.values(below, n[under])
        return out

    def interpolant(self, n: ArrayLike) -> np.ndarray:
        """The interpolating polynomial's values (inverted where it is of 1/value) at ``n``.

        >>> PerformanceFunction(polynomial=(1.0, 1.0), inverse=True).interpolant([3.0])
        array([0.25])
        """
        values = np.polyval(np.asarray(self.polynomial)[::-1], np.asarray(n, dtype=float))
        return 1.0 / values if self.inverse else values

    @property
    def name(self) -> str:
        """The candidate function's name, or ``poly<degree>`` for an interpolation only."""
        if self.candidate is not None:
            return self.candidate.name
        return self._polynomial_name

    @property
    def _polynomial_name(self) -> str:
        degree = f"poly{len(self.polynomial) - 1}"
        return f"1/{degree}" if self.inverse else degree

    def pieces(self) -> tuple[Piece, ...]:
        """The ranges of p in order, each with its function and coefficients.

        >>> from patternalg.forms.presca.candidates import CubicLn
        >>> f = PerformanceFunction(CubicLn(), (1.0, 2.0, 0.0, 0.5), (3.0, 1.0), (2.0, 8.0))
        >>> len(PerformanceFunction(CubicLn(), (1.0, 2.0, 0.0, 0.5), (3.0,), (1.0, 8.0)).pieces())
        2
        >>> [piece.describe() for piece in f.pieces()]
        ['p < 2: CubicLn (a=1, b=2, c=0, d=0.5)', '2 <= p <= 8: poly1 (c0=3, c1=1)', \
'p > 8: CubicLn (a=1, b=2, c=0, d=0.5)']
        """
        out: list[Piece] = []
        has_poly = bool(self.polynomial) and self.p_range is not None
        if self.candidate is not None and has_poly and self.p_range and self.p_range[0] > 1:
            below = self.below or self.parameters
            out.append(Piece(None, self.p_range[0], self.name, self._named(below)))
        if has_poly and self.p_range is not None:
            coefficients = tuple((f"c{i}", float(c)) for i, c in enumerate(self.polynomial))
            low, high = self.p_range
            out.append(Piece(float(low), float(high), self._polynomial_name, coefficients))
        if self.candidate is not None:
            start = float(self.p_range[1]) if has_poly and self.p_range is not None else None
            out.append(Piece(start, None, self.name, self._named(self.parameters)))
        return tuple(out)

    def _named(self, theta: Sequence[float]) -> tuple[tuple[str, float], ...]:
        assert self.candidate is not None
        return tuple(zip(self.candidate.params, map(float, theta), strict=True))

    def expr(self) -> sympy.Expr:
        """The closed form in ``p`` (a ``Piecewise`` when both parts are present).

        >>> from patternalg.forms.presca.candidates import CubicLn
        >>> PerformanceFunction(CubicLn(), (1.0, 2.0, 0.0, 0.0)).expr()
        2.0*log(p) + 1.0
        """
        p_range = None if self.p_range is None else tuple(numbers(self.p_range))
        return _closed_form(
            self.candidate,
            numbers(self.parameters),
            numbers(self.polynomial),
            p_range,
            self.inverse,
            numbers(self.below),
        )

    def spec(self) -> tuple[tuple[str, Any], ...]:
        """The keys of the ``presca`` table in a model file (see :func:`read_table`)."""
        keys: list[tuple[str, Any]] = []
        if self.candidate is not None:
            keys.append(("kernel", self.candidate.name))
            keys.append(("parameters", dict(self._named(self.parameters))))
            if self.below:
                keys.append(("parameters_below", dict(self._named(self.below))))
        if self.polynomial and self.p_range is not None:
            keys.append(("interpolation", [float(c) for c in self.polynomial]))
            keys.append(("interpolation_range", [float(v) for v in self.p_range]))
            if self.inverse:
                keys.append(("interpolation_of", "inverse"))
        return tuple(keys)


#: the keys of a ``presca`` model-file table
KEYS = (
    "kernel",
    "parameters",
    "parameters_below",
    "interpolation",
    "interpolation_range",
    "interpolation_of",
)


@dataclass(frozen=True)
class Table:
    """A ``presca`` model-file table read into sympy numbers (a file's integers stay exact)."""

    candidate: Candidate | None
    parameters: tuple[sympy.Expr, ...]
    polynomial: tuple[sympy.Expr, ...]
    p_range: tuple[sympy.Expr, sympy.Expr] | None
    inverse: bool
    below: tuple[sympy.Expr, ...]

    def expr(self) -> sympy.Expr:
        """The closed form in p."""
        return _closed_form(
            self.candidate, self.parameters, self.polynomial, self.p_range, self.inverse, self.below
        )

    def function(self) -> PerformanceFunction:
        """The numeric performance function."""

        def floats(values: Sequence[sympy.Expr]) -> tuple[float, ...]:
            return tuple(float(v) for v in values)

        p_range = None if self.p_range is None else (float(self.p_range[0]), float(self.p_range[1]))
        return PerformanceFunction(
            self.candidate,
            floats(self.parameters),
            floats(self.polynomial),
            p_range,
            self.inverse,
            floats(self.below),
        )


def read_table(spec: Mapping[str, Any], where: str) -> Table:
    """A ``presca`` model-file table, checked.

    Keys: ``kernel`` (the candidate function: Rat12, Rat22, Rat23, Rat33, CubicLn, ExpRat)
    with ``parameters`` (a table of its parameters in Table 1's names) and optionally
    ``parameters_below`` (the same table, used below the interpolation range instead),
    and/or ``interpolation`` (the polynomial's coefficients, lowest power first) with
    ``interpolation_range`` ([low, high]) and ``interpolation_of`` (``value``, the default,
    or ``inverse``: the polynomial is of 1/value).

    >>> read_table({"kernel": "Rat12", "parameters": {"a0": 1, "a1": 2, "b1": 0, "b2": 0.5}},
    ...            "m").expr()
    (2*p + 1)/(0.5*p**2 + 1)
    >>> read_table({"kernel": "Rat21"}, "models.w")
    Traceback (most recent call last):
    ...
    patternalg.errors.ModelFileError: models.w.kernel: unknown kernel function 'Rat21' (valid: ...)
    """
    check_keys(spec, where, [], KEYS)
    candidate: Candidate | None = None
    parameters: tuple[sympy.Expr, ...] = ()
    below: tuple[sympy.Expr, ...] = ()
    if "kernel" in spec:
        candidate = candidate_named(str(spec["kernel"]))
        if candidate is None:
            raise ModelFileError(
                f"{where}.kernel: unknown kernel function {spec['kernel']!r} "
                f"(valid: {', '.join(f.name for f in CANDIDATES)})"
            )
        parameters = _parameters(spec, "parameters", candidate, where)
        if "parameters_below" in spec:
            below = _parameters(spec, "parameters_below", candidate, where)
    elif "parameters_below" in spec or "parameters" in spec:
        raise ModelFileError(f"{where}: missing key 'kernel' (the candidate function)")
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
    return Table(candidate, parameters, polynomial, p_range, of == "inverse", below)


def _parameters(
    spec: Mapping[str, Any], key: str, candidate: Candidate, where: str
) -> tuple[sympy.Expr, ...]:
    """The table ``key`` of exactly the candidate's parameters, in their order."""
    table = spec.get(key)
    if not isinstance(table, Mapping) or sorted(table) != sorted(candidate.params):
        raise ModelFileError(
            f"{where}.{key}: {candidate.name} needs a table of exactly "
            f"{', '.join(candidate.params)}"
        )
    return tuple(Parameter(k).value(table[k], f"{where}.{key}") for k in candidate.params)


def _numbers_list(
    spec: Mapping[str, Any], key: str, where: str, expected: str, length: int | None = None
) -> tuple[sympy.Expr, ...]:
    """A non-empty list of numbers (of ``length`` if given) under ``key``."""
    values = spec[key]
    if not isinstance(values, list) or not values or length not in (None, len(values)):
        raise ModelFileError(f"{where}.{key}: expected {expected}")
    return tuple(Parameter(str(i)).value(v, f"{where}.{key}") for i, v in enumerate(values))


def _closed_form(
    candidate: Candidate | None,
    parameters: Sequence[sympy.Expr],
    polynomial: Sequence[sympy.Expr],
    p_range: Sequence[sympy.Expr] | None,
    inverse: bool = False,
    below: Sequence[sympy.Expr] = (),
) -> sympy.Expr:
    """Piecewise(candidate below p_range, polynomial on it, candidate above), or whichever
    is present; with ``inverse`` the polynomial is of 1/value and the function its inverse.
    The candidate has ``below`` as its parameters below the range when given."""
    outer = candidate.expr(parameters) if candidate is not None else None
    if not polynomial or p_range is None:
        assert outer is not None
        return outer
    poly = sympy.Add(*[c * P**i for i, c in enumerate(polynomial)])
    if inverse:
        poly = sympy.Pow(poly, -1)
    if outer is None or candidate is None:
        return poly
    inside = (poly, sympy.And(P >= p_range[0], P <= p_range[1]))
    if below:
        return sympy.Piecewise((candidate.expr(below), P < p_range[0]), inside, (outer, True))
    return sympy.Piecewise(inside, (outer, True))
