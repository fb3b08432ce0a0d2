"""Grids of values for one symbol: ``x=1024..1e6:20:log``, ``n=1..24``, ``n=1,2,4,8``.

``A..B`` is a range (both ends included), ``:N`` its number of points and ``:lin`` or
``:log`` its spacing; a range without ``:N`` over a thread count or other integer
symbol takes every integer, else 20 points (a count's: the whole numbers nearest them,
with a note where they differ, :attr:`Axis.note`). Values are our safe arithmetic (``2^20``).

>>> parse_axis("x=1..1000:4:log").values.tolist()
[1.0, 10.0, 100.0, 1000.0]
>>> parse_axis("n=1,2,4,8").values.tolist()
[1.0, 2.0, 4.0, 8.0]
>>> parse_axis("n=1..4", integer=True).values.tolist()
[1.0, 2.0, 3.0, 4.0]
>>> parse_axis("x=1..16384:15:log").values[11:].tolist()
[2048.0, 4096.0, 8192.0, 16384.0]
>>> parse_axis("x=0..10:5:log")
Traceback (most recent call last):
...
patternalg.errors.EvaluationError: over='x=0..10:5:log': a log grid needs positive bounds, got 0
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np

from .._internal.display import listed
from .._internal.frozen import ReadOnlyArrays
from .._internal.limits import printable
from .._internal.surface import either, flag
from ..errors import ArgumentError, EvaluationError, ParseError
from ..syntax.arith import in_double_range, number_text
from .bindings import parse_value

__all__ = ["Axis", "FORMS", "SPACINGS", "parse_axis", "check_count_axis", "check_distinct", "curve_axis", "check_not_fixed", "spaced", "DEFAULT_POINTS", "MAX_POINTS", "CURVE_POINTS"]

#: points of a plotted curve over a range given without ``:N``
CURVE_POINTS = 256

#: points of a range without ``:N`` over a real-valued symbol
DEFAULT_POINTS = 20
#: the most points one axis may have (a typo like 1e9 points must not hang)
MAX_POINTS = 1_000_000


#: the spacings of an axis: a range's, or values listed
SPACINGS = ("lin", "log", "list")


@dataclass(frozen=True, eq=False)
class Axis(ReadOnlyArrays):
    """The values one symbol takes: a name, the values (ascending as given), the spacing
    (``"lin"``, ``"log"`` or ``"list"``), and a ``note`` on how they were found where
    they are not what the text wrote (a count's range rounded to whole numbers), which the
    decisions add to their notes. The values are kept as a read-only copy of
    finite doubles: changing the array given changes no axis, nor any result over it.

    >>> axis = Axis("x", [1, 2, 4], "list")
    >>> axis.values.tolist(), axis.values.flags.writeable
    ([1.0, 2.0, 4.0], False)
    >>> Axis("x", [], "list")
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: Axis values: expected a non-empty list of finite numbers such as [1, 2, 4]; got list []
    """

    name: str
    values: np.ndarray
    spacing: str  #: "lin", "log" or "list"
    note: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise ArgumentError.wanted("Axis name", "a symbol name such as 'x'", self.name)
        if not isinstance(self.spacing, str) or self.spacing not in SPACINGS:
            raise ArgumentError.wanted("Axis spacing", "'lin', 'log' or 'list'", self.spacing)
        object.__setattr__(self, "values", _values(self.values, self.spacing))

    def __len__(self) -> int:
        return len(self.values)

    @property
    def bounds(self) -> tuple[float, float]:
        """The smallest and the largest value."""
        return float(self.values.min()), float(self.values.max())


def _values(values: object, spacing: str) -> np.ndarray:
    """An axis's values as a read-only copy of doubles: a non-empty list of finite numbers
    (positive on a log grid)."""
    kind = "positive finite" if spacing == "log" else "finite"
    what = f"a non-empty list of {kind} numbers such as [1, 2, 4]"
    try:
        given = np.asarray(values)
    except (ValueError, TypeError):  # a ragged list
        raise ArgumentError.wanted("Axis values", what, values) from None
    if given.ndim != 1 or not given.size or given.dtype.kind not in "iuf":
        raise ArgumentError.wanted("Axis values", what, values)
    copy = np.array(given, dtype=float)
    if not np.isfinite(copy).all() or (spacing == "log" and not (copy > 0).all()):
        raise ArgumentError.wanted("Axis values", what, values)
    copy.flags.writeable = False
    return copy


#: a plain decimal literal, which Python's float() rounds as the exact value would be
_DECIMAL = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*")


def _number(text: str, where: str) -> float:
    """A listed value as a double: a plain decimal at once (float() is correctly rounded:
    the double nearest its exact value, which :func:`_exact` would give), anything else,
    or a decimal out of a double's normal range, by the safe arithmetic, which says why
    (a list of 100,000 values took 7 s through it).

    >>> _number(" 1e36", "--over"), _number("2^10", "--over"), _number("0.1", "--over")
    (1e+36, 1024.0, 0.1)
    """
    if _DECIMAL.fullmatch(text):
        value = float(text)
        if _SMALLEST <= abs(value) < math.inf or (value == 0 and _written_zero(text)):
            return value  # 1e-400 is 0.0 to float(), and out of range to _exact
    return float(_exact(text, where))


def _written_zero(text: str) -> bool:
    """Whether a decimal literal's digits are all 0 (``0``, ``-0.00e5``).

    >>> _written_zero("-0.00e5"), _written_zero("1e-400")
    (True, False)
    """
    mantissa = text.strip().lstrip("+-").lower().partition("e")[0]
    return set(mantissa) <= {"0", "."}


#: the smallest normal double: a value below it is refused (subnormal), as ``_exact`` says
_SMALLEST = sys.float_info.min


def _exact(text: str, where: str) -> Fraction:
    """The value of ``text`` exactly: a decimal literal as written (1e36 is 10^36, not the
    double nearest it), else the value of our safe arithmetic (``2^20``, ``1/3``)."""
    try:
        value = parse_value(text)
    except ParseError as exc:
        raise EvaluationError(f"{where}: {text.strip()!r} is not a number ({exc})") from None
    if not value.is_number or not value.is_real:
        raise EvaluationError(f"{where}: {text.strip()!r} is not a real number")
    if not in_double_range(value):
        raise EvaluationError(
            f"{where}: {text.strip()!r} is out of range (a grid's values are doubles: 0, or "
            f"magnitudes from {sys.float_info.min:.1e} to {sys.float_info.max:.1e})"
        )
    try:
        return Fraction(text.strip())
    except ValueError:  # an expression: its value
        if value.is_Rational:
            return Fraction(int(value.p), int(value.q))
        return Fraction(float(value))


def _extended(value: Fraction) -> np.longdouble:
    """``value`` in extended precision (where the platform has it)."""
    with localcontext() as context:
        context.prec = 40
        return np.longdouble(str(Decimal(value.numerator) / Decimal(value.denominator)))


#: what an axis's text may be, as its errors say
FORMS = "SYMBOL=A..B[:N][:lin|log] or SYMBOL=v1,v2,..."


def parse_axis(text: str, *, integer: bool = False, option: str = "over", distinct: bool = False) -> Axis:
    """Parse ``SYMBOL=A..B[:N][:lin|log]`` or ``SYMBOL=v1,v2,...``.

    ``integer`` (the symbol is a thread count): a range without ``:N`` takes every
    integer, and a value that is not a positive integer is an error. ``distinct`` (a
    decision's grid): a value listed twice is an error (:func:`check_distinct`), and a grid
    of one point points to ``eval --at``. Errors name ``option``, a flag on the command
    line (``--over x=5``) and an argument from Python (``over='x=5'``).

    >>> parse_axis("x=5", distinct=True)
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: over='x=5': a grid needs at least 2 points, got 1 (the value at one point: model(term, x=5))
    >>> parse_axis("x=5:1")
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: over='x=5:1': a range is written A..B, both ends included (x=1..100:10); expected SYMBOL=A..B[:N][:lin|log] or SYMBOL=v1,v2,...
    """
    if not isinstance(text, str):
        raise ArgumentError.wanted("text", "a grid axis such as 'x=1..1e6:20:log'", text)
    where = flag(option, text)
    name, sep, spec = text.partition("=")
    name = name.strip()
    if not sep or not name.isidentifier():
        raise EvaluationError(f"{where}: expected {FORMS}")
    if not spec.strip():
        raise EvaluationError(f"{where}: no values; expected {FORMS}")
    if ".." in spec:
        axis = _range(name, spec, where, integer)
    elif ":" in spec:  # x=1:100, as a slice is written
        raise EvaluationError(f"{where}: a range is written A..B, both ends included ({name}=1..100:10); expected {FORMS}")
    else:
        texts = spec.split(",")
        if not all(t.strip() for t in texts):
            raise EvaluationError(f"{where}: an empty value in the list; expected {name}=v1,v2,... (e.g. {name}=1,2,4)")
        axis = Axis(name, np.array([_number(v, where) for v in texts], dtype=float), "list")
    if distinct:
        check_distinct(axis, where)
    elif len(axis) < 2:
        raise EvaluationError(f"{where}: a grid needs at least 2 points, got {len(axis)}")
    if integer:
        check_count_axis(axis, where)
    return axis


def check_distinct(axis: Axis, where: str) -> None:
    """An error unless ``axis`` is two or more distinct values (a decision's grid): a value
    listed twice is named, and a grid of one point is pointed to ``eval --at``.

    >>> check_distinct(Axis("x", [1, 4, 1], "list"), "--over x")
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: --over x: x = 1 is listed twice; list each value once
    """
    values = axis.values.tolist()
    seen: set[float] = set()
    repeated = None
    for value in values:  # the first listed twice, in one pass (a sweep may have 10^6 points)
        if value in seen:
            repeated = value
            break
        seen.add(value)
    if repeated is not None:
        raise EvaluationError(f"{where}: {axis.name} = {number_text(repeated)} is listed twice; list each value once")
    if len(values) < 2:
        point = f"{axis.name}={number_text(values[0])}"
        raise EvaluationError(
            f"{where}: a grid needs at least 2 points, got 1 (the value at one point: "
            f"{either(f'eval --at {point}', f'model(term, {point})')})"
        )


def check_count_axis(axis: Axis, where: str) -> None:
    """An error naming the first value of ``axis``, over a symbol that counts threads (or
    nodes, or keys), that is not a positive integer.

    >>> check_count_axis(Axis("n", [1, 2, 4], "list"), "--over n")
    >>> check_count_axis(Axis("n", [2, 0, -1], "list"), "--over n")
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: --over n: n counts threads, and n = 0 is not a positive integer (a pool needs 1 or more threads)
    """
    bad = axis.values[(axis.values < 1) | (axis.values != np.round(axis.values))]
    if bad.size:
        raise EvaluationError(
            f"{where}: {axis.name} counts threads, and {axis.name} = {number_text(float(bad[0]))} is not a "
            "positive integer (a pool needs 1 or more threads)"
        )


def curve_axis(text: str, *, integer: bool = False, option: str = "over", distinct: bool = False) -> Axis:
    """A grid to draw curves on: a range without ``:N`` gets :data:`CURVE_POINTS` points and,
    without ``:lin``, log spacing where its bounds are positive; lists and thread counts
    stay as :func:`parse_axis` reads them.

    >>> axis = curve_axis("x=1..1e6")
    >>> len(axis), axis.spacing, curve_axis("x=1..10:lin").spacing
    (256, 'log', 'lin')
    """
    axis = parse_axis(text, integer=integer, option=option, distinct=distinct)
    if axis.spacing == "list" or integer:
        return axis
    bounds, *options = (o.strip() for o in text.split(":"))
    count = next((o for o in options if o.isascii() and o.isdigit()), str(CURVE_POINTS))
    positive = axis.bounds[0] > 0
    spacing = next((o for o in options if o in ("lin", "log")), "log" if positive else "lin")
    return parse_axis(f"{bounds}:{count}:{spacing}", option=option)


def check_not_fixed(axes: Sequence[Axis], fixed: Iterable[str]) -> None:
    """Refuse a symbol that is both swept and fixed (``--over x=... --at x=...``: the answer
    would be at one of them, silently).

    >>> check_not_fixed([parse_axis("x=1..4")], ["n"])
    >>> check_not_fixed([parse_axis("x=1..4")], ["x"])
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: x is both swept (over=) and fixed (at=)
    """
    for name in sorted({a.name for a in axes} & set(fixed)):
        raise EvaluationError(f"{name} is both swept ({flag('over')}) and fixed ({flag('at')})")


def _range(name: str, spec: str, where: str, integer: bool) -> Axis:
    bounds, *options = spec.split(":")
    low_text, _, high_text = bounds.partition("..")
    for end, end_text in (("lower", low_text), ("upper", high_text)):
        if not end_text.strip():
            raise EvaluationError(f"{where}: the range has no {end} end; expected {FORMS}")
    exact_low, exact_high = _exact(low_text, where), _exact(high_text, where)
    low, high = float(exact_low), float(exact_high)
    spacing, count, asked, given = "lin", None, "", set()
    for option in (o.strip() for o in options):
        if option not in ("lin", "log") and not (option.isascii() and option.isdigit()):
            raise EvaluationError(
                f"{where}: {option!r} is neither a number of points nor lin/log"
            )
        kind = "spacing" if option in ("lin", "log") else "number of points"
        if kind in given:
            raise EvaluationError(f"{where}: {option!r} gives the {kind} a second time; give it once")
        given.add(kind)
        if option in ("lin", "log"):
            spacing = option
        else:  # thousands of digits: more than MAX_POINTS, not int()'s limit
            count, asked = (int(option) if len(option) <= 18 else MAX_POINTS + 1), option
    if integer:  # a count's range: whole ends (its points are rounded to whole numbers)
        check_count_axis(Axis(name, np.array([low, high]), "list"), where)
    if spacing == "log" and low <= 0:
        raise EvaluationError(f"{where}: a log grid needs positive bounds, got {low_text.strip()}")
    if low == high:  # one point: the caller says what a grid of one point is
        return Axis(name, np.array([low]), spacing)
    if not low < high:
        raise EvaluationError(
            f"{where}: the range must go up, got {low_text.strip()}..{high_text.strip()} "
            f"({name}={high_text.strip()}..{low_text.strip()} goes up)"
        )
    if count is None:
        count = int(high - low) + 1 if integer and spacing == "lin" else DEFAULT_POINTS
    if count < 2:
        raise EvaluationError(f"{where}: a grid needs at least 2 points, got {count}")
    if count > MAX_POINTS:
        raise EvaluationError(f"{where}: {printable(asked or str(count))} points is more than {MAX_POINTS:,}")
    values = spaced(_extended(exact_low), _extended(exact_high), count, spacing)
    if not integer:
        return Axis(name, values, spacing)
    counts = np.unique(np.floor(values + 0.5))  # the nearest whole number, a half up
    if len(counts) == count and np.array_equal(counts, values):
        return Axis(name, values, spacing)
    many = "" if len(counts) == count else f" {len(counts)} distinct,"
    return Axis(name, counts, spacing, (
        f"{where}: {name} counts threads, so the {count} points from {number_text(low)} to "
        f"{number_text(high)} are rounded to whole numbers (a half up),{many} {name} = "
        f"{listed([number_text(v) for v in counts.tolist()], 12)}; list the counts to choose "
        f"others ({name}=1,2,4)"
    ))


#: significant digits of a decimal that a computed point within float noise of it snaps to
_DIGITS = 15


def _noise() -> tuple[float, float]:
    """The relative error of a computed point, and the largest number below which every
    integer is exact, in the precision used (extended where the platform has it)."""
    extended = np.finfo(np.longdouble)
    if extended.eps < np.finfo(float).eps:
        return 128 * float(extended.eps), 2.0 ** (extended.nmant + 1)
    return 4 * float(np.finfo(float).eps), 2.0**53


def spaced(
    low: float | np.longdouble, high: float | np.longdouble, count: int, spacing: str
) -> np.ndarray:
    """``count`` points from ``low`` to ``high`` (both included), evenly (``"lin"``) or
    log-spaced (``"log"``, positive bounds): the one grid generator of the decisions.

    Each point is computed in extended precision from the bounds (give them as
    ``np.longdouble`` to mean the decimals written, not the doubles nearest them); a point
    within that computation's noise of a decimal of 15 significant digits (of the grid's
    larger bound, on a linear grid) is that decimal
    (2048, not 2048.000000000001; 0.3, not 0.30000000000000004), and each is rounded once
    to a double. The noise is far below a double's precision: a point that is no short
    decimal keeps its value.

    >>> spaced(1, 16384, 15, "log")[11:].tolist()
    [2048.0, 4096.0, 8192.0, 16384.0]
    >>> float(spaced(0, 1, 11, "lin")[3]), spaced(np.longdouble("1e-3"), 1, 4, "log").tolist()
    (0.3, [0.001, 0.01, 0.1, 1.0])
    """
    lo, hi = np.longdouble(low), np.longdouble(high)
    if count < 2:
        return np.array([lo, hi][:count], dtype=float)
    step = np.arange(count, dtype=np.longdouble) / (count - 1)
    noise, exact_integers = _noise()
    with np.errstate(all="ignore"):
        if spacing == "log":  # an error relative to each point
            points = np.exp(np.log(lo) + step * (np.log(hi) - np.log(lo)))
            size = np.abs(points)
        else:  # an error relative to the larger bound (a point near 0 is no smaller)
            points = lo + step * (hi - lo)
            size = np.full(count, max(abs(lo), abs(hi)), dtype=np.longdouble)
        exponent = _DIGITS - 1 - np.floor(np.log10(size.astype(float)))  # doubles: fast
        powers, where = np.unique(np.nan_to_num(exponent, posinf=0, neginf=0), return_inverse=True)
        scale = np.power(np.longdouble(10), powers.astype(np.longdouble))[where.ravel()]
        short = np.round(points * scale) / scale
        near = np.isfinite(short) & (np.abs(short - points) <= noise * size)
        near &= (points != np.round(points)) | (np.abs(points) >= exact_integers)  # 2^51
    values = np.where(near, short, points).astype(float)
    values[0], values[-1] = float(lo), float(hi)  # the ends as given
    return values
