"""A run's parameter: ``--param SOURCE[=SYMBOL]``, read from its metadata or its file name.

``SOURCE`` is a metadata key of the profile (``mpi.world.size``, a Caliper/Adiak global), else
the number right after the key in the file's name or its folder's (``nx_n4000_r1.pstats``:
``n`` is 4000; ``mm.p8.n1024.r1/profile.cubex``: ``p`` is 8), as Extra-P names its runs.
``SYMBOL`` is the model's symbol; by default the key itself, when it can be one. Runs with
equal values are repetitions; a value is positive (PMNF fits its logarithm).

>>> Param.parse("mpi.world.size=p"), Param.parse("n")
(Param(source='mpi.world.size', symbol='p'), Param(source='n', symbol='n'))
>>> Param.parse("n").value_of("runs/nx_n4000_r1.pstats", {})
4000.0
>>> Param.parse("mpi.world.size=p").value_of("27_cores.cali", {"mpi.world.size": "27"})
27.0
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from .._internal.surface import flag
from ..arguments import as_each
from ..errors import Location, MeasurementError
from ..syntax.parser import SYMBOL_RULE, is_symbol_name

__all__ = ["Param", "params_of", "param_text"]

_NUMBER = r"(\d+(?:[.,]\d+)?(?:[eE][+-]?\d+)?)"


def param_text(text: str) -> str:
    """``--param TEXT`` on the command line, ``params=TEXT`` from Python (``CallTree.of``'s)."""
    return flag("param", text, keyword="params")


@dataclass(frozen=True)
class Param:
    """Where a run's parameter comes from (``source``) and the model's symbol for it."""

    source: str
    symbol: str

    @classmethod
    def parse(cls, text: str) -> Param:
        """``SOURCE[=SYMBOL]`` as ``--param`` spells it."""
        source, sep, symbol = (part.strip() for part in str(text).partition("="))
        if not source:
            raise MeasurementError(f"{param_text(repr(text))}: expected SOURCE[=SYMBOL], e.g. {param_text('mpi.world.size=p')}")
        symbol = symbol if sep else source
        if not is_symbol_name(symbol):
            hint = "" if sep else f": name one, e.g. {param_text(f'{source}=p')}"
            raise MeasurementError(
                f"{param_text(repr(text))}: '{symbol}' is no symbol ({SYMBOL_RULE}){hint}"
            )
        return cls(source, symbol)

    def value(self, profile: Any) -> float:
        """This parameter's value in ``profile`` (a :class:`~patternalg.profiles.tree.Profile`)."""
        return self.value_of(profile.source, profile.metadata)

    def value_of(self, source: str, metadata: Mapping[str, Any]) -> float:
        """The value in ``metadata`` under :attr:`source`, else in the file name ``source``;
        an error naming the run where it is not positive."""
        value = self._found(source, metadata)
        if value <= 0:
            raise MeasurementError(
                f"{self.source} = {value:g} is not positive (a parameter's value is, e.g. a count of ranks)",
                location=Location(source),
            )
        return value

    def _found(self, source: str, metadata: Mapping[str, Any]) -> float:
        """The number in ``metadata`` under :attr:`source`, else in the file name ``source``."""
        if self.source in metadata:
            text = str(metadata[self.source]).strip()
            value = _number(text.replace(",", "."))
            if value is None:
                raise MeasurementError(
                    f"{param_text(self.source)}: its value {text!r} is not a number",
                    location=Location(source),
                )
            return value
        path = PurePath(source)
        pattern = re.compile(r"(?<![A-Za-z])" + re.escape(self.source) + _NUMBER)
        for name in (path.name, path.parent.name):
            found = pattern.search(name)
            if found:
                value = _number(found.group(1).replace(",", "."))
                if value is not None:
                    return value
        keys = ", ".join(sorted(metadata)[:12]) or "none"
        raise MeasurementError(
            f"no parameter {self.source}: no metadata key '{self.source}' (keys: {keys}) and no "
            f"number after '{self.source}' in the file's name (e.g. nx_{self.source}4000_r1)",
            location=Location(source),
        )


def params_of(params: Any) -> list[Param]:
    """One or a list of :class:`Param` or their texts ``SOURCE[=SYMBOL]``; an error for a
    source or a symbol given twice."""
    what = "a Param or its text SOURCE[=SYMBOL] such as 'mpi.world.size=p', or a list of them"
    items = [params] if isinstance(params, Param) else as_each(params, (Param, str), "params", what)
    chosen = [p if isinstance(p, Param) else Param.parse(p) for p in items]
    sources: set[str] = set()
    symbols: set[str] = set()
    for param in chosen:
        if param.source in sources:
            raise MeasurementError(f"{param_text(param.source)} is given twice: give each parameter once")
        if param.symbol in symbols:
            raise MeasurementError(
                f"{param_text(f'{param.source}={param.symbol}')}: the symbol {param.symbol} is given twice "
                "(each parameter its own symbol)"
            )
        sources.add(param.source)
        symbols.add(param.symbol)
    return chosen


def _number(text: str) -> float | None:
    """A finite number, or None."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None
