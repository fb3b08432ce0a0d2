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
measurement would show*: the model's uncertainty (the atoms' coefficients), **the models'
own error** (each atom's held-out errors, what its fit missed at the sizes it was fitted
without, beyond what its coefficients' draws and its points' noise already say: a relative
error drawn per atom, sized where it was seen and growing beyond the measured range,
:func:`~patternalg.algebra.own_error.own_error`), the measurement's own noise (the relative spread of a median of R
repetitions, ``noise`` of the atoms' uncertainties: each atom's value moved by its own noise,
drawn per term (its shape and its counts' values: one design alike however its counts
are given, two designs that differ in them apart) and atom, so that the term follows an
atom's noise as far as it follows the atom: ``pipe(qsort, nop)`` does not take ``nop``'s),
and,
on a calibrated machine, for every composed term, the machine's own numbers drawn from the
covariance ``calibrate`` records (:mod:`~patternalg.algebra.machine_numbers`: a speed-up
fitted at two threads and used at sixteen is as uncertain as its serial fraction; one draw
per machine, shared by the designs compared on it) and the spread of the calibration
compositions' residuals at the sizes near the point (what the machine's operators still
miss, its measurement noise taken out), every
draw's deviation from the value under its machine numbers scaled by the machine's width
factor (what the calibration compositions' misses say of the width of the rest of the
interval, :mod:`~patternalg.evidence.widths`: they fitted the numbers, so the factor was
scored without their draws; ``calibrate``'s is at least 1). With
``for_measurement=False`` it is the interval of the model's value alone (the coefficients
and the models' own error).

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

import functools
import math
import numbers
import zlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

import numpy as np
import sympy

from .._internal.surface import either, flag
from ..arguments import as_bindings, as_models, as_seed, as_term, wrong
from ..errors import ArgumentError
from ..syntax.arith import number_text
from ..syntax.symbols import symbol
from ..syntax.terms import Atom, Term
from .arrays import Compiled, compile_term
from .atomic_model import AtomicModel
from .bindings import as_value, check_bindings
from .machine import MachineSemantics
from .machine_numbers import DrawnMachineSemantics, MachineNumbers
from .machine_spread import (
    MissedParts,
    calibration_growth,
    calibration_missed,
    calibration_parts,
    calibration_width,
    spread_at,
)
from .numpy_code import numpy_function
from .own_error import own_error
from .pointwise import map_counts
from .semantics import Semantics
from .term_symbols import term_symbols
from .units import atom_names

__all__ = [
    "Spread", "DRAWS", "check_level", "no_uncertainty_note", "z_of", "winner_shares", "decided",
]

#: the sources of an interval that are not an atom's fit, in the order it lists them
OTHER_SOURCES = ("noise", "numbers", "missed")

#: draws of a Monte Carlo interval (the quantiles of 1,000 draws are within about 1 % of
#: their limit for a 90 % interval)
DRAWS = 1000


def check_level(level: Any, name: str = "interval") -> float:
    """A confidence level (the argument ``name``): a real number of any type (Python's,
    numpy's, a ``Fraction``) above 0 and at most :data:`MAX_LEVEL` (``--interval 0.9``):
    beyond, fewer than 5 of the :data:`DRAWS` draws would lie beyond each end, and the
    interval would be the draws' range, not the level's (0.999999 came out about twice the
    90 % interval's width, a normal's being three times, and 0.9999999 printed as 100 %).

    >>> check_level(np.float32(0.5)), check_level(0.99)
    (0.5, 0.99)
    >>> check_level(0.999)
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: interval 0.999: a confidence level is above 0 and at most 0.99 (an interval is drawn from 1000 draws: a higher level leaves fewer than 5 beyond each end), e.g. 0.9
    >>> check_level(10**400, "level")
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: level 1.00e+400: a confidence level is above 0 and at most 0.99 (an interval is drawn from 1000 draws: a higher level leaves fewer than 5 beyond each end), e.g. 0.9
    >>> check_level(math.inf, "--interval")
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: --interval inf: not finite; a confidence level is above 0 and at most 0.99 (an interval is drawn from 1000 draws: a higher level leaves fewer than 5 beyond each end), e.g. 0.9
    """
    valid = (
        f"a confidence level is above 0 and at most {MAX_LEVEL} (an interval is drawn from "
        f"{DRAWS} draws: a higher level leaves fewer than 5 beyond each end), e.g. 0.9"
    )
    if isinstance(level, bool) or not isinstance(level, numbers.Real):
        raise wrong(name, valid.replace(" is ", " ", 1), level)
    try:
        value = float(level)
    except OverflowError:  # an int (a Fraction) beyond a double: 10**400
        shown = "beyond a double"
        if isinstance(level, numbers.Rational):
            shown = f"{Decimal(int(level.numerator)) / Decimal(int(level.denominator)):.3g}"
        raise ArgumentError(f"{name} {shown}: {valid}") from None
    if 0 < value <= MAX_LEVEL:
        return value
    problem = "not a number; " if math.isnan(value) else "not finite; " if math.isinf(value) else ""
    raise ArgumentError(f"{name} {number_text(value)}: {problem}{valid}")


#: the highest level an interval of :data:`DRAWS` draws stands for (5 draws beyond each end)
MAX_LEVEL = 1 - 10 / DRAWS


def z_of(level: float) -> float:
    """The normal quantile of a central ``level`` interval (1.645 for 0.9)."""
    from statistics import NormalDist

    return NormalDist().inv_cdf((1 + level) / 2)


def no_uncertainty_note(names: Sequence[str], library: Mapping[str, AtomicModel]) -> str:
    """The note for atoms whose models carry no uncertainty (they count as exact), with why
    as far as their models tell: one that records a fit was fitted without one (``fit
    --uncertainty none``, ``auto`` for very many kernels, or one value per point: a model
    file records none of them), any other was given.

    >>> from patternalg.syntax.symbols import x
    >>> lib = {"k": AtomicModel("k", x, fit=(("points", 11),)), "nop": AtomicModel("nop", x)}
    >>> no_uncertainty_note(["k", "nop"], lib)
    'no uncertainty recorded for k (fitted without one, as by a fit with uncertainty=none or from one value per point) and for nop (a model given, not fitted): counted as exact in the interval'
    """
    fitted = [name for name in names if name in library and library[name].fit]
    given = [name for name in names if name not in fitted]
    parts = [
        f"{', '.join(group)} ({why})"
        for group, why in (
            (fitted, f"fitted without one, as by {either('fit ', 'a fit with ')}{flag('uncertainty', 'none')} or from one value per point"),
            (given, "a model given, not fitted"),
        )
        if group
    ]
    return f"no uncertainty recorded for {' and for '.join(parts)}: counted as exact in the interval"


@dataclass(frozen=True)
class Spread:
    """A term compiled with its atoms' perturbations as symbols, ready to be drawn."""

    compiled: Compiled
    #: the symbols of each drawn atom's deltas and its uncertainty
    deltas: tuple[tuple[tuple[str, ...], Any], ...]
    missing: tuple[str, ...]  #: atoms without an uncertainty
    #: the term's shape, its text with every count as ``k``: a measurement's noise is drawn
    #: by it and by the counts' values at the point (:attr:`counts`), so that one design
    #: has one interval wherever its counts are given (``tpool_a(qsort)`` at a = 2 in
    #: ``optimize``, a sweep over n of ``tpool_n(qsort)``, ``eval "tpool_2(qsort)"``), and
    #: designs that differ in their counts are measurements of their own
    term: str = ""
    #: the symbols of the atoms' own errors (each drawn as a standard normal, by its name)
    errors: tuple[str, ...] = ()
    #: the symbols of the atoms' measurement noise (each a standard normal, drawn by the
    #: term and the atom: a measurement of this term; none for the model's value alone)
    noises: tuple[str, ...] = ()
    #: a calibrated machine's missed spread by size: pairs (x, relative spread), beside the noise
    missed: tuple[tuple[float, float], ...] = ()
    #: how fast that missed spread grows per doubling of x beyond the calibrated sizes
    growth: float = 0.0
    #: a calibrated machine's width factor, the sizes it was seen at (low, high) and the
    #: factor beyond them: the draws' deviations from the model's value are scaled by the
    #: first there, by the last (at least 1) beyond (``docs/uncertainty.md``, "Calibrated widths")
    width: tuple[float, float, float, float] = (1.0, 0.0, math.inf, 1.0)
    at: float | None = None  #: the x the term is fixed at (``eval --at x=...``), if a number
    #: whether the draws are of what a measurement would show (never below 0 where the
    #: model's value is positive), else of the model's value alone
    measured: bool = True
    #: a calibrated machine's numbers, drawn from their covariance (one draw per machine:
    #: designs compared on it share them), where the term is composed on such a machine
    numbers: MachineNumbers | None = None
    #: the term's counts, in the order of its shape (:attr:`term`), with the fixed symbols
    #: but x bound: numbers, or expressions in the symbols a grid binds (x, the input's size,
    #: chooses no design: ``mapReduce_{2,3}^{4,x}`` is one design at every x)
    counts: tuple[sympy.Expr, ...] = ()
    #: the machine's missed spread in parts, where its record has them: every composition's
    #: and each of the term's atoms', weighted by the atoms' shares at each point drawn
    parts: MissedParts | None = None

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
        # an unknown atom: the library's own error (did you mean, and what a library given has)
        perturbed = {name: library[name] for name in atom_names(term)}  # not the whole library: built-ins build on use
        semantics = Semantics.of(semantics)
        numbers = None
        if isinstance(semantics, MachineSemantics) and not isinstance(term, Atom):
            numbers = MachineNumbers.of(semantics.machine)
            if numbers is not None:  # the fold reads the drawn numbers where it uses them
                semantics = DrawnMachineSemantics(semantics.machine, numbers)
        deltas: list[tuple[tuple[str, ...], Any]] = []
        spreads: list[float] = []  #: the atoms' relative noise
        missing: list[str] = []
        errors: list[str] = []
        noises: list[str] = []
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
            expr = model.expr + shift
            own = own_error(model.expr, u)
            if own is not None:
                errors.append(f"_error_{name}")
                expr = expr * (1 + symbol(errors[-1]) * own)
            if for_measurement and u.noise > 0:  # a measured median of the atom's work
                noises.append(f"_noise_{name}")
                expr = expr * (1 + symbol(noises[-1]) * sympy.Float(u.noise))
            if for_measurement:  # a measured time is never below 0, where the model is above it
                clipped = sympy.Max(expr, 0, evaluate=False)
                expr = sympy.Piecewise((clipped, model.expr > 0), (expr, True))
            perturbed[name] = replace(model, expr=expr)
            deltas.append((names, u))
            spreads.append(u.noise)
        missed: tuple[tuple[float, float], ...] = ()
        parts = None
        growth = 0.0
        width = (1.0, 0.0, math.inf, 1.0)
        if for_measurement:
            pooled = math.sqrt(sum(v * v for v in spreads) / len(spreads)) if spreads else 0.0
            missed = calibration_missed(term, semantics, pooled)
            parts = calibration_parts(term, semantics, library, fixed) if missed else None
            growth = calibration_growth(term, semantics)
            width = calibration_width(term, semantics)
        # the bindings are checked against the term's own model: a drawn model has the
        # draws' symbols too, and a model constant in its inputs takes any x all the same
        bindable = term_symbols(term, library, semantics).bindable
        if partial:
            fixed = {k: v for k, v in fixed.items() if k in bindable}
        check_bindings(term, bindable, fixed)
        compiled = compile_term(term, perturbed, fixed, partial=True, semantics=semantics)
        size = fixed.get("x")
        at = float(size) if isinstance(size, sympy.Expr) and size.is_number and size.is_real else None
        counts: list[sympy.Expr] = []

        def any_count(count: sympy.Expr) -> sympy.Expr:  # each count kept, in the shape's order
            counts.append(count.xreplace({symbol(k): v for k, v in fixed.items() if k != "x"}))
            return _ANY_COUNT

        shape = str(map_counts(term, any_count))
        return cls(
            compiled, tuple(deltas), tuple(missing), shape, tuple(errors), tuple(noises), missed, growth, width,
            at, for_measurement, numbers, tuple(counts), parts,
        )

    @property
    def drawn(self) -> tuple[str, ...]:
        """The symbols the draws bind: every atom's deltas, own errors and noise (all 0:
        the models' own values)."""
        return (*(s for names, _ in self.deltas for s in names), *self.errors, *self.noises)

    @property
    def exact(self) -> bool:
        """Whether every draw is the model's own value: no atom drawn, no machine's numbers
        or missed spread (given models, or fitted ``--uncertainty none``)."""
        return not self.drawn and not self.missed and self.numbers is None

    @property
    def symbols(self) -> tuple[str, ...]:
        """The symbols a grid binds (the term's own, not the drawn ones)."""
        drawn = set(self.drawn)
        return tuple(s for s in self.compiled.symbols if s not in drawn)

    @property
    def sources(self) -> tuple[str, ...]:
        """What this interval draws, each a source :meth:`draws` can draw alone: ``fit NAME``
        (an atom's coefficients and its own error), ``noise`` (a measurement's, of every
        atom), ``numbers`` (a calibrated machine's) and ``missed`` (what its operators miss)."""
        fits = {f"fit {_atom_of(names[0])}" for names, _ in self.deltas} | {f"fit {_atom_of(n)}" for n in self.errors}
        drawn = {"noise": bool(self.noises), "numbers": self.numbers is not None, "missed": bool(self.missed)}
        return (*sorted(fits), *(k for k in OTHER_SOURCES if drawn[k]))

    def draws(
        self, grid: Mapping[str, Any], count: int = DRAWS, seed: int = 0, only: Collection[str] | None = None
    ) -> np.ndarray:
        """The term's value under ``count`` joint draws at every point of ``grid``: shape
        ``(count, *grid shape)``; deterministic for a ``seed``: an atom's draws depend on
        the seed and its name only, a measurement's noise on the seed, the term's shape and its
        counts' values. ``only``: the :attr:`sources` drawn (the rest at the model's value),
        each drawn as it is among all of them."""
        bound, shape = self._bound(grid, count, seed, only=only)
        extra = (1,) * len(shape)
        values = self.compiled.values(bound)
        if values.shape != (count, *shape):  # no atom is drawn: each draw is the model's value
            values = np.broadcast_to(values.reshape((-1, *shape))[:1], (count, *shape)).copy()
        grid_x = grid.get("x", self.at)  # x bound by the grid, else where the term fixes it
        sizes = None if grid_x is None else np.asarray(grid_x, dtype=float)
        spread = self.missed_at(sizes, shape, grid) if only is None or "missed" in only else np.zeros(shape)
        if np.any(spread > 0):
            missed = _rng(seed, self.term).standard_normal((count, *extra))
            values = values * (1 + spread[None, ...] * missed)
        center = None
        if self.width[0] != 1.0 or self.width[3] > 1.0:  # the deviations scaled by the width factor
            # from the model's value; where the machine's numbers are drawn, from the value
            # under their draws: the calibration compositions fitted them, so the factor was
            # scored without them
            if self.numbers is None or (only is not None and "numbers" not in only):
                base = center = self._center(grid, seed, shape)
            else:
                base = self._numbers_only(grid, count, seed, shape)
            values = values - base  # one new array, then scaled in place (draws are large)
            values *= self.factor_at(sizes, shape)
            values += base
        if self.measured and np.any(values < 0):  # no measured time is negative
            center = self._center(grid, seed, shape) if center is None else center
            np.maximum(values, 0.0, out=values, where=np.broadcast_to(center > 0, values.shape))
        return values

    def _center(self, grid: Mapping[str, Any], seed: int, shape: tuple[int, ...]) -> np.ndarray:
        """The model's own value at the grid's points (every delta and error 0), shape
        ``(1, *shape)``."""
        center = self.compiled.values(self._bound(grid, 1, seed, atoms=False, machine=False)[0])
        return np.broadcast_to(center.reshape((-1, *shape))[:1], (1, *shape))

    def _numbers_only(self, grid: Mapping[str, Any], count: int, seed: int, shape: tuple[int, ...]) -> np.ndarray:
        """The value under the machine's numbers' draws alone (every atom's delta, error and
        noise 0), shape ``(count, *shape)``."""
        values = self.compiled.values(self._bound(grid, count, seed, atoms=False)[0])
        return np.broadcast_to(values.reshape((-1, *shape)), (count, *shape))

    def kept_draws(
        self, grid: Mapping[str, Any], keep: Any, count: int = DRAWS, seed: int = 0
    ) -> dict[int, np.ndarray]:
        """The draws of every sub-term ``keep`` selects (by ``id``), shape ``(count, *grid
        shape)``, from one fold: the same joint draws as :meth:`draws`, without the machine's
        missed spread and width factor (a measurement's noise is in the atoms' values)."""
        bound, shape = self._bound(grid, count, seed)
        return {
            k: np.broadcast_to(v.reshape((-1, *shape)), (count, *shape))
            for k, v in self.compiled.kept(bound, keep).items()
        }

    def _bound(
        self,
        grid: Mapping[str, Any],
        count: int,
        seed: int,
        atoms: bool = True,
        machine: bool = True,
        only: Collection[str] | None = None,
    ) -> tuple[dict[str, np.ndarray], tuple[int, ...]]:
        """The grid and every drawn atom's deltas as arrays a fold broadcasts: the grid's
        shape after the draws' axis (``atoms=False``: every atom's delta, error and noise 0;
        ``machine=False``: the machine's numbers as calibrated; both: the model's value;
        ``only``: the :attr:`sources` drawn, the rest 0). A part not drawn is one row of
        zeros, so that what depends on it alone is folded once, not once per draw."""
        arrays = {k: np.asarray(v, dtype=float) for k, v in grid.items()}
        shape = np.broadcast_shapes(*(a.shape for a in arrays.values())) if arrays else ()
        extra = (1,) * len(shape)
        bound = {k: a[None, ...] for k, a in arrays.items()}
        zero = np.zeros((1, *extra))

        def drawn(source: str) -> bool:
            return only is None or source in only

        for names, u in self.deltas:
            fit = atoms and drawn(f"fit {_atom_of(names[0])}")
            deltas = u.draws(_rng(seed, names[0].rsplit("_", 1)[0]), count) if fit else None
            for i, name in enumerate(names):
                bound[name] = zero if deltas is None else deltas[:, i].reshape((count, *extra))
        for name in self.errors:  # an atom's own error: one draw per atom, by its name
            fit = atoms and drawn(f"fit {_atom_of(name)}")
            bound[name] = _rng(seed, name).standard_normal((count, *extra)) if fit else zero
        for name in self.noises:  # a measurement's: one draw per term, counts and atom
            bound[name] = self._noise(name, arrays, shape, count, seed) if atoms and drawn("noise") else zero
        if self.numbers is not None:  # the machine's: one draw per machine
            moved = self.numbers.deltas(_rng(seed, "_machine"), count) if machine and drawn("numbers") else None
            for i, name in enumerate(self.numbers.symbols):
                bound[name] = zero if moved is None else moved[:, i].reshape((count, *extra))
        return bound, shape

    def _noise(
        self, name: str, grid: Mapping[str, np.ndarray], shape: tuple[int, ...], count: int, seed: int
    ) -> np.ndarray:
        """The standard normals of a measurement's noise ``name`` (one atom's), shape
        ``(count, *shape)``: one draw for each distinct tuple of the counts' values on the
        grid, by the seed, the term's shape, the atom and those values; a count in x alone
        (or a number) is the same at every point, so a grid that moves no other symbol of a
        count draws once (``(count, 1, ...)``: as cheap as one draw)."""
        key, extra = f"{self.term} {name}", (1,) * len(shape)
        keys = [_count_key(c) for c in self.counts]
        varying = [i for i, k in enumerate(keys) if k is None]
        if not varying:
            return _rng(seed, key, [k for k in keys if k is not None]).standard_normal((count, *extra))
        values = _count_values(tuple(self.counts[i] for i in varying), grid, shape, self.at)
        rows, inverse = np.unique(values, axis=0, return_inverse=True)
        bits = np.ascontiguousarray(rows, dtype=np.float64).view(np.uint64).tolist()
        drawn = np.empty((count, len(rows)))
        for i, row in enumerate(bits):
            moved = dict(zip(varying, row, strict=True))
            row_keys = [moved[j] if k is None else k for j, k in enumerate(keys)]
            drawn[:, i] = _rng(seed, key, row_keys).standard_normal(count)
        return drawn[:, inverse.reshape(-1)].reshape((count, *shape))

    def missed_at(self, x: np.ndarray | None, shape: tuple[int, ...] = (), grid: Mapping[str, Any] | None = None) -> np.ndarray:
        """The machine's missed spread at the points' x (array of ``shape``): interpolated in
        log2(x) between the calibrated sizes; outside them the median over the sizes (an
        end's own figure is the least sure: it pools one neighbour, not two) and the drift
        per doubling (:attr:`growth`) times the distance from the nearer end, in quadrature;
        without x bound, the median. Where the record has it in parts (:attr:`parts`) and
        the points are given (``grid``), the term's own at each: its atoms' shares there of
        what each misses.

        >>> s = Spread(None, (), (), missed=((1024.0, 0.1), (2048.0, 0.2), (4096.0, 0.6)))
        >>> sizes = np.array([1024.0, 1448.2, 4096.0, 65536.0, 16.0])
        >>> s.missed_at(sizes, sizes.shape).round(3).tolist()
        [0.1, 0.15, 0.6, 0.2, 0.2]
        >>> replace(s, growth=0.05).missed_at(sizes, sizes.shape).round(3).tolist()  # 4 and 6 doublings out
        [0.1, 0.15, 0.6, 0.283, 0.361]
        """
        if not self.missed:
            return np.zeros(shape)
        if x is None:
            return np.full(shape, float(np.median([p[1] for p in self.missed])))
        where = np.broadcast_to(np.log2(np.clip(x, 1e-300, None)), shape)
        if self.parts is not None and grid is not None:
            found = self.parts.at(grid, where, shape)
        else:
            found = spread_at(self.missed, where)
        ends = np.log2([self.missed[0][0], self.missed[-1][0]])
        out = self.growth * np.maximum(ends[0] - where, where - ends[1])
        outside = (where < ends[0]) | (where > ends[1])
        return np.broadcast_to(np.where(outside, np.sqrt(found * found + out * out), found), shape)

    def factor_at(self, x: np.ndarray | None, shape: tuple[int, ...] = ()) -> np.ndarray:
        """The width factor at the points' x (array of ``shape``): the calibrated one within
        the sizes it was seen at, the one beyond them (at least 1) elsewhere; without x
        bound, the larger of the two, at least 1."""
        factor, low, high, beyond = self.width
        if x is None:
            return np.full(shape, max(factor, beyond, 1.0))
        return np.broadcast_to(np.where((low <= x) & (x <= high), factor, max(beyond, 1.0)), shape)

    def interval(
        self,
        grid: Mapping[str, Any],
        level: float,
        count: int = DRAWS,
        seed: int = 0,
        only: Collection[str] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The central ``level`` interval at every point of ``grid``: (low, high), drawn a
        block of points at a time (:func:`point_blocks`); ``only``: of those
        :attr:`sources` alone (:meth:`draws`)."""
        level = check_level(level, "level")
        quantiles = [(1 - level) / 2, (1 + level) / 2]
        shape, blocks = point_blocks(grid, count)
        found = np.empty((2, math.prod(shape)))
        for where, part in blocks:
            drawn = self.draws(part, count, seed, only).reshape(count, -1)
            with np.errstate(invalid="ignore"):
                ends = np.quantile(drawn, quantiles, axis=0)
            # draws beyond doubles (an own error of 1e300) are infinite: between two of them
            # the linear quantile is inf - inf, so there the nearest draw is the end
            if np.isnan(ends).any():
                lost = np.isnan(ends) & ~np.isnan(drawn).any(axis=0)
                ends = np.where(lost, np.quantile(drawn, quantiles, axis=0, method="nearest"), ends)
            found[:, where] = ends
        return found[0].reshape(shape), found[1].reshape(shape)


#: the most values (draws times points) an interval or a share of wins draws at once: the
#: draws at every point are each one draw's numbers, so a block of points draws the same
#: as the whole grid (a sweep of 100,000 points with its interval took 4.8 GB at once)
BLOCK_VALUES = 5_000_000


def point_blocks(
    grid: Mapping[str, Any], count: int
) -> tuple[tuple[int, ...], list[tuple[slice, Mapping[str, Any]]]]:
    """The grid's shape, and its points in blocks of at most :data:`BLOCK_VALUES` values
    over ``count`` draws: each block's slice of the flattened points and its grid (the
    whole grid as it is, where it fits in one block).

    >>> shape, blocks = point_blocks({"x": np.arange(5.0)}, count=BLOCK_VALUES // 2)
    >>> shape, [(b.start, g["x"].tolist()) for b, g in blocks]
    ((5,), [(0, [0.0, 1.0]), (2, [2.0, 3.0]), (4, [4.0])])
    """
    arrays = {k: np.asarray(v, dtype=float) for k, v in grid.items()}
    shape = np.broadcast_shapes(*(a.shape for a in arrays.values())) if arrays else ()
    size, step = math.prod(shape), max(1, BLOCK_VALUES // max(count, 1))
    if size <= step:
        return shape, [(slice(0, size), grid)]
    flat = {k: np.broadcast_to(a, shape).reshape(-1) for k, a in arrays.items()}
    return shape, [
        (slice(i, i + step), {k: v[i : i + step] for k, v in flat.items()}) for i in range(0, size, step)
    ]


def winner_shares(
    spreads: list[Spread],
    grid: Mapping[str, Any],
    seed: int = 0,
    count: int = DRAWS,
    only: Collection[str] | None = None,
) -> np.ndarray:
    """How often each design is the fastest over ``count`` joint draws, at every point of
    ``grid``: shape ``(designs, *grid shape)`` (a design without a finite value never wins),
    drawn a block of points at a time (:func:`point_blocks`); ``only``: those sources alone
    (:meth:`Spread.draws`; a design without one is at its model's value)."""
    shape, blocks = point_blocks(grid, count * len(spreads))
    shares = np.empty((len(spreads), math.prod(shape)))
    for where, part in blocks:
        values = np.stack([s.draws(part, count, seed, only).reshape(count, -1) for s in spreads])
        values = np.where(np.isfinite(values), values, np.inf)
        best = np.argmin(values, axis=0)
        for k in range(len(spreads)):
            shares[k, where] = (best == k).mean(axis=0)
    return shares.reshape((len(spreads), *shape))


def decided(shares: np.ndarray, level: float) -> np.ndarray:
    """At every point the design that wins in at least ``level`` of the draws, else -1
    (undecided: the measurements cannot tell which is faster)."""
    best = np.argmax(shares, axis=0)
    return np.where(np.max(shares, axis=0) >= level, best, -1)


#: the count every count of a term's shape is written as (:attr:`Spread.term`)
_ANY_COUNT = symbol("k")


def _atom_of(name: str) -> str:
    """The atom a drawn symbol belongs to: ``_delta_qsort_0``, ``_error_qsort``: qsort."""
    kind, _, rest = name[1:].partition("_")
    return rest.rsplit("_", 1)[0] if kind == "delta" else rest


def _rng(seed: int, name: str, keys: Sequence[int] = ()) -> np.random.Generator:
    """The generator of one atom's (or one term's) draws: by the seed (a whole number
    >= 0), the name and, for a measurement's noise, the keys of the term's counts
    (:func:`_count_key`)."""
    return np.random.default_rng([as_seed(seed), zlib.crc32(name.encode()), *keys])


def _count_key(count: sympy.Expr) -> int | None:
    """A count's key where it is the same at every point of any grid (a number: its
    double's bits, as a grid's values are keyed; one beyond a double, or an expression in
    x alone: a checksum of its text), None where a grid's other symbols move it.

    >>> from patternalg.syntax.symbols import symbol
    >>> _count_key(sympy.Integer(2)) == int(np.float64(2.0).view(np.uint64)), _count_key(symbol("n"))
    (True, None)
    >>> _count_key(sympy.Integer(2) ** 1100) == _count_key(sympy.Integer(2) ** 1100) != None
    True
    """
    if count.free_symbols - {symbol("x")}:
        return None
    if count.is_number:
        try:
            return int(np.float64(float(count)).view(np.uint64))
        except (OverflowError, TypeError):
            pass
    return zlib.crc32(str(count).encode())


def _count_values(
    counts: tuple[sympy.Expr, ...], grid: Mapping[str, np.ndarray], shape: tuple[int, ...], at: float | None
) -> np.ndarray:
    """The counts' values at every point of a grid of ``shape`` (x from the grid, else
    ``at``): shape (points, counts)."""
    names, function = _count_function(counts)
    columns = function(*(np.asarray(grid.get(n, at if n == "x" else None), dtype=float) for n in names))
    return np.stack([np.broadcast_to(np.asarray(c, dtype=float), shape).reshape(-1) for c in columns], axis=1)


@functools.lru_cache(maxsize=256)
def _count_function(counts: tuple[sympy.Expr, ...]) -> tuple[tuple[str, ...], Any]:
    """The names of the counts' symbols and a numpy function of them giving every count
    (lambdified once per term's counts)."""
    symbols = sorted(set().union(*(c.free_symbols for c in counts)), key=lambda s: s.name)
    return tuple(s.name for s in symbols), numpy_function(symbols, list(counts))
