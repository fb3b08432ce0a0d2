"""The public functions take what the command line takes (issue 29, findings 13 and 21):
terms, grids, bindings and files as text, a model file's path or a mapping of model texts
as the library; any other argument is an ArgumentError naming it."""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy

import patternalg
from patternalg import ModelLibrary, parse
from patternalg.algebra.grid import parse_axis
from patternalg.arguments import as_bindings, as_models
from patternalg.decisions.compare import compare
from patternalg.decisions.optimize import optimize
from patternalg.decisions.sweep import sweep
from patternalg.errors import ArgumentError, PatternalgError, UnknownAtomError
from patternalg.forms import PMNF, Amdahl
from patternalg.laws.checker import check
from patternalg.measurements import read

CSV = "kernel,x,time\n" + "".join(f"sort,{x},{x * 1.5 + 2}\n" for x in (8, 16, 32, 64, 128))


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "m.csv").write_text(CSV, encoding="utf-8")
    (tmp_path / "m.toml").write_text('[models.k]\nmodel = "2*x + 7"\n', encoding="utf-8")
    return tmp_path


def test_a_sweep_takes_the_grid_as_the_command_line_writes_it():
    text = "x=1024..262144:3:log"
    by_text = sweep(["qsort", "inc"], over=[text])
    assert by_text.to_json() == sweep(["qsort", "inc"], [parse_axis(text)]).to_json()
    assert sweep("qsort", text).to_json()["rows"] == sweep(["qsort"], [text]).to_json()["rows"]
    assert compare(["inc", "nop"], over="x=1..1e4").to_json() == (
        compare(["inc", "nop"], over=parse_axis("x=1..1e4")).to_json()
    )


def test_bindings_are_a_mapping_or_at_texts():
    assert as_bindings(["x=2^10", "n=4"]) == as_bindings({"x": 1024, "n": 4})
    assert as_bindings("x=8") == {"x": 8}
    mapped = sweep(["tpool_n(qsort)"], "n=1..4", at={"x": 1024}).to_json()["rows"]
    assert sweep(["tpool_n(qsort)"], "n=1..4", at=["x=1024"]).to_json()["rows"] == mapped


def test_a_term_may_be_given_as_its_text():
    library = ModelLibrary.builtin()
    assert patternalg.evaluate("seq(qsort, nop)", library) == patternalg.evaluate(
        parse("seq(qsort, nop)"), library
    )
    assert patternalg.model(parse("pipe(qsort, inc)")) == patternalg.model("pipe(qsort, inc)")
    best = optimize("tpool_a(qsort)", budgets="a<=8", at={"x": 1024}).best
    assert best.assignment == optimize("tpool_a(qsort)", budgets=["a<=8"], at={"x": 1024}).best.assignment


def test_a_library_is_a_model_file_or_a_mapping_of_model_texts(files: Path):
    x = patternalg.x
    assert patternalg.model("qsort", {"qsort": "2*x"}) == 2 * x
    assert patternalg.model("k", files / "m.toml") == 2 * x + 7
    assert patternalg.model("seq(k, qsort)", str(files / "m.toml")) == patternalg.model(
        "seq(k, qsort)", ModelLibrary.load([files / "m.toml"])
    )
    with pytest.raises(UnknownAtomError, match="unknown atom 'inc'"):
        patternalg.model("seq(qsort, inc)", {"qsort": "2*x"})  # a mapping is the whole library
    with pytest.raises(UnknownAtomError):
        patternalg.evaluate("inc", {"qsort": ModelLibrary.builtin()["qsort"]})
    assert check("pipe(A, B) <= seq(A, B)", files / "m.toml", "exact", examples=2).status == "proved"


