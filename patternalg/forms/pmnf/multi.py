"""What both multi-parameter PMNF modelers share: hypotheses, their values, least squares, lines.

A multi-parameter hypothesis is ``c0 + sum_t c_t * prod_p x_p^i * log2(x_p)^j``. Inside the
modelers a term is a tuple with one building-block index per parameter (an index into
``BUILDING_BLOCKS``, ``-1`` where the parameter does not occur); :class:`MultiModel`
records the result with the exponents spelled out as ``(i, j)`` pairs.

>>> points = np.array([[2.0, 4.0], [4.0, 4.0], [2.0, 8.0]])
>>> term_values(points, (18, 1)).tolist()  # x0 * log2(x1)^2
[8.0, 16.0, 18.0]
>>> m = model_from(2, 1.0, [(18, 1)], [0.5])
>>> m.terms, m(points).tolist()
((((Fraction(1, 1), 0), (Fraction(0, 1), 2)),), [5.0, 9.0, 10.0])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from ...algebra.normal_forms.blocks import BUILDING_BLOCKS
from .basic import lstsq_cutoff
from .default import basis, power_of_two

__all__ = [
    "Exponents",
    "MultiModel",
    "line_points",
    "lstsq",
    "model_from",
    "rounding_bound",
    "rounding_moves",
    "scaled_fits",
    "smape",
    "term_values",
]

#: the exponents (i, j) of x^i * log2(x)^j of one parameter; (0, 0) where it does not occur
Exponents = tuple[Fraction, int]
NONE: Exponents = (Fraction(0), 0)


@dataclass(frozen=True)
class MultiModel:
    """A fitted hypothesis: ``constant + sum(c * prod_p x_p^i * log2(x_p)^j)``.

    ``terms`` holds one tuple of per-parameter exponents per term, ``criterion`` the score
    the modeler chose it by (SMAPE in percent for ``basic``, cross-validated relative
    error for ``default``).
    """

    constant: float
    terms: tuple[tuple[Exponents, ...], ...]
    coefficients: tuple[float, ...]
    criterion: float

    def __call__(self, points: np.ndarray) -> np.ndarray:
        """The model's values at ``points`` (n, k)."""
        points = np.asarray(points, dtype=float)
        total = np.full(len(points), self.constant)
        for term, c in zip(self.terms, self.coefficients, strict=True):
            value = np.full(len(points), c)
            for p, (i, j) in enumerate(term):
                if i != 0:
                    value = value * points[:, p] ** float(i)
                if j != 0:
                    value = value * np.log2(points[:, p]) ** j
            total = total + value
        return total

    def scaled(self, factor: float) -> MultiModel:
        """The same hypothesis with the coefficients times ``factor``: in another unit."""
        return replace(
            self,
            constant=self.constant * factor,
            coefficients=tuple(c * factor for c in self.coefficients),
        )

    @property
    def hypothesis(self) -> frozenset[tuple[Exponents, ...]]:
        """The terms without coefficients, as a set (the order of terms carries no meaning)."""
        return frozenset(self.terms)


def model_from(
    k: int,
    constant: float,
    terms: Sequence[tuple[int, ...]],
    coefficients: Sequence[float] | np.ndarray,
    criterion: float = 0.0,
) -> MultiModel:
    """A :class:`MultiModel` from block-index terms (``-1``: parameter absent)."""
    spelled = tuple(tuple(BUILDING_BLOCKS[b] if b >= 0 else NONE for b in term) for term in terms)
    assert all(len(t) == k for t in spelled)
    return MultiModel(
        float(constant), spelled, tuple(float(c) for c in coefficients), float(criterion)
    )


def scaled_fits(
    select: Callable[[np.ndarray, np.ndarray], list[MultiModel]],
    points: np.ndarray,
    values: np.ndarray,
) -> list[MultiModel]:
    """``select``'s models of ``values`` (K, n) divided per kernel by
    :func:`~.default.power_of_two` (exact), in the values' unit: the choice is the one in any
    unit, and no square or inverse of a value leaves the doubles.

    >>> fits = lambda points, y: [model_from(1, 0.0, [(18,)], [float(y[0, 0])])]
    >>> scaled_fits(fits, np.ones((1, 1)), np.array([[3e200]]))[0].coefficients
    (3e+200,)
    """
    y = np.atleast_2d(np.asarray(values, dtype=float))
    scale = power_of_two(y)
    models = select(np.asarray(points, dtype=float), y / scale)
    return [m.scaled(float(f)) for m, f in zip(models, scale[:, 0], strict=True)]


def term_values(points: np.ndarray, term: Sequence[int]) -> np.ndarray:
    """The values (n,) of the product term with block ``term[p]`` for parameter ``p``."""
    value = np.ones(len(points))
    for p, block in enumerate(term):
        if block >= 0:
            value = value * basis(points[:, p], np.array([block]))[0]
    return value


