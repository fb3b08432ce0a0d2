"""Values ready for JSON, which has no ``inf`` or ``NaN``."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["finite_json"]


def finite_json(data: Any) -> Any:
    """``data`` with every non-finite float (an overflowed statistic) as None: JSON has no
    ``inf`` or ``NaN``.

    >>> finite_json({"mse": float("inf"), "points": [1.5, float("nan")], "form": "amdahl"})
    {'mse': None, 'points': [1.5, None], 'form': 'amdahl'}
    """
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {key: finite_json(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [finite_json(value) for value in data]
    return data
