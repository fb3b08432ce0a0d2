"""The public API: ``__all__`` is the contract."""

from __future__ import annotations

import types
from dataclasses import replace
from pathlib import Path

from helpers import run_cli

import patternalg


def test_all_lists_exactly_the_public_names():
    public = {name for name in dir(patternalg) if not name.startswith("_")}  # loaded on first use too
    modules = {name for name in public if isinstance(getattr(patternalg, name), types.ModuleType)}
    assert set(patternalg.__all__) == public - modules


def test_every_public_callable_is_documented():
    for name in patternalg.__all__:
        obj = getattr(patternalg, name)
        if callable(obj):
            assert obj.__doc__, name


def test_results_render_as_latex_in_notebooks():
    from patternalg.algebra.render import as_latex

    qsort = patternalg.model("qsort")
    assert qsort._repr_latex_() == f"$\\displaystyle {as_latex(qsort)}$"
    assert r"\log_{2}{\left(x \right)}" in qsort._repr_latex_()
    assert patternalg.parse("pipe(a, b)")._repr_latex_().startswith("$")


def test_log2_behaves_as_sympy_codegens_log2() -> None:
    """Our log2 (not imported from sympy.codegen, for start-up) prints, differentiates,
    evaluates and compiles as sympy.codegen.cfunctions.log2 does."""
    import inspect

    import sympy
    from sympy.codegen.cfunctions import log2 as codegen_log2
    from sympy.printing.pycode import MpmathPrinter, PythonCodePrinter

    x = patternalg.x

    def behaviour(log2: type[sympy.Function]) -> tuple[str, ...]:
        e = 258.5425 * x * log2(x) + 3 * log2(x) ** 2 / x + log2(sympy.Integer(16000))
        return (
            str(e),
            sympy.srepr(log2(x)),
            PythonCodePrinter().doprint(e),
            MpmathPrinter().doprint(log2(x)),
            inspect.getsource(sympy.lambdify(x, e, "numpy")),
            str(e.diff(x)),
            str(log2(sympy.Integer(8))),
            str(log2(2**x)),
            str(log2(sympy.Integer(3)).evalf(20)),
            str(sympy.expand_func(log2(x))),
            str(log2(x).rewrite(sympy.log)),
        )

    assert not issubclass(patternalg.log2, codegen_log2)
    assert behaviour(patternalg.log2) == behaviour(codegen_log2)


def test_the_functions_take_the_flags_names() -> None:
    """issue 40: ``compare(..., cores=2)`` and ``optimize(..., budget=...)`` were TypeErrors
    (``machine=``, ``budgets=``): the command line's names work as its flags do."""
    from patternalg.decisions import compare, explore, optimize, sweep

    designs = ["pipe(qsort, inc)", "seq(tpool_4(qsort), inc)"]
    by_cores = compare(designs, over="x=2..2^20", cores=2)
    assert by_cores.text() == compare(designs, over="x=2..2^20", machine=2).text()
    assert by_cores.text() != compare(designs, over="x=2..2^20").text()  # 4 threads, 2 cores
    machine = patternalg.Machine(8, handoff="100")
    assert compare(designs, over="x=2..2^20", machine=machine, cores=2).text() == compare(
        designs, over="x=2..2^20", machine=patternalg.Machine(2, handoff="100")
    ).text()  # --machine with --cores: its cores replaced
    term = "pipe(tpool_a(qsort), tpool_b(inc))"
    best = optimize(term, budget="a+b<=8", at={"x": 1024})
    assert best.best.assignment == optimize(term, budgets=["a+b<=8"], at={"x": 1024}).best.assignment
    assert optimize(term, cores=4, at={"x": 1024}).notes[0].startswith("budget: a+b<=4")
    assert sweep(["tpool_4(qsort)"], "x=2..4", cores=2).rows() == sweep(
        ["tpool_2(qsort)"], "x=2..4").rows()  # fmt: skip
    assert "2 threads" in explore("seq(qsort, inc)", cores=2, at={"x": 1024}).text()
    assert patternalg.model("tpool_4(qsort)", cores=2) == patternalg.model("tpool_2(qsort)")


