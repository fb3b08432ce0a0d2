"""The text of a unit: which texts name a unit (pint's registry, exact, built on first use),
the one check of a unit's text (:func:`check_unit`), and the units that need no pint.

Apart from :mod:`.units` (the conversions, over libraries of models) so that an
:class:`~patternalg.algebra.atomic_model.AtomicModel` checks its own unit.

>>> check_unit("ms"), check_unit(" T1 ")
('ms', 'T1')
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from .._internal.limits import MAX_UNIT_TEXT, printable
from ..errors import ArgumentError, UnitError

__all__ = ["DEFAULT_UNIT", "ONE_CORE_TIME", "TIME_EXAMPLES", "check_unit", "pint_registry", "pint_unit"]

#: the unit of the built-in models, and of a composition of times unless ``--unit`` says
DEFAULT_UNIT = "ns"
#: the unit of the memory-wall models (paper 003): multiples of the 1-core time
ONE_CORE_TIME = "T1"
#: examples of valid time units, for messages (any unit pint reads as a time is valid)
TIME_EXAMPLES = ("ns", "us", "ms", "s", "min")


@functools.cache
def pint_registry() -> Any:
    """pint's registry, built on first use, with exact (Fraction) magnitudes."""
    import pint

    registry: Any = pint.UnitRegistry(non_int_type=Fraction)
    # the memory-wall models (paper 003) give times in multiples of the 1-core time: a
    # dimension of its own, so that they never add to absolute times
    registry.define(f"{ONE_CORE_TIME} = [one_core_time]")
    return registry


@functools.lru_cache(maxsize=256)
def pint_unit(text: str) -> Any:
    """pint's unit of ``text``; a UnitError for text pint does not read, or longer than
    :data:`~patternalg._internal.limits.MAX_UNIT_TEXT` characters (pint's parser is
    quadratic in it)."""
    if not isinstance(text, str):
        raise UnitError(f"a unit is a text such as {', '.join(TIME_EXAMPLES)}, not {text!r:.40}")
    if len(text) > MAX_UNIT_TEXT:
        raise UnitError(
            f"'{printable(text)}' is not a unit: {len(text):,} characters (limit: {MAX_UNIT_TEXT})"
        )
    if not text.strip():  # pint reads nothing as dimensionless
        raise UnitError(f"'{printable(text)}' is not a unit (e.g. {', '.join(TIME_EXAMPLES)}, bytes)")
    registry = pint_registry()
    try:
        unit = registry.Unit(text.strip())
    except Exception:  # pint raises UndefinedUnitError, but also parser errors of any kind
        raise UnitError(
            f"'{printable(text)}' is not a unit (e.g. {', '.join(TIME_EXAMPLES)}, bytes)"
        ) from None
    return unit


def check_unit(text: str, where: str = "unit") -> str:
    """``text`` without the blanks around it if it names a unit (any unit pint knows), else
    a UnitError at ``where``: the one place a unit's text is checked and trimmed (a unit
    " ms" kept its blank in every header and note).

    >>> check_unit("ms"), check_unit("bytes"), check_unit(" ms ")
    ('ms', 'bytes', 'ms')
    >>> check_unit("time", "m.toml: models.k.unit")
    Traceback (most recent call last):
    ...
    patternalg.errors.UnitError: m.toml: models.k.unit: 'time' is not a unit (e.g. ns, us, ms, s, min, bytes)
    """
    if not isinstance(text, str):
        raise ArgumentError.wanted(where, "a unit's name, e.g. ns or ms", text)
    unit = text.strip()
    if unit not in (DEFAULT_UNIT, ONE_CORE_TIME):  # the built-ins' units: no pint to load
        try:
            pint_unit(text)
        except UnitError as exc:
            raise UnitError(f"{where}: {exc}") from None
    return unit
