"""Where designs can be compared: the scan that brackets sign changes, values below a
double's range, the span where every design has a value, and the gaps inside it."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

import numpy as np
import sympy

from .._internal.limits import printable
from ..algebra.arrays import Compiled
from ..algebra.grid import Axis, spaced
from ..errors import EvaluationError
from ..syntax.arith import number_text
from .crossovers import boundary

__all__ = ["scan_points", "underflows_lacking", "finite_span", "gaps_inside", "gap_edges"]

_SCAN = 4096  #: points of the scan that brackets sign changes


def scan_points(axis: Axis) -> np.ndarray:
    lo, hi = axis.bounds
    dense = spaced(lo, hi, _SCAN, "log" if lo > 0 else "lin")
    return np.unique(np.concatenate([dense, axis.values]))


def underflows_lacking(
    scanned: np.ndarray, scan: np.ndarray, compiled: Sequence[Compiled], s: sympy.Symbol
) -> np.ndarray:
    """The scanned values with those below a double's range as infinite too (no value to
    compare: a model of ``1e-1000*x`` reads as 0.0 everywhere, and two such tied): the
    values of a design whose closed form is not 0 where its value is the first or the last
    below the smallest normal double.

    >>> from patternalg.algebra.arrays import compile_term
    >>> from patternalg.library import ModelLibrary
    >>> from patternalg.library.model_library import AtomicModel
    >>> from patternalg.syntax.parser import parse
    >>> from patternalg.syntax.symbols import x
    >>> lib = ModelLibrary.builtin().merged([AtomicModel("tiny", sympy.Float("1e-1000") * x)])
    >>> designs = [compile_term(parse(t), lib, {}) for t in ("tiny", "inc")]
    >>> scan = np.array([1.0, 2.0])
    >>> underflows_lacking(np.stack([c.values({"x": scan}) for c in designs]), scan, designs, x)
    array([[     inf,      inf],
           [ 536.185, 1072.37 ]])
    """
    lacking = scanned.copy()
    for row, design in zip(lacking, compiled, strict=True):
        below = np.flatnonzero(np.abs(row) < sys.float_info.min)
        if not below.size or design.expr is None:
            continue
        for at in {below[0], below[-1]}:  # x*log2(x) times 1e-1000 is 0 at x = 1 only
            exact = design.expr.xreplace({s: sympy.Float(float(scan[at]))}).evalf()
            if exact.is_number and exact.is_nonzero:
                row[below] = np.inf
                break
    return lacking


def finite_span(
    scanned: np.ndarray, scan: np.ndarray, names: Sequence[str], axis: Axis
) -> tuple[float, float, list[str]]:
    """The compared range without the ends where some design has no value: beyond a
    double's range (an overflow), or none at all (qsort's log2(x) at x <= 0), where nothing
    can be compared (a design with a value there "won" against one without), with a note
    naming the designs and what is compared instead; the whole range where every design has
    a value at both ends.

    >>> from patternalg.algebra.grid import parse_axis
    >>> scan, axis = np.array([1.0, 10.0, 100.0]), parse_axis("x=1..100")
    >>> finite_span(np.array([[1.0, 2.0, np.inf], [1.0, 3.0, 4.0]]), scan, ["a", "b"], axis)[:2]
    (1.0, 10.0)
    >>> finite_span(np.array([[np.nan, 2.0, 3.0], [1.0, 3.0, 4.0]]), scan, ["a", "b"], axis)
    (10.0, 100.0, ['a has no value on part of x in [1, 100]: compared over x in [10, 100]'])
    """
    lo, hi = axis.bounds
    held = np.flatnonzero(np.isfinite(scanned).all(axis=0))
    if held.size and scan[held[0]] == lo and scan[held[-1]] == hi:
        return lo, hi, gaps_inside(scanned, scan, names, axis.name, (lo, hi))
    beyond = [printable(n) for n, row in zip(names, scanned, strict=True) if np.isinf(row).any()]
    undefined = [
        printable(n) for n, row in zip(names, scanned, strict=True) if np.isnan(row).any() and not np.isinf(row).any()
    ]
    where = f"{axis.name} in [{number_text(lo)}, {number_text(hi)}]"
    if not held.size:
        why = "beyond a double's range" if beyond else "no value"
        raise EvaluationError(
            f"{', '.join(beyond or undefined)}: {why} at every point of {where} that compare "
            "scanned: compare a range where the models' values are numbers"
        )
    start, end = float(scan[held[0]]), float(scan[held[-1]])
    lacks = [
        f"{', '.join(group)} {verb} on part of {where}"
        for group, verb in (
            (beyond, "goes beyond a double's range" if len(beyond) == 1 else "go beyond a double's range"),
            (undefined, "has no value" if len(undefined) == 1 else "have no value"),
        )
        if group
    ]
    inner = (scan >= start) & (scan <= end)  # and the gaps inside what is compared
    gaps = gaps_inside(scanned[:, inner], scan[inner], names, axis.name, (start, end))
    return start, end, [f"{'; '.join(lacks)}: compared over {axis.name} in [{number_text(start)}, {number_text(end)}]", *gaps]


def gaps_inside(
    scanned: np.ndarray, scan: np.ndarray, names: Sequence[str], symbol: str, bounds: tuple[float, float]
) -> list[str]:
    """A note for each design without a value at scan points inside the compared range
    ``bounds`` of ``symbol``, where both ends have one (``sqrt((x-300)*(x-600))`` on (300,
    600)), naming each run of such points: there it takes no part, and the others are
    compared.

    >>> scan = np.array([200.0, 400.0, 500.0, 600.0, 650.0, 700.0])
    >>> gaps_inside(np.array([[1.0, np.nan, np.nan, 2.0, np.nan, 3.0], [3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]),
    ...             scan, ["mid", "h"], "x", (200.0, 700.0))
    ['mid has no value at x from about 400 to 500 and near 650 (of x in [200, 700]): the designs are compared where they have one']
    """
    notes = []
    for name, row in zip(names, scanned, strict=True):
        runs = [
            f"near {number_text(float(scan[a]), 4)}" if a == b
            else f"from about {number_text(float(scan[a]), 4)} to {number_text(float(scan[b]), 4)}"
            for a, b in _lacking_runs(row)
        ]  # fmt: skip
        if not runs:
            continue
        where = ", ".join(runs[:-1]) + (" and " if len(runs) > 1 else "") + runs[-1]
        notes.append(
            f"{printable(name)} has no value at {symbol} {where} (of {symbol} in "
            f"[{number_text(bounds[0])}, {number_text(bounds[1])}]): the designs are compared where they have one"
        )
    return notes


def gap_edges(
    scanned: np.ndarray, scan: np.ndarray, values: Callable[[int, np.ndarray], np.ndarray]
) -> list[float]:
    """Where each gap inside the range begins and ends (the last point before it and the
    first after it where the design has a value, refined to a relative
    :data:`~.crossovers.RTOL`), so that a stretch of the comparison ends there: inside a
    gap the design takes no part, and another may win. ``values(design, points)`` is one
    design's values; the range's ends have a value (:func:`finite_span`).

    >>> scan = np.array([200.0, 250.0, 400.0, 500.0, 700.0])
    >>> row = lambda p: np.sqrt((p - 300.0) * (p - 600.0))
    >>> with np.errstate(invalid="ignore"):
    ...     edges = gap_edges(row(scan)[None, :], scan, lambda _, p: row(p))
    >>> [round(e, 6) for e in edges]
    [300.0, 600.0]
    """
    edges = []
    for design, row in enumerate(scanned):
        for begin, end in _lacking_runs(row):
            if begin == 0 or end == len(row) - 1:  # at an end: the range is cut there instead
                continue

            def held(points: np.ndarray, d: int = design) -> np.ndarray:
                with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
                    return np.isfinite(values(d, points))

            edges.append(boundary(held, float(scan[begin - 1]), float(scan[begin])))
            edges.append(boundary(held, float(scan[end + 1]), float(scan[end])))
    return sorted(set(edges))


def _lacking_runs(row: np.ndarray) -> list[tuple[int, int]]:
    """The runs of points of ``row`` without a finite value: (first, last) index of each.

    >>> _lacking_runs(np.array([1.0, np.nan, np.inf, 2.0, np.nan, 3.0]))
    [(1, 2), (4, 4)]
    """
    lacking = ~np.isfinite(row)
    starts = np.flatnonzero(lacking & ~np.concatenate([[False], lacking[:-1]]))
    stops = np.flatnonzero(lacking & ~np.concatenate([lacking[1:], [False]]))
    return [(int(a), int(b)) for a, b in zip(starts, stops, strict=True)]
