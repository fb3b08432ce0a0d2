"""Pictures of models and measurements (matplotlib, the optional extra ``patternalg[plot]``).

Nothing here imports matplotlib until a picture is drawn.
"""

from .backend import FORMATS, PlotError, check_path, new_axes, pyplot, save_figure
from .bars import plot_designs
from .curves import Crossover, Curve, bottleneck_stretches, plot_curves
from .fits import plot_fit

__all__ = [
    "FORMATS",
    "PlotError",
    "new_axes",
    "pyplot",
    "save_figure",
    "check_path",
    "plot_designs",
    "Crossover",
    "Curve",
    "bottleneck_stretches",
    "plot_curves",
    "plot_fit",
]
