"""The object protocols a notebook (and multiprocessing) relies on, for every public object a
user holds: ``pickle``, ``copy.copy`` and ``copy.deepcopy`` give an equal object (or, for a
result compared by identity, one that says the same), and ``repr`` is one short line."""

from __future__ import annotations

import copy
import pickle
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sympy

from patternalg import Machine, ModelLibrary, explain, p, parse, x
from patternalg._internal.display import REPR_WIDTH
from patternalg.decisions import compare, explore, optimize, sweep
from patternalg.evidence import calibrate, validate
from patternalg.evidence.profile_check import check_profile
from patternalg.forms import PMNF
from patternalg.laws import check
from patternalg.measurements import read
from patternalg.profiles import CallTree, fit_profile, profile_term, read_profiles
from patternalg.syntax.terms import Atom, Pipe, Seq, TPool

ATOMS = Path(__file__).resolve().parents[1] / "benchmarks" / "realdata" / "data" / "atoms.txt"
COMPOSITIONS = ATOMS.with_name("compositions.txt")
LULESH = Path(__file__).resolve().parent / "data" / "profiles" / "lulesh"


def _same(obj: Any) -> Any:
    return obj


def _said(result: Any) -> Any:
    """What a result compared by identity says: its text and its notebook table."""
    return (result.text(), result.lines(), result._repr_html_())


def _json(result: Any) -> Any:
    return (result.to_json(), result._repr_html_())


def _objects() -> dict[str, tuple[Any, Callable[[Any], Any]]]:
    """Each public object a notebook holds, its caches filled, and what of it a copy keeps
    (itself where it has ``==``)."""
    measurements = read(str(ATOMS))
    report = PMNF.fit_each(measurements, uncertainty="auto")[0]
    report.fitted(x=[2.0, 4.0])  # the closed form and its numeric function, cached
    builtin = ModelLibrary.builtin()
    evaluation = explain("pipe(tpool_4(qsort), inc)")
    evaluation.lines()  # the derivation, cached
    at = explain("pipe(inc, nop)", x=4)
    at.lines()
    machine = Machine(
        2,
        handoff=300 + sympy.Float(0.5) * x,
        dispatch=800,
        speedups={"qsort": p / (1 + sympy.Float(0.5) * (p - 1))},
        calibration=(("numbers", {"h0": 300.0}),),
    )
    compared = compare(["inc", "nop"])
    compared._repr_html_()
    library = ModelLibrary([r.model for r in PMNF.fit_each(measurements)])
    profiles = read_profiles(LULESH)
    tree = CallTree.of(profiles, "mpi.world.size=p")
    built = profile_term(tree)
    fitted = fit_profile(built)
    checked = check_profile(fitted, at="p=1000")
    return {
        "term": (parse("pipe(tpool_4(qsort[p=2]), mapReduce_{2,n}^{3,k}(inc, shuffle_{2,n}^{k}, nop))"), _same),
        "atomic model": (builtin["qsort"], _same),
        "fitted atomic model": (report.model, _same),
        "built-in library": (builtin, _same),
        "user library": (ModelLibrary([report.model, builtin["inc"]]), _same),
        "library from a mapping": (ModelLibrary.of({"k": "2*x"}), _same),
        "machine": (machine, _same),
        "fit report": (report, _same),
        "measurements": (measurements, _same),
        "series": (measurements.series[0], _same),
        "evaluation": (evaluation, _said),
        "evaluation at a point": (at, _said),
        "sweep": (sweep(["pipe(inc, nop)"], over="x=1..1e6:10000:log"), _json),
        "comparison": (compared, _json),
        "optimum": (optimize("pipe(tpool_a(qsort), tpool_b(inc))", budgets=["a+b<=16"], at={"x": 10**6}), _same),
        "exploration": (explore("pipe(tpool_4(qsort), inc)", at={"x": 10**6}, threads=8), _same),
        "validation": (validate(str(COMPOSITIONS), library, interval=0.9), _json),
        "calibration": (calibrate([ATOMS, COMPOSITIONS], library, cores=2), _json),
        "profile": (profiles[0], _same),
        "call tree": (tree, lambda t: (t.paths, t.runs, t.values.tolist(), t.points.tolist())),
        "profile term": (built, lambda b: (str(b.term), b.atoms)),
        "profile fit": (fitted, lambda f: (f.atoms, dict(f.inclusive))),
        "profile check": (checked, _json),
        "node check": (checked.nodes[3], lambda n: (n.path, n.atom, n.gap.tolist())),
        "law verdict": (check("seq(A, B) <= pipe(A, B)", semantics="exact", examples=20), _same),
    }


