"""The command line: argparse sub-commands wired to the library.

User errors print one line on stderr and exit with status 2; ``--debug`` shows the
traceback before it.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
import traceback
import warnings
from collections.abc import Sequence

from . import __version__
from ._internal.limits import MAX_MESSAGE, printable
from ._internal.streams import prepare_streams
from ._internal.surface import command_line
from .errors import PatternalgError, close_names, did_you_mean, reason

__all__ = ["main", "COMMANDS"]

QUIET_HELP = "no progress bars and no notes on stderr (errors and warnings still show)"

#: each sub-command and its one-line help; its module ``patternalg.commands.NAME`` has
#: ``add_arguments(parser)`` and ``run(args) -> int``
_TABLE = """
eval      evaluate a term to its closed-form model
models    list the model library
fit       fit atomic models to measurements
calibrate fit a machine (hand-off, wake, a pool's dispatch cost) to measured compositions
measure   run a program over a grid and write its measurements
laws      check the built-in laws of the algebra
check     prove or refute a law, e.g. 'pipe(A, B) <= seq(A, B)'
predict   PreSca: predict scalability from measurements
tune      simulate the OPreSca and Binsearch thread tuners
sweep     tabulate models over a grid of sizes or counts
compare   which design is fastest where, with crossovers
optimize  the best thread counts under linear budgets
explore   designs reachable by the laws, ranked
validate  predict measured terms from the models: the error at every point
profile   an application's profiles as a term: every atom fitted, every node checked
plot      pictures (PNG, SVG, PDF) of models, fits and designs
"""
COMMANDS: dict[str, str] = dict(line.split(maxsplit=1) for line in _TABLE.strip().splitlines())
#: the main parser's options that print nothing (they may come before a sub-command)
_SILENT = {"--debug", "-q", "--quiet"}


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line and exit status 2."""

    commands: dict[str, _Parser]

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}{_command_hint(message)} (see {self.prog} --help)\n")

    def unrecognized(self, extras: Sequence[str]) -> None:
        """Refuse words this parser does not take, naming the closest of its flags."""
        flags = [flag for action in self._actions for flag in action.option_strings]
        close = [
            match
            for word in extras
            if word.startswith("--")
            for match in close_names(word.partition("=")[0], flags, cutoff=0.75)
        ]
        close += [
            _ELSEWHERE[word]
            for word in extras
            if word in _ELSEWHERE and _ELSEWHERE[word].partition(" ")[0] in flags
        ]
        hint = did_you_mean(close[:1], before="; ")
        self.error(f"unrecognized arguments: {' '.join(extras)}{hint}")


def _command_hint(message: str) -> str:
    """For argparse's refusal of an unknown command, the closest command's name.

    >>> _command_hint("argument COMMAND: invalid choice: 'evl' (choose from 'eval', 'fit')")
    "; did you mean 'eval'?"
    >>> _command_hint("argument COMMAND: invalid choice: 'zzz' (choose from 'eval')"), _command_hint("other")
    ('', '')
    """
    found = re.match(r"argument COMMAND: invalid choice: '(.*)' \(choose from ", message)
    if found is None:
        return ""
    return did_you_mean(close_names(found.group(1), COMMANDS, n=1), quote="'", before="; ")


#: flags of one command that another spells otherwise (predict's and fit's direction)
_ELSEWHERE = {"--higher-is-better": "--better higher", "--lower-is-better": "--better lower"}


