"""What ``calibrate`` found: the machine, each of its numbers with its fit
(:class:`FittedNumber`), and the residual of every calibration composition under the rules and
under the machine (:class:`Residual`), as a table, text and JSON (:class:`Calibration`).

>>> Residual.summary([0.1, -0.3, 0.05])
(0.1, -0.3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._internal.display import aligned, brief, counted, listed, percent_cell
from .._internal.tables import Tabular, fields_json
from ..algebra.machine import COSTS, Machine
from ..syntax.arith import format_expr, number_text
from .choosing import choice_line
from .halves import range_text

__all__ = ["Calibration", "FittedNumber", "Residual", "DIGITS"]

#: significant digits of the numbers written to the machine file (their errors are larger)
DIGITS = 4


@dataclass(frozen=True)
class FittedNumber:
    """One number of the machine: its ``value``, its standard ``error`` (the points' noise
    and the misses it inherits from its compositions, :mod:`.absorbed`; None where the data
    do not determine it) and what it is."""

    name: str
    value: float
    error: float | None
    meaning: str

    def text(self) -> str:
        """``h1 = 1.516 ± 0.27  (ns per element and unit of x: its slope)``."""
        error = "" if self.error is None else f" ± {number_text(self.error, 2)}"
        return f"{self.name} = {number_text(self.value, DIGITS)}{error}  ({self.meaning})"

    def to_json(self) -> dict[str, Any]:
        """``{name, value, error, meaning}``."""
        return fields_json(self)


@dataclass(frozen=True)
class Residual:
    """One calibration composition: its relative errors (predicted - measured) / measured at
    each size, under the rules (``exact``) and under the calibrated machine; with 4
    repetitions or more, the machine's worst error against each half of them
    (``{in_halves: [least, greatest], holds}``, :mod:`~patternalg.evidence.halves`)."""

    term: str
    sizes: tuple[float, ...]
    rules: tuple[float, ...]
    machine: tuple[float, ...]
    machine_worst_halves: dict[str, Any] | None = None

    @property
    def within_noise(self) -> bool:
        """Whether the machine's worst error changes sign between halves of the repetitions:
        within what the measurement itself moves. Not where it and every half's are 0
        (noise-free data: nothing moves, and the machine misses nothing; such an error
        keeps no sign, and was said to change it).

        >>> Residual("t", (1.0,), (0.1,), (0.0,), {"in_halves": [0.0, 0.0], "holds": False}).within_noise
        False
        >>> Residual("t", (1.0,), (0.1,), (0.01,), {"in_halves": [-0.02, 0.03], "holds": False}).within_noise
        True
        """
        halves = self.machine_worst_halves or {}
        return halves.get("holds") is False and any(e != 0 for e in halves.get("in_halves", ()))

    def __repr__(self) -> str:
        """``Residual(tpool_2(qsort): 9 sizes; machine median |error| 1.2 %, worst -3.4 %)``."""
        median, worst = self.summary(self.machine)
        return brief("Residual", f"{self.term}: {counted(len(self.sizes), 'size')}; machine median |error| "
                     f"{percent_cell(median)}, worst {percent_cell(worst)}")  # fmt: skip

    @staticmethod
    def summary(errors: Sequence[float]) -> tuple[float, float]:
        """The median |error| and the worst error (signed)."""
        values = np.asarray(errors, dtype=float)
        return float(np.median(np.abs(values))), float(values[np.argmax(np.abs(values))])

    def to_json(self) -> dict[str, Any]:
        """The fields, with each semantics' median |error| and worst error."""
        (rm, rw), (mm, mw) = self.summary(self.rules), self.summary(self.machine)
        return {**fields_json(self), "rules_median": rm, "rules_worst": rw,
                "machine_median": mm, "machine_worst": mw}  # fmt: skip


