"""Declared options: a keyword option declared once, checked the same way everywhere.

A family declares the keyword options of its :meth:`~patternalg.forms.Form.fit` as
:class:`Option` s, and a command or a library function its own numbers (``tune --runs``,
``explore --top``); ``patternalg`` builds each flag from the declaration
(``commands.flags``) and checks the value against it, so a limit is written once and read
the same way in the library and on the command line.

>>> runs = Option("runs", 30, "tuning runs", type=int, minimum=1, maximum=10_000)
>>> runs.flag, runs.value(None), runs.value(5)
('--runs', 30, 5)
>>> runs.value(0)
Traceback (most recent call last):
...
patternalg.errors.FitError: runs=0: must be between 1 and 10,000
>>> from patternalg.errors import EvaluationError
>>> Option("top", 10, "designs to show", type=int, minimum=1, error=EvaluationError).value(-2)
Traceback (most recent call last):
...
patternalg.errors.EvaluationError: top=-2: must be at least 1
"""

from __future__ import annotations

import builtins
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import FitError, PatternalgError
from .surface import flag

__all__ = ["Option"]


@dataclass(frozen=True)
class Option:
    """A keyword option, declared once: a family's fit option or a command's own.

    Its flag is ``--NAME`` (``_`` written ``-``) unless ``cli`` names another; ``repeat``
    makes a list option given once per value; ``default_text`` is the default in words
    where ``default`` is None (decided later, as "the value column's"); ``error`` is the
    error a value that is not valid raises (a family's: :class:`FitError`).
    """

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    type: type = str
    minimum: float | None = None
    maximum: float | None = None
    repeat: bool = False
    metavar: str | None = None
    cli: str | None = None
    default_text: str | None = None
    error: builtins.type[PatternalgError] = FitError

    @property
    def flag(self) -> str:
        """The command-line flag: ``cli``, else ``--NAME`` with ``_`` written ``-``."""
        return self.cli or "--" + self.name.replace("_", "-")

    def value(self, raw: Any) -> Any:
        """``raw`` checked against the declaration (a FitError naming the flag, or from Python
        the argument, if not valid),
        a number as Python's (numpy's ``int64`` is not JSON's).

        >>> import numpy as np
        >>> type(Option("top", 10, "designs", type=int).value(np.int64(4)))
        <class 'int'>
        """
        if raw is None:
            return self.default
        values = self._items(raw) if self.repeat else [raw]
        for item in values:
            if self.choices is not None and item not in self.choices:
                valid = ", ".join(str(c) for c in self.choices)
                raise self.error(f"unknown {self.name} '{item}' (valid: {valid})")
            if not self._typed(item):
                kind = _KINDS.get(self.type, self.type.__name__)
                bounds = "" if self.minimum is None and self.maximum is None else f" {self._bounds()}"
                raise self.error(f"{self._said(repr(item))}: expected {kind}{bounds}")
            if not self._within(item):
                raise self.error(f"{self._said(str(item))}: must be {self._bounds()}")
        plain = [self.type(item) if self.type in (int, float) else item for item in values]
        return tuple(plain) if self.repeat else plain[0]

    def _items(self, raw: Any) -> list[Any]:
        """The values of a repeated option: one text is one value; an option of
        ``NAME=VALUE`` items (its metavar says so) also takes a dict ``{name: value}``.

        >>> param = Option("param", (), "symbols", repeat=True, metavar="NAME=SYMBOL")
        >>> param.value({"p": "x", "n": "y"}), param.value("p=x"), param.value(["p=x"])
        (('p=x', 'n=y'), ('p=x',), ('p=x',))
        """
        if isinstance(raw, str):
            return [raw]
        if isinstance(raw, Mapping) and self.metavar is not None and "=" in self.metavar:
            return [f"{name}={value}" for name, value in raw.items()]
        try:
            return list(raw)
        except TypeError:
            raise self.error(
                f"{self._said(repr(raw))}: expected a list of {self.metavar or self.type.__name__}"
            ) from None

    def _said(self, value: str) -> str:
        """``value`` after the flag on the command line, as the keyword from Python
        (:func:`~.surface.flag`: ``runs=0``, also where ``cli`` names another flag)."""
        return flag(self.flag.removeprefix("--"), value, keyword=self.name)

    def _typed(self, item: Any) -> bool:
        """Of the declared type; any integer (numpy's too) for ``int``, never a bool."""
        if isinstance(item, bool) or self.type is bool:
            return isinstance(item, bool) and self.type is bool
        wanted = numbers.Integral if self.type is int else self.type
        return isinstance(item, wanted)

    def _within(self, item: Any) -> bool:
        low, high = self.minimum, self.maximum
        return (low is None or item >= low) and (high is None or item <= high)

    def _bounds(self) -> str:
        """The valid range in words: at least 1, at most 10, between 1 and 1,000,000."""
        low, high = (None if b is None else _bound_text(b) for b in (self.minimum, self.maximum))
        if low is not None and high is not None:
            return f"between {low} and {high}"
        return f"at least {low}" if high is None else f"at most {high}"


#: an option's type in words, for the error of a value of another type
_KINDS = {int: "a whole number", float: "a number", str: "a text"}


def _bound_text(value: float) -> str:
    """A bound as people write it: 1,000,000 and 0.5."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"
