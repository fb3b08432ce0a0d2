"""Errors for people: every user error is a :class:`PatternalgError`.

Each error also inherits the builtin a caller would expect (``ValueError`` for bad
values, ``KeyError`` for unknown names), and ``str(error)`` is one line that says
what went wrong, where, and what would be valid.
"""

from __future__ import annotations


class PatternalgError(Exception):
    """Base class of all errors caused by user input."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else self.__class__.__name__


class ParseError(PatternalgError, ValueError):
    """Text that does not parse as a term, an expression or a law.

    ``line`` and ``column`` are 1-based; ``excerpt`` is the offending line with a caret.
    """

    def __init__(self, message: str, line: int = 0, column: int = 0, excerpt: str = "") -> None:
        super().__init__(message)
        self.line = line
        self.column = column
        self.excerpt = excerpt


class UnknownAtomError(PatternalgError, KeyError):
    """A name that the model library does not hold."""

    def __init__(self, name: str, suggestions: list[str] | None = None) -> None:
        self.name = name
        self.suggestions = list(suggestions or [])
        hint = (
            f"; did you mean {', '.join(self.suggestions)}?"
            if self.suggestions
            else "; `patternalg models` lists the known atoms"
        )
        super().__init__(f"unknown atom '{name}'{hint}")


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
