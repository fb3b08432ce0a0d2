"""``validate``: do the models predict what was measured?

Every series of a measurement file whose name is a term (``pipe(qsort, inc)``; an atom is a
term too) is predicted from the models at every measured point, each measurement parameter
bound to the symbol of its name, and compared with the aggregate (default: the median) of the
repetitions there: error = (predicted - measured) / measured, as paper 001 defines it. The
models are converted to the unit of the measured values first. A series that is not a term,
or needs an atom the models lack, is skipped with a note.

>>> from patternalg.measurements import Measurements, Series
>>> s = Series("pipe(inc, nop)", "time", ("x",), np.array([[4.0], [1024.0]]),
...            (np.array([5000.0, 6000.0]), np.array([550000.0])), ((2, 3), (4,)), "m.txt")
>>> data = Measurements("m.txt", "text", ("x",), "time", None, (s,))
>>> result = validate(data, {"inc": "536.185*x", "nop": "5422.97"})
>>> result.header()
['term', 'x', 'predicted', 'measured', 'error']
>>> [row[:4] + [round(row[4], 6)] for row in result.rows()]
[['pipe(inc, nop)', 4.0, 5422.97, 5500.0, -0.014005], ['pipe(inc, nop)', 1024.0, 549053.44, 550000.0, -0.001721]]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._internal.display import listed
from ..algebra.arrays import Compiled, compile_term
from ..algebra.atomic_model import AtomicModel
from ..algebra.domains import negative_note, range_notes
from ..algebra.semantics import Semantics
from ..algebra.term_symbols import term_symbols
from ..algebra.units import atom_names, converted_note, in_unit
from ..arguments import as_callback, as_seed, wrong
from ..errors import EvaluationError, MeasurementError, ParseError, UnitError
from ..library.machines import MachineLike, chosen_semantics
from ..measurements import Aggregation, Measurements, Series
from ..measurements.halves import in_halves
from ..measurements.model import hand_left_out
from ..measurements.names import measured_unit, quantity
from ..syntax.parser import parse
from ..syntax.terms import Meta, Term
from .coverage import measured_interval
from .sources import evidence_models, measurement_sources, models_given, once_each
from .validated import Validated, Validation

__all__ = ["Validation", "Validated", "validate"]

#: series named in one note before the rest are counted
_NAMED = 6


@dataclass
class _Skipped:
    """The series left out, by reason, for the notes and for the error if nothing is left."""

    not_terms: list[str]
    unknown: dict[str, list[str]]  #: atom -> the terms that need it
    other: list[str]

    def notes(self, library: Mapping[str, AtomicModel]) -> list[str]:
        notes = []
        if self.not_terms:
            notes.append(
                f"skipped {_names(self.not_terms)}: not terms (a series validates "
                "when its name is a term, e.g. 'pipe(qsort, inc)', or an atom modeled)"
            )
        for atom, terms in self.unknown.items():
            known = listed(sorted(library), _NAMED) or "none"
            notes.append(f"skipped {_names(terms)}: no model of {atom} (the models: {known})")
        return notes + self.other


def _names(names: Sequence[str]) -> str:
    return listed([f"'{n}'" for n in names], _NAMED)


def _term_of(
    series: Series, atom: str, library: Mapping[str, AtomicModel]
) -> tuple[Term | None, list[str]]:
    """The term a series is named by, and the atoms of it the models lack. A kernel that is
    not a term whose atoms are modeled (``BM_sort``, ``test_pass[order=sorted]``) is the
    atom ``fit`` named it by (``bM_sort``), if the models have that atom."""
    try:
        term: Term | None = parse(series.kernel)
    except ParseError:
        term = None
    if term is not None and any(isinstance(node, Meta) for node in term.walk()):
        term = None  # a law's metavariable (a capitalised name) stands for no model
    unknown = [] if term is None else [n for n in atom_names(term) if n not in library]
    if (term is None or unknown) and atom in library:
        return parse(atom), []
    return term, unknown


def _bindings(
    symbols: Sequence[str], parameters: Sequence[str], path: str, own: Collection[str] = ()
) -> tuple[dict[str, str], list[str]]:
    """Each symbol the model needs -> the parameter bound to it: by name, and the one
    parameter left to the one symbol left (``fit`` makes a file's one parameter, ``n``, the
    symbol x), unless it names a symbol the term has (``own``: n in ``qsort[p=n]``, which
    nothing reads); and a note saying so.

    >>> _bindings(["x"], ["n"], "m.csv")[0], _bindings(["x"], ["n"], "m.csv", own=["n", "x"])[0]
    ({'x': 'n'}, {})
    """
    bound = {s: s for s in symbols if s in parameters}
    missing = [s for s in symbols if s not in bound]
    unused = [p for p in parameters if p not in bound.values() and p not in own]
    notes = []
    if len(missing) == 1 and len(unused) == 1:
        bound[missing[0]] = unused[0]
        notes.append(
            f"parameter '{unused[0]}' of {path} is taken as the symbol {missing[0]}, the one "
            "symbol of the model no parameter names (as fit takes a file's one parameter as x)"
        )
    return bound, notes


def _size(bound: Mapping[str, str], parameters: Sequence[str]) -> str | None:
    """The parameter that is x: bound to it, else named x, else a file's one parameter (a
    model constant in x binds nothing).

    >>> _size({}, ["n"]), _size({"x": "n"}, ["p", "n"]), _size({}, ["p", "q"])
    ('n', 'n', None)
    """
    if "x" in bound:
        return bound["x"]
    if "x" in parameters:
        return "x"
    return parameters[0] if len(parameters) == 1 else None


def _predict(compiled: Compiled, columns: Mapping[str, np.ndarray], points: int) -> np.ndarray:
    """The compiled model at every point (a model constant in the parameters: every point)."""
    values = compiled.values({s: columns[s] for s in compiled.symbols})
    return np.array(np.broadcast_to(values, (points,)), dtype=float)


def _validate_series(
    series: Series,
    term: Term,
    library: Mapping[str, AtomicModel],
    semantics: tuple[Semantics, Semantics | None],
    how: Aggregation,
    interval: tuple[float, int] | None = None,
) -> tuple[Validated | None, list[str], tuple[str, ...]]:
    """One series predicted and measured, its notes and the atoms its interval counts as
    exact; None and the reason (one note) if the file does not measure a symbol its model
    needs."""
    main, rules = semantics
    unit = measured_unit(quantity(series.metric), series.unit, None, series.path)
    converted, unit, _ = in_unit([term], library, unit)  # one note for every series: validate's
    main = main.in_unit(unit)
    compiled = compile_term(term, converted, {}, semantics=main)
    found = term_symbols(term, converted, main)
    bound, more = _bindings(compiled.symbols, series.parameters, series.path, found.bindable)
    more += found.notes(series.parameters)  # measured over a symbol that changes nothing
    missing = [s for s in compiled.symbols if s not in bound]
    if missing:
        return None, [
            f"skipped '{series.kernel}': its model needs {', '.join(missing)}, which "
            f"{series.path} does not measure (its parameters: {', '.join(series.parameters)})"
        ], ()
    columns = {s: series.column(p) for s, p in bound.items()}
    predicted = _predict(compiled, columns, len(series))
    other = None
    if rules is not None:
        other = _predict(compile_term(term, converted, {}, semantics=rules), columns, len(series))
    ranges = {s: (float(c.min()), float(c.max())) for s, c in columns.items()}
    text = str(term)
    notes = [*more, *range_notes([term], converted, {}, ranges)]
    if np.isfinite(predicted).any():
        notes += negative_note(text, float(np.nanmin(predicted)), unit)
    size = _size(bound, series.parameters)
    low = high = None
    exact: tuple[str, ...] = ()
    if interval is not None:  # an atom's draws may vary with x where its model does not
        sized = {**columns, "x": series.column(size)} if size is not None and "x" not in columns else columns
        low, high, exact = measured_interval(term, converted, main, sized, len(series), *interval)
    validated = Validated(
        text, series.kernel, series.path, series.parameters, size, series.points, predicted,
        series.aggregate(how), unit, other, low, high, in_halves(series, how),
    )  # fmt: skip
    undefined = int(np.isnan(validated.error).sum())
    if undefined:
        notes.append(
            f"{text}: no relative error at {undefined} point(s) (nothing measured, "
            "or no finite prediction): their cells are empty"
        )
    return validated, notes, exact


def validate(
    measurements: Any,
    models: Any = None,
    *,
    semantics: Semantics | str | None = None,
    rules: Semantics | str | None = None,
    aggregate: Aggregation | str = "median",
    interval: float | None = None,
    seed: int = 0,
    machine: MachineLike = None,
    cores: int | None = None,
    on_error: Callable[[MeasurementError], None] | None = None,
    library: Any = None,
) -> Validation:
    """Predict every series of ``measurements`` whose name is a term from ``models`` and
    compare with the measured ``aggregate`` of its repetitions at every point.

    ``measurements``: a :class:`~patternalg.measurements.Measurements`, a series, the path
    of a measurement file in any format :func:`patternalg.measurements.read` knows, or a
    list of them. ``models``: a model file's path (or several; the built-ins are not added:
    an atom they lack is not validated), a :class:`~patternalg.library.ModelLibrary` or a
    mapping of atom names to models. ``semantics``: how the operators combine (any
    registered semantics; exact unless given); ``rules``: a second semantics whose predictions and errors are
    reported beside (e.g. ``exact`` beside a machine's). Series that are not terms, need an
    atom the models lack or a symbol the file does not measure are skipped with a note; an
    EvaluationError if none is left. ``interval`` (a level such as 0.9) adds each
    prediction's central interval of what a measurement would show
    (:mod:`~patternalg.algebra.intervals`) and the share of the measured values it covers.
    ``machine`` and ``cores``, as ``--machine`` and ``--cores``: validate under that machine's
    semantics (another ``semantics`` beside it is an ArgumentError), the rules (``exact``)
    beside unless ``rules`` says otherwise. A series the reader left out (a value that is no
    number, :attr:`~patternalg.measurements.Measurements.left_out`) raises its error, or with
    ``on_error`` goes to it and the others are validated, as ``Form.fit_each`` takes it.
    ``library``: the models by the decisions' name (``library=patternalg.fit(...)``), instead
    of ``models``; neither: the built-in models.
    """
    models = models_given(models, library)
    main, seed = chosen_semantics(semantics, machine, cores, Semantics.EXACT), as_seed(seed)
    on_error = as_callback(on_error, "on_error", "on_error(error)")
    if rules is None and (machine is not None or cores is not None):
        rules = Semantics.EXACT
    other = None if rules is None else Semantics.of(rules, "rules")
    sources = measurement_sources(measurements)
    once_each(s.path for s in sources if s.format != "series")
    library = evidence_models(models)
    drawn = None
    if interval is not None:
        from ..algebra.intervals import check_level

        drawn = (check_level(interval), seed)
    try:
        how = Aggregation(aggregate)
    except ValueError:
        valid = ", ".join(a.value for a in Aggregation)
        raise wrong("aggregate", f"one of {valid}", aggregate) from None
    validated: list[Validated] = []
    notes: list[str] = []
    exact: set[str] = set()  #: atoms an interval counts as exact, in one note for every term
    skipped = _Skipped([], {}, [])
    #: the terms predicted in each unit, and the file that stated none (the unit then taken)
    into: dict[tuple[str, str | None], list[Term]] = {}
    for data in sources:
        hand_left_out(data, on_error)
    for data in sources:
        notes += data.notes
        for series, atom in zip(data, data.atoms(), strict=True):
            term, unknown = _term_of(series, atom, library)
            if term is None:
                skipped.not_terms.append(series.kernel)
                continue
            if unknown:
                skipped.unknown.setdefault(unknown[0], []).append(series.kernel)
                continue
            if str(term) != series.kernel and atom == str(term):
                notes.append(f"kernel '{series.kernel}' is the atom {atom} (the name fit gives it)")
            try:
                found, more, unsure = _validate_series(series, term, library, (main, other), how, drawn)
            except UnitError as exc:
                found, more, unsure = None, [f"skipped '{series.kernel}': {exc}"], ()
            if found is None:
                skipped.other += more
            else:
                validated.append(found)
                notes += more
                exact.update(unsure)
                into.setdefault((found.unit, series.path if series.unit is None else None), []).append(term)
    notes = skipped.notes(library) + _conversions(into, library) + notes
    if exact:
        from ..algebra.intervals import no_uncertainty_note

        notes.append(no_uncertainty_note(sorted(exact), library))
    if not validated:
        raise EvaluationError(_nothing(sources, skipped, library))
    parameters = tuple(dict.fromkeys(p for v in validated for p in v.parameters))
    return Validation(
        tuple(validated),
        main.name,
        None if other is None else other.name,
        how.value,
        parameters,
        tuple(dict.fromkeys(d.path for d in sources)),
        tuple(dict.fromkeys(notes)),
        interval,
    )


def _conversions(into: Mapping[tuple[str, str | None], Sequence[Term]], library: Mapping[str, AtomicModel]) -> list[str]:
    """One note per unit the atoms were converted to, naming each atom once
    (:func:`~patternalg.algebra.units.converted_note`), and the file that stated no unit."""
    notes = []
    for (unit, unstated), terms in into.items():
        note = converted_note(terms, library, unit)
        if note and unstated is not None:
            note += f" ({unstated} states no unit: taken as {unit}, as fit takes it)"
        if note:
            notes.append(note)
    return notes


def _nothing(sources: Sequence[Measurements], skipped: _Skipped, library: Mapping[str, Any]) -> str:
    """The one line saying that nothing could be validated: what the files had, what would
    be valid."""
    files = ", ".join(d.path for d in sources)
    count = sum(len(d) for d in sources)
    why = []
    if skipped.not_terms:
        why.append(f"not terms: {_names(skipped.not_terms)}")
    for atom, terms in skipped.unknown.items():
        why.append(f"no model of {atom}: {_names(terms)}")
    why += skipped.other
    known = listed(sorted(library), _NAMED) or "none"
    return (
        f"{files}: nothing to validate among {count} series ({'; '.join(why)}); valid: series "
        f"named by terms (e.g. 'pipe(qsort, inc)') whose atoms the models define ({known})"
    )
