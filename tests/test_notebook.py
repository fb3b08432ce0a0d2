"""Notebook integration: every result object renders as an escaped HTML table and, where a
picture helps, ``.plot()`` returns matplotlib axes drawn from the result."""

from __future__ import annotations

from pathlib import Path

import pytest

from patternalg import explain
from patternalg.algebra.grid import parse_axis
from patternalg.decisions.compare import compare
from patternalg.decisions.explore import explore
from patternalg.decisions.optimize import optimize
from patternalg.decisions.sweep import sweep
from patternalg.forms import PMNF
from patternalg.laws.checker import check
from patternalg.measurements import read

ATOMS = Path(__file__).resolve().parents[1] / "benchmarks" / "realdata" / "data" / "atoms.txt"


def test_evaluation_table_shows_the_derivation_and_the_point() -> None:
    result = explain("pipe(inc, nop)", x=4)
    html = result._repr_html_()
    assert html.startswith("<table><caption>pipe(inc, nop) = 5422.97 ns at x = 4</caption>")
    assert "<th>at the point [ns]</th>" in html and "<td>· inc</td><td>536.185*x</td><td>2144.74</td>" in html
    assert result._repr_latex_() == "$5422.97 \\; \\mathrm{ns}$"  # the value at the point, with its unit
    latex = explain("pipe(tpool_4(qsort), inc)")._repr_latex_()
    assert latex == "$258.5425 x \\log_{2}{\\left(x \\right)} \\; \\mathrm{ns}$"  # with its unit, as eval's


def test_a_closed_form_s_latex_is_what_eval_prints(capsys) -> None:
    """The notebook's LaTeX of a closed form had no unit; ``eval --format latex`` has."""
    from patternalg.cli import main

    for args in (["pipe(tpool_4(qsort), inc)"], ["inc", "--at", "x=4"], ["qsort", "--unit", "us"]):
        assert main(["eval", *args, "--format", "latex"]) == 0
        printed = capsys.readouterr().out.strip()
        bindings = {"x": 4} if "--at" in args else {}
        unit = {"unit": "us"} if "--unit" in args else {}
        assert explain(args[0], **unit, **bindings)._repr_latex_() == f"${printed}$"


def test_a_result_s_notes_show_below_its_table() -> None:
    """The command line prints them on stderr; a notebook showed none of them."""
    html = explain("pipe(inc, nop)", x=4)._repr_html_()
    assert html.endswith("</table><p>note: at x = 4 the bottleneck is nop, not the asymptotic bottleneck inc; "
                         "the value is the pointwise maximum, the closed form 536.185*x holds for large x "
                         "(it gives 2144.74 here)</p>")  # fmt: skip
    swept = sweep(["qsort"], [parse_axis("x=0,1")])._repr_html_()
    assert "<p>note: qsort has no finite value at x = 0: its cell is empty</p>" in swept


@pytest.mark.parametrize("text", ["pipe(inc, nop)", "pipe(nop, inc)"])
def test_evaluation_table_notes_the_bottleneck_at_the_point(text: str) -> None:
    """The table showed the asymptotic bottleneck as "bottleneck: left stage" at a point where
    the other stage paces the pipe; it says what ``eval --explain`` says."""
    result = explain(text, x=4)
    note = "bottleneck at the point: nop; asymptotic bottleneck: inc"
    assert result.rows()[0][3] == note
    assert f"<td>{note}</td>" in result._repr_html_()
    assert result.to_dataframe()["note"][0] == note
    assert note in result.lines()[0]


def test_a_two_axis_comparison_s_tables_label_the_slice_and_hold_the_region_map() -> None:
    """The table showed the crossovers along x at n = 1 as the whole answer, unlabelled,
    without the region map (where the pipe wins for n >= 2)."""
    designs = ["pipe(tpool_n(qsort), inc)", "tpool_2(seq(qsort,inc))"]
    result = compare(designs, over=["x=1..1e4", "n=1..8"])
    assert result.header()[:5] == ["part", "n", "from", "to", "winner"]
    rows = result.rows()
    assert rows[0][:2] == ["along x at n = 1", 1]
    assert result.caption().startswith("along x at n = 1: ")
    runs = result.region.runs(result.terms)
    assert [r[:5] for r in rows[1:]] == [["region map", *run] for run in runs]
    assert ("region map", 2.0, 10000.0, "pipe(tpool_n(qsort), inc)") in [(r[0], r[1], r[3], r[4]) for r in rows]
    html = result._repr_html_()
    assert "<td>along x at n = 1</td>" in html and "<td>region map</td>" in html
    assert "<pre>n \\ x\n" in html and "  A = pipe(tpool_n(qsort), inc)" in html  # the map, as printed
    csv_lines = result.to_csv().splitlines()
    assert csv_lines[0].startswith("part,n,from,to,winner") and len(csv_lines) == 1 + len(rows)
    frame = result.to_dataframe()
    assert set(frame["part"]) == {"along x at n = 1", "region map"}


