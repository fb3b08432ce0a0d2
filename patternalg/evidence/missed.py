"""What a calibrated machine's operators still miss: the spread of the calibration
compositions' residuals by size, their measurements' own noise taken out.

A residual ``predicted / measured - 1`` of a calibration composition scatters for two
reasons: the operators miss (what an interval of another composition must add), and the
medians it compares are medians of a few repetitions (the composition's, and, composed
from the atoms' measured medians, the atoms'). The second is known from the repetitions:
:func:`residual_noise` carries it through the term (linearised: each atom's medians moved
by their relative noise, one at a time), and :func:`missed_by_size` takes it out of the
residuals' robust spread in quadrature. The predicted term's own noise is added back by the
interval (:mod:`~patternalg.algebra.intervals`), so a light, noisy calibration composition
(a pipe of ``inc`` measured over 20 ms) does not widen a heavy, quiet one's interval by its
own noise.

>>> missed_by_size(np.array([1.0, 1, 2, 2]), np.array([0.1, -0.1, 0.05, 0.0]),
...                np.array([0.06, 0.06, 0.0, 0.0]))
[(1.0, 0.102783), (2.0, 0.102783)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from ..algebra.arrays import compile_term
from ..algebra.atomic_model import AtomicModel
from ..algebra.semantics import Semantics
from ..forms.spread import noise_by_point
from ..syntax.terms import Atom, Term

__all__ = ["missed_by_size", "missed_growth", "missed_record", "residual_noise"]

#: the relative step an atom's medians are moved by to see how the term follows them
_STEP = 1e-3


def residual_noise(
    term: Term,
    sizes: np.ndarray,
    own: np.ndarray,
    library: Mapping[str, AtomicModel],
    semantics: Semantics,
    atom_noise: Mapping[str, Mapping[float, float]],
) -> np.ndarray:
    """The relative spread ``term``'s residual has at ``sizes`` from measurement noise
    alone: its median's own (``own``) and each atom's (``atom_noise``: name -> size ->
    relative noise; an atom not there, a model, adds none) carried through the term under
    ``semantics``, added in quadrature."""
    grid = {"x": sizes}
    base = compile_term(term, library, {}, semantics=semantics).values(grid)
    total = np.asarray(own, dtype=float) ** 2
    for name in sorted({n.name for n in term.walk() if isinstance(n, Atom)} & set(atom_noise)):
        moved = {**library, name: replace(library[name], expr=library[name].expr * (1 + _STEP))}
        shifted = compile_term(term, moved, {}, semantics=semantics).values(grid)
        with np.errstate(divide="ignore", invalid="ignore"):
            share = np.where(base != 0, (shifted - base) / (_STEP * base), 0.0)  # d log P / d log atom
        noise = np.array([atom_noise[name].get(float(s), 0.0) for s in sizes])
        total = total + (share * noise) ** 2
    return np.sqrt(total)


def missed_by_size(sizes: np.ndarray, residuals: np.ndarray, noise: np.ndarray) -> list[tuple[float, float]]:
    """Per distinct size (ascending), over the points at it and at the sizes next to it:
    the residuals' robust spread (1.4826 times their median absolute value) with the
    points' noise taken out in quadrature (its median square), at least 0."""
    distinct = np.unique(sizes)
    found = []
    for i, size in enumerate(distinct):
        near = np.isin(sizes, distinct[max(0, i - 1) : i + 2])
        gross = 1.4826 * float(np.median(np.abs(residuals[near])))
        net = np.sqrt(max(0.0, gross * gross - float(np.median(noise[near] ** 2))))
        found.append((float(size), round(float(net), 6)))
    return found


