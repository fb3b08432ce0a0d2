"""Which surface a message is read on: the command line (``--at x=1``) or Python (``x=1``).

The library's functions take the flags' names (``budget=``, ``cores=``, ``at=``,
``over=``), so an error or note a Python caller sees names the argument they wrote, and
the same error from the command line names the flag. ``patternalg.cli`` runs every
command inside :func:`command_line`; everything else is Python.

>>> flag("threads", "8"), at_text("x=-1")
('threads=8', 'x=-1')
>>> with command_line():
...     flag("threads", "8"), at_text("x=-1")
('--threads 8', '--at x=-1')
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["command_line", "on_command_line", "flag", "switch", "either", "at_text"]

_COMMAND_LINE: ContextVar[bool] = ContextVar("patternalg_command_line", default=False)


@contextmanager
def command_line() -> Iterator[None]:
    """Messages inside name flags (``--at``); the surface before is restored after, also
    after an error, so ``main([...])`` called from Python leaves Python's surface.

    >>> with command_line():
    ...     on_command_line()
    True
    >>> on_command_line()
    False
    """
    token = _COMMAND_LINE.set(True)
    try:
        yield
    finally:
        _COMMAND_LINE.reset(token)


def on_command_line() -> bool:
    """Whether the code runs under the command line (inside :func:`command_line`).

    >>> on_command_line()
    False
    """
    return _COMMAND_LINE.get()


def flag(name: str, value: str = "", keyword: str | None = None) -> str:
    """The option ``name`` with ``value`` as the caller wrote it: ``--name value`` on the
    command line, ``name=value`` from Python (dashes to underscores, or ``keyword`` where
    the function's argument is named otherwise; a value that is itself a binding or a
    list, ``x=1..4``, ``n,p``, quoted as the string it was given, unless quoted already).

    >>> flag("threads", "8"), flag("at"), flag("max-threads", "4"), flag("over", "x=1..4")
    ('threads=8', 'at=', 'max_threads=4', "over='x=1..4'")
    >>> flag("parameters", "n,p")
    "parameters='n,p'"
    >>> flag("budget", repr("a+b<=24")), flag("param", "n=p", keyword="params")
    ("budget='a+b<=24'", "params='n=p'")
    >>> with command_line():
    ...     flag("threads", "8"), flag("at"), flag("max-threads", "4"), flag("over", "x=1..4")
    ('--threads 8', '--at', '--max-threads 4', '--over x=1..4')
    """
    if on_command_line():
        return f"--{name} {value}" if value else f"--{name}"
    shown = repr(value) if ("=" in value or "," in value) and value[0] not in "'\"" else value
    return f"{keyword or name.replace('-', '_')}={shown}"


def switch(name: str, keyword: str | None = None) -> str:
    """The switch ``name`` turned on as the caller does it: ``--name`` on the command line,
    ``name=True`` from Python (dashes to underscores, or ``keyword``).

    >>> switch("allow-nonpositive")
    'allow_nonpositive=True'
    >>> with command_line():
    ...     switch("allow-nonpositive")
    '--allow-nonpositive'
    """
    return f"--{name}" if on_command_line() else f"{keyword or name.replace('-', '_')}=True"


def either(command: str, python: str) -> str:
    """``command`` on the command line, ``python`` from Python: advice that names a whole
    command (``eval --at x=5``), which Python does with a function (``model(term, x=5)``).

    >>> either("eval --at x=5", "model(term, x=5)")
    'model(term, x=5)'
    >>> with command_line():
    ...     either("eval --at x=5", "model(term, x=5)")
    'eval --at x=5'
    """
    return command if on_command_line() else python


def at_text(binding: str) -> str:
    """A binding (``x=1``, ``x=1, n=4``) as the caller wrote it: ``--at x=1`` on the command
    line, ``x=1`` from Python (a keyword of ``model``, a key of ``at=``).

    >>> at_text("x=1")
    'x=1'
    >>> with command_line():
    ...     at_text("x=1")
    '--at x=1'
    """
    return f"--at {binding}" if on_command_line() else binding
