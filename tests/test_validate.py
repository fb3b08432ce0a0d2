"""``validate`` and ``patternalg validate``: measured terms predicted from models, on the
committed real data (benchmarks/realdata) and the harnesses' files (tests/data)."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import numpy as np
import pytest

from patternalg.cli import main
from patternalg.errors import EvaluationError
from patternalg.evidence.validated import Validation, relative_error
from patternalg.evidence.validation import validate
from patternalg.library.model_library import ModelLibrary
from patternalg.measurements import read
from patternalg.syntax.parser import parse
from patternalg.syntax.symbols import symbol
from patternalg.syntax.symbols import x as x_symbol

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / "benchmarks" / "realdata" / "data"
ATOMS, COMPOSITIONS = RUN / "atoms.txt", RUN / "compositions.txt"
DATA = ROOT / "tests" / "data"


def cli(capsys, *args: str) -> tuple[int, str, str]:
    status = main([*args])
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture(scope="module")
def fitted(tmp_path_factory) -> Path:
    """The atoms of the committed run fitted by ``fit --out`` (the default modeler)."""
    path = tmp_path_factory.mktemp("models") / "atoms.toml"
    assert main(["-q", "fit", str(ATOMS), "--out", str(path)]) == 0
    return path


@pytest.fixture(scope="module")
def result(fitted: Path) -> Validation:
    return validate(COMPOSITIONS, fitted)


def test_every_composition_is_validated_at_every_size(result: Validation) -> None:
    data = read(COMPOSITIONS)
    assert [v.kernel for v in result.validated] == [s.kernel for s in data]
    assert len(result.rows()) == sum(len(s) for s in data)
    assert result.notes == ()  # every region is a term whose atoms the models have


def test_a_notebook_shows_the_summary_the_command_prints(result: Validation) -> None:
    """Under the table of every cell, the per-term summary (it showed only the cells)."""
    import html

    shown = result._repr_html_().split("</table>", 1)[1]
    assert shown == f"<pre>{html.escape(chr(10).join(result.summary_text()))}</pre>"
    assert all(f"\n{html.escape(v.term)}  " in shown for v in result.validated)
    error = result.header().index("error")  # each cell's error in percent, as the summary has it
    first = result.rows()[0][error]
    assert f"<td>{100 * first:.3g} %</td>" in result._repr_html_() and abs(first) < 1


def test_errors_are_predicted_minus_measured_over_measured(
    result: Validation, fitted: Path
) -> None:
    """A few cells against an independent computation: the term's closed form (sympy) at
    the size, the median of the file's repetitions."""
    library = ModelLibrary.load([fitted], builtin=False)
    data = {s.kernel: s for s in read(COMPOSITIONS)}
    rows = {(r[0], r[1]): r for r in result.rows()}
    from patternalg import model

    for term, index in [("pipe(qsort, inc)", 0), ("tpool_4(qsort)", 8), ("seq(inc, nop)", 4)]:
        series = data[term]
        size = float(series.points[index, 0])
        predicted = float(model(term, library, semantics="exact").subs(x_symbol, size))
        measured = float(np.median(series.values[index]))
        row = rows[(str(parse(term)), size)]
        assert row[2] == pytest.approx(predicted, rel=1e-12)
        assert row[3] == measured
        assert row[4] == pytest.approx((predicted - measured) / measured, rel=1e-9, abs=1e-12)


def test_the_summary_is_the_median_and_worst_of_the_cells(result: Validation) -> None:
    errors = np.abs([row[4] for row in result.rows()])
    overall = result.overall()
    assert overall["cells"] == len(errors)
    assert overall["median"] == pytest.approx(np.median(errors))
    assert overall["worst"] == pytest.approx(errors.max())
    largest = max(row[1] for row in result.rows())
    at_largest = np.abs([row[4] for row in result.rows() if row[1] == largest])
    assert overall["largest"]["cells"] == len(at_largest) == len(result.validated)
    assert overall["largest"]["worst"] == pytest.approx(at_largest.max())
    first = result.summary()[0]
    mine = np.abs([row[4] for row in result.rows() if row[0] == first["term"]])
    assert (first["median"], first["worst"]) == (
        pytest.approx(np.median(mine)),
        pytest.approx(mine.max()),
    )


