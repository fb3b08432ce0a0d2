"""The candidate functions of PreSca's extrapolation (paper 004, Table 1).

Rat12, Rat22, Rat23, Rat33 (rational functions), CubicLn (a cubic in ln p) and ExpRat
((a + b p) / e^(c + d p)). Each :class:`Candidate` knows its parameters, its values, its
closed form in ``p`` and a first guess for a fit (:mod:`.fitting` does the fit).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import sympy

from ...syntax.symbols import p as P

__all__ = ["Candidate", "Rational", "CubicLn", "ExpRat", "CANDIDATES", "candidate_named"]


class Candidate:
    """A candidate function of Table 1: its parameters, values, closed form and first guess.

    Fits run on scaled data (``t = n / n_scale`` where :attr:`scales_n`, ``y / y_scale``)
    so that all parameters are of order one for Nelder-Mead; :meth:`unscale` maps them back.
    """

    name: str = ""
    params: tuple[str, ...] = ()
    scales_n: bool = True

    @property
    def free(self) -> int:
        """How many parameters a fit determines (the fewest points it needs)."""
        return len(self.params)

    def values(self, theta: np.ndarray, n: np.ndarray) -> np.ndarray:
        """The function at thread counts ``n`` (vectorised)."""
        raise NotImplementedError

    def initial(self, t: np.ndarray, y: np.ndarray) -> np.ndarray | None:
        """A first guess from a linearised, relatively weighted least-squares problem."""
        raise NotImplementedError

    def residuals(self, t: np.ndarray, y: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        """theta -> relative residuals f(t) / y - 1 (what Nelder-Mead minimises the squares of)."""
        return lambda theta: self.values(theta, t) / y - 1.0

    def jacobian(self, t: np.ndarray, y: np.ndarray) -> Callable[[np.ndarray], np.ndarray] | str:
        """theta -> d residuals / d theta, or scipy's name of a finite-difference scheme."""
        return "2-point"

    def unscale(self, theta: np.ndarray, n_scale: float, y_scale: float) -> np.ndarray:
        """Parameters for unscaled data from those fitted to scaled data."""
        raise NotImplementedError

    def scaled(self, theta: Sequence[float], factor: float) -> tuple[float, ...]:
        """Parameters of ``factor`` times this function (the same shape, scaled values)."""
        raise NotImplementedError

    def expr(self, theta: Sequence[Any]) -> sympy.Expr:
        """The closed form in ``p``."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<candidate function {self.name}>"


def numbers(theta: Sequence[Any]) -> list[sympy.Expr]:
    """sympy numbers as given (a model file's integers stay exact), floats as Float."""
    return [v if isinstance(v, sympy.Basic) else sympy.Float(float(v)) for v in theta]


def _lstsq(matrix: np.ndarray, rhs: np.ndarray) -> np.ndarray | None:
    if not np.all(np.isfinite(matrix)):
        return None
    solution = np.linalg.lstsq(matrix, rhs, rcond=None)[0]
    return solution if np.all(np.isfinite(solution)) else None


class Rational(Candidate):
    """(a0 + a1 n + ... + ak n^k) / (1 + b1 n + ... + bl n^l), e.g. Rat23 = Rational(2, 3).

    >>> Rational(1, 2).params
    ('a0', 'a1', 'b1', 'b2')
    >>> Rational(1, 2).expr([1.0, 2.0, 0.5, 0.25])
    (2.0*p + 1.0)/(0.25*p**2 + 0.5*p + 1)
    """

    def __init__(self, numerator: int, denominator: int) -> None:
        self.numerator = numerator
        self.denominator = denominator
        self.name = f"Rat{numerator}{denominator}"
        self.params = tuple(f"a{i}" for i in range(numerator + 1)) + tuple(
            f"b{i}" for i in range(1, denominator + 1)
        )

    def values(self, theta: np.ndarray, n: np.ndarray) -> np.ndarray:
        a, b = theta[: self.numerator + 1], theta[self.numerator + 1 :]
        with np.errstate(all="ignore"):
            return np.polyval(a[::-1], n) / (1.0 + n * np.polyval(b[::-1], n))

    #: Sanathanan-Koerner re-weightings of the linearised problem
    REWEIGHTINGS = 4

    def initial(self, t: np.ndarray, y: np.ndarray) -> np.ndarray | None:
        # A(t) - y B(t) = y is linear in (a, b); dividing each row by y * (1 + B_previous(t))
        # makes its residual the relative error of the previous iterate (Sanathanan-Koerner)
        num = t[:, None] ** np.arange(self.numerator + 1) / y[:, None]
        den = -(t[:, None] ** np.arange(1, self.denominator + 1))
        matrix = np.hstack([num, den])
        theta = _lstsq(matrix, np.ones_like(t))
        for _ in range(self.REWEIGHTINGS):
            if theta is None:
                return None
            weight = 1.0 / (1.0 + den @ -theta[self.numerator + 1 :])
            better = _lstsq(matrix * weight[:, None], weight)
            if better is None or not np.all(np.isfinite(weight)):
                break
            theta = better
        return theta

    def _powers(self, t: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
        """Powers of t for the numerator (from t^0) and the denominator (from t^1)."""
        powers = t[:, None] ** np.arange(max(self.numerator, self.denominator) + 1)
        top, bottom = powers[:, : self.numerator + 1], powers[:, 1 : self.denominator + 1]
        return top, bottom, self.numerator + 1

    def residuals(self, t: np.ndarray, y: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        top, bottom, split = self._powers(t)

        def relative(theta: np.ndarray) -> np.ndarray:
            return (top @ theta[:split]) / ((1.0 + bottom @ theta[split:]) * y) - 1.0

        return relative

    def jacobian(self, t: np.ndarray, y: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        top, bottom, split = self._powers(t)

        def derivatives(theta: np.ndarray) -> np.ndarray:
            den = (1.0 + bottom @ theta[split:]) * y
            value = (top @ theta[:split]) / den
            return np.hstack([top / den[:, None], -bottom * (value / (den / y))[:, None]])

        return derivatives

    def unscale(self, theta: np.ndarray, n_scale: float, y_scale: float) -> np.ndarray:
        k = self.numerator + 1
        a = theta[:k] * y_scale / n_scale ** np.arange(k)
        b = theta[k:] / n_scale ** np.arange(1, self.denominator + 1)
        return np.concatenate([a, b])

    def scaled(self, theta: Sequence[float], factor: float) -> tuple[float, ...]:
        """The numerator's coefficients times ``factor``.

        >>> Rational(1, 1).scaled([1.0, 2.0, 0.5], 3.0)
        (3.0, 6.0, 0.5)
        """
        k = self.numerator + 1
        return tuple(float(v) * factor for v in theta[:k]) + tuple(map(float, theta[k:]))

    def expr(self, theta: Sequence[Any]) -> sympy.Expr:
        coeffs = numbers(theta)
        a, b = coeffs[: self.numerator + 1], coeffs[self.numerator + 1 :]
        top = sympy.Add(*[c * P**i for i, c in enumerate(a)])
        bottom = sympy.Add(sympy.Integer(1), *[c * P ** (i + 1) for i, c in enumerate(b)])
        return top / bottom


class CubicLn(Candidate):
    """a + b ln(n) + c ln(n)^2 + d ln(n)^3.

    >>> CubicLn().expr([1.0, 2.0, 0.0, 0.5])
    0.5*log(p)**3 + 2.0*log(p) + 1.0
    """

    name = "CubicLn"
    params = ("a", "b", "c", "d")
    scales_n = False

    def values(self, theta: np.ndarray, n: np.ndarray) -> np.ndarray:
        return np.polyval(theta[::-1], np.log(n))

    def initial(self, t: np.ndarray, y: np.ndarray) -> np.ndarray | None:
        return _lstsq(np.log(t)[:, None] ** np.arange(4) / y[:, None], np.ones_like(t))

    def unscale(self, theta: np.ndarray, n_scale: float, y_scale: float) -> np.ndarray:
        return theta * y_scale

    def scaled(self, theta: Sequence[float], factor: float) -> tuple[float, ...]:
        return tuple(float(v) * factor for v in theta)

    def expr(self, theta: Sequence[Any]) -> sympy.Expr:
        return sympy.Add(*[c * sympy.log(P) ** i for i, c in enumerate(numbers(theta))])


class ExpRat(Candidate):
    """(a + b n) / e^(c + d n).

    Only e^-c * (a, b) is identifiable, so fits fix c = 0; a model file may give any c.

    >>> ExpRat().expr([2.0, 1.0, 0.0, 0.1])
    (1.0*p + 2.0)*exp(-0.1*p)
    """

    name = "ExpRat"
    params = ("a", "b", "c", "d")
    #: grid of d (for t = n / n_scale in (0, 1]) searched for the first guess
    D_GRID = np.linspace(-4.0, 8.0, 49)

    @property
    def free(self) -> int:
        return 3

    def values(self, theta: np.ndarray, n: np.ndarray) -> np.ndarray:
        a, b, c, d = (theta[0], theta[1], 0.0, theta[2]) if len(theta) == 3 else theta
        with np.errstate(all="ignore"):
            return (a + b * n) * np.exp(-(c + d * n))

    def initial(self, t: np.ndarray, y: np.ndarray) -> np.ndarray | None:
        best: tuple[float, np.ndarray] | None = None
        base = np.stack([np.ones_like(t), t], axis=1) / y[:, None]
        for d in self.D_GRID:
            matrix = base * np.exp(-d * t)[:, None]
            ab = _lstsq(matrix, np.ones_like(t))
            if ab is None:
                continue
            residual = float(np.sum((matrix @ ab - 1.0) ** 2))
            if best is None or residual < best[0]:
                best = (residual, np.array([ab[0], ab[1], d]))
        return None if best is None else best[1]

    def unscale(self, theta: np.ndarray, n_scale: float, y_scale: float) -> np.ndarray:
        a, b, d = theta
        return np.array([a * y_scale, b * y_scale / n_scale, 0.0, d / n_scale])

    def scaled(self, theta: Sequence[float], factor: float) -> tuple[float, ...]:
        a, b, c, d = map(float, theta)
        return (a * factor, b * factor, c, d)

    def expr(self, theta: Sequence[Any]) -> sympy.Expr:
        a, b, c, d = numbers(theta)
        return (a + b * P) * sympy.exp(-(c + d * P))


#: the candidate functions of Table 1, in the paper's order
CANDIDATES: tuple[Candidate, ...] = (
    Rational(1, 2),
    Rational(2, 2),
    Rational(2, 3),
    Rational(3, 3),
    CubicLn(),
    ExpRat(),
)
_BY_NAME: dict[str, Candidate] = {f.name.lower(): f for f in CANDIDATES}


def candidate_named(name: str) -> Candidate | None:
    """The candidate function called ``name`` (case-insensitive), or None.

    >>> candidate_named("rat22"), candidate_named("Rat21")
    (<candidate function Rat22>, None)
    """
    return _BY_NAME.get(name.lower())
