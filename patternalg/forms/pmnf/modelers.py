"""The PMNF modelers, in one table: each name with its aggregation of repetitions and its
one- and multi-parameter selection (imported when first used: reading a model file, or
listing the choices of ``--modeler``, imports no numpy).

>>> sorted(MODELERS), MODELERS["default"].aggregate, MODELERS["basic"].aggregate
(['basic', 'default'], 'biweight', 'mean')
>>> MODELERS["basic"].select("one").__name__, MODELERS["default"].select("multi").__name__
('select_basic', 'select_multi_default')
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Modeler", "MODELERS", "FALLBACK", "choose"]


@dataclass(frozen=True)
class Modeler:
    """A modeler: how it aggregates repetitions by default, its selections of one
    (``"one"``: x (P,), values (K, P)) and of several parameters (``"multi"``: points
    (P, k), values (K, P)) as ``"module:function"``, and whether it needs values above 0
    (relative errors do): kernels with a value <= 0 are then chosen by :data:`FALLBACK`;
    whether its one-parameter selection takes the noise of the points (``noise=``: per
    kernel the relative variance of a point's aggregate, pooled over the points)."""

    aggregate: str
    one: str
    multi: str
    positive: bool = False
    noise: bool = False

    def select(self, kind: str) -> Any:
        """The selection function of ``kind`` (``"one"`` or ``"multi"``)."""
        module, _, name = getattr(self, kind).partition(":")
        return getattr(importlib.import_module(f"{__package__}.{module}"), name)


#: modeler name -> its aggregation (measured: see docs/pmnf.md) and selections
MODELERS: dict[str, Modeler] = {
    "basic": Modeler("mean", "basic:select_basic", "multi_basic:select_multi_basic"),
    "default": Modeler(
        "biweight",
        "default:select_default",
        "multi_default:select_multi_default",
        positive=True,
        noise=True,
    ),
}
#: the modeler of the kernels with a value <= 0 that a modeler needing positive values leaves
FALLBACK = "basic"


def choose(
    modeler: str, kind: str, points: np.ndarray, y: np.ndarray, noise: np.ndarray | None = None
) -> tuple[Any, np.ndarray, Any, np.ndarray]:
    """The selection of ``modeler`` for the kernels ``y`` (K, P) (with the points' pooled
    relative ``noise`` (K,), if known and the modeler takes it), the rows it left to
    :data:`FALLBACK`, their selection (None if no row), and the modeler that chose each row
    (``"basic (values <= 0)"`` for the rows left)."""
    import numpy as np

    entry = MODELERS[modeler]
    used = np.empty(len(y), dtype=object)
    used[:] = modeler
    left = np.any(y <= 0, axis=1) if entry.positive else np.zeros(len(y), dtype=bool)
    extra = {"noise": noise} if entry.noise and kind == "one" and noise is not None else {}
    chosen = entry.select(kind)(points, np.where(left[:, None], 1.0, y), **extra)
    rows = np.flatnonzero(left)
    if not len(rows):
        return chosen, rows, None, used
    used[rows] = f"{FALLBACK} (values <= 0)"
    return chosen, rows, MODELERS[FALLBACK].select(kind)(points, y[rows]), used
