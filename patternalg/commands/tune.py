"""``patternalg tune FILE``: simulate OPreSca and Binsearch on a measured table (Tables 2-3)."""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import asdict
from typing import Any

from .._internal.limits import MAX_TUNER_RUNS
from .._internal.options import Option
from ..errors import Location, PatternalgError
from .common import LeftOut, print_json
from .flags import add_option, check_options
from .predict import _one_or_all, add_performance_options
from .progress import progress

#: tune's numbers, declared and checked as the families' fit options are
NUMBERS = (
    Option(
        "seed",
        0,
        "seed of the first random run (default 0)",
        type=int,
        minimum=0,
        error=PatternalgError,
    ),
    Option(
        "runs",
        10,
        "random runs averaged with --init random (default 10)",
        type=int,
        minimum=1,
        maximum=MAX_TUNER_RUNS,
        metavar="R",
        error=PatternalgError,
    ),
    Option(
        "max_threads",
        None,
        "choose among the table's counts up to N (default all)",
        type=int,
        minimum=1,
        metavar="N",
        error=PatternalgError,
    ),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_performance_options(parser)
    parser.add_argument(
        "--init",
        default="random",
        metavar="random|N,N,N",
        help="initial thread counts of OPreSca (default random)",
    )
    for option in NUMBERS:
        add_option(parser, option)


def _init(text: str) -> list[int] | None:
    if text.strip().lower() == "random":
        return None
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise PatternalgError(
            f"--init: expected 'random' or thread counts like 12,24,36, got {text!r}"
        ) from None
    return counts


def _row(chosen: int, scores: Any) -> dict[str, Any]:
    return {"chosen": chosen, **{k: float(v) for k, v in asdict(scores).items()}}


def _where(path: str, workload: Any) -> Location:
    return Location(path, key=f"workload {workload.name}")


def tune_workload(workload: Any, args: argparse.Namespace, init: list[int] | None) -> dict[str, Any]:
    """The JSON record of OPreSca and Binsearch on one workload (``init``: ``--init``'s
    counts, None for random)."""
    from ..forms.presca.tuning import INITIAL_STEPS, mean_scores, run_binsearch, run_opresca, score

    table = {
        n: v
        for n, v in workload.table().items()
        if args.max_threads is None or n <= args.max_threads
    }
    if len(table) < INITIAL_STEPS:
        raise PatternalgError(
            f"the tuners need at least {INITIAL_STEPS} thread counts (up to --max-threads), got {len(table)}",
            location=_where(args.file, workload),
        )
    better = workload.higher_is_better
    seeds = [args.seed] if init is not None else [args.seed + i for i in range(args.runs)]
    try:
        runs = [run_opresca(table, better, init=init, seed=seed) for seed in seeds]
    except PatternalgError as exc:
        raise PatternalgError(str(exc), location=_where(args.file, workload)) from None
    chosen = Counter(r.chosen for r in runs).most_common()
    mode = min(n for n, c in chosen if c == chosen[0][1])
    baseline = run_binsearch(table, better)
    return {
        "workload": workload.name,
        "init": "random" if init is None else init,
        "runs": len(runs),
        "opresca": _row(mode, mean_scores(score(r, table, better) for r in runs)),
        "binsearch": _row(baseline.chosen, score(baseline, table, better)),
    }


def run(args: argparse.Namespace) -> int:
    from ..forms.presca import read_performance
    from ..forms.presca.workloads import thread_column

    check_options(args, NUMBERS)  # before the file is read
    threads = thread_column(args.param)
    init = _init(args.init)
    left = LeftOut("the other workloads are tuned")
    workloads = read_performance(
        args.file, args.metric, args.higher_is_better, threads, on_error=left.append
    )
    records = []
    with progress(args, "tuning", "workloads") as bar:
        for workload in bar.iterate(workloads, len(workloads)):
            try:
                records.append(tune_workload(workload, args, init))
            except PatternalgError as error:
                left.append(error)
    left.unless(records)  # nothing tuned: the first workload's error, as one workload's
    if args.format == "json":
        print_json(_one_or_all(records))
    else:
        _print_table(records)
    left.say()
    return 0


def _print_table(records: list[dict[str, Any]]) -> None:
    """One line per workload and tuner: its choice and scores."""
    header = ("workload", "tuner", "chosen", "E", "S", "E_S", "S_E>10%")
    print("{:<16} {:<10} {:>6} {:>7} {:>6} {:>7} {:>8}".format(*header))
    for record in records:
        for tuner, label in (("opresca", "OPreSca"), ("binsearch", "Binsearch")):
            row = record[tuner]
            print(
                f"{record['workload']:<16} {label:<10} {row['chosen']:>6d} {row['E']:>7.3f} "
                f"{row['S']:>6.2f} {row['E_S']:>7.3f} {row['S_E_gt_10']:>8.2f}"
            )
