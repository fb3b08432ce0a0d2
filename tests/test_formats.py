"""A measurement file is read by what it holds, not by its name (issue 29, findings 12, 17, 20).

Real files: Extra-P's own test data, vendored under ``tests/data/extrap``.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from patternalg.cli import main
from patternalg.errors import MeasurementError
from patternalg.forms.columns import column_warnings
from patternalg.forms.pmnf import PMNF
from patternalg.measurements import read

EXTRAP = Path(__file__).parent / "data" / "extrap" / "tests" / "data"
TEXT = EXTRAP / "text" / "one_parameter_1.txt"
JSONL = EXTRAP / "jsonlines" / "input_1.jsonl"


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("source", [TEXT, JSONL, EXTRAP / "talpas" / "talpas_1.txt"])
@pytest.mark.parametrize("suffix", [".csv", ".txt", ".jsonl", ""])
def test_the_content_decides_the_format_whatever_the_name(
    tmp_path: Path, source: Path, suffix: str
) -> None:
    renamed = tmp_path / f"data{suffix}"
    shutil.copy(source, renamed)
    ms, reference = read(renamed), read(source)
    assert ms.format == reference.format
    assert [(s.kernel, s.metric, s.points.tolist()) for s in ms] == [
        (s.kernel, s.metric, s.points.tolist()) for s in reference
    ]


def test_fit_of_an_extrap_text_file_named_csv_fits_it(tmp_path: Path, capsys) -> None:
    renamed = tmp_path / "one_parameter_1.csv"
    shutil.copy(TEXT, renamed)
    status, out, err = _cli(capsys, "fit", str(renamed))
    assert status == 0, err
    assert out == _cli(capsys, "fit", str(TEXT))[1]


@pytest.mark.parametrize("command", [["fit"], ["predict", "--upto", "60"], ["plot", "--fit"]])
def test_a_model_file_given_as_measurements_says_what_it_is(
    tmp_path: Path, capsys, command: list[str]
) -> None:
    models = tmp_path / "m.toml"
    assert _cli(capsys, "fit", str(TEXT), "--out", str(models))[0] == 0
    for name in ("m.toml", "m.csv", "m.txt"):
        path = tmp_path / name
        if path != models:
            shutil.copy(models, path)
        extra = ["-o", str(tmp_path / "p.png")] if command[0] == "plot" else []
        status, out, err = _cli(capsys, *command, str(path), *extra)
        assert (status, out) == (2, "")
        assert err.splitlines() == [
            f"patternalg {command[0]}: error: {path}: is a model file: use --models FILE"
        ]


STRONG = EXTRAP / "text" / "strong_scaling" / "one_parameter_6.txt"


@pytest.mark.parametrize("layout", ["text", "jsonl"])
def test_predict_reads_what_fit_reads(tmp_path: Path, capsys, layout: str) -> None:
    """``predict`` of Extra-P's strong-scaling measurements, as its text file or as JSON
    Lines, predicts what it predicts from the same measurements written as CSV."""
    ms = read(STRONG)
    rows, lines = ["kernel,p,time"], []
    for s in ms:
        for point, values in zip(s.points[:, 0].tolist(), s.values, strict=True):
            rows += [f"{s.kernel},{point:g},{v!r}" for v in values.tolist()]
            lines += [
                json.dumps(
                    {"params": {"p": point}, "callpath": s.kernel, "metric": "time", "value": v}
                )
                for v in values.tolist()
            ]
    as_csv, as_jsonl = tmp_path / "same.csv", tmp_path / "same.data"
    as_csv.write_text("\n".join(rows) + "\n")
    as_jsonl.write_text("\n".join(lines) + "\n")
    source = STRONG if layout == "text" else as_jsonl
    options = ["--upto", "16", "--lower-is-better", "--format", "json"]
    status, out, err = _cli(capsys, "predict", str(source), *options)
    assert status == 0, err
    assert json.loads(out) == json.loads(_cli(capsys, "predict", str(as_csv), *options)[1])


def _as_csv(source: Path, sep: str, header: tuple[str, str], trailing: int, named: bool) -> str:
    """The measurements of ``source`` as a spreadsheet saves them: ``sep=`` first (if
    ``named``), ``trailing`` empty columns after the last named one."""
    ms = read(source)
    (s,) = ms.series
    empty = sep * trailing
    rows = [sep.join(header) + empty]
    for point, values in zip(s.points[:, 0].tolist(), s.values, strict=True):
        rows += [f"{point:g}{sep}{v!r}{empty}" for v in values.tolist()]
    return (f"sep={sep}\n" if named else "") + "\n".join(rows) + "\n"


@settings(deadline=None, max_examples=40)
@given(
    sep=st.sampled_from([",", ";", "\t"]),
    annotation=st.sampled_from(["", " (elements)", "[count]", " [ms]", " (s)"]),
    trailing=st.integers(0, 3),
    named=st.booleans(),
)
def test_a_spreadsheet_csv_reads_as_the_plain_one(
    sep: str, annotation: str, trailing: int, named: bool
) -> None:
    """``sep=`` honoured, empty trailing columns ignored, a parameter's bracketed unit or
    remark not part of its name, and a warning that it looks like a time only for a time
    unit."""
    with tempfile.TemporaryDirectory() as folder:
        plain, saved = Path(folder) / "k.csv", Path(folder) / "k2.csv"
        plain.write_text(_as_csv(TEXT, ",", ("x", "time"), 0, False))
        saved.write_text(_as_csv(TEXT, sep, (f"X{annotation}", "Time [us]"), trailing, named))
        ms, reference = read(saved), read(plain)
        assert ms.parameters == ("x",)
        assert ms.unit == "us"
        assert [(s.points.tolist(), [v.tolist() for v in s.values]) for s in ms] == [
            (s.points.tolist(), [v.tolist() for v in s.values]) for s in reference
        ]
        warned = any("looks like a time" in w for w in column_warnings(ms))
        assert warned == (annotation in (" [ms]", " (s)"))


@pytest.mark.parametrize(
    ("metric", "unit"),
    [
        ("visits", "dimensionless"),
        ("bytes_sent", "dimensionless"),
        ("PAPI_TOT_INS", "dimensionless"),
        ("flops", "dimensionless"),
        ("energy", "dimensionless"),
        ("calls", "dimensionless"),
        ("time", "ns"),
        ("time_us", "us"),
        ("metr", "ns"),
    ],
)
def test_a_metric_that_is_not_a_time_gets_no_time_unit(
    tmp_path: Path, capsys, metric: str, unit: str
) -> None:
    """Extra-P's file with its METRIC renamed: fitted (fast path and reference path alike)
    in a time unit only if the metric is a time."""
    path = tmp_path / "m.txt"
    path.write_text(TEXT.read_text().replace("METRIC time", f"METRIC {metric}"))
    status, out, err = _cli(capsys, "fit", str(path))
    assert status == 0, err
    assert out.splitlines()[0].endswith(f"[{unit}]")
    (report,) = PMNF.fit_each(read(path))
    assert report.unit == unit


# --- repetitions that are not finite (issue 29, finding 17) ---------------------------------

TWO_REGIONS = EXTRAP / "text" / "one_parameter_5.txt"


@settings(deadline=None, max_examples=30)
@given(st.data(), st.sampled_from(["text", "csv", "jsonl"]))
def test_repetitions_that_are_not_finite_are_dropped_with_a_note(data, fmt: str) -> None:
    """Extra-P's file with some repetitions NaN or infinite: read as the file without
    them, each dropped one named by its line in a note, a point left with none dropped
    with a note, the rest of the file read."""
    ms = read(TWO_REGIONS)
    cells = [
        (k, i, r) for k, s in enumerate(ms) for i, v in enumerate(s.values) for r in range(len(v))
    ]
    chosen = set(data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=12)))
    kinds = {
        c: data.draw(st.sampled_from(["nan", "inf", "-inf", "NaN", "Infinity"])) for c in chosen
    }
    lines, rows, records = [], ["kernel,metric,x,value"], []
    for k, s in enumerate(ms):
        lines += [f"REGION {s.kernel}", f"METRIC {s.metric}"]
        for i, values in enumerate(s.values):
            texts = [kinds.get((k, i, r), repr(v)) for r, v in enumerate(values.tolist())]
            lines.append("DATA " + " ".join(texts))
            x = f"{s.points[i, 0]:g}"
            rows += [f"{s.kernel},{s.metric},{x},{t}" for t in texts]
            records += [
                f'{{"params": {{"x": {x}}}, "callpath": "{s.kernel}", "metric": "{s.metric}", "value": {t}}}'
                for t in texts
            ]
    header = "PARAMETER x\nPOINTS " + " ".join(f"{v:g}" for v in ms.series[0].points[:, 0]) + "\n"
    text = {
        "text": header + "\n".join(lines) + "\n",
        "csv": "\n".join(rows) + "\n",
        "jsonl": "\n".join(records).replace("-inf", "-Infinity").replace(": inf", ": Infinity")
        + "\n",
    }[fmt]
    if fmt == "jsonl":
        text = text.replace(": nan", ": NaN")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"m.{fmt}"
        path.write_text(text)
        if len(chosen) == len(cells):
            with pytest.raises(MeasurementError, match="no finite measurements"):
                read(path)
            return
        got = read(path)
    expected = {
        (s.kernel, s.metric, float(s.points[i, 0])): [
            v for r, v in enumerate(values.tolist()) if (k, i, r) not in chosen
        ]
        for k, s in enumerate(ms)
        for i, values in enumerate(s.values)
    }
    assert {
        (s.kernel, s.metric, float(p)): v.tolist()
        for s in got
        for p, v in zip(s.points[:, 0], s.values, strict=True)
    } == {key: v for key, v in expected.items() if v}
    dropped = [n for n in got.notes if "not finite" in n]
    assert sum(int(n.split("dropped ")[1].split()[0]) for n in dropped) == len(chosen)
    assert all(n.startswith(f"{path}:") for n in got.notes)
    empty = [key for key, v in expected.items() if not v]
    assert sum("the point is dropped" in n for n in got.notes) == len(empty)
    gone = {(s.kernel, s.metric) for s in ms} - {(s.kernel, s.metric) for s in got}
    assert sum("not fitted" in n for n in got.notes) == len(gone)


def test_fit_of_a_file_with_a_nan_repetition_fits_it_without(tmp_path: Path, capsys) -> None:
    """One ``nan`` among the repetitions of Extra-P's file: ``fit`` fits what is left (as
    the file without it), and a note names the line."""
    text = TEXT.read_text().splitlines()
    at = next(i for i, line in enumerate(text) if line.startswith("DATA "))
    words = text[at].split()
    with_nan, without = list(text), list(text)
    with_nan[at] = " ".join([*words[:2], "nan", *words[3:]])
    without[at] = " ".join([*words[:2], *words[3:]])
    (tmp_path / "nan.txt").write_text("\n".join(with_nan) + "\n")
    (tmp_path / "without.txt").write_text("\n".join(without) + "\n")
    status, out, err = _cli(capsys, "fit", str(tmp_path / "nan.txt"))
    assert status == 0, err
    assert out == _cli(capsys, "fit", str(tmp_path / "without.txt"))[1]
    assert (
        f"note: {tmp_path / 'nan.txt'}:{at + 1}: kernel 'compute', metric 'time': dropped 1" in err
    )
