"""``patternalg predict FILE [--upto N]``: PreSca's performance function of a measured workload.

Its PreSca options (``--upto``, ``--checkpoints``, ``--interpolate``, ``--unit``) are the
family's fit options, declared once for ``fit --form presca``, ``plot --fit`` and here."""

from __future__ import annotations

import argparse
from typing import Any

from ..forms import form_class
from ..library.model_library import ModelLibrary
from .common import (
    LeftOut,
    add_digits_option,
    add_format_option,
    check_output,
    print_json,
    print_notes,
)
from .flags import add_family_options, family_options
from .progress import progress


def add_performance_options(parser: argparse.ArgumentParser) -> None:
    """``--metric``, ``--param`` and the direction of "better" (shared with ``tune``)."""
    parser.add_argument(
        "file",
        metavar="FILE",
        help="measurements with a thread column and a value column (CSV, Extra-P text, JSON, "
        "JSON Lines, TaLPas: read as fit reads them); - for stdin",
    )
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=p",
        help="the column of thread counts (default: p, else the first column)",
    )
    parser.add_argument(
        "--metric",
        metavar="NAME",
        help="the value column (default: each column named like a value, a workload each)",
    )
    direction = parser.add_mutually_exclusive_group()
    direction.add_argument(
        "--higher-is-better",
        dest="higher_is_better",
        action="store_const",
        const=True,
        default=None,
        help="a higher value is better",
    )
    direction.add_argument(
        "--lower-is-better",
        dest="higher_is_better",
        action="store_const",
        const=False,
        help="a lower value is better",
    )
    direction.add_argument(
        "--better",
        dest="higher_is_better",
        type=_higher,
        metavar="higher|lower",
        help="the same as fit --form presca says it",
    )
    add_format_option(parser)


def _higher(text: str) -> bool:
    """``--better higher`` or ``--better lower``: whether a higher value is better."""
    if text not in ("higher", "lower"):
        raise argparse.ArgumentTypeError(f"expected higher or lower, got {text!r}")
    return text == "higher"


#: PreSca's fit options that ``predict`` takes its own way: ``--param`` and the direction
#: flags of :func:`add_performance_options` (shared with ``tune``)
_OWN = frozenset({"param", "better"})


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_performance_options(parser)
    # --upto, --checkpoints, --interpolate, --unit: as fit --form presca declares them
    add_family_options(parser, [form_class("presca")], skip=_OWN)
    parser.add_argument("--out", metavar="TOML", help="write the models to this model file")
    add_digits_option(
        parser, "significant digits of the predicted values in text (1-17; default 15)"
    )


def _one_or_all(records: list[dict[str, Any]]) -> Any:
    return records[0] if len(records) == 1 else records


def run(args: argparse.Namespace) -> int:
    from ..forms.presca import predict_file

    # given as fit's options, checked by predict_file as fit's are
    options = family_options(form_class("presca"), args, skip=_OWN)
    if args.out is not None:
        check_output(args, args.out)  # before the work, not after it
    left = LeftOut("the other workloads are predicted")
    with progress(args, "predicting", "workloads") as bar:
        reports = predict_file(
            args.file,
            metric=args.metric,
            higher_is_better=args.higher_is_better,
            param=args.param,
            progress=bar,
            on_error=left.append,
            **options,
        )
    left.unless(reports)  # nothing predicted: the first workload's error, as one workload's
    print_notes(args, reports)
    if args.out is not None:  # written before anything is printed as a result
        ModelLibrary([r.model for r in reports]).save(args.out)
    if args.format == "json":
        print_json(_one_or_all([{**r.record, "unit": r.model.unit} for r in reports]))
    else:
        for report in reports:
            for line in report.lines(args.digits):
                print(line)
    left.say()
    return 0
