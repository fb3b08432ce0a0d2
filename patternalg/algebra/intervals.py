"""How sure a prediction is: Monte Carlo through the composition.

Each fitted atom carries an :class:`~patternalg.algebra.uncertainty.Uncertainty`: its value
under a draw is ``expr + sum_i delta_i * g_i`` with ``delta ~ N(0, covariance)``. A draw of
a term draws every atom's ``delta`` once and folds the whole term with it, so an atom that
occurs twice is drawn once (correlated stages are right), and independent atoms are drawn
independently. The deltas are symbols of the atoms' models, bound to arrays of shape
``(draws, 1)`` beside the grid's ``(points,)``: the one numeric fold
(:mod:`~patternalg.algebra.arrays`) computes every draw at every point at once. An
atom's draws depend only on the seed and its name, so designs that share an atom share its
draws: two designs compared are drawn jointly, and their difference is as sure as it is.

**What the interval is for.** A user compares a prediction with a measurement of the
composition: the median of R repetitions. The interval is therefore for *what such a
measurement would show*: the model's uncertainty (the atoms' coefficients) and the
measurement's own noise (the relative spread of a median of R repetitions, ``noise`` of
the atoms' uncertainties, pooled over the atoms of the term), and, on a calibrated
machine, the spread of its calibration's residuals (what its operators still miss). With
``for_measurement=False`` it is the interval of the model's value alone.

>>> from patternalg.algebra.atomic_model import AtomicModel
>>> from patternalg.algebra.uncertainty import Uncertainty
>>> from patternalg.syntax.symbols import x
>>> u = Uncertainty((x,), ((1e-4,),), 10, 0.0, "bootstrap")
>>> lib = {"k": AtomicModel("k", 2 * x, uncertainty=u)}
>>> spread = Spread.of("seq(k, k)", lib, {})
>>> low, high = spread.interval({"x": np.array([100.0])}, 0.9)
>>> round(float(low[0])), round(float(high[0]))  # 400 +- 1.645 * 2 * sqrt(1e-4) * 100
(397, 403)
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import sympy

from ..arguments import as_bindings, as_int, as_models, as_term
from ..errors import EvaluationError, UnknownAtomError, close_names
from ..syntax.symbols import symbol
from ..syntax.terms import Pipe, Term
from .arrays import Compiled, compile_term
from .atomic_model import AtomicModel
from .bindings import as_value
from .machine import MachineSemantics
from .semantics import Semantics
from .units import atom_names

__all__ = ["Spread", "DRAWS", "check_level", "no_uncertainty_note", "z_of", "winner_shares", "decided"]

#: draws of a Monte Carlo interval (the quantiles of 1,000 draws are within about 1 % of
#: their limit for a 90 % interval)
DRAWS = 1000


def check_level(level: float) -> float:
    """A confidence level: a number strictly between 0 and 1 (``--interval 0.9``)."""
    if isinstance(level, bool) or not isinstance(level, int | float) or not 0 < level < 1:
        raise EvaluationError(f"--interval {level!r}: a confidence level is between 0 and 1, e.g. 0.9")
    return float(level)


def z_of(level: float) -> float:
    """The normal quantile of a central ``level`` interval (1.645 for 0.9)."""
    from statistics import NormalDist

    return NormalDist().inv_cdf((1 + level) / 2)


def no_uncertainty_note(names: list[str]) -> str:
    """The note for atoms whose models carry no uncertainty (they count as exact)."""
    return (
        f"no uncertainty recorded for {', '.join(names)} (a model given, or fitted without "
        "repetitions): counted as exact in the interval"
    )


@dataclass(frozen=True)
class Spread:
    """A term compiled with its atoms' perturbations as symbols, ready to be drawn."""

    compiled: Compiled
    #: the symbols of each drawn atom's deltas and its uncertainty
    deltas: tuple[tuple[tuple[str, ...], Any], ...]
    noise: float  #: the relative spread of a measured median (0: the model's value alone)
    missing: tuple[str, ...]  #: atoms without an uncertainty
    term: str = ""  #: the term's text (its measurement noise is drawn by it)

    @classmethod
    def of(
        cls,
        term: Term | str,
        library: Mapping[str, AtomicModel],
        fixed: Mapping[str, sympy.Expr],
        *,
        semantics: Semantics | str = Semantics.EXACT,
        for_measurement: bool = True,
        partial: bool = False,
    ) -> Spread:
        """``term`` over ``library`` with ``fixed`` bound, its atoms' deltas as symbols."""
        term, library = as_term(term), as_models(library)
        fixed = {k: as_value(v) for k, v in as_bindings(fixed, "fixed").items()}
        for name in atom_names(term):
            if name not in library:
                raise UnknownAtomError(name, close_names(name, library, n=3))
        semantics = Semantics.of(semantics)
        perturbed = dict(library)
        deltas: list[tuple[tuple[str, ...], Any]] = []
        noises: list[float] = []
        missing: list[str] = []
        for name in sorted(atom_names(term)):
            model = library.get(name)
            u = getattr(model, "uncertainty", None)
            if model is None:
                continue
            if u is None:
                missing.append(name)
                continue
            # positive symbols as every symbol of the fold (a delta's sign only matters in
            # numpy, where the assumption plays no part)
            names = tuple(f"_delta_{name}_{i}" for i in range(len(u.terms)))
            shift = sum((symbol(s) * g for s, g in zip(names, u.terms, strict=True)), sympy.Integer(0))
            perturbed[name] = replace(model, expr=model.expr + shift)
            deltas.append((names, u))
            noises.append(u.noise)
        noise = 0.0
        if for_measurement:
            measured = math.sqrt(sum(v * v for v in noises) / len(noises)) if noises else 0.0
            # a calibration's residuals hold the measurements' own noise already: what the
            # operators still miss is the rest of their spread
            missed = math.sqrt(max(0.0, _calibration_spread(term, semantics) ** 2 - measured**2))
            noise = math.hypot(measured, missed)
        compiled = compile_term(term, perturbed, fixed, partial=partial, semantics=semantics)
        return cls(compiled, tuple(deltas), noise, tuple(missing), str(term))

    @property
    def symbols(self) -> tuple[str, ...]:
        """The symbols a grid binds (the term's own, not the deltas)."""
        drawn = {s for names, _ in self.deltas for s in names}
        return tuple(s for s in self.compiled.symbols if s not in drawn)

    def draws(self, grid: Mapping[str, Any], count: int = DRAWS, seed: int = 0) -> np.ndarray:
        """The term's value under ``count`` joint draws at every point of ``grid``: shape
        ``(count, *grid shape)``; deterministic for a ``seed``: an atom's draws depend on
        the seed and its name only, a measurement's noise on the seed and the term."""
        bound, shape = self._bound(grid, count, seed)
        extra = (1,) * len(shape)
        values = self.compiled.values(bound)
        if values.shape != (count, *shape):  # no atom is drawn: each draw is the model's value
            values = np.broadcast_to(values.reshape((-1, *shape))[:1], (count, *shape)).copy()
        if self.noise > 0:
            noise = _rng(seed, self.term).standard_normal((count, *extra))
            values = values * (1 + self.noise * noise)
        return values

    def kept_draws(
        self, grid: Mapping[str, Any], keep: Any, count: int = DRAWS, seed: int = 0
    ) -> dict[int, np.ndarray]:
        """The draws of every sub-term ``keep`` selects (by ``id``), shape ``(count, *grid
        shape)``, from one fold: the same joint draws as :meth:`draws` (no measurement noise)."""
        bound, shape = self._bound(grid, count, seed)
        return {
            k: np.broadcast_to(v.reshape((-1, *shape)), (count, *shape))
            for k, v in self.compiled.kept(bound, keep).items()
        }

    def _bound(self, grid: Mapping[str, Any], count: int, seed: int) -> tuple[dict[str, np.ndarray], tuple[int, ...]]:
        """The grid and every drawn atom's deltas as arrays a fold broadcasts: the grid's
        shape after the draws' axis."""
        arrays = {k: np.asarray(v, dtype=float) for k, v in grid.items()}
        shape = np.broadcast_shapes(*(a.shape for a in arrays.values())) if arrays else ()
        extra = (1,) * len(shape)
        bound = {k: a[None, ...] for k, a in arrays.items()}
        for names, u in self.deltas:
            drawn = u.draws(_rng(seed, names[0].rsplit("_", 1)[0]), count)
            for i, name in enumerate(names):
                bound[name] = drawn[:, i].reshape((count, *extra))
        return bound, shape

    def interval(
        self, grid: Mapping[str, Any], level: float, count: int = DRAWS, seed: int = 0
    ) -> tuple[np.ndarray, np.ndarray]:
        """The central ``level`` interval at every point of ``grid``: (low, high)."""
        level = check_level(level)
        values = self.draws(grid, count, seed)
        low, high = np.quantile(values, [(1 - level) / 2, (1 + level) / 2], axis=0)
        return low, high


