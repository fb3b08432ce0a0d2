"""How sure a fitted model is: :class:`Uncertainty`, its coefficients' spread as a linear
perturbation of the closed form.

Under a draw, the model's value is ``expr + sum_i delta_i * g_i``, where ``g = terms``
are sympy expressions in the model's input symbols and ``delta ~ N(0, covariance)``. For a
family linear in its coefficients (pmnf, amdahl) the terms are the chosen hypothesis's
basis (``1`` and ``x*log2(x)``) and the perturbation is exact; for a nonlinear one
(memwall) they are the partial derivatives of the closed form by its parameters at the fit
(the delta method). ``noise`` is what a measurement adds beyond the model: the relative
standard deviation of a median of ``repetitions`` repetitions of the kernel, pooled over
its points. ``held_out`` is the model's own error where the fit could not see it: at each
measured x, (predicted - measured) / measured of the fit made without that x (a
one-parameter fit's leave-one-size-out errors; :meth:`Uncertainty.held_out_local` pools
them by size, :mod:`patternalg.algebra.intervals` draws them), and ``growth`` how fast its
hypothesis erred beyond the sizes a fit of it saw, per doubling of x, below and above.

The algebra knows nothing of files: :meth:`Uncertainty.to_table` and
:meth:`Uncertainty.from_table` give and read the model file's ``uncertainty`` table, its
terms printed by the one printer and parsed back by the safe arithmetic.

>>> from patternalg.syntax.symbols import x
>>> u = Uncertainty((sympy.Integer(1), x), ((4.0, 0.0), (0.0, 0.25)), 10, 0.02, "bootstrap")
>>> u.to_table()["terms"], [round(h, 4) for h in u.half_widths(0.9)]
(['1', 'x'], [3.2897, 0.8224])
>>> Uncertainty.from_table(u.to_table(), "models.k") == u
True
>>> import numpy as np
>>> u.draws(np.random.default_rng(0), 3).shape
(3, 2)
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import TYPE_CHECKING, Any

import sympy

from .._internal.limits import MAX_DRAWN_VALUES
from ..errors import ArgumentError, ModelFileError, ParseError
from ..syntax.arith import format_expr
from .numpy_code import numpy_function

if TYPE_CHECKING:  # numpy loads when draws are asked for, not to read a model file
    import numpy as np

__all__ = ["Uncertainty", "UNCERTAINTY_KEYS", "covariance_problem", "draw_factor", "semidefinite_cholesky"]

#: the keys of a model file's ``[models.NAME.uncertainty]`` table (``held_out`` optional)
UNCERTAINTY_KEYS = ("terms", "covariance", "repetitions", "noise", "method", "held_out", "growth")
_OPTIONAL = ("held_out", "growth")


@dataclass(frozen=True)
class Uncertainty:
    """A model's uncertainty: ``expr + sum_i delta_i * terms[i]``, ``delta ~ N(0, covariance)``.

    ``covariance`` is k x k (k = ``len(terms)``), ``repetitions`` the repetitions per point
    of the data it came from (their median count), ``noise`` the relative standard
    deviation of a median of that many repetitions (pooled over the points), ``method``
    how the covariance was found (``"bootstrap"``, ``"least-squares"``, ...), ``held_out``
    pairs ``(x, relative error)``: the fit's error at each measured x when fitted without it,
    ``growth`` (below, above): how fast its hypothesis errs beyond the sizes it is fitted on,
    relative error per doubling of x (empty: not measured).
    """

    terms: tuple[sympy.Expr, ...]
    covariance: tuple[tuple[float, ...], ...]
    repetitions: int
    noise: float
    method: str
    held_out: tuple[tuple[float, float], ...] = ()
    growth: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        rows = self.covariance if isinstance(self.covariance, tuple | list) else None
        if not isinstance(self.terms, tuple | list) or rows is None or not all(isinstance(r, tuple | list) for r in rows):
            raise ValueError("expected terms as a tuple of expressions and the covariance as a tuple of rows")
        k = len(self.terms)
        if k == 0 or len(self.covariance) != k or any(len(row) != k for row in self.covariance):
            raise ValueError(f"covariance must be {k} x {k} for {k} terms")
        if not all(_finite(v) for row in self.covariance for v in row):
            raise ValueError("covariance: expected finite numbers")
        problem = covariance_problem(self.covariance)
        if problem:
            raise ValueError(f"covariance: {problem}")
        if not _growth_ok(self.growth):
            raise ValueError(f"growth: {_GROWTH}, not {self.growth!r}")

    def held_out_local(self) -> tuple[np.ndarray, np.ndarray]:
        """The model's own error where it was seen: the measured sizes (ascending) and at
        each the root mean square of the held-out errors there and at its neighbours
        (weights 1, 1/2, 1/2); empty arrays without held-out errors. How it is spread over
        x, between the sizes and beyond them, is :func:`~patternalg.algebra.own_error.own_error`'s.

        >>> u = Uncertainty((sympy.Integer(1),), ((0.0,),), 5, 0.0, "linear",
        ...                 ((1.0, 0.02), (2.0, -0.02), (4.0, 0.02), (8.0, 0.1)))
        >>> sizes, local = u.held_out_local()
        >>> sizes.tolist(), [round(float(v), 4) for v in local]
        ([1.0, 2.0, 4.0, 8.0], [0.02, 0.02, 0.0529, 0.0825])
        """
        import numpy as np

        pairs = sorted(self.held_out)
        sizes = np.array([p[0] for p in pairs], dtype=float)
        squared = np.array([p[1] for p in pairs], dtype=float) ** 2
        # each size with its neighbours, linear in the sizes (a band, not a sizes^2 matrix:
        # 30,000 sizes were 21 GB)
        total, weight = squared.copy(), np.ones_like(squared)
        total[1:] += 0.5 * squared[:-1]
        total[:-1] += 0.5 * squared[1:]
        weight[1:] += 0.5
        weight[:-1] += 0.5
        return sizes, np.sqrt(total / weight)

    @property
    def variances(self) -> tuple[float, ...]:
        """The variance of each term's coefficient (the covariance's diagonal)."""
        return tuple(max(self.covariance[i][i], 0.0) for i in range(len(self.terms)))

    def half_widths(self, level: float = 0.9) -> tuple[float, ...]:
        """Half the width of each coefficient's central ``level`` interval (normal)."""
        z = NormalDist().inv_cdf((1 + level) / 2)
        return tuple(z * math.sqrt(v) for v in self.variances)

    def coefficient_intervals(
        self, level: float = 0.9, center: Sequence[float] | None = None
    ) -> tuple[tuple[float, float], ...]:
        """Each term's coefficient's central ``level`` interval: around ``center`` (the
        fitted coefficients of the terms), else around 0 (the perturbation's own).

        >>> u = Uncertainty((sympy.Integer(1),), ((1.0,),), 5, 0.0, "bootstrap")
        >>> [tuple(round(v, 3) for v in pair) for pair in u.coefficient_intervals(0.9, [10.0])]
        [(8.355, 11.645)]
        """
        center = [0.0] * len(self.terms) if center is None else list(center)
        return tuple((c - h, c + h) for c, h in zip(center, self.half_widths(level), strict=True))

    def draws(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """``count`` draws of ``delta``: shape (count, k) (:func:`draw_factor`)."""
        import numpy as np

        if not isinstance(rng, np.random.Generator):
            wanted = "a numpy Generator (numpy.random.default_rng(seed))"
            raise ArgumentError.wanted("rng", wanted, rng)
        most = MAX_DRAWN_VALUES // max(len(self.terms), 1)
        if isinstance(count, bool) or not isinstance(count, numbers.Integral) or not 0 <= count <= most:
            raise ArgumentError.wanted("count", f"a whole number of draws from 0 to {most:,}", count)
        factor = draw_factor(np.array(self.covariance, dtype=float))
        return rng.standard_normal((count, len(self.terms))) @ factor.T  # type: ignore[no-any-return]

    def describe(
        self,
        center: Sequence[float],
        level: float = 0.9,
        shown: int | None = None,
        names: Sequence[str] | None = None,
    ) -> str:
        """Each term's coefficient (``center``) with its ``level`` interval, in one line,
        each named by its term (or by ``names``: a nonlinear family's parameters); with
        ``shown`` (the model's own terms), the first ``shown`` terms and how many more the
        draws chose (a bootstrap that chose another hypothesis: docs/fitting.md).

        >>> from patternalg.syntax.symbols import x
        >>> u = Uncertainty((sympy.Integer(1), x), ((4.0, 0.0), (0.0, 0.25)), 10, 0.02, "bootstrap")
        >>> u.describe([100.0, 2.5])
        '1: 100 [96.71, 103.3]; x: 2.5 [1.678, 3.322] (90 %)'
        >>> u.describe([100.0, 0.0], shown=1)
        '1: 100 [96.71, 103.3]; 1 more term that some draws chose (90 %)'
        """
        intervals = self.coefficient_intervals(level, center)
        labels = names or [_text(term) for term in self.terms]
        parts = [
            f"{label}: {value:.4g} [{low:.4g}, {high:.4g}]"
            for label, value, (low, high) in zip(labels, center, intervals, strict=True)
        ][:shown]
        more = len(self.terms) - len(parts)
        if more:
            parts.append(f"{more} more term{'s' if more > 1 else ''} that some draws chose")
        return f"{'; '.join(parts)} ({100 * level:g} %)"

    def record(self, center: Sequence[float], level: float = 0.9) -> dict[str, Any]:
        """For JSON: the model file's keys, and each coefficient's ``level`` interval."""
        return {
            **self.to_table(),
            "level": level,
            "intervals": [list(pair) for pair in self.coefficient_intervals(level, center)],
        }

    def term_values(self, **inputs: Any) -> np.ndarray:
        """The terms at arrays of the inputs (broadcast): shape (k, *shape). Every symbol of
        the terms must be given.

        >>> from patternalg.syntax.symbols import x
        >>> u = Uncertainty((sympy.Integer(1), x), ((4.0, 0.0), (0.0, 0.25)), 10, 0.0, "linear")
        >>> u.term_values(x=[1.0, 10.0]).tolist()
        [[1.0, 1.0], [1.0, 10.0]]
        """
        import numpy as np

        names, function = _numeric(self.terms)
        missing = [name for name in names if name not in inputs]
        if missing:
            raise ValueError(
                f"missing input '{missing[0]}' (the terms' inputs: {', '.join(names)})"
            )
        arrays = np.broadcast_arrays(*(_floats(inputs[n], n) for n in names))
        shape = arrays[0].shape if arrays else np.shape(next(iter(inputs.values()), 0.0))
        values = [np.broadcast_to(np.asarray(v, dtype=float), shape) for v in function(*arrays)]
        return np.array(values)

    def spread(self, **inputs: Any) -> np.ndarray:
        """The standard deviation of the model's value under ``delta`` at arrays of the
        inputs: ``sqrt(g^T C g)`` (without the measurement's ``noise``).

        >>> from patternalg.syntax.symbols import x
        >>> u = Uncertainty((sympy.Integer(1), x), ((4.0, 0.0), (0.0, 0.25)), 10, 0.0, "linear")
        >>> u.spread(x=[0.0, 4.0]).tolist()
        [2.0, 2.8284271247461903]
        """
        import numpy as np

        g = self.term_values(**inputs)
        covariance = np.array(self.covariance, dtype=float)
        variance = np.einsum("i...,ij,j...->...", g, covariance, g)
        return np.sqrt(np.clip(variance, 0.0, None))  # type: ignore[no-any-return]

    # --- model files --------------------------------------------------------------------
    def to_table(self) -> dict[str, Any]:
        """The model file's ``uncertainty`` table (floats written exactly)."""
        table: dict[str, Any] = {
            "terms": [_text(term) for term in self.terms],
            "covariance": [[float(v) for v in row] for row in self.covariance],
            "repetitions": int(self.repetitions),
            "noise": float(self.noise),
            "method": self.method,
        }
        if self.held_out:
            table["held_out"] = [[float(x), float(e)] for x, e in self.held_out]
        if self.growth:
            table["growth"] = [float(g) for g in self.growth]
        return table

    @classmethod
    def from_table(cls, table: Any, where: str) -> Uncertainty:
        """The uncertainty of a model file's table; a ModelFileError names ``where.key``."""
        from ..syntax.parser import parse_arithmetic

        key = f"{where}.uncertainty"
        if not isinstance(table, Mapping):
            raise ModelFileError(f"{key}: expected a table of {', '.join(UNCERTAINTY_KEYS)}")
        for name in table:
            if name not in UNCERTAINTY_KEYS:
                raise ModelFileError(
                    f"{key}.{name}: unknown key (valid: {', '.join(UNCERTAINTY_KEYS)})"
                )
        for name in UNCERTAINTY_KEYS:
            if name not in table and name not in _OPTIONAL:
                raise ModelFileError(f"{key}: missing key '{name}'")
        texts = table["terms"]
        if not isinstance(texts, list) or not texts or not all(isinstance(t, str) for t in texts):
            raise ModelFileError(f"{key}.terms: expected a non-empty list of expression strings")
        terms = []
        for text in texts:
            try:
                terms.append(parse_arithmetic(text))
            except ParseError as exc:
                raise ModelFileError(f"{key}.terms: {exc}") from None
        k = len(terms)
        rows = table["covariance"]
        if not (
            isinstance(rows, list)
            and len(rows) == k
            and all(isinstance(row, list) and len(row) == k for row in rows)
            and all(_finite(v) for row in rows for v in row)
        ):
            raise ModelFileError(
                f"{key}.covariance: expected {k} rows of {k} finite numbers (one per term)"
            )
        repetitions, noise, method = table["repetitions"], table["noise"], table["method"]
        if isinstance(repetitions, bool) or not isinstance(repetitions, int) or repetitions < 1:
            raise ModelFileError(f"{key}.repetitions: expected a whole number >= 1")
        if not _finite(noise) or noise < 0:
            raise ModelFileError(f"{key}.noise: expected a finite number >= 0")
        if not isinstance(method, str):
            raise ModelFileError(f'{key}.method: expected a string, e.g. "bootstrap"')
        matrix = tuple(tuple(float(v) for v in row) for row in rows)
        problem = covariance_problem(matrix)
        if problem:
            raise ModelFileError(f"{key}.covariance: {problem}")
        held_out = table.get("held_out", [])
        if not (
            isinstance(held_out, list)
            and all(isinstance(pair, list) and len(pair) == 2 for pair in held_out)
            and all(_finite(v) for pair in held_out for v in pair)
            and all(pair[0] > 0 for pair in held_out)
        ):
            raise ModelFileError(
                f"{key}.held_out: expected pairs [x, relative error] of finite numbers, x > 0"
            )
        pairs = tuple((float(x), float(e)) for x, e in held_out)
        growth = table.get("growth", [])
        if not (isinstance(growth, list) and _growth_ok(growth)):
            raise ModelFileError(f"{key}.growth: {_GROWTH}")
        return cls(tuple(terms), matrix, repetitions, float(noise), method, pairs, tuple(map(float, growth)))


#: what a growth may be (:attr:`Uncertainty.growth`), as an error message says it
_GROWTH = "expected [below, above], two finite numbers >= 0 (relative error per doubling)"


def _growth_ok(growth: Sequence[Any]) -> bool:
    """Whether ``growth`` is none or two finite numbers >= 0."""
    return len(growth) in (0, 2) and all(_finite(g) and g >= 0 for g in growth)


@functools.lru_cache(maxsize=256)
def _numeric(terms: tuple[sympy.Expr, ...]) -> tuple[tuple[str, ...], Any]:
    """The names of the terms' symbols and a numpy function of them giving every term
    (lambdified once; the terms are the fit's own, never text from a user)."""
    symbols = sorted(set().union(*(term.free_symbols for term in terms)), key=lambda s: s.name)
    return tuple(s.name for s in symbols), numpy_function(symbols, list(terms))


@functools.lru_cache(maxsize=4096)
def _text(term: sympy.Expr) -> str:
    """A term printed by the one printer (the terms of a file's kernels are few, and shared)."""
    return format_expr(term)


def _floats(value: Any, name: str) -> np.ndarray:
    """An input's values as a float array; an ArgumentError if they are not numbers a
    double holds (``x=10**400``)."""
    import numpy as np

    try:
        return np.asarray(value, dtype=float)
    except (TypeError, ValueError, OverflowError):
        wanted = "numbers (an array, or a number a double holds)"
        raise ArgumentError.wanted(name, wanted, value) from None


def covariance_problem(rows: Sequence[Sequence[float]], tolerance: float = 1e-9) -> str | None:
    """Why ``rows`` is not a covariance matrix (symmetric and positive semi-definite, to
    ``tolerance`` relative to its diagonal: a fit's own covariance is, up to rounding), or
    None. Found by a Cholesky factorisation of its correlation matrix: no numpy is needed to
    read a model file.

    >>> covariance_problem([[4.0, 1.0], [1.0, 1.0]]), covariance_problem([[1.0, 0.0], [0.0, 0.0]])
    (None, None)
    >>> covariance_problem([[1e6, 5e6], [-5e6, 1]])
    'not symmetric (row 1, column 2: 5000000.0; row 2, column 1: -5000000.0)'
    >>> covariance_problem([[-1e6, 0], [0, -1]])
    'a variance is negative (row 1: -1000000.0)'
    >>> covariance_problem([[1.0, 2.0], [2.0, 1.0]])
    'not positive semi-definite (a combination of the terms would have a negative variance)'
    """
    k = len(rows)
    scale = []
    for i in range(k):
        if rows[i][i] < 0:
            return f"a variance is negative (row {i + 1}: {rows[i][i]!r})"
        scale.append(math.sqrt(rows[i][i]))
    for i in range(k):
        for j in range(i):
            a, b = rows[i][j], rows[j][i]
            if abs(a - b) > tolerance * max(scale[i] * scale[j], abs(a), abs(b)):
                return (
                    f"not symmetric (row {j + 1}, column {i + 1}: {b!r}; "
                    f"row {i + 1}, column {j + 1}: {a!r})"
                )
    indefinite = (
        "not positive semi-definite (a combination of the terms would have a negative variance)"
    )
    # the correlation matrix (a term without variance: its row must be 0)
    corr = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if scale[i] > 0 and scale[j] > 0:
                corr[i][j] = (rows[i][j] + rows[j][i]) / (2 * scale[i] * scale[j])
            elif abs(rows[i][j]) > 0:
                return indefinite
    return None if semidefinite_cholesky(corr, tolerance) is not None else indefinite


def semidefinite_cholesky(corr: Sequence[Sequence[float]], tolerance: float = 1e-9) -> list[list[float]] | None:
    """The lower triangular ``L`` with ``L @ L.T == corr``, a correlation matrix, or None where
    it is not positive semi-definite to ``tolerance``. Cholesky's, a pivot within
    ``tolerance`` of 0 leaving its column 0 (a combination without variance), so that ``L``
    moves with ``corr`` as it nears singular and beyond: a continuous factor to draw by
    (:func:`draw_factor`). Plain Python (no numpy is needed to read a model file).

    >>> semidefinite_cholesky([[1.0, 0.6], [0.6, 1.0]])
    [[1.0, 0.0], [0.6, 0.8]]
    >>> semidefinite_cholesky([[1.0, -1.0], [-1.0, 1.0]]), semidefinite_cholesky([[1.0, 2.0], [2.0, 1.0]])
    ([[1.0, 0.0], [-1.0, 0.0]], None)
    """
    k = len(corr)
    lower = [[0.0] * k for _ in range(k)]
    for j in range(k):
        pivot = corr[j][j] - sum(lower[j][m] ** 2 for m in range(j))
        if pivot < -tolerance:
            return None
        root = math.sqrt(max(pivot, 0.0))
        for i in range(j + 1, k):
            rest = corr[i][j] - sum(lower[i][m] * lower[j][m] for m in range(j))
            if root <= math.sqrt(tolerance):
                if abs(rest) > math.sqrt(tolerance):
                    return None
                continue
            lower[i][j] = rest / root
        lower[j][j] = root
    return lower


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def draw_factor(covariance: np.ndarray) -> np.ndarray:
    """A matrix ``F`` with ``F @ F.T == covariance``: a standard normal vector times ``F.T``
    is a draw. Factored as correlations, each variable scaled by its own standard deviation
    (a cost's variance in s^2, 1e-19, beside a serial fraction's, 1e-3, is below an
    eigensolver's precision of the whole matrix; a variable without variance draws 0).
    ``F`` is a continuous function of the matrix, so that the same standard normals give
    the same draws of a covariance that moved in its last bits (the repetitions in another
    order, the values in another unit): the correlations' Cholesky factor
    (:func:`semidefinite_cholesky`, singular ones too); a matrix that is not positive
    semi-definite (a machine file's rounded record) by that of the nearest one (its
    negative eigenvalues taken as 0), so that the draws do not jump where rounding pushes a
    record across (probe O: 2.7 % at an interval's end for a change of 5e-5 in one entry).

    >>> import numpy as np
    >>> f = draw_factor(np.array([[5.4e-13, -9e-20, 0.0], [-9e-20, 2.4e-19, 0.0], [0.0, 0.0, 1.8e-3]]))
    >>> bool(np.allclose(np.diagonal(f @ f.T), [5.4e-13, 2.4e-19, 1.8e-3], rtol=1e-9, atol=0.0))
    True
    >>> c = np.array([[4.0, 2.0], [2.0, 9.0]])
    >>> draw_factor(c).round(6).tolist(), bool(np.allclose(draw_factor(c * 1e6), draw_factor(c) * 1e3, rtol=1e-12))
    ([[2.0, 0.0], [1.0, 2.828427]], True)
    >>> draw_factor(np.array([[1.0, 2.0], [2.0, 1.0]])).round(6).tolist()  # indefinite: its nearest, 1.5 throughout
    [[1.224745, 0.0], [1.224745, 0.0]]
    """
    import numpy as np

    sd = np.sqrt(np.clip(np.diagonal(covariance), 0.0, None))
    live = np.flatnonzero(sd > 0)
    part = covariance[np.ix_(live, live)] / np.outer(sd[live], sd[live])
    correlation = (part + part.T) / 2
    lower = semidefinite_cholesky(correlation.tolist())
    if lower is None:  # the nearest semi-definite matrix's, so that the factor goes on as it was
        lower = semidefinite_cholesky(_semidefinite(correlation).tolist(), tolerance=1e-6)
    factor = np.zeros(covariance.shape)
    factor[np.ix_(live, live)] = sd[live, None] * (_eigen_factor(correlation) if lower is None else np.array(lower))
    return factor


def _semidefinite(matrix: np.ndarray) -> np.ndarray:
    """The nearest positive semi-definite matrix to a symmetric ``matrix`` (its negative
    eigenvalues taken as 0): what a record rounded below semi-definite stood for."""
    import numpy as np

    values, vectors = np.linalg.eigh(matrix)
    projected = (vectors * np.clip(values, 0.0, None)) @ vectors.T
    return (projected + projected.T) / 2  # type: ignore[no-any-return]


def _eigen_factor(correlation: np.ndarray) -> np.ndarray:
    """A factor of a matrix that is not positive semi-definite, where even its nearest
    semi-definite one has no Cholesky factor to rounding: its eigenvectors, each with its
    largest entry positive, times the square roots of its eigenvalues (those below 0 taken
    as 0)."""
    import numpy as np

    values, vectors = np.linalg.eigh(correlation)
    size = np.abs(vectors)
    first = np.argmax(size >= size.max(axis=0) * (1 - 1e-9), axis=0)
    signs = np.where(vectors[first, np.arange(len(first))] < 0, -1.0, 1.0)
    return vectors * signs * np.sqrt(np.clip(values, 0.0, None))  # type: ignore[no-any-return]
