"""One number printer for the decisions and predict (issue 29, findings 9 and 10): text, CSV
and notebook tables of ``sweep``, ``compare``, ``optimize`` (and ``explore``'s CSV) and
``predict``'s table print every number by :func:`patternalg.arith.format_number` (CSV) or
:func:`patternalg.arith.number_text` (the same digits, a whole number without ``.0``): a
model's value in 15 significant digits (``--digits N``: N), no float noise such as
``2048.000000000001``; JSON holds the doubles themselves."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from helpers import run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patternalg.algebra.grid import parse_axis
from patternalg.decisions.compare import REFINED_DIGITS, compare
from patternalg.decisions.explore import explore
from patternalg.decisions.optimize import optimize
from patternalg.decisions.sweep import sweep
from patternalg.errors import PatternalgError
from patternalg.laws.strategies import libraries, terms
from patternalg.library import ModelLibrary
from patternalg.syntax.arith import format_number, number_text

#: a number as the outputs print it (not the digits inside a name such as ``k1``)
_NUMBER = re.compile(r"(?<![\d.])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?")


def noisy(text: str, digits: int | None = None) -> list[str]:
    """The numbers of ``text`` that the one printer would not print as they stand (in its
    default digits, or in ``digits``: ``--digits 16`` shows 1/3 as 0.3333333333333333)."""
    return [
        t
        for t in _NUMBER.findall(text)
        if t not in {printer(float(t), d) for printer in (number_text, format_number) for d in {None, digits}}
    ]


def test_noisy_finds_what_the_old_printers_wrote() -> None:
    """The check itself: float noise, ``:.6g`` and ``repr`` spellings are caught."""
    assert noisy("2048.000000000001,16383.999999999996") == [
        "2048.000000000001",
        "16383.999999999996",
    ]
    assert noisy("best: a=15: 1.37418e+09 ns; x = 5.656854249492381") == [
        "1.37418e+09",
        "5.656854249492381",
    ]
    assert noisy("k1: 4 and 4.0 and 1e-303 and 0.3 (tpool_2(k0))") == []


@st.composite
def decisions(draw: st.DrawFn) -> tuple[ModelLibrary, list[str], str]:
    """A library of 2 or 3 random models, 2 terms over it and a log grid with random ends."""
    library = draw(libraries(min_size=2, max_size=3))
    drawn = draw(
        st.lists(terms(max_depth=3, atoms=library, annotations=False), min_size=2, max_size=2)
    )
    low = draw(st.sampled_from([1, 2, 3, 10]))
    high = low * draw(st.sampled_from([7, 100, 1000, 2**20]))
    points = draw(st.integers(3, 9))
    return library, [str(t) for t in drawn], f"x={low}..{high}:{points}:log"


@pytest.mark.long  # a soak of random decisions
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decisions(), st.integers(1, 17) | st.none())
def test_no_decision_output_holds_float_noise(drawn, digits) -> None:
    """Every number in sweep's, compare's and optimize's text and CSV (and explore's CSV) on
    random terms is the one printer's: printing it again gives it back."""
    library, designs, grid = drawn
    axis = parse_axis(grid)
    outputs = []
    swept = sweep(designs, [axis], library=library)
    outputs += [*swept.lines(digits), swept.to_csv(digits), swept._repr_html_()]
    try:
        compared = compare(designs, over=axis, library=library)
    except PatternalgError:  # e.g. the designs are one model
        compared = None
    if compared is not None:
        outputs += [*compared.lines(digits), compared.to_csv(digits), compared._repr_html_()]
    budgeted = f"pipe(tpool_a({designs[0]}), tpool_b({designs[1]}))"
    best = optimize(budgeted, budgets=["a+b<=6"], at={"x": axis.values[-1]}, library=library)
    outputs += [*best.lines(digits), best.to_csv(digits), best._repr_html_()]
    outputs.append(explore(designs[0], threads=64, at={"x": 1024}, library=library, top=3).to_csv())
    for text in outputs:
        assert noisy(text, digits) == [], text


