"""Measurements for the resource-aware forms (amdahl, memwall): one row per repetition.

Rows are read with :func:`patternalg.measurements.read_csv`, checked (p >= 1, positive
times, ...) with errors naming the file, the line and the column, and the repetitions of
each point are aggregated (median by default).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "m.csv")
>>> _ = open(path, "w").write("x,p,time\\n10,1,5\\n10,1,7\\n10,1,6\\n10,2,4\\n")
>>> table = read_csv(path, required=["x", "p", "time"])
>>> pts = aggregate(table, "kernel", ["x", "p"], "time")
>>> pts.params["p"].tolist(), pts.value.tolist(), pts.lines
([1.0, 2.0], [6.0, 4.0], ((2, 3, 4), (5,)))
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import FitError, MeasurementError
from ..library import valid_atom_name
from ..measurements import CsvTable, read_csv

__all__ = [
    "Points",
    "read_csv",
    "aggregate",
    "check_column",
    "require_one_of",
    "require_distinct",
    "atom_names",
    "AGGREGATIONS",
]

#: how the repetitions of one point are combined
AGGREGATIONS: dict[str, Callable[[np.ndarray], Any]] = {
    "median": np.median,
    "mean": np.mean,
    "min": np.min,
    "max": np.max,
}


@dataclass(frozen=True)
class Points:
    """The distinct points of one kernel: parameter columns, the aggregated value, file lines."""

    path: str
    kernel: str
    params: dict[str, np.ndarray]
    value: np.ndarray
    value_name: str
    lines: tuple[tuple[int, ...], ...]

    def __len__(self) -> int:
        return len(self.value)

    def where(self, index: int) -> str:
        """``file:line`` of the first row behind point ``index``."""
        return f"{self.path}:{self.lines[index][0]}"

    def subset(self, mask: np.ndarray) -> Points:
        """The points where ``mask`` holds."""
        chosen = np.flatnonzero(mask)
        return Points(
            self.path,
            self.kernel,
            {k: v[chosen] for k, v in self.params.items()},
            self.value[chosen],
            self.value_name,
            tuple(self.lines[i] for i in chosen),
        )


def aggregate(
    table: CsvTable, kernel: str, keys: Sequence[str], value: str, how: str = "median"
) -> Points:
    """One point per distinct combination of ``keys``, its ``value`` aggregated by ``how``."""
    columns = table.kernels[kernel]
    lines = table.lines[kernel]
    stacked = np.column_stack([columns[k] for k in keys])
    unique, inverse = np.unique(stacked, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    combine = AGGREGATIONS[how]
    values = np.empty(len(unique))
    groups: list[tuple[int, ...]] = []
    for i in range(len(unique)):
        rows = inverse == i
        values[i] = combine(columns[value][rows])
        groups.append(tuple(int(line) for line in lines[rows]))
    params = {k: unique[:, j].copy() for j, k in enumerate(keys)}
    return Points(table.path, kernel, params, values, value, tuple(groups))


def check_column(table: CsvTable, column: str, low: float, *, strict: bool, what: str) -> None:
    """Every cell of ``column`` must be >= ``low`` (> ``low`` if ``strict``).

    The error names the file, the first bad line, the column and ``what`` the column is.
    """
    for kernel, columns in table.kernels.items():
        cells = columns[column]
        bad = cells <= low if strict else cells < low
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            relation = "greater than" if strict else "at least"
            raise MeasurementError(
                f"{table.path}:{table.lines[kernel][i]}: column '{column}': {cells[i]:g} "
                f"is not valid ({what} must be {relation} {low:g})"
            )


def require_one_of(table: CsvTable, choices: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """The first group of columns of ``choices`` that the file has, all of them.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "m.csv")
    >>> _ = open(path, "w").write("p,time\\n1,5\\n")
    >>> require_one_of(read_csv(path, ["p"], ["time"]), [["phi"], ["f_cpu", "f_mem"]])
    Traceback (most recent call last):
    ...
    patternalg.errors.MeasurementError: ...m.csv:1: missing column 'phi' (or 'f_cpu' and ...
    """
    for group in choices:
        if all(c in table.columns for c in group):
            return tuple(group)
    alternatives = " or ".join("'" + "' and '".join(g) + "'" for g in choices[1:])
    first = "' and '".join(choices[0])
    raise MeasurementError(
        f"{table.path}:{table.header_line}: missing column '{first}' (or {alternatives}); "
        f"found only: {', '.join(table.columns)}"
    )


def require_distinct(points: Points, column: str, needed: int, what: str) -> None:
    """At least ``needed`` distinct values of ``column`` among ``points``, else a FitError."""
    values = points.params[column]
    have = len(np.unique(values))
    if have < needed:
        rows = ", ".join(str(g[0]) for g in points.lines[:8]) or "none"
        raise FitError(
            f"{points.path}: kernel '{points.kernel}', column '{column}': {have} distinct "
            f"value(s) where {what} needs at least {needed} (rows at lines {rows})"
        )


_INVALID = re.compile(r"[^A-Za-z0-9_]+")


def atom_names(kernels: Iterable[str]) -> dict[str, str]:
    """Atom names for kernel names: sanitised, lowercase first letter, unique.

    >>> names = atom_names(["parsec-blackscholes", "Sort", "2d fft", "seq", "a_b", "a-b"])
    >>> list(names.values())
    ['parsec_blackscholes', 'sort', 'k2d_fft', 'seq_kernel', 'a_b', 'a_b_2']
    """
    names: dict[str, str] = {}
    used: set[str] = set()
    for kernel in kernels:
        base = _INVALID.sub("_", kernel).strip("_")
        base = base[:1].lower() + base[1:]
        if not base[:1].isalpha():
            base = "k" + base
        if not valid_atom_name(base):
            base = f"{base}_kernel"
        if not valid_atom_name(base):
            base = "kernel"
        name, count = base, 1
        while name in used:
            count += 1
            name = f"{base}_{count}"
        used.add(name)
        names[kernel] = name
    return names