def test_evaluation_is_what_eval_prints(capsys) -> None:
    from patternalg.cli import main

    assert main(["eval", "pipe(tpool_4(qsort), inc)", "--explain"]) == 0
    out = capsys.readouterr().out.splitlines()
    result = explain("pipe(tpool_4(qsort), inc)")
    assert out == [result.text(), *result.lines()]


def test_html_is_escaped() -> None:
    html = check("pipe(A, B) <= seq(A, B)", semantics="exact")._repr_html_()
    assert "&lt;=" in html and "<= " not in html
    assert "<td>exact</td><td>proved</td>" in html


def test_fit_report_table_has_the_statistics() -> None:
    reports = PMNF.fit_each(read(str(ATOMS)))
    html = reports[1]._repr_html_()
    smape = reports[1].fitted.statistics["smape"]
    assert "<td>inc</td>" in html and f"<td>{smape:.6g}</td>" in html
    assert "x in [1024, 262144]" in html
    # under it each coefficient's 90 % interval, the line `patternalg fit` prints under a model
    intervals = reports[1].fitted.interval_text()
    assert intervals.startswith("1: ") and html.endswith(f"</table><pre>{intervals}</pre>")


def test_decision_results_are_tables() -> None:
    axis = parse_axis("x=1..1e3:4:log")
    assert (
        "<th>bottleneck of pipe(inc, nop)</th>" in sweep(["pipe(inc, nop)"], [axis])._repr_html_()
    )
    assert "<td>nop</td>" in compare(["inc", "nop"], over=axis)._repr_html_()
    best = optimize("pipe(tpool_a(qsort), tpool_b(inc))", budgets=["a+b<=16"], at={"x": 10**6})
    assert "<td>15</td><td>1</td>" in best._repr_html_()
    assert f"<caption>proven optimum by {best.method} ({best.evaluated} assignments evaluated)</caption>" in best._repr_html_()
    designs = explore("pipe(qsort, inc)", threads=2, at={"x": 1024}, top=2)
    assert designs._repr_html_().count("<tr>") == 3  # header and two designs
    assert "<caption>6 designs within 2 threads visited (complete: all that the rewrites reach through designs within 2 threads)</caption>" in designs._repr_html_()


def test_a_comparison_s_table_says_who_ties_and_who_wins_asymptotically() -> None:
    """The table named one winner of two designs equal everywhere, and the notebook never
    showed the asymptotic winner that the command line prints."""
    html = compare(["pipe(inc, inc)", "tpool_2(seq(inc, inc))"])._repr_html_()
    assert "<caption>asymptotic winner (x -&gt; oo): pipe(inc, inc) ties with tpool_2(seq(inc, inc))</caption>" in html
    assert "<th>ties with it</th>" in html and "<td>pipe(inc, inc)</td><td>tpool_2(seq(inc, inc))</td>" in html


plt = pytest.importorskip("matplotlib.pyplot")  # imported here: the tests run alone too


def _texts(ax) -> list[str]:  # type: ignore[no-untyped-def]
    legend = ax.get_legend()
    return [t.get_text() for t in legend.get_texts()] if legend else []


