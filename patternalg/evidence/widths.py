"""Calibrated widths: by how much the intervals of composed terms on a calibrated machine
must widen, from what the calibration compositions measured.

``calibrate`` fits the machine's numbers to the calibration compositions; at each of their
points the interval of what a measurement would show, as :mod:`~patternalg.algebra.intervals`
draws it from the atoms' models, is compared with the measured median. The **score** is the
measurement's distance from the prediction in half-widths of the interval on its side (1: on
the interval's end). If the intervals were right, the median score of a ``level`` interval of
normal draws would be ``z(0.5)/z(level)`` (0.41 at 0.9); the **factor** is the median score
over that, and the draws' deviations from the prediction of every composed term on that
machine are scaled by it, within the sizes the scores were seen at. It **never narrows**
them: a factor below 1 says that the calibration compositions fell well inside their
intervals, four of the five compositions of one light atom (``inc``), and it is no evidence
of the terms of other atoms, whose compositions the calibration does not hold
(``seq(qsort, inc)`` misses by an operator's own 4 to 7 % on ``data19``; narrowed by the
``inc`` compositions' 0.57, 75 % of the medians were covered, 86 % at 1).

The machine's numbers were fitted to the same compositions, and a number of a composition's
own takes up its miss (``c_qsort`` the whole of ``tpool_2(qsort)``'s): its scores say nothing
of what the operators miss elsewhere, and counted like the others they narrow every
interval. So the median is taken with each point counted by its **kept share**
(:mod:`~patternalg.evidence.absorbed`), and the factor is never below that of the scores
counted alike (the numbers hide misses, they add none). Beyond the sizes the scores were
seen at, an interval widens by the factor of the scores counted alike, and never narrows:
there the atoms' extrapolation dominates, which the numbers absorb nothing of. The
assumption, and where it fails: ``docs/uncertainty.md``, "Calibrated widths".

>>> scores(np.array([110.0, 95.0]), np.array([100.0, 100.0]), np.array([90.0, 90.0]),
...        np.array([120.0, 120.0])).tolist()
[0.5, 0.5]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..algebra.arrays import compile_term
from ..algebra.atomic_model import AtomicModel
from ..algebra.intervals import DRAWS, z_of
from ..algebra.semantics import Semantics
from ..syntax.terms import Term
from .absorbed import weighted_median
from .coverage import measured_interval

__all__ = ["scale_factor", "scores", "width_record", "LEVEL"]

#: the level the scores are taken at (the intervals' usual one: ``--interval 0.9``)
LEVEL = 0.9

#: the draws of each score's interval: four times an interval's, which halves the factor's
#: own Monte Carlo spread (3.5 to 1.8 % of it over eight seeds on ``data8`` and ``data13``;
#: calibrate 0.24 to 0.26 s); fewer where a composition has so many sizes that the draws
#: would pass :data:`_MOST_CELLS`, never fewer than an interval's
SCORE_DRAWS = 4000
_MOST_CELLS = 4_000_000


def scale_factor(values: Sequence[float] | np.ndarray, level: float,
                 weights: Sequence[float] | np.ndarray | None = None) -> float:  # fmt: skip
    """The factor that brings the median of the normalised ``scores`` (``values``; each
    counted ``weights`` times, :func:`~patternalg.evidence.absorbed.weighted_median`) of
    ``level`` intervals to ``z(0.5)/z(level)``, its value for intervals that are right
    (infinite without values or weight).

    >>> round(scale_factor([0.2, 0.1, 0.3], 0.9), 3)  # scores half the right size: narrow
    0.488
    """
    values = np.asarray(values, dtype=float)
    middle = weighted_median(values, None if weights is None else np.asarray(weights, dtype=float))
    return middle / (z_of(0.5) / z_of(level)) if math.isfinite(middle) else math.inf


def scores(measured: np.ndarray, predicted: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Each measurement's distance from the prediction in half-widths of its interval on
    the measurement's side (0 where both are 0, infinite where only the interval's is)."""
    distance = np.abs(measured - predicted)
    side = np.where(measured >= predicted, high - predicted, predicted - low)
    with np.errstate(divide="ignore", invalid="ignore"):
        found = np.where(side > 0, distance / np.where(side > 0, side, 1.0), np.where(distance > 0, np.inf, 0.0))
    return found  # type: ignore[no-any-return]


def width_record(
    compositions: Sequence[tuple[Term, np.ndarray, np.ndarray]],
    library: Mapping[str, AtomicModel],
    semantics: Semantics,
    level: float = LEVEL,
    seed: int = 0,
    kept: np.ndarray | None = None,
) -> dict[str, Any] | None:
    """The calibration table's ``width`` record, ``{level, factor, beyond, points, kept,
    range}``, from the scores of ``compositions`` (term, sizes, measured medians) under
    ``semantics`` with the atoms' ``library``: ``beyond`` the factor of every score alike,
    at least 1 (what an interval widens by beyond the sizes seen, and never narrows);
    ``factor`` that of the scores each counted by its point's kept share (``kept``, the
    compositions' points one after the other, :mod:`~patternalg.evidence.absorbed`; None:
    every point keeps its whole miss), at least ``beyond`` (the numbers hide misses, they
    add none) and so at least 1 (module doc); ``kept`` the shares' sum, ``points`` their count, ``range`` their sizes'.
    None where no atom of them carries an uncertainty."""
    found, shares, sizes = [], [], []
    start = 0
    for term, at, medians in compositions:
        share = np.ones(len(at)) if kept is None else np.asarray(kept[start : start + len(at)], dtype=float)
        start += len(at)
        count = max(DRAWS, min(SCORE_DRAWS, _MOST_CELLS // max(len(at), 1)))
        low, high, _ = measured_interval(term, library, semantics, {"x": at}, len(at), level, seed, count)
        if np.all(high - low == 0):  # no atom drawn (models without an uncertainty)
            continue
        values = compile_term(term, library, {}, semantics=semantics).values({"x": at})
        found.append(scores(medians, np.broadcast_to(values, at.shape), low, high))
        shares.append(share)
        sizes.append(at)
    every = np.concatenate(found) if found else np.empty(0)
    known = ~np.isnan(every)
    weight = np.concatenate(shares)[known] if found else np.empty(0)
    plain = scale_factor(every[known], level)
    weighted = scale_factor(every[known], level, weight)
    if not math.isfinite(plain) or plain <= 0:
        return None
    factor = max(weighted, plain, 1.0) if math.isfinite(weighted) else max(plain, 1.0)
    seen = np.concatenate(sizes)
    return {"level": level, "factor": float(f"{factor:.4g}"), "beyond": float(f"{max(plain, 1.0):.4g}"),
            "points": int(every.size), "kept": round(float(weight.sum()), 2),
            "range": [float(seen.min()), float(seen.max())]}  # fmt: skip
