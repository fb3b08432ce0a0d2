"""``patternalg.fit``: measurements to a model library in one call, as ``patternalg fit
FILE --out m.toml`` and ``--models m.toml`` are on the command line.

>>> import patternalg
>>> from patternalg.measurements.csv import CsvReader
>>> data = CsvReader.read("m.csv", "kernel,x,time\\n" + "".join(
...     f"sort,{x},{3 * x * (x.bit_length() - 1)}\\nscan,{x},{2 * x + 100}\\n" for x in (2, 4, 8, 16, 32)))
>>> lib = patternalg.fit(data)
>>> lib
ModelLibrary(2 atoms: scan, sort)
>>> lib["sort"].expr, lib["scan"].expr
(3.0*x*log2(x), 2.0*x + 100.0)
>>> patternalg.model("pipe(sort, scan)", library=lib, x=1024)
30720.0000000000
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from .._internal.callbacks import OnError
from ..arguments import as_text, wrong
from ..errors import ArgumentError
from ..forms import fit_families
from ..forms.unsure import Unsure
from .model_library import ModelLibrary

__all__ = ["fit", "untouched_namesakes", "untouched_notes"]


def fit(
    measurements: Any,
    form: str = "pmnf",
    *,
    metric: str | None = None,
    parameters: str | Sequence[str] | None = None,
    format: str | None = None,
    scaling: str | None = None,
    on_error: OnError = None,
    **options: Any,
) -> ModelLibrary:
    """The atoms of ``measurements`` (a file any reader knows, or what
    :func:`patternalg.measurements.read` returns) fitted by the family ``form``, as a library
    the decisions take (``library=``); regions named by a composition are left out, as
    ``fit`` leaves them (``validate`` and ``calibrate`` read them).

    A file is read as ``fit FILE`` reads it: ``metric``, ``parameters`` (``"n,p"``),
    ``format`` (``--input-format``) and ``scaling`` (a directory of Cube profiles). The
    other ``options`` are the family's flags by name (``modeler="basic"``,
    ``aggregate="median"``, ``param={"p": "x"}``, ``uncertainty="none"``,
    ``allow_nonpositive=True``). Each model keeps its fit: ``dict(lib["make"].fit)``
    (SMAPE, R², ...), its domain and uncertainty. What the command warns of (points left
    out) is a Python warning; what it notes (the unit taken for times that name none, the
    regions left out, ...) is the library's ``notes``, shown under its table in a notebook. A kernel that cannot be fitted raises its error, or, given
    ``on_error``, is handed to it and left out. The built-in atoms are not included:
    ``ModelLibrary.builtin().merged(lib)`` mixes them.
    """
    families = fit_families()
    if as_text(form, "form", "a family's name") not in families:
        raise wrong("form", f"one of {', '.join(sorted(families))}", form)
    cls = families[form]
    reading = {"metric": metric, "parameters": parameters, "format": format, "scaling": scaling}
    given = next((name for name, v in reading.items() if v is not None), None)
    if given is not None and not isinstance(measurements, str | Path):
        raise ArgumentError(f"{given}: says how to read a file; give its path, or read(path, {given}=...)")
    fitter, unsure = cls.fitting(), Unsure()
    reports: list[Any] = []

    def each(batch: Sequence[Any]) -> None:  # as the command fits a regular Extra-P file
        reports.extend(batch)
        unsure.add_reports(batch, fitter)

    summary = None
    if isinstance(measurements, str | Path) and scaling is None:
        summary = fitter.fit_file_in_batches(
            measurements, each, metric=metric, format=format, parameters=parameters, **options
        )
    if summary is None:  # the whole file read, or the measurements given
        if isinstance(measurements, str | Path):
            measurements = fitter.read(measurements, format, metric=metric, scaling=scaling, parameters=parameters)
        _check_columns(cls, measurements, options)
        reports.clear()
        unsure = Unsure()
        each(cls.fit_each(measurements, on_error=on_error, **options))
        read, notes = measurements, list(getattr(measurements, "notes", ()))
    else:
        _check_columns(cls, summary.measurements(), options)
        read, notes = summary, []
    for report in reports:
        for text in report.warnings:
            warnings.warn(text, UserWarning, stacklevel=2)
    notes += [text for report in reports for text in report.notes]
    notes += [*cls.notes(read, options), *unsure.notes(form, fitter.uncertainty_of(read, options))]
    untouched = untouched_namesakes(report.atom for report in reports)
    notes += untouched_notes(untouched)
    return ModelLibrary(
        (replace(r.model, touches_data=False) if r.atom in untouched else r.model for r in reports), notes=notes
    )


def untouched_namesakes(atoms: Iterable[str]) -> frozenset[str]:
    """The ``atoms`` named like a built-in atom that passes its data on untouched: a fit of
    ``nop``, as ``benchmarks/realdata/patterns.cpp`` measures it, says so as the built-in
    does, so that as a pipeline stage it pays no hand-off in either.

    >>> sorted(untouched_namesakes(["inc", "nop"]))
    ['nop']
    """
    return ModelLibrary.builtin().untouched() & frozenset(atoms)


def untouched_notes(atoms: Iterable[str]) -> list[str]:
    """What ``fit`` notes of each atom it fitted as untouched (:func:`untouched_namesakes`)."""
    return [
        f"{atom}: touches_data = false, as the built-in {atom}'s (it passes its data on untouched: "
        f"a pipeline stage of it pays no hand-off); set it true if this {atom} reads its data"
        for atom in sorted(atoms)
    ]



def _check_columns(cls: Any, data: Any, options: dict[str, Any]) -> None:
    """The columns of ``data`` checked for a fit by ``cls``, as ``fit`` checks them: one the
    family does not use is an error (fitting over it would mix its values into one model);
    a value column named like a size, a parameter named like a time, a Python warning."""
    from ..forms.columns import checked

    for text in checked(data, cls.name, options.get("param")):
        warnings.warn(text, UserWarning, stacklevel=3)
