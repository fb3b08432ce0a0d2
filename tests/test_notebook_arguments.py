"""What a notebook user hands the Python functions (a probe of the API): one path or one
text is one item, a wrong argument is an ArgumentError naming it, and results do not
share or expose arrays a caller can change."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import patternalg
from patternalg.algebra.grid import Axis
from patternalg.algebra.machine import Machine
from patternalg.decisions.sweep import sweep
from patternalg.errors import ArgumentError
from patternalg.profiles import CallTree, read_profiles

LULESH = Path(__file__).resolve().parent / "data" / "profiles" / "lulesh"


@pytest.mark.parametrize("path", [str(LULESH), LULESH, [LULESH], str(LULESH / "27_cores.cali")])
def test_read_profiles_takes_one_path_as_one_path(path: object) -> None:
    """One string was iterated character by character: an absolute path read ``/``."""
    expected = 1 if str(path).endswith(".cali") else 5
    assert len(read_profiles(path)) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(("paths", "named"), [(None, "paths"), (3, "paths"), ([None], "paths[0]")])
def test_read_profiles_names_a_wrong_path(paths: object, named: str) -> None:
    with pytest.raises(ArgumentError, match=rf"^{named.replace('[', '.')}: expected the path of a profile"):
        read_profiles(paths)  # type: ignore[arg-type]


def test_a_call_tree_takes_one_param_text_as_one_param() -> None:
    """``"mpi.world.size=p"`` was read as the parameters ``m``, ``p``, ``i``, ``.``, ..."""
    profiles = read_profiles(LULESH)
    assert CallTree.of(profiles, "mpi.world.size=p").parameters == ("p",)
    with pytest.raises(ArgumentError, match=r"^params: expected a Param or its text"):
        CallTree.of(profiles, None)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def lulesh_fit():  # type: ignore[no-untyped-def]
    from patternalg.profiles import fit_profile, profile_term

    runs = [LULESH / f"{p}_cores.cali" for p in (27, 64, 125, 216)]
    return fit_profile(profile_term(CallTree.of(read_profiles(runs), "mpi.world.size=p")))


@pytest.mark.parametrize("value", [-1, 0, float("nan"), float("inf"), True])
def test_check_profile_takes_a_positive_point_as_the_command_does(lulesh_fit, value: object) -> None:
    """``at={"p": -1}`` gave nan gaps (0 and inf: RuntimeWarnings); ``--at p=-1`` is refused."""
    from patternalg.evidence.profile_check import check_profile

    with pytest.raises(ArgumentError, match=r"^at\['p'\]: expected a positive number such as 1000; got"):
        check_profile(lulesh_fit, at={"p": value})


@pytest.mark.parametrize(("keyword", "message"), [
    ({"draws": 0}, "draws: expected an integer >= 1 and <= 100,000; got int 0"),
    ({"draws": True}, "draws: expected an integer >= 1 and <= 100,000; got bool True"),
    ({"seed": -1}, "seed: expected an integer >= 0; got int -1"),
])  # fmt: skip
def test_check_profile_names_a_wrong_count_of_draws_or_seed(lulesh_fit, keyword: dict, message: str) -> None:
    from patternalg.evidence.profile_check import check_profile

    with pytest.raises(ArgumentError) as caught:
        check_profile(lulesh_fit, **keyword)
    assert str(caught.value) == message


def test_check_profile_takes_the_point_as_at_texts(lulesh_fit) -> None:
    """``at="p=343"`` was an AttributeError; every other function takes it."""
    from patternalg.evidence.profile_check import check_profile

    by_text = check_profile(lulesh_fit, at="p=343", draws=50)
    assert by_text.nodes[0].composed.tolist() == check_profile(lulesh_fit, at={"p": 343}, draws=50).nodes[0].composed.tolist()


@pytest.mark.parametrize(("values", "spacing", "named"), [
    ([1, 2, 3], "foo", "Axis spacing: expected 'lin', 'log' or 'list'"),
    (np.array([]), "list", "Axis values: expected a non-empty list of finite numbers"),
    (np.array(["1", "2"]), "list", "Axis values: expected a non-empty list of finite numbers"),
    ([1.0, float("nan")], "list", "Axis values: expected a non-empty list of finite numbers"),
    ([0.0, 1.0], "log", "Axis values: expected a non-empty list of positive finite numbers"),
])  # fmt: skip
def test_an_axis_is_checked_where_it_is_made(values: object, spacing: str, named: str) -> None:
    """An empty array was a ValueError deep in the sweep, strings a UFuncTypeError, and
    the spacing 'foo' was taken."""
    with pytest.raises(ArgumentError, match=rf"^{named}"):
        Axis("x", values, spacing)  # type: ignore[arg-type]


def test_an_axis_takes_a_list_and_keeps_a_read_only_copy() -> None:
    """A list was an AttributeError; the caller's array, changed, changed the sweep's rows."""
    array = np.array([1.0, 2.0, 3.0])
    swept = sweep(["inc"], Axis("x", array, "list"))
    array[0] = 1000
    assert swept.rows()[0][0] == 1.0
    assert sweep(["inc"], Axis("x", [1, 2, 3], "list")).rows() == swept.rows()
    assert not sweep(["inc"], "x=1,2,4").axes[0].values.flags.writeable


def test_a_validation_s_arrays_are_read_only(tmp_path: Path) -> None:
    """Changing ``validated[0].predicted`` changed the report ``text()`` prints."""
    from patternalg.evidence.validation import validate

    (tmp_path / "m.csv").write_text("kernel,x,time\n" + "".join(f"inc,{x},{x * 2.0}\n" for x in (8, 16, 32)))
    validated = validate(tmp_path / "m.csv", {"inc": "2*x"}).validated[0]
    assert not any(a.flags.writeable for a in (validated.points, validated.predicted, validated.measured))


@pytest.mark.parametrize("digits", [0, 100, -1, True, 3.5])
def test_digits_is_a_whole_number_from_1_to_17_as_the_command_takes(digits: object) -> None:
    """0 printed in full precision, 100 in 17 digits, -1 or True was a ValueError of the
    format specification."""
    from patternalg import explain
    from patternalg.decisions.compare import compare

    compared, swept = compare(["inc", "nop"], over="x=1..1e3"), sweep(["inc"], "x=1,3")
    for show in (compared.text, compared.lines, swept.text, swept.lines, swept.to_csv, explain("inc", x=3).text):
        with pytest.raises(ArgumentError, match=r"^digits: expected a whole number from 1 to 17; got "):
            show(digits=digits)


def test_a_long_table_shows_its_first_and_last_rows_in_a_notebook() -> None:
    """A sweep of 100,000 points was 10.3 MB of HTML (1.9 s); pandas shows a long table's
    ends."""
    swept = sweep(["inc"], "x=1..1e5:100000")
    html = swept._repr_html_()
    assert len(html) < 5_000 and html.count("<tr>") == 1 + 20 + 1
    middle = '<tr><td colspan="3">... 99,980 more rows: .rows() and .to_dataframe() have them all ...</td></tr>'
    assert middle in html
    assert html.index("<td>100000</td>") > html.index(middle) > html.index("<td>1</td>")
    assert len(swept.rows()) == 100_000
    assert sweep(["inc"], "x=1..60:60")._repr_html_().count("<tr>") == 61  # 60 rows: all


def test_a_closed_form_s_notebook_table_says_its_unit() -> None:
    """The caption of a closed form had no unit, though its LaTeX ends in ``\\mathrm{ns}``
    and a value at a point shows ``ns``."""
    from patternalg import explain

    assert explain("pipe(tpool_4(qsort), inc)", unit="us").caption() == "pipe(tpool_4(qsort), inc) = 0.2585425*x*log2(x) (in us)"
    assert "<caption>tpool_n(qsort) = 258.5425*x*log2(x) (in ns) at n = 4</caption>" in explain("tpool_n(qsort)", n=4)._repr_html_()
    assert explain("pipe(inc, nop)", x=4).caption() == "pipe(inc, nop) = 5422.97 ns at x = 4"  # a value: its own unit


TABLE = {n: 100 * n / (1 + 0.002 * n**2) for n in range(1, 49)}


def test_opresca_takes_its_initial_counts_as_an_array() -> None:
    """``init=np.array([12, 24, 36])`` was "the truth value of an array is ambiguous"."""
    from patternalg.forms.presca.tuning import run_opresca

    by_array = run_opresca(TABLE, True, init=np.array([12, 24, 36]))
    assert by_array == run_opresca(TABLE, True, init=[12, 24, 36]) and by_array.chosen == 22


@pytest.mark.parametrize(("source", "named"), [
    (lambda n: "fast", r"source\(\d+\): expected the performance of one interval, a positive finite number; got str 'fast'"),
    (lambda n: float("nan"), r"source\(\d+\): expected the performance of one interval, a positive finite number; got float nan"),
    ({**TABLE, 5: -1.0}, r"source\[5\]: expected the performance of one interval, a positive finite number; got float -1.0"),
    (3, r"source: expected a table \{threads: performance\} or a function"),
])  # fmt: skip
def test_a_tuner_s_source_gives_positive_numbers(source: object, named: str) -> None:
    """A source giving text was a raw ValueError; one giving only NaN chose 3 threads."""
    from patternalg.forms.presca.tuning import run_binsearch, run_opresca

    for run in (run_opresca, run_binsearch):
        with pytest.raises(ArgumentError, match=rf"^{named}"):
            run(source, True, threads=range(1, 49))  # type: ignore[arg-type]


def test_a_plot_names_axes_that_are_no_axes() -> None:
    """``plot(ax=3)`` was an AttributeError from inside the drawing."""
    pytest.importorskip("matplotlib")
    with pytest.raises(ArgumentError, match=r"^ax: expected matplotlib axes to draw on, or None for new ones; got int 3$"):
        sweep(["inc"], "x=1..1e3").plot(ax=3)


def test_a_budget_given_as_a_number_points_to_threads() -> None:
    """``budget=8`` reads as "8 cores in all"; a linear budget is text, and the error says
    which argument takes the number."""
    from patternalg.decisions.optimize import optimize

    with pytest.raises(ArgumentError, match=r"^budget: expected budgets such as 'a\+b<=8' \(threads=8: .*; got int 8$"):
        optimize("pipe(tpool_a(qsort), tpool_b(inc))", budget=8, at={"x": 4096})  # type: ignore[arg-type]
    best = optimize("pipe(tpool_a(qsort), tpool_b(inc))", threads=8, at={"x": 4096})
    assert sum(dict(best.best.assignment).values()) <= 8


def test_an_array_where_a_point_takes_one_value_names_the_symbol_and_the_sweep_that_takes_it() -> None:
    """``model(term, x=np.logspace(3, 6, 20))`` said "expected a number or an expression, got
    ndarray", naming neither the symbol nor what evaluates at many values; the grid it
    suggests is the array's."""
    import re

    values = np.logspace(3, 6, 20)
    with pytest.raises(patternalg.EvaluationError, match=r"^x: expected one number .* got ndarray of 20 values") as caught:
        patternalg.model("pipe(tpool_4(qsort), inc)", x=values)
    over = re.search(r"over='([^']+)'", str(caught.value))
    assert over is not None
    swept = sweep(["pipe(tpool_4(qsort), inc)"], over=over[1])
    assert np.allclose(swept.axes[0].values, values)
    with pytest.raises(patternalg.EvaluationError, match=r"^n: .* list of 2 values; .* over='n=2,4'"):
        patternalg.model("tpool_n(qsort)", n=[2, 4], x=1024)


