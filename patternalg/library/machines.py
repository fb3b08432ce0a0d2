"""The machine a result is computed for: ``machine=`` of every public function (a
:class:`~patternalg.algebra.machine.Machine`, a machine file's path, or a number of cores)
as the semantics it evaluates under (a machine file is read here: the algebra defines
the semantics, the library reads the files).

>>> semantics_of("exact", 2).describe()
'machine (2 cores)'
>>> semantics_of("exact", None).describe()
'exact'
"""

from __future__ import annotations

from os import PathLike
from typing import Any

from ..algebra.machine import Machine
from ..algebra.semantics import Semantics
from ..arguments import ArgumentError
from .machine_file import read_machine

__all__ = ["MachineLike", "as_machine", "semantics_of"]

#: what ``machine=`` takes: a machine, a machine file's path, a number of cores, or None
MachineLike = Machine | str | PathLike[str] | int | None


def as_machine(value: Machine | str | PathLike[str] | int) -> Machine:
    """A machine argument: a :class:`Machine`, the path of a machine file or a core count."""
    if isinstance(value, Machine):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 1:
            raise ArgumentError(f"machine: a machine has at least one core (got {value})")
        return Machine(cores=value)
    if isinstance(value, str | PathLike):
        return read_machine(value)
    raise ArgumentError(
        f"machine: expected a Machine, a machine file's path or a number of cores, "
        f"got {type(value).__name__}"
    )


def semantics_of(semantics: Semantics | str, machine: Any = None, cores: int | None = None) -> Semantics:
    """The semantics to evaluate under: ``semantics``, or the machine semantics of
    ``machine`` (its cores replaced by ``cores`` if given; ``cores`` alone: a machine of
    that many cores and no hand-off)."""
    if machine is None and cores is None:
        return Semantics.of(semantics)
    chosen = as_machine(machine) if machine is not None else as_machine(cores)  # type: ignore[arg-type]
    if cores is not None and machine is not None:
        chosen = chosen.with_cores(as_machine(cores).cores)
    return chosen.semantics