def test_a_perfect_model_has_no_error(tmp_path: Path) -> None:
    """Models equal to the measured medians: constant data, an expr model of its value."""
    data = tmp_path / "m.txt"
    data.write_text(
        "PARAMETER x\nPOINTS (8) (16) (32)\nMETRIC time\n"
        "REGION seq(a, b)\nDATA 30 31 29\nDATA 30 30 30\nDATA 29 30 31\n"
        "REGION a\nDATA 10 10 12\nDATA 10 9 11\nDATA 10 10 10\n"
    )
    found = validate(data, {"a": "10", "b": "20"})
    assert [row[4] for row in found.rows()] == [0.0] * 6
    assert found.overall()["worst"] == 0.0


def test_the_rules_are_reported_beside_another_semantics(fitted: Path) -> None:
    found = validate(COMPOSITIONS, fitted, semantics="asymptotic", rules="exact")
    assert found.header()[5:7] == ["rules_predicted", "rules_error"]
    for row in found.rows():  # on numbers both are the pointwise maximum
        assert row[5] == row[2] and row[6] == row[4]
    assert "rules_worst" in found.summary()[0] and "rules_median" in found.overall()


def test_series_that_are_not_terms_or_lack_a_model_are_skipped_with_a_note(tmp_path: Path) -> None:
    data = tmp_path / "m.csv"
    data.write_text(
        'kernel,x,time\n"pipe(a, b)",8,20\n"pipe(a, b)",16,40\n"seq(a, c)",8,5\nmain->solve(),8,1\n'
        "Big Kernel,8,3\n"
    )
    found = validate(data, {"a": "2*x", "b": "x"})
    assert found.terms == ("pipe(a, b)",)
    assert any(
        "'main->solve()'" in n and "'Big Kernel'" in n and "not terms" in n for n in found.notes
    )
    assert any("'seq(a, c)'" in n and "no model of c" in n for n in found.notes)
    with pytest.raises(EvaluationError, match=r"nothing to validate among 4 series.*no model of a"):
        validate(data, {"b": "x"})


def test_the_notebook_s_header_has_the_values_unit_as_the_text_has(tmp_path: Path) -> None:
    """The text's tables say ``predicted [ms]``; the notebook's header said ``predicted``."""
    data = tmp_path / "m.csv"
    data.write_text("kernel,x,time_ms\nk,10,2\nk,20,4\n")
    found = validate(data, {"k": "0.2*x"})
    assert any("predicted [ms]" in line and "measured [ms]" in line for line in found.lines())
    html = found._repr_html_()
    assert "<th>predicted [ms]</th><th>measured [ms]</th><th>error</th>" in html
    assert found.header()[2:4] == ["predicted", "measured"]  # CSV and DataFrame columns as they were
    several = tmp_path / "s.csv"
    several.write_text("kernel,x,time_s\nk,10,2\nk,20,4\n")
    both = validate([data, several], {"k": "0.2*x"})
    assert "<th>predicted</th>" in both._repr_html_()  # no one unit: the caption names each
    assert both.caption().endswith("; values in ms (k), s (k)")


