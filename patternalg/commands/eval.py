"""``patternalg eval TERM``: the closed-form model of a term."""

from __future__ import annotations

import argparse

from ..algebra.bindings import collect_bindings
from ..algebra.domains import as_json as extrapolated_json
from ..algebra.render import as_json
from ..algebra.semantics import Semantics
from ..library.evaluate import explain
from ..syntax.parser import parse
from .common import (
    add_digits_option,
    add_interval_options,
    add_model_options,
    interval_option,
    load_library,
    note,
    print_json,
    read_text_argument,
    semantics_option,
    unit_option,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("term", metavar="TERM", help="the term; '-' reads stdin, '@FILE' a file")
    add_model_options(
        parser,
        at_help="substitute a value for a symbol (repeatable), e.g. --at x=1024",
        formats=("text", "latex", "json"),
    )
    parser.add_argument(
        "--semantics",
        choices=Semantics.names(),
        default=None,
        help="how pipe picks its bottleneck (default: asymptotic, as in the paper; machine: "
        "the cores and hand-off of --machine/--cores, else this computer's cores)",
    )
    add_interval_options(parser)
    add_digits_option(
        parser,
        "significant digits of a value or of each coefficient of a closed form in text"
        " (1-17; default: a coefficient's shortest exact form, a value as precise as the"
        " atoms' coefficients, at least 15 digits: no float noise such as 53618.49999999999)",
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        help="print the derivation: every sub-term's model, bottlenecks, sources"
        " (with --format json: a list of lines under the key 'explain')",
    )


def run(args: argparse.Namespace) -> int:
    term = parse(read_text_argument(args.term, "the term"))
    bindings = collect_bindings(args.at)
    semantics = semantics_option(args, "asymptotic")
    level = interval_option(args)
    extra = {"interval": level, "seed": args.seed} if level is not None else {}
    result = explain(term, load_library(args), semantics, unit=unit_option(args), **extra, **bindings)
    notes = list(result.notes)
    explained = result.lines(args.digits) if args.explain else []
    if args.format == "json":
        data = as_json(term, result.expr, result.semantics, result.value, notes, result.model_latex(args.digits))
        if result.point is not None:
            data = {**data, **result.point.to_json(), "value": result.value}
        data = {**data, "unit": result.unit, "extrapolated": extrapolated_json(result.extrapolated)}
        if result.interval is not None:
            data = {**data, "interval": list(result.interval), "level": result.level}
        if args.explain:
            data["explain"] = explained
            if result.interval is not None:  # each source of the interval drawn alone
                data["interval_sources"] = [source._asdict() for source in result.interval_sources()]
        print_json(data, args)
        return 0
    print(result.latex(args.digits) if args.format == "latex" else result.text(args.digits))
    for text in notes:
        note(args, text)
    for line in explained:
        print(line)
    return 0
