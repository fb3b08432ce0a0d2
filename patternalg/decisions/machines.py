"""The machine a decision is made for: ``machine=`` of every decision function (a
:class:`~patternalg.algebra.machine.Machine`, a machine file's path, or a number of cores)
as the semantics it evaluates under, and the notes it owes the user.

>>> semantics_of("exact", 2).describe()
'machine (2 cores)'
>>> semantics_of("exact", None).describe()
'exact'
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from typing import Any

from ..algebra.machine import Machine, MachineSemantics, thread_note
from ..algebra.semantics import Semantics
from ..arguments import ArgumentError
from ..library.machine_file import read_machine
from ..syntax.terms import Term

__all__ = ["MachineLike", "as_machine", "semantics_of", "machine_notes", "cores_of"]

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


def cores_of(semantics: Semantics) -> int | None:
    """The cores of a machine semantics, else None."""
    return semantics.machine.cores if isinstance(semantics, MachineSemantics) else None


def machine_notes(terms: Sequence[Term], semantics: Semantics) -> list[str]:
    """Under a machine semantics: each term that may run more threads than it has cores."""
    if not isinstance(semantics, MachineSemantics):
        return []
    found = (thread_note(term, semantics.machine) for term in terms)
    return [text for text in found if text]
