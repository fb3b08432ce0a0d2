"""How good a fitted model is, in one line: its fit statistics and its measured ranges.

As Extra-P's text output does, ``patternalg fit`` prints for each kernel the model, then
SMAPE, adjusted R², RSS and the measured range; ``patternalg models`` shows the same.

>>> from patternalg.algebra.atomic_model import AtomicModel
>>> from patternalg.syntax.symbols import x
>>> m = AtomicModel("sort", 2 * x, unit="ms", x_range=(1000.0, 32000.0),
...                 fit=(("smape", 1.234), ("ar2", 0.99871), ("rss", 12.5), ("points", 6)))
>>> quality_line(m)
'SMAPE 1.23%, adjusted R² 0.9987, RSS 12.5 ms², x in [1000, 32000], 6 points'
>>> quality_line(AtomicModel("inc", x))
''
"""

from __future__ import annotations

from typing import Any

__all__ = ["quality_line", "ranges_text"]


def ranges_text(model: Any) -> str:
    """``x in [1000, 32000], p in [1, 8]``: the measured range of each symbol."""
    return ", ".join(f"{key} in [{lo:g}, {hi:g}]" for key, (lo, hi) in model.domain)


def quality_line(model: Any) -> str:
    """The fit statistics a model holds (SMAPE, adjusted R², RSS or MSE) and its ranges."""
    stats = dict(model.fit)
    parts = []
    if isinstance(stats.get("smape"), int | float):
        parts.append(f"SMAPE {stats['smape']:.2f}%")
    if isinstance(stats.get("ar2"), int | float):
        parts.append(f"adjusted R² {stats['ar2']:.4f}")
    for key, label in (("rss", "RSS"), ("mse", "MSE")):
        if isinstance(stats.get(key), int | float):
            squared = "" if model.unit == "dimensionless" else f" {model.unit}²"
            parts.append(f"{label} {stats[key]:.4g}{squared}")
    ranges = ranges_text(model)
    if ranges:
        parts.append(ranges)
    points = stats.get("points", stats.get("measurements"))
    if parts and isinstance(points, int):
        parts.append(f"{points} points")
    return ", ".join(parts)
