"""The regions a calibration reads: each measured term with its sizes and medians.

:func:`read_regions` reads them from measurement files, standard input or a mapping term ->
(sizes, values), and refuses what no calibration can fit: a region that is not a term, a
metavariable, a count in a symbol other than x, values that are no times, a region measured
twice. :func:`chosen_compositions` keeps the compositions ``--terms`` names.

>>> import numpy as np
>>> [str(r.term) for r in read_regions({"pipe(inc, inc)": ([16.0, 256.0], [5.0, 9.0])})[0]]
['pipe(inc, inc)']
>>> sorted(composed_from(parse("seq(inc, mapReduce_{2,2}^{1,x}(m, r))")))
['inc', 'm', 'r', 'shuffle']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from .._internal.limits import printable
from .._internal.surface import either, flag
from ..algebra.bindings import counts, sizes
from ..arguments import holds_models, no_frame, wrong
from ..errors import MeasurementError, ParseError
from ..syntax.arith import format_expr
from ..syntax.parser import parse
from ..syntax.symbols import x
from ..syntax.terms import Atom, MapReduce, Meta, Term

__all__ = ["Region", "chosen_compositions", "composed_from", "no_twins", "read_regions"]


@dataclass(frozen=True)
class Region:
    """One measured region: its term, sizes and the medians of its repetitions there."""

    term: Term
    sizes: np.ndarray
    medians: np.ndarray
    where: str
    series: Any = None  #: the measured series (its repetitions), if read from measurements
    unit: str = "ns"


def read_regions(data: Any) -> tuple[list[Region], tuple[str, ...], str | None]:
    """The regions of ``data`` (paths, ``-`` for standard input, measurements, or a mapping
    term -> (sizes, values)), the files they came from, and the text standard input gave
    (its ``# cores: N``, :func:`recorded_cores`), if read."""
    no_frame(data, "measurements")
    if holds_models(data):  # calibrate(models, files): the models are the second argument
        raise wrong("measurements", WANTED, data)
    if isinstance(data, Mapping):
        return [_given(term, pair) for term, pair in data.items()], (), None
    from ..measurements import Measurements, read
    from ..measurements.base import read_source
    from ..measurements.readers import from_text

    sources = (str, Path, Measurements)
    if not isinstance(data, sources) and (isinstance(data, bytes | bytearray) or not isinstance(data, Iterable)):
        raise wrong("measurements", WANTED, data)
    items = [data] if isinstance(data, sources) else list(data)
    if not items:
        raise MeasurementError("no measurements given (a file of atoms and compositions)")
    regions, files, stdin = [], [], None
    for i, item in enumerate(items):
        no_frame(item, f"measurements[{i}]")
        if not isinstance(item, sources):
            raise wrong(f"measurements[{i}]", "the path of a measurement file, or Measurements", item)
        if isinstance(item, Measurements):
            ms = item
        elif str(item) == "-":
            name, stdin = read_source(item)
            ms = from_text(name, stdin)
        else:
            ms = read(item)
        files.append(ms.path)
        for left in ms.left_out:  # a region read wrong is no calibration value: refused, not dropped
            raise left.error
        if tuple(ms.parameters) != ("x",):
            raise MeasurementError(
                f"{ms.path}: a calibration's regions are measured over x alone, the size of a "
                f"data element (this file's parameters: {', '.join(ms.parameters) or 'none'}"
                + (f"; if {ms.parameters[0]} is that size, name its column x, in the atoms' file too)"
                   if len(ms.parameters) == 1 else ")")
            )
        for s in ms:
            medians = np.array([np.median(v) for v in s.values], dtype=float)
            where = f"{ms.path}: region {s.kernel}"
            unit = s.unit or ms.unit or _time_or_none(s.metric or getattr(ms, "value_name", "") or "", where)
            regions.append(replace(_region(s.kernel, s.points[:, 0], medians, where), series=s, unit=unit))
    return regions, tuple(files), stdin


def _time_or_none(metric: str, where: str) -> str:
    """ns for a metric of times that names no unit (``time``, Extra-P's ``metr``); an error
    for another (``energy_J``): a machine's numbers are times per element."""
    from ..measurements.names import is_time_metric

    if not is_time_metric(metric):
        raise MeasurementError(
            f"{where}: its values ({printable(metric)}) are no times: calibrate fits times per data element "
            "(a metric named time, or time_s, time_us, ... for its unit)"
        )
    return "ns"


#: what ``measurements`` of a calibration may be
WANTED = "paths of measurement files, Measurements, or a mapping of terms to (sizes, values)"


def _given(term: Any, pair: Any) -> Region:
    """The region a mapping gives: a term's text and its (sizes, values).

    >>> _given("inc", [[1, 2], [3]])
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: measurements['inc']: expected (sizes, values), two sequences of as many numbers; got list [[1, 2], [3]]
    """
    if not isinstance(term, str):
        raise wrong("measurements", f"{WANTED} (a term as its text, e.g. 'pipe(inc, inc)')", term)
    where = f"measurements[{term!r}]"
    try:
        sizes, values = (np.asarray(v, dtype=float) for v in pair)
    except (TypeError, ValueError):
        sizes = values = np.zeros(0)
    if sizes.ndim != 1 or sizes.shape != values.shape or not len(sizes):
        raise wrong(where, "(sizes, values), two sequences of as many numbers", pair)
    return _region(term, sizes, values, where)


def _region(text: str, sizes: np.ndarray, medians: np.ndarray, where: str) -> Region:
    try:
        term = parse(text)
    except ParseError as exc:
        raise MeasurementError(
            f"{where}: a calibration's regions are named by their terms ('inc', "
            f"'pipe(inc, inc)'), this one is not a term ({exc})"
        ) from None
    if isinstance(term, Atom) and term.annotations:
        raise MeasurementError(
            f"{where}: an atom's region is the atom alone ('{term.name}'), without annotations"
        )
    _composable(term, where)
    if not (np.all(np.isfinite(medians)) and np.all(medians > 0)):
        raise MeasurementError(f"{where}: a time per data element is positive; some are not")
    if not (np.all(np.isfinite(sizes)) and np.all(sizes > 0)):
        raise MeasurementError(
            f"{where}: x is the size of a data element, a positive number; some are not"
        )
    return Region(term, sizes, medians, where)


def _composable(term: Term, where: str) -> None:
    """An error for a region's term that no measurement over x composes: a law's
    metavariable, or a count or size in a symbol other than x (``tpool_n(inc)``)."""
    meta = next((node for node in term.walk() if isinstance(node, Meta)), None)
    if meta is not None:
        raise MeasurementError(
            f"{where}: {meta} is a law's metavariable (a capitalised name stands for any term), not an "
            "atom: a calibration's regions are named by terms of the atoms measured ('pipe(inc, inc)')"
        )
    for what, value in (*counts(term), *sizes(term)):
        free = sorted(s.name for s in value.free_symbols if s != x)
        if free:
            raise MeasurementError(
                f"{where}: {what} is {format_expr(value)}, and calibrate has no value for {', '.join(free)}: "
                "the regions are measured over x alone, so a count is a number or an expression in x ('tpool_2(inc)')"
            )


def chosen_compositions(compositions: list[Region], terms: Sequence[str] | None) -> list[Region]:
    """The compositions whose terms are ``terms`` (all for None); an error for a term that
    was not measured."""
    if terms is None:
        return compositions
    wanted = [_term_of(t) for t in terms]
    measured_terms = {r.term for r in compositions}
    measured = f"(the compositions measured: {', '.join(sorted(map(str, measured_terms))) or 'none'})"
    for text, term in zip(terms, wanted, strict=True):
        if isinstance(term, Atom):
            raise MeasurementError(
                f"{flag('terms')}: {text} is an atom, not a composition: {flag('terms')} names the compositions to "
                f"calibrate on, which are composed from the atom regions {measured}"
            )
        if term not in measured_terms:
            raise MeasurementError(f"{flag('terms')}: {text} was not measured {measured}")
    return [r for r in compositions if r.term in set(wanted)]


def _term_of(text: str) -> Term:
    """One term of ``--terms``; a list written with commas is told what separates them.

    >>> _term_of("pipe(inc, inc),tpool_2(qsort)")
    Traceback (most recent call last):
    ...
    patternalg.errors.ParseError: terms=: one term an item of the list, not several separated by ',' (['pipe(inc, inc)', 'tpool_2(qsort)'])
    """
    try:
        return parse(text)
    except ParseError:
        depth, pieces, start = 0, [], 0
        for i, c in enumerate(text):
            depth += (c in "([{") - (c in ")]}")
            if c == "," and depth == 0:
                pieces.append(text[start:i].strip())
                start = i + 1
        if not pieces:
            raise
        pieces.append(text[start:].strip())
        separated = either(
            f"terms are separated by ';', not ',' ({printable(';'.join(pieces))})",
            f"one term an item of the list, not several separated by ',' ({printable(repr(pieces))})",
        )
        raise ParseError(f"{flag('terms')}: {separated}") from None


def no_twins(regions: Sequence[Region]) -> None:
    seen: dict[Term, str] = {}
    for r in regions:
        if r.term in seen:
            raise MeasurementError(f"{r.where}: measured twice (also {seen[r.term]}): keep one measurement of each region")
        seen[r.term] = r.where


def composed_from(term: Term) -> set[str]:
    """The models ``term`` is composed from: its atoms, and the model of each mapReduce's
    shuffle phase (``shuffle`` in the short form)."""
    return {node.name for node in term.walk() if isinstance(node, Atom)} | {
        "shuffle" if node.shuffle is None else node.shuffle.name for node in term.walk() if isinstance(node, MapReduce)
    }