OBJECTS = _objects()


def _copies(obj: Any) -> dict[str, Any]:
    return {
        "pickle": pickle.loads(pickle.dumps(obj)),
        "copy": copy.copy(obj),
        "deepcopy": copy.deepcopy(obj),
    }


def test_a_term_10000_deep_pickles_and_copies() -> None:
    """Pickling recursed once per level: RecursionError at 10,000 levels."""
    term = parse("a")
    for level in range(10_000):
        term = Pipe(parse("b"), term) if level % 2 else TPool(4, term)
    for how, twin in _copies(term).items():
        assert twin == term, how
        assert twin.depth() == 10_001, how


def test_a_pickled_term_keeps_its_parts_and_what_it_shares() -> None:
    term = parse("pipe(tpool_4(qsort[p=2]), mapReduce_{2,n}^{3,k}(inc, shuffle_{2,n}^{k}, nop))")
    twin = pickle.loads(pickle.dumps(term))
    assert twin == term and hash(twin) == hash(term) and str(twin) == str(term)
    shared = Atom("a")
    again = pickle.loads(pickle.dumps(Seq(shared, shared)))
    assert again.left is again.right


def test_a_fit_report_pickles_and_copies_and_builds_its_model_again() -> None:
    """A report's fitted model held the lambda that builds its closed form: pickle failed,
    and ``copy.deepcopy`` raised "PMNF is immutable"; the report's cached library model
    travelled with it."""
    report = PMNF.fit_each(read(str(ATOMS)), uncertainty="auto")[1]
    model = report.model  # built and cached
    for how, twin in _copies(report).items():
        assert twin == report and twin.fitted.expr == report.fitted.expr, how
        assert "model" not in vars(twin) and twin.model == model, how


@pytest.mark.parametrize("name", list(OBJECTS))
def test_a_public_object_pickles_and_copies_to_an_equal_one(name: str) -> None:
    """A fit report's model held a lambda (pickle failed, deepcopy raised "PMNF is
    immutable"); an evaluation at a point held a closure ("Can't pickle local object
    'at_point.<locals>.closed'")."""
    obj, kept = OBJECTS[name]
    for how, twin in _copies(obj).items():
        assert type(twin) is type(obj), how
        assert kept(twin) == kept(obj), how


def test_a_copied_evaluation_at_a_point_folds_its_closed_form_once() -> None:
    """Its closed form is folded when first read, by an object that pickles (it was a
    closure); a copy of one already folded folds its own, not into the caller's record."""
    fresh = explain("pipe(inc, nop)", x=4)
    shown = explain("pipe(inc, nop)", x=4)
    shown.lines()
    for at in (fresh, shown):
        twin = pickle.loads(pickle.dumps(at))
        assert twin.point is not None and str(twin.point.closed_form) == "536.185*x"
        assert [str(s.term) for s in twin.point.derivation.steps] == ["pipe(inc, nop)", "inc", "nop"]
        assert twin.lines() == at.lines()


@pytest.mark.parametrize("name", list(OBJECTS))
def test_a_public_object_s_repr_is_one_short_line(name: str) -> None:
    """The built-in library's repr listed all its atoms (712 characters); a fit report's
    every statistic; a sweep of 10,000 points, a measurement and a series their arrays
    over many lines; an exploration every design with its rewrites (19,000 characters)."""
    shown = repr(OBJECTS[name][0])
    assert "\n" not in shown and len(shown) <= REPR_WIDTH, shown[:400]


