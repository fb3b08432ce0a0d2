"""Which parameters a source's points are over: those declared, else all but bookkeeping.

A table often keeps, beside the parameters of a point, the number of each repetition
(``rep``, ``run``, ``iteration``) or when each row was measured (``timestamp``): read as
parameters, they make every row a point of its own, and a fit over them fails. Unless the
parameters are declared (``--parameters``), such a column is left out where another
parameter remains, and the rows that differ only in it are repetitions of one point; a
declaration keeps exactly the parameters it names, in its order.

>>> from patternalg.measurements.readers import CsvReader
>>> ms = settled(CsvReader.read("m.csv", "n,rep,time\\n8,1,5\\n8,2,6\\n16,1,9\\n"))
>>> ms.parameters, [v.tolist() for v in ms.series[0].values]
(('n',), [[5.0, 6.0], [9.0]])
>>> ms.notes[-1]
"m.csv: parameter 'rep' numbers the repetitions, so it is no parameter of a point: the rows that differ only in it are repetitions of one point (declare the parameters to fit it as one: parameters='n,rep')"
>>> settled(CsvReader.read("m.csv", "n,rep,time\\n8,1,5\\n8,2,6\\n16,1,9\\n"), ["n", "rep"]).parameters
('n', 'rep')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .._internal.surface import flag
from ..errors import ArgumentError, MeasurementError
from .model import Measurements
from .names import bookkeeping

__all__ = ["settled", "declared_parameters", "undeclared"]


def declared_parameters(text: str | Sequence[str] | None) -> list[str] | None:
    """The parameters a declaration names (``"n, p"`` or a sequence), in lower case as
    tables' columns are read; None for none.

    >>> declared_parameters(" N, p "), declared_parameters(None), declared_parameters(("n",))
    (['n', 'p'], None, ['n'])
    >>> declared_parameters(["n", 1])
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: parameters: expected names separated by commas, e.g. 'n,p', or a list of names; got list ['n', 1]
    >>> declared_parameters([])
    Traceback (most recent call last):
    ...
    patternalg.errors.MeasurementError: parameters=: expected distinct names separated by commas, e.g. n,p (got '')
    """
    if text is None:
        return None
    listed = isinstance(text, list | tuple) and all(isinstance(n, str) for n in text)
    if not isinstance(text, str) and not listed:
        raise ArgumentError.wanted("parameters", "names separated by commas, e.g. 'n,p', or a list of names", text)
    names = [n.strip().lower() for n in (text.split(",") if isinstance(text, str) else text)]
    if not names or not all(names) or len(set(names)) != len(names):
        raise MeasurementError(
            f"{flag('parameters')}: expected distinct names separated by commas, e.g. n,p (got {', '.join(names)!r})"
        )
    return names


def undeclared(path: str, parameter: str) -> str:
    """The note on a ``parameter`` a declaration leaves out (a CSV reader leaves out such a
    column whatever it holds, a column of names too).

    >>> undeclared("m.csv", "host")
    "m.csv: parameter 'host' is not among those declared: the points that differ only in it are repetitions of one point"
    """
    return (
        f"{path}: parameter '{parameter}' is not among those declared: the points that differ only in it are "
        "repetitions of one point"
    )


def settled(ms: Measurements, declared: Sequence[str] | None = None) -> Measurements:
    """``ms`` over the ``declared`` parameters, else over all but those that keep
    bookkeeping (:func:`~patternalg.measurements.names.bookkeeping`) while another is left;
    each parameter left out is noted."""
    if declared is None:
        kept = [p for p in ms.parameters if bookkeeping(p) is None]
        if not kept or len(kept) == len(ms.parameters):
            return ms
        notes = [
            f"{ms.path}: parameter '{p}' {bookkeeping(p)}, so it is no parameter of a point: the rows that "
            f"differ only in it are repetitions of one point (declare the parameters to fit it as one: "
            f"{flag('parameters', ','.join(ms.parameters))})"
            for p in ms.parameters
            if p not in kept
        ]
    else:
        kept = [
            next((p for p in ms.parameters if p.lower() == name), name) for name in declared
        ]  # an Extra-P file's parameters keep their case
        if kept == list(ms.parameters):
            return ms
        notes = [undeclared(ms.path, p) for p in ms.parameters if p not in kept]
    found = ms.over(kept)
    return replace(found, notes=(*found.notes, *notes))
