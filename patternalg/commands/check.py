"""``patternalg check "LAW"``: prove or refute a law of your own (``@FILE``: each law in a file)."""

from __future__ import annotations

import argparse

from .common import read_text_argument
from .laws import add_check_options, run_checks


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "law",
        metavar="LAW",
        help="LHS REL RHS, REL one of == <= >= < >; capitalised names are metavariables"
        " (any term); or the id of a built-in law (patternalg laws lists them);"
        " '-' reads stdin, '@FILE' a file (several laws: one after another, NAME: before one names it)",
    )
    add_check_options(parser)


def run(args: argparse.Namespace) -> int:
    from ..laws import parse_laws
    from ..laws.checker import builtin_law

    text = args.law if args.law.strip().isidentifier() else read_text_argument(args.law, "the law")
    if text.strip().isidentifier():  # a law has a relation: a bare name is a built-in law's id
        return run_checks([builtin_law(text.strip())], args)
    return run_checks(parse_laws(text), args)
