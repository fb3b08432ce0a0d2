"""Reading measurements: CSV tables (and, by the fitters of each form, other formats).

Every malformed input is a :class:`MeasurementError` naming the file, the line and the
reason.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "m.csv")
>>> _ = open(path, "w").write("kernel,x,time\\nsort,8,1.5\\nsort,16,3.5\\ninc,8,0.5\\n")
>>> table = read_csv(path, required=["x", "time"])
>>> sorted(table.kernels)
['inc', 'sort']
>>> table.kernels["sort"]["time"].tolist()
[1.5, 3.5]
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .errors import MeasurementError

__all__ = ["CsvTable", "read_csv", "DEFAULT_KERNEL"]

#: kernel name used when a file has no kernel column
DEFAULT_KERNEL = "kernel"


@dataclass(frozen=True)
class CsvTable:
    """Numeric columns of a CSV file, grouped by the ``kernel`` column.

    ``kernels[name][column]`` is a float array; ``lines[name]`` the 1-based file line of
    each row, for error messages; ``text[name][column]`` the raw text columns (e.g. ``metric``);
    ``header_line`` the 1-based file line of the header.
    """

    path: str
    columns: tuple[str, ...]
    kernels: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)
    lines: dict[str, np.ndarray] = field(default_factory=dict)
    text: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    header_line: int = 1


def _number(path: str, line: int, column: str, cell: str) -> float:
    try:
        value = float(cell)
    except ValueError:
        raise MeasurementError(
            f"{path}:{line}: column '{column}': {cell.strip()!r} is not a number"
        ) from None
    if not math.isfinite(value):
        raise MeasurementError(f"{path}:{line}: column '{column}': {cell.strip()} is not finite")
    return value


def read_csv(
    path: str | Path,
    required: Sequence[str],
    optional: Sequence[str] = (),
    text_columns: Sequence[str] = ("kernel", "metric"),
) -> CsvTable:
    """Read a CSV file with a header; ``required`` and ``optional`` name numeric columns.

    Column names are matched case-insensitively and without surrounding blanks. Rows
    are grouped by the ``kernel`` column if there is one (else all rows form one kernel
    named ``kernel``). Blank lines and lines starting with ``#`` are skipped.
    """
    name = str(path)
    try:
        raw = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise MeasurementError(f"{name}: cannot read measurements: {exc}") from None
    numbered = [
        (i, line)
        for i, line in enumerate(raw.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not numbered:
        raise MeasurementError(f"{name}: the file is empty (expected a header and data rows)")
    rows = list(csv.reader([line for _, line in numbered]))
    header = [h.strip().lower() for h in rows[0]]
    header_line = numbered[0][0]
    if len(set(header)) != len(header):
        dup = next(h for h in header if header.count(h) > 1)
        raise MeasurementError(f"{name}:{header_line}: column '{dup}' appears twice in the header")
    missing = [c for c in required if c.lower() not in header]
    if missing:
        raise MeasurementError(
            f"{name}:{header_line}: missing column '{missing[0]}' "
            f"(the header has: {', '.join(header) or 'nothing'}; needed: {', '.join(required)})"
        )
    numeric = [c.lower() for c in required] + [c.lower() for c in optional if c.lower() in header]
    texts = [c for c in text_columns if c in header]
    index = {h: i for i, h in enumerate(header)}
    values: dict[str, dict[str, list[float]]] = {}
    lines: dict[str, list[int]] = {}
    strings: dict[str, dict[str, list[str]]] = {}
    for (line, _), row in zip(numbered[1:], rows[1:], strict=True):
        if len(row) != len(header):
            raise MeasurementError(
                f"{name}:{line}: {len(row)} cells where the header has {len(header)}"
            )
        kernel = row[index["kernel"]].strip() if "kernel" in index else DEFAULT_KERNEL
        if not kernel:
            raise MeasurementError(f"{name}:{line}: column 'kernel' is empty")
        columns = values.setdefault(kernel, {c: [] for c in numeric})
        for column in numeric:
            columns[column].append(_number(name, line, column, row[index[column]]))
        for column in texts:
            strings.setdefault(kernel, {c: [] for c in texts})[column].append(
                row[index[column]].strip()
            )
        lines.setdefault(kernel, []).append(line)
    if not values:
        raise MeasurementError(f"{name}: no data rows after the header")
    return CsvTable(
        path=name,
        columns=tuple(numeric),
        kernels={
            k: {c: np.asarray(v, dtype=float) for c, v in cols.items()}
            for k, cols in values.items()
        },
        lines={k: np.asarray(v, dtype=int) for k, v in lines.items()},
        text=strings,
        header_line=header_line,
    )