def test_a_model_text_that_does_not_parse_names_its_atom() -> None:
    """``library={"qsort": "2*"}`` raised the parser's error alone: which of the mapping's
    models it was, the message did not say."""
    with pytest.raises(patternalg.ParseError, match=r"^library\['qsort'\]: line 1, column 3: syntax error"):
        patternalg.model("seq(qsort, inc)", library={"inc": "x", "qsort": "2*"})


def test_models_given_where_terms_or_a_grid_go_say_they_are_the_library_keyword() -> None:
    # a notebook's fit passed on positionally: explain and model take it there, sweep and
    # compare take terms and a grid there (the error named a list, or an atom as a range)
    library = patternalg.ModelLibrary.builtin()
    hint = r"\(atoms' models: pass them as library=\.\.\.\)$"
    with pytest.raises(ArgumentError, match=r"^over: expected a grid axis .*; got ModelLibrary .*" + hint):
        patternalg.sweep(["pipe(qsort, inc)"], library)
    with pytest.raises(ArgumentError, match=r"^terms\[2\]: expected a term .*" + hint):
        patternalg.compare(["pipe(qsort, inc)", "seq(qsort, inc)"], library)
    with pytest.raises(ArgumentError, match=r"^terms\[1\]: expected a term .*; got dict .*" + hint):
        patternalg.compare("pipe(qsort, inc)", dict(library))
    # the models first: the text was read as a model file's path, and as measurements
    with pytest.raises(ArgumentError, match=r"^term: expected a term .*" + hint):
        patternalg.evaluate(library, "pipe(qsort, inc)")
    with pytest.raises(ArgumentError, match=r"^measurements: expected paths of measurement files.*" + hint):
        patternalg.calibrate(library, ["atoms.txt"])
    # a list and more terms are the terms in that order
    found = patternalg.compare(["pipe(qsort, inc)"], "seq(qsort, inc)", library=library, over="x=2..64:4:log")
    assert [str(t) for t in found.terms] == ["pipe(qsort, inc)", "seq(qsort, inc)"]
    with pytest.raises(ArgumentError, match=r"^terms\[1\]: expected a term .*; got list"):
        patternalg.compare(["pipe(qsort, inc)"], ["seq(qsort, inc)"], library=library)


def test_a_calibration_is_a_machine_where_machine_is_asked() -> None:
    # patternalg.calibrate's result passed on as machine= (it was refused: only its .machine was taken)
    sizes = [1024, 4096, 16384]
    inc = [536.185 * size for size in sizes]  # the built-in inc
    compositions = {"pipe(inc, inc)": (sizes, [1.1 * v for v in inc]), "seq(inc, inc)": (sizes, [2 * v for v in inc])}
    calibration = patternalg.calibrate(compositions, patternalg.ModelLibrary.builtin(), cores=2)
    assert isinstance(calibration.machine, Machine)
    given = patternalg.explain("pipe(qsort, inc)", machine=calibration, x=1024).value
    assert given == patternalg.explain("pipe(qsort, inc)", machine=calibration.machine, x=1024).value
    # a function without library= gets no hint to pass models so
    with pytest.raises(ArgumentError) as caught:
        patternalg.fit(patternalg.ModelLibrary.builtin())
    assert str(caught.value).startswith("data: expected Measurements") and "library=" not in str(caught.value)