# --- each changed output -----------------------------------------------------------------------
def test_sweep_prints_values_in_15_digits_and_grid_points_as_the_grid_holds_them() -> None:
    result = sweep(["pipe(inc, nop)", "inc"], [parse_axis("x=1..1024:5:log")])
    rows = result.lines()[1:]
    for row, values in zip(rows, result.rows(), strict=True):
        cells = row.split()
        assert cells[0] == number_text(values[0])  # 1, 5.65685424949238, 32, ...
        assert cells[1] == number_text(values[1]) and cells[3] == number_text(values[3])
    assert [r.split()[0] for r in rows][::2] == ["1", "32", "1024"]  # whole grid points: no .0
    assert "3033.12039576407" in result.lines()[2]  # the value, not 3033.12
    shown = result.lines(3)[2].split()
    assert shown[0] == "5.65685424949238" and shown[3] == "3030"  # --digits: values only


def test_sweep_csv_holds_the_printers_numbers_and_json_the_doubles() -> None:
    result = sweep(["inc"], [parse_axis("x=1..1000:7:log")])
    rows = list(csv.reader(io.StringIO(result.to_csv())))[1:]
    doubles = json.loads(json.dumps(result.to_json()))["rows"]
    assert [r[0] for r in rows] == [format_number(d[0]) for d in doubles]  # 3.16227766016838
    assert [r[1] for r in rows] == [format_number(d[1]) for d in doubles]
    assert doubles == [[float(a), float(v), None] for a, v, _ in result.rows()]
    assert any(len(repr(d[0])) > len(format_number(d[0])) for d in doubles)  # JSON keeps them all
    three = list(csv.reader(io.StringIO(result.to_csv(3))))[1:]
    assert [r[1] for r in three] == [format_number(d[1], 3) for d in doubles]


def test_compare_prints_positions_ratios_and_values_by_the_one_printer() -> None:
    result = compare(["inc", "nop"], over=parse_axis("x=1..1e4"))
    (cross,) = result.crossovers
    text = result.text()
    assert f"crossover at x = {number_text(cross.value)} (exact)" in text  # 10.1139905070078
    assert f"both {number_text(cross.model_value)} ns there" in text
    assert f"x{number_text(result.intervals[1].ratios[0][2])}" in text  # inc x988.729423175861
    assert f"x in [1, {number_text(cross.value)}]" in text
    assert f"crossover at x = {number_text(cross.value)}:" in result.caption()


def test_a_refined_crossover_prints_in_the_digits_it_is_known_to() -> None:
    library = ModelLibrary.from_toml_text(
        '[models.k]\nmodel = "1000*x"\n[models.j]\nmodel = "100*x*log2(x) + 3*sqrt(x)"\n', "m.toml"
    )
    result = compare(["k", "j"], over=parse_axis("x=1..1e6"), library=library)
    refined = [c for c in result.crossovers if not c.exact]
    assert refined  # 100*x*log2(x) + 3*sqrt(x) - 1000*x: no polynomial, bisected
    shown = number_text(refined[0].value, REFINED_DIGITS)
    assert f"crossover at x = {shown} (refined" in result.text()
    assert len(shown.replace(".", "").lstrip("0")) <= REFINED_DIGITS
    # the notebook's table and the CSV as the text (they gave 15 digits: 826.329285403969)
    assert f"<td>{shown}</td>" in result._repr_html_()
    assert f",{shown}," in result.to_csv() and number_text(refined[0].value) not in result.to_csv()


