"""One kernel that cannot be fitted loses none of the others: ``fit`` fits and writes the
rest and says, one warning line each, which kernels it left out and why; status 2 (one error
line, nothing printed or written) only when it can do none."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from patternalg.cli import main
from patternalg.errors import FitError
from patternalg.forms import Amdahl, Presca

GOOD = "".join(f"a,{x},{3 * x}\n" for x in (1, 2, 4, 8, 16))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, list[str]]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, [line for line in err.splitlines() if not line.startswith("note:")]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_kernel_with_too_few_points_is_an_error_line_and_the_others_are_fitted(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "k.csv"
    data.write_text("kernel,x,time\n" + GOOD + "b,1,1\nb,2,2\n" + GOOD.replace("a,", "c,"))
    out = tmp_path / "m.toml"
    status, printed, errors = run(capsys, "fit", str(data), "--out", str(out), "--format", fmt, "-q")
    assert status == 0
    assert errors == [
        f"warning: {data}:7: kernel 'b', metric 'time': 2 measured points; a pmnf fit needs at "
        "least 3 distinct values of the parameter (Extra-P advises 5) (left out; the other "
        "kernels are fitted)"
    ]
    assert sorted(tomllib.loads(out.read_text())["models"]) == ["a", "c"]
    assert "a" in printed and "c" in printed and "b:" not in printed and '"b"' not in printed


NEG2 = (
    "PARAMETER x\nPOINTS ( 1 ) ( 2 ) ( 4 ) ( 8 ) ( 16 )\nREGION good\nDATA 1\nDATA 2\nDATA 4\n"
    "DATA 8\nDATA 16\nREGION bad\nDATA 1 1\nDATA -2 2\nDATA 4\nDATA 8\nDATA 16\n"
)


@pytest.mark.parametrize(
    ("bad", "warning"),
    [
        ("DATA -2 2", "neg2.txt:11: kernel 'bad': the time -2 is not positive"),
        ("DATA 1e999 2", "neg2.txt:11: kernel 'bad': 1e999 overflows a float"),
        ("DATA abc 2", "neg2.txt:11: kernel 'bad': 'abc' is not a number"),
    ],
)
def test_a_kernel_with_a_bad_value_is_left_out_with_a_warning_and_the_others_are_fitted(
    bad: str, warning: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One bad value in one kernel refused the whole file, and every other kernel was lost."""
    data = tmp_path / "neg2.txt"
    data.write_text(NEG2.replace("DATA -2 2", bad))
    out = tmp_path / "m.toml"
    status, printed, errors = run(capsys, "fit", "-q", str(data), "--out", str(out))
    assert status == 0 and printed.startswith("good: x  [ns]")
    assert len(errors) == 1 and errors[0].startswith(f"warning: {tmp_path}/{warning}")
    assert errors[0].endswith("(left out; the other kernels are fitted)")
    assert sorted(tomllib.loads(out.read_text())["models"]) == ["good"]


def test_fit_each_hands_a_kernel_with_a_negative_time_to_on_error(tmp_path: Path) -> None:
    from patternalg.errors import MeasurementError
    from patternalg.forms import PMNF
    from patternalg.measurements import read

    data = tmp_path / "neg2.txt"
    data.write_text(NEG2)
    failed: list[Exception] = []
    assert [r.atom for r in PMNF.fit_each(read(data), on_error=failed.append)] == ["good"]
    assert [type(e) for e in failed] == [MeasurementError] and "the time -2" in str(failed[0])


def test_many_kernels_left_out_are_named_up_to_twenty_then_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """5,000 runs that could not be read made 5,000 warning lines."""
    data = tmp_path / "k.csv"
    data.write_text("kernel,x,time\n" + GOOD + "".join(f"b{k},1,1\nb{k},2,2\n" for k in range(25)))
    status, printed, errors = run(capsys, "fit", str(data), "-q")
    assert status == 0 and "a:" in printed
    assert len(errors) == 21 and all("kernel 'b" in e for e in errors[:20])
    assert errors[-1] == "warning: 5 more left out alike (the first 20 are shown)"