def test_units_are_converted_before_comparing(tmp_path: Path) -> None:
    data = tmp_path / "m.csv"
    data.write_text("kernel,x,time_ms\nk,10,2\nk,20,4\n")
    found = validate(data, {"k": "0.2*x"})  # expr models are in ns: 2 ns against 2 ms
    assert [round(r[4], 12) for r in found.rows()] == [round(2e-6 / 2 - 1, 12)] * 2
    assert any("converted to ms" in n for n in found.notes)
    from patternalg.algebra.atomic_model import AtomicModel
    from patternalg.syntax.parser import parse_arithmetic

    exact = {"k": AtomicModel("k", parse_arithmetic("200000*x"), unit="ns")}
    assert [r[4] for r in validate(data, exact).rows()] == [0.0, 0.0]
    # several series converted alike: one note, each atom named once
    many = tmp_path / "many.csv"
    many.write_text("kernel,x,time_ms\n" + "".join(f'"{t}",{x},{x}\n' for t in ("pipe(a, b)", "seq(b, c)", "a")
                                                    for x in (10, 20)))  # fmt: skip
    notes = validate(many, {"a": "x", "b": "x", "c": "x"}).notes
    assert [n for n in notes if n.startswith("converted")] == ["converted to ms: a (ns), b (ns), c (ns)"], notes


def test_a_point_measured_as_zero_has_no_error(tmp_path: Path) -> None:
    data = tmp_path / "m.csv"
    data.write_text("kernel,x,time\nk,1,0\nk,2,4\n")
    found = validate(data, {"k": "2*x"})
    assert [r[4] for r in found.rows()] == [None, 0.0]
    assert any("no relative error at 1 point" in n for n in found.notes)
    assert math.isnan(relative_error(np.array([1.0]), np.array([0.0]))[0])


def test_google_benchmark_and_pytest_benchmark_files_validate(tmp_path: Path) -> None:
    """Kernels that are not terms are the atoms fit names them by; a model is in its
    parameter's own name, as fit keeps it."""
    for name in ("gbench/gb.json", "pytest_benchmark/pb.json", "hyperfine/hf_sort.json"):
        models = tmp_path / (Path(name).stem + ".toml")
        assert main(["-q", "fit", str(DATA / name), "--out", str(models)]) == 0
        data = read(DATA / name)
        found = validate(DATA / name, models)
        assert len(found.validated) == len(data)
        fitted = ModelLibrary.load([models], builtin=False)
        for v, s, atom in zip(found.validated, data, data.atoms(), strict=True):
            assert v.term == atom and v.unit == s.unit
            size, own = s.points[:, 0], symbol(s.parameters[0])
            assert fitted[atom].expr.free_symbols <= {own}
            expected = np.array([float(fitted[atom].expr.subs(own, p)) for p in size])
            np.testing.assert_allclose(v.predicted, expected, rtol=1e-12)
            np.testing.assert_array_equal(v.measured, s.aggregate("median"))
        assert max(abs(r[-1]) for r in found.rows()) < 0.25  # each its own fit: close


def test_several_files_get_a_file_column(fitted: Path) -> None:
    found = validate([ATOMS, COMPOSITIONS], fitted)
    assert found.header()[:2] == ["file", "term"]
    assert {row[0] for row in found.rows()} == {str(ATOMS), str(COMPOSITIONS)}


def test_to_dataframe_has_the_rows(result: Validation) -> None:
    pytest.importorskip("pandas")
    frame = result.to_dataframe()
    assert list(frame.columns) == ["term", "x", "predicted", "measured", "error", "halves_low", "halves_high"]
    assert frame["error"].tolist() == [row[4] for row in result.rows()]


# --- the command --------------------------------------------------------------------------


def test_csv_has_one_row_per_term_and_point(capsys, fitted: Path) -> None:
    status, out, _ = cli(
        capsys, "validate", str(COMPOSITIONS), "--models", str(fitted), "--format", "csv"
    )
    assert status == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["term", "x", "predicted", "measured", "error", "halves_low", "halves_high"]
    data = read(COMPOSITIONS)
    assert len(rows) - 1 == sum(len(s) for s in data)
    for row in rows[1:]:
        predicted, measured, error, low, high = map(float, row[2:])
        assert error == pytest.approx((predicted - measured) / measured, rel=1e-9)
        assert low <= high