def test_every_result_prints_as_its_command_does() -> None:
    """``.text()`` is a string on every result, ``lines()`` its lines, and ``print(result)``
    shows it (not a dataclass's repr)."""
    from patternalg.decisions import compare, explore, optimize, sweep
    from patternalg.forms import PMNF
    from patternalg.measurements import Measurements, Series

    results = [
        sweep(["inc", "nop"], "x=1..4:2"),
        compare(["pipe(qsort, inc)", "seq(qsort, inc)"], over="x=1..1e6"),
        optimize("tpool_a(qsort)", budget="a<=4", at={"x": 1024}),
        explore("seq(qsort, inc)", threads=2, at={"x": 1024}),
        patternalg.explain("pipe(inc, nop)", x=4),
    ]
    for result in results:
        assert isinstance(result.text(), str) and str(result) == result.text()
        assert not str(result).startswith(type(result).__name__ + "(")  # no dataclass repr
    for result in results[:4]:
        assert result.text() == "\n".join(result.lines())
    assert [line.split() for line in str(results[0]).splitlines()[1:]] == [
        ["1", "536.185", "5422.97"], ["4", "2144.74", "5422.97"]]  # fmt: skip
    assert str(results[2]).startswith("best: a=4: ")
    assert str(results[4]) == "5422.97 ns"
    import numpy as np

    series = Series("k", "time", ("x",), np.array([[1.0], [2.0], [4.0]]),
                    tuple(np.array([v]) for v in (2.0, 4.0, 8.0)), ((1,), (2,), (3,)), "k.txt")  # fmt: skip
    (report,) = PMNF.fit_each(Measurements("k.txt", "text", ("x",), "time", None, (series,)))
    assert str(report).splitlines()[0].split() == ["atom", "kernel", "model", "unit", "SMAPE", "%", "R²", "measured"]


def test_each_command_is_a_function_of_the_package_by_its_name() -> None:
    from patternalg import decisions, evidence, laws, measurements
    from patternalg.library.fitted import fit

    homes = {"read": measurements, "validate": evidence, "calibrate": evidence, "check": laws}
    homes |= {verb: decisions for verb in ("sweep", "compare", "optimize", "explore")}
    for verb, home in homes.items():
        assert getattr(patternalg, verb) is getattr(home, verb), verb
    assert patternalg.fit is fit


def test_fit_gives_a_library_of_the_atoms_and_loses_no_kernel_to_a_bad_one(tmp_path) -> None:
    import pytest

    path = tmp_path / "m.csv"
    rows = [f"{k},{x},{v}" for x in (4, 8, 16, 32) for k, v in (("a", 2 * x), ('"pipe(a, a)"', 2 * x + 1))]
    path.write_text("kernel,x,time\n" + "\n".join([*rows, "b,4,1", "b,8,2"]) + "\n", encoding="utf-8")
    with pytest.raises(patternalg.FitError, match="kernel 'b'.*2 measured points"):
        patternalg.fit(path)
    failed: list[Exception] = []
    lib = patternalg.fit(path, on_error=failed.append, modeler="basic")
    assert sorted(lib) == ["a"] and str(lib["a"].expr) == "2.0*x"  # the composition is left out
    assert [str(e).split(": ")[1] for e in failed] == ["kernel 'b', metric 'time'"]
    assert dict(lib["a"].domain) == {"x": (4.0, 32.0)}
    with pytest.raises(patternalg.ArgumentError, match="form: expected one of amdahl, memwall, pmnf, presca; got str 'expr'"):
        patternalg.fit(path, form="expr")


def test_fit_reads_a_file_as_the_command_does_and_warns_of_points_left_out(tmp_path) -> None:
    import pytest

    path = tmp_path / "m.csv"
    path.write_text("kernel,x,time,cycles\n" + "".join(f"a,{x},{2 * x},{5 * x}\n" for x in (0, 1, 2, 4, 8)))
    with pytest.warns(UserWarning, match=r"m.csv:2: kernel 'a', metric 'cycles': x = 0 left out"):
        lib = patternalg.fit(path, metric="cycles", modeler="basic")
    assert str(lib["a"].expr) == "5.0*x"
    with pytest.raises(patternalg.ArgumentError, match=r"metric: says how to read a file; .*read\(path, metric=\.\.\.\)"):
        patternalg.fit(patternalg.read(path), metric="cycles")


