"""Where a value is trustworthy: extrapolation beyond a model's measured ranges, and
points where the answer cannot be a time (x below 1, negative values).

Each fitted atomic model records the measured [low, high] of every input symbol
(``AtomicModel.domain``). A term evaluated at a point evaluates each of its atoms at a point
of its own: the bound values, an atom's annotations (``kernel[p=8]``), and inside a
mapReduce (paper 001, eq. 5) the map at x = 1, the shuffle and the reduce at x = d(x).

>>> from patternalg.library.model_library import AtomicModel, ModelLibrary
>>> from patternalg.syntax.symbols import x
>>> from patternalg.syntax.parser import parse
>>> lib = ModelLibrary([AtomicModel("sort", 3 * x, x_range=(1000.0, 32000.0))])
>>> found = extrapolations(parse("tpool_4(sort)"), lib, {"x": 10**5})
>>> [str(e) for e in found]
['x = 100000 is outside the measured range of sort (x in [1000, 32000]): extrapolated']
>>> as_json(found)
{'x': [1000.0, 32000.0]}
>>> extrapolations(parse("tpool_4(sort)"), lib, {"x": 2000})
[]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sympy

from ..syntax.arith import number_text
from ..syntax.symbols import m as m_symbol
from ..syntax.symbols import n as n_symbol
from ..syntax.symbols import o as o_symbol
from ..syntax.symbols import symbol
from ..syntax.symbols import x as x_symbol
from ..syntax.terms import Atom, MapReduce, Term
from .bindings import as_value
from .render import value_text

__all__ = [
    "Extrapolation", "extrapolations", "extrapolation_notes", "as_json", "point_notes", "range_notes",
    "negative_note",
]


def _number(value: float) -> str:
    """The shortest text of ``value``: whole numbers without a fraction (100000, not 1e+05)."""
    return str(int(value)) if value.is_integer() and abs(value) < 1e16 else repr(value)


@dataclass(frozen=True)
class Extrapolation:
    """Atom ``atom`` is evaluated at ``symbol = value``, outside its measured [low, high]."""

    atom: str
    symbol: str
    value: float
    low: float
    high: float
    #: the value's text where no double holds it (x = 2^2000 is no ``inf``)
    shown: str = ""

    def __str__(self) -> str:
        return (
            f"{self.symbol} = {self.shown or _number(self.value)} is outside the measured range of "
            f"{self.atom} ({self.symbol} in [{_number(self.low)}, {_number(self.high)}]): "
            "extrapolated"
        )


#: at most this many atoms are named in one note on extrapolation, then how many more
MAX_NAMED = 4


def extrapolation_notes(found: Sequence[Extrapolation]) -> list[str]:
    """One note per symbol, value and measured range, naming the atoms evaluated there
    (a profile's term at a new ``p`` leaves the range of every node's model at once: one
    line, not one per node).

    >>> a = Extrapolation("inc", "x", 1e6, 1024.0, 16384.0)
    >>> b = Extrapolation("qsort", "x", 1e6, 1024.0, 16384.0)
    >>> for note in extrapolation_notes([a, b, Extrapolation("nop", "x", 1e6, 1024.0, 4096.0)]):
    ...     print(note)
    x = 1000000 is outside the measured range of inc, qsort (x in [1024, 16384]): extrapolated
    x = 1000000 is outside the measured range of nop (x in [1024, 4096]): extrapolated
    """
    groups: dict[tuple[str, float, float, float, str], list[str]] = {}
    for item in found:
        atoms = groups.setdefault((item.symbol, item.value, item.low, item.high, item.shown), [])
        if item.atom not in atoms:
            atoms.append(item.atom)
    notes = []
    for (name, value, low, high, shown), atoms in groups.items():
        named = ", ".join(atoms[:MAX_NAMED])
        if len(atoms) > MAX_NAMED:
            named = f"{named} and {len(atoms) - MAX_NAMED} more atoms"
        notes.append(str(Extrapolation(named, name, value, low, high, shown)))
    return notes


def _numeric(expr: sympy.Expr | None) -> float | None:
    if expr is None or not expr.is_number:
        return None
    try:
        return float(expr)
    except (TypeError, ValueError):  # complex or undefined
        return None


def extrapolations(
    term: Term, library: Mapping[str, Any], bindings: Mapping[str, Any]
) -> list[Extrapolation]:
    """Every (atom, symbol) evaluated outside the atom's measured range, in term order."""
    env = {symbol(k): as_value(v) for k, v in bindings.items()}
    found: list[Extrapolation] = []
    stack: list[tuple[Term, dict[sympy.Symbol, sympy.Expr]]] = [(term, env)]
    while stack:
        node, here = stack.pop()
        if isinstance(node, Atom):
            at = {**here, **{symbol(k): v for k, v in node.annotations}}
            found.extend(_outside(node.name, library[node.name], at))
        elif isinstance(node, MapReduce):
            per_key = node.per_key.xreplace(here)
            shuffle_at = {
                **here,
                x_symbol: per_key,
                m_symbol: node.nodes.xreplace(here),
                n_symbol: node.threads.xreplace(here),
                o_symbol: (node.shuffle.keys if node.shuffle else node.keys).xreplace(here),
            }
            name = node.shuffle.name if node.shuffle is not None else "shuffle"
            found.extend(_outside(name, library[name], shuffle_at))
            stack.append((node.reduce, {**here, x_symbol: per_key}))
            stack.append((node.map, {**here, x_symbol: sympy.Integer(1)}))
        else:
            stack.extend((child, here) for child in reversed(node.children()))
    return found


