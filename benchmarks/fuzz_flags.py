"""Every flag of every command given every wrong value, in one process.

Each command runs from a valid command line (:data:`COMMANDS`); each of its ``--`` flags is
added in turn with each of :data:`VALUES` (empty, negative, zero, beyond doubles, not a
number, a term cut short, a directory, a missing file, standard input, ...; a switch
alone). The outcome must be what the standards ask of bad input: exit status 0 or 2 (1
where a law is refuted: ``laws``, ``check``), on 2 one line on stderr besides notes and
warnings, no traceback, no hang (``measure`` measures ``true``; the ``--out`` flags are
``fuzz_campaign.py``'s class ``--out``)::

    python benchmarks/fuzz_flags.py [COMMAND ...]

Used by ``tests/test_fuzz.py`` (a long check): about 3,300 command lines, a minute.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import signal
import sys
import tempfile
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: a valid command line of each command, over the files :func:`write_files` makes
COMMANDS: dict[str, list[str]] = {
    "eval": ["eval", "pipe(tpool_4(qsort), inc)"],
    "models": ["models"],
    "fit": ["fit", "m.txt"],
    "calibrate": ["calibrate", "a.txt", "c.txt"],
    "laws": ["laws", "--examples", "5"],
    "check": ["check", "pipe(A, B) >= tpool_2(seq(A, B))", "--examples", "5"],
    "predict": ["predict", "ps.csv"],
    "tune": ["tune", "ps.csv", "--runs", "3"],
    "sweep": ["sweep", "pipe(qsort, inc)", "--over", "x=1..100:3"],
    "compare": ["compare", "inc", "nop", "--over", "x=1..100"],
    "optimize": ["optimize", "pipe(tpool_a(qsort), tpool_b(inc))", "--budget", "a+b<=4", "--at", "x=1024"],
    "explore": ["explore", "pipe(qsort, inc)", "--threads", "4", "--at", "x=1024"],
    "validate": ["validate", "m.txt", "--models", "m.toml"],
    "profile": ["profile", "profiles", "--param", "n"],
    "plot": ["plot", "pipe(qsort, inc)", "--over", "x=1..100", "-o", "p.png"],
    "measure": ["measure", "--region", "k=true {x}", "--over", "x=1..4:2", "--repetitions", "1", "--out", "o.txt"],
}
#: wrong (and some right) values of any flag
VALUES = [
    "", "-1", "0", "1e400", "nan", "inf", "garbage(", "x=", "/", "nonexistent.txt", "-",
    "9" * 400, "a,b", "x=1..0", "m.txt", "machine.toml", "x=1e308..1e309", "\u00e9\u2603",
]
#: flags whose values are not checked here
SKIPPED = {"--help", "--debug", "--version", "--out"}
TIMEOUT = 30  #: seconds per command line
REFUTING = {"laws", "check"}  #: commands whose exit status 1 says a law is refuted


def write_files(where: Path) -> set[str]:
    """The inputs of :data:`COMMANDS` in ``where``; their names."""
    realdata = ROOT / "benchmarks" / "realdata" / "data7"
    shutil.copy(ROOT / "examples" / "tour" / "measured.txt", where / "m.txt")
    shutil.copy(realdata / "atoms.txt", where / "a.txt")
    shutil.copy(realdata / "compositions.txt", where / "c.txt")
    shutil.copy(realdata / "machine.txt", where / "machine.txt")
    shutil.copytree(ROOT / "tests" / "data" / "profiles" / "difflib", where / "profiles")
    (where / "ps.csv").write_text(
        "threads,time\n" + "".join(f"{p},{100 / p + 5 + 0.3 * p}\n" for p in (1, 2, 4, 8, 16))
    )
    with contextlib.chdir(where):
        for argv in (["fit", "m.txt", "--out", "m.toml"], ["calibrate", "a.txt", "c.txt", "--out", "machine.toml"]):
            status, err = run(argv)
            assert status == 0, err
    return {p.name for p in where.iterdir()}


class _Hang(Exception):
    pass


def _alarm(*_: object) -> None:
    raise _Hang


def run(argv: list[str]) -> tuple[int | str, str]:
    """``patternalg ARGV`` in this process, standard input empty: its exit status ("hang"
    after :data:`TIMEOUT` s) and what it wrote on stderr."""
    from patternalg import cli

    out, err = io.StringIO(), io.StringIO()
    stdin, sys.stdin = sys.stdin, io.StringIO("")
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                status: int | str = cli.main(argv)
            except SystemExit as exit:
                status = exit.code if isinstance(exit.code, int) else 2
    except _Hang:
        status = "hang"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        sys.stdin = stdin
    return status, err.getvalue()


def problem(command: str, status: int | str, err: str) -> str | None:
    """What is wrong with one outcome, or None.

    >>> problem("eval", 2, "patternalg eval: error: x\\nnote: y\\n"), problem("laws", 1, "")
    (None, None)
    >>> problem("eval", 1, ""), problem("fit", 2, "a\\nb\\n"), problem("fit", 0, "Traceback (most recent call last):")
    ('exit status 1', '2 error lines', 'traceback')
    """
    errors = [line for line in err.splitlines() if line.strip() and not line.startswith(("note:", "warning:"))]
    if status == "hang":
        return "hang"
    if "Traceback" in err:
        return "traceback"
    if status not in (0, 2) and not (status == 1 and command in REFUTING):
        return f"exit status {status}"
    if status == 2 and len(errors) != 1:
        return f"{len(errors)} error lines"
    return None


def sweep(commands: list[str] | None = None) -> tuple[int, list[str]]:
    """The command lines run and the problems found (a line each: what, and the line)."""
    from patternalg import cli

    parser = cli.build_parser()
    found, count = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        keep = write_files(where)
        with contextlib.chdir(where):
            for name, base in COMMANDS.items():
                if commands and name not in commands:
                    continue
                for action in parser.commands[name]._actions:
                    flags = [f for f in action.option_strings if f.startswith("--")]
                    if not flags or flags[0] in SKIPPED:
                        continue
                    for value in [None] if action.nargs == 0 else VALUES:
                        argv = [*base, flags[0]] + ([] if value is None else [value])
                        status, err = run(argv)
                        count += 1
                        said = problem(name, status, err)
                        if said:
                            found.append(f"{said}: patternalg {' '.join(argv)[:200]}: {err.strip()[-200:]}")
                for made in set(os.listdir(where)) - keep:  # what the command wrote
                    path = where / made
                    shutil.rmtree(path) if path.is_dir() else path.unlink()
    return count, found


def main() -> None:
    count, found = sweep(sys.argv[1:] or None)
    print(f"{count} command lines, {len(found)} problems")
    for line in found:
        print(line)
    raise SystemExit(1 if found else 0)


if __name__ == "__main__":
    main()