def test_fit_keeps_what_the_command_notes_as_the_library_s_notes(tmp_path: Path) -> None:
    """The command's notes (the unit taken, the compositions left out) reached no Python
    caller; they are the library's, on either path (a file a batch at a time, or read)."""
    path = tmp_path / "m.csv"
    rows = [f"{k},{x},{v}" for x in (4, 8, 16, 32) for k, v in (("a", 2 * x), ('"pipe(a, a)"', 2 * x + 1))]
    path.write_text("kernel,x,time\n" + "\n".join(rows) + "\n", encoding="utf-8")
    result = run_cli("fit", str(path), "--modeler", "basic")
    said = [line.removeprefix("note: ") for line in result.stderr.splitlines() if line.startswith("note: ")]
    lib = patternalg.fit(path, modeler="basic")
    assert result.returncode == 0 and len(said) == 3
    assert list(lib.notes) == [text.replace("--unit s", "unit=s") for text in said]  # each its caller's surface
    assert "named by a composition (pipe(a, a))" in said[0] and "read as ns" in said[1]
    assert said[2] == "every kernel measured once per point (no repetitions): no uncertainty, no intervals"
    assert patternalg.fit(patternalg.read(path), modeler="basic").notes == lib.notes
    assert lib.notes[0] in lib._repr_html_()
    extrap = Path(__file__).parent.parent / "benchmarks" / "realdata" / "data7" / "atoms.txt"
    batched = patternalg.fit(extrap)
    assert len(batched.notes) == 2 and "name no unit: read as ns" in batched.notes[0]
    assert batched.notes[1].startswith("nop: touches_data = false, as the built-in nop's")
    assert batched.merged(lib).notes == (*batched.notes, *lib.notes)  # each once, in order
    assert patternalg.ModelLibrary(batched).notes == batched.notes


def test_arguments_of_the_wrong_kind_are_argument_errors_naming_them(tmp_path) -> None:
    """Found by api_misuse with only PatternalgError allowed: each of these escaped as a
    TypeError or an OverflowError from deep inside."""
    import pytest

    from patternalg.algebra.machine import Machine

    path = tmp_path / "m.csv"
    path.write_text("kernel,x,time\n" + "".join(f"k,{x},{2 * x}\n" for x in (1, 2, 4, 8)))
    cases = [
        (lambda: Machine(cores=2, handoff=10**400), "handoff: expected the hand-off, .*; got a very large int"),
        (lambda: Machine(cores=2, speedups=[1]), r"speedups: expected a mapping of atom names to speed-ups"),
        (lambda: patternalg.sweep(["qsort"], "x=1..8:2", unit={"ms"}), r"unit: expected a unit's name, e.g. ns or ms; got set"),
        (lambda: patternalg.calibrate(0), r"measurements: expected paths of measurement files, .*; got int 0"),
        (lambda: patternalg.calibrate({"inc": 5}), r"measurements\['inc'\]: expected \(sizes, values\)"),
        (lambda: patternalg.calibrate([path, 3]), r"measurements\[1\]: expected the path of a measurement file"),
        (lambda: patternalg.read(path, parameters=["x", 1]), r"parameters: expected names separated by commas"),
        (lambda: patternalg.read(path, parameters=[]), r"parameters=: expected distinct names"),
    ]
    for call, message in cases:
        with pytest.raises(patternalg.PatternalgError, match=message):
            call()


def test_a_family_s_number_given_an_expression_is_refused_as_one() -> None:
    import pytest
    import sympy

    from patternalg.forms import Amdahl

    with pytest.raises(patternalg.ArgumentError, match=r"Amdahl.alpha: expected a finite number in \[0.0, 1.0\], got 'x'"):
        Amdahl(alpha=sympy.Symbol("x"), tseq="2*x")  # was sympy's TypeError: cannot convert to float
    assert Amdahl(alpha=sympy.Rational(1, 2), tseq="2*x").to_table()["alpha"] == 0.5


