"""Grids of values for one symbol: ``x=1024..1e6:20:log``, ``n=1..24``, ``n=1,2,4,8``.

``A..B`` is a range (both ends included), ``:N`` its number of points and ``:lin`` or
``:log`` its spacing; a range without ``:N`` over a thread count or other integer
symbol takes every integer, else 20 points. Values are our safe arithmetic (``2^20``).

>>> parse_axis("x=1..1000:4:log").values.tolist()
[1.0, 10.0, 100.0, 1000.0]
>>> parse_axis("n=1,2,4,8").values.tolist()
[1.0, 2.0, 4.0, 8.0]
>>> parse_axis("n=1..4", integer=True).values.tolist()
[1.0, 2.0, 3.0, 4.0]
>>> parse_axis("x=0..10:5:log")
Traceback (most recent call last):
...
patternalg.errors.EvaluationError: --over x=0..10:5:log: a log grid needs positive bounds, got 0
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from ..arith import in_double_range
from ..bindings import parse_value
from ..errors import ArgumentError, EvaluationError, ParseError
from .options import CURVE_POINTS

__all__ = ["Axis", "parse_axis", "curve_axis", "DEFAULT_POINTS", "MAX_POINTS"]

#: points of a range without ``:N`` over a real-valued symbol
DEFAULT_POINTS = 20
#: the most points one axis may have (a typo like 1e9 points must not hang)
MAX_POINTS = 1_000_000


@dataclass(frozen=True, eq=False)
class Axis:
    """The values one symbol takes: a name, the values (ascending as given), the spacing."""

    name: str
    values: np.ndarray
    spacing: str  #: "lin", "log" or "list"

    def __len__(self) -> int:
        return len(self.values)

    @property
    def bounds(self) -> tuple[float, float]:
        """The smallest and the largest value."""
        return float(self.values.min()), float(self.values.max())


def _number(text: str, where: str) -> float:
    try:
        value = parse_value(text)
    except ParseError as exc:
        raise EvaluationError(f"{where}: {text.strip()!r} is not a number ({exc})") from None
    if not value.is_number or not value.is_real:
        raise EvaluationError(f"{where}: {text.strip()!r} is not a real number")
    result = float(value)
    if not in_double_range(value):
        raise EvaluationError(
            f"{where}: {text.strip()!r} is out of range (a grid's values are doubles: 0, or "
            f"magnitudes from {sys.float_info.min:.1e} to {sys.float_info.max:.1e})"
        )
    return result


def parse_axis(text: str, *, integer: bool = False, option: str = "--over") -> Axis:
    """Parse ``SYMBOL=A..B[:N][:lin|log]`` or ``SYMBOL=v1,v2,...``.

    ``integer`` (the symbol is a thread count): a range without ``:N`` takes every
    integer, and a value that is not a positive integer is an error.
    """
    if not isinstance(text, str):
        raise ArgumentError.wanted("text", "a grid axis such as 'x=1..1e6:20:log'", text)
    where = f"{option} {text}"
    name, sep, spec = text.partition("=")
    name = name.strip()
    if not sep or not name.isidentifier():
        raise EvaluationError(f"{where}: expected SYMBOL=A..B[:N][:lin|log] or SYMBOL=v1,v2,...")
    if ".." in spec:
        axis = _range(name, spec, where, integer)
    else:
        values = np.array([_number(v, where) for v in spec.split(",")], dtype=float)
        axis = Axis(name, values, "list")
    if len(axis) < 2:
        raise EvaluationError(f"{where}: a grid needs at least 2 points, got {len(axis)}")
    if integer and not np.all((axis.values >= 1) & (axis.values == np.round(axis.values))):
        raise EvaluationError(f"{where}: {name} counts threads; its values must be positive integers")
    return axis


def curve_axis(text: str, *, integer: bool = False, option: str = "--over") -> Axis:
    """A grid to draw curves on: a range without ``:N`` gets :data:`CURVE_POINTS` points and,
    without ``:lin``, log spacing where its bounds are positive; lists and thread counts
    stay as :func:`parse_axis` reads them.

    >>> axis = curve_axis("x=1..1e6")
    >>> len(axis), axis.spacing, curve_axis("x=1..10:lin").spacing
    (256, 'log', 'lin')
    """
    axis = parse_axis(text, integer=integer, option=option)
    if axis.spacing == "list" or integer:
        return axis
    bounds, *options = (o.strip() for o in text.split(":"))
    count = next((o for o in options if o.isdigit()), str(CURVE_POINTS))
    positive = axis.bounds[0] > 0
    spacing = next((o for o in options if o in ("lin", "log")), "log" if positive else "lin")
    return parse_axis(f"{bounds}:{count}:{spacing}", option=option)


def _range(name: str, spec: str, where: str, integer: bool) -> Axis:
    bounds, *options = spec.split(":")
    low_text, _, high_text = bounds.partition("..")
    low, high = _number(low_text, where), _number(high_text, where)
    spacing, count = "lin", None
    for option in options:
        option = option.strip()
        if option in ("lin", "log"):
            spacing = option
        elif option.isdigit():
            count = int(option)
        else:
            raise EvaluationError(
                f"{where}: {option!r} is neither a number of points nor lin/log"
            )
    if not low < high:
        raise EvaluationError(f"{where}: the range must go up, got {low_text.strip()}..{high_text.strip()}")
    if spacing == "log" and low <= 0:
        raise EvaluationError(f"{where}: a log grid needs positive bounds, got {low_text.strip()}")
    if count is None:
        count = int(high - low) + 1 if integer and spacing == "lin" else DEFAULT_POINTS
    if count > MAX_POINTS:
        raise EvaluationError(f"{where}: {count} points is more than {MAX_POINTS:,}")
    if spacing == "log":
        values = np.geomspace(low, high, count)
    else:
        values = np.linspace(low, high, count)
    if integer:
        values = np.unique(np.round(values))
    return Axis(name, values, spacing)
