"""The calibration compositions under many trial machines at once, and the least squares
that fits them.

A machine's numbers (the hand-off ``h0 + h1*x``, the dispatch cost ``d0``, each pooled
atom's speed-up ``p/(1 + c*(p - 1))``) enter a fold only where a value needs them
(:class:`~patternalg.algebra.machine.MachineSemantics`: ``handoff_at``, ``dispatch_at``,
``gain``). Here each number is a column of trial values, so one fold per composition
evaluates every trial machine: a fit's finite differences, and the fits of ``calibrate``'s
held-out sizes (:mod:`patternalg.evidence.choosing`) run side by side as one least squares,
a fold per composition and step, not per machine.

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
import sympy

from ..algebra.arrays import Arrays
from ..algebra.atomic_model import AtomicModel
from ..algebra.fold import Plan, fold
from ..algebra.machine import Machine, MachineSemantics
from ..errors import MeasurementError
from ..syntax.symbols import p, x
from ..syntax.terms import Term

__all__ = ["Batch", "fit_blocks"]

#: the relative step of the forward differences (scipy's '2-point': the square root of eps)
STEP = float(np.sqrt(np.finfo(float).eps))


class _Many(MachineSemantics):
    """The machine semantics of many machines of one shape at once: each number a column
    (an array of shape ``(machines, 1)``), so that every value is a row per machine."""

    def __init__(self, shape: Machine, numbers: Mapping[str, np.ndarray], atoms: Mapping[sympy.Expr, str]) -> None:
        super().__init__(shape)
        self.numbers, self.atoms = numbers, atoms

    def handoff_at(self, arithmetic: Any, context: Mapping[sympy.Symbol, Any]) -> Any:
        return self.numbers["h0"] + self.numbers["h1"] * context[x]

    def dispatch_at(self, arithmetic: Any, context: Mapping[sympy.Symbol, Any]) -> Any:
        return self.numbers["d0"]

    def gain(self, arithmetic: Any, speedup: sympy.Expr, running: Any) -> Any:
        c = self.numbers[f"c_{self.atoms[speedup]}"]
        return running / (1 + c * (running - 1))


class Batch:
    """The relative errors (predicted - measured) / measured of ``compositions`` (term,
    sizes, measured medians) composed from ``library`` on machines of ``cores`` whose
    numbers are ``names`` (``h0``, ``h1``, optionally ``d0``, then ``c_<atom>`` for each of
    ``pooled``), for many machines at once."""

    def __init__(self, compositions: Sequence[tuple[Term, np.ndarray, np.ndarray]],
                 library: Mapping[str, AtomicModel], *, cores: int, unit: str,
                 names: Sequence[str], pooled: Sequence[str]) -> None:  # fmt: skip
        self.compositions, self.library, self.names = list(compositions), library, tuple(names)
        # the shape of the machines: which costs they have (their values come from the
        # columns); each pooled atom's speed-up an expression of its own, to know it by
        speedups = {a: p / (1 + sympy.Rational(1, i + 2) * (p - 1)) for i, a in enumerate(pooled)}
        self.shape = Machine(cores, handoff=1 + x, dispatch=1 if "d0" in self.names else 0,
                             speedups=speedups, unit=unit)  # fmt: skip
        self.atoms = {s: a for a, s in self.shape.speedup.items()}
        template = _Many(self.shape, {}, self.atoms)
        self.plans = [Plan.of(term, library, None, template) for term, _, _ in self.compositions]
        self.points = sum(len(sizes) for _, sizes, _ in self.compositions)

    def errors(self, thetas: np.ndarray) -> np.ndarray:
        """Per machine (a row of ``thetas``, its numbers in :attr:`names`' order), the
        errors of every composition at its sizes, one after the other."""
        thetas = np.atleast_2d(np.asarray(thetas, dtype=float))
        columns = {name: thetas[:, [i]] for i, name in enumerate(self.names)}
        semantics = _Many(self.shape, columns, self.atoms)
        found = []
        with np.errstate(all="ignore"):
            for (term, sizes, medians), plan in zip(self.compositions, self.plans, strict=True):
                value = fold(term, self.library, Arrays(), {x: sizes}, plan=plan, semantics=semantics).value
                found.append(np.broadcast_to(value, (len(thetas), len(sizes))) / medians - 1)
        return np.concatenate(found, axis=1)


def fit_blocks(batch: Batch, starts: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, Any]:
    """Fit one machine per row of ``starts`` (its first guess), each to the points its row
    of ``masks`` keeps (True: fitted), by bounded (nonnegative; a serial fraction at most 1)
    least squares over the relative errors; the fits are independent and run as one. The
    numbers (a row per fit) and scipy's result (its ``jac`` and ``cost``)."""
    from scipy.optimize import least_squares

    blocks, n = starts.shape
    kind = [name[0] for name in batch.names]  # h, d: per element; c: a serial fraction
    upper = np.tile([1.0 if k == "c" else np.inf for k in kind], blocks)
    scale = np.tile([0.1 if k == "c" else 1.0 if name.endswith("1") else 100.0
                     for k, name in zip(kind, batch.names, strict=True)], blocks)  # fmt: skip
    weights = masks.astype(float)

    def residuals(flat: np.ndarray) -> np.ndarray:
        return (batch.errors(flat.reshape(blocks, n)) * weights).ravel()

    def jacobian(flat: np.ndarray) -> np.ndarray:
        thetas = flat.reshape(blocks, n)
        steps = STEP * np.maximum(1.0, np.abs(thetas))
        steps = np.where(thetas + steps > upper.reshape(blocks, n), -steps, steps)  # stay within
        trials = np.repeat(thetas[None], n + 1, axis=0)  # the point, then a step in each number
        for i in range(n):
            trials[i + 1, :, i] += steps[:, i]
        errors = batch.errors(trials.reshape(-1, n)).reshape(n + 1, blocks, -1) * weights
        jac = np.zeros((blocks, errors.shape[2], blocks, n))
        for b in range(blocks):
            jac[b, :, b, :] = ((errors[1:, b] - errors[0, b]) / steps[b][:, None]).T
        return jac.reshape(blocks * errors.shape[2], blocks * n)

    try:
        with np.errstate(all="ignore"):
            found = least_squares(residuals, starts.ravel(), jac=jacobian, bounds=(np.zeros(blocks * n), upper),
                                  x_scale=scale, ftol=1e-12, xtol=1e-12, gtol=1e-12)  # fmt: skip
    except ValueError:  # a step of the search left double precision (sizes near 1e308)
        largest = max(sizes.max() for _, sizes, _ in batch.compositions)
        raise MeasurementError(
            f"the machine's numbers at sizes up to {largest:.3g} leave double precision while "
            "they are fitted: calibrate on the sizes the program runs at"
        ) from None
    return found.x.reshape(blocks, n), found
