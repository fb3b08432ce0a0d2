"""Values ready for JSON, which has no ``inf`` or ``NaN`` and no lone surrogate."""

from __future__ import annotations

import math
import numbers
import re
from typing import Any

__all__ = ["finite_json", "finite_number", "byte_text"]

#: the lone surrogates through which Python's file functions keep a name's bytes that are
#: not UTF-8 (``surrogateescape``)
_BYTES = re.compile("[\udc80-\udcff]")


def byte_text(text: str) -> str:
    """``text`` with each byte of a file name that is not UTF-8 as the text ``\\xff``, as a
    model file writes it (a lone surrogate is no text: JSON readers refuse it).

    >>> byte_text("bad" + chr(0xDCFF) + ".csv")
    'bad\\\\xff.csv'
    """
    return _BYTES.sub(lambda m: f"\\x{ord(m[0]) & 0xFF:02x}", text)


def finite_json(data: Any) -> Any:
    """``data`` with every non-finite float (an overflowed statistic) as None: JSON has no
    ``inf`` or ``NaN``; and every string's undecodable bytes as :func:`byte_text` writes them.

    >>> finite_json({"mse": float("inf"), "points": [1.5, float("nan")], "form": "amdahl"})
    {'mse': None, 'points': [1.5, None], 'form': 'amdahl'}
    """
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, str):
        return byte_text(data)
    if isinstance(data, dict):
        return {finite_json(key): finite_json(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [finite_json(value) for value in data]
    return data


def finite_number(value: Any) -> bool:
    """Whether ``value`` is a real number a double holds (not a bool; an integer of 400
    digits is none).

    >>> finite_number(2), finite_number(10**400), finite_number(float("nan")), finite_number(True)
    (True, False, False, False)
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False
