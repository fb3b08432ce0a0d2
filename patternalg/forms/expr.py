"""The plain form: a model written as an expression of the grammar's safe arithmetic.

>>> build_expr({"model": "0.353395 * x"}, "models.reduce_v")
0.353395*x
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy

from . import spec_expr, spec_keys

__all__ = ["build_expr"]


def build_expr(spec: Mapping[str, Any], where: str) -> sympy.Expr:
    """The expression under the key ``model``."""
    spec_keys(spec, where, required=["model"])
    return spec_expr(spec, "model", where)
