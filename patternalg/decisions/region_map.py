"""A comparison's region map: the winner in every cell of a two-symbol grid."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..algebra.arrays import Compiled
from ..algebra.grid import Axis
from ..syntax.arith import number_text

__all__ = ["Region", "region_map"]


@dataclass(frozen=True, eq=False)
class Region:
    """The winner in every cell of a two-symbol grid."""

    axes: tuple[Axis, Axis]
    winners: np.ndarray  #: indices into the compared terms (-1: none), shape (len(axes[0]), len(axes[1]))

    def lines(self, terms: Sequence[str]) -> list[str]:
        """A character map: the first symbol across, the second up; a legend below."""
        first, second = self.axes
        lines = [f"{second.name} \\ {first.name}"]
        labels = [number_text(v) for v in second.values]
        width = max(10, *map(len, labels))  # the rows' bars in one column
        for j in reversed(range(len(second))):
            row = "".join("." if w < 0 else chr(ord("A") + int(w)) for w in self.winners[:, j])
            lines.append(f"{labels[j]:>{width}} | {row}")
        lines.append(f"{'':>{width}} + {number_text(first.values[0])} .. {number_text(first.values[-1])}")
        lines += [f"  {chr(ord('A') + i)} = {t}" for i, t in enumerate(terms)]
        if (self.winners < 0).any():
            lines.append("  . = no design has a value to compare (beyond a double's range, or undefined there)")
        return lines

    def runs(self, terms: Sequence[str]) -> list[tuple[float, float, float, str | None]]:
        """The map's rows as a table: for each value of the second symbol (ascending), each
        run of cells along the first with one winner: ``(second, first from, first to,
        winner)`` (None: no value to compare). The winner changes between a run's end and
        the next one's start.

        >>> from patternalg.algebra.grid import parse_axis
        >>> region = Region((parse_axis("x=1,2,3"), parse_axis("n=1,2")), np.array([[0, 1], [1, 1], [1, -1]]))
        >>> region.runs(["a", "b"])
        [(1.0, 1.0, 1.0, 'a'), (1.0, 2.0, 3.0, 'b'), (2.0, 1.0, 2.0, 'b'), (2.0, 3.0, 3.0, None)]
        """
        first, second = self.axes
        runs = []
        for j in range(len(second)):
            column = self.winners[:, j]
            start = 0
            for i in range(1, len(first) + 1):
                if i == len(first) or column[i] != column[start]:
                    w = int(column[start])
                    name = terms[w] if w >= 0 else None
                    runs.append((float(second.values[j]), float(first.values[start]), float(first.values[i - 1]), name))
                    start = i
        return runs

    def to_json(self, terms: Sequence[str]) -> list[dict[str, Any]]:
        """One cell per grid point: both symbols' values and the winner."""
        first, second = self.axes
        return [
            {
                first.name: float(first.values[i]),
                second.name: float(second.values[j]),
                "winner": terms[int(self.winners[i, j])] if self.winners[i, j] >= 0 else None,
            }
            for i in range(len(first))
            for j in range(len(second))
        ]


def region_map(compiled: list[Compiled], axes: Sequence[Axis]) -> Region:
    """The winner of ``compiled`` in every cell of the grid of two ``axes``, among the designs
    with a value there (a design in a gap takes no part, as along one symbol); none (-1)
    where no design has one."""
    grid = dict(
        zip(
            (a.name for a in axes),
            np.meshgrid(*(a.values for a in axes), indexing="ij"),
            strict=True,
        )
    )
    stacked = np.stack([c.values(grid) for c in compiled])
    valued = np.isfinite(stacked)
    winners = _winners(np.where(valued, stacked, np.inf))
    return Region((axes[0], axes[1]), np.where(valued.any(axis=0), winners, -1))


def _winners(values: np.ndarray) -> np.ndarray:
    """Index of the smallest model at each point; ties go to the earlier design."""
    return np.argmin(values, axis=0)