def lstsq(a: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least squares of each ``y[k]`` (K, n) on its design ``a[k]`` (K, n, m): (K, m).

    As numpy's ``lstsq`` (which Extra-P calls): singular values at most
    :func:`.basic.lstsq_cutoff` of the largest are cut; where that leaves the design
    rank-deficient, only those at most ``eps`` of the largest (Extra-P's retry, which its
    single-parameter fits do not make).

    >>> a = np.array([[[1.0, 1.0], [1.0, 2.0], [1.0, 3.0]]])
    >>> lstsq(a, np.array([[3.0, 5.0, 7.0]])).round(12).tolist()
    [[1.0, 2.0]]
    """
    u, s, vt = np.linalg.svd(a, full_matrices=False)
    largest = s[..., :1]
    keep = s > lstsq_cutoff(*a.shape[-2:]) * largest
    deficient = keep.sum(-1, keepdims=True) < a.shape[-1]
    keep = np.where(deficient, s > np.finfo(float).eps * largest, keep)
    inverse = np.where(keep, 1.0 / np.where(keep, s, 1.0), 0.0)
    return np.einsum("kjm,kj,knj,kn->km", vt, inverse, u, y)


def rounding_bound(largest: np.ndarray, coefficients: np.ndarray, n: int) -> np.ndarray:
    """How far rounding may move the values of a least-squares fit of ``n`` points with the
    coefficients ``coefficients`` (..., m), its design's largest singular value ``largest``
    (...): ``m * n * eps * ||A|| * ||c||``, a design perturbed by ``m * n`` roundings of
    its size (the backward error of a fit by an orthogonal factorization, Higham, *Accuracy
    and Stability of Numerical Algorithms*, ch. 20). Two hypotheses with the same fitted
    values in exact arithmetic (on a cross- or L-shaped design) differ by no more; data
    with noise above it decide between them.

    >>> rounding_bound(np.array([2.0]), np.array([[3.0, 4.0]]), 5) / np.finfo(float).eps
    array([100.])
    """
    m = coefficients.shape[-1]
    norm = np.sqrt((coefficients * coefficients).sum(-1))
    return m * n * np.finfo(float).eps * largest * norm  # type: ignore[no-any-return]


def rounding_moves(design: np.ndarray, coefficients: np.ndarray) -> np.ndarray:
    """:func:`rounding_bound` point by point, for a design whose columns' scales differ by
    orders (a column of ones beside ``x^3*p^3``): each fitted value moved by at most
    ``m * n * eps * sum_j |A_ij * c_j|`` (the coefficients found to a relative ``m * n * eps``
    of a design scaled column by column, and the sum rounded as it is evaluated); the bound
    by the norms would take every point's move from the largest column.

    >>> (rounding_moves(np.array([[[1.0, 1e6], [1.0, 2.0]]]), np.array([[3.0, 0.5]])) / np.finfo(float).eps).tolist()
    [[2000012.0, 16.0]]
    """
    m, n = design.shape[-1], design.shape[-2]
    return m * n * np.finfo(float).eps * np.abs(design * coefficients[..., None, :]).sum(-1)  # type: ignore[no-any-return]


def smape(predicted: np.ndarray, actual: np.ndarray) -> np.ndarray:
    """Symmetric mean absolute percentage error along the last axis (0/0 counts as 0).

    Summed point by point in order, as Extra-P does (its ties are decided in the last bit).
    """
    diff = np.abs(predicted - actual)
    total = np.abs(predicted) + np.abs(actual)
    with np.errstate(divide="ignore", invalid="ignore"):
        parts = np.where(total != 0, diff / total * 2, 0.0)
    result = np.zeros(parts.shape[:-1])
    for column in np.moveaxis(parts, -1, 0):
        result = result + column
    return result / parts.shape[-1] * 100


def line_points(points: np.ndarray) -> list[list[tuple[float, np.ndarray]]]:
    """Per parameter, the points Extra-P models that parameter alone from.

    The points are grouped into lines (equal values of all other parameters); the longest
    lines are kept, and of those only the lines through the first value of the parameter.
    Returns per parameter a list of (value, indices of the points averaged at that value).

    >>> grid = np.array([[a, b] for a in (1.0, 2.0, 3.0) for b in (10.0, 20.0)])
    >>> [(v, ix.tolist()) for v, ix in line_points(grid)[1]]
    [(10.0, [0, 2, 4]), (20.0, [1, 3, 5])]
    >>> cross = np.array([[1.0, 10], [2, 10], [3, 10], [1, 20], [1, 30]])
    >>> [(v, ix.tolist()) for v, ix in line_points(cross)[0]]
    [(1.0, [0]), (2.0, [1]), (3.0, [2])]
    """
    n, k = points.shape
    result = []
    for p in range(k):
        rest = [q for q in range(k) if q != p]
        lines: dict[tuple[float, ...], list[int]] = {}
        for index in range(n):
            lines.setdefault(tuple(points[index, rest]), []).append(index)
        longest = max(len(line) for line in lines.values())
        by_value: dict[float, list[int]] = {}
        for line in lines.values():
            if len(line) == longest:
                for index in line:
                    by_value.setdefault(float(points[index, p]), []).append(index)
        first = next(iter(by_value.values()))
        common = {tuple(points[index, rest]) for index in first}
        chosen = [
            (value, np.array([i for i in members if tuple(points[i, rest]) in common]))
            for value, members in by_value.items()
        ]
        result.append([(value, members) for value, members in chosen if len(members)])
    return result
