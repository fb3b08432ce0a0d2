"""Measuring a program over a grid (``patternalg measure``): the runs, interleaved and
shuffled, recorded in a journal so that an interrupted measurement resumes.

A :class:`Plan` holds named command templates (regions), the grid, the repetitions and
how a run's value is taken (the wall time, or a number the program prints). Its runs come
round by round: each round runs every (region, point) once, in an order shuffled anew
(seeded), so that a drift of the machine hits every point alike. The program is run with an
argument list (``shlex.split`` of the template, ``{name}`` replaced in each argument), never
through a shell; nothing from a measurement or model file is ever run.

Every finished run is appended to the journal (one JSON line, flushed and synced) before
the next starts; :func:`measure` skips the runs a journal of the same plan holds, so an
interrupted measurement loses at most the run under way and repeats none.

>>> plan = Plan.build({"k": "prog --n {x}"}, {"x": [8.0, 16.0]}, repetitions=2)
>>> plan.argv("k", (16,)), [run[1:] for run in plan.runs()][:2] in (
...     [("k", 0), ("k", 1)], [("k", 1), ("k", 0)])
(['prog', '--n', '16'], True)
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import random
import re
import shlex
import shutil
import signal
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .._internal.callbacks import ProgressCallback
from .._internal.json_values import finite_number
from .._internal.limits import MAX_MEASURED_RUNS, printable, whole_number_text
from .._internal.signals import INTERRUPTING, ending_handled
from .._internal.surface import either, flag
from ..arguments import as_int, as_path, expect, wrong
from ..errors import PatternalgError, reason
from .journal import JOURNAL_KIND, Journal, journal_path, kept, resume
from .names import atom_name
from .processes import run_program

__all__ = [
    "Plan",
    "measure",
    "journal_path",
    "grid_value",
    "integer_grid",
    "region_name",
    "is_parameter_name",
    "PARAMETER_NAME",
    "usable_cores",
    "DEFAULT_TIMEOUT",
    "TIMEOUT_FACTOR",
]

#: without ``--timeout``, a run is stopped after this many seconds, or after
#: :data:`TIMEOUT_FACTOR` times the longest run before it if that is longer: a program
#: that hangs does not block ``measure`` for ever
DEFAULT_TIMEOUT = 30.0
TIMEOUT_FACTOR = 10.0
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
#: what a parameter's name is made of
PARAMETER_NAME = "a letter or _, then letters, digits or _"
#: programs that run the program named after them: interpreters and shells (whose ``-c``
#: runs code), launchers (whose options and numbers come before the program)
_INTERPRETERS = re.compile(r"(?:python|pypy|perl|ruby|node|nodejs|julia|lua|php|Rscript)[0-9.]*")
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh"})
_LAUNCHERS = frozenset({"env", "nice", "nohup", "time", "exec", "stdbuf", "taskset", "chrt"})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_REDIRECTS = frozenset({"<", ">", ">>", "<<", "<<<", ">&", "<&", "&>", "2>", "1>"})


def grid_value(value: float) -> int | float:
    """A grid point as substituted: an integer where it is one (to rounding), else the float.

    >>> grid_value(2048.000000000001), grid_value(0.5), grid_value(3.0)
    (2048, 0.5, 3)
    """
    nearest = round(value)
    return int(nearest) if abs(value - nearest) <= 1e-9 * max(1.0, abs(value)) else value


def integer_grid(values: Sequence[float]) -> list[int]:
    """``values`` rounded to integers (halves up), each once, in their order: what a program
    that reads an integer runs (``measure``'s default where a range's ends are integers).

    >>> integer_grid([1000.0, 5623.413251903491, 31622.776601683792, 177827.94100389228, 1e6])
    [1000, 5623, 31623, 177828, 1000000]
    >>> integer_grid([1.0, 1.5, 1.9, 2.8, 4.0])
    [1, 2, 3, 4]
    """
    return list(dict.fromkeys(math.floor(v + 0.5) for v in values))


def region_name(template: str) -> str:
    """The name of a region measured without one: the program it runs, past an interpreter,
    shell or launcher and their options (``-m``'s module; a shell's ``-c`` command: its
    programs joined by ``_``), as an atom name (``kernel`` when nothing names it).

    >>> region_name("python3 -u bench/sort.py {x}"), region_name("./kernel --n {x}")
    ('sort', 'kernel')
    >>> region_name('sh -c "./a {x} | ./b {x} > /dev/null"'), region_name("python3 -m pkg.fft {x}")
    ('a_b', 'fft')
    >>> region_name("env OMP_NUM_THREADS=2 nice -n 5 ./Solve-2D {x}"), region_name("python3 -c 'pass'")
    ('solve_2D', 'python3')
    """
    try:
        words = shlex.split(template)
    except ValueError:
        words = template.split()
    return atom_name("_".join(dict.fromkeys(_programs(words))))


def _programs(words: Sequence[str]) -> list[str]:
    """The names of the programs ``words`` runs (see :func:`region_name`)."""
    index = 0
    while index < len(words):
        word = words[index]
        name = Path(word).name
        index += 1
        if _ASSIGNMENT.match(word) or word.lstrip("+-").replace(".", "").isdigit():
            continue  # an environment variable or a launcher's number (nice -n 5)
        interpreter = name in _SHELLS or bool(_INTERPRETERS.fullmatch(name))
        if not interpreter and name not in _LAUNCHERS:
            return [Path(word).stem or name]
        while index < len(words) and words[index].startswith("-"):
            option, index = words[index], index + 1
            if interpreter and option == "-m" and index < len(words):
                return [words[index].rpartition(".")[2]]
            if interpreter and option in ("-c", "-e"):
                return _shell_programs(words[index]) if name in _SHELLS and index < len(words) else [name]
    return []


def _shell_programs(command: str) -> list[str]:
    """The programs of a shell command line: the first word of each part between ``|``,
    ``;``, ``&&``, ... (redirections' targets left out)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    found: list[str] = []
    part: list[str] = []
    try:
        tokens = [*lexer, ";"]
    except ValueError:
        return []
    skip = False
    for token in tokens:
        if skip:
            skip = False
        elif token in _REDIRECTS:
            skip = True
        elif token and set(token) <= set("|;&()"):
            found += _programs(part)[:1]
            part = []
        else:
            part.append(token)
    return found


def usable_cores() -> int:
    """The CPUs this process may run on (``nproc``), as a measurement records them."""
    with contextlib.suppress(AttributeError, OSError):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@dataclass(frozen=True)
class Plan:
    """What to run: regions (name, argument template), parameters, points, repetitions,
    warm-up runs, the timeout of a run (s), the value's pattern (None: the wall time), seed."""

    regions: tuple[tuple[str, tuple[str, ...]], ...]
    parameters: tuple[str, ...]
    points: tuple[tuple[int | float, ...], ...]
    repetitions: int
    warmup: int = 1
    timeout: float | None = None
    value_regex: str | None = None
    seed: int = 0

    @classmethod
    def build(
        cls,
        regions: Mapping[str, str],
        grid: Mapping[str, Sequence[float]],
        *,
        repetitions: int,
        warmup: int = 1,
        timeout: float | None = None,
        value_regex: str | None = None,
        seed: int = 0,
    ) -> Plan:
        """A plan over the product of ``grid``'s axes; an error for a template that names
        a parameter the grid has not, or cannot be split into arguments."""
        regions, grid = _checked(regions, grid)
        repetitions, warmup = as_int(repetitions, "repetitions", 1), as_int(warmup, "warmup", 0)
        seed = as_int(seed, "seed")
        if timeout is not None and not (
            isinstance(timeout, int | float) and not isinstance(timeout, bool) and 0 < timeout < 1e9
        ):
            raise wrong("timeout", "None or a positive number of seconds", timeout)
        if value_regex is not None:
            value_regex = expect(value_regex, str, "value_regex", "None or a regular expression")
        parameters = tuple(grid)
        templates = []
        for name, template in regions.items():
            try:
                words = tuple(shlex.split(template))
            except ValueError as exc:
                raise PatternalgError(f"region {name}: cannot split {template!r}: {exc}") from None
            if not words:
                raise PatternalgError(f"region {name}: the command is empty")
            unknown = {m for w in words for m in _PLACEHOLDER.findall(w)} - set(parameters)
            if unknown:
                raise PatternalgError(
                    f"region {name}: {{{sorted(unknown)[0]}}} is not a parameter of the grid "
                    f"({either('--over gives', 'the grid has')}: {', '.join(parameters) or 'none'})"
                )
            templates.append((name, words))
        _check_used(parameters, regions)
        if value_regex is not None:
            try:
                re.compile(value_regex)
            except re.error as exc:
                raise PatternalgError(f"{flag('value-regex', repr(value_regex))}: {exc}") from None
        axes = [[grid_value(v) for v in values] for values in grid.values()]
        points = tuple(itertools.product(*axes))
        runs = len(templates) * len(points) * (warmup + repetitions)
        if runs > MAX_MEASURED_RUNS:
            raise PatternalgError(
                f"{flag('repetitions', whole_number_text(repetitions))} and {flag('warmup', whole_number_text(warmup))}: "
                f"{_count_text(runs)} runs ({len(templates)} region(s) x {len(points)} point(s) x "
                f"(warm-up + repetitions)); a plan makes at most {MAX_MEASURED_RUNS:,}"
            )
        return cls(
            tuple(templates), parameters, points, repetitions, warmup, timeout, value_regex, seed
        )

    def argv(self, region: str, point: Sequence[int | float]) -> list[str]:
        """The argument list of ``region`` at ``point``."""
        values = {name: str(v) for name, v in zip(self.parameters, point, strict=True)}
        return [_substituted(w, values) for w in dict(self.regions)[region]]

    def files(self) -> list[str]:
        """The existing files the regions' commands name (a word, or the value of a word
        ``--name=value``; a program's name, as the search path finds it): the program and
        its inputs, which ``--out`` must not replace.

        >>> import shutil, sys
        >>> Plan.build({"k": f"{sys.executable} -m prog --n={{x}}"}, {"x": [1.0]},
        ...            repetitions=1).files() == [sys.executable]
        True
        >>> shutil.which("sh") in Plan.build({"k": "sh -c 'x={x}'"}, {"x": [1.0]}, repetitions=1).files()
        True
        """
        words = {w for _, template in self.regions for w in template}
        words |= {part for w in words if " " in w for part in _shell_words(w)}  # sh -c '...'
        words |= {w.partition("=")[2] for w in words if "=" in w}
        named = {w for w in words if _PLACEHOLDER.search(w)}  # in{x}.dat: a name at each point
        words = {w for w in words - named if w}
        found = {w for w in words if os.path.isfile(w)} | _existing(self._each_point(named))
        found |= {p for w in words - found if os.sep not in w and (p := shutil.which(w))}
        return sorted(found)

    def _each_point(self, words: Iterable[str]) -> set[str]:
        """``words`` as they are run at every point: a word naming ``{x}`` once for each
        value of ``x`` (of each combination of the values of the parameters it names).

        >>> plan = Plan.build({"k": "prog in{x}.dat {y}"}, {"x": [1.0, 2.0], "y": [8.0, 9.0]}, repetitions=1)
        >>> sorted(plan._each_point(["prog", "in{x}.dat", "--out={y}{x}"]))
        ['--out=81', '--out=82', '--out=91', '--out=92', 'in1.dat', 'in2.dat', 'prog']
        """
        found = set()
        for word in words:
            pieces = _PLACEHOLDER.split(word)  # text, name, text, ..., name, text
            named = [self.parameters.index(name) for name in pieces[1::2]]
            for values in {tuple(point[i] for i in named) for point in self.points}:
                pieces[1::2] = map(str, values)
                found.add("".join(pieces))
        return found

    def runs(self) -> Iterator[tuple[int, str, int]]:
        """(repetition, region, point index) of every measured run, in running order."""
        rng = random.Random(self.seed)
        cells = [(name, i) for name, _ in self.regions for i in range(len(self.points))]
        for repetition in range(self.repetitions):
            order = cells[:]
            rng.shuffle(order)
            for name, index in order:
                yield repetition, name, index

    def identity(self) -> dict[str, Any]:
        """What a journal must match to be resumed (all but the warm-up and timeout)."""
        found = asdict(self)
        del found["warmup"], found["timeout"]
        return json.loads(json.dumps(found))  # tuples as lists, as read back


def _check_used(parameters: Sequence[str], regions: Mapping[str, str]) -> None:
    """An error for a parameter of the grid that no command names: each point would run
    the same commands (no value is passed but by ``{name}``).

    >>> _check_used(["x", "y"], {"k": "./k {x}"})
    Traceback (most recent call last):
    ...
    patternalg.errors.PatternalgError: grid=y: no command names {y} (the command: './k {x}'); name {y} where its value goes, or leave y out of the grid
    """
    named = {m for template in regions.values() for m in _PLACEHOLDER.findall(template)}
    unused = [p for p in parameters if p not in named]
    if unused:
        commands = ", ".join(map(repr, regions.values()))
        kind = "the command" if len(regions) == 1 else "the commands"
        raise PatternalgError(
            f"{flag('over', unused[0], keyword='grid')}: no command names {{{unused[0]}}} ({kind}: {printable(commands, 200)}); "
            f"name {{{unused[0]}}} where its value goes, or leave {unused[0]} out of the grid"
        )


def _existing(names: Iterable[str]) -> set[str]:
    """The ``names`` that are files, each folder listed once (a large grid names many)."""
    folders: dict[str, list[str]] = {}
    for name in names:
        folders.setdefault(os.path.dirname(name), []).append(name)
    found = set()
    for folder, inside in folders.items():
        try:
            listed = set(os.listdir(folder or "."))
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError:  # a folder that cannot be listed may still be passed through
            listed = {os.path.basename(n) for n in inside}
        found |= {n for n in inside if os.path.basename(n) in listed and os.path.isfile(n)}
    return found


def _substituted(word: str, values: Mapping[str, str]) -> str:
    """``word`` with each ``{name}`` of ``values`` replaced by its value."""
    return _PLACEHOLDER.sub(lambda m: values.get(m[1], m[0]), word)


def _checked(
    regions: Any, grid: Any
) -> tuple[dict[str, str], dict[str, list[float]]]:
    """``regions`` (names -> command templates) and ``grid`` (names -> finite numbers), as
    :meth:`Plan.build` takes them; an ArgumentError naming what is wrong."""
    if not isinstance(regions, Mapping) or not regions:
        raise wrong("regions", "a mapping of region names to command templates", regions)
    for name, template in regions.items():
        if not isinstance(name, str) or not name.strip() or not name.isprintable() or name != name.strip():
            raise wrong("regions key", "a region name: an atom such as 'sort' or a term such as 'pipe(a, b)'", name)
        expect(template, str, f"regions[{name!r}]", "a command template such as './k {x}'")
    if not isinstance(grid, Mapping):
        raise wrong("grid", "a mapping of parameter names to their values", grid)
    return dict(regions), {_parameter(name): _axis(name, values) for name, values in grid.items()}


def is_parameter_name(name: str) -> bool:
    """Whether ``{name}`` in a command stands for a parameter: a letter or ``_``, then
    letters, digits or ``_`` (ASCII).

    >>> is_parameter_name("n_2"), is_parameter_name(""), is_parameter_name("α")
    (True, False, False)
    """
    return bool(_PLACEHOLDER.fullmatch(f"{{{name}}}"))


def _parameter(name: Any) -> str:
    """A grid key: a name ``{name}`` can stand for in a command."""
    if not isinstance(name, str) or not is_parameter_name(name):
        raise wrong("grid key", f"a parameter name such as 'x' ({PARAMETER_NAME})", name)
    return name


def _axis(name: str, values: Any) -> list[float]:
    """The values of parameter ``name``: finite numbers, each once (as substituted)."""
    what = "a list of finite numbers, each once"
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise wrong(f"grid[{name!r}]", what, values)
    items = list(values)
    if not items or not all(map(finite_number, items)):
        raise wrong(f"grid[{name!r}]", what, values)
    axis = [float(v) for v in items]
    if len({grid_value(v) for v in axis}) < len(axis):  # one point measured twice
        raise wrong(f"grid[{name!r}]", what, values)
    return axis


def _shell_words(text: str) -> list[str]:
    """The words of a shell script given as one argument (``sh -c 'prog {x}; cat in.txt'``),
    as a shell splits them, with ``;``, ``|``, ``&`` and redirections cut off; none if it
    does not split.

    >>> _shell_words("python3 prog.py {x}; cat data.txt >out.txt")
    ['python3', 'prog.py', '{x}', 'cat', 'data.txt', 'out.txt']
    """
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        return [w for w in lexer if not set(w) <= set(";|&<>()")]
    except ValueError:
        return []


def measure(
    plan: Plan,
    journal: str | Path,
    *,
    progress: ProgressCallback = None,
    resuming: Callable[[int], None] | None = None,
) -> dict[tuple[str, int], list[float]]:
    """Run ``plan`` (resuming ``journal`` if it holds runs of the same plan: ``resuming(n)``
    is called first with their number): the values of each (region, point index), one a
    repetition. An interruption (a KeyboardInterrupt) says what the journal keeps."""
    expect(plan, Plan, "plan", "a Plan (Plan.build(...))")
    journal = Path(as_path(journal, "journal", "the path of the journal file"))
    for name, function in (("progress", progress), ("resuming", resuming)):
        if function is not None and not callable(function):
            raise wrong(name, "None or a function", function)
    with Journal(journal) as log, ending_handled(_interrupt, INTERRUPTING):
        found = resume(plan, journal)
        done = {} if found is None else found
        if done and resuming:
            resuming(len(done))
        try:
            if found is None:
                log.start({"kind": JOURNAL_KIND, "plan": plan.identity()})
            _measure_runs(plan, log, done, progress)
        except KeyboardInterrupt:
            raise KeyboardInterrupt(kept(journal, len(done))) from None
        except OSError as exc:  # the journal's (a run's own failures are PatternalgErrors)
            raise PatternalgError(
                f"cannot write the journal {journal}: {reason(exc)}; {kept(journal, len(done))}"
            ) from None
        except PatternalgError as exc:
            raise PatternalgError(f"{exc}; {kept(journal, len(done))}") from None
    values: dict[tuple[str, int], list[float]] = {
        (name, i): [] for name, _ in plan.regions for i in range(len(plan.points))
    }
    for (_, name, index), value in sorted(done.items(), key=lambda item: item[0]):
        values[(name, index)].append(value)
    return values


def _measure_runs(
    plan: Plan, log: Journal, done: dict[tuple[int, str, int], float], progress: ProgressCallback
) -> None:
    """Run what ``done`` lacks of ``plan`` (after its warm-up), each run journaled in
    ``log`` and put in ``done`` as it ends."""
    total = plan.repetitions * len(plan.regions) * len(plan.points)
    todo = [run for run in plan.runs() if run not in done]
    longest = [0.0]  # the longest run so far (s): the default timeout grows with it
    if todo:
        for name, index in _warmup_cells(plan):
            for _ in range(plan.warmup):
                _run(plan, name, plan.points[index], longest)
    if progress:
        progress(len(done), total)
    for count, (repetition, name, index) in enumerate(todo, start=len(done) + 1):
        point = plan.points[index]
        value = _run(plan, name, point, longest)
        at = dict(zip(plan.parameters, point, strict=True))
        log.append({"repetition": repetition, "region": name, "point": index, "at": at, "value": value})
        done[(repetition, name, index)] = value
        if progress:
            progress(count, total)


def _warmup_cells(plan: Plan) -> list[tuple[str, int]]:
    """Each (region, point) once, shuffled: the warm-up runs, discarded."""
    cells = [(name, i) for name, _ in plan.regions for i in range(len(plan.points))]
    random.Random(plan.seed - 1).shuffle(cells)
    return cells


def _run(plan: Plan, region: str, point: Sequence[int | float], longest: list[float]) -> float:
    """One run's value (:func:`~patternalg.measurements.processes.run_program`); ``longest[0]``,
    the longest run so far, sets the default timeout and is updated."""
    timeout = plan.timeout or max(DEFAULT_TIMEOUT, TIMEOUT_FACTOR * longest[0])
    given = either("--timeout", f"timeout={plan.timeout:g}") if plan.timeout else (
        f"the default {either('--timeout', 'timeout')}: {DEFAULT_TIMEOUT:g} s, or {TIMEOUT_FACTOR:g} times the "
        f"longest run before it; give {flag('timeout', 'SECONDS')} for longer runs"
    )
    value, elapsed = run_program(plan.argv(region, point), timeout, given, plan.value_regex)
    longest[0] = max(longest[0], elapsed)
    return value


def _interrupt(signum: int, previous: dict[int, Any]) -> None:
    """Ctrl-C, SIGTERM or SIGHUP ends a measurement: the program under way is stopped with
    its processes (they run in a session of their own, which no signal to ``measure``
    reaches) and the journal is kept. Another of them is ignored from here until ``measure``
    returns: raised before ``stop`` holds the signals (a process kept from the CPU between
    the two), it ended ``measure`` with the program still running."""
    for number in INTERRUPTING:
        signal.signal(number, signal.SIG_IGN)
    raise KeyboardInterrupt


def _count_text(count: int) -> str:
    """A count as a message shows it: with separators, or its order of magnitude if long.

    >>> _count_text(2_000_000), _count_text(10**400 + 1)
    ('2,000,000', 'about 10^400')
    """
    return f"{count:,}" if count < 10**15 else f"about 10^{int(math.log10(count))}"  # no str() of 5,000 digits
