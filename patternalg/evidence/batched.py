"""The calibration compositions under many trial machines at once, and the least squares
that fits them.

A machine's numbers (the hand-off ``h0 + h1*x``, the dispatch cost ``d0``, each pooled
atom's speed-up ``p/(1 + c*(p - 1))``) enter a fold only where a value needs them, and a
fold may move them by arrays its context binds
(:class:`~patternalg.algebra.machine_numbers.DrawnMachineSemantics`, which draws a
calibrated machine's numbers for an interval). Here each number is a column of trial
values, so one fold per composition
evaluates every trial machine: a fit's finite differences (:func:`fit`), and the fits of
``calibrate``'s held-out sizes (:mod:`patternalg.evidence.choosing`) side by side
(:func:`fit_each`), a fold per composition and step, not per machine.

>>> from patternalg.library.model_library import ModelLibrary
>>> from patternalg.syntax.parser import parse
>>> from patternalg.algebra.arrays import compile_term
>>> sizes, term, models = np.array([16.0, 256.0]), parse("pipe(inc, inc)"), ModelLibrary.builtin()
>>> batch = Batch([(term, sizes, np.ones(2))], models, cores=2, unit="ns", names=("h0", "h1"), pooled=())
>>> (batch.errors(np.array([[0.0, 0.0], [100.0, 1.0]])) + 1).tolist()
[[8578.96, 137263.36], [8694.96, 137619.36]]
>>> compile_term(term, models, {}, semantics=Machine(2, handoff=100 + x).semantics).values({"x": sizes}).tolist()
[8694.96, 137619.36]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..algebra.arrays import Arrays
from ..algebra.atomic_model import AtomicModel
from ..algebra.fold import Plan, fold
from ..algebra.machine import Machine
from ..algebra.machine_number_kinds import atom_of, kind_of
from ..algebra.machine_numbers import DrawnMachineSemantics, MachineNumbers
from ..errors import MeasurementError
from ..syntax.symbols import symbol, x
from ..syntax.terms import Term

__all__ = ["Batch", "fit", "fit_each"]

#: the relative step of the forward differences (scipy's '2-point': the square root of eps)
STEP = float(np.sqrt(np.finfo(float).eps))


class Batch:
    """The relative errors (predicted - measured) / measured of ``compositions`` (term,
    sizes, measured medians) composed from ``library`` on machines of ``cores`` whose
    numbers are ``names`` (``h0``, ``h1``, optionally ``d0``, then ``c_<atom>`` for each of
    ``pooled``), for many machines at once."""

    def __init__(self, compositions: Sequence[tuple[Term, np.ndarray, np.ndarray]],
                 library: Mapping[str, AtomicModel], *, cores: int, unit: str,
                 names: Sequence[str], pooled: Sequence[str]) -> None:  # fmt: skip
        self.compositions, self.library, self.names = list(compositions), library, tuple(names)
        self.unit = unit
        if any(atom_of(n) not in (None, *pooled) for n in self.names):
            raise ValueError(f"a serial fraction of an atom not pooled: {self.names}")
        # a machine of no costs and no speed-ups, its numbers moved by the columns as an
        # interval's draws move a calibrated machine's (algebra/machine_numbers.py)
        zero = (0.0,) * len(self.names)
        numbers = MachineNumbers(self.names, zero, (zero,) * len(self.names))
        self.semantics = DrawnMachineSemantics(Machine(cores, unit=unit), numbers)
        self.symbols = tuple(symbol(s) for s in numbers.symbols)
        self.plans = [Plan.of(term, library, None, self.semantics) for term, _, _ in self.compositions]
        self.points = sum(len(sizes) for _, sizes, _ in self.compositions)

    def errors(self, thetas: np.ndarray) -> np.ndarray:
        """Per machine (a row of ``thetas``, its numbers in :attr:`names`' order), the
        errors of every composition at its sizes, one after the other."""
        thetas = np.atleast_2d(np.asarray(thetas, dtype=float))
        columns = {s: thetas[:, [i]] for i, s in enumerate(self.symbols)}
        found = []
        with np.errstate(all="ignore"):
            for (term, sizes, medians), plan in zip(self.compositions, self.plans, strict=True):
                context = {x: sizes, **columns}
                value = fold(term, self.library, Arrays(), context, plan=plan, semantics=self.semantics).value
                found.append(np.broadcast_to(value, (len(thetas), len(sizes))) / medians - 1)
        return np.concatenate(found, axis=1)


def _bounds(names: Sequence[str], unit: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each number's upper bound (none is below 0), its typical scale in ``unit``
    (:mod:`~patternalg.algebra.machine_number_kinds`) and the least step of its finite
    differences is relative to (1 ns, or 1), so that a fit in seconds takes the steps it
    takes in ns."""
    kinds = [kind_of(name) for name in names]
    return (np.array([k.upper for k in kinds]), np.array([k.in_unit(k.scale, unit) for k in kinds]),
            np.array([k.in_unit(1.0, unit) for k in kinds]))  # fmt: skip


def _jacobian(batch: Batch, thetas: np.ndarray, upper: np.ndarray, one: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The errors at each row of ``thetas`` and their forward differences (machines, points,
    numbers), a step in each number (backwards at its upper bound), from one batch."""
    blocks, n = thetas.shape
    steps = STEP * np.maximum(one, np.abs(thetas))
    steps = np.where(thetas + steps > upper, -steps, steps)
    trials = np.repeat(thetas[None], n + 1, axis=0)  # the point, then a step in each number
    for i in range(n):
        trials[i + 1, :, i] += steps[:, i]
    errors = batch.errors(trials.reshape(-1, n)).reshape(n + 1, blocks, -1)
    return errors[0], np.moveaxis((errors[1:] - errors[0]) / steps.T[:, :, None], 0, 2)


def fit(batch: Batch, start: np.ndarray) -> tuple[np.ndarray, Any]:
    """The machine's numbers by bounded (nonnegative; a serial fraction at most 1) least
    squares over the relative errors of every point, from ``start``; and scipy's result
    (its ``jac`` and ``cost`` give the numbers' standard errors)."""
    from scipy.optimize import least_squares

    upper, scale, one = _bounds(batch.names, batch.unit)
    try:
        with np.errstate(all="ignore"):
            found = least_squares(lambda theta: batch.errors(theta[None])[0], start,
                                  jac=lambda theta: _jacobian(batch, theta[None], upper, one)[1][0],
                                  bounds=(np.zeros(len(start)), upper), x_scale=scale,
                                  ftol=1e-12, xtol=1e-12, gtol=1e-12)  # fmt: skip
    except ValueError:  # a step of the search left double precision (sizes near 1e308)
        largest = max(sizes.max() for _, sizes, _ in batch.compositions)
        raise MeasurementError(
            f"the machine's numbers at sizes up to {largest:.3g} leave double precision while "
            "they are fitted: calibrate on the sizes the program runs at"
        ) from None
    return found.x, found


def fit_each(batch: Batch, starts: np.ndarray, masks: np.ndarray, *, steps: int = 100) -> np.ndarray:
    """One machine per row of ``starts`` (its first guess, near its optimum: the fit to
    every point), each fitted to the points its row of ``masks`` keeps, all side by side:
    Levenberg-Marquardt steps (Marquardt's scaling by the diagonal), each machine's
    numbers kept within their bounds (a number at its bound that the gradient pushes out
    stays there), a batch per step for every machine at once. Not scipy's ``least_squares``
    on the machines as one problem: its trust region takes the singular values of their
    whole (block-diagonal) Jacobian at each step, which costs more than the folds."""
    upper, _, one = _bounds(batch.names, batch.unit)
    thetas = starts.astype(float).copy()
    blocks, n = thetas.shape
    damping, done = np.full(blocks, 1e-3), np.zeros(blocks, dtype=bool)
    with np.errstate(all="ignore"):
        for _ in range(steps):
            errors, jac = _jacobian(batch, thetas, upper, one)
            errors, jac = errors * masks, jac * masks[:, :, None]
            cost = np.sum(errors**2, axis=1)
            gradient = np.einsum("bmn,bm->bn", jac, errors)
            normal = np.einsum("bmn,bmk->bnk", jac, jac)
            held = ((thetas <= 0) & (gradient > 0)) | ((thetas >= upper) & (gradient < 0))
            diagonal = np.maximum(np.diagonal(normal, axis1=1, axis2=2), 1e-300)
            system = normal + damping[:, None, None] * diagonal[:, :, None] * np.eye(n)
            system = np.where(held[:, :, None] | held[:, None, :], 0.0, system)
            system[:, np.arange(n), np.arange(n)] += held  # a held number: a step of 0
            step = np.linalg.solve(system, -np.where(held, 0.0, gradient)[:, :, None])[:, :, 0]
            trial = np.clip(thetas + step, 0.0, upper)
            trial_cost = np.sum((batch.errors(trial) * masks) ** 2, axis=1)
            better = (trial_cost < cost) & ~done
            thetas[better] = trial[better]
            gain = (cost - trial_cost) / np.maximum(cost, 1e-300)
            damping = np.where(better, damping / 10, damping * 10)
            done |= (better & (gain < 1e-10)) | (damping > 1e10)  # no more to gain
            if done.all():
                break
    return thetas
