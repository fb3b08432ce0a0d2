"""The numbers ``calibrate`` fits to a machine, declared once: what each is, its bounds, the
fit's first guess and scale, and what a calibration composition must be to measure it.

``calibrate`` (:mod:`patternalg.evidence.calibration`) fits them, its batched least squares
(:mod:`patternalg.evidence.batched`) bounds and scales them, and an interval draws them
(:mod:`.machine_numbers`); each reads this table rather than knowing the numbers itself.

>>> kind_of("c_qsort").upper, kind_of("h0").upper
(1.0, inf)
>>> meaning("d0", "ns"), meaning("c_qsort", "ns")
('ns per element of a pool of 2+ threads: the dispatch cost', 'S_qsort(p) = p/(1 + c*(p - 1)): serial fraction')
>>> is_number_name("h2"), is_number_name("c_inc")
(False, True)
>>> fraction_name("qsort"), atom_of("c_qsort"), atom_of("h1")
('c_qsort', 'qsort', None)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["KINDS", "NumberKind", "atom_of", "fraction_name", "is_number_name", "kind_of", "meaning", "names_text"]


@dataclass(frozen=True)
class NumberKind:
    """One kind of a machine's calibrated number (every one is at least 0)."""

    #: its name, or the prefix of its names (``c_``: one per pooled atom, ``c_qsort``)
    key: str
    #: what it is, ``{unit}`` standing for the machine's unit of time (``{atom}``: the atom a
    #: prefixed name is of)
    what: str
    #: whether it is a time (in the machine's unit, scaled with it) or a pure number
    cost: bool
    #: at most this
    upper: float
    #: ``calibrate``'s first guess (a cost's in ns: :meth:`in_unit` gives it in another)
    start: float
    #: its typical size (the least squares' scale of the step; a cost's in ns)
    scale: float
    #: the calibration compositions that measure it (what a note names where none does)
    measured_by: str

    def in_unit(self, value: float, unit: str) -> float:
        """``value``, in ns where this kind is a cost, in ``unit`` (a pure number, or a unit
        that is not a time, as it is).

        >>> kind_of("h1").in_unit(1.0, "s"), kind_of("c_qsort").in_unit(0.05, "s")
        (1e-09, 0.05)
        """
        if not self.cost or unit == "ns":
            return value
        from .units import UnitError, factor, is_time

        try:
            return value * float(factor("ns", unit)) if is_time(unit) else value
        except UnitError:
            return value

    def negligible(self, unit: str) -> float:
        """Below this in magnitude (in ``unit``) a fitted number is the fit's last steps
        towards 0, not a cost: a billionth of a nanosecond, or of a serial fraction."""
        return self.in_unit(NEGLIGIBLE, unit)

    @property
    def prefix(self) -> bool:
        """Whether :attr:`key` is a prefix of names rather than a name."""
        return self.key.endswith("_")


#: a fitted number below this (in ns where it is a cost) is 0 (:meth:`NumberKind.negligible`)
NEGLIGIBLE = 1e-9

#: the prefix of an atom's serial fraction (``c_qsort``)
_SERIAL = "c_"

#: the hand-off h0 + h1*x (per data element a pipeline stage receives), the dispatch cost d0
#: (per data element a pool of 2+ threads hands out), the turn t0 (the least time per data
#: element of a pool of 2+ threads: they take turns at one queue), the wake w0 (the most a
#: stage pays per data element to wake the next where it waits) and each pooled atom's serial
#: fraction c in S(p) = p/(1 + c*(p - 1))
KINDS = (
    NumberKind("h0", "{unit} per element: the hand-off's constant", True, math.inf, 0.0, 100.0,
               "a pipe whose stages both touch the data, such as pipe(inc, inc)"),
    NumberKind("h1", "{unit} per element and unit of x: its slope", True, math.inf, 1.0, 1.0,
               "a pipe whose stages both touch the data, such as pipe(inc, inc)"),
    NumberKind("d0", "{unit} per element of a pool of 2+ threads: the dispatch cost", True, math.inf, 0.0, 100.0,
               "a pool of a light atom, such as tpool_2(inc)"),
    NumberKind("t0", "{unit} per element at least, a pool of 2+ threads: the turn at its queue", True, math.inf,
               0.0, 100.0, "a pool no faster than its atom alone, such as tpool_2(nop)"),
    NumberKind("w0", "{unit} per element at most: the wake a stage pays where the next waits", True, math.inf, 0.0,
               1000.0, "a pipe whose second stage is much the faster, such as pipe(inc, nop)"),
    NumberKind(_SERIAL, "S_{atom}(p) = p/(1 + c*(p - 1)): serial fraction", False, 1.0, 0.05, 0.1,
               "a pool of the atom alone on 2 to the cores threads, such as tpool_2(qsort)"),
)  # fmt: skip


def kind_of(name: str) -> NumberKind:
    """The kind of the number ``name`` (``h0``, ``h1``, ``d0``, ``t0``, ``w0``, ``c_<atom>``); KeyError for
    any other name."""
    for kind in KINDS:
        if name == kind.key or (kind.prefix and name.startswith(kind.key) and len(name) > len(kind.key)):
            return kind
    raise KeyError(name)


def names_text() -> str:
    """The names of calibrated numbers, for a message: ``h0, h1, d0, t0, w0, c_<atom>``."""
    return ", ".join(k.key + "<atom>" if k.prefix else k.key for k in KINDS)


def is_number_name(name: str) -> bool:
    """Whether ``name`` names a calibrated number."""
    try:
        kind_of(name)
    except KeyError:
        return False
    return True


def meaning(name: str, unit: str) -> str:
    """What the number ``name`` is, its costs in ``unit``."""
    kind = kind_of(name)
    return kind.what.format(unit=unit, atom=name[len(kind.key):] if kind.prefix else "")


def fraction_name(atom: str) -> str:
    """The name of ``atom``'s serial fraction."""
    return _SERIAL + atom


def atom_of(name: str) -> str | None:
    """The atom whose serial fraction ``name`` is (None: ``name`` is no serial fraction)."""
    return name[len(_SERIAL):] if name.startswith(_SERIAL) and len(name) > len(_SERIAL) else None