def test_a_form_fits_the_path_of_a_measurement_file(files: Path):
    path = files / "m.csv"
    by_path = PMNF.fit_each(path)
    assert [r.fitted for r in by_path] == [r.fitted for r in PMNF.fit_each(read(path))]
    assert PMNF.fit(str(path)) == by_path[0].fitted


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda: sweep(["qsort"], 3), "over"),
        (lambda: sweep(["qsort"], "x=1..4", at=[1]), "at[0]"),
        (lambda: patternalg.model("qsort", [1]), "library"),
        (lambda: patternalg.evaluate(3, ModelLibrary.builtin()), "term"),
        (lambda: patternalg.evaluate(parse("qsort"), 3), "library"),
        (lambda: patternalg.model("qsort", {"qsort": [1]}), "library['qsort']"),
        (lambda: read("m.csv", metric=["time"]), "metric"),
        (lambda: read(3), "path"),
        (lambda: PMNF.fit_each(3), "data"),
        (lambda: check(3), "law"),
        (lambda: check("pipe(A, B) <= seq(A, B)", examples="2"), "examples"),
        (lambda: parse_axis(None), "text"),
        (lambda: ModelLibrary({"k": [1]}), "models['k']"),  # {"k": 1} is a model, as of() takes it
        (lambda: ModelLibrary(3), "models"),
        (lambda: optimize("tpool_a(qsort)", budgets=[1], at={"x": 2}), "budgets[0]"),
    ],
)
def test_a_wrong_argument_is_an_argument_error_naming_it(call, named: str):
    with pytest.raises(ArgumentError) as caught:
        call()
    assert str(caught.value).startswith(f"{named}: expected ")
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, PatternalgError)


def test_a_number_too_large_for_a_double_is_a_model_file_error_not_an_overflow():
    with pytest.raises(PatternalgError, match="tseq: expected a finite number"):
        Amdahl(alpha=0.9, tseq=10**400)


def test_a_checked_mapping_costs_nothing_the_second_time():
    checked = as_models({"k": "x"})
    assert as_models(checked) is checked
    library = ModelLibrary.builtin()
    assert as_models(library) is library and ModelLibrary.of(library) is library


# --- the third probe's findings (2026-11-30) ------------------------------------------------
def test_evaluate_takes_a_model_file_s_path_as_model_does(tmp_path: Path) -> None:
    """Its error said 'or the path of a model file' and refused one."""
    path = tmp_path / "m.toml"
    path.write_text('[models.qsort]\nmodel = "2*x"\n')
    assert patternalg.evaluate("qsort", path) == patternalg.evaluate("qsort", str(path)) == patternalg.model("qsort", str(path))


def test_a_python_model_is_checked_as_a_model_file_s() -> None:
    from patternalg import AtomicModel, x
    from patternalg.errors import UnitError

    with pytest.raises(UnitError, match="'bogus' is not a unit"):
        patternalg.explain("foo", {"foo": AtomicModel("foo", 2 * x, unit="bogus")}, x=3)
    with pytest.raises(ArgumentError, match="AtomicModel 'foo' expr: expected"):
        AtomicModel("foo", [1])
    # an integer range (int has no is_integer before Python 3.12: an AttributeError)
    found = patternalg.explain("foo", {"foo": AtomicModel("foo", 2 * x, x_range=(1, 10))}, x=30)
    assert found.value == 60 and "outside the measured range of foo (x in [1, 10])" in found.notes[0]
    assert AtomicModel("foo", "2*x + 1").expr == 2 * x + 1


def test_bindings_take_numpy_numbers_and_refuse_a_symbol_given_twice() -> None:
    import numpy as np

    from patternalg.errors import EvaluationError

    assert patternalg.model("tpool_n(qsort)", n=np.int64(2), x=1024) == patternalg.model("tpool_2(qsort)", x=1024)
    with pytest.raises(EvaluationError, match="at n is given twice"):
        sweep(["tpool_n(qsort)"], "x=2,4", at=["n=2", "n=3"])


