"""Options and helpers shared by several sub-commands."""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence, Sized
from pathlib import Path
from typing import Any

from .._internal.atomic_write import check_writable
from .._internal.display import MAX_DIGITS
from .._internal.json_values import finite_json
from .._internal.limits import MAX_CORES, MAX_MESSAGE, printable
from .._internal.reading import read_text
from ..errors import ArgumentError, PatternalgError, reason
from ..library.model_library import ModelLibrary
from .progress import quiet

__all__ = [
    "add_library_options",
    "load_library",
    "add_format_option",
    "add_parameters_option",
    "add_unit_option",
    "unit_option",
    "print_json",
    "json_text",
    "read_text_argument",
    "note",
    "notes_once",
    "print_notes",
    "private_hypothesis_home",
    "check_output",
    "add_machine_options",
    "semantics_option",
    "machine_option",
    "add_interval_options",
    "interval_option",
    "seed_option",
    "LeftOut",
    "INPUT_FORMATS",
]

#: the input formats of benchmark harnesses (keys of ``measurements.READERS``, which
#: loads numpy: a test checks that they agree)
HARNESSES = (
    "gbench",
    "gbench-csv",
    "gbench-console",
    "hyperfine",
    "hyperfine-csv",
    "pytest-benchmark",
    "pytest-benchmark-csv",
    "pytest-benchmark-console",
)
#: the formats of a measurement file (``--input-format``; a directory of Cube profiles, "cube",
#: is one more where a command reads it)
INPUT_FORMATS = ("text", "json", "jsonl", "talpas", "csv", "extra-p", *HARNESSES)


def add_library_options(parser: argparse.ArgumentParser) -> None:
    """``--models FILE`` (repeatable) and ``--no-builtin``."""
    parser.add_argument(
        "--models",
        action="append",
        default=[],
        metavar="FILE",
        help="a TOML model file; repeatable, later files override earlier ones",
    )
    parser.add_argument("--no-builtin", action="store_true", help="do not load the built-in models")


def load_library(args: argparse.Namespace) -> ModelLibrary:
    """The library the options ask for; a note on stderr for each built-in a file replaces."""
    builtin = set() if args.no_builtin else set(ModelLibrary.builtin())
    library = ModelLibrary() if args.no_builtin else ModelLibrary.builtin()
    for path in args.models:
        models = ModelLibrary.from_file(path)
        replaced = sorted(builtin & set(models))
        if replaced:
            names = ", ".join(printable(name) for name in replaced)
            note(args, f"{printable(str(path), 240)} replaces the built-in model(s) {names}")
        library = library.merged(models)
    return library


def add_format_option(
    parser: argparse.ArgumentParser, choices: tuple[str, ...] = ("text", "json")
) -> None:
    """``--format``."""
    parser.add_argument("--format", choices=choices, default=choices[0], help="output format")


def add_model_options(
    parser: argparse.ArgumentParser, *, at_help: str, formats: Sequence[str] = ()
) -> None:
    """``--at SYMBOL=VALUE`` (repeatable), the library options, ``--unit`` and, given
    ``formats``, ``--format``: what every command that evaluates models takes."""
    parser.add_argument("--at", action="append", default=[], metavar="SYMBOL=VALUE", help=at_help)
    add_library_options(parser)
    add_unit_option(parser)
    add_machine_options(parser)
    if formats:
        add_format_option(parser, tuple(formats))


def add_machine_options(parser: argparse.ArgumentParser) -> None:
    """``--machine FILE`` and ``--cores N``: evaluate under the machine semantics."""
    group = parser.add_argument_group("machine (the machine semantics: docs/machine.md)")
    group.add_argument(
        "--machine",
        metavar="FILE",
        help="a machine file (TOML, as `patternalg calibrate --out` writes it): cores, "
        "pipeline hand-off, speed-ups; implies --semantics machine",
    )
    group.add_argument(
        "--cores",
        metavar="N",
        help="the machine's cores (alone: a machine of N cores and no hand-off; with "
        "--machine: replaces its cores); implies --semantics machine",
    )