def missed_growth(steps: Sequence[np.ndarray], residuals: Sequence[np.ndarray], noises: Sequence[np.ndarray],
                  kept: np.ndarray) -> float:
    """How fast the operators' miss drifts per doubling of x: each composition's residuals
    take a slope in log2(x) (``steps``) of their own, the calibrated sizes show it only
    within them, and a prediction beyond them meets the slope times its distance. A slope
    every composition shares is not an operator's: it is the atoms' (their measured medians
    drifting with the size), which their own errors cover, so the slopes count about their
    mean. Their variance by moments: each composition's least-squares slope off the mean,
    squared, less what its points' ``noises`` or their scatter about the line (noise the
    repetitions did not show) give it, whichever is larger, over its ``kept`` share of a
    slope squared (:func:`~patternalg.evidence.absorbed.kept_slopes`: a hand-off fitted to
    a pipe's residuals takes up its slope); compositions at fewer than 3 sizes show none,
    and fewer than 2 compositions no spread. 0 where noise explains the slopes: unless the
    sum of their squares over that variance is above chi-squared's 90 % quantile (one
    degree of freedom per composition), no drift is seen.

    >>> t = np.array([10.0, 11, 12, 13, 14])
    >>> drift = [0.02 * (t - 12), -0.01 * (t - 12), np.zeros(5)]
    >>> round(missed_growth([t] * 3, drift, [np.zeros(5)] * 3, np.ones(3)), 6)   # 2, -1, 0 about 1/3
    0.015275
    >>> missed_growth([t] * 3, drift, [np.full(5, 0.05)] * 3, np.ones(3))   # within the noise
    0.0
    >>> missed_growth([t] * 3, [0.02 * (t - 12)] * 3, [np.zeros(5)] * 3, np.ones(3))   # shared: the atoms'
    0.0
    """
    # chi-squared's upper quantile (scipy.stats costs 0.25 s to import)
    from scipy.special import chdtri

    slopes, variances, shares = [], [], []
    for t, r, n, k in zip(steps, residuals, noises, kept, strict=True):
        if len(np.unique(t)) < 3:
            continue
        dt = t - t.mean()
        ss = float(dt @ dt)
        slope = float(dt @ r) / ss
        about = r - r.mean() - slope * dt  # the scatter about the line: noise the repetitions did not show
        slopes.append(slope)
        variances.append(max(float((dt * dt) @ (n * n)) / (ss * ss), float(about @ about) / (len(t) - 2) / ss))
        shares.append(float(k))
    count = len(slopes)
    if count < 2:
        return 0.0
    every, variance, share = np.array(slopes), np.array(variances), np.array(shares)
    off = every - every.mean()
    scale = (count - 1) / count  # what the mean takes of each slope's spread
    with np.errstate(divide="ignore", invalid="ignore"):  # a slope without noise tells all, or nothing
        told = float(np.sum(np.where(variance > 0, every * every / variance, np.where(every != 0, np.inf, 0.0))))
    if told <= chdtri(count, 0.1):  # the slopes are what noise gives: no drift seen
        return 0.0
    seen, counted = float(np.sum(off * off - scale * variance)), scale * float(share @ share)
    return float(np.sqrt(seen / counted)) if seen > 0 and counted > 0 else 0.0


def missed_record(
    compositions: Sequence[Any],
    residuals: Sequence[np.ndarray],
    atoms: Sequence[Any],
    library: Mapping[str, AtomicModel],
    semantics: Semantics,
    measured_atoms: bool,
    slopes: np.ndarray,
) -> tuple[list[list[float]], float] | None:
    """The calibration record's ``spread.missed``, ``[[x, missed], ...]``, and
    ``spread.growth`` (:func:`missed_growth`, with each composition's kept share of a
    slope, ``slopes``) from the calibration ``compositions`` (regions with their
    repetitions) and their ``residuals`` under the machine's ``semantics``; the atoms' noise
    counts where the terms were composed from their measured medians (``measured_atoms``).
    None where no composition has repetitions (nothing to take out: the spread is all there
    is)."""
    if not any(getattr(r, "series", None) is not None for r in compositions):
        return None
    atom_noise: dict[str, dict[float, float]] = {}
    if measured_atoms:
        for region in atoms:
            if region.series is not None:
                noise = noise_by_point(region.series.spread_values, region.medians)
                atom_noise[str(region.term)] = dict(zip(map(float, region.sizes), map(float, noise), strict=True))
    noises = []
    for region in compositions:
        own = (np.zeros(len(region.sizes)) if region.series is None
               else noise_by_point(region.series.spread_values, region.medians))  # fmt: skip
        noises.append(residual_noise(region.term, region.sizes, own, library, semantics, atom_noise))
    sizes = np.concatenate([r.sizes for r in compositions])
    pairs = missed_by_size(sizes, np.concatenate(list(residuals)), np.concatenate(noises))
    steps = [np.log2(np.asarray(r.sizes, dtype=float)) for r in compositions]  # sizes > 0 (regions)
    return [[x, v] for x, v in pairs], missed_growth(steps, residuals, noises, slopes)
