"""Options and output shared by the decision commands (sweep, compare, optimize, explore)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..pointwise import collect_bindings
from .common import (
    add_format_option,
    add_library_options,
    add_unit_option,
    print_json,
    read_text_argument,
)

if TYPE_CHECKING:
    from ..decisions.grid import Axis

__all__ = ["add_point_options", "axes", "terms", "at", "emit"]


def add_point_options(parser: argparse.ArgumentParser, *, over_help: str) -> None:
    """``--over`` (repeatable), ``--at`` (one per symbol), library options, ``--unit``,
    ``--format``."""
    parser.add_argument("--over", action="append", default=[], metavar="SYMBOL=GRID", help=over_help)
    parser.add_argument(
        "--at",
        action="append",
        default=[],
        metavar="SYMBOL=VALUE",
        help="fix a symbol, e.g. --at x=1024 (one value per symbol)",
    )
    add_library_options(parser)
    add_unit_option(parser)
    add_format_option(parser, ("text", "json", "csv"))


def axes(args: argparse.Namespace, integer: frozenset[str] = frozenset()) -> list[Axis]:
    """The ``--over`` grids; symbols in ``integer`` (thread counts) take whole numbers."""
    from ..decisions.grid import parse_axis

    return [parse_axis(text, integer=text.partition("=")[0].strip() in integer) for text in args.over]


def terms(args: argparse.Namespace) -> list[str]:
    """The term arguments, each possibly ``-`` or ``@FILE``."""
    return [read_text_argument(t, "the term") for t in args.terms]


def at(args: argparse.Namespace) -> dict[str, Any]:
    """The ``--at`` bindings (a symbol given twice is an error)."""
    return collect_bindings(args.at)


def emit(args: argparse.Namespace, result: Any) -> None:
    """Print a decision result as text, JSON or CSV (its notes: in JSON, else on stderr)."""
    if args.format == "json":
        print_json(result.to_json())
        return
    if args.format == "csv":
        sys.stdout.write(result.to_csv())
    else:
        for line in result.text():
            print(line)
    for note in result.notes:
        print(f"note: {note}", file=sys.stderr)
