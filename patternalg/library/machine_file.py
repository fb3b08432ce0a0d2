"""Machine files: a :class:`~patternalg.algebra.machine.Machine` as TOML (``--machine FILE``).

The format, beside the model files' (``docs/language.md``, "Machine files")::

    format = 1

    [machine]
    cores = 2                      # required: a positive integer
    unit = "ns"                    # the unit of the hand-off (default ns)
    handoff = "310 + 0.61*x"       # per data element a pipeline stage receives (default 0)
    dispatch = "800"               # per data element a pool of 2+ threads hands out (default 0)
    turn = "165"                   # at least, per data element of a pool of 2+ threads: its
                                   # threads take turns at one queue (default 0)
    wake = "12000"                 # at most, per data element a stage pays to wake the next
                                   # where that one waits for it (default 0)
    source = "patternalg calibrate benchmarks/realdata/data/*.txt"

    [machine.speedups]             # optional: an atom's speed-up on p threads, S(1) = 1
    qsort = "p/(1 + 0.08*(p - 1))"
    stream = { form = "amdahl", alpha = 0.9, tseq = "1" }        # S(p) = T(1) / T(p) of a
    blackscholes = { form = "memwall", f = 0.76, k = 9.9, m1 = 0.0003, m2 = 0.88, phi = 2.5 }
                                   # resource-aware form (amdahl, memwall; phi bound if it has one)

    [machine.calibration]          # optional, written by calibrate: what it was fitted from
    ...

Expressions are read by patternalg's safe arithmetic (never ``sympify``).

>>> machine = machine_from_text('format = 1\\n[machine]\\ncores = 2\\nhandoff = "100 + 3*x"\\n'
...                            'dispatch = "800"\\n')
>>> machine.describe()
'2 cores, hand-off 3*x + 100 ns per element, dispatch 800 ns per element of a pool'
>>> machine_from_text(machine_text(machine)) == machine
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from os import PathLike
from pathlib import Path
from typing import Any

import sympy

from .._internal.limits import MAX_CORES
from .._internal.toml_reader import keys_located, load_toml
from ..algebra.machine import COSTS, Machine
from ..algebra.units import UnitError, check_unit, is_time
from ..arguments import as_path, as_text, expect
from ..errors import ArgumentError, Location, ModelFileError
from ..syntax.arith import format_expr
from .model_library import file_text

__all__ = ["read_machine", "machine_from_text", "machine_text", "write_machine"]

_KEYS = ("cores", "unit", *COSTS, "source", "speedups", "calibration")


def read_machine(path: str | PathLike[str]) -> Machine:
    """The machine described by the file at ``path``."""
    path = as_path(path, "path", "the path of a machine file")
    return machine_from_text(file_text(path, "machine file"), str(path))


def machine_from_text(text: str, path: str = "<machine>") -> Machine:
    """A machine file's text (``path`` names it in errors) as a :class:`Machine`."""
    text = as_text(text, "text", "a machine file's text")
    path = as_text(path, "path", "the name of the machine file in messages")
    data = load_toml(text, path)
    with keys_located(text, data, path):
        return _machine_file(data, path)


def _machine_file(data: Mapping[str, Any], path: str) -> Machine:
    """A machine file's parsed TOML (checked here) as a :class:`Machine`."""
    unknown = sorted(set(data) - {"format", "machine"})
    if unknown:
        raise ModelFileError(
            f"unknown top-level key '{unknown[0]}' (valid: format, machine)", location=Location(path)
        )
    if data.get("format", 1) != 1:
        raise ModelFileError(
            f"unknown format {data['format']!r} (this version reads format 1)",
            location=Location(path, key="format"),
        )
    table = data.get("machine")
    if not isinstance(table, Mapping):
        raise ModelFileError(
            "no [machine] table (a machine file has one: cores = N, handoff = \"...\")",
            location=Location(path),
        )
    return _machine(table, path)


