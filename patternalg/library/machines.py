"""The machine a result is computed for: ``machine=`` of every public function (a
:class:`~patternalg.algebra.machine.Machine`, a calibration's, a machine file's path, or a number of cores)
as the semantics it evaluates under (a machine file is read here: the algebra defines
the semantics, the library reads the files).

>>> semantics_of("exact", 2).describe()
'machine (2 cores)'
>>> semantics_of("exact", None).describe()
'exact'
"""

from __future__ import annotations

import numbers
from os import PathLike
from typing import Any

from .._internal.limits import printable
from ..algebra.machine import Machine
from ..algebra.machine_checks import check_cores
from ..algebra.semantics import Semantics
from ..arguments import wrong
from ..errors import ArgumentError
from .machine_file import read_machine

__all__ = ["MachineLike", "as_machine", "as_cores", "chosen_semantics", "semantics_of"]

#: what ``machine=`` takes: a machine, a machine file's path, a number of cores, or None
MachineLike = Machine | str | PathLike[str] | int | None


def as_machine(value: Machine | str | PathLike[str] | int, name: str = "machine") -> Machine:
    """A machine argument: a :class:`Machine`, what ``patternalg.calibrate`` returns (its
    machine), the path of a machine file or a number of cores.

    >>> import numpy as np
    >>> as_machine(np.int64(4)).cores
    4
    >>> as_machine(0)
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: machine: expected a number of cores: an integer >= 1 and <= 1,048,576; got int 0
    """
    if isinstance(value, Machine):
        return value
    if isinstance(getattr(value, "machine", None), Machine):  # a calibration (evidence's: not imported here)
        return value.machine  # type: ignore[union-attr]
    if isinstance(value, str | PathLike):
        return read_machine(value)
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return Machine(cores=as_cores(value, name))
    raise wrong(name, "a Machine, a calibration, a machine file's path or a number of cores", value)


def as_cores(value: Any, name: str = "cores") -> int:
    """A number of cores (``cores=``, as ``--cores``): a whole number, Python's or numpy's,
    from 1 to 1,048,576; never a machine file's path.

    >>> as_cores("2")
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: cores: expected a number of cores: an integer >= 1 and <= 1,048,576; got str '2'
    """
    return check_cores(value, name)


def chosen_semantics(
    semantics: Semantics | str | None, machine: Any, cores: Any, default: Semantics | str
) -> Semantics:
    """A public function's ``semantics=`` beside its ``machine=`` and ``cores=``: None is
    ``default``, or the machine's; a machine is evaluated under the machine semantics, so
    another semantics given with it is refused, as ``--semantics`` with ``--machine`` is.

    >>> chosen_semantics(None, 2, None, "exact").describe(), chosen_semantics("exact", None, None, "asymptotic").name
    ('machine (2 cores)', 'exact')
    >>> chosen_semantics("exact", 2, None, "asymptotic")
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: semantics 'exact' with machine=/cores=: a machine is evaluated under the machine semantics; give one of them (drop semantics=, or machine= and cores=)
    """
    if semantics is not None and semantics != "machine" and (machine is not None or cores is not None):
        shown = semantics.name if isinstance(semantics, Semantics) else semantics
        raise ArgumentError(
            f"semantics {printable(repr(shown), limit=40)} with machine=/cores=: a machine is evaluated "
            "under the machine semantics; give one of them (drop semantics=, or machine= and cores=)"
        )
    return semantics_of(default if semantics is None else semantics, machine, cores)


def semantics_of(semantics: Semantics | str, machine: Any = None, cores: int | None = None) -> Semantics:
    """The semantics to evaluate under: ``semantics``, or the machine semantics of
    ``machine`` (its cores replaced by ``cores`` if given; ``cores`` alone: a machine of
    that many cores and no hand-off)."""
    if machine is None and cores is None:
        return Semantics.of(semantics)
    if cores is None:
        return as_machine(machine).semantics
    count = as_cores(cores)
    return (Machine(cores=count) if machine is None else as_machine(machine).with_cores(count)).semantics
