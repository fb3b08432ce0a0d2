"""Defaults and choices of the decision commands, importable without numpy (for the CLI)."""

from __future__ import annotations

__all__ = ["DEFAULT_RANGE", "OBJECTIVES", "CURVE_POINTS"]

#: the range of x that ``compare`` sweeps when ``--over`` is not given
DEFAULT_RANGE = "x=1..2^40:log"
#: how ``optimize`` reduces a model over a swept range
OBJECTIVES = ("max", "mean")
#: points of a plotted curve over a range given without ``:N``
CURVE_POINTS = 256