def _machine(table: Mapping[str, Any], path: str) -> Machine:
    def where(key: str) -> Location:
        return Location(path, key=f"machine.{key}")

    for key in table:
        if key not in _KEYS:
            raise ModelFileError(f"unknown key (valid: {', '.join(_KEYS)})", location=where(key))
    cores = table.get("cores")
    if isinstance(cores, bool) or not isinstance(cores, int) or not 1 <= cores <= MAX_CORES:
        raise ModelFileError(
            f"expected a whole number of cores from 1 to {MAX_CORES}, got {cores!r:.40}",
            location=where("cores"),
        )
    for key in ("unit", *COSTS, "source"):
        if not isinstance(table.get(key, ""), str | int | float) or isinstance(table.get(key), bool):
            raise ModelFileError(f"expected a string, got {table[key]!r}", location=where(key))
    unit = table.get("unit", "ns")
    try:
        unit = check_unit(unit, str(where("unit")))
    except UnitError as exc:
        raise ModelFileError(str(exc)) from None
    if not is_time(unit):
        raise ModelFileError(
            f"the hand-off, the dispatch cost, the turn and the wake are times: expected a time unit such as ns, "
            f"us, ms or s, got {unit!r}",
            location=where("unit"),
        )
    speedups = table.get("speedups", {})
    calibration = table.get("calibration", {})
    for key, value in (("speedups", speedups), ("calibration", calibration)):
        if not isinstance(value, Mapping):
            raise ModelFileError(f"expected a table, got {value!r}", location=where(key))
    speedups = {
        name: _speedup(speedup, Location(path, key=f"machine.speedups.{name}"))
        for name, speedup in speedups.items()
    }
    _check_record(calibration, lambda key: where(f"calibration.{key}"))
    try:
        return Machine(
            cores=cores,
            **{cost: table.get(cost, 0) for cost in COSTS},
            speedups=dict(speedups),
            unit=unit,
            source=str(table.get("source", "")),
            calibration=tuple(calibration.items()),
        )
    except (ValueError, ArgumentError) as exc:  # a ParseError, a UnitError too
        key, colon, why = str(exc).partition(": ")  # Machine's errors name its argument
        if colon and key in table:
            raise ModelFileError(why, location=where(key)) from None
        atom = key[len("speedups['"):-len("']")] if key.startswith("speedups['") and key.endswith("']") else None
        if colon and atom in speedups:  # speedups['qsort']: the line of machine.speedups.qsort
            raise ModelFileError(why, location=where(f"speedups.{atom}")) from None
        raise ModelFileError(str(exc), location=Location(path, key="machine")) from None


#: the largest relative spread a calibration record may give (a draw times 1 + spread * N(0, 1)
#: stays within double precision for any time a model gives)
MAX_SPREAD = 1e6


def _check_record(calibration: Mapping[str, Any], where: Any) -> None:
    """The parts of a calibration record that intervals read (``spread``: ``sd``, ``sizes``,
    ``missed``, ``common``, ``atoms``, ``growth``; ``width``: ``factor``, ``range``; ``covariance``), where present, are what
    ``calibrate`` writes: finite numbers, spreads from 0 to :data:`MAX_SPREAD` at sizes above
    0, a factor above 0, the numbers' covariance a symmetric matrix, one row per name.

    >>> _check_record({"spread": {"missed": [[1024.0, -0.5]]}}, lambda key: key)
    Traceback (most recent call last):
    patternalg.errors.ModelFileError: spread.missed: expected pairs [x, spread] of finite numbers, x > 0 and 0 <= spread <= 1e+06
    """
    def number(value: Any, low: float, strict: bool, high: float = math.inf) -> bool:
        ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        return ok and (value > low if strict else value >= low) and value <= high

    spread, width = calibration.get("spread", {}), calibration.get("width", {})
    for key, table in (("spread", spread), ("width", width)):
        if not isinstance(table, Mapping):
            raise ModelFileError(f"expected a table, got {table!r:.60}", location=where(key))
    atoms = spread.get("atoms", {})
    if not isinstance(atoms, Mapping):
        raise ModelFileError(f"expected a table of atoms' [[x, spread], ...], got {atoms!r:.60}",
                             location=where("spread.atoms"))  # fmt: skip
    listed = [(key, spread.get(key, [])) for key in ("sizes", "missed", "common")]
    for key, pairs in (*listed, *((f"atoms.{name}", pairs) for name, pairs in atoms.items())):
        if not (isinstance(pairs, list) and all(
                isinstance(pair, list) and len(pair) == 2 and number(pair[0], 0, True)
                and number(pair[1], 0, False, MAX_SPREAD)
                for pair in pairs)):  # fmt: skip
            raise ModelFileError(
                f"expected pairs [x, spread] of finite numbers, x > 0 and 0 <= spread <= {MAX_SPREAD:g}",
                location=where(f"spread.{key}"),
            )
    for key in ("sd", "growth"):
        if key in spread and not number(spread[key], 0, False, MAX_SPREAD):
            raise ModelFileError(f"expected a number from 0 to {MAX_SPREAD:g}", location=where(f"spread.{key}"))
    if "covariance" in calibration:
        from ..algebra.machine_numbers import covariance_problem  # numpy: a calibrated machine's

        problem = covariance_problem(calibration["covariance"])
        if problem is not None:
            raise ModelFileError(problem[1], location=where(".".join(filter(None, ("covariance", problem[0])))))
    for key in ("factor", "beyond"):
        if key in width and not number(width[key], 0, True):
            raise ModelFileError("expected a finite number > 0", location=where(f"width.{key}"))
    seen = width.get("range", [0.0, 1.0])
    if not (isinstance(seen, list) and len(seen) == 2 and all(number(v, 0, False) for v in seen) and seen[0] <= seen[1]):
        raise ModelFileError("expected [low, high], finite sizes, low <= high", location=where("width.range"))


