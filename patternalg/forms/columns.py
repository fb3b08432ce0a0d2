"""Measurements checked against what the user meant to fit, by ``patternalg fit`` and
:func:`patternalg.fit` alike.

A column the chosen form does not use is an error (fitting over it would mix, say, every
core count into one model of x); a value column named like a size, or a parameter named
like a time, gets a warning. (Times that are not positive follow one rule, per series, in
``Form.fit_each``: :func:`patternalg.measurements.checks.positive_times`.)

>>> from patternalg.measurements.readers import CsvReader
>>> ms = CsvReader.read("m.csv", "x,p,time\\n8,1,5\\n8,2,3\\n")
>>> check_columns(ms, ("x",), "pmnf")
Traceback (most recent call last):
...
patternalg.errors.MeasurementError: m.csv:1: column 'p' is not used by form=pmnf (it fits x); form=amdahl fits x and p, form=memwall fits p and phi (or f_cpu and f_mem), form=presca fits p
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._internal.surface import flag
from ..errors import MeasurementError
from ..measurements import Measurements
from ..measurements.names import is_time_unit, parameter_name, quantity, split_unit

__all__ = ["check_columns", "column_warnings", "used_columns", "checked", "mapped_columns"]

#: the columns each fittable form uses (by name) and how to say so, for the hint of an
#: unused column
USES = {
    "pmnf": ((), "every parameter (up to 3: x, p, ...)"),
    "amdahl": (("x", "p"), "x and p"),
    "memwall": (("p", "phi", "f_cpu", "f_mem"), "p and phi (or f_cpu and f_mem)"),
    "presca": (("p",), "p"),
}
#: names of columns that hold sizes or counts: a parameter, not a measured value
SIZE_NAMES = frozenset(
    {"x", "n", "p", "size", "elements", "length", "count", "threads", "cores", "nodes"}
)


def check_columns(ms: Measurements, used: Sequence[str], form: str) -> None:
    """Every parameter column of ``ms`` must be one of ``used`` by ``form``."""
    for column in ms.parameters:
        if column in used:
            continue
        others = [
            f"{flag('form', name)} fits {says}"
            for name, (cols, says) in USES.items()
            if name != form and column in cols
        ]
        hint = (
            ", ".join(others)
            if others
            else "no form uses it: drop the column, or keep the rows of one value of it"
        )
        raise MeasurementError(
            f"column '{column}' is not used by {flag('form', form)} (it fits {', '.join(used)}); {hint}",
            location=ms.location(),
        )


def column_warnings(ms: Measurements) -> list[str]:
    """Warnings for a value column named like a size, a parameter named like a time.

    >>> from patternalg.measurements.readers import CsvReader
    >>> column_warnings(CsvReader.read("m.csv", "Size (elements),Time [us]\\n8,5\\n16,10\\n"))
    []
    >>> column_warnings(CsvReader.read("m.csv", "time_total,size\\n5,8\\n10,16\\n"))
    ["m.csv:1: the value column 'size' looks like a size, not a measurement (name the measured column time, time_ms, ... or pass metric=)", "m.csv:1: the parameter 'time_total' looks like a time (is it the measured value? pass metric=time_total)"]
    >>> column_warnings(CsvReader.read("m.csv", "s,time_ms\\n8,5\\n16,10\\n"))
    []
    """
    where = str(ms.location())
    warnings = []
    if quantity(ms.value_name) in SIZE_NAMES:
        warnings.append(
            f"{where}: the value column '{ms.value_name}' looks like a size, not a measurement "
            f"(name the measured column time, time_ms, ... or pass {flag('metric')})"
        )
    # a parameter as its column is written (a unit in brackets is not part of its name)
    written = [c for c in ms.columns if parameter_name(c) in ms.parameters] or ms.parameters
    for column in written:  # a parameter named a unit alone (a size s) is not taken for a time
        base, unit = split_unit(column)
        if (is_time_unit(unit) and base != column.strip()) or "time" in base.lower():
            warnings.append(
                f"{where}: the parameter '{parameter_name(column)}' looks like a time "
                f"(is it the measured value? pass {flag('metric', column)})"
            )
    return warnings


def used_columns(ms: Measurements, form: str, mapped: Sequence[str] = ()) -> tuple[str, ...]:
    """The parameter columns ``form`` fits: every one for pmnf; else those it uses by
    name, those ``--param`` maps, or else the first (presca's thread counts) or only one.

    >>> from patternalg.measurements.readers import CsvReader
    >>> used_columns(CsvReader.read("m.csv", "size,time\\n8,5\\n"), "pmnf")
    ('size',)
    """
    if form == "pmnf":  # one to three parameters, whatever their names
        return ms.parameters
    names = USES.get(form, ((), ""))[0]
    used = tuple(p for p in ms.parameters if p in names or p in mapped)
    if not used and (len(ms.parameters) == 1 or form == "presca"):
        return ms.parameters[:1]  # presca: the first column holds the thread counts
    return used or tuple(names)


def checked(data: Any, form: str, param: Any = None) -> list[str]:
    """All checks of this module for fitting ``data`` with ``form`` (whose ``param`` option
    maps columns to symbols); returns the warnings. Series given without their measurements
    have no columns to check."""
    if not isinstance(data, Measurements):
        return []
    check_columns(data, used_columns(data, form, mapped_columns(param)), form)
    return column_warnings(data)


def mapped_columns(param: Any) -> list[str]:
    """The columns a family's ``param`` option maps to a symbol (``["threads=p"]`` on the
    command line, ``{"threads": "p"}`` or ``"threads=p"`` from Python); none for none.

    >>> mapped_columns(["threads = p"]), mapped_columns({"n": "x"}), mapped_columns("n=x"), mapped_columns(None)
    (['threads'], ['n'], ['n'], [])
    """
    if isinstance(param, Mapping):
        return [str(name).strip() for name in param]
    items = [param] if isinstance(param, str) else list(param or ())
    return [str(item).partition("=")[0].strip() for item in items]