def test_plots_return_axes_with_what_they_show() -> None:
    axis = parse_axis("x=1..1e3:64:log")
    ax = sweep(["pipe(inc, nop)"], [axis]).plot()
    assert ax.get_xlabel() == "x" and ax.get_ylabel() == "time [ns]"
    assert "pipe(inc, nop): nop bottleneck" in _texts(ax)
    ax = compare(["inc", "nop"], over=axis).plot()
    assert "crossover x = 10.114" in _texts(ax)
    ax = explain("pipe(inc, nop)", x=4).plot(over="x=1..1e3")
    assert "x = 4: 5423" in _texts(ax)
    reports = PMNF.fit_each(read(str(ATOMS)))
    ax = reports[2].plot()
    assert ax.get_title() == "qsort" and any("SMAPE" in t for t in _texts(ax))
    best = optimize("pipe(tpool_a(qsort), tpool_b(inc))", budgets=["a+b<=16"], at={"x": 10**6})
    labels = [t.get_text() for t in best.plot().get_yticklabels()]
    assert labels[0] == "a=15, b=1" and labels[-1] == "even split: a=8, b=8"
    designs = explore("pipe(qsort, inc)", threads=2, at={"x": 1024}, top=2)
    assert len(designs.plot().patches) == 2
    plt.close("all")


def test_a_plot_draws_on_given_axes() -> None:
    fig, ax = plt.subplots()
    assert compare(["inc", "nop"], over=parse_axis("x=1..1e3")).plot(ax=ax) is ax
    plt.close(fig)


def test_a_library_shows_its_atoms_as_a_table_building_only_the_rows_shown() -> None:
    from patternalg.library.model_library import ModelLibrary, _Pending

    text = "".join(f'[models.k{i}]\nmodel = "{i + 1}*x"\n' for i in range(100))
    library = ModelLibrary.from_toml_text(text, "m.toml", lazy=True)
    html = library._repr_html_()
    assert html.startswith("<table><caption>100 atoms</caption>")
    assert html.count("<td>k") == 20 and "<td>k9</td><td>10*x</td>" in html and "<td>k90</td>" in html
    assert "... 80 more rows: .table() has them all ..." in html and "<td>k10</td>" not in html
    assert sum(isinstance(entry, _Pending) for entry in library._models.values()) == 80
    assert library.table()._repr_html_().count("<td>k") == 20  # the whole table shows its ends
    fitted = PMNF.fit_each(read(Path(__file__).parent.parent / "examples/tour/measured.txt"))
    table = ModelLibrary(r.model for r in fitted).table()
    assert [row[0] for row in table.rows()] == ["make", "scale"]
    line = 'make,4.498425219371718e-08*x*log2(x)**2 + 0.5420879388428478,s,pmnf,"x in [10000, 300000]",'
    assert table.to_csv().splitlines()[1].startswith(line)  # the model as a model file writes it


def test_a_calibrated_machine_shows_its_numbers_and_their_standard_errors() -> None:
    from pathlib import Path

    from patternalg.evidence import calibrate

    run = Path(__file__).parent.parent / "benchmarks" / "realdata" / "data13"
    calibration = calibrate([run / "atoms.txt", run / "compositions.txt"])
    machine = calibration.machine
    html = machine._repr_html_()
    numbers = dict(machine.calibration)["numbers"]
    assert "<td>cores</td><td>2</td>" in html and "<td>hand-off</td>" in html and "<td>dispatch</td>" in html
    assert set(numbers) == {"h0", "h1", "d0", "t0", "w0"} and all(f"{name} = " in html for name in numbers)
    assert html.count("standard error") == len(dict(machine.calibration)["errors"])


def test_a_profiles_fit_shows_its_atoms_and_gives_a_library_the_decisions_take() -> None:
    from pathlib import Path

    from patternalg import model
    from patternalg.library.model_library import ModelLibrary
    from patternalg.profiles import CallTree, fit_profile, profile_term, read_profiles

    runs = sorted(str(p) for p in (Path(__file__).parent / "data" / "profiles" / "difflib").glob("diff_n*_r1.pstats"))
    fitted = fit_profile(profile_term(CallTree.of(read_profiles(runs), ["n"])), uncertainty="none")
    assert isinstance(fitted.library, ModelLibrary) and sorted(fitted.library) == sorted(r.atom for r in fitted.atoms)
    html = fitted._repr_html_()
    assert html.startswith(f"<table><caption>{len(fitted.atoms)} atoms fitted of CallTree(")
    assert html.count("<td>pmnf</td>") == len(fitted.atoms) <= 60 and "<p>note: " in html  # all rows: up to 60
    assert float(model(fitted.built.term, library=fitted.library, n=64000)) > 0
