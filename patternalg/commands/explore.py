"""``patternalg explore TERM --threads N --at x=1024``: designs reachable by the laws."""

from __future__ import annotations

import argparse
from typing import Any

from .common import (
    add_format_option,
    add_library_options,
    add_unit_option,
    load_library,
    read_text_argument,
    unit_option,
)
from .decide import at, emit


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("term", metavar="TERM", help="the design to start from")
    parser.add_argument("--threads", type=int, required=True, help="the thread budget")
    parser.add_argument(
        "--at",
        action="append",
        default=[],
        metavar="SYMBOL=VALUE",
        help="rank at this point, e.g. --at x=1024 (without x: by asymptotic growth)",
    )
    parser.add_argument("--top", type=int, default=10, help="designs to show (default 10)")
    parser.add_argument(
        "--expansions",
        type=int,
        default=2000,
        help="designs to rewrite at most, best first (default 2000)",
    )
    add_library_options(parser)
    add_unit_option(parser)
    add_format_option(parser, ("text", "json", "csv"))


def solve(args: argparse.Namespace, term: str) -> Any:
    """The :class:`~patternalg.decisions.explore.Exploration` the options ask for."""
    from ..decisions.explore import explore

    return explore(
        read_text_argument(term, "the term"),
        threads=args.threads,
        at=at(args),
        top=args.top,
        expansions=args.expansions,
        library=load_library(args),
        unit=unit_option(args),
    )


def run(args: argparse.Namespace) -> int:
    emit(args, solve(args, args.term))
    return 0
