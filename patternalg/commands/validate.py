"""``patternalg validate MEASURED... --models M``: do the models predict the measurements?

Every series of the files whose name is a term (``pipe(qsort, inc)``, an atom) is predicted
from the models at every measured point and compared with the median of its repetitions:
error = (predicted - measured) / measured (paper 001). Text: a table per term and the
summary; ``--format csv``: one row per term and point (``term``, the parameters, ``predicted``,
``measured``, ``error``); ``--format json``: the rows, the summary per term and overall.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import Any

from .._internal.atomic_write import write_text_atomic
from ..algebra.semantics import Semantics
from ..errors import ModelFileError
from ..library.model_library import ModelLibrary
from ..measurements.model import Aggregation
from .common import (
    INPUT_FORMATS,
    LeftOut,
    add_digits_option,
    add_format_option,
    add_interval_options,
    add_machine_options,
    add_parameters_option,
    check_output,
    interval_option,
    json_text,
    note,
    seed_option,
    semantics_option,
    with_option_notes,
)

__all__ = ["add_arguments", "run", "semantics", "models", "validated"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "measured",
        nargs="+",
        metavar="MEASURED",
        help="measurements whose regions are named by terms (CSV, Extra-P text/JSON, TaLPas, "
        "JSON of Google Benchmark, hyperfine or pytest-benchmark, a directory of Cube files)",
    )
    parser.add_argument(
        "--models",
        action="append",
        default=[],
        metavar="FILE",
        help="the model file to validate (as fit --out writes it); repeatable, later files "
        "override earlier ones; without it, the built-in models",
    )
    parser.add_argument(
        "--builtin",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="with --models: the built-in models too, under the files (by default a term "
        "whose atom the files lack is skipped; --no-builtin says so, as other commands take it)",
    )
    parser.add_argument(
        "--semantics",
        choices=Semantics.names(),
        default=None,
        help="how the operators combine (default exact: a value at a size is the model's value "
        "there; with --machine/--cores: machine, and the rules beside it)",
    )
    add_machine_options(parser)
    add_interval_options(parser)
    parser.add_argument(
        "--aggregate",
        choices=[a.value for a in Aggregation],
        default="median",
        help="how the repetitions of a point become the measured value (default median)",
    )
    add_format_option(parser, ("text", "json", "csv"))
    parser.add_argument("--out", metavar="FILE", help="write the output (in --format) to FILE (- : stdout)")
    parser.add_argument("--metric", help="the value column or metric to validate")
    add_parameters_option(parser)
    parser.add_argument(
        "--input-format",
        choices=("cube", *INPUT_FORMATS),
        help="format of the files (default: from each one's extension and first line)",
    )
    add_digits_option(
        parser,
        "significant digits of predicted and measured values in text and CSV (1-17; default "
        "15: no float noise; JSON holds the doubles)",
    )


def semantics(args: argparse.Namespace) -> tuple[Semantics, Semantics | None]:
    """The semantics to validate under and the one reported beside it for comparison: the
    one place the command chooses them (the rules, ``exact``, beside any other: a
    machine's, from ``--machine``/``--cores``)."""
    chosen = semantics_option(args, "exact")
    return chosen, (None if chosen is Semantics.EXACT else Semantics.EXACT)


def models(args: argparse.Namespace) -> ModelLibrary:
    """The --models files alone (with --builtin: over the built-ins); none: the built-ins
    (``--no-builtin`` without --models is an error: nothing would be validated)."""
    builtin = False if getattr(args, "no_builtin", False) else getattr(args, "builtin", None)
    if builtin is False and not args.models:
        raise ModelFileError("--no-builtin without --models: no models to validate (give --models FILE)")
    return ModelLibrary.load(args.models, builtin=bool(builtin) or not args.models)


def validated(args: argparse.Namespace, files: list[str], left: LeftOut) -> Any:
    """The validation of ``files`` the options ask for (``validate`` and ``plot --validate``),
    its notes saying where the models came from if no --models was given; the series a
    reader left out (a value that is no number) go to ``left``."""
    from ..evidence.validation import validate
    from ..measurements import read

    data = [read(path, args.input_format, metric=args.metric, parameters=args.parameters) for path in files]
    main, rules = semantics(args)
    aggregate = getattr(args, "aggregate", None) or "median"  # plot: its fit option, None
    level = interval_option(args)
    extra: dict[str, Any] = {"interval": level, "seed": seed_option(args)} if level is not None else {}
    result = validate(data, models(args), semantics=main, rules=rules, aggregate=aggregate, on_error=left.append, **extra)
    if args.models:
        return result
    return replace(result, notes=("no --models: validating the built-in models", *result.notes))


def _output(args: argparse.Namespace, result: Any) -> str:
    if args.format == "json":
        return json_text(with_option_notes(result.to_json(), args)) + "\n"
    if args.format == "csv":
        return str(result.to_csv(args.digits))
    return "".join(line + "\n" for line in result.lines(args.digits))


def run(args: argparse.Namespace) -> int:
    if args.out == "-":  # FILE '-' is stdin, --out '-' stdout
        args.out = None
    if args.out is not None:  # before the work; none of the files read may be replaced
        check_output(args, args.out)
    left = LeftOut("the other series are validated")
    result = validated(args, args.measured, left)
    text = _output(args, result)
    if args.out is None:
        sys.stdout.write(text)
    else:
        write_text_atomic(args.out, text)
        if args.format != "text":
            sys.stdout.write("".join(line + "\n" for line in result.summary_text()))
    if args.format != "json":  # JSON holds its notes
        for line in result.notes:
            note(args, line)
    left.say()
    return 0