def test_optimize_prints_values_and_the_gain_in_15_digits_or_those_asked() -> None:
    best = optimize("pipe(tpool_a(qsort), tpool_b(inc))", budgets=["a+b<=16"], at={"x": 10**6})
    lines = best.lines()
    assert (
        lines[0]
        == f"best: a=15, b=1: {number_text(best.best.value)} ns (bottleneck: tpool_15(qsort))"
    )
    assert lines[-2].endswith(f"the best is {number_text(best.gain)}x faster")
    assert (
        best.lines(3)[0]
        == f"best: a=15, b=1: {number_text(best.best.value, 3)} ns (bottleneck: tpool_15(qsort))"
    )
    # the gain in the digits asked, as compare's ratios (it printed 1.83333333333333x with --digits 4)
    assert best.lines(3)[-2].endswith(f"the best is {number_text(best.gain, 3)}x faster")
    assert len(number_text(best.gain, 3).replace(".", "")) <= 3
    assert "<td>15</td><td>1</td>" in best._repr_html_()


def test_explore_prints_values_in_15_digits_or_those_asked() -> None:
    """explore printed its values in 6 digits (``5.56948e+06 ns``) and took no ``digits``."""
    result = explore("pipe(qsort, inc)", threads=2, at={"x": 1024}, top=2)
    values = [d.value for d in result.designs]
    assert f"=  {number_text(values[0])} ns  (" in result.lines()[0]  # 5569477.12
    assert f"=  {number_text(values[1], 3)} ns  (" in result.lines(digits=3)[2]
    assert result.text(digits=3) == "\n".join(result.lines(digits=3))
    assert f"<td>{number_text(values[0])}</td>" in result._repr_html_()
    with pytest.raises(PatternalgError, match="digits: expected a whole number from 1 to 17"):
        result.lines(digits=0)
    asymptotic = explore("pipe(qsort, inc)", threads=2, top=1)
    assert "=  517*x*log2(x) + 268*x  (" in asymptotic.lines(digits=3)[0]


def test_notebook_cells_print_whole_numbers_as_integers() -> None:
    html = sweep(["inc"], [parse_axis("x=4,1024")])._repr_html_()
    assert "<td>4</td><td>2144.74</td>" in html and "<td>1024</td><td>549053.44</td>" in html


@pytest.mark.parametrize(
    ("args", "line", "expected"),
    [
        (("sweep", "inc", "--over", "x=4,1000", "--digits", "2"), 2, "1000  540000"),
        (
            ("sweep", "inc", "--over", "x=4,1000", "--digits", "2", "--format", "csv"),
            2,
            "1000.0,540000.0",
        ),
        (("compare", "inc", "nop", "--over", "x=1..1e4", "--digits", "2"), 2, "both 5400 ns there"),
        (
            ("optimize", "tpool_a(qsort)", "--budget", "a<=4", "--at", "x=1024", "--digits", "3"),
            0,
            "best: a=4: 2650000 ns",
        ),
        (
            ("explore", "pipe(qsort, inc)", "--threads", "2", "--at", "x=1024", "--top", "1", "--digits", "3"),
            0,
            "=  5570000 ns  (2 threads",
        ),
        (
            ("explore", "pipe(qsort, inc)", "--threads", "2", "--at", "x=1024", "--top", "1", "--digits", "3", "--format", "csv"),
            1,
            ",5570000.0,",
        ),
    ],
)
def test_the_decision_commands_take_digits(args, line, expected) -> None:
    out = run_cli(*args).stdout.splitlines()
    assert expected in out[line]