def test_fit_checks_the_columns_as_the_command_does(tmp_path: Path) -> None:
    """A column the family does not fit was silently mixed into one model from Python (the
    command refused it); a value column named like a size is a warning on both."""
    import pytest

    from patternalg.errors import MeasurementError

    rows = [(x, p, n) for x in (100, 200) for p in (1, 2, 4, 8) for n in (1, 2)]
    mixed = tmp_path / "amdahl.csv"
    mixed.write_text("kernel,x,p,n,time\n" + "".join(f"k,{x},{p},{n},{x * (0.1 + 0.9 / p) * n}\n" for x, p, n in rows))
    with pytest.raises(MeasurementError, match=r"column 'n' is not used by form=amdahl \(it fits x, p\)"):
        patternalg.fit(mixed, "amdahl")
    single = tmp_path / "one.csv"
    single.write_text("kernel,x,p,time\n" + "".join(f"k,{x},{p},{x * (0.1 + 0.9 / p)}\n" for x, p, n in rows if n == 1))
    assert sorted(patternalg.fit(single, "amdahl")) == ["k"]
    sizes = tmp_path / "sizes.csv"
    sizes.write_text("kernel,x,size\n" + "".join(f"k,{x},{3 * x}\n" for x in (1, 2, 4, 8, 16)))
    with pytest.warns(UserWarning, match=r"the value column 'size' looks like a size.*pass metric=\)"):
        patternalg.fit(sizes, metric="size")
    result = run_cli("fit", str(sizes), "--metric", "size")
    assert result.returncode == 0 and "looks like a size, not a measurement (name the measured column time, time_ms, ... or pass --metric)" in result.stderr


def test_fit_takes_a_regular_extra_p_file_a_batch_at_a_time_with_the_same_models(monkeypatch) -> None:
    import pytest

    from patternalg.errors import MeasurementError
    from patternalg.forms import PMNF

    path = Path(__file__).parent.parent / "benchmarks" / "realdata" / "data7" / "atoms.txt"
    batches = []
    fitter = PMNF.fitting()
    original = fitter.fit_batches.__func__

    def spy(cls, *args, **kwargs):
        batches.append(args)
        return original(cls, *args, **kwargs)

    monkeypatch.setattr(fitter, "fit_batches", classmethod(spy))
    fitted = patternalg.fit(path, aggregate="median")
    reference = [r.model for r in PMNF.fit_each(patternalg.read(path), aggregate="median")]
    assert len(batches) == 1 and sorted(fitted) == ["inc", "nop", "qsort"]
    for model in reference:  # nop as the built-in says: it passes its data on untouched
        untouched = replace(model, touches_data=model.name != "nop")
        assert fitted[model.name] == untouched and fitted[model.name].uncertainty == model.uncertainty
    assert sorted(patternalg.fit(path, parameters="x")) == ["inc", "nop", "qsort"]  # its own: batched
    assert len(batches) == 2
    with pytest.raises(MeasurementError, match="no parameter 'n' \\(the parameters: x\\)"):
        patternalg.fit(path, parameters="n")  # not its own: read whole, which says so
    assert len(batches) == 3
    patternalg.fit(Path(__file__).parent.parent / "examples" / "tour" / "measured.txt")  # a composition: whole
    assert len(batches) == 4