def winner_shares(
    spreads: list[Spread], grid: Mapping[str, Any], seed: int = 0, count: int = DRAWS
) -> np.ndarray:
    """How often each design is the fastest over ``count`` joint draws, at every point of
    ``grid``: shape ``(designs, *grid shape)`` (a design without a finite value never wins)."""
    values = np.stack([s.draws(grid, count, seed) for s in spreads])
    values = np.where(np.isfinite(values), values, np.inf)
    best = np.argmin(values, axis=0)
    return np.stack([(best == k).mean(axis=0) for k in range(len(spreads))])


def decided(shares: np.ndarray, level: float) -> np.ndarray:
    """At every point the design that wins in at least ``level`` of the draws, else -1
    (undecided: the measurements cannot tell which is faster)."""
    best = np.argmax(shares, axis=0)
    return np.where(np.max(shares, axis=0) >= level, best, -1)


def _rng(seed: int, name: str) -> np.random.Generator:
    """The generator of one atom's (or one term's) draws: by the seed (a whole number
    >= 0) and the name."""
    return np.random.default_rng([as_int(seed, "seed", 0), zlib.crc32(name.encode())])


def _calibration_spread(term: Term, semantics: Semantics) -> float:
    """The relative spread of a calibrated machine's residuals (what its operators still
    miss), for a term with a pipe (the hand-off is the number calibrated); 0 for others
    (the cores are no calibrated number) and without a machine."""
    if not isinstance(semantics, MachineSemantics) or not any(isinstance(n, Pipe) for n in term.walk()):
        return 0.0
    spread = dict(semantics.machine.calibration).get("spread")
    if not isinstance(spread, Mapping):
        return 0.0
    sd = spread.get("sd")
    return float(sd) if isinstance(sd, int | float) else 0.0