def _speedup(value: Any, where: Location) -> Any:
    """A speed-up as the file gives it: an expression in p, or the table of a
    resource-aware form (``form = "amdahl"``, its parameters, ``phi`` if it has one), whose
    speed-up is T(1) / T(p)."""
    if isinstance(value, str):
        return value
    if not isinstance(value, Mapping) or not isinstance(value.get("form"), str):
        raise ModelFileError(
            "expected an expression in p as a string, or a table with form = \"amdahl\" or "
            f"\"memwall\" and its parameters, got {value!r}",
            location=where,
        )
    from ..forms import form_class
    from ..syntax.symbols import p, phi

    table = dict(value)
    fixed = table.pop("phi", None)
    if fixed is not None and (isinstance(fixed, bool) or not isinstance(fixed, int | float) or fixed <= 0):
        raise ModelFileError(f"phi: expected a positive number, got {fixed!r}", location=where)
    expr = form_class(table.pop("form"), str(where)).from_table(table, where).expr
    if fixed is not None:
        expr = expr.xreplace({phi: sympy.Float(fixed)})
    speedup = sympy.simplify(expr.xreplace({p: sympy.Integer(1)}) / expr)
    if p not in expr.free_symbols or speedup.free_symbols - {p}:
        others = ", ".join(sorted(str(s) for s in speedup.free_symbols - {p})) or "no p"
        raise ModelFileError(
            f"the form's speed-up T(1)/T(p) must depend on p alone (it has {others}; bind phi "
            "with phi = ...)",
            location=where,
        )
    return _normalised(speedup, p)


def _normalised(speedup: sympy.Expr, p: sympy.Symbol) -> sympy.Expr:
    """A rational speed-up with its numerator's leading coefficient 1, as a person writes
    it: ``p/(0.1*p + 0.9)``, not ``5*p/(0.5*p + 4.5)`` (T(1) cancels; any other form as it is).

    >>> from patternalg.syntax.symbols import p
    >>> _normalised(5 * p / (sympy.Float(0.5) * p + sympy.Float(4.5)), p)
    p/(0.1*p + 0.9)
    """
    if not speedup.is_rational_function(p):
        return speedup
    numerator, denominator = sympy.fraction(sympy.cancel(speedup))
    lead = sympy.Poly(numerator, p).LC()
    numerator, denominator = sympy.expand(numerator / lead), sympy.expand(denominator / lead)
    ones = {f: sympy.S.One for f in (numerator / denominator).atoms(sympy.Float) if float(f) == 1.0}
    return (numerator / denominator).xreplace(ones)


def machine_text(machine: Machine) -> str:
    """The machine file of ``machine`` (read back equal by :func:`machine_from_text`)."""
    from .._internal.toml_writer import dumps

    expect(machine, Machine, "machine", "a Machine")
    table: dict[str, Any] = {"cores": machine.cores, "unit": machine.unit}
    for cost in COSTS:  # the hand-off always (the file's own example of a cost)
        if cost == "handoff" or getattr(machine, cost) != 0:
            table[cost] = format_expr(getattr(machine, cost))
    if machine.source:
        table["source"] = machine.source
    if machine.speedups:
        table["speedups"] = {name: format_expr(s) for name, s in machine.speedup.items()}
    if machine.calibration:
        table["calibration"] = dict(machine.calibration)
    return dumps({"format": 1, "machine": table})


def write_machine(machine: Machine, path: str | Path) -> None:
    """Write ``machine``'s file at ``path``, atomically."""
    from .._internal.atomic_write import write_text_atomic

    expect(machine, Machine, "machine", "a Machine")
    path = as_path(path, "path", "the path of the machine file to write")
    write_text_atomic(path, machine_text(machine))
