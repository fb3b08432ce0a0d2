"""Defaults, choices and numbers of the decision commands, importable without numpy (for
the CLI): each number is an :class:`~patternalg._internal.options.Option` that the command builds its
flag from and the library function checks its argument with.
"""

from __future__ import annotations

from functools import partial

from .._internal.limits import MAX_EXPANSIONS
from .._internal.options import Option
from ..errors import EvaluationError

__all__ = [
    "DEFAULT_RANGE",
    "OBJECTIVES",
    "EXPLORE_THREADS",
    "EXPLORE_TOP",
    "EXPANSIONS",
    "OPTIMIZE_THREADS",
    "OPTIMIZE_TOP",
    "PLOT_TOP",
]

#: the range of x that ``compare`` sweeps when ``--over`` is not given
DEFAULT_RANGE = "x=1..2^40:log"
#: how ``optimize`` reduces a model over a swept range
OBJECTIVES = ("max", "mean")

#: a count a search function takes (a search's errors are EvaluationErrors)
_count = partial(Option, type=int, error=EvaluationError)
#: ``explore``'s thread budget
EXPLORE_THREADS = _count(
    "threads", None, "the thread budget (default with --cores or --machine: its cores)", minimum=1, metavar="N"
)
#: designs ``explore`` shows
EXPLORE_TOP = _count("top", 10, "designs to show (default 10)", minimum=1)
#: designs ``explore`` rewrites at most
EXPANSIONS = _count(
    "expansions",
    2_000,
    "designs to rewrite at most, best first (default 2000)",
    minimum=1,
    maximum=MAX_EXPANSIONS,
)
#: ``optimize``'s threads in all (budgets on the counts, beside ``--budget``'s)
OPTIMIZE_THREADS = _count(
    "threads",
    None,
    "at most N threads in all, as the design runs them (pipe: its stages' sum, tpool_n: n times its body)",
    minimum=1,
    metavar="N",
)
#: runners-up ``optimize`` shows
OPTIMIZE_TOP = _count("top", 5, "runners-up to show (default 5)", minimum=0)
#: designs ``plot --optimize`` and ``plot --explore`` draw (the best among them, unlike
#: ``optimize --top``'s runners-up)
PLOT_TOP = _count(
    "top",
    8,
    "designs to draw, the best among them (default 8); --optimize draws the even split as one "
    "bar more where it is not among them (optimize --top counts the runners-up alone)",
    minimum=1,
)
