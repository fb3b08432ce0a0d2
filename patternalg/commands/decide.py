"""Options and output shared by the decision commands (sweep, compare, optimize, explore)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..algebra.bindings import collect_bindings
from .common import (
    add_digits_option,
    add_interval_options,
    add_model_options,
    interval_option,
    load_library,
    machine_option,
    notes_once,
    print_json,
    read_text_argument,
    seed_option,
    unit_option,
)

if TYPE_CHECKING:
    from ..algebra.grid import Axis
    from ..syntax.terms import Term

__all__ = ["add_point_options", "axes", "terms", "at", "emit"]


def add_point_options(parser: argparse.ArgumentParser, *, over_help: str) -> None:
    """``--over`` (repeatable), ``--at`` (one per symbol), library options, ``--unit``,
    ``--format``, ``--digits``."""
    parser.add_argument(
        "--over", action="append", default=[], metavar="SYMBOL=GRID", help=over_help
    )
    add_model_options(
        parser,
        at_help="fix a symbol, e.g. --at x=1024 (one value per symbol)",
        formats=("text", "json", "csv"),
    )
    add_interval_options(parser)
    add_digits_option(
        parser,
        "significant digits of the models' values in text and CSV, and of compare's ratios in"
        " text (1-17; default 15: no float noise; positions on an axis print in full; JSON"
        " holds the doubles)",
    )


def axes(args: argparse.Namespace, integer: frozenset[str] = frozenset()) -> list[Axis]:
    """The ``--over`` grids; symbols in ``integer`` (thread counts) take whole numbers."""
    from ..algebra.grid import parse_axis

    return [
        parse_axis(text, integer=text.partition("=")[0].strip() in integer, distinct=True)
        for text in args.over
    ]


def terms(args: argparse.Namespace) -> list[Term]:
    """The term arguments (each possibly ``-`` or ``@FILE``), parsed once: a term 10,000
    deep takes a second to parse."""
    from ..syntax.parser import parse

    return [parse(read_text_argument(t, "the term")) for t in args.terms]


def at(args: argparse.Namespace) -> dict[str, Any]:
    """The ``--at`` bindings (a symbol given twice is an error)."""
    return collect_bindings(args.at)


def point_and_library(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword options of every decision function: ``at``, ``library``, ``unit`` and
    ``machine``."""
    machine = machine_option(args)
    return {
        "at": at(args),
        "library": load_library(args),
        "unit": unit_option(args),
        "machine": machine,
        "interval": interval_option(args),
        "seed": seed_option(args),
    }


def emit(args: argparse.Namespace, result: Any, lines: Sequence[str] | None = None) -> None:
    """Print a decision result as text (``lines``, default its ``text(digits)``), JSON or
    CSV (its notes: in JSON, else on stderr unless ``--quiet``); ``--digits``, where the command has it, sets
    the significant digits of values in text and CSV."""
    if args.format == "json":
        print_json(result.to_json(), args)
        return
    digits = {"digits": args.digits} if "digits" in args else {}
    if args.format == "csv":
        sys.stdout.write(result.to_csv(**digits))
    else:
        for line in result.lines(**digits) if lines is None else lines:
            print(line)
    notes_once(args, result.notes)  # each once, and none with --quiet
