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

__all__ = ["missed_by_size", "missed_record", "residual_noise"]

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


def missed_record(
    compositions: Sequence[Any],
    residuals: Sequence[np.ndarray],
    atoms: Sequence[Any],
    library: Mapping[str, AtomicModel],
    semantics: Semantics,
    measured_atoms: bool,
) -> list[list[float]] | None:
    """The calibration record's ``spread.missed``: ``[[x, missed], ...]`` from the
    calibration ``compositions`` (regions with their repetitions) and their ``residuals``
    under the machine's ``semantics``; the atoms' noise counts where the terms were
    composed from their measured medians (``measured_atoms``). None where no composition
    has repetitions (nothing to take out: the spread is all there is)."""
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
    return [[x, v] for x, v in pairs]
