"""``patternalg explore TERM --threads N --at x=1024``: designs reachable by the laws."""

from __future__ import annotations

import argparse
from typing import Any

from .._internal.callbacks import ProgressCallback
from ..decisions.options import EXPANSIONS, EXPLORE_THREADS, EXPLORE_TOP
from .common import add_digits_option, add_interval_options, add_model_options, read_text_argument
from .decide import emit, point_and_library
from .flags import add_option
from .progress import progress


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("term", metavar="TERM", help="the design to start from")
    add_option(parser, EXPLORE_THREADS)
    add_option(parser, EXPANSIONS)
    add_option(parser, EXPLORE_TOP)
    parser.add_argument(
        "--why",
        action="store_true",
        help="list every rewrite of each design's derivation (default: the laws in one line)",
    )
    add_model_options(
        parser,
        at_help="rank at this point, e.g. --at x=1024 (without x: by asymptotic growth)",
        formats=("text", "json", "csv"),
    )
    add_interval_options(parser)
    add_digits_option(
        parser,
        "significant digits of the designs' values (and their closed forms' coefficients) in"
        " text and CSV (1-17; default 15: no float noise; JSON holds the doubles)",
    )


def run(args: argparse.Namespace) -> int:
    with progress(args, "exploring", "designs") as bar:
        result = solve(args, args.term, bar)
    emit(args, result, result.lines(why=args.why, digits=args.digits))
    return 0


def solve(args: argparse.Namespace, term: str, bar: ProgressCallback = None) -> Any:
    """The :class:`~patternalg.decisions.explore.Exploration` the options ask for."""
    from ..decisions.explore import explore

    return explore(
        read_text_argument(term, "the term"),
        threads=args.threads,
        top=args.top,
        expansions=args.expansions,
        progress=bar,
        **point_and_library(args),
    )
