"""A calibrated machine's own numbers, drawn with an interval.

``calibrate`` fits the hand-off ``h0 + h1*x``, the dispatch cost ``d0``, the turn ``t0``, the
wake ``w0`` and each pooled atom's serial fraction ``c`` (``S(p) = p/(1 + c*(p - 1))``) by least squares, and records
their covariance (``[machine.calibration.covariance]``: ``names``, ``matrix``, ``unit``). A
prediction that uses them beyond what the calibration compositions pinned down leans on that
uncertainty: a speed-up fitted to ``tpool_2(qsort)`` alone and used at 16 threads moves
``S(16)`` by 12 % for one standard error of a serial fraction 0.047 +- 0.014 (``S(2)`` by
1.3 %). An interval under such a machine
therefore draws the numbers too (:class:`MachineNumbers`, jointly from their covariance,
each kept within its bounds: no cost below 0, a serial fraction from 0 to 1; a speed-up
``calibrate`` fitted and did not keep is drawn from 0 upward with its fit's variance: a
pool of more threads than the calibration's is as unsure of it), and folds the
term under :class:`DrawnMachineSemantics`, which adds each draw's deviation where the machine
semantics reads the number. A machine without the record (written by hand, or by an older
``calibrate``) draws nothing, and a number the file's machine no longer has as calibrated
(its hand-off or a speed-up edited) is not drawn.

>>> from patternalg.syntax.symbols import x
>>> record = {"numbers": {"h0": 100.0, "h1": 0.5}, "covariance": {
...     "unit": "ns", "names": ["h0", "h1"], "matrix": [[400.0, 0.0], [0.0, 0.01]]}}
>>> machine = Machine(2, handoff=100 + sympy.Float(0.5) * x, calibration=tuple(record.items()))
>>> numbers = MachineNumbers.of(machine)
>>> numbers.names, numbers.symbols
(('h0', 'h1'), ('_machine_h0', '_machine_h1'))
>>> deltas = numbers.deltas(np.random.default_rng(1), 20000)
>>> (deltas.std(axis=0) / [20.0, 0.1]).round(1).tolist()  # each as sure as its variance says
[1.0, 1.0]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy

from ..syntax.symbols import p, symbol, x
from .machine import Machine, MachineSemantics
from .machine_number_kinds import atom_of, fraction_name, is_number_name, kind_of, names_text
from .uncertainty import draw_factor

__all__ = ["DrawnMachineSemantics", "MachineNumbers", "covariance_problem"]

#: the prefix of a drawn number's symbol (``_machine_h0``)
PREFIX = "_machine_"


@dataclass(frozen=True)
class MachineNumbers:
    """The calibrated numbers of a machine an interval draws: their ``names`` (``h0``,
    ``h1``, ``d0``, ``t0``, ``w0``, ``c_<atom>``), fitted ``values`` and ``covariance``, the costs in the
    machine's own unit."""

    names: tuple[str, ...]
    values: tuple[float, ...]
    covariance: tuple[tuple[float, ...], ...]

    @property
    def symbols(self) -> tuple[str, ...]:
        """The symbols the draws bind, one per number."""
        return tuple(PREFIX + name for name in self.names)

    @classmethod
    def of(cls, machine: Machine) -> MachineNumbers | None:
        """The numbers of ``machine``'s calibration record that it still has as calibrated,
        with their covariance; None where there are none (no record, or a malformed one: a
        machine file's record widens nothing it cannot read)."""
        record = dict(machine.calibration)
        numbers, drawn = record.get("numbers"), record.get("covariance")
        if not isinstance(numbers, Mapping) or not isinstance(drawn, Mapping):
            return None
        if covariance_problem(drawn) is not None:
            return None
        names, matrix, unit = drawn["names"], drawn["matrix"], drawn["unit"]
        scale = _scale(unit, machine.unit)
        if scale is None:
            return None
        values: dict[str, Any] = {n: numbers.get(n) for n in (*names, "h0", "h1")}
        for n in names:  # a speed-up fitted and not kept: drawn from c = 0 (S(p) = p) upward
            if (atom := atom_of(n)) is not None and values[n] is None and atom not in machine.speedup:
                values[n] = 0.0
        kept = [i for i, n in enumerate(names) if _number(values[n]) and _calibrated(machine, n, values, scale)]
        if not kept:
            return None
        scales = [scale if kind_of(names[i]).cost else 1.0 for i in kept]
        return cls(
            tuple(names[i] for i in kept),
            tuple(float(values[names[i]]) * s for i, s in zip(kept, scales, strict=True)),
            tuple(tuple(float(matrix[i][j]) * si * sj for j, sj in zip(kept, scales, strict=True))
                  for i, si in zip(kept, scales, strict=True)),
        )  # fmt: skip

    def deltas(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """``count`` joint draws of the numbers' deviations from their values, shape (count,
        numbers): each drawn number kept within its bounds (a cost at least 0, a serial
        fraction from 0 to 1), so a number fitted at its bound deviates one way only."""
        factor = draw_factor(np.array(self.covariance, dtype=float))  # the same in any unit
        values = np.array(self.values)
        upper = np.array([kind_of(n).upper for n in self.names])
        drawn = values + rng.standard_normal((count, len(self.names))) @ factor.T
        return np.clip(drawn, 0.0, upper) - values  # type: ignore[no-any-return]


class DrawnMachineSemantics(MachineSemantics):
    """The machine semantics with the calibrated numbers moved by the draws a fold's
    context binds (``_machine_<name>``, :class:`MachineNumbers`); without them (a fold of
    the model's own value, or a symbolic one) it is the machine's."""

    def __init__(self, machine: Machine, numbers: MachineNumbers) -> None:
        super().__init__(machine)
        self.numbers = numbers
        self._at = {name: (symbol(s), v) for name, s, v in zip(numbers.names, numbers.symbols, numbers.values, strict=True)}
        #: the last drawn hand-off: (ids of what it was computed from, the value, those kept alive)
        self._handoff: tuple[tuple[int, ...], Any, tuple[Any, ...]] | None = None

    def __eq__(self, other: object) -> bool:
        return type(other) is DrawnMachineSemantics and (other.machine, other.numbers) == (self.machine, self.numbers)

    def __hash__(self) -> int:
        return hash(("drawn machine", self.machine, self.numbers))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return DrawnMachineSemantics, (self.machine, self.numbers)

    def reads(self) -> frozenset[str]:
        """The machine's symbols, and x where a drawn hand-off has a slope."""
        return super().reads() | (frozenset({"x"}) if "h1" in self._at else frozenset())

    def pays_handoff(self) -> bool:
        """A hand-off fitted at 0 is drawn upward from it: a stage pays what is drawn."""
        return super().pays_handoff() or "h0" in self._at or "h1" in self._at

    def pays_dispatch(self) -> bool:
        """A dispatch cost fitted at 0 is drawn upward from it: a pool pays what is drawn."""
        return super().pays_dispatch() or "d0" in self._at

    def pays_turn(self) -> bool:
        """A turn fitted at 0 is drawn upward from it: a pool takes at least what is drawn."""
        return super().pays_turn() or "t0" in self._at

    def pays_wake(self) -> bool:
        """A wake fitted at 0 is drawn upward from it: a stage pays what is drawn."""
        return super().pays_wake() or "w0" in self._at

    def speeds_up(self) -> bool:
        """A serial fraction drawn gives its atom a speed-up wherever it is drawn."""
        return super().speeds_up() or any(atom_of(name) is not None for name in self._at)

    def _delta(self, name: str, context: Mapping[sympy.Symbol, Any]) -> Any:
        """The draws' deviation of number ``name`` in ``context`` (None: not drawn there)."""
        found = self._at.get(name)
        return None if found is None else context.get(found[0])

    def handoff_at(self, arithmetic: Any, context: Mapping[sympy.Symbol, Any]) -> Any:
        """The hand-off moved by the draws; the last one computed kept for the same
        arithmetic, x and draws (every atom of a region asks it: a 10,000-deep ``seq``
        drawn over 64 points computed 40,000 arrays of 64,000 numbers)."""
        deltas = (self._delta("h0", context), self._delta("h1", context))
        if all(delta is None for delta in deltas):
            return super().handoff_at(arithmetic, context)
        used = (arithmetic, context.get(x), *deltas)  # kept alive with the value: their ids stay theirs
        key = tuple(map(id, used))
        last = self._handoff
        if last is not None and last[0] == key:
            return last[1]
        value = super().handoff_at(arithmetic, context)
        for delta, scale in zip(deltas, (None, x), strict=True):
            if delta is not None:
                moved = delta if scale is None else arithmetic.multiply(delta, arithmetic.leaf(scale, context))
                value = arithmetic.add(value, moved)
        self._handoff = (key, value, used)
        return value

    def dispatch_at(self, arithmetic: Any, context: Mapping[sympy.Symbol, Any]) -> Any:
        return self._moved(arithmetic, super().dispatch_at(arithmetic, context), "d0", context)

    def turn_at(self, arithmetic: Any, context: Mapping[sympy.Symbol, Any]) -> Any:
        return self._moved(arithmetic, super().turn_at(arithmetic, context), "t0", context)

    def wake_at(self, arithmetic: Any, context: Mapping[sympy.Symbol, Any]) -> Any:
        return self._moved(arithmetic, super().wake_at(arithmetic, context), "w0", context)

    def _moved(self, arithmetic: Any, value: Any, name: str, context: Mapping[sympy.Symbol, Any]) -> Any:
        """A constant number's ``value`` moved by the draws of ``name`` where they move it."""
        delta = self._delta(name, context)
        return value if delta is None else arithmetic.add(value, delta)

    def speedup_at(self, arithmetic: Any, atom: str, context: Mapping[sympy.Symbol, Any]) -> Callable[[Any], Any] | None:
        """The atom's speed-up with its serial fraction moved by the draws where they move
        it (``p/(1 + c*(p - 1))``, ``c`` drawn), else the machine's."""
        name = fraction_name(atom)
        delta = self._delta(name, context)
        if delta is None:
            return super().speedup_at(arithmetic, atom, context)
        fraction = arithmetic.add(arithmetic.leaf(sympy.Float(self._at[name][1]), {}), delta)
        one = arithmetic.leaf(sympy.Integer(1), {})
        minus_one = arithmetic.leaf(sympy.Integer(-1), {})

        def speedup(running: Any) -> Any:
            extra = arithmetic.add(running, minus_one)
            return arithmetic.divide(running, arithmetic.add(one, arithmetic.multiply(fraction, extra)))

        return speedup


def covariance_problem(drawn: Any) -> tuple[str, str] | None:
    """What is wrong with a calibration record's ``covariance`` table, as (key, what
    would be valid); None where it is as ``calibrate`` writes it.

    >>> covariance_problem({"unit": "ns", "names": ["h0"], "matrix": [[-1.0]]})
    ('matrix', 'expected a symmetric matrix of finite numbers, one row per name, no variance below 0')
    """
    if not isinstance(drawn, Mapping):
        return "", "expected a table with unit, names and matrix"
    unit, names, matrix = drawn.get("unit"), drawn.get("names"), drawn.get("matrix")
    if not isinstance(unit, str) or _scale(unit, "ns") is None:
        return "unit", "expected a unit of time, e.g. ns"
    if not (isinstance(names, list) and len(set(map(str, names))) == len(names) > 0 and all(
            isinstance(n, str) and is_number_name(n) for n in names)):  # fmt: skip
        return "names", f"expected distinct names of calibrated numbers: {names_text()}"
    if not _square(matrix, len(names)):
        return "matrix", "expected a symmetric matrix of finite numbers, one row per name, no variance below 0"
    return None


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _square(matrix: Any, n: int) -> bool:
    """Whether ``matrix`` is an n-by-n list of lists of finite numbers, symmetric (to the
    record's rounding) with a diagonal at least 0."""
    if not (isinstance(matrix, list) and len(matrix) == n and all(isinstance(r, list) and len(r) == n for r in matrix)):
        return False
    if not all(_number(v) for row in matrix for v in row):
        return False
    a = np.array(matrix, dtype=float)
    return bool(np.all(np.diagonal(a) >= 0) and np.allclose(a, a.T, rtol=1e-3, atol=0.0))


def _scale(unit: str, machine_unit: str) -> float | None:
    """The factor from the record's ``unit`` to the machine's (None: not a time unit)."""
    if unit == machine_unit:
        return 1.0
    from .units import UnitError, factor, is_time

    try:
        return float(factor(unit, machine_unit)) if is_time(unit) else None
    except UnitError:  # a record's unit that is no unit: nothing drawn
        return None


#: the calibrated numbers that are a machine's cost (its attribute) as a constant
_CONSTANTS = {"d0": "dispatch", "t0": "turn", "w0": "wake"}


def _calibrated(machine: Machine, name: str, values: Mapping[str, Any], scale: float) -> bool:
    """Whether ``machine`` still has number ``name`` as the record gives it (a file edited
    after ``calibrate`` keeps the record: a hand-off or speed-up changed is not drawn)."""
    def close(expr: sympy.Expr, var: sympy.Symbol, expected: Any) -> bool:
        return all(
            math.isclose(float(expr.xreplace({var: sympy.Integer(at)})), expected(at), rel_tol=1e-6, abs_tol=1e-12)
            for at in (2, 1024)
        )

    atom = atom_of(name)
    if atom is not None:
        speedup = machine.speedup.get(atom)
        c = float(values[name])
        if speedup is None:  # the atom gains its threads: a serial fraction of 0
            return c == 0
        return close(speedup, p, lambda at: at / (1 + c * (at - 1)))
    if name in _CONSTANTS:
        return close(getattr(machine, _CONSTANTS[name]), x, lambda at: float(values[name]) * scale)
    h0, h1 = (float(values[n]) * scale if _number(values.get(n)) else 0.0 for n in ("h0", "h1"))
    return close(machine.handoff, x, lambda at: h0 + h1 * at)

