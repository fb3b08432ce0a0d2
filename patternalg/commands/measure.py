"""``patternalg measure 'CMD {x}' --over x=1024..262144:9:log --repetitions 10 --out k.txt``:
measure a program over a grid, for a user with a program and no harness.

Warm-up runs first, then the repetitions interleaved in a shuffled order across the grid
(:mod:`patternalg.measurements.runner`); the value of a run is its wall time, or the number its output
shows (``--value-regex``). Several ``--region NAME=TEMPLATE`` measure atoms and their
compositions in one interleaved run (``--region 'pipe(a, b)'='sh -c "./a {x} | ./b {x}"'``);
COMMAND alone is named after the program it runs (``python3 sort.py {x}``: ``sort``). A range
whose ends are integers runs integers (``--integers``/``--no-integers`` choose), and the file
records the cores the measurement could use. The result is an Extra-P text file (or Extra-P JSON,
for an ``--out`` ending in ``.json``) written atomically; the runs are journaled beside it
(``OUT.journal``) as they finish, so that the same command after an interruption resumes
where it stopped. The command runs only the programs named on its command line, with an
argument list, never through a shell of its own (a region may name one: ``sh -c "..."``).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from .._internal.atomic_write import write_text_atomic
from ..errors import PatternalgError
from ..measurements.runner import DEFAULT_TIMEOUT, TIMEOUT_FACTOR
from .common import check_output, note, whole_number
from .progress import progress

if TYPE_CHECKING:
    from pathlib import Path

    from ..algebra.grid import Axis
    from ..measurements.runner import Plan

#: the values of each (region, point index), one a repetition
Values = dict[tuple[str, int], list[float]]


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if not 0 < value < 1e9:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "program",
        nargs="?",
        metavar="COMMAND",
        help="the program and its arguments, {NAME} where a grid value goes, e.g. './sort {x}'",
    )
    parser.add_argument(
        "--over",
        action="append",
        required=True,
        metavar="NAME=GRID",
        help="a parameter's values, e.g. x=1024..262144:9:log or n=1,2,4; repeat for a product",
    )
    parser.add_argument("--out", required=True, metavar="FILE", help="the Extra-P file to write")
    parser.add_argument(
        "--region",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="a named command: an atom, or a composition named by its term, e.g. "
        "'pipe(a, b)'='sh -c \"./a {x} | ./b {x}\"'; repeatable",
    )
    parser.add_argument(
        "--name",
        help="the region name of COMMAND, an atom or a term (default: the program it runs, "
        "past python3 or sh: 'python3 sort.py {x}' is sort)",
    )
    parser.add_argument(
        "--integers",
        action=argparse.BooleanOptionalAction,
        help="round the grid's values to integers, as a program that reads an integer wants "
        "(default: where both ends of a range are integers); --no-integers keeps them as computed",
    )
    for flag, least, default, runs in (
        ("--repetitions", 1, 5, "measured runs per point"),
        ("--warmup", 0, 1, "runs per point before measuring"),
    ):
        parser.add_argument(
            flag, type=whole_number(least), default=default, metavar="N", help=f"{runs} (default {default})"
        )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        metavar="SECONDS",
        help=f"stop a run after this many seconds (default: {DEFAULT_TIMEOUT:g} s, or "
        f"{TIMEOUT_FACTOR:g} times the longest run before it if that is longer)",
    )
    parser.add_argument(
        "--value-regex",
        metavar="REGEX",
        help="take the number the program prints on standard output (the first group that "
        "matches, else the match) instead of the wall time",
    )
    parser.add_argument(
        "--metric", help="the metric's name (default: time_s, or value with --value-regex)"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="N",
        help="seed of the shuffled order of runs (default 0)",
    )


def _regions(args: argparse.Namespace, notes: list[str]) -> dict[str, str]:
    """Region name -> command template, from COMMAND and the ``--region`` options."""
    from ..measurements.runner import region_name

    regions: dict[str, str] = {}
    if args.name is not None and not args.program:
        raise PatternalgError(
            f"--name {args.name}: names the region of COMMAND, and no COMMAND is given "
            "(--region NAME=COMMAND names its own)"
        )
    if args.program:
        name = args.name or region_name(args.program)
        if not args.name:
            notes.append(f"the region of {args.program!r} is {name} (--name chooses another)")
        regions[name] = args.program
    for item in args.region:
        name, equals, template = item.partition("=")
        if not equals or not name.strip():
            raise PatternalgError(f"--region {item!r}: expected NAME=COMMAND")
        if name.strip() in regions:
            raise PatternalgError(f"--region {name.strip()}: the name is given twice")
        regions[name.strip()] = template
    if not regions:
        raise PatternalgError("nothing to measure: give a COMMAND or --region NAME=COMMAND")
    for name in [*regions, args.metric or "time_s"]:
        if not name.isprintable() or name != name.strip():
            raise PatternalgError(f"{name!r}: a region or metric name is one line of text")
    for name in regions:
        _check_region_name(name)
    return regions


def _check_region_name(name: str) -> None:
    """An error for a region name that is neither an atom (``make``) nor the term of the
    composition it measures (``pipe(make, scale)``): ``fit`` would read ``pipe(a,b`` as an atom
    ``pipe_a_b``, found out only after the measurement (measure --help, docs/fitting.md)."""
    from .._internal.limits import printable
    from ..errors import ParseError
    from ..syntax.parser import parse
    from ..syntax.terms import Atom, Meta

    try:
        term = parse(name)
    except ParseError as exc:
        problem = str(exc)
    else:
        if any(isinstance(n, Meta) for n in term.walk()):
            problem = "a capitalised name is a law's metavariable, which stands for any term"
        elif isinstance(term, Atom) and term.annotations:
            problem = "an atom's region is the atom alone, without annotations"
        else:
            return
    raise PatternalgError(
        f"region {printable(name)}: a region is named by an atom (make) or by the term of the "
        f"composition it measures (pipe(make, scale)); this is neither ({problem})"
    )


def run(args: argparse.Namespace) -> int:
    from ..measurements.journal import kept
    from ..measurements.runner import Plan, journal_path, measure, usable_cores

    notes: list[str] = []  # printed once the measurement is written
    regions = _regions(args, notes)
    plan = Plan.build(
        regions,
        _grid(args, notes),
        repetitions=args.repetitions,
        warmup=args.warmup,
        timeout=args.timeout,
        value_regex=args.value_regex,
        seed=args.seed,
    )
    out = check_output(args, args.out, reading=plan.files())  # not the program measured
    journal = journal_path(out)
    with progress(args, "measuring", "runs") as bar:
        values = measure(plan, journal, progress=bar, resuming=lambda runs: _resuming(args, journal, runs))
    metric = args.metric or ("value" if args.value_regex else "time_s")
    text = (_json if out.suffix.lower() == ".json" else _text)(plan, values, metric, usable_cores())
    try:
        write_text_atomic(out, text)
    except PatternalgError as exc:  # the output's directory or name changed while it measured
        runs = sum(map(len, values.values()))
        raise PatternalgError(f"{exc}; {kept(journal, runs)}") from None
    journal.unlink(missing_ok=True)  # a second measurement of the same plan may have ended first
    notes += _unfittable(plan, values, metric, out)
    for text in notes:
        note(args, text)
    note(
        args,
        f"wrote {out}: {len(plan.regions)} region(s) x {len(plan.points)} point(s) x "
        f"{plan.repetitions} repetition(s)",
    )
    return 0


def _resuming(args: argparse.Namespace, journal: Path, runs: int) -> None:
    """The note that the measurement resumes ``runs`` runs of ``journal`` (a rebuilt program
    has the same command: only this note shows its old runs are kept)."""
    note(args, f"resuming the {runs} run(s) journaled in {journal} (the same command and grid); remove it to measure anew")


def _grid(args: argparse.Namespace, notes: list[str]) -> dict[str, list[float]]:
    """The values of each ``--over`` parameter."""
    from ..algebra.grid import parse_axis
    from ..measurements.runner import PARAMETER_NAME, is_parameter_name

    grid: dict[str, list[float]] = {}
    for text in args.over:
        axis = parse_axis(text)
        if not is_parameter_name(axis.name):  # {α} stands for nothing in a command
            raise PatternalgError(f"--over {text}: a parameter a command names as {{NAME}} is {PARAMETER_NAME}")
        if axis.name in grid:
            raise PatternalgError(f"--over {text}: {axis.name} has a grid already")
        grid[axis.name] = _values(args, text, axis, notes)
    return grid


def _values(args: argparse.Namespace, text: str, axis: Axis, notes: list[str]) -> list[float]:
    """The values of one ``--over`` axis: rounded to integers under ``--integers``, and by
    default for a range whose ends are integers (a list is run as written)."""
    from ..measurements.runner import integer_grid

    values: list[float] = axis.values.tolist()
    repeated = next((v for i, v in enumerate(values) if v in values[:i]), None)
    if repeated is not None:  # one point measured twice: fit refuses the file (POINTS twice)
        raise PatternalgError(f"--over {text}: {axis.name} = {_number(repeated)} is listed twice; list each value once")
    ends = (values[0], values[-1])
    whole = axis.spacing != "list" and all(float(v).is_integer() for v in ends)
    if not (args.integers or (args.integers is None and whole)):
        return values
    rounded = integer_grid(values)
    if len(rounded) < len(values):
        notes.append(f"--over {text}: {len(values)} points round to {len(rounded)} integers")
    return [float(v) for v in rounded]


def _number(value: int | float) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def _unfittable(plan: Plan, values: Values, metric: str, out: Path) -> list[str]:
    """Notes on what ``fit`` will leave out or refuse in the file written: a parameter
    value at or below 0, a time below 0 (a value the program printed)."""
    from ..algebra.units import is_time
    from ..measurements.names import split_unit

    found = []
    for i, name in enumerate(plan.parameters):
        low = min(p[i] for p in plan.points)
        if low <= 0:
            found.append(
                f"{out}: {name} = {_number(low)} is measured, but a pmnf fit leaves out the points "
                f"with {name} <= 0 (log2({name}), {name}^i are not defined there)"
            )
    unit = split_unit(metric)[1]
    if (unit is not None and is_time(unit)) or split_unit(metric)[0] == "time":
        negative = [v for runs in values.values() for v in runs if v < 0]
        if negative:
            found.append(
                f"{out}: {len(negative)} value(s) of {metric} below 0 (e.g. {_number(negative[0])}): "
                "not times; fit refuses them"
            )
    return found


def _text(plan: Plan, values: Values, metric: str, cores: int) -> str:
    """The Extra-P text file of the measured values (a comment records the cores)."""
    lines = ["# measured by patternalg measure", f"# cores: {cores}"]
    lines += [f"PARAMETER {name}" for name in plan.parameters]
    if len(plan.parameters) == 1:
        lines.append("POINTS " + " ".join(_number(p[0]) for p in plan.points))
    else:
        lines.append(
            "POINTS " + " ".join("( " + " ".join(map(_number, p)) + " )" for p in plan.points)
        )
    lines.append(f"METRIC {metric}")
    for name, _ in plan.regions:
        lines.append(f"REGION {name}")
        for index in range(len(plan.points)):
            lines.append("DATA " + " ".join(map(_number, values[(name, index)])))
    return "\n".join(lines) + "\n"


def _json(plan: Plan, values: Values, metric: str, cores: int) -> str:
    """The Extra-P JSON file of the measured values (``context.num_cpus`` the cores, as
    Google Benchmark records them)."""
    measurements = {
        name: {
            metric: [
                {"point": list(point), "values": values[(name, i)]}
                for i, point in enumerate(plan.points)
            ]
        }
        for name, _ in plan.regions
    }
    return json.dumps(
        {
            "parameters": list(plan.parameters),
            "measurements": measurements,
            "context": {"num_cpus": cores, "measured_by": "patternalg measure"},
        },
        indent=1,
    )
