"""A model or machine file's TOML text as data: nesting bounded before ``tomllib`` reads it
(it recurses on arrays), every error a :class:`~patternalg.errors.ModelFileError` at its place.

>>> load_toml("format = 1", "m.toml")
{'format': 1}
>>> load_toml("a = " + "[" * 200 + "]" * 200, "m.toml")
Traceback (most recent call last):
...
patternalg.errors.ModelFileError: m.toml:1: arrays and inline tables nest deeper than 100 levels
>>> load_toml("format = ", "m.toml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
patternalg.errors.ModelFileError: m.toml: not valid TOML: ...
>>> load_toml("cores = " + "9" * 5000, "m.toml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
patternalg.errors.ModelFileError: m.toml: an integer of more than 4,300 digits (the most Python reads as a number)
>>> load_toml("# a comment\\n\\nnot a model file", "m.toml")
Traceback (most recent call last):
...
patternalg.errors.ModelFileError: m.toml:3: not valid TOML: the first statement is neither a [table] nor a key = value
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import Location, ModelFileError
from .limits import toml_nesting_problem

__all__ = ["load_toml"]


#: the first statement of a TOML text (after blank lines and comments), as far as it is
#: looked at: the first :data:`_LOOKED_AT` characters
_FIRST_STATEMENT = re.compile(r"(?:[ \t\r\n]|#[^\n]*)*(?P<line>[^\n]*)")
_LOOKED_AT = 1 << 16


def load_toml(text: str, path: str) -> dict[str, Any]:
    """``text`` parsed as TOML (``path`` names it in errors)."""
    import tomllib

    first = _FIRST_STATEMENT.match(text, 0, _LOOKED_AT)
    if first is not None and first["line"] and not first["line"].startswith("[") and "=" not in first["line"]:
        line = text.count("\n", 0, first.start("line")) + 1
        raise ModelFileError(
            "not valid TOML: the first statement is neither a [table] nor a key = value",
            location=Location(path, line=line),
        )  # before a minute of tomllib on 200 MB of something else
    too_deep = toml_nesting_problem(text)
    if too_deep:
        line, why = too_deep
        raise ModelFileError(why, location=Location(path, line=line))
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ModelFileError(f"not valid TOML: {exc}", location=Location(path)) from None
    except ValueError:  # an integer of more digits than Python converts (4,300)
        raise ModelFileError(
            "an integer of more than 4,300 digits (the most Python reads as a number)",
            location=Location(path),
        ) from None
