"""The parameters of a family: the keys of its model-file table, each a finite number within
bounds or an expression of the safe arithmetic (never eval'd), checked with a location.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sympy

from ..algebra.atomic_model import COMMON_KEYS
from ..errors import ModelFileError, ParseError, close_names, did_you_mean

__all__ = ["Parameter", "check_keys"]


@dataclass(frozen=True)
class Parameter:
    """One parameter of a family: a key of its model-file table.

    ``kind`` is ``"number"`` (a finite number within ``bounds``) or ``"expression"`` (a
    number or a text of the grammar's safe arithmetic, never eval'd). ``check`` receives
    the sympy value and returns why it is not valid, or None.

    >>> Parameter("alpha", bounds=(0.0, 1.0)).value(0.5, "m.a")
    0.500000000000000
    >>> Parameter("alpha", bounds=(0.0, 1.0)).value(2, "m.a")
    Traceback (most recent call last):
    ...
    patternalg.errors.ModelFileError: m.a.alpha: 2 is outside [0.0, 1.0]
    """

    name: str
    kind: str = "number"
    bounds: tuple[float, float] = (-math.inf, math.inf)
    required: bool = True
    check: Callable[[sympy.Expr], str | None] | None = None
    help: str = ""

    def value(self, raw: Any, where: str) -> sympy.Expr:
        """The sympy value of ``raw`` (a table's entry), or a ModelFileError at ``where``."""
        key = f"{where}.{self.name}"
        if self.kind == "expression":
            result = _expression(raw, key)
        else:
            result = _number(raw, key, *self.bounds)
        reason = self.check(result) if self.check else None
        if reason:
            raise ModelFileError(f"{key}: {reason}")
        return result

    def normalised(self, raw: Any) -> Any:
        """What the table holds for ``raw``: numbers stay numbers (a numpy scalar a plain
        one), sympy values become text.

        >>> import numpy as np
        >>> value = Parameter("alpha").normalised(np.float64(0.9))
        >>> value, type(value)
        (0.9, <class 'float'>)
        """
        if isinstance(raw, sympy.Basic):
            from ..syntax.arith import format_expr

            if raw.is_Number:
                return int(raw) if raw.is_Integer else float(raw)
            return format_expr(raw)  # a number's parameter refuses it as text
        item = getattr(raw, "item", None)  # a numpy scalar (np.float64 is a float: its type)
        return item() if callable(item) and type(raw) not in (int, float, str) else raw


def _number(raw: Any, key: str, low: float, high: float) -> sympy.Expr:
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not abs(raw) <= sys.float_info.max:
        within = f" in [{low}, {high}]" if math.isfinite(low) or math.isfinite(high) else ""
        raise ModelFileError(f"{key}: expected a finite number{within}, got {_shown(raw)}")
    if not low <= raw <= high:
        raise ModelFileError(f"{key}: {raw} is outside [{low}, {high}]")
    return sympy.Integer(raw) if isinstance(raw, int) else sympy.Float(raw)


def _shown(raw: Any) -> str:
    """A wrong value as a message shows it: its ``repr``, printable and short."""
    from .._internal.limits import printable

    try:
        return printable(repr(raw), limit=40)
    except ValueError:  # an int of more digits than Python prints
        return f"a very large {type(raw).__name__}"


def _expression(raw: Any, key: str) -> sympy.Expr:
    from ..syntax.parser import parse_arithmetic

    if isinstance(raw, bool) or not isinstance(raw, int | float | str):
        raise ModelFileError(f"{key}: expected an expression string or a number, got {_shown(raw)}")
    if not isinstance(raw, str):
        return _number(raw, key, -math.inf, math.inf)
    try:
        return parse_arithmetic(raw)
    except ParseError as exc:
        raise ModelFileError(f"{key}: {exc}") from None


def check_keys(
    table: Mapping[str, Any],
    where: str,
    required: Sequence[str],
    optional: Sequence[str] = (),
    *,
    common: Sequence[str] = COMMON_KEYS,
    word: str = "key",
) -> None:
    """Every required key present, nothing unknown (with did-you-mean); ``common``, the
    other keys valid beside, and the ``word`` for a key (a constructor's "argument").

    >>> check_keys({"alpa": 1}, "Amdahl", ["alpha"], common=(), word="argument")
    Traceback (most recent call last):
    ...
    patternalg.errors.ModelFileError: Amdahl.alpa: unknown argument (did you mean 'alpha'? valid: alpha)
    """
    valid = [*required, *optional]
    for key in table:
        if key not in valid:
            hint = did_you_mean(close_names(key, valid), quote="'", after=" ")
            raise ModelFileError(
                f"{where}.{key}: unknown {word} ({hint}valid: {', '.join([*valid, *common])})"
            )
    for key in required:
        if key not in table:
            raise ModelFileError(f"{where}: missing {word} '{key}'")
