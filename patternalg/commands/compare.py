"""``patternalg compare T1 T2 [T3 ...] [--over x=A..B]``: which design is fastest where."""

from __future__ import annotations

import argparse

from ..decisions.options import DEFAULT_RANGE
from .common import interval_option, load_library, machine_option, unit_option
from .decide import add_point_options, at, axes, emit, terms
from .progress import progress


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("terms", nargs="+", metavar="TERM", help="two or more designs")
    add_point_options(
        parser,
        over_help=f"the swept symbol and its range (default {DEFAULT_RANGE}); "
        "a second --over draws a region map",
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        help="with --interval: say which sources of the draws (an atom's fit, a measurement's"
        " noise, the machine's numbers or miss) alone leave each undecided stretch undecided",
    )


def run(args: argparse.Namespace) -> int:
    from ..algebra.arrays import count_symbols
    from ..decisions.compare import compare

    library = load_library(args)
    parsed = terms(args)
    integer = frozenset(s for t in parsed for s in count_symbols(t))
    grids = axes(args, integer) or None
    with progress(args, "comparing", "pairs") as bar:
        result = compare(
            parsed,
            over=grids,
            at=at(args),
            library=library,
            unit=unit_option(args),
            progress=bar,
            machine=machine_option(args),
            interval=interval_option(args),
            seed=args.seed,
            explain=args.explain,
        )
    emit(args, result)
    return 0
