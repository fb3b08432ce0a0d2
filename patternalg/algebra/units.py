"""Units of measured values and of models: validated and converted by pint, exactly.

Every atomic model carries a unit; a term's atoms are converted to one unit before they are
composed. pint (the ecosystem's units library) is imported only when a unit other than
:data:`DEFAULT_UNIT` must be checked or a conversion is needed, so evaluating the built-ins
(all in ns) never loads it. Its registry works in :class:`fractions.Fraction`, so factors
are exact: 1 ms is 1000000 ns, not 999999.9999999999 ns.

>>> factor("ms", "ns"), factor("ns", "us"), factor("s", "s")
(Fraction(1000000, 1), Fraction(1, 1000), Fraction(1, 1))
>>> is_time("min"), is_time("bytes")
(True, False)
>>> check_time_unit("furlongs", "unit", option=True)
Traceback (most recent call last):
...
patternalg.errors.UnitError: unit=furlongs: a length, not a time (valid: ns, us, ms, s, min)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import sympy

from .._internal.limits import MAX_UNIT_TEXT, printable
from .._internal.surface import flag
from ..errors import UnitError
from ..syntax.terms import Atom, MapReduce, Term
from .model_maps import ModelChain
from .unit_text import (
    DEFAULT_UNIT,
    ONE_CORE_TIME,
    TIME_EXAMPLES,
    check_unit,
    pint_registry,
    pint_unit,
)

if TYPE_CHECKING:
    from .atomic_model import AtomicModel

__all__ = [
    "DEFAULT_UNIT",
    "TIME_EXAMPLES",
    "check_unit",
    "check_time_unit",
    "dimension",
    "kind",
    "is_time",
    "factor",
    "common_unit",
    "atom_names",
    "in_one_unit",
    "converted_note",
    "in_unit",
]

#: the kinds (and dimensions) of the built-in models' units, known without loading pint (a
#: fifth of a second, scipy with it): what pint's registry says of them, which a test checks
_BUILTIN_KINDS = {DEFAULT_UNIT: "time", ONE_CORE_TIME: "one_core_time"}


def dimension(text: str) -> str:
    """The unit's dimension in words: ``time``, ``length``, ``1 / time``, ``dimensionless``
    (written here: pint's own formatting fails on its exact exponents).

    >>> dimension("us"), dimension("1/s"), dimension("B"), dimension("ns*ns"), dimension("m/s^2")
    ('time', '1 / time', 'dimensionless', 'time ** 2', 'length / time ** 2')
    """
    if text in _BUILTIN_KINDS:
        return _BUILTIN_KINDS[text]
    return _words({name.strip("[]"): e for name, e in pint_unit(text).dimensionality.items()})


@functools.lru_cache(maxsize=256)
def kind(text: str) -> str:
    """The kind of quantity a unit measures: its :func:`dimension`, with the units of no
    dimension it counts in named as kinds of their own. pint reads a byte as 8 bits and a
    bit, a count and a percentage as mere numbers: they would add up through its factors (a
    byte and a call made 9 calls). Only units of one kind convert into each other. A unit
    whose values are not proportional to its quantity (a logarithmic scale, dB; an offset
    one, degC: 0 degC is no zero) is a kind of its own, converted to no other: a model's
    values in it do not add.

    >>> kind("ms"), kind("bytes"), kind("bit"), kind("count"), kind("%"), kind("byte/s")
    ('time', 'bits', 'bits', 'counts', 'dimensionless', 'bits / time')
    >>> kind("dB"), kind("degC")
    ('dB (a logarithmic or offset scale)', 'degC (a logarithmic or offset scale)')
    """
    if text in _BUILTIN_KINDS:
        return _BUILTIN_KINDS[text]
    registry = pint_registry()
    unit = pint_unit(text)
    if not _proportional(registry, unit):
        return f"{text} (a logarithmic or offset scale)"
    _, root = registry.get_root_units(unit)
    counted = {  # the root units of no dimension, by name (a quantity of 1 lists them)
        f"{name}s": e for name, e in (1 * root).unit_items() if not registry.get_dimensionality(name)
    }
    return _words({**{name.strip("[]"): e for name, e in unit.dimensionality.items()}, **counted})


def _proportional(registry: Any, unit: Any) -> bool:
    """Whether values in ``unit`` are proportional to its quantity: 0 is 0 and 2 twice 1 in
    its root units (a logarithmic converter fails on the registry's exact fractions: not)."""
    try:
        one, two, zero = (registry.Quantity(v, unit).to_root_units().magnitude for v in (1, 2, 0))
    except Exception:  # noqa: BLE001 (pint's converters raise what numpy raises)
        return False
    return bool(zero == 0 and math.isclose(two, 2 * one, rel_tol=1e-12))


def _words(dims: Mapping[str, Any]) -> str:
    """Dimensions (name -> exponent) in words: ``time``, ``1 / time``, ``dimensionless``."""
    if not dims:
        return "dimensionless"

    def power(name: str, exponent: Any) -> str:
        return name if exponent == 1 else f"{name} ** {exponent}"

    above = [power(n, e) for n, e in dims.items() if e > 0]
    below = [power(n, -e) for n, e in dims.items() if e < 0]
    return " / ".join([" * ".join(above) or "1", *below])


def is_time(text: str) -> bool:
    """Whether ``text`` is a unit of time."""
    return kind(text) == "time"


def check_time_unit(text: str, where: str, *, option: bool = False) -> str:
    """``text`` (without the blanks around it) if it is a unit of time (ms, s, minute, ...),
    else a UnitError naming examples at ``where`` (``the hand-off's unit``), or with
    ``option`` at the option ``where`` names, as the caller gave it (``--unit furlongs``
    on the command line, ``unit=furlongs`` from Python)."""

    def said(shown: str = "") -> str:
        if option:
            return flag(where, shown)
        return f"{where} {shown}" if shown else where

    valid = ", ".join(TIME_EXAMPLES)
    try:
        kind = dimension(text)
    except UnitError as exc:
        if isinstance(text, str) and len(text) > MAX_UNIT_TEXT:
            raise UnitError(f"{said()}: {exc}") from None
        raise UnitError(f"{said(printable(str(text)))}: not a unit (valid: {valid})") from None
    if kind != "time":
        raise UnitError(f"{said(printable(text))}: {_kind(kind)}, not a time (valid: {valid})")
    return text.strip()


def factor(source: str, target: str) -> Fraction:
    """The exact factor that turns a value in ``source`` into one in ``target``, units of
    one :func:`kind` (a byte is 8 bits, never 8 counts).

    >>> factor("bytes", "bit")
    Fraction(8, 1)
    >>> factor("bytes", "count")
    Traceback (most recent call last):
    ...
    patternalg.errors.UnitError: cannot convert bytes (bits) to count (counts)
    """
    if source == target:
        return Fraction(1)
    if kind(source) != kind(target):
        raise UnitError(f"cannot convert {source} ({kind(source)}) to {target} ({kind(target)})")
    registry = pint_registry()
    try:
        return Fraction(registry.Quantity(Fraction(1), pint_unit(source)).to(pint_unit(target)).magnitude)
    except Exception:  # noqa: BLE001 (pint's DimensionalityError, a converter's own)
        raise UnitError(f"cannot convert {source} ({kind(source)}) to {target} ({kind(target)})") from None


def common_unit(units: Mapping[str, str], target: str | None = None) -> str:
    """The one unit the atoms (name -> unit) are composed in.

    ``target`` if given; else their unit if they all share one (no import, no conversion);
    else :data:`DEFAULT_UNIT` for times, and otherwise the finest of their units (bits
    before bytes: whatever the atoms' order). Atoms whose units are of different
    :func:`kind` cannot be composed (a byte is no count): a UnitError names two of them.

    >>> common_unit({"inc": "ns", "qsort": "ns"})
    'ns'
    >>> common_unit({"inc": "ns", "kernel": "ms"}), common_unit({"a": "ms"}, "s")
    ('ns', 's')
    >>> common_unit({"inc": "ns"}, "furlongs")
    Traceback (most recent call last):
    ...
    patternalg.errors.UnitError: unit=furlongs: a length, but inc is in ns (a time); valid: a unit of time, e.g. ns, us, ms, s, min
    >>> common_unit({"inc": "ns", "traffic": "bytes"})
    Traceback (most recent call last):
    ...
    patternalg.errors.UnitError: cannot compose inc (ns, a time) with traffic (bytes, bits): convert one of them first
    >>> common_unit({"calls": "count", "traffic": "bytes"})
    Traceback (most recent call last):
    ...
    patternalg.errors.UnitError: cannot compose calls (count, counts) with traffic (bytes, bits): convert one of them first
    >>> common_unit({"traffic": "bytes", "flips": "bit"}), common_unit({"flips": "bit", "traffic": "bytes"})
    ('bit', 'bit')
    """
    distinct = set(units.values())
    if target is None and len(distinct) <= 1:
        return next(iter(distinct), DEFAULT_UNIT)
    first: dict[str, tuple[str, str]] = {}
    for name, unit in units.items():
        first.setdefault(kind(unit), (name, unit))
    if len(first) > 1:
        (a, ua), (b, ub) = list(first.values())[:2]
        raise UnitError(
            f"cannot compose {_describe(a, ua)} with {_describe(b, ub)}: convert one of them first"
        )
    shared, (name, unit) = next(iter(first.items()), ("time", ("", DEFAULT_UNIT)))
    if target is None:
        return DEFAULT_UNIT if shared == "time" else _finest(distinct)
    wanted = kind(target)
    if wanted != shared:
        examples = ", ".join(TIME_EXAMPLES) if shared == "time" else unit
        raise UnitError(
            f"{flag('unit', target)}: {_kind(wanted)}, but {name} is in {unit} ({_kind(shared)}); "
            f"valid: a unit of {shared}, e.g. {examples}"
        )
    return target


def _finest(units: set[str]) -> str:
    """The smallest of units of one kind (by name among equal ones)."""
    first = min(units)
    return min(units, key=lambda unit: (factor(unit, first), unit))


def _kind(kind: str) -> str:
    return f"a {kind}" if kind in {"time", "length", "mass"} else kind


def _describe(name: str, unit: str) -> str:
    return f"{name} ({unit}, {_kind(kind(unit))})"


def atom_names(term: Term) -> list[str]:
    """The atoms a term's model uses, in order: its atoms and the shuffles of its mapReduces.

    >>> from patternalg.syntax.parser import parse
    >>> atom_names(parse("seq(inc, mapReduce_{1,2}^{x,1}(map_hadoop, reduce_hadoop))"))
    ['inc', 'shuffle', 'map_hadoop', 'reduce_hadoop']
    """
    names: dict[str, None] = {}
    for node in term.walk():
        if isinstance(node, Atom):
            names[node.name] = None
        elif isinstance(node, MapReduce):
            names[node.shuffle.name if node.shuffle is not None else "shuffle"] = None
    return list(names)


def _atoms_of(terms: Term | Sequence[Term]) -> list[str]:
    """The atoms of one term or of several, each once, in order."""
    group = [terms] if isinstance(terms, Term) else list(terms)
    return list(dict.fromkeys(name for term in group for name in atom_names(term)))


def in_one_unit(
    terms: Term | Sequence[Term], library: Mapping[str, AtomicModel], unit: str | None = None
) -> tuple[Mapping[str, AtomicModel], str]:
    """The library with the atoms of ``terms`` (one term or several that are compared)
    converted to one unit (:func:`common_unit`), and that unit. Without conversions the
    library itself is returned, and pint is not loaded.

    >>> from patternalg.library.model_library import ModelLibrary
    >>> from patternalg.syntax.parser import parse
    >>> models, unit = in_one_unit(parse("inc"), ModelLibrary.builtin(), "us")
    >>> models["inc"].expr, models["inc"].unit, unit
    (0.536185*x, 'us', 'us')
    """
    units = {name: library[name].unit for name in _atoms_of(terms)}
    target = common_unit(units, unit)
    converted = {
        name: _converted(library[name], target)
        for name, source in units.items()
        if source != target
    }
    if not converted:
        return library, target
    return ModelChain(converted, library), target  # type: ignore[arg-type]


def converted_note(
    terms: Term | Sequence[Term], library: Mapping[str, AtomicModel], unit: str
) -> str:
    """``"converted to ns: kernel (ms)"`` if some atoms of ``terms`` in ``library`` (before
    :func:`in_one_unit`) are not in ``unit``, else ``""``.

    >>> from patternalg.library.model_library import ModelLibrary
    >>> from patternalg.syntax.parser import parse
    >>> converted_note(parse("seq(inc, nop)"), ModelLibrary.builtin(), "us")
    'converted to us: inc (ns), nop (ns)'
    >>> converted_note(parse("inc"), ModelLibrary.builtin(), "ns")
    ''
    """
    moved = [
        f"{name} ({library[name].unit})" for name in _atoms_of(terms) if library[name].unit != unit
    ]
    return f"converted to {unit}: {', '.join(moved)}" if moved else ""


def in_unit(
    terms: Sequence[Term], library: Mapping[str, AtomicModel], unit: str | None
) -> tuple[Mapping[str, AtomicModel], str, tuple[str, ...]]:
    """The library with every atom of ``terms`` in one unit (``unit``, checked, else their
    common one, ns for times of different units), that unit, and the note naming what was
    converted (:func:`in_one_unit`, :func:`converted_note`).

    >>> from patternalg.library.model_library import ModelLibrary
    >>> from patternalg.syntax.parser import parse
    >>> _, unit, notes = in_unit([parse("pipe(qsort, inc)")], ModelLibrary.builtin(), None)
    >>> unit, notes
    ('ns', ())
    >>> _, unit, notes = in_unit([parse("inc"), parse("nop")], ModelLibrary.builtin(), "us")
    >>> unit, notes
    ('us', ('converted to us: inc (ns), nop (ns)',))
    """
    if unit is not None:
        unit = check_unit(unit, "unit")
    converted, target = in_one_unit(terms, library, unit)
    note = converted_note(terms, library, target)
    return converted, target, (note,) if note else ()


def _converted(model: AtomicModel, target: str) -> AtomicModel:
    scale = factor(model.unit, target)
    ratio = sympy.Rational(scale.numerator, scale.denominator)
    expr = sympy.Mul(ratio, model.expr)
    uncertainty = model.uncertainty
    if uncertainty is not None:  # the perturbation's terms scale with the model
        uncertainty = replace(uncertainty, terms=tuple(ratio * term for term in uncertainty.terms))
    return replace(model, expr=expr, unit=target, uncertainty=uncertainty)