@pytest.mark.parametrize("at", [["x=n", "n=2"], ["n=x", "x=2"]])
def test_a_binding_naming_another_takes_its_value_in_either_order(at: list[str]) -> None:
    """--at x=n --at n=2 said 'no value for n'; the other order worked."""
    from helpers import run_cli

    done = run_cli("eval", "tpool_n(qsort)", *(a for b in at for a in ("--at", b)))
    assert (done.returncode, done.stdout) == (0, "1034.17 ns\n"), done.stderr
    circle = run_cli("eval", "tpool_n(qsort)", "--at", "x=n", "--at", "n=x")
    assert circle.returncode == 2 and "name each other in a circle" in circle.stderr


# --- a probe of the Python API (F19) -----------------------------------------------------------
def test_a_model_built_from_plain_sympy_symbols_is_in_patternalg_s_symbols() -> None:
    """``sympy.Symbol('p')`` is another symbol than ``patternalg.p`` to sympy: ``k[p=4]``
    gave 300/p, ``x=8`` found no value for x, a sweep a raw KeyError."""
    import sympy

    plain_x, plain_p = sympy.Symbol("x"), sympy.Symbol("p")
    assert patternalg.model("k[p=4]", library={"k": 100 * patternalg.x / plain_p}, x=3) == 75
    assert patternalg.model("k", library={"k": 2 * plain_x}, x=8) == 16
    assert sweep(["k"], "x=1,2", library={"k": 2 * plain_x}).to_json()["rows"] == (
        sweep(["k"], "x=1,2", library={"k": "2*x"}).to_json()["rows"]
    )
    assert patternalg.AtomicModel("k", plain_x * plain_p).expr == patternalg.x * patternalg.p
    with pytest.raises(ArgumentError, match=r"^library\['k'\]: expected an expression in symbols"):
        patternalg.model("k", library={"k": sympy.Symbol("a b")})
    with pytest.raises(ArgumentError, match="^AtomicModel 'k' expr: .* got Symbol log"):
        patternalg.AtomicModel("k", sympy.Symbol("log"))


@pytest.mark.parametrize("kind", ["OrderedDict", "defaultdict", "MappingProxyType", "ChainMap"])
def test_a_library_is_any_mapping_of_model_texts(kind: str, files: Path) -> None:
    """A mapping other than a dict was taken as it was: a raw AttributeError ('str' object
    has no attribute 'unit') in model, sweep, optimize, validate and laws.check."""
    import collections
    import types

    from patternalg.evidence.validation import validate

    models = {"k": "2*x + 7", "sort": "1.5*x + 2"}
    library = {
        "OrderedDict": lambda: collections.OrderedDict(models),
        "defaultdict": lambda: collections.defaultdict(str, models),
        "MappingProxyType": lambda: types.MappingProxyType(models),
        "ChainMap": lambda: collections.ChainMap(models),
    }[kind]()
    assert patternalg.model("k", library=library, x=1) == 9
    assert sweep(["k"], "x=1,2", library=library).to_json()["rows"] == sweep(["k"], "x=1,2", library=models).to_json()["rows"]
    assert optimize("tpool_a(k)", budgets="a<=4", at={"x": 8}, library=library).best is not None
    assert check("pipe(A, B) <= seq(A, B)", library, "exact", examples=2).status == "proved"
    assert validate([files / "m.csv"], library).to_json() == validate([files / "m.csv"], models).to_json()
    with pytest.raises(ArgumentError, match=r"^library\['k'\]: expected"):
        patternalg.model("k", library=types.MappingProxyType({"k": [1]}))


def test_a_core_count_is_any_whole_number_named_cores(files: Path) -> None:
    """cores=np.int64(2) was refused as 'machine: expected ...', '2' read as a machine file's
    path, 2**21 a raw ValueError; Machine(np.int64(4)) said it has 1 to 1048576 cores."""
    import numpy as np

    from patternalg.evidence.calibration import calibrate

    assert patternalg.model("tpool_4(qsort)", cores=np.int64(2)) == patternalg.model("tpool_4(qsort)", cores=2)
    assert patternalg.model("tpool_4(qsort)", machine=np.int64(2)) == patternalg.model("tpool_4(qsort)", cores=2)
    machine = patternalg.Machine(np.int64(4))
    assert machine.cores == 4 and type(machine.cores) is int
    for wrong_count in ("2", 2**21, 0, True, 2.0):
        with pytest.raises(ArgumentError, match="^cores: expected a number of cores: an integer >= 1 and <= 1,048,576; got"):
            patternalg.model("tpool_4(qsort)", cores=wrong_count)
        with pytest.raises(ArgumentError, match="^cores: expected a number of cores"):
            calibrate(files / "m.csv", cores=wrong_count)