def test_csv_with_a_machine_semantics_has_the_rules_beside(capsys, fitted: Path) -> None:
    status, out, _ = cli(
        capsys, "validate", str(COMPOSITIONS), "--models", str(fitted), "--format", "csv",
        "--semantics", "asymptotic",
    )  # fmt: skip
    assert status == 0
    header = next(csv.reader(io.StringIO(out)))
    assert header == [
        "term",
        "x",
        "predicted",
        "measured",
        "error",
        "rules_predicted",
        "rules_error",
        "halves_low",
        "halves_high",
    ]


def test_json_shape(capsys, fitted: Path) -> None:
    status, out, _ = cli(
        capsys, "validate", str(COMPOSITIONS), "--models", str(fitted), "--format", "json"
    )
    assert status == 0
    data = json.loads(out)
    assert set(data) == {
        "semantics", "rules", "aggregate", "files", "parameters", "header", "rows", "terms",
        "overall", "notes",
    }  # fmt: skip
    assert data["semantics"] == "exact" and data["rules"] is None and data["parameters"] == ["x"]
    assert len(data["terms"]) == len(read(COMPOSITIONS))
    term = data["terms"][0]
    assert set(term) >= {"term", "unit", "points", "median", "worst", "worst_at", "worst_in_halves", "worst_holds"}
    assert set(data["overall"]) == {"cells", "median", "worst", "largest", "halves"}
    assert data["overall"]["halves"]["cells"] == 162
    assert all(len(row) == len(data["header"]) for row in data["rows"])


def test_text_has_a_table_per_term_and_the_summary(capsys, fitted: Path) -> None:
    status, out, _ = cli(capsys, "validate", str(COMPOSITIONS), "--models", str(fitted))
    assert status == 0
    lines = out.splitlines()
    assert "tpool_4(qsort)" in lines and any(line.startswith("summary (exact") for line in lines)
    assert lines[-3].startswith("all 162 cells: median |error|")
    assert lines[-2].startswith("the 18 cells at the largest x")
    assert lines[-1].startswith("against each half of the repetitions (first, second, odd, even): ")
    assert "error in halves" in lines[lines.index("tpool_4(qsort)") + 1]


def test_the_text_of_several_files_names_each_rows_file(capsys, fitted: Path) -> None:
    """Each term of two runs was listed twice in the summary with nothing to tell which
    run a row was (probe F17); one file's text names none."""
    second = RUN.parent / "data2" / "compositions.txt"
    status, out, _ = cli(capsys, "validate", str(COMPOSITIONS), str(second), "--models", str(fitted))
    assert status == 0
    lines = out.splitlines()
    for path in (COMPOSITIONS, second):
        assert f"tpool_4(qsort) in {path}" in lines
        assert sum(line.startswith(f"{path}  ") for line in lines) == len(read(path))  # its summary rows
    summary = lines.index("summary (exact; measured: the median of the repetitions)")
    assert lines[summary + 1].split()[:2] == ["file", "term"]
    moved = next(line for line in lines if line.startswith("against each half"))
    assert f" in {COMPOSITIONS} at " in moved or f" in {second} at " in moved


def test_the_summary_names_the_files_own_size_and_reads_a_repetitions_number_as_one(capsys, tmp_path: Path) -> None:
    models = tmp_path / "m.toml"
    models.write_text('[models.scan]\nmodel = "40*n"\n')
    rows = [f'"seq(scan, scan)",{n},{r},{80 * n * (1 + 0.01 * r)}' for n in (8, 64, 512) for r in (1, 2, 3)]
    (tmp_path / "c.csv").write_text("kernel,n,rep,time\n" + "\n".join(rows) + "\n")
    status, out, err = cli(capsys, "validate", str(tmp_path / "c.csv"), "--models", str(models))
    assert status == 0 and "parameter 'rep' numbers the repetitions" in err
    assert "the 1 cell at the largest n: median |error| 1.96%, worst 1.96%" in out.splitlines()  # 1/1.02 - 1


