"""``patternalg sweep TERM... --over x=A..B:N:log``: a table of models over a grid."""

from __future__ import annotations

import argparse

from .common import interval_option, load_library, machine_option, unit_option
from .decide import add_point_options, at, axes, emit, terms


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "terms", nargs="+", metavar="TERM", help="one or more terms (one column each)"
    )
    add_point_options(
        parser,
        over_help="a grid: x=1024..1e6:20:log, n=1..24, n=1,2,4,8 (one or two symbols)",
    )


def run(args: argparse.Namespace) -> int:
    from ..algebra.arrays import count_symbols
    from ..decisions.sweep import sweep

    library = load_library(args)
    parsed = terms(args)
    integer = frozenset(s for t in parsed for s in count_symbols(t))
    result = sweep(
        parsed,
        axes(args, integer),
        at=at(args),
        library=library,
        unit=unit_option(args),
        machine=machine_option(args),
        interval=interval_option(args),
        seed=args.seed,
    )
    emit(args, result)
    return 0