def test_a_machine_in_a_unit_that_is_no_text_and_an_uncertainty_of_no_rows_say_so() -> None:
    import pytest

    from patternalg.algebra.machine import Machine
    from patternalg.algebra.uncertainty import Uncertainty

    with pytest.raises(patternalg.ArgumentError, match=r"unit: expected a time unit's name, e.g. ns or ms; got list"):
        Machine(cores=2, handoff=5).in_unit(["ms"])
    with pytest.raises(ValueError, match="expected terms as a tuple of expressions and the covariance as a tuple of rows"):
        Uncertainty(None, ((1.0,),), 10, 0.02, "bootstrap")  # was: object of type 'NoneType' has no len()
    import numpy as np
    import sympy

    two = Uncertainty((sympy.Integer(1), sympy.Symbol("x")), ((4.0, 0.0), (0.0, 0.25)), 10, 0.02, "bootstrap")
    assert two.draws(np.random.default_rng(1), 3).shape == (3, 2)
    with pytest.raises(patternalg.ArgumentError, match=r"count: expected a whole number of draws from 0 to 50,000,000; got int 1000000000"):
        two.draws(np.random.default_rng(1), 10**9)  # was numpy's MemoryError of 16 GB


def test_the_profiles_and_presca_functions_name_a_wrong_argument() -> None:
    import pytest

    from patternalg.forms.presca import predict_file
    from patternalg.profiles import CallTree, profile_term, read_profiles

    runs = [str(Path(__file__).parent / "data" / "profiles" / "difflib" / f"diff_n{n}_r1.pstats") for n in (1000, 2000, 4000)]
    with pytest.raises(patternalg.ArgumentError, match=r"metric: expected a metric's name, e.g. time; got int 0"):
        read_profiles(runs, metric=0)
    with pytest.raises(patternalg.PatternalgError, match=r"min_share=a very large number: a share of the root"):
        profile_term(CallTree.of(read_profiles(runs), ["n"]), min_share=10**400)  # was an OverflowError
    with pytest.raises(patternalg.ArgumentError, match=r"param: expected the thread column as NAME=p"):
        predict_file("ps.csv", param=None)
    from patternalg.evidence.profile_check import check_profile
    from patternalg.profiles import fit_profile

    fitted = fit_profile(profile_term(CallTree.of(read_profiles(runs), ["n"])), uncertainty="none")
    with pytest.raises(patternalg.ArgumentError, match=r"draws: expected an integer >= 1 and <= 100,000; got int 1000000000"):
        check_profile(fitted, at={"n": 8000.0}, draws=10**9)  # was a MemoryError of 52 GB


def test_a_measurement_plan_of_more_runs_than_a_million_is_refused_before_any_runs() -> None:
    import pytest

    from patternalg.measurements.runner import Plan

    with pytest.raises(patternalg.PatternalgError, match=r"about 10\^400 runs \(1 region\(s\) x 2 point\(s\) x .*at most 1,000,000"):
        Plan.build({"k": "true {x}"}, {"x": [1.0, 2.0]}, repetitions=10**400)  # ran until stopped
    assert Plan.build({"k": "true {x}"}, {"x": [1.0, 2.0]}, repetitions=499_999).repetitions == 499_999


def test_a_notebook_passes_a_fitted_library_on_by_one_name_and_compares_terms_one_by_one() -> None:
    """``compare("a", "b")`` (as ``compare A B``) was a TypeError, and ``validate`` and
    ``calibrate`` took ``models`` where every decision takes ``library``."""
    import pytest

    run = Path(__file__).parent.parent / "benchmarks" / "realdata" / "data13"
    lib = patternalg.fit(run / "atoms.txt")
    one_by_one = patternalg.compare("pipe(qsort, inc)", "tpool_2(seq(qsort, inc))", library=lib, over="x=1024..262144")
    listed = patternalg.compare(["pipe(qsort, inc)", "tpool_2(seq(qsort, inc))"], library=lib, over="x=1024..262144")
    assert str(one_by_one) == str(listed) and "tpool_2(seq(qsort, inc)) wins" in str(listed)
    by_library = patternalg.validate(run / "compositions.txt", library=lib)
    assert by_library.summary_text() == patternalg.validate(run / "compositions.txt", lib).summary_text()
    files = [run / "atoms.txt", run / "compositions.txt"]
    assert patternalg.calibrate(files, library=lib).machine == patternalg.calibrate(files, lib).machine
    with pytest.raises(patternalg.ArgumentError, match="models and library: the same models by two names; give one"):
        patternalg.validate(run / "compositions.txt", lib, library=lib)
