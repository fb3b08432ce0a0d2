"""``patternalg eval TERM``: the closed-form model of a term."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping

from ..algebra import Derivation, Semantics, evaluate
from ..domains import as_json as extrapolated_json
from ..domains import extrapolations, point_notes
from ..model import AtomicModel
from ..pointwise import PointValue, at_point, collect_bindings, undecided_note
from ..render import as_json, as_latex, as_number, as_text, explain_lines, format_number
from ..syntax import parse
from ..units import atom_names, check_unit, in_one_unit
from .common import (
    add_format_option,
    add_library_options,
    load_library,
    print_json,
    read_text_argument,
)


def converted_note(original: Mapping[str, AtomicModel], names: list[str], unit: str) -> str:
    """``"converted to ns: kernel (ms), other (s)"`` if some atoms were converted, else ``""``."""
    moved = [f"{name} ({original[name].unit})" for name in names if original[name].unit != unit]
    return f"converted to {unit}: {', '.join(moved)}" if moved else ""


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
    parser.add_argument(
        "--unit",
        metavar="UNIT",
        help="the unit of the result, e.g. us, ms, s (default: the atoms' common unit; "
        "times of different units are converted to ns)",
    )
    add_format_option(parser, ("text", "latex", "json"))
    parser.add_argument(
        "--digits",
        type=int,
        choices=range(1, 18),
        default=None,
        metavar="N",
        help="significant digits of a value (1-17; default 15: no float noise such as"
        " 53618.49999999999)",
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        help="print the derivation: every sub-term's model, bottlenecks, sources"
        " (with --format json: a list of lines under the key 'explain')",
    )


def run(args: argparse.Namespace) -> int:
    term = parse(read_text_argument(args.term, "the term"))
    original = load_library(args)
    target = check_unit(args.unit, "--unit") if args.unit else None
    library, unit = in_one_unit(term, original, target)
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
    converted = converted_note(original, atom_names(term), unit)
    if converted:
        notes.append(converted)
    outside = extrapolations(term, library, bindings)
    notes.extend(str(item) for item in outside)
    notes.extend(point_notes(bindings, value, unit))
    explained = []
    if args.explain:
        from ..symbols import symbol

        explained = explain_lines(derivation, {symbol(k): v for k, v in bindings.items()}, point)
    if args.format == "json":
        data = as_json(term, expr, semantics, value, notes)
        if point is not None:
            data = {**data, **point.to_json(), "value": value}
        data = {**data, "unit": unit, "extrapolated": extrapolated_json(outside)}
        if args.explain:
            data["explain"] = explained
        print_json(data)
        return 0
    if args.format == "latex":
        print(f"{as_latex(expr)} \\; \\mathrm{{{unit}}}")
    else:  # a value with its unit; a closed form as it is (its unit is in the JSON)
        print(f"{format_number(value, args.digits)} {unit}" if value is not None else as_text(expr))
        for note in notes:
            print(f"note: {note}", file=sys.stderr)
    for line in explained:
        print(line)
    return 0