def test_predict_prints_its_table_by_the_one_printer(tmp_path) -> None:
    path = tmp_path / "vac.csv"
    path.write_text("p,time\n" + "".join(f"{k},{100 * (0.1 + 0.9 / k)}\n" for k in range(1, 9)))
    out = run_cli("predict", str(path), "--upto", "12").stdout.splitlines()
    shown = [line.split()[1] for line in out if line.startswith("  p=")]
    data = json.loads(run_cli("predict", str(path), "--upto", "12", "--format", "json").stdout)
    values = [row["value"] for row in data["predictions"]]
    assert shown == [number_text(v) for v in values]
    predicted, unit = out[0].rsplit(" ", 2)[1:]  # the summary: the value at p=12, in the rows' unit
    assert unit == "ns" and all(line.endswith(" ns") for line in out if line.startswith("  p="))
    assert predicted == number_text(float(predicted))
    assert float(predicted) == pytest.approx(values[-1], rel=1e-12)
    short = run_cli("predict", str(path), "--upto", "12", "--digits", "4").stdout.splitlines()
    assert [line.split()[1] for line in short if line.startswith("  p=")] == [
        number_text(v, 4) for v in values
    ]


def test_amdahls_summary_prints_alpha_as_the_closed_form_does(tmp_path) -> None:
    """alpha was cut to 6 digits (``alpha 0.903846``) beside a model printing it in full."""
    path = tmp_path / "a.csv"
    path.write_text(
        "p,time\n" + "".join(f"{p},{100 / 13 * (1 + 12 / p) + 0.01 * p}\n" for p in (1, 2, 4, 8))
    )
    text = run_cli("fit", str(path), "--form", "amdahl").stdout.splitlines()[0]
    (record,) = json.loads(run_cli("fit", str(path), "--form", "amdahl", "--format", "json").stdout)
    alpha = record["parameters"]["alpha"]
    assert len(repr(alpha)) > 8  # more digits than the 6 it was cut to
    assert f"alpha {number_text(alpha)} by" in text  # 15 digits, as the model's numbers
    assert number_text(alpha) != repr(alpha)  # the noise of the 16th and 17th left out
    assert f"mse {number_text(record['mse'], 4)} over" in text


def test_fit_and_models_print_fitted_numbers_without_float_noise(tmp_path, capsys) -> None:
    """issue 40: ``fit`` printed ``50.356989500000005`` and ``models`` ``12410000.0``; the
    files and JSON keep every digit (a model file reads back to the same double)."""
    from patternalg.cli import main

    data = tmp_path / "k.txt"
    data.write_text(
        "PARAMETER x\nPOINTS 1 2 4 8\nMETRIC time\nREGION k\n" + "DATA 0.1 0.2\n" * 4
    )
    args = ["fit", str(data), "--aggregate", "mean", "--uncertainty", "none"]
    assert main([*args, "--out", str(tmp_path / "k.toml")]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "k: 0.15  [ns]"  # 0.1/2 + 0.2/2
    assert main([*args, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["model"] == repr((0.1 + 0.2) / 2)
    assert 'model = "0.15000000000000002"' in (tmp_path / "k.toml").read_text()
    assert main(["models", "--models", str(tmp_path / "k.toml"), "k", "map_grppi"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[0].split()[:2] == ["k", "0.15"] and listed[-1].split()[:2] == ["map_grppi", "12410000"]
    assert main(["models", "map_grppi", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["model"] == "12410000.0"  # as read back


def test_optimize_says_when_the_even_split_is_the_best() -> None:
    """issue 40: an even split that is the best printed ``the best is 1x faster``."""
    best = optimize("pipe(tpool_a(qsort), tpool_b(qsort))", budget="a+b<=8", at={"x": 1024})
    assert best.best.value == best.even_split.value and best.gain == 1
    assert best.lines()[-2].endswith("(bottleneck: tpool_4(qsort)); no split is faster")


def test_compare_s_ratios_follow_digits_in_text() -> None:
    found = compare(["pipe(qsort, inc)", "seq(qsort, inc)"], over=parse_axis("x=1024..1e6"))
    full, four = found.lines()[0], found.lines(4)[0]
    ratios = re.findall(r"x(\d[\d.]*)", four.partition("(others")[2])
    assert ratios and all(len(r.replace(".", "").lstrip("0")) <= 4 for r in ratios), four
    assert len(re.findall(r"x\d\.\d{10,}", full)) == 2  # in full without --digits