def test_when_no_kernel_can_be_fitted_it_is_the_first_error_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "k.csv"
    data.write_text("kernel,x,time\nb,1,1\nb,2,2\nd,4,1\n")
    out = tmp_path / "m.toml"
    out.write_text("format = 1\n")  # an older model file stays as it was
    status, printed, errors = run(capsys, "fit", str(data), "--out", str(out))
    assert status == 2 and not printed and out.read_text() == "format = 1\n"
    assert len(errors) == 1 and "kernel 'b'" in errors[0]


def test_a_family_fitted_series_by_series_leaves_out_the_one_that_fails(tmp_path: Path) -> None:
    """Amdahl fits each series alone (the base fitter); PreSca has its own loop."""
    rows = "".join(f"{k},{x},{p},{x * (0.1 + 0.9 / p)}\n" for k in ("a", "c") for x in (1, 2, 4) for p in (1, 2, 4))
    data = tmp_path / "m.csv"
    data.write_text("kernel,x,p,time\n" + rows + "b,1,2,1\nb,2,2,2\n")
    failed: list[FitError] = []
    reports = Amdahl.fit_each(str(data), on_error=failed.append)
    assert [r.atom for r in reports] == ["a", "c"]
    assert [str(e).partition(" to fit")[0] for e in failed] == [f"{data}: kernel 'b', column 'p': no rows with p = 1"]
    scaling = tmp_path / "s.csv"
    scaling.write_text("kernel,p,time\n" + "".join(f"w,{p},{10 / p + p}\n" for p in (1, 2, 3, 4)) + "one,1,10\n")
    failed.clear()
    assert [r.atom for r in Presca.fit_each(str(scaling), on_error=failed.append)] == ["w"]
    assert len(failed) == 1 and "kernel 'one', metric 'time': PreSca needs at least 2" in str(failed[0])
    with pytest.raises(FitError, match="kernel 'one'"):  # without on_error: the error, as before
        Presca.fit_each(str(scaling))


def test_predict_predicts_the_workloads_it_can_and_names_the_one_it_cannot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "w.csv"
    data.write_text("kernel,p,time\n" + "".join(f"w,{p},{10 / p + p}\n" for p in (1, 2, 3, 4)) + "one,1,10\n")
    status, printed, errors = run(capsys, "predict", str(data), "--upto", "4")
    assert status == 0 and printed.startswith("w: ") and "one" not in printed
    assert errors == [
        f"warning: {data}:6: kernel 'one', metric 'time': PreSca needs at least 2 measurements, "
        "got 1 (left out; the other workloads are predicted)"
    ]


def test_plot_fit_draws_the_kernels_it_can_fit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    data = tmp_path / "k.csv"
    data.write_text("kernel,x,time\n" + GOOD + "b,1,1\nb,2,2\n")
    out = tmp_path / "k.svg"
    status, _, errors = run(capsys, "plot", "--fit", str(data), "-o", str(out))
    assert status == 0 and len(errors) == 1 and errors[0].startswith(f"warning: {data}:7: kernel 'b'")
    svg = out.read_text()
    assert ">a<" in svg and ">b<" not in svg  # a's panel drawn, none for b


def test_profile_leaves_out_a_run_it_cannot_read_and_models_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lulesh = Path(__file__).parent / "data" / "profiles" / "lulesh"
    for cali in lulesh.glob("*.cali"):
        (tmp_path / cali.name).write_bytes(cali.read_bytes())
    cut = tmp_path / "343_cores.cali"
    cut.write_bytes(cut.read_bytes()[:3000])  # a run cut short inside a record
    (tmp_path / "999_cores.cali").write_text("not a profile\n")
    status, printed, errors = run(capsys, "profile", str(tmp_path), "--param", "mpi.world.size=p")
    assert status == 0 and "measured at p = 27, p = 64, p = 125, p = 216\n" in printed
    assert len(errors) == 2 and all(e.startswith("warning: ") for e in errors)
    assert all(e.endswith("(left out; the other runs are modelled)") for e in errors)
    assert any(f"{cut}: the file ends inside a record" in e for e in errors)
    assert any("999_cores.cali" in e for e in errors)


