"""``patternalg models [PATTERN ...]``: list the model library (name, model, unit, source),
with each fitted model's measured ranges, fit statistics and coefficients' 90 % intervals;
patterns filter by name."""

from __future__ import annotations

import argparse
import fnmatch
import os
from typing import Any

from .._internal.limits import printable
from ..errors import ModelFileError, UnknownAtomError, close_names
from ..forms import model_text, uncertain_form
from ..syntax.arith import format_expr, shown_text
from .common import add_format_option, add_library_options, load_library, print_json
from .quality import quality_line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "patterns",
        nargs="*",
        metavar="PATTERN",
        help="names or glob patterns to list, e.g. 'parsec_*' (default: all)",
    )
    add_library_options(parser)
    add_format_option(parser)


def _selected(names: list[str], patterns: list[str]) -> list[str]:
    if not patterns:
        return names
    chosen = [n for n in names if any(fnmatch.fnmatchcase(n, p) for p in patterns)]
    for pattern in patterns:
        if not any(fnmatch.fnmatchcase(n, pattern) for n in names):
            if pattern.endswith(".toml") or os.path.isfile(pattern):  # a model file given as a pattern
                raise ModelFileError(
                    f"no model matches '{printable(pattern)}', a file's name: list the models of a file "
                    f"with --models {printable(pattern)}"
                )
            raise UnknownAtomError(pattern, close_names(pattern, names, n=3), pattern=True)
    return chosen


def run(args: argparse.Namespace) -> int:
    library = load_library(args)
    names = _selected(sorted(library), args.patterns)
    rows, shown, shown_intervals = [], {}, {}
    as_json = args.format == "json"
    for name in names:
        model = library[name]
        shown[name] = shown_text(model_text(model))
        row: dict[str, Any] = {
            "name": name,
            "form": model.form,
            # the closed form printed by sympy only where it is shown (JSON)
            "model": format_expr(model.expr) if as_json else shown[name],
            "unit": model.unit,
            "source": model.source,
        }
        if model.domain:
            row["domain"] = {key: [lo, hi] for key, (lo, hi) in model.domain}
        if model.fit:
            row["statistics"] = dict(model.fit)
        form = uncertain_form(model)
        if form is not None:
            row["uncertainty"] = form.record()["uncertainty"]
            shown_intervals[name] = form.interval_text()
        rows.append(row)
    if as_json:
        print_json(rows)
        return 0
    if not rows:
        print("(no models)")
        return 0
    width_name = max(len(r["name"]) for r in rows)
    width_model = min(48, max(len(shown[r["name"]]) for r in rows))
    for r in rows:
        text = shown[r["name"]]
        print(f"{r['name']:<{width_name}}  {text:<{width_model}}  {r['unit']:<3}  {r['source']}")
        quality = quality_line(library[r["name"]])
        if quality:
            print(f"{'':<{width_name}}  {quality}")
        if r["name"] in shown_intervals:
            print(f"{'':<{width_name}}  {shown_intervals[r['name']]}")
    return 0
