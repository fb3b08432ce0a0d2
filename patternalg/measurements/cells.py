"""A cell's number, and why it is none: one wording for every reader (a CSV cell, a word of
a text file, a JSON value) and for a DataFrame's cells.

>>> number("10,5", "m.csv", line=3, column="time")
Traceback (most recent call last):
...
patternalg.errors.MeasurementError: m.csv:3: column 'time': '10,5' is not a number (write a decimal point and no thousands separator: 10.5, 1000)
"""

from __future__ import annotations

import math
import re

from ..errors import Location, MeasurementError

__all__ = ["where", "number"]


def where(path: str, line: int | None = None, key: str | None = None) -> Location:
    """The :class:`~patternalg.errors.Location` of a line or a key; line 0 means unknown."""
    return Location(path, line or None, key=key)


def number(
    text: object, path: str, line: int = 0, key: str | None = None, column: str | None = None
) -> float:
    """A finite float from a cell, a word or a JSON value; else an error with its location."""
    if type(text) in (str, float, int):  # not bool
        try:
            value = float(text)  # type: ignore[arg-type]
        except (ValueError, OverflowError):
            pass
        else:
            if math.isfinite(value):
                return value
    raise _not_a_number(text, where(path, line, key), f"column '{column}': " if column else "")


#: a number with a decimal comma or thousands separators, as many spreadsheets export it
_COMMA_NUMBER = re.compile(r"[+-]?\d{1,3}(?:[,.']\d{3})*(?:[,.]\d+)?|[+-]?\d+,\d+")


def _not_a_number(text: object, at: Location, column: str) -> MeasurementError:
    """Why ``text`` (in ``column``, if named) is not a finite float, as an error located ``at``."""
    if isinstance(text, bool) or not isinstance(text, int | float | str):
        return MeasurementError(f"{column}expected a number, got {text!r}", location=at)
    shown = text.strip() if isinstance(text, str) else text
    if isinstance(shown, str) and len(shown) > 40:
        shown = shown[:20] + "…" + shown[-8:]
    try:
        float(text)
    except ValueError:
        point = (
            " (write a decimal point and no thousands separator: 10.5, 1000)"
            if _COMMA_NUMBER.fullmatch(str(shown))
            else ""
        )
        return MeasurementError(f"{column}{shown!r} is not a number{point}", location=at)
    except OverflowError:
        return MeasurementError(
            f"{column}a number overflows a float (largest: 1.8e308)", location=at
        )
    written = str(shown).lower().lstrip("+-")
    if isinstance(text, str) and written not in ("nan", "inf", "infinity"):
        return MeasurementError(
            f"{column}{shown} overflows a float (largest: 1.8e308)", location=at
        )
    return MeasurementError(
        f"{column}{shown} is not finite (NaN and inf are not measurements)", location=at
    )