def test_a_point_at_x_0_is_left_out_with_a_warning_and_its_kernel_fitted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A kernel also measured on an empty input (x = 0) was lost whole ('parameter value 0
    is not positive'); only the point is: log2(x) and x^i are not defined there."""
    data = tmp_path / "z.csv"
    rows = "".join(f"k,{x},{x + 1}\n" for x in range(17))
    data.write_text("kernel,x,time\n" + rows + GOOD)
    out = tmp_path / "m.toml"
    status, printed, errors = run(capsys, "fit", "-q", str(data), "--out", str(out))
    assert status == 0
    assert errors == [
        f"warning: {data}:2: kernel 'k', metric 'time': x = 0 left out: a pmnf term (log2(x), "
        "x^i) is not defined at x <= 0; fitted on the other 16 points"
    ]
    models = tomllib.loads(out.read_text())["models"]
    assert sorted(models) == ["a", "k"] and models["k"]["x_range"] == [1.0, 16.0]
    assert "k: x + 1  [ns]" in printed


def test_form_fit_of_one_series_warns_of_a_point_left_out(tmp_path: Path) -> None:
    """``PMNF.fit`` (one series, no report) left the point at x = 0 out without a word; it
    says so as a Python warning, pointing at the caller's line."""
    from patternalg.forms import PMNF
    from patternalg.measurements import read

    data = tmp_path / "z.csv"
    data.write_text("kernel,x,time\n" + "".join(f"k,{x},{x + 1}\n" for x in range(17)))
    with pytest.warns(UserWarning, match=r"z\.csv:2: kernel 'k', metric 'time': x = 0 left out") as caught:
        model = PMNF.fit(read(str(data)))
    assert caught[0].filename == __file__ and model.domain["x"] == (1.0, 16.0)


def test_too_few_points_above_0_leave_that_kernel_out_naming_the_points_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "z.csv"
    data.write_text("kernel,x,time\nk,1,2\nk,-1,1\nk,2,3\nk,0,1\n" + GOOD)
    status, printed, errors = run(capsys, "fit", "-q", str(data))
    assert status == 0 and printed.startswith("a: ")
    assert errors == [
        f"warning: {data}:2: kernel 'k', metric 'time': 2 measured points; a pmnf fit needs at "
        "least 3 distinct values of the parameter (Extra-P advises 5); 2 points with x <= 0 "
        "left out (line 3, x = -1: log2(x), x^i are not defined at x <= 0) (left out; the other "
        "kernels are fitted)"
    ]


def test_fit_each_leaves_out_points_with_a_parameter_at_0_in_two_parameters() -> None:
    """The multi-parameter fit refused the kernel ('parameter p = 0 is not positive')."""
    from patternalg.forms import PMNF
    from patternalg.measurements.csv import CsvReader

    grid = [(x, p) for x in (1, 2, 4, 8, 16) for p in (1, 2, 4, 8, 16)]
    text = "x,p,time\n" + "".join(f"{x},{p},{3 + x * p}\n" for x, p in [*grid, (0, 4), (4, 0)])
    (report,) = PMNF.fit_each(CsvReader.read("m.csv", text))
    assert report.fitted.statistics["points"] == 25 and report.notes == ()
    assert report.warnings == (
        "m.csv:27: kernel 'm', metric 'time': 2 points with a parameter <= 0 left out (the "
        "first: x = 0): a pmnf term (log2(x), x^i) is not defined at x <= 0; fitted on the "
        "other 25 points",
    )
    assert report.fitted(x=3.0, p=5.0) == pytest.approx(18.0)
