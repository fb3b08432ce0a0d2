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

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from .._internal.chi_square import chi2_upper_quantile
from ..algebra.atom_shares import atom_shares
from ..algebra.atomic_model import AtomicModel
from ..algebra.semantics import Semantics
from ..forms.spread import noise_by_point
from ..syntax.terms import Term

__all__ = ["missed_by_atom", "missed_by_size", "missed_growth", "missed_record", "residual_noise"]

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
    ``semantics`` (by its :func:`~patternalg.algebra.atom_shares.atom_shares`), added in
    quadrature."""
    total = np.asarray(own, dtype=float) ** 2
    for name, share in atom_shares(term, library, semantics, sizes, names=set(atom_noise)).items():
        noise = np.array([atom_noise[name].get(float(s), 0.0) for s in sizes])
        total = total + (share * noise) ** 2
    return np.sqrt(total)


def missed_by_atom(sizes: np.ndarray, residuals: np.ndarray, noise: np.ndarray,
                   shares: Mapping[str, np.ndarray]) -> tuple[list[tuple[float, float]], dict[str, list[tuple[float, float]]]]:
    """The miss in parts: per distinct size (ascending), over the points at it and at the
    sizes next to it, a residual's variance (its square less its points' ``noise``
    squared) read as a miss every composition has (``common``) and each atom's own, weighted
    by the atom's share of the composition (``shares``: name -> share at each point),
    ``r^2 - n^2 = m0^2 + sum_a share_a^2 m_a^2``, by non-negative least squares.

    An atom's own miss is only as sure as the points that show it: one calibration
    composition of ``qsort`` shows it at three points. So each is read with the whole
    miss there (:func:`missed_by_size`'s) as one more point of its own (a unit-information
    prior: an atom few points show is not trusted to miss much less, or more, than the
    rest), and only atoms that carry at least half of some point are read (one that carries
    none anywhere, a pipe's light stage, is not seen). Returns the common miss and each
    atom's, by size.

    >>> s = np.repeat([1.0, 2.0], 8)
    >>> heavy = np.tile([1.0] * 4 + [0.0] * 4, 2)   # four compositions of a, four of b
    >>> r = np.tile([0.2, -0.2, 0.2, -0.2, 0.02, -0.02, 0.02, -0.02], 2)
    >>> common, atoms = missed_by_atom(s, r, np.zeros(16), {"a": heavy, "b": 1 - heavy})
    >>> common, atoms   # b's 2 % is what every composition misses; a misses about 20 % more
    ([(1.0, 0.02), (2.0, 0.02)], {'a': [(1.0, 0.195334), (2.0, 0.195334)], 'b': [(1.0, 0.054362), (2.0, 0.054362)]})
    """
    from scipy.optimize import nnls

    seen = sorted(name for name, w in shares.items() if np.any(np.abs(w) >= 0.5))
    common: list[tuple[float, float]] = []
    atoms: dict[str, list[tuple[float, float]]] = {name: [] for name in seen}
    with np.errstate(over="ignore", invalid="ignore"):  # a double's overflow reads as nothing
        target = residuals**2 - noise**2
        columns = np.column_stack([np.ones(len(sizes))] + [shares[name] ** 2 for name in seen])
    finite = np.isfinite(target) & np.all(np.isfinite(columns), axis=1)
    for size, near in _windows(sizes):
        used = near & finite
        whole = _net(residuals[near], noise[near]) ** 2
        try:
            variance = nnls(columns[used], target[used])[0] if used.any() else np.zeros(len(seen) + 1)
        except RuntimeError:  # its iterations ran out (values some 1e150 apart): the whole miss, in common
            variance = np.array([whole] + [0.0] * len(seen))
        common.append((size, round(float(np.sqrt(variance[0])), 6)))
        for name, own in zip(seen, variance[1:], strict=True):
            points = float(np.sum(shares[name][near] ** 2))
            atoms[name].append((size, round(float(np.sqrt((points * own + whole) / (points + 1))), 6)))
    return common, atoms


def missed_by_size(sizes: np.ndarray, residuals: np.ndarray, noise: np.ndarray) -> list[tuple[float, float]]:
    """Per distinct size (ascending), over the points at it and at the sizes next to it:
    the residuals' robust spread (1.4826 times their median absolute value) with the
    points' noise taken out in quadrature (its median square), at least 0."""
    return [(size, round(_net(residuals[near], noise[near]), 6)) for size, near in _windows(sizes)]


def _windows(sizes: np.ndarray) -> Iterator[tuple[float, np.ndarray]]:
    """Each distinct size (ascending) and the points at it and at the sizes next to it."""
    distinct = np.unique(sizes)
    for i, size in enumerate(distinct):
        yield float(size), np.isin(sizes, distinct[max(0, i - 1) : i + 2])


def _net(residuals: np.ndarray, noise: np.ndarray) -> float:
    """The residuals' robust spread (1.4826 times their median absolute value), the noise
    taken out in quadrature (its median square), at least 0."""
    gross = 1.4826 * float(np.median(np.abs(residuals)))
    return float(np.sqrt(max(0.0, gross * gross - float(np.median(noise**2)))))


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
    if told <= chi2_upper_quantile(count, 0.1):  # the slopes are what noise gives: no drift seen
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
) -> dict[str, Any] | None:
    """The calibration record's ``spread`` entries of what the operators miss, from the
    calibration ``compositions`` (regions with their repetitions) and their ``residuals``
    under the machine's ``semantics``: ``missed``, ``[[x, missed], ...]``
    (:func:`missed_by_size`); the same in parts, ``common`` and ``atoms``
    (:func:`missed_by_atom`); and ``growth`` (:func:`missed_growth`, with each composition's
    kept share of a slope, ``slopes``). A composition no atom carries at any of its sizes
    (its value a machine number's alone: a pool of ``nop`` at the turn) is left out. The atoms' noise counts where the terms were
    composed from their measured medians (``measured_atoms``). None where no composition
    has repetitions (nothing to take out: the spread is all there is)."""
    if not any(getattr(r, "series", None) is not None for r in compositions):
        return None
    # a composition no atom carries at any size (a pool of nop at the machine's turn) misses
    # by a machine number's misfit, which the number's covariance carries: not the operators'
    each = [atom_shares(r.term, library, semantics, r.sizes) for r in compositions]
    carried = [any(np.any(np.asarray(v) > 0) for v in shares.values()) for shares in each]
    if not any(carried):
        return None
    compositions, residuals, each = ([v for v, keep in zip(seq, carried, strict=True) if keep]
                                     for seq in (compositions, residuals, each))  # fmt: skip
    slopes = np.asarray(slopes)[np.asarray(carried)]
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
    every, noise = np.concatenate(list(residuals)), np.concatenate(noises)
    names = sorted({name for shares in each for name in shares})
    shares = {name: np.concatenate([s.get(name, np.zeros(len(r.sizes))) for s, r in zip(each, compositions, strict=True)])
              for name in names}  # fmt: skip
    common, by_atom = missed_by_atom(sizes, every, noise, shares)
    steps = [np.log2(np.asarray(r.sizes, dtype=float)) for r in compositions]  # sizes > 0 (regions)
    return {
        "missed": [[x, v] for x, v in missed_by_size(sizes, every, noise)],
        "common": [[x, v] for x, v in common],
        "atoms": {name: [[x, v] for x, v in pairs] for name, pairs in by_atom.items()},
        "growth": missed_growth(steps, residuals, noises, slopes),
    }
