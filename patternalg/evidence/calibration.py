"""``calibrate``: a machine's numbers fitted to compositions measured on it.

The measurements hold the atoms and a few calibration compositions, each region named by its
term (``benchmarks/realdata/run.sh``, ``CALIBRATION=1``). The hand-off ``h0 + h1*x`` (per data
element a pipeline stage receives, :mod:`patternalg.algebra.machine`) and, where a calibration
composition has a task pool of two or more threads, the dispatch cost ``d0`` (per data element
such a pool hands out; a constant: on ``benchmarks/realdata/data9`` a pool of ``nop`` costs 50
to 240 ns per element from x = 1,024 to 131,072, while a slope fitted to ``tpool_2(inc)`` on
that busy machine, 1.4 ns per unit of x, would charge it 190 us at 131,072: what grows with x
there is ``inc``'s own work shared badly, an atom's speed-up, ``docs/machine.md``) are fitted
by bounded, nonnegative least squares over the relative errors of the compositions' medians
under the machine semantics. By default the terms are composed from the atoms' *measured* medians at
each size (``atoms="measured"``: the atoms were measured back to back with the compositions,
so what is left is the machine's, not the atoms' fits; ``docs/machine.md`` has the
measurement that chose it); ``atoms="models"`` composes the models instead (``models``, else
PMNF fitted to the atom regions). ``speedups=True`` also fits a speed-up
``S(p) = p/(1 + c*(p - 1))`` for each atom of a ``tpool_k(atom)`` calibration term with
``2 <= k <= cores``; the default, ``"auto"``, keeps them only where they predict the
calibration sizes left out of the fit better (:mod:`~patternalg.evidence.choosing`: on the
busy ``data9`` they do, on the quiet runs they do not, ``docs/machine.md``). The record keeps
the numbers' standard errors and their covariance, from which an interval draws them
(:mod:`~patternalg.algebra.machine_numbers`).

>>> import numpy as np
>>> from patternalg.algebra.machine import Machine
>>> from patternalg.library.model_library import ModelLibrary
>>> sizes = np.array([16.0, 256.0, 4096.0, 65536.0])
>>> truth = Machine(2, handoff="300 + 0.5*x").semantics
>>> data = {"pipe(inc, inc)": (sizes, simulated("pipe(inc, inc)", truth, sizes))}
>>> result = calibrate(data, ModelLibrary.builtin(), cores=2, atoms="models")
>>> result.machine.describe()
'2 cores, hand-off 0.5*x + 300 ns per element'
>>> [round(n.value, 3) for n in result.numbers]
[300.0, 0.5]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import sympy

from .._internal.surface import flag
from ..algebra.arrays import compile_term
from ..algebra.atomic_model import AtomicModel
from ..algebra.machine_notes import speedups_short_of_cores
from ..algebra.machine_number_kinds import atom_of, kind_of, meaning
from ..algebra.semantics import Semantics
from ..errors import EvaluationError, MeasurementError
from ..library.machines import as_cores
from ..library.model_library import ModelLibrary
from ..measurements.halves import in_halves
from ..syntax.arith import number_text
from ..syntax.parser import parse
from ..syntax.symbols import x
from ..syntax.terms import Atom
from .calibrated import Calibration, FittedNumber, Residual
from .calibration_fit import (
    Fitted,
    Problem,
    covariance_record,
    fit_numbers,
    pooled_atoms,
    rounded,
    spread,
    standard_errors,
)
from .calibration_regions import Region, chosen_compositions, composed_from, no_twins, read_regions
from .calibration_set import calibration_terms
from .choosing import MIN_SIZES, choice_record, held_out, no_choice, speedup_mode
from .halves import InHalves
from .missed import missed_by_size, missed_record
from .sources import models_given, recorded_cores
from .validated import relative_error

__all__ = ["Calibration", "FittedNumber", "Residual", "calibrate", "simulated"]

#: how the calibration composes the terms: from the atoms' measured medians, or their models
BASES = ("measured", "models")


def simulated(term: str, semantics: Semantics, sizes: np.ndarray,
             library: Mapping[str, AtomicModel] | None = None) -> np.ndarray:
    """``term``'s values at ``sizes`` under ``semantics`` (the built-in models by default):
    synthetic measurements of a known machine.

    >>> from patternalg.algebra.machine import Machine
    >>> simulated("pipe(inc, inc)", Machine(2, handoff=100).semantics, np.array([1.0])).tolist()
    [636.185]
    """
    models = ModelLibrary.builtin() if library is None else library
    compiled = compile_term(parse(term), models, {}, semantics=semantics)
    return compiled.values({"x": np.asarray(sizes, dtype=float)})


def _step_models(atoms: Sequence[Region], models: Mapping[str, AtomicModel]) -> ModelLibrary:
    """Each atom as its measured medians, a step function of x (a value per measured size,
    evaluated only there), touching its data unless its model says it does not."""
    built = []
    for region in atoms:
        name = str(region.term)
        order = np.argsort(region.sizes)
        sizes, medians = region.sizes[order], region.medians[order]
        cuts = np.exp((np.log(sizes[:-1]) + np.log(sizes[1:])) / 2)  # geometric means, no overflow
        # built unevaluated: sympy's own Piecewise asks its assumptions of every condition
        # against every other (2,841 sizes took 27 s per atom)
        pieces = [(sympy.Float(m), sympy.StrictLessThan(x, sympy.Float(c), evaluate=False))
                  for m, c in zip(medians, cuts, strict=False)]  # fmt: skip
        expr = sympy.Piecewise(*pieces, (sympy.Float(medians[-1]), sympy.true), evaluate=False)
        touches = models[name].touches_data if name in models else True
        built.append(AtomicModel(name, expr, unit=region.unit, source=region.where, touches_data=touches))
    return ModelLibrary(built)


def _fitted_models(atoms: Sequence[Region]) -> ModelLibrary:
    """PMNF fitted to the atoms' repetitions (``patternalg fit``'s default fit), or to
    their medians where only those are given."""
    from ..forms import PMNF
    from ..measurements import Measurements, Series

    series = tuple(
        r.series if r.series is not None else
        Series(str(r.term), "time", ("x",), r.sizes.reshape(-1, 1),
               tuple(np.array([m]) for m in r.medians), tuple((0,) for _ in r.medians), r.where)
        for r in atoms
    )  # fmt: skip
    data = Measurements("<atoms>", "calibration", ("x",), "time", None, series)
    return ModelLibrary(report.model for report in PMNF.fit_each(data))


def calibrate(
    measurements: Any,
    models: Any = None,
    *,
    cores: int | None = None,
    atoms: str | None = None,
    speedups: bool | str = "auto",
    terms: Sequence[str] | None = None,
    library: Any = None,
) -> Calibration:
    """Fit a machine's numbers to the calibration compositions of ``measurements`` (paths
    or :class:`~patternalg.measurements.Measurements` of the atoms and compositions, regions
    named by their terms; or a mapping term -> (sizes, values)).

    ``models``: the atoms' models (a model file's path or a library; default: PMNF fitted
    to the atom regions); ``cores``: default what the measurements' record says
    (:func:`recorded_cores`); ``atoms``: compose the terms from the atoms' ``"measured"``
    medians (the default where the atoms were measured at every size of the compositions)
    or their ``"models"``; ``speedups``: also fit per-atom speed-ups (True), not (False),
    or (``"auto"``) keep them only where they predict the calibration sizes left out of the
    fit better (:mod:`~patternalg.evidence.choosing`); ``terms``: calibrate on these
    compositions only (default: every one measured). ``library``: the models by the
    decisions' name (``library=patternalg.fit(...)``), instead of ``models``.
    """
    models = models_given(models, library)
    cores = None if cores is None else as_cores(cores)
    mode = speedup_mode(speedups)
    regions, files, stdin = read_regions(measurements)
    atom_regions = [r for r in regions if isinstance(r.term, Atom)]
    compositions = chosen_compositions([r for r in regions if not isinstance(r.term, Atom)], terms)
    if not compositions:
        raise MeasurementError(
            "no composition to calibrate on: the measurements hold only atoms (measure "
            f"{', '.join(calibration_terms(cores or 2))}; docs/machine.md)"
        )
    no_twins(regions)
    if cores is None:
        cores = recorded_cores(files, stdin)
        if cores is None:
            raise MeasurementError(
                f"the measurements do not say how many cores the machine has: give {flag('cores', 'N')}"
            )
    if models is None and not atom_regions:
        raise MeasurementError(
            f"no atom regions and no models: measure the atoms too, or give their models ({flag('models')})"
        )
    basis, composed, why = _composing(compositions, atom_regions, models, atoms)
    unit, composed, converted = _in_one_unit(compositions, composed)
    pooled = pooled_atoms(compositions, cores, composed) if mode != "no" else []
    problem = Problem(compositions, composed, cores, unit, pooled if mode == "yes" else [])
    points = sum(len(r.sizes) for r in compositions)
    if points <= len(problem.names):
        raise MeasurementError(
            f"too few points: {points} composition value(s) for {len(problem.names)} numbers: a fit "
            "needs more values than numbers (with as many it meets every value and leaves no residual "
            "to judge it by); measure the compositions at more sizes"
        )
    fitted = fit_numbers(problem)
    choice = choice_record(mode, bool(problem.pooled))
    unkept: dict[str, float] = {}
    if mode == "auto":
        problem, fitted, choice, unkept = _chosen_speedups(problem, fitted, pooled)
    fitted = fitted._replace(theta=np.array([rounded(t, zero=kind_of(n).negligible(problem.unit))
                                             for n, t in zip(problem.names, fitted.theta, strict=True)]))  # fmt: skip
    result = _result(problem, fitted, basis, files, regions, choice, unkept)
    result = replace(result, notes=(*why, *converted, *result.notes))
    return _with_width(result, compositions, atom_regions, models, fitted.kept)


def _unmeasured_sizes(compositions: Sequence[Region], atom_regions: Sequence[Region]) -> str:
    """Why the terms were composed from the atoms' fits, not their measurements: the sizes
    of the compositions some atom was not measured at, and the sizes the fits saw."""
    measured = {str(r.term): set(r.sizes.tolist()) for r in atom_regions}
    missing = sorted({float(s) for r in compositions for a in composed_from(r.term) for s in r.sizes
                      if float(s) not in measured.get(a, set())})  # fmt: skip
    where = ", ".join(f"{v:g}" for v in missing[:3]) + (f", ... ({len(missing)} sizes)" if len(missing) > 3 else "")
    seen = np.concatenate([r.sizes for r in atom_regions])
    return (f"the atoms were not measured at every size of the compositions (x = {where}): the terms are "
            f"composed from the atoms' models, fitted to their regions at x = {seen.min():g} to {seen.max():g}")


def _chosen_speedups(
    problem: Problem, fitted: Fitted, pooled: Sequence[str]
) -> tuple[Problem, Fitted, dict[str, Any], dict[str, float]]:
    """``calibrate(speedups="auto")``: the machine with the speed-ups of ``pooled`` where it
    predicts the calibration sizes left out of its fit better than ``problem``'s
    (``fitted``), else that one; the record of the choice; and, where the
    speed-ups were fitted and not kept, the variances of their serial fractions (a pool of
    more threads than the calibration's is as unsure of its speed-up either way)."""
    if not pooled:
        return problem, fitted, no_choice("no tpool_k(atom) calibration composition with 2 <= k <= cores"), {}
    richer = Problem(problem.compositions, problem.library, problem.cores, problem.unit, pooled)
    sizes = np.concatenate([r.sizes for r in problem.compositions])
    if len(sizes) <= len(richer.names):
        return problem, fitted, no_choice(f"too few points ({len(sizes)}) to fit them"), {}
    rich = fit_numbers(richer)
    found = held_out(problem.batch, fitted.theta, richer.batch, rich.theta, sizes)
    if found is None:
        return problem, fitted, no_choice(
            f"too few sizes to leave one out ({len(np.unique(sizes))}; at least {MIN_SIZES}, "
            "each leaving more points than numbers to fit)"
        ), {}
    if found.keeps():
        return richer, rich, choice_record("auto", True, found), {}
    unkept = {}
    if rich.covariance is not None:
        unkept = {n: float(rich.covariance[i, i]) for i, n in enumerate(richer.names) if atom_of(n) is not None}
    return problem, fitted, choice_record("auto", False, found), unkept


def _with_width(result: Calibration, compositions: Sequence[Region], atom_regions: Sequence[Region],
                models: Any, kept: np.ndarray) -> Calibration:  # fmt: skip
    """``result`` with its record's ``width``: the width factor of the intervals of
    composed terms (:mod:`~patternalg.evidence.widths`), from the atoms' ``models`` (else
    fitted to the atom regions, as ``patternalg fit`` fits them); unchanged where they carry
    no uncertainty."""
    from ..algebra.units import in_unit
    from .widths import width_record

    if models is not None:
        library: Mapping[str, AtomicModel] = ModelLibrary.of(models, "models")
    elif atom_regions:
        library = _fitted_models(atom_regions)
    else:
        return result
    terms = [r.term for r in compositions]
    if not all(composed_from(t) <= set(library) for t in terms):
        return result
    library, unit, _ = in_unit(terms, library, result.machine.unit)
    # the calibration compositions fitted the numbers: their misses are the missed spread,
    # not the numbers' uncertainty, which an interval draws for the terms they predict
    record = tuple((k, v) for k, v in result.machine.calibration if k != "covariance")
    semantics = replace(result.machine, calibration=record).in_unit(unit).semantics
    width = width_record([(r.term, r.sizes, r.medians) for r in compositions], library, semantics, kept=kept)
    if width is None:
        return result
    machine = replace(result.machine, calibration=(*result.machine.calibration, ("width", width)))
    return replace(result, machine=machine)


def _composing(
    compositions: Sequence[Region], atom_regions: Sequence[Region], models: Any, atoms: str | None
) -> tuple[str, Mapping[str, AtomicModel], tuple[str, ...]]:
    """What the terms are composed from (``"measured"`` or ``"models"``), the library of
    it (the atoms' measured medians, or their models: given, else fitted to the atom
    regions) and, where the atoms' fits stand in for measurements missing, a note saying
    so. Whether an atom touches its data comes from ``models``, else from the built-in
    model of its name (``nop`` does not)."""
    given = ModelLibrary.of(models, "models") if models is not None else None
    touching = given if given is not None else ModelLibrary.builtin()
    measured_atoms = {str(r.term): r for r in atom_regions}
    covered = all(
        a in measured_atoms and set(r.sizes) <= set(measured_atoms[a].sizes)
        for r in compositions for a in composed_from(r.term)
    )  # fmt: skip
    basis = atoms or ("measured" if covered else "models")
    why: tuple[str, ...] = ()
    if basis not in BASES:
        raise EvaluationError(f"atoms is one of {', '.join(BASES)}, not {basis!r}")
    if basis == "measured":
        library: Mapping[str, AtomicModel] = _step_models(list(measured_atoms.values()), touching)
    elif given is not None:
        library = given
    else:
        fitted = _fitted_models(atom_regions)
        if atoms is None:  # chosen because measurements are missing: say which
            why = (_unmeasured_sizes(compositions, atom_regions),)
        library = ModelLibrary(
            replace(m, touches_data=touching[a].touches_data if a in touching else True)
            for a, m in fitted.items()
        )
    for region in compositions:
        _all_composed(region, library, "measured" if basis == "measured" else "modelled")
    if basis == "measured" and not covered:
        raise MeasurementError(
            "the atoms were not measured at every size of the compositions: compose from "
            "their models (atoms='models', --against models)"
        )
    return basis, library, why


def _all_composed(region: Region, library: Mapping[str, AtomicModel], how: str) -> None:
    """An error naming ``region`` where ``library`` (the atoms ``how``: measured or
    modelled) lacks a model its term is composed from: an atom, or a mapReduce's shuffle."""
    unknown = sorted(composed_from(region.term) - set(library))
    if not unknown:
        return
    atoms = {node.name for node in region.term.walk() if isinstance(node, Atom)}
    named = [name if name in atoms else f"{name} (the model of its mapReduce's shuffle phase)" for name in unknown]
    one = len(unknown) == 1
    raise EvaluationError(
        f"{region.where}: {', '.join(named)} {'is' if one else 'are'} neither measured nor modelled "
        f"({how}: {', '.join(sorted(library)) or 'none'}): measure {'it as a region' if one else 'each as a region'} "
        "of its own, or give the models (models=..., --models)"
    )


def _in_one_unit(
    compositions: Sequence[Region], library: Mapping[str, AtomicModel]
) -> tuple[str, Mapping[str, AtomicModel], tuple[str, ...]]:
    """The one unit of the compositions, the library in it (atoms measured or modelled in
    another unit of time converted, as ``validate`` converts them: a note says which) and
    that note."""
    from ..algebra.units import UnitError, in_unit

    units = {r.unit for r in compositions}
    if len(units) > 1:
        raise MeasurementError(
            f"the compositions are in several units ({', '.join(sorted(units))}): calibrate on "
            "measurements in one unit"
        )
    unit = units.pop()
    try:
        converted, _, note = in_unit([r.term for r in compositions], library, unit)
    except UnitError as exc:
        raise MeasurementError(f"the atoms' models cannot be compared with the compositions: {exc}") from None
    return unit, converted, note


def _worst_in_halves(region: Region, errors: np.ndarray) -> dict[str, Any] | None:
    """The machine's worst error of ``region`` against each half of its repetitions
    (:meth:`~patternalg.evidence.halves.InHalves.at`; None without 4 repetitions there)."""
    halves = None if region.series is None else in_halves(region.series, "median")
    if halves is None:
        return None
    predicted = (1 + errors) * region.medians
    found = InHalves.of(errors, relative_error(predicted, halves))
    return found.at(int(np.argmax(np.abs(errors))))


def _unmeasured(names: Sequence[str], unmoved: set[str]) -> list[str]:
    """What the calibration compositions leave unmeasured, and so 0 on the machine: a
    hand-off no composition pays, a dispatch cost without a pool, a turn without a pool no
    faster than its atom alone (docs/machine.md, "Which compositions to measure")."""
    notes = []
    if {"h0", "h1"} <= unmoved:
        notes.append(f"no calibration composition pays a hand-off ({kind_of('h0').measured_by}): "
                     "the machine has none, and predicts every pipe without one")  # fmt: skip
    if "d0" not in names or "d0" in unmoved:
        notes.append("no calibration composition is a pool of 2 or more threads: the machine has no dispatch "
                     f"cost, and predicts every pool without one ({kind_of('d0').measured_by}, measures it)")  # fmt: skip
    elif "t0" not in names or "t0" in unmoved:
        notes.append("no calibration composition is a pool no faster than its atom alone: the machine has no "
                     "turn, and predicts a pool of light elements faster than its queue lets it be "
                     f"({kind_of('t0').measured_by}, measures it)")  # fmt: skip
    notes += [f"{name}: no calibration composition moves it, so it is 0 ({kind_of(name).measured_by} would)"
              for name in names if name in unmoved and atom_of(name) is not None]  # fmt: skip
    return notes


def _result(problem: Problem, fitted: Fitted, basis: str, files: tuple[str, ...],
            regions: Sequence[Region], choice: dict[str, Any], unkept: Mapping[str, float]) -> Calibration:  # fmt: skip
    theta, covariance = fitted.theta, fitted.covariance
    unit = problem.unit
    errors = standard_errors(covariance, len(problem.names))
    numbers = [
        FittedNumber(name, float(t), e, meaning(name, unit))
        for name, t, e in zip(problem.names, theta, errors, strict=True)
    ]
    rules = problem.errors("exact")
    machine_errors = problem.errors(problem.machine(theta).semantics)
    residuals = [
        Residual(str(r.term), tuple(map(float, r.sizes)), tuple(map(float, e)), tuple(map(float, m)),
                 _worst_in_halves(r, m))
        for r, e, m in zip(problem.compositions, rules, machine_errors, strict=True)
    ]  # fmt: skip
    every = np.concatenate(machine_errors)
    sizes = np.concatenate([r.sizes for r in problem.compositions])
    record: dict[str, Any] = {
        "files": list(files),
        "sizes": sorted({float(s) for r in regions for s in r.sizes}),
        "atoms": basis,
        "numbers": {n.name: n.value for n in numbers},
        "errors": {n.name: rounded(n.error, 2, zero=0.0) for n in numbers if n.error is not None},
        "residuals": {
            r.term: {k: rounded(v) for k, v in zip(("median", "worst"), Residual.summary(r.machine), strict=True)}
            for r in residuals
        },
        "spread": {
            "median": rounded(float(np.median(np.abs(every)))),
            "worst": rounded(float(np.max(np.abs(every)))),
            # a robust standard deviation (1.4826 times the median |residual|: a few noisy
            # small sizes do not set it): what an interval adds for the operators calibrated
            "sd": spread(1.4826 * float(np.median(np.abs(every)))),
            # the same at each size, over the residuals there and at the sizes beside it
            "sizes": [[x, spread(sd)] for x, sd in missed_by_size(sizes, every, np.zeros_like(every))],
        },
        "speedups": choice,  # what was asked and kept (auto: the held-out errors it chose by)
    }
    drawn = covariance_record(problem.names, covariance, unit, unkept)
    if drawn is not None:  # an interval draws the numbers from it
        record["covariance"] = drawn
    # the same with the calibration's own measurement noise taken out: what the operators
    # miss (evidence/missed.py); an interval adds the predicted term's noise back
    missed = missed_record(problem.compositions, machine_errors, [r for r in regions if isinstance(r.term, Atom)],
                           problem.library, problem.machine(theta).semantics, basis == "measured",
                           fitted.slopes)  # fmt: skip
    if missed is not None:
        record["spread"]["missed"] = [[x, spread(v)] for x, v in missed["missed"]]
        # the same in parts: what every composition misses, and each atom where it carries
        # a composition (an interval weights them by the predicted term's shares)
        record["spread"]["common"] = [[x, spread(v)] for x, v in missed["common"]]
        record["spread"]["atoms"] = {a: [[x, spread(v)] for x, v in pairs] for a, pairs in missed["atoms"].items()}
        # how fast that miss drifts per doubling of x: an interval beyond the calibrated
        # sizes meets it times its distance from them (docs/uncertainty.md)
        record["spread"]["growth"] = spread(missed["growth"])
    source = "patternalg calibrate " + " ".join(files) if files else "patternalg calibrate"
    machine = problem.machine(theta, tuple(record.items()), source)
    unmoved = {name for name, u in zip(problem.names, fitted.unmoved, strict=True) if u}
    notes = [
        f"{n.name} = 0 is at the bound of the fit (none of the machine's numbers is negative): "
        "the calibration compositions ask for no more"
        for n in numbers if n.value == 0 and n.name not in unmoved
    ]  # fmt: skip
    notes += _unmeasured(problem.names, unmoved)
    notes += _unsure([n for n in numbers if n.name not in unmoved])
    notes += speedups_short_of_cores(machine)
    return Calibration(machine, tuple(numbers), tuple(residuals), basis, files, tuple(notes))


#: a fitted number whose standard error is at least this share of it is named as unsure
UNSURE = 0.5


def _unsure(numbers: Sequence[FittedNumber]) -> list[str]:
    """One note naming the numbers the calibration compositions determine to within
    :data:`UNSURE` of their value or worse (a number at 0 has its own note).

    >>> _unsure([FittedNumber("d0", 358.5, 250.0, ""), FittedNumber("h1", 0.5, 0.02, "")])[0][:60]
    'd0 = 358.5 ± 250: the calibration compositions determine it '
    >>> _unsure([FittedNumber("h1", 0.5, 0.02, "")])
    []
    """
    shaky = [n for n in numbers if n.error is not None and n.value > 0 and n.error >= UNSURE * n.value]
    if not shaky:
        return []
    which = ", ".join(f"{n.name} = {number_text(n.value, 4)} ± {number_text(n.error or 0.0, 2)}" for n in shaky)
    it = "it" if len(shaky) == 1 else "them"
    measuring: dict[str, list[str]] = {}  # what measures each kind, and its numbers
    for n in shaky:
        measuring.setdefault(kind_of(n.name).measured_by, []).append(n.name)
    by = "; ".join(f"{', '.join(names)}: {what}" for what, names in measuring.items())
    return [
        f"{which}: the calibration compositions determine {it} to ±{100 * UNSURE:g} % or worse; an "
        f"interval draws {it} so, and a prediction that leans on {it} is as unsure; more repetitions "
        f"of what measures {it} make {it} surer ({by})"
    ]