def test_a_numpy_count_is_a_python_int_in_a_result() -> None:
    """explore(threads=np.int64(4)).to_json() kept the np.int64: not JSON."""
    import json

    import numpy as np

    from patternalg.decisions.explore import explore

    found = explore("pipe(qsort, inc)", threads=np.int64(4), top=np.int64(2), at={"x": 1024}).to_json()
    assert found == explore("pipe(qsort, inc)", threads=4, top=2, at={"x": 1024}).to_json()
    assert type(found["threads"]) is int and json.loads(json.dumps(found)) == found


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: patternalg.AtomicModel("a<b&c", 2 * patternalg.x), r"^AtomicModel name: expected an atom's name .*got str 'a<b&c'"),
        (lambda: patternalg.AtomicModel("", 2 * patternalg.x), r"^AtomicModel name: expected .*got str ''"),
        (lambda: patternalg.AtomicModel("k", sympy.nan), r"^AtomicModel 'k' expr: the model nan is infinite or undefined"),
        (lambda: patternalg.AtomicModel("k", sympy.zoo * patternalg.x), r"^AtomicModel 'k' expr: the model zoo is infinite"),
        (lambda: patternalg.AtomicModel("k", sympy.sqrt(-patternalg.x)), r"^AtomicModel 'k' expr: the model I\*sqrt\(x\) is not real"),
        (lambda: patternalg.AtomicModel("k", patternalg.x, unit="bogus"), r"^AtomicModel 'k' unit: 'bogus' is not a unit"),
    ],
)
def test_an_atomic_model_is_one_its_model_file_reads_back(build, message: str) -> None:
    """ModelLibrary([AtomicModel('a<b&c', 2*x)]) was accepted, and wrote a model file
    ModelLibrary.from_toml_text could not read; so were '', nan, zoo and a root of -x."""
    with pytest.raises(PatternalgError, match=message):
        build()


def test_a_checked_atomic_model_round_trips_through_its_model_file() -> None:
    from patternalg import AtomicModel, x

    library = ModelLibrary([AtomicModel("main.solve_2", 3 * x, unit=" ms "), AtomicModel("k", 2 * x, unit="parsec")])
    assert ModelLibrary.from_toml_text(library.to_toml()).to_toml() == library.to_toml()
    assert library["main.solve_2"].unit == "ms"


def test_the_last_raw_exceptions_are_argument_errors_naming_their_argument(files: Path, tmp_path: Path) -> None:
    """examples=np.int64(10) reached hypothesis (InvalidArgument), save(None) raised a
    TypeError, validate(rules=3) said 'unknown semantics 3'."""
    import numpy as np

    from patternalg.evidence.validation import validate

    law = "seq(A, B) <= pipe(A, B)"
    assert check(law, semantics="exact", examples=np.int64(10), seed=1) == check(law, semantics="exact", examples=10, seed=1)
    with pytest.raises(ArgumentError, match=r"^examples: expected an integer >= 1; got int 0"):
        check(law, semantics="exact", examples=0)
    for where in (None, 3):
        with pytest.raises(ArgumentError, match="^path: expected the path of a model file"):
            ModelLibrary.builtin().save(where)
    with pytest.raises(ArgumentError, match=r"^rules: expected a Semantics or its name \(asymptotic, exact, machine\); got int 3"):
        validate([files / "m.csv"], {"sort": "x"}, rules=3)
