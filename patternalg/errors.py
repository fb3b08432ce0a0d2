"""Errors for people: every user error is a :class:`PatternalgError`.

Each error also inherits the builtin a caller would expect (``ValueError`` for bad
values, ``KeyError`` for unknown names), keeps what went wrong in fields, and builds its
one-line message in ``__str__`` (what, where, and what would be valid), so that an error
survives pickling (a worker process, a cache) with the same message. Places in files are
a :class:`Location`.

>>> error = ModelFileError("expected a string, got 3", location=Location("m.toml", key="models.sort.unit"))
>>> str(error), error.message, error.location.path
('m.toml: models.sort.unit: expected a string, got 3', 'expected a string, got 3', 'm.toml')
>>> import pickle
>>> str(pickle.loads(pickle.dumps(UnknownAtomError("qsrot", ["qsort"]))))
"unknown atom 'qsrot'; did you mean qsort?"
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ._internal.limits import printable
from ._internal.surface import either


@dataclass(frozen=True)
class Location:
    """A place in a file: ``path:line:column``, or ``path: key`` for a key of a table.

    >>> str(Location("m.csv", 12)), str(Location("m.csv", 3, 7))
    ('m.csv:12', 'm.csv:3:7')
    >>> str(Location("lib.toml", key="models.sort.unit"))
    'lib.toml: models.sort.unit'
    """

    path: str
    line: int | None = None
    column: int | None = None
    key: str | None = None

    def __str__(self) -> str:
        text = str(self.path)
        if self.line is not None:
            text += f":{self.line}" + (f":{self.column}" if self.column is not None else "")
        return f"{text}: {self.key}" if self.key else text


def close_names(name: str, valid: Iterable[str], *, n: int = 1, cutoff: float = 0.6) -> list[str]:
    """The names of ``valid`` closest to an unknown ``name``, closest first, at most ``n``
    (difflib's ratio at least ``cutoff``; difflib is imported only when a name is unknown).

    >>> close_names("qsrot", ["inc", "qsort", "sort"], n=3)
    ['qsort', 'sort']
    """
    import difflib

    return difflib.get_close_matches(name, list(valid), n=n, cutoff=cutoff)


def did_you_mean(
    suggestions: Sequence[str], *, quote: str = "", before: str = "", after: str = ""
) -> str:
    """The one wording of a hint for an unknown name: ``did you mean a, b?`` (each name
    between two ``quote`` marks), between ``before`` and ``after``; nothing without suggestions.

    >>> did_you_mean(close_names("amdhal", ["amdahl", "expr"]), quote="'", after=" ")
    "did you mean 'amdahl'? "
    >>> did_you_mean(["qsort", "sort"], before="; "), did_you_mean([], before="; ")
    ('; did you mean qsort, sort?', '')
    """
    if not suggestions:
        return ""
    names = ", ".join(f"{quote}{name}{quote}" for name in suggestions)
    return f"{before}did you mean {names}?{after}"


def _restore(cls: type[PatternalgError], args: tuple[Any, ...], state: dict[str, Any]) -> Any:
    """Unpickle an error from its fields, without running ``__init__`` again."""
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class PatternalgError(Exception):
    """Base class of all errors caused by user input: a ``message`` and where it happened.

    >>> str(PatternalgError("bad value")), str(PatternalgError("bad", location=Location("f.csv", 3)))
    ('bad value', 'f.csv:3: bad')
    """

    def __init__(self, message: str = "", *, location: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        text = self.message or self.__class__.__name__
        return f"{self.location}: {text}" if self.location is not None else text

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (type(self), self.args, dict(self.__dict__)))


class ParseError(PatternalgError, ValueError):
    """Text that does not parse as a term, an expression or a law.

    ``line`` and ``column`` are 1-based (0: unknown); ``excerpt`` is the offending line
    with a caret.

    >>> str(ParseError("unexpected ')'", 1, 5, "pipe^)"))
    "line 1, column 5: unexpected ')': pipe^)"
    """

    def __init__(
        self,
        message: str,
        line: int = 0,
        column: int = 0,
        excerpt: str = "",
        *,
        location: Location | None = None,
    ) -> None:
        super().__init__(message, location=location)
        self.line = line
        self.column = column
        self.excerpt = excerpt

    def __str__(self) -> str:
        if not self.line:
            return super().__str__()
        text = f"line {self.line}, column {self.column}: {self.message}"
        text += f": {self.excerpt}" if self.excerpt else ""
        return f"{self.location}: {text}" if self.location is not None else text


class UnknownAtomError(PatternalgError, KeyError):
    """A name that the model library does not hold; ``suggestions`` are close names,
    ``known`` the names of a library a caller built (a mapping), said beside them.

    >>> str(UnknownAtomError("inc", [], known=["qsort"]))
    "unknown atom 'inc' (the library given has: qsort)"
    """

    def __init__(
        self,
        name: str,
        suggestions: list[str] | None = None,
        *,
        pattern: bool = False,
        known: Sequence[str] | None = None,
    ) -> None:
        super().__init__(name)
        self.name = name
        self.suggestions = list(suggestions or [])
        self.pattern = pattern  #: ``name`` is a glob pattern that matched no model
        self.known = None if known is None else list(known)

    def __str__(self) -> str:
        if self.suggestions:
            hint = did_you_mean(self.suggestions, before="; ")
        elif self.pattern:  # `patternalg models PATTERN` alone
            hint = "; `patternalg models` without a pattern lists them all"
        elif self.known is None:
            hint = f"; {either('`patternalg models`', 'sorted(ModelLibrary.of(library))')} lists the known atoms"
        else:
            hint = ""
        if self.known is not None:
            shown = [printable(n) for n in self.known[:_KNOWN_SHOWN]]
            more = f", ... ({len(self.known):,} in all)" if len(self.known) > _KNOWN_SHOWN else ""
            hint += f" (the library given has: {', '.join(shown)}{more})" if shown else " (the library given is empty)"
        what = "no model matches" if self.pattern else "unknown atom"
        text = f"{what} '{printable(self.name)}'{hint}"
        return f"{self.location}: {text}" if self.location is not None else text


#: the names of a library given an unknown atom's message shows at most
_KNOWN_SHOWN = 20


class ModelFileError(PatternalgError, ValueError):
    """A model file (TOML) that cannot be read: names the file, the key and the reason."""


class EvaluationError(PatternalgError, ValueError):
    """A term that parses but has no model: bad thread counts, division by zero, ..."""


class MeasurementError(PatternalgError, ValueError):
    """A measurement file that cannot be read: names the file, the line and the reason."""


class FitError(PatternalgError, ValueError):
    """Measurements that cannot be fitted (too few points, degenerate data, ...)."""


class UnitError(PatternalgError, ValueError):
    """A unit that is not one, or units that cannot be combined (a time plus bytes)."""


class ArgumentError(PatternalgError, TypeError):
    """A Python argument of a type the function does not take: names the argument and
    what it wants (:mod:`patternalg.arguments`).

    >>> str(ArgumentError.wanted("over", "a grid", 3))
    'over: expected a grid; got int 3'
    """

    @classmethod
    def wanted(cls, name: str, what: str, value: Any) -> ArgumentError:
        """The error for argument ``name`` given ``value`` where ``what`` is wanted."""
        if value is None:
            shown = "None"
        elif isinstance(value, int) and abs(value) > 10**40:
            shown = "a very large int"
        else:
            try:
                shown = f"{type(value).__name__} {printable(repr(value), limit=40)}"
            except Exception:  # noqa: BLE001 - a repr that fails is no reason to fail here
                shown = type(value).__name__
        return cls(f"{name}: expected {what}; got {shown}")


def reason(exc: BaseException) -> str:
    """Why a file could not be read or written, without the file's name (the message
    names it once, as its location): an ``OSError``'s ``strerror``, else its text.

    >>> reason(FileNotFoundError(2, "No such file or directory", "m.toml"))
    'No such file or directory'
    >>> reason(UnicodeDecodeError("utf-8", b"\\xff", 0, 1, "invalid start byte"))
    "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"
    """
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)
