"""``patternalg laws``: check the built-in laws and print a table of verdicts.

The options and the output are shared with ``patternalg check`` (one law of your own).
"""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .._internal.limits import MAX_EXAMPLES, printable
from .._internal.options import Option
from ..algebra.semantics import Semantics
from ..errors import EvaluationError, Location, PatternalgError
from .common import (
    add_format_option,
    add_library_options,
    add_machine_options,
    load_library,
    note,
    print_json,
    private_hypothesis_home,
    semantics_option,
)
from .flags import add_option, check_options
from .progress import progress

if TYPE_CHECKING:  # the checker imports hypothesis: only the commands that check load it
    from ..laws.checker import CheckResult, Law
    from ..library.model_library import ModelLibrary

HEADERS = ("id", "law", "semantics", "status", "counterexample", "time")
#: a law longer than this is shown with its middle elided (``--format json`` has it whole)
_LAW_SHOWN = 100
#: the search budget, declared and checked as the families' fit options are
EXAMPLES = Option(
    "examples",
    100,
    "counterexample search budget per law and semantics (default 100)",
    type=int,
    minimum=1,
    maximum=MAX_EXAMPLES,
    metavar="N",
    error=EvaluationError,
)


def add_check_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``laws`` and ``check``."""
    add_library_options(parser)
    parser.add_argument(
        "--semantics",
        choices=[*Semantics.names(), "both"],
        default=None,
        help="how pipe picks its bottleneck; 'both' checks each law under the paper's two, "
        "asymptotic and exact (default; with --machine/--cores: machine)",
    )
    add_machine_options(parser)
    parser.add_argument(
        "--in-context",
        action="store_true",
        help="check each law inside a pool and a seq and a pipe beside any term too (a law of "
        "the machine semantics compares whole terms: it need not hold inside a larger one)",
    )
    add_option(parser, EXAMPLES)
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar="S",
        help="seed of the search; the same seed gives the same output (default: random, printed)",
    )
    add_format_option(parser)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_check_options(parser)


def verdict(result: CheckResult) -> str:
    """The status as a reader should take it: a search that found nothing says so.

    >>> from patternalg.laws.checker import CheckResult, parse_law
    >>> from patternalg.algebra.operators import Semantics
    >>> verdict(CheckResult(parse_law("A == A"), Semantics.EXACT, "no-counterexample", None, 7, 0))
    'no counterexample in 7 examples'
    """
    if result.status == "no-counterexample":
        return f"no counterexample in {result.examples} examples"
    return result.status


def table(results: Sequence[CheckResult]) -> list[str]:
    """The text table: id, law, semantics, status, counterexample, time.

    >>> from patternalg.laws.checker import CheckResult, parse_law
    >>> from patternalg.algebra.operators import Semantics
    >>> r = CheckResult(parse_law("A == A"), Semantics.EXACT, "proved", None, 0, 0.004)
    >>> for line in table([r]): print(line.rstrip())
    id  law     semantics  status  counterexample  time
    -   A == A  exact      proved  -               0.00s
    """
    rows = [
        (
            r.law.id or "-",
            printable(str(r.law), _LAW_SHOWN),
            r.semantics.value,
            verdict(r),
            str(r.counterexample) if r.counterexample is not None else "-",
            f"{r.seconds:.2f}s",
        )
        for r in results
    ]
    widths = [max(len(row[i]) for row in [HEADERS, *rows]) for i in range(len(HEADERS))]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True))
        for row in [HEADERS, *rows]
    ]


def _validate(law: Law, library: ModelLibrary, path: str | None) -> None:
    """:func:`~patternalg.laws.language.validate` ``law``; the error of a law of the file
    ``path`` names the file, the law's line and its name (``m.laws:2: bad: unknown atom ...``)."""
    from ..laws.checker import validate

    try:
        validate(law, library)
    except PatternalgError as error:
        if path is not None and law.line and error.location is None:
            error.location = Location(path, law.line, key=law.id)
        raise


def run_checks(laws: Sequence[Law], args: argparse.Namespace) -> int:
    """Check ``laws`` as the options say, print the verdicts, return the exit status."""
    from ..laws.checker import check

    check_options(args, [EXAMPLES])
    private_hypothesis_home()
    library = load_library(args)
    text = getattr(args, "law", "")  # check's LAW: '@FILE' or '-' reads a file of laws
    path = "standard input" if text == "-" else text[1:] if text.startswith("@") else None
    for law in laws:  # unknown atoms are bad input: fail before any work
        _validate(law, library, path)
    if args.in_context:
        from ..laws.contexts import in_contexts

        laws = [each for law in laws for each in (law, *in_contexts(law))]
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    both = [Semantics.ASYMPTOTIC, Semantics.EXACT]
    if args.semantics in (None, "both") and args.machine is None and args.cores is None:
        semantics = both
    else:
        if args.semantics == "both":
            args.semantics = None  # with a machine: its semantics
        semantics = [semantics_option(args)]
    pairs = [(law, s) for law in laws for s in semantics]
    total = len(pairs) * args.examples
    results: list[CheckResult] = []
    with progress(args, "checking", "examples") as bar:
        for law, s in pairs:
            before = len(results) * args.examples

            def advance(done: int, _: int, before: int = before) -> None:
                bar(before + done, total)

            results.append(
                check(law, library, s, examples=args.examples, seed=seed, progress=advance)
            )
            bar(len(results) * args.examples, total)
    if any(not r.semantics.compositional and r.status != "refuted" and r.law.metavariables() for r in results):
        inside = ("--in-context checked each inside a pool, a seq and a pipe; deeper terms may differ"
                  if args.in_context else "one that holds need not hold inside a larger term, whose cores "
                  "and pools its sides share; --in-context checks it inside some")  # fmt: skip
        note(args, f"under the machine semantics a law compares whole terms: {inside} (docs/laws.md)")
    if args.format == "json":
        print_json([{**r.to_json(), "seed": seed} for r in results])
    else:
        for line in table(results):
            print(line.rstrip())
        print(
            f"(seed {seed}, up to {args.examples} examples per law and semantics;"
            f" rerun with --seed {seed} to reproduce)"
        )
    return 1 if any(r.status == "refuted" for r in results) else 0


def run(args: argparse.Namespace) -> int:
    from ..laws.checker import BUILTIN_LAWS

    return run_checks(BUILTIN_LAWS, args)