def test_out_writes_the_file_and_prints_the_summary(capsys, tmp_path: Path, fitted: Path) -> None:
    target = tmp_path / "v.csv"
    status, out, _ = cli(
        capsys, "validate", str(COMPOSITIONS), "--models", str(fitted), "--format", "csv",
        "--out", str(target),
    )  # fmt: skip
    assert status == 0 and target.read_text().startswith("term,x,predicted,measured,error")
    assert "summary" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.txt"], "missing.txt: cannot read measurements"),
        ([str(ATOMS), "--models", "nowhere.toml"], "nowhere.toml: cannot read model file"),
        ([str(COMPOSITIONS), "--models", "@only-nop"], "nothing to validate among 18 series"),
        ([str(DATA / "gbench" / "gb.json"), "--models", "@only-qsort"], "not terms: 'BM_sort'"),
        ([str(COMPOSITIONS), "--out", str(COMPOSITIONS)], "it is the input being read"),
        ([str(COMPOSITIONS), "--no-builtin"], "--no-builtin without --models: no models to validate"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, tmp_path: Path, args, message) -> None:
    files = {"@only-qsort": "qsort = 1034.17*x*log2(x)", "@only-nop": "nop = 5422.97"}
    for text in files.values():
        atom, _, model = text.partition(" = ")
        (tmp_path / f"{atom}.toml").write_text(f'format = 1\n[models.{atom}]\nmodel = "{model}"\n')
    args = [str(tmp_path / f"{a[6:]}.toml") if a in files else a for a in args]
    status, out, err = cli(capsys, "validate", *args)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err
    assert err.startswith("patternalg validate: error: ")


def test_no_builtin_is_what_validate_does_with_models_anyway(capsys, fitted: Path) -> None:
    # other commands take --no-builtin; validate took only --builtin and suggested it
    runs = [cli(capsys, "validate", str(COMPOSITIONS), "--models", str(fitted), "--format", "csv", *extra)
            for extra in ([], ["--no-builtin"])]  # fmt: skip
    assert runs[0] == runs[1] and runs[0][0] == 0


def test_without_models_the_builtins_are_validated(capsys) -> None:
    status, out, err = cli(capsys, "validate", str(COMPOSITIONS), "--format", "csv")
    assert status == 0 and "no --models: validating the built-in models" in err
    assert len(out.splitlines()) == 163


def test_plot_validate_draws_a_picture(capsys, tmp_path: Path, fitted: Path) -> None:
    pytest.importorskip("matplotlib")
    picture = tmp_path / "v.svg"
    status, _, _ = cli(
        capsys, "plot", "--validate", str(COMPOSITIONS), "--models", str(fitted), "-o", str(picture)
    )
    assert status == 0
    text = picture.read_text()
    assert "predicted = measured" in text and "tpool_4(qsort)" in text


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: validate(42, {"k": "x"}), "measurements"),
        (lambda: validate(COMPOSITIONS, 42), "models"),
        (lambda: validate(COMPOSITIONS, {"k": "x"}, aggregate="mode"), "aggregate"),
    ],
)
def test_wrong_arguments_are_named(call, name) -> None:
    from patternalg.errors import ArgumentError

    with pytest.raises(ArgumentError, match=rf"^{name}: expected"):
        call()


