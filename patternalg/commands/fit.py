"""``patternalg fit FILE --form FORM``: atomic models from measurements, one command for all forms."""

from __future__ import annotations

import argparse

from ..forms import fit_file
from ..library import ModelLibrary
from ..quality import quality_line
from .common import add_format_option, print_json

FITTABLE = ("pmnf", "amdahl", "memwall", "presca")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", metavar="FILE", help="measurements (CSV, Extra-P text/JSON, TaLPas); - for stdin"
    )
    parser.add_argument(
        "--form", choices=FITTABLE, default="pmnf", help="model family (default pmnf)"
    )
    parser.add_argument("--out", metavar="TOML", help="write the fitted models to this model file")
    add_format_option(parser)
    parser.add_argument("--metric", help="the value column or metric to fit")
    parser.add_argument(
        "--allow-nonpositive",
        action="store_true",
        help="fit zero or negative times with a warning (default: an error naming the line)",
    )
    pmnf = parser.add_argument_group("pmnf (Extra-P normal form)")
    pmnf.add_argument("--modeler", choices=("default", "basic"), default="default")
    pmnf.add_argument("--aggregate", choices=("mean", "median", "min", "max"))
    pmnf.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=SYMBOL",
        help="map a file's parameter to a symbol (default: the single parameter becomes x)",
    )
    pmnf.add_argument(
        "--input-format",
        choices=("text", "json", "jsonl", "talpas", "csv"),
        help="format of FILE (default: from its extension and first line)",
    )
    parser.add_argument(
        "--unit",
        help="unit of the measured values, e.g. us, ms, s (default: the value column's, "
        "as in time_ms or runtime[s]; else ns for a time)",
    )
    amdahl = parser.add_argument_group("amdahl (extended Amdahl model)")
    amdahl.add_argument("--degree", type=int, default=None, help="degree of the T_seq polynomial")
    amdahl.add_argument(
        "--alpha", choices=("highest", "mean", "clamped-mean", "joint"), default=None
    )
    memwall = parser.add_argument_group("memwall (memory-wall speedup model)")
    memwall.add_argument("--seed", type=int, default=None, help="seed of the annealing")
    memwall.add_argument("--iterations", type=int, default=None, help="annealing iteration budget")


def run(args: argparse.Namespace) -> int:
    reports = fit_file(args.form, args.file, args)
    if args.format == "json":
        print_json([dict(r.record) for r in reports])
    else:
        for report in reports:
            print(f"{report.summary}  [{report.model.unit}]")
            quality = quality_line(report.model)
            if quality:
                print(f"  {quality}")
    if args.out:
        ModelLibrary([r.model for r in reports]).save(args.out)
    return 0
