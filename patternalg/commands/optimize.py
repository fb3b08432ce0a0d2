"""``patternalg optimize TERM --budget "a+b<=24" --at x=1024``: the best thread counts."""

from __future__ import annotations

import argparse
from typing import Any

from .._internal.callbacks import ProgressCallback
from ..decisions.options import OBJECTIVES, OPTIMIZE_THREADS, OPTIMIZE_TOP
from ..errors import EvaluationError
from .common import read_text_argument
from .decide import add_point_options, axes, emit, point_and_library
from .flags import add_option
from .progress import progress


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "term", metavar="TERM", help="a term with free thread counts, e.g. tpool_a(...)"
    )
    parser.add_argument(
        "--budget",
        action="append",
        default=[],
        metavar="LINEAR",
        help="a linear budget on the counts, e.g. 'a+b<=24' (repeatable)",
    )
    add_option(parser, OPTIMIZE_THREADS)
    parser.add_argument(
        "--vary", action="append", default=[], metavar="SYMBOL", help="also choose this symbol"
    )
    parser.add_argument(
        "--objective",
        choices=OBJECTIVES,
        default="max",
        help="with --over: minimise the worst (max) or the mean value over the grid",
    )
    add_option(parser, OPTIMIZE_TOP)
    add_point_options(parser, over_help="optimise over a range of x, e.g. x=1e3..1e6:20:log")


def solve(
    args: argparse.Namespace, term: str, bar: ProgressCallback = None, runners_up: int | None = None
) -> Any:
    """The :class:`~patternalg.decisions.optimize.Optimum` the options ask for (``runners_up``:
    instead of ``--top``'s)."""
    from ..decisions.optimize import optimize

    grids = axes(args)
    if len(grids) > 1:
        raise EvaluationError("optimize takes at most one --over")
    return optimize(
        read_text_argument(term, "the term"),
        budget=args.budget,
        threads=args.threads,
        over=grids[0] if grids else None,
        objective=args.objective,
        vary=args.vary,
        top=args.top if runners_up is None else runners_up,
        progress=bar,
        **point_and_library(args),
    )


def run(args: argparse.Namespace) -> int:
    with progress(args, "optimizing", "assignments") as bar:
        result = solve(args, args.term, bar)
    emit(args, result)
    return 0
