"""``patternalg profile FILE... --param SOURCE[=SYMBOL]``: a real application's profiles as a
term you can redesign, every atom fitted, and the per-node check (docs/profiles.md)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import TYPE_CHECKING

from .._internal.atomic_write import atomic_writer, same_destination
from .._internal.limits import printable
from ..errors import PatternalgError
from .common import (
    LeftOut,
    add_format_option,
    add_nonpositive_option,
    check_output,
    interval_option,
    note,
    print_json,
)
from .progress import progress

if TYPE_CHECKING:
    from ..profiles import Profile, ProfileTerm


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="profiles of one program, one run each: Caliper .cali or JSON, cProfile .pstats, "
        "Score-P .cubex (a directory: the profiles in it)",
    )
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        required=True,
        metavar="SOURCE[=SYMBOL]",
        help="the runs' parameter: a metadata key (mpi.world.size=p), else the number after "
        "SOURCE in the file name (n: nx_n4000_r1.pstats); the model's symbol is SYMBOL, by "
        "default SOURCE; runs at equal values are repetitions",
    )
    parser.add_argument(
        "--metric",
        help="the metric: 'Avg time/rank' by default where there are several, 'Max time/rank' "
        "for the slowest rank; cProfile's is time",
    )
    parser.add_argument(
        "--pool",
        action="append",
        default=[],
        metavar="PATH=N",
        help="the region PATH (an atom's name, or a/b/c) runs N threads: tpool_N of its per-thread work",
    )
    parser.add_argument(
        "--min-share",
        type=float,
        default=0.001,
        metavar="S",
        help="fold nodes below this share of the root into their parent's own time (default 0.001)",
    )
    parser.add_argument("--out", metavar="TOML", help="write the atoms' models to this model file")
    parser.add_argument("--term-out", metavar="FILE", help="write the term to this file (@FILE for eval, compare, ...)")
    parser.add_argument(
        "--at",
        action="append",
        default=[],
        metavar="SYMBOL=VALUE",
        help="also check every node at this point beyond the runs, e.g. p=1000",
    )
    parser.add_argument(
        "--interval",
        metavar="LEVEL",
        help="the level of the intervals (default 0.9): the atoms' uncertainty drawn through each node",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the intervals' draws")
    add_nonpositive_option(parser)
    add_format_option(parser, ("text", "json", "csv"))


def _pools(texts: list[str]) -> dict[str, int]:
    """``--pool PATH=N``: N threads, a whole number a double holds (the arithmetic's
    numbers: 8, 8.0, 2^3; not the digits of other scripts)."""
    from ..algebra.bindings import parse_value

    pools: dict[str, int] = {}
    for text in texts:
        where, sep, count = text.rpartition("=")
        try:
            value = parse_value(count) if sep and count.strip() else None
        except PatternalgError:
            value = None
        if not where.strip() or value is None or not (value.is_Integer and 1 <= value < 2**53):
            raise PatternalgError(
                f"--pool {printable(text)}: expected PATH=N with N threads, a whole number from 1 "
                "to 2^53, e.g. --pool main.solve=8"
            )
        if where.strip() in pools:
            raise PatternalgError(f"--pool {printable(where.strip())}: the path is given twice; give each region once")
        pools[where.strip()] = int(value)
    return pools


def _point(texts: list[str]) -> dict[str, float] | None:
    from ..algebra.bindings import collect_bindings
    from ..evidence.profile_check import positive_number

    if not texts:
        return None
    point = {}
    for name, value in collect_bindings(texts).items():
        number = positive_number(value)
        if number is None:
            raise PatternalgError(f"--at {name}: a positive number, e.g. --at {name}=1000")
        point[name] = number
    return point


def run(args: argparse.Namespace) -> int:
    from ..profiles import read_profiles

    if not 0 <= args.min_share < 1:
        raise PatternalgError(f"--min-share {args.min_share:g}: a share of the root from 0 to below 1, e.g. 0.001")
    pools, at = _pools(args.pool), _point(args.at)
    level = interval_option(args) or 0.9
    for path in (args.out, args.term_out):
        if path is not None:
            check_output(args, path)  # before the work, not after it
    if args.out is not None and args.term_out is not None and same_destination(args.out, args.term_out):
        raise PatternalgError(f"--out and --term-out name the same file {args.out}")
    left = LeftOut("the other runs are modelled")  # each said after the result (or the error)
    with progress(args, "reading", "profiles") as bar:
        profiles = _with_params(read_profiles(args.files, args.metric, bar, left.append), args.param, left)
    left.unless(profiles)  # no run left: the first one's error, as one run's
    try:
        _modelled(args, profiles, pools, at, level)
    except PatternalgError:
        left.say("the rest cannot be modelled either")  # they may be why
        raise
    left.say()
    return 0


def _modelled(
    args: argparse.Namespace, profiles: list[Profile], pools: dict[str, int], at: dict[str, float] | None, level: float
) -> None:
    """Model ``profiles``, write the files asked for and print the check of every node."""
    from ..evidence.profile_check import check_profile
    from ..profiles import CallTree, fit_profile, profile_term

    tree = CallTree.of(profiles, args.param)
    built = profile_term(tree, min_share=args.min_share, pools=pools)
    with progress(args, "fitting", "call paths") as bar:
        fitted = fit_profile(built, progress=bar, allow_nonpositive=args.allow_nonpositive)
    check = check_profile(fitted, at=at, level=level, seed=args.seed)
    with contextlib.ExitStack() as stack:  # both files, or neither
        if args.out is not None:
            stack.enter_context(atomic_writer(args.out)).write(fitted.model_file())
        if args.term_out is not None:
            stack.enter_context(atomic_writer(args.term_out)).write(_term_file(built))
    for text in check.notes:
        note(args, text)
    if args.format == "json":
        print_json(check.to_json())
    elif args.format == "csv":
        sys.stdout.write(check.to_csv())
    else:
        sys.stdout.write(check.text())


def _with_params(profiles: list[Profile], params: list[str], left: LeftOut) -> list[Profile]:
    """The profiles whose parameters can be read; each other is ``left`` out."""
    from ..profiles.params import params_of

    chosen = params_of(params)
    kept = []
    for profile in profiles:
        try:
            for param in chosen:
                param.value(profile)
        except PatternalgError as error:
            left.append(error)
        else:
            kept.append(profile)
    return kept


def _term_file(built: ProfileTerm) -> str:
    """The term file: a comment saying what it is, then the term, one node a line."""
    tree = built.tree
    head = (
        f"# the call tree of {len(tree.runs)} profiled runs ({tree.metric}, {tree.unit}) over "
        f"{', '.join(tree.parameters)}: each node is seq(its own time, its children)\n"
    )
    return head + built.text()
