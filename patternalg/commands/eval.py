"""``patternalg eval TERM``: the closed-form model of a term."""

from __future__ import annotations

import argparse
import sys

from ..algebra import Derivation, Semantics, evaluate
from ..pointwise import PointValue, at_point, collect_bindings, undecided_note
from ..render import as_json, as_latex, as_number, as_text, explain_lines, format_number
from ..syntax import parse
from .common import (
    add_format_option,
    add_library_options,
    load_library,
    print_json,
    read_text_argument,
)

def mixed_units(derivation: Derivation) -> str:
    """``"ns: inc, qsort; s: matmul"`` when the atoms of a term differ in unit, else ``""``."""
    by_unit: dict[str, list[str]] = {}
    for name, atom in sorted(derivation.atoms.items()):
        by_unit.setdefault(atom.unit, []).append(name)
    if len(by_unit) < 2:
        return ""
    return "; ".join(f"{unit}: {', '.join(names)}" for unit, names in sorted(by_unit.items()))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("term", metavar="TERM", help="the term; '-' reads stdin, '@FILE' a file")
    add_library_options(parser)
    parser.add_argument(
        "--at",
        action="append",
        default=[],
        metavar="SYMBOL=VALUE",
        help="substitute a value for a symbol (repeatable), e.g. --at x=1024",
    )
    parser.add_argument(
        "--semantics",
        choices=[s.value for s in Semantics],
        default="asymptotic",
        help="how pipe picks its bottleneck (default: asymptotic, as in the paper)",
    )
    add_format_option(parser, ("text", "latex", "json"))
    parser.add_argument(
        "--explain",
        action="store_true",
        help="print the derivation: every sub-term's model, bottlenecks, sources",
    )


def run(args: argparse.Namespace) -> int:
    term = parse(read_text_argument(args.term, "the term"))
    library = load_library(args)
    semantics = Semantics.of(args.semantics)
    bindings = collect_bindings(args.at)
    derivation = Derivation()
    point: PointValue | None = None
    if bindings:
        point = at_point(term, library, bindings, semantics, derivation=derivation)
        expr = point.expr
        notes = point.notes()
    else:
        expr = evaluate(term, library, semantics, derivation=derivation)
        notes = [undecided_note(semantics)] if derivation.undecided else []
    value = as_number(expr)
    units = mixed_units(derivation)
    if units:
        notes.append(
            f"the atoms have different units ({units}); the model combines them as they are"
        )
    if args.format == "json":
        data = as_json(term, expr, semantics, value, notes)
        print_json(data if point is None else {**data, **point.to_json(), "value": value})
    elif args.format == "latex":
        print(as_latex(expr))
    else:
        print(format_number(value) if value is not None else as_text(expr))
        for note in notes:
            print(f"note: {note}", file=sys.stderr)
    if args.explain:
        from ..symbols import symbol

        out = sys.stdout if args.format != "json" else sys.stderr
        lines = explain_lines(derivation, {symbol(k): v for k, v in bindings.items()}, point)
        for line in lines:
            print(line, file=out)
    return 0