def _outside(name: str, model: Any, at: Mapping[sympy.Symbol, sympy.Expr]) -> list[Extrapolation]:
    result = []
    for key, (low, high) in model.domain:
        given = at.get(symbol(key))
        value = _numeric(given)
        if value is not None and not low <= value <= high:
            shown = str(sympy.Float(given, 7)) if math.isinf(value) else ""
            result.append(Extrapolation(name, key, value, low, high, shown))
    return result


def as_json(found: Sequence[Extrapolation]) -> dict[str, list[float]]:
    """``{symbol: [low, high]}``: the measured range of each symbol that is extrapolated
    (of the first atom extrapolated in it)."""
    result: dict[str, list[float]] = {}
    for item in found:
        result.setdefault(item.symbol, [item.low, item.high])
    return result


def point_notes(bindings: Mapping[str, Any], value: sympy.Expr | None, unit: str) -> list[str]:
    """Notes for a point where a time cannot be trusted: x below 1, a value below 0.

    >>> point_notes({"x": 0.5}, sympy.Float(-312.4), "ns")
    ['x = 0.5 is below 1: x counts input elements, the models describe x >= 1', 'the value -312.4 ns is negative: no time can be; the models do not hold at this point']
    >>> point_notes({"x": 4}, sympy.Float(12.0), "ns")
    []
    >>> point_notes({"x": "1e-400"}, None, "ns")
    ['x = 1.00e-400 is below 1: x counts input elements, the models describe x >= 1']
    """
    notes = []
    exact = as_value(bindings["x"]) if "x" in bindings else None
    size = _numeric(exact)
    if size is not None and size < 1:
        # a value too small for a double is still not 0: shown from the exact one (1e-400)
        shown = _number(size) if size or exact == 0 else str(sympy.Float(exact, 3))
        notes.append(f"x = {shown} is below 1: x counts input elements, the models describe x >= 1")
    if value is not None and value.is_negative:
        notes.append(
            f"the value {value_text(value)} {unit} is negative: {_none_can_be(unit)}; "
            "the models do not hold at this point"
        )
    return notes


def range_notes(
    terms: Sequence[Term],
    library: Mapping[str, Any],
    fixed: Mapping[str, Any],
    ranges: Mapping[str, tuple[float, float]],
) -> list[str]:
    """Notes for terms evaluated over ``ranges`` (symbol -> [low, high]) with ``fixed``
    bound: every atom evaluated outside its measured range at an end of the ranges (an
    atom's symbols grow with the swept ones, so the ends are where it leaves its range),
    and x below 1.

    >>> from patternalg.library.model_library import AtomicModel, ModelLibrary
    >>> from patternalg.syntax.symbols import x
    >>> from patternalg.syntax.parser import parse
    >>> lib = ModelLibrary([AtomicModel("sort", 3 * x, x_range=(1000.0, 32000.0))])
    >>> for note in range_notes([parse("tpool_4(sort)")], lib, {}, {"x": (0.5, 2000.0)}):
    ...     print(note)
    x = 0.5 is outside the measured range of sort (x in [1000, 32000]): extrapolated
    x = 0.5 is below 1: x counts input elements, the models describe x >= 1
    >>> range_notes([parse("tpool_4(sort)")], lib, {}, {"x": (1000.0, 32000.0)})
    []
    """
    ends = [[(name, low), (name, high)] for name, (low, high) in ranges.items()]
    notes: dict[str, None] = {}
    for corner in itertools.product(*ends):
        at = {**fixed, **dict(corner)}
        found = [e for term in terms for e in extrapolations(term, library, at)]
        notes.update(dict.fromkeys(extrapolation_notes(found)))
        notes.update(dict.fromkeys(point_notes(at, None, "")))
    return list(notes)


def negative_note(name: str, least: float, unit: str) -> list[str]:
    """The note for a design whose values go below 0 (down to ``least``), else none.

    >>> negative_note("qsort", -517.085, "ns")
    ['qsort: values down to -517.085 ns are negative: no time can be; the models do not hold there']
    """
    if not least < 0:
        return []
    return [
        f"{name}: values down to {number_text(least)} {unit} are negative: {_none_can_be(unit)}; the "
        "models do not hold there"
    ]


def _none_can_be(unit: str) -> str:
    """Why a negative value in ``unit`` is no answer: no time is negative, nor any amount
    of work or speed a model of another unit gives (bytes, a throughput).

    >>> _none_can_be("ns"), _none_can_be("dimensionless")
    ('no time can be', 'no measured amount can be')
    """
    from ..errors import UnitError
    from .units import is_time

    try:
        return "no time can be" if is_time(unit) else "no measured amount can be"
    except UnitError:
        return "no measured amount can be"
