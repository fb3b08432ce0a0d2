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
"""

from __future__ import annotations

from typing import Any

from ..errors import Location, ModelFileError
from .limits import toml_nesting_problem

__all__ = ["load_toml"]


def load_toml(text: str, path: str) -> dict[str, Any]:
    """``text`` parsed as TOML (``path`` names it in errors)."""
    import tomllib

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