def build_parser(only: str | None = None, *, alone: bool = False) -> _Parser:
    """The parser of all sub-commands; with ``only``, the options of that sub-command alone
    are built (the others are listed, not imported: a short command starts fast; ``""``:
    none, for ``--version``, the main help and its errors); with ``alone`` too, the others
    are left out (nothing will list them)."""
    parser = _Parser(
        prog="patternalg",
        description="Closed-form performance models of parallel programs built from patterns.",
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks of errors")
    parser.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    parser.commands = {}
    for name, help_text in COMMANDS.items():
        if alone and name != only:
            continue
        module = f"patternalg.commands.{name}"
        command = parser.commands[name] = sub.add_parser(
            name, help=help_text, description=help_text
        )
        command.add_argument(
            "--debug",
            action="store_true",
            default=argparse.SUPPRESS,
            help="show tracebacks of errors",
        )
        command.add_argument(
            "-q", "--quiet", action="store_true", default=argparse.SUPPRESS, help=QUIET_HELP
        )
        if only is None or only == name:
            importlib.import_module(module).add_arguments(command)
        command.set_defaults(module=module)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status: 130 after Ctrl-C, which prints one line
    wherever it comes, while the command's modules load (sympy takes a second) or as it runs."""
    try:
        return _main(argv)
    except KeyboardInterrupt as exc:  # measure's says what its journal keeps
        said = "; ".join(["patternalg: interrupted", *map(str, exc.args)])
        print(printable(said, limit=MAX_MESSAGE), file=sys.stderr)
        return 130


def _lone_surrogate(word: str) -> str:
    """The first character of ``word`` that no file name can hold: a lone surrogate that the
    file system's encoding (with ``surrogateescape``, as ``os`` encodes) refuses; "" if none.

    >>> _lone_surrogate("m.txt"), _lone_surrogate("caf\\udce9.txt"), _lone_surrogate("a\\ud800b")
    ('', '', '\\ud800')
    """
    try:
        os.fsencode(word)
    except UnicodeEncodeError as exc:
        return word[exc.start]
    return ""


def _help_as_flag(words: list[str]) -> list[str]:
    """``help`` where a command goes as ``--help``, and ``help COMMAND`` as ``COMMAND --help``.

    >>> _help_as_flag(["help"]), _help_as_flag(["-q", "help", "fit"]), _help_as_flag(["eval", "help"])
    (['--help'], ['-q', 'fit', '--help'], ['eval', 'help'])
    """
    at = next((i for i, word in enumerate(words) if not word.startswith("-")), None)
    if at is None or words[at] != "help":
        return words
    rest = words[at + 1 :]
    return [*words[:at], *rest[:1], "--help", *rest[1:]]


@command_line()  # messages name flags (--at x=1), not Python's arguments (x=1); reset after
def _main(argv: Sequence[str] | None) -> int:
    prepare_streams()  # closed or ASCII-only standard streams
    words = _help_as_flag(list(sys.argv[1:] if argv is None else argv))
    chosen = next((word for word in words if not word.startswith("-")), None)
    if chosen not in COMMANDS:
        chosen = None
    # only the main parser's help, its errors and --version list the sub-commands
    alone = chosen is not None and set(words[: words.index(chosen)]) <= _SILENT
    parser = build_parser("" if chosen is None else chosen, alone=alone)
    args, extras = parser.parse_known_args(words)
    if extras:  # the command's own error, not the main parser's
        parser.commands.get(args.command, parser).unrecognized(extras)
    held = next((word for word in words if "\x00" in word), None)
    if held is not None:  # never from a shell (argv is C strings); from main([...]) in Python
        print(
            f"patternalg {args.command}: error: the argument {printable(held, limit=80)} holds a NUL "
            "character, which no file name, term or value may hold",
            file=sys.stderr,
        )
        return 2
    unencodable = next((word for word in words if _lone_surrogate(word)), None)
    if unencodable is not None:  # never from a shell (undecodable bytes come as escapes os takes)
        print(
            f"patternalg {args.command}: error: the argument {printable(unencodable, limit=80)} holds "
            f"U+{ord(_lone_surrogate(unencodable)):04X}, a lone surrogate, which no file name, term or value may hold",
            file=sys.stderr,
        )
        return 2
    if words.count("-") > 1:  # the first reader would take it all, the second read nothing
        print(
            f"patternalg {args.command}: error: standard input (-) is named {words.count('-')} times; "
            "it can be read once: give the other inputs as files",
            file=sys.stderr,
        )
        return 2
    try:
        with warnings.catch_warnings():
            if not args.debug:  # numpy's overflow notes are not the user's concern
                warnings.simplefilter("ignore", RuntimeWarning)
            return int(importlib.import_module(args.module).run(args) or 0)
    except BrokenPipeError:
        return 0
    except RecursionError:  # sympy's algorithms recurse on an expression's depth
        if args.debug:
            traceback.print_exc()
        print(
            f"patternalg {args.command}: error: the input nests too deeply to compute (Python's "
            "recursion limit); nest it less deeply or bind its counts with --at",
            file=sys.stderr,
        )
        return 2
    # an OSError: a file the system refused where no reader or writer expected it
    except (PatternalgError, OSError) as exc:
        if args.debug:  # the traceback, then the error as ever: its status stays 2
            traceback.print_exc()
        text = str(exc)
        if isinstance(exc, OSError):
            text = reason(exc) if exc.filename is None else f"{exc.filename}: {reason(exc)}"
        message = printable(text, limit=MAX_MESSAGE)
        print(f"patternalg {args.command}: error: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
