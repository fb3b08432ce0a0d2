"""On-line estimation of the extended Amdahl model in constant space (paper 002, section 3.4).

:class:`OnlineAmdahl` takes one observation (x, p, time) at a time. The 1-core observations
feed a least-squares polynomial of degree k through running sums: XᵀX of the monomial basis
is a Hankel matrix, so the 2k+1 power sums sum(x^j) and the k+1 sums sum(x^j*y) hold it all
(paper 002 says "k(k+1) values"; the plain matrices are (k+1)² + (k+1) numbers, the Hankel
form 3k+2). alpha is a running mean over the current "highest" point (the highest p, then the
highest x at that p) and resets when a higher point arrives. Every update and prediction
costs O(k³), whatever the number of observations.

:func:`replay` reproduces the experiment of section 3.5: shuffle the points, predict each
before learning it, and compare with a static model frozen at the first possible estimate.

>>> est = OnlineAmdahl(degree=1)
>>> for x, p in [(10, 1), (20, 1), (30, 1), (30, 8)]:
...     est.update(x, p, (2.0 * x + 1.0) * (0.9 / p + 0.1))
>>> round(est.alpha, 12), round(est.predict(20, 4), 9)
(0.9, 13.325)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from copy import deepcopy
from dataclasses import dataclass

import numpy as np

from ...errors import FitError
from .fit import alpha_from_times

__all__ = ["OnlineAmdahl", "Replay", "replay"]


class OnlineAmdahl:
    """The extended Amdahl model estimated from a stream of observations, in constant space."""

    def __init__(self, degree: int) -> None:
        if degree < 0:
            raise FitError(f"degree {degree}: the degree of T_seq must be 0 or more")
        self.degree = degree
        self._power_sums = np.zeros(2 * degree + 1)  # sum of x^j, j = 0 .. 2k
        self._moment_sums = np.zeros(degree + 1)  # sum of x^j * y, j = 0 .. k
        self._seen: list[float] = []  # at most k + 1 of them
        self._top: tuple[float, float] | None = None  # the highest (p, x) with p > 1
        self._top_count = 0
        self._top_sum = 0.0
        self._coefficients: np.ndarray | None = None

    def update(self, x: float, p: float, time: float) -> None:
        """Learn one observation: ``time`` for input ``x`` on ``p`` cores."""
        if p < 1:
            raise FitError(f"p = {p}: a core count is at least 1")
        if p == 1:
            powers = float(x) ** np.arange(2 * self.degree + 1)
            self._power_sums += powers
            self._moment_sums += powers[: self.degree + 1] * float(time)
            if len(self._seen) <= self.degree and x not in self._seen:
                self._seen.append(float(x))
            self._coefficients = None
            return
        point = (float(p), float(x))
        if self._top is None or point > self._top:  # higher p first, then higher x
            self._top, self._top_count, self._top_sum = point, 0, 0.0
        if point == self._top:
            self._top_count += 1
            self._top_sum += float(time)

    @property
    def coefficients(self) -> np.ndarray | None:
        """T_seq's coefficients c0 .. ck, or None before k + 1 distinct 1-core x values."""
        if len(self._seen) <= self.degree:
            return None
        if self._coefficients is None:
            k = self.degree
            gram = self._power_sums[np.add.outer(np.arange(k + 1), np.arange(k + 1))]
            scale = np.sqrt(np.diag(gram))  # Jacobi scaling keeps the Hankel system solvable
            solved = np.linalg.solve(gram / np.outer(scale, scale), self._moment_sums / scale)
            self._coefficients = solved / scale
        return self._coefficients

    def tseq(self, x: float) -> float:
        """The estimated 1-core time at ``x`` (NaN before T_seq is determined)."""
        coefficients = self.coefficients
        if coefficients is None:
            return math.nan
        return float(np.polynomial.polynomial.polyval(float(x), coefficients))

    @property
    def alpha(self) -> float:
        """alpha at the highest point against the current T_seq (NaN while unknown)."""
        if self._top is None:
            return math.nan
        p, x = self._top
        return float(alpha_from_times(self.tseq(x), self._top_sum / self._top_count, p))

    def predict(self, x: float, p: float) -> float:
        """The predicted time of input ``x`` on ``p`` cores (NaN while the model is incomplete)."""
        tseq = self.tseq(x)
        if p == 1:
            return tseq
        alpha = self.alpha
        return tseq * (alpha / p + 1 - alpha)

    @property
    def ready(self) -> bool:
        """Whether :meth:`predict` answers for every p."""
        return self.coefficients is not None and self._top is not None


@dataclass(frozen=True)
class Replay:
    """Mispredictions of the replay, measured - predicted, per predicted point in stream order.

    ``online`` and ``static`` are absolute (in the unit of the times, as paper 002's figs. 13
    and 14); ``online_percent`` and ``static_percent`` in percent of the predicted time (figs.
    11 and 12), which explode where the predicted time is tiny next to the noise.
    """

    online: np.ndarray
    static: np.ndarray
    online_percent: np.ndarray
    static_percent: np.ndarray
    skipped: int

    @staticmethod
    def spread(errors: np.ndarray) -> dict[str, float]:
        """Summary of a misprediction series: mean |error|, 5-95 % range, worst |error|."""
        low, high = np.percentile(errors, [5, 95])
        return {
            "mean_abs": float(np.mean(np.abs(errors))),
            "p5": float(low),
            "p95": float(high),
            "max_abs": float(np.max(np.abs(errors))),
        }


def replay(
    x: Sequence[float], p: Sequence[float], time: Sequence[float], degree: int, seed: int = 0
) -> Replay:
    """Paper 002, section 3.5: shuffled points, each predicted before the model learns it.

    The static model is a copy of the on-line one at the first moment it can predict every
    point, never updated after. Points before that moment are ``skipped``.

    >>> xs = np.repeat([100.0, 200.0, 300.0, 400.0], 3); ps = np.tile([1.0, 2.0, 8.0], 4)
    >>> result = replay(xs, ps, 3.0 * xs * (0.8 / ps + 0.2), degree=1)
    >>> float(np.abs(result.online).max()) < 1e-9, len(result.online) + result.skipped
    (True, 12)
    """
    order = np.random.default_rng(seed).permutation(len(x))
    online = OnlineAmdahl(degree)
    static: OnlineAmdahl | None = None
    predicted: list[tuple[float, float, float]] = []  # measured, online, static
    for i in order:
        if static is None and online.ready:
            static = deepcopy(online)
        if static is not None:
            predicted.append((time[i], online.predict(x[i], p[i]), static.predict(x[i], p[i])))
        online.update(x[i], p[i], time[i])
    table = np.array(predicted).reshape(-1, 3)
    measured, by_online, by_static = table.T
    return Replay(
        measured - by_online,
        measured - by_static,
        100.0 * (measured - by_online) / by_online,
        100.0 * (measured - by_static) / by_static,
        len(order) - len(table),
    )