@dataclass(frozen=True, eq=False)
class Calibration(Tabular):
    """A calibrated machine: the :class:`~patternalg.algebra.machine.Machine` (its
    ``calibration`` records what it came from), each number with its fit, and the residual
    of every calibration composition under the rules and under the machine."""

    machine: Machine
    numbers: tuple[FittedNumber, ...]
    residuals: tuple[Residual, ...]
    atoms: str  #: "measured" or "models": what the terms were composed from
    files: tuple[str, ...]
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        """The machine and its compositions, on one line (never the residuals)."""
        terms = [r.term for r in self.residuals]
        return brief("Calibration", f"from {counted(len(terms), 'composition')}: {listed(terms, 2)}; {self.machine.describe()}")

    def plot(self, ax: Any = None) -> Any:
        """Each calibration composition's relative error over x under the machine and under
        the rules (matplotlib axes)."""
        from ..plotting.calibration import plot_calibration

        return plot_calibration(self, ax=ax)

    def header(self) -> list[str]:
        """One row per calibration composition."""
        return ["term", "points", "rules median |error|", "rules worst error",
                "machine median |error|", "machine worst error"]  # fmt: skip

    def column_digits(self, digits: int | None = None) -> dict[int, int | None]:
        """Errors in 3 significant digits (they measure, not predict)."""
        return dict.fromkeys(range(2, 6), 3)

    def percent_columns(self) -> frozenset[int]:
        """The errors."""
        return frozenset(range(2, 6))

    def rows(self) -> list[list[Any]]:
        """Per composition: its points, the rules' and the machine's median |error| and worst
        error (relative: 0.1 is 10 %)."""
        return [
            [r.term, len(r.sizes), *Residual.summary(r.rules), *Residual.summary(r.machine)]
            for r in self.residuals
        ]

    def caption(self) -> str:
        return f"calibrated machine: {self.machine.describe()}"

    def lines(self) -> list[str]:
        """What ``patternalg calibrate`` prints: the machine, each number with its fit, and
        the residual of every calibration composition (in %)."""
        header = ["term", "points", "rules: median |error|", "worst", "machine: median |error|", "worst"]
        halved = any(r.machine_worst_halves is not None for r in self.residuals)
        body = [
            [r.term, str(len(r.sizes))]
            + [f"{100 * v:+.1f} %" if i % 2 else f"{100 * v:.1f} %"
               for i, v in enumerate((*Residual.summary(r.rules), *Residual.summary(r.machine)))]
            + ([range_text((r.machine_worst_halves or {}).get("in_halves"), " ")] if halved else [])
            for r in self.residuals
        ]  # fmt: skip
        table = aligned([header + (["worst in halves"] if halved else []), *body])
        return [f"machine: {self.machine.describe()}", *self._fitted(), *table, *self._recorded()]

    def details(self) -> list[str]:
        """Under the notebook's table: each number with its fit, and what the machine file
        records beside them (the speed-ups kept, the numbers drawn, the width factor)."""
        return self._fitted() + self._recorded()

    def _fitted(self) -> list[str]:
        """What the numbers were fitted to, each with its fit, and the speed-ups' choice."""
        points = sum(len(r.sizes) for r in self.residuals)
        lines = [
            f"fitted to {len(self.residuals)} composition(s), {points} points, the terms "
            f"composed from the atoms' {'measured medians' if self.atoms == 'measured' else 'models'}:",
        ]
        lines += [f"  {n.text()}" for n in self.numbers]
        choice = dict(self.machine.calibration).get("speedups")
        if isinstance(choice, dict):  # what was asked and kept (evidence/choosing.py)
            lines.append(choice_line(choice))
        return lines

    def _recorded(self) -> list[str]:
        """After the residuals: a worst error that changes sign between halves, the numbers
        the intervals draw, the intervals' width factor and growth beyond the sizes."""
        lines = []
        changes = [r.term for r in self.residuals if r.within_noise]
        if changes:
            lines.append(
                f"the machine's worst error of {', '.join(changes)} changes sign between halves of the "
                "repetitions (first, second, odd, even): within what the measurement itself moves"
            )
        drawn = dict(self.machine.calibration).get("covariance")
        if isinstance(drawn, dict) and drawn.get("names"):  # algebra/machine_numbers.py
            unkept = [n for n in drawn["names"] if n not in {k.name for k in self.numbers}]
            lines.append(
                f"intervals of composed terms draw {', '.join(drawn['names'])} from their covariance"
                + (f" ({', '.join(unkept)}: fitted, not kept, drawn from 0 upward)" if unkept else "")
            )
        width = dict(self.machine.calibration).get("width")
        if isinstance(width, dict):  # the intervals' width factor (evidence/widths.py)
            low, high = (number_text(v) for v in width["range"])
            taken = (f"; the fitted numbers took up {round(100 * (1 - width['kept'] / width['points']))} % of their misses"
                     if "kept" in width and width.get("points") else "")  # fmt: skip
            beyond = f"; {number_text(width['beyond'], DIGITS)} beyond them" if "beyond" in width else ""
            lines.append(f"intervals of composed terms: width factor {number_text(width['factor'], DIGITS)} "
                         f"(from {width['points']} points, x = {low} to {high}{taken}){beyond}")  # fmt: skip
        spread = dict(self.machine.calibration).get("spread")
        spread = spread if isinstance(spread, dict) else {}
        atoms, common = spread.get("atoms"), spread.get("common")
        if isinstance(atoms, dict) and atoms and common:  # the miss in parts (evidence/missed.py)
            each = ", ".join(f"{name} {_median_percent(pairs)}" for name, pairs in atoms.items())
            lines.append(f"intervals of composed terms add what the operators miss, by the atoms that carry each "
                         f"term: {each}; every composition {_median_percent(common)} (medians over the sizes)")  # fmt: skip
        growth, missed = spread.get("growth"), spread.get("missed")
        if isinstance(growth, int | float) and growth > 0 and missed:  # evidence/missed.py
            low, high = (number_text(missed[i][0]) for i in (0, -1))
            lines.append(f"the calibration compositions drift with the size beyond their noise: intervals of composed "
                         f"terms widen by {number_text(100 * growth, DIGITS)} % per doubling of x outside x = {low} "
                         f"to {high}")  # fmt: skip
        return lines

    def to_json(self) -> dict[str, Any]:
        """``{machine, numbers, residuals, speedups, atoms, files, notes}`` (``speedups``: what
        was asked and kept, :mod:`~patternalg.evidence.choosing`; the machine: its cores, unit,
        hand-off, dispatch cost, turn, wake and speed-ups as text, and its calibration record)."""
        return {
            "machine": {
                "cores": self.machine.cores,
                "unit": self.machine.unit,
                **{cost: format_expr(getattr(self.machine, cost)) for cost in COSTS},
                "speedups": {name: format_expr(s) for name, s in self.machine.speedup.items()},
                "calibration": dict(self.machine.calibration),
            },
            "numbers": [n.to_json() for n in self.numbers],
            "residuals": [r.to_json() for r in self.residuals],
            "speedups": dict(self.machine.calibration).get("speedups"),
            "atoms": self.atoms,
            "files": list(self.files),
            "notes": list(self.notes),
        }


def _median_percent(pairs: Sequence[Sequence[float]]) -> str:
    """The median of a record's ``[[x, spread], ...]`` in per cent.

    >>> _median_percent([[1024.0, 0.1], [2048.0, 0.3], [4096.0, 0.2]])
    '20 %'
    """
    return f"{number_text(100 * float(np.median([v for _, v in pairs])), DIGITS)} %"