def test_reprs_say_briefly_what_an_object_holds() -> None:
    shown = {name: repr(obj) for name, (obj, _) in OBJECTS.items()}
    builtin = OBJECTS["built-in library"][0]
    listed = re.fullmatch(rf"ModelLibrary\({len(builtin)} atoms: (inc, map_grppi, [a-z_, ]+) and (\d+) more\)", shown["built-in library"])
    assert listed is not None and len(listed[1].split(", ")) + int(listed[2]) == len(builtin)
    assert shown["user library"] == "ModelLibrary(2 atoms: inc, nop)"
    assert shown["machine"] == "Machine(cores=2, handoff=0.5*x + 300, dispatch=800, unit='ns', speedups of qsort, calibrated)"
    assert shown["measurements"] == (
        f"Measurements(3 kernels: nop, inc, qsort; metric time; x in [1024, 262144], 10 repetitions; from {ATOMS})"
    )
    assert shown["series"] == f"Series('nop', 'time': 9 points, x in [1024, 262144], 10 repetitions, from {ATOMS})"
    assert shown["atomic model"] == "AtomicModel(qsort [ns]: 1034.17*x*log2(x))"
    assert shown["fit report"] == "FitReport(nop = 67.46 ns, pmnf fit of 'nop', SMAPE 12 %)"
    assert shown["evaluation at a point"] == "Evaluation(pipe(inc, nop) = 5422.97 ns at x = 4)"
    assert shown["sweep"] == "Sweep(1 term: pipe(inc, nop); over x in [1, 1000000] (10,000 points); in ns)"
    assert shown["comparison"] == "Comparison(inc, nop over x in [1, 1099511627776]: 1 crossover; asymptotic winner: nop)"
    assert shown["optimum"] == (
        "Optimum(pipe(tpool_a(qsort), tpool_b(inc)) under a+b<=16: best a=15, b=1 = 1374175351.15587 ns)"
    )
    validated = re.fullmatch(r"Validation\(18 terms: seq\(qsort, nop\), seq\(qsort, inc\), seq\(inc, qsort\) and 15 more; "
                             r"exact, median \|error\| [\d.]+ %, worst [\d.]+ %; [\d.]+ % covered at 90 %\)", shown["validation"])
    assert validated is not None, shown["validation"]
    assert shown["calibration"].startswith(
        "Calibration(from 18 compositions: seq(qsort, nop), seq(qsort, inc) and 16 more; 2 cores, hand-off "
    )
    assert shown["profile"] == f"Profile({LULESH / '125_cores.cali'}: 46 call paths; Avg time/rank in s)"
    assert shown["call tree"] == "CallTree(46 call paths over 5 runs, p in [27, 343]; Avg time/rank in s)"
    assert shown["profile term"] == "ProfileTerm(29 atoms: program, main, main.lulesh_cycle and 26 more; of 46 call paths over 5 runs)"
    assert shown["profile fit"] == "ProfileFit(29 atoms fitted: program, main, main.lulesh_cycle and 26 more; 29 nodes' inclusive times)"
    assert shown["profile check"] == "ProfileCheck(29 nodes at 5 points and p = 1000; 90 % intervals)"
    assert re.fullmatch(r"NodeCheck\(main/lulesh.cycle/LagrangeLeapFrog: atom main.lulesh_cycle.lagrangeleapfrog; "
                        r"gap [-+][\d.]+ % \.\. [-+][\d.]+ %\)", shown["node check"]), shown["node check"]
    assert shown["law verdict"] == "CheckResult(seq(A, B) <= pipe(A, B) under exact: refuted after 1 example)"
    assert shown["exploration"] == (
        "Exploration(from pipe(tpool_4(qsort), inc): best tpool_8(seq(qsort, inc)) of 128 designs within 8 threads)"
    )


@pytest.mark.parametrize("at", [{}, {"x": 4}])
def test_an_evaluation_of_a_deep_term_pickles_its_sub_terms_once(at: dict[str, int]) -> None:
    """Each of a derivation's steps pickled its sub-term alone: 2,000 deep, 68 MB in two
    minutes; the steps' sub-terms now pickle in one flat tuple."""
    term = "inc"
    for _ in range(2_000):
        term = f"pipe(qsort, {term})"
    result = explain(term, **at)
    lines = result.lines()
    data = pickle.dumps(result)
    assert len(data) < 2_000_000
    twin = pickle.loads(data)
    assert twin.lines() == lines and twin.term == result.term
    steps = (twin.point.derivation if at else twin.derivation).steps
    assert len(steps) == len(result.derivation.steps) and steps[0].term == result.term
    assert steps[2].term is steps[0].term.right  # the sub-terms shared, as in the original


def test_a_copied_sweep_keeps_its_arrays_read_only() -> None:
    """A sweep is immutable, its arrays read-only; numpy unpickled (and deep-copied) them
    writable, so that changing a copy's values changed what it reports."""
    swept = sweep(["pipe(inc, nop)"], over="x=1..1e3:5:log", interval=0.9)
    for how, twin in _copies(swept).items():
        arrays = [twin.axes[0].values, *twin.values, *twin.bottlenecks, *twin.intervals[0]]
        assert not any(a.flags.writeable for a in arrays), how
        assert twin.to_json() == swept.to_json(), how