def whole_number(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum``.

    >>> whole_number(0)("3"), whole_number(1)("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be at least 1, got 0
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a whole number, got {printable(repr(text))}"
            ) from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse


#: the seed of an interval's draws where none is given
DEFAULT_SEED = 0


def add_interval_options(parser: argparse.ArgumentParser, seed: bool = True) -> None:
    """``--interval LEVEL`` and ``--seed S``: how sure the answer is (docs/uncertainty.md);
    ``seed=False`` where the command's ``--seed`` is declared elsewhere (``plot``: a fit's)."""
    parser.add_argument(
        "--interval",
        metavar="LEVEL",
        help="also give the central LEVEL interval (e.g. 0.9) of what a measurement would show: "
        "the atoms' fitted uncertainty drawn jointly through the term (docs/uncertainty.md)"
        + ("" if seed else f"; --seed S seeds its draws (default {DEFAULT_SEED})"),
    )
    if seed:
        parser.add_argument(
            "--seed",
            type=whole_number(0),
            default=DEFAULT_SEED,
            metavar="S",
            help=f"seed of the interval's draws, a whole number >= 0 (default {DEFAULT_SEED}: "
            "the same output every run)",
        )


def seed_option(args: argparse.Namespace) -> int:
    """The ``--seed`` of an interval's draws: as given, else :data:`DEFAULT_SEED` (a
    command whose ``--seed`` is another option's, ``plot``'s, leaves it None)."""
    seed = getattr(args, "seed", None)
    return DEFAULT_SEED if seed is None else int(seed)


def interval_option(args: argparse.Namespace) -> float | None:
    """The ``--interval`` level given (checked as the library checks it:
    :func:`~patternalg.algebra.intervals.check_level`), or None."""
    text = getattr(args, "interval", None)
    if text is None:
        return None  # numpy not loaded for nothing (a point answer needs none)
    from ..algebra.intervals import check_level

    try:
        level = float(text)
    except ValueError:
        raise PatternalgError(
            f"--interval {printable(str(text))}: a confidence level is a number, e.g. 0.9"
        ) from None
    return check_level(level, "--interval")


def machine_option(args: argparse.Namespace) -> Any:
    """The :class:`~patternalg.algebra.machine.Machine` of ``--machine``/``--cores`` (a
    note says which), or None."""
    from ..library.machines import as_machine

    if args.machine is None and args.cores is None:
        return None
    chosen = getattr(args, "semantics", None)
    if chosen not in (None, "machine"):
        raise PatternalgError(
            f"--semantics {chosen} with --machine/--cores: a machine is evaluated under the "
            "machine semantics (drop --semantics, or drop --machine/--cores)"
        )
    machine = as_machine(args.machine) if args.machine is not None else None
    if args.cores is not None:
        cores = as_machine(cores_option(args.cores))
        try:
            machine = cores if machine is None else machine.with_cores(cores.cores)
        except ArgumentError as exc:  # a speed-up of the file that is not one on so many cores
            raise PatternalgError(
                f"--cores {cores.cores} with --machine {printable(str(args.machine))}: {exc} "
                "(give fewer cores, or a speed-up that stays above 0 up to them)"
            ) from exc
    assert machine is not None  # --machine or --cores was given
    note(args, f"machine semantics: {machine.describe()}")
    return machine


def cores_option(value: object) -> int:
    """``--cores``: a whole number of cores from 1 to 1,048,576, else the one error line."""
    text = str(value)
    if not (text.isascii() and text.isdigit()) or len(text) > 12 or not 1 <= int(text) <= MAX_CORES:
        raise PatternalgError(
            f"--cores {printable(text)}: expected a whole number of cores from 1 to {MAX_CORES}"
        )
    return int(text)


def semantics_option(args: argparse.Namespace, default: str = "exact") -> Any:
    """The semantics the options ask for: ``--machine``/``--cores`` give the machine's
    (a note says which machine), else ``--semantics`` (or ``default``)."""
    from ..algebra.semantics import Semantics

    machine = machine_option(args)
    if machine is not None:
        return machine.semantics
    chosen = getattr(args, "semantics", None) or default
    semantics = Semantics.of(chosen)
    if chosen == "machine":
        described = semantics.machine.describe()  # type: ignore[attr-defined]
        note(args, f"machine semantics: this computer, {described} (--cores N to set)")
    return semantics


def add_digits_option(parser: argparse.ArgumentParser, help: str) -> None:
    """``--digits N``: significant digits of printed numbers (1-17; default: the one
    printer's, :func:`patternalg.arith.format_number`)."""
    parser.add_argument(
        "--digits", type=int, choices=range(1, MAX_DIGITS + 1), default=None, metavar="N", help=help
    )


def add_parameters_option(parser: Any) -> None:
    """``--parameters``: the parameters the measured points are over (``parser``: a parser
    or an argument group)."""
    parser.add_argument(
        "--parameters",
        metavar="NAMES",
        help="the parameters the measured points are over, separated by commas, e.g. n,p; the "
        "points that differ only in the others are repetitions of one point (default: every one "
        "the file has but one that numbers the repetitions, rep, run, iteration, ..., or says "
        "when a row was measured, timestamp, date)",
    )


def add_nonpositive_option(parser: argparse.ArgumentParser) -> None:
    """``--allow-nonpositive``, for the commands that fit times (fit, profile)."""
    parser.add_argument(
        "--allow-nonpositive",
        action="store_true",
        help="fit zero or negative times as measured (default: a 0 among positive repetitions "
        "is dropped, a point of zeros fitted as measured, a negative time an error; each noted)",
    )


def add_unit_option(parser: argparse.ArgumentParser) -> None:
    """``--unit``: the one unit every atom is converted to."""
    parser.add_argument(
        "--unit",
        metavar="UNIT",
        help="the unit of the results, e.g. us, ms, s (default: the atoms' common unit; "
        "times of different units are converted to ns)",
    )


def unit_option(args: argparse.Namespace) -> str | None:
    """The ``--unit`` given (checked: a unit pint knows), or None."""
    from ..algebra.units import check_unit

    return check_unit(args.unit, "--unit") if args.unit else None


def json_text(data: Any) -> str:
    """``data`` as indented JSON, non-finite numbers as ``null``."""
    import json  # here: eval's start-up does not need it

    return json.dumps(finite_json(data), indent=2, allow_nan=False)


def print_json(data: Any, args: argparse.Namespace | None = None) -> None:
    """Print ``data`` as indented JSON (non-finite numbers as ``null``); with ``args``, the
    notes the options gave on stderr (the machine, a model file replacing built-ins) first
    in its ``notes`` too, so that the JSON says what it was computed with."""
    sys.stdout.write(json_text(with_option_notes(data, args)) + "\n")


def with_option_notes(data: Any, args: argparse.Namespace | None) -> Any:
    """``data`` (a result's JSON) with the options' notes (:func:`note`) before its own
    ``notes``, each once; anything else as it is.

    >>> args = argparse.Namespace(quiet=True)
    >>> note(args, "machine semantics: 2 cores")
    >>> with_option_notes({"notes": ["x below 1"]}, args)
    {'notes': ['machine semantics: 2 cores', 'x below 1']}
    """
    noted = getattr(args, "_noted", None)
    if not noted or not isinstance(data, dict) or "notes" not in data:
        return data
    return {**data, "notes": list(dict.fromkeys([*noted, *data["notes"]]))}


def read_text_argument(value: str, what: str) -> str:
    """A command-line text: itself, ``-`` for stdin, or ``@FILE`` for a file's content."""
    if value != "-" and not value.startswith("@"):
        return value
    source = "standard input" if value == "-" else value[1:]
    try:
        return read_text("-" if value == "-" else value[1:])
    except OSError as exc:
        raise PatternalgError(f"cannot read {what} from {source}: {reason(exc)}") from None


#: the arguments that name files a command reads, and those that may be ``@FILE``
_READ_FILES = ("file", "files", "measured", "fit", "validate", "models", "machine")
_READ_TEXTS = ("term", "terms", "law", "optimize", "explore")


def check_output(
    args: argparse.Namespace, path: str, reading: Iterable[str | Path] = ()
) -> Path:
    """The one check of a file a command writes, before its work: a file name (not empty,
    not ``-``, not a directory, a device or a pipe), in a directory that exists, and none of
    the files the command reads: its FILE(s), ``--fit``, ``--validate``, ``--models``,
    ``--machine``, an ``@FILE`` argument, the files it reads in a directory among them,
    and ``reading``, those it reads of its own accord
    (``calibrate``: the ``machine.txt`` beside a measurement file; ``measure``: the files its
    program's arguments name). A symbolic link is written through (see
    :mod:`patternalg._internal.atomic_write`)."""
    if str(path) == "-":
        raise PatternalgError(
            "cannot write '-': this command writes a file (its output is on stdout); give a "
            "file name"
        )
    named = _values(args, _READ_FILES)
    files = [*named, *reading, *(inner for f in named if os.path.isdir(f) for inner in _inside(f))]
    texts = _values(args, _READ_TEXTS)
    files += [text[1:] for text in texts if text.startswith("@")]
    return check_writable(path, reading=[f for f in files if isinstance(f, str | Path)])


def _inside(directory: str | Path) -> list[str]:
    """The files a command reads in a directory it is given: its profiles, a Cube set's
    ``*.cubex`` (none where there are none: the reading says so)."""
    from ..profiles.read import profile_files

    try:
        return profile_files([str(directory)])
    except PatternalgError:
        return []


def _values(args: argparse.Namespace, names: Sequence[str]) -> list[str]:
    """The texts of ``args``' attributes ``names``, each one text or a list of them."""
    found: list[str] = []
    for name in names:
        value = getattr(args, name, None)
        items = value if isinstance(value, list | tuple) else [value]
        found += [item for item in items if isinstance(item, str)]
    return found


def note(args: argparse.Namespace, text: str) -> None:
    """``note: text`` on stderr, unless ``--quiet``; kept in ``args`` for the JSON
    (:func:`with_option_notes`)."""
    vars(args).setdefault("_noted", []).append(text)
    if not quiet(args):
        print(f"note: {text}", file=sys.stderr)


def warn(text: str) -> None:
    """``warning: text`` on stderr, shown even with ``--quiet``, on one line."""
    print(f"warning: {printable(text, limit=MAX_MESSAGE)}", file=sys.stderr)


def notes_once(args: argparse.Namespace, texts: Iterable[str]) -> None:
    """Each distinct note of ``texts``, once, in order, on stderr (unless ``--quiet``)."""
    for text in dict.fromkeys(texts):
        note(args, text)


def print_notes(args: argparse.Namespace, reports: Sequence[Any]) -> None:
    """Each distinct note of the reports, once, on stderr (unless ``--quiet``)."""
    notes_once(args, (text for report in reports for text in report.record.get("notes", ())))


def private_hypothesis_home() -> None:
    """Point hypothesis's storage (it caches constants it finds in our code) at a private
    temporary directory removed at exit, not at ``.hypothesis/`` in the user's directory."""
    from hypothesis.configuration import set_hypothesis_home_dir

    home = tempfile.mkdtemp(prefix="patternalg-hypothesis-")
    atexit.register(shutil.rmtree, home, ignore_errors=True)
    set_hypothesis_home_dir(home)


#: the regions left out that a command names one by one; the others are counted
SHOWN_LEFT_OUT = 20


class LeftOut:
    """What a command leaves out while it does the rest: one bad region (a kernel, a
    workload, a run) loses none of the others. :meth:`append` collects an error (an
    ``on_error``); :meth:`unless` raises the first where nothing was done (then the command
    fails as with that region alone: one line, status 2, nothing printed or written);
    :meth:`say` prints one warning line each, shown even with ``--quiet``, and the exit
    status stays 0, which says that the ``rest`` is done."""

    def __init__(self, rest: str) -> None:
        self.rest = rest
        self.errors: list[PatternalgError] = []

    def append(self, error: PatternalgError) -> None:
        """Leave out what ``error`` is about."""
        self.errors.append(error)

    def unless(self, done: Sized) -> None:
        """Raise the first error if something was left out and nothing is ``done``."""
        if self.errors and not len(done):
            raise self.errors[0]

    def say(self, rest: str | None = None) -> None:
        """One warning line per region left out, and what was done instead (``rest``): the
        first :data:`SHOWN_LEFT_OUT`, then one line counting the others (5,000 unreadable
        runs in a directory made 5,000 lines)."""
        for error in self.errors[:SHOWN_LEFT_OUT]:
            text = printable(str(error), limit=MAX_MESSAGE)
            print(f"warning: {text} (left out; {rest or self.rest})", file=sys.stderr)
        more = len(self.errors) - SHOWN_LEFT_OUT
        if more > 0:
            print(f"warning: {more:,} more left out alike (the first {SHOWN_LEFT_OUT} are shown)", file=sys.stderr)