def test_bench_fidelity_rules_are_the_measured_atoms_composed() -> None:
    """bench_fidelity's row ``measured`` (by validate, each atom the constant of its measured
    median at the size) against the rules computed by hand: seq adds, pipe takes the larger,
    tpool_n divides."""
    from helpers import load_module

    bench = load_module("benchmarks", "bench_fidelity")
    errors = bench.rule_errors(RUN)
    atoms = {s.kernel: s.aggregate("median") for s in read(ATOMS)}
    measured = {s.kernel: s.aggregate("median") for s in read(COMPOSITIONS)}
    assert errors.shape == (len(measured), len(atoms["inc"]))
    by_hand = {
        "seq(inc, nop)": atoms["inc"] + atoms["nop"],
        "pipe(qsort, inc)": np.maximum(atoms["qsort"], atoms["inc"]),
        "tpool_4(qsort)": atoms["qsort"] / 4,
    }
    for term, predicted in by_hand.items():
        row = list(measured).index(term)
        np.testing.assert_allclose(
            errors[row], predicted / measured[term] - 1, rtol=1e-9, atol=1e-12
        )


def test_atoms_without_an_uncertainty_are_named_in_one_note(capsys) -> None:
    """Each term's interval named its own atoms without an uncertainty: the built-in models
    against a run of 21 compositions printed seven notes, one per subset of inc, nop, qsort."""
    run = Path(__file__).resolve().parents[1] / "benchmarks" / "realdata" / "data13" / "compositions.txt"
    assert main(["validate", str(run), "--interval", "0.9"]) == 0
    notes = [line for line in capsys.readouterr().err.splitlines() if "no uncertainty recorded" in line]
    assert notes == [
        "note: no uncertainty recorded for inc, nop, qsort (a model given, not fitted): "
        "counted as exact in the interval"
    ]


def test_plot_validate_takes_an_interval_with_validate_s_default_seed(capsys, tmp_path: Path, fitted: Path) -> None:
    """``--seed`` is memwall's in plot (None when not given) and went to validate as is:
    "seed: expected an integer >= 0; got None" (exit 2) unless --seed was given."""
    pytest.importorskip("matplotlib")
    args = ["plot", "--validate", str(COMPOSITIONS), "--models", str(fitted), "--interval", "0.9"]
    status, _, err = cli(capsys, *args, "-o", str(tmp_path / "default.svg"))
    assert status == 0, err
    assert cli(capsys, *args, "--seed", "0", "-o", str(tmp_path / "zero.svg"))[0] == 0
    assert (tmp_path / "default.svg").read_bytes() == (tmp_path / "zero.svg").read_bytes()  # validate's default: 0
    with pytest.raises(SystemExit):
        main(["plot", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "--seed S seeds its draws (default 0)" in shown


def test_a_file_given_twice_is_one_error(tmp_path: Path, capsys) -> None:
    """Its runs were counted twice ("all 324 cells"), each term listed twice with nothing to
    tell the copies apart (probe U)."""
    path = RUN / "compositions.txt"
    assert main(["validate", str(path), str(path.parent / "." / path.name)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.strip().endswith("the file is given twice; give each measurement file once")
    assert len(err.strip().splitlines()) == 1


def test_the_python_validate_refuses_a_file_given_twice(tmp_path: Path) -> None:
    """Only the command refused it: validate([f, ./f], models) counted each cell twice (F19)."""
    from patternalg.errors import MeasurementError

    path = RUN / "compositions.txt"
    again = str(path.parent / "." / path.name)
    for twice in ([path, again], [read(path), read(again)]):
        with pytest.raises(MeasurementError, match="the file is given twice; give each measurement file once"):
            validate(twice, ModelLibrary.builtin())


def test_a_skipped_atom_names_how_many_models_there_are_beyond_those_shown() -> None:
    """'(the models: k0, k1, k2, k3, k4, k5)' named 6 of 9 models as if they were all."""
    from patternalg.evidence import validate
    from patternalg.measurements.csv import CsvReader

    ms = CsvReader.read("m.csv", "kernel,x,time\nqsort,1,2\nqsort,2,4\nzz,1,1\nzz,2,2\n")
    library = {**{f"k{i}": "x" for i in range(8)}, "qsort": "2*x"}
    assert validate(ms, library).notes == (
        "skipped 'zz': no model of zz (the models: k0, k1, k2, k3, k4, k5 and 3 more)",
    )
