"""``patternalg models``: list the model library (name, model, unit, source)."""

from __future__ import annotations

import argparse

from ..arith import format_expr
from .common import add_format_option, add_library_options, load_library, print_json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_library_options(parser)
    add_format_option(parser)


def run(args: argparse.Namespace) -> int:
    library = load_library(args)
    rows = [
        {
            "name": name,
            "form": model.form,
            "model": format_expr(model.expr),
            "unit": model.unit,
            "source": model.source,
        }
        for name, model in sorted(library.items())
    ]
    if args.format == "json":
        print_json(rows)
        return 0
    if not rows:
        print("(no models)")
        return 0
    width_name = max(len(r["name"]) for r in rows)
    width_model = min(48, max(len(r["model"]) for r in rows))
    for r in rows:
        print(
            f"{r['name']:<{width_name}}  {r['model']:<{width_model}}  {r['unit']:<3}  {r['source']}"
        )
    return 0
