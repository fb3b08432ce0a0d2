"""Reading measurements: Extra-P's text, JSON, JSON Lines and TaLPas formats, and CSV."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from patternalg.errors import MeasurementError
from patternalg.forms.pmnf import fit_measurements
from patternalg.measurements import MeasurementSet, detect_format, read_measurements

EXTRAP = Path(__file__).parent / "data" / "extrap"  # vendored, see its README.md
DATA = EXTRAP / "tests" / "data"

#: the x = 20..60 data of Extra-P's tests, as text and as TaLPas (same repetitions)
SAME_DATA = [DATA / "input" / "input_data_1p.txt", DATA / "talpas" / "talpas_1.txt"]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def as_formats(ms: MeasurementSet, tmp_path: Path) -> dict[str, Path]:
    """The single-parameter set ``ms`` written in every format we read."""
    (name,) = ms.parameters
    text = [
        f"PARAMETER {name}",
        "POINTS " + " ".join(f"({float(p[0])!r})" for p in ms.series[0].points),
    ]
    jsonl, talpas, csv = [], [], [f"kernel,metric,{name},value"]
    tree: dict = {"parameters": [name], "measurements": {}}
    for s in ms.series:
        text += [f"REGION {s.kernel}", f"METRIC {s.metric}"]
        entries = tree["measurements"].setdefault(s.kernel, {}).setdefault(s.metric, [])
        for point, values in zip(s.points, s.values, strict=True):
            text.append("DATA " + " ".join(repr(float(v)) for v in values))
            entries.append({"point": [float(point[0])], "values": [float(v) for v in values]})
            for v in values:
                obj = {"callpath": s.kernel, "metric": s.metric, "value": float(v)}
                jsonl.append(json.dumps({"params": {name: float(point[0])}, **obj}))
                talpas.append(
                    json.dumps({"parameters": {name: float(point[0])}, **obj}).replace(",", ";")
                )
                csv.append(f"{s.kernel},{s.metric},{float(point[0])!r},{float(v)!r}")
    files = {
        "text": write(tmp_path, "m.txt", "\n".join(text) + "\n"),
        "json": write(tmp_path, "m.json", json.dumps(tree)),
        "jsonl": write(tmp_path, "m.jsonl", "\n".join(jsonl) + "\n"),
        "talpas": write(tmp_path, "m.talpas", "\n".join(talpas) + "\n"),
        "csv": write(tmp_path, "m.csv", "\n".join(csv) + "\n"),
    }
    return files


def summary(ms: MeasurementSet) -> list[tuple]:
    return [
        (s.kernel, s.metric, s.points[:, 0].tolist(), s.aggregate("mean").tolist())
        for s in ms.series
    ]


# --- Extra-P's own inputs ------------------------------------------------------------------
def test_extrap_text_file_is_read_with_kernels_metrics_and_lines() -> None:
    ms = read_measurements(DATA / "text" / "one_parameter_6.txt")
    assert ms.format == "text" and ms.parameters == ("p",)
    assert [(s.kernel, s.metric, s.line) for s in ms.series] == [
        ("met1", "", 4),
        ("met2", "", 11),
        ("met3", "", 18),
        ("met4", "", 25),
    ]
    assert ms.series[0].points[:, 0].tolist() == [1000, 2000, 4000, 8000, 16000]
    assert ms.series[1].values[4].tolist() == [256.01, 255.99, 256, 256]  # 4 repetitions
    assert ms.series[0].aggregate("mean")[4] == pytest.approx(4.2)


def test_text_file_with_metrics_after_regions() -> None:
    ms = read_measurements(DATA / "text" / "one_parameter_5.txt")
    assert [(s.kernel, s.metric) for s in ms.series] == [
        ("merge", "time"),
        ("sort", "time"),
        ("merge", "flops"),
        ("sort", "flops"),
    ]


def test_points_without_brackets_and_one_point_per_line() -> None:
    seven = read_measurements(DATA / "text" / "one_parameter_7.txt")
    six = read_measurements(DATA / "text" / "one_parameter_6.txt")
    assert summary(seven)[0] == summary(six)[0]
    assert read_measurements(SAME_DATA[0]).series[0].points[:, 0].tolist() == [20, 30, 40, 50, 60]


def test_text_and_talpas_inputs_of_extrap_hold_the_same_data() -> None:
    text, talpas = (read_measurements(p) for p in SAME_DATA)
    assert talpas.format == "talpas" and talpas.parameters == ("x",)
    assert [v.tolist() for v in text.series[0].values] == [
        v.tolist() for v in talpas.series[0].values
    ]


def test_json_and_json_lines_of_extrap() -> None:
    ms = read_measurements(DATA / "json" / "new" / "input1.json")
    assert ms.format == "json" and summary(ms) == [
        ("sweep", "time", [4, 8, 16, 32, 64], [3.5, 5.5, 9.5, 17.5, 33.5])
    ]
    lines = read_measurements(DATA / "jsonlines" / "input_1.jsonl")
    assert lines.format == "jsonl" and lines.parameters == ("x", "y")
    assert lines.series[0].kernel == "<root>" and len(lines.series[0].points) == 25
    two = read_measurements(DATA / "text" / "two_parameter_1.txt")
    assert two.parameters == ("x", "y") and two.series[0].points.shape == (25, 2)


def test_every_format_reads_the_same_data_and_gives_the_same_models(tmp_path: Path) -> None:
    original = read_measurements(DATA / "text" / "one_parameter_3.txt")
    models = [r.model.expr for r in fit_measurements(original)]
    for fmt, path in as_formats(original, tmp_path).items():
        ms = read_measurements(path)
        assert ms.format == fmt
        assert summary(ms) == summary(original), fmt
        assert [r.model.expr for r in fit_measurements(ms)] == models, fmt


def test_metric_filter(tmp_path: Path) -> None:
    ms = read_measurements(DATA / "text" / "one_parameter_3.txt", metric="flops")
    assert [(s.kernel, s.metric) for s in ms.series] == [("compute", "flops")]
    with pytest.raises(MeasurementError, match=r"no metric 'bytes' \(the file has: flops, time\)"):
        read_measurements(DATA / "text" / "one_parameter_3.txt", metric="bytes")


def test_csv_value_column_by_metric_and_default_kernel(tmp_path: Path) -> None:
    path = write(tmp_path, "m.csv", "n,time,bytes\n1,5,50\n2,6,60\n2,7,70\n")
    ms = read_measurements(path)
    assert ms.parameters == ("n",) and summary(ms) == [("kernel", "bytes", [1, 2], [50, 65])]
    assert summary(read_measurements(path, metric="time")) == [("kernel", "time", [1, 2], [5, 6.5])]
    tagged = write(tmp_path, "t.csv", "kernel,metric,n,value\na,time,1,5\na,bytes,1,50\n")
    assert summary(read_measurements(tagged, metric="bytes")) == [("a", "bytes", [1], [50])]
    with pytest.raises(MeasurementError, match=r"no metric 'flops' \(the file has: bytes, time\)"):
        read_measurements(tagged, metric="flops")


def test_detect_format() -> None:
    assert detect_format("a.csv", "x,y\n") == "csv"
    assert detect_format("a.dat", '{"parameters":{"x":20};"metric":"t"}') == "talpas"
    assert detect_format("a.dat", '{\n "parameters": ["x"]}') == "json"
    assert detect_format("a.dat", "# comment\nPARAMETER x\n") == "text"


# --- errors: file, line and reason -------------------------------------------------------
HEAD = "PARAMETER x\nPOINTS 1 2 3\nREGION a\n"

ERRORS = [
    (
        HEAD + "DATA 1\nDATA 2\nREGION b\nDATA 1\nDATA 2\nDATA 3\n",
        r"m.txt:5: REGION 'a' has 2 DATA lines but POINTS lists 3 points",
    ),
    (
        HEAD + "DATA 1\nDATA 2\nDATA 3\nDATA 4\n",
        r"m.txt:7: REGION 'a' has more DATA lines than the 3 POINTS",
    ),
    (HEAD + "DATA 1\nDATA two\nDATA 3\n", r"m.txt:5: 'two' is not a number"),
    (HEAD + "DATA 1\nDATA nan\nDATA 3\n", r"m.txt:5: nan is not finite"),
    (HEAD + "DATA 1\nDATA 2 inf\nDATA 3\n", r"m.txt:5: inf is not finite"),
    (HEAD + "REGION b\nDATA 1\nDATA 2\nDATA 3\n", r"m.txt:3: REGION 'a' has no DATA lines"),
    (HEAD + "DATUM 1\n", r"m.txt:4: unknown field 'DATUM' \(valid: PARAMETER, POINTS"),
    ("POINTS 1 2\n", r"m.txt:1: POINTS before any PARAMETER line"),
    ("PARAMETER x y\nPOINTS (1 2) (3)\n", r"m.txt:2: point \(3\) has 1 coordinates for 2"),
    ("PARAMETER x\nPOINTS 1 2\nDATA 1\n", r"m.txt:3: DATA before any REGION line"),
    ("\n\n", r"m.txt: the file is empty"),
]


@pytest.mark.parametrize(("text", "message"), ERRORS)
def test_text_format_errors(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(MeasurementError, match=message):
        read_measurements(write(tmp_path, "m.txt", text))


LINE_ERRORS = [
    (
        "m.jsonl",
        '{"params": {"x": 1}, "value": 2}\n{"params": {"x": 2}}\n',
        r"m.jsonl:2: missing property 'value'",
    ),
    (
        "m.jsonl",
        '{"params": {"x": 1}, "value": 2}\n{"params": {"y": 2}, "value": 1}\n',
        r"m.jsonl:2: parameters y differ from the first line's x",
    ),
    ("m.jsonl", '{"params": {"x": 1}, "value": "fast"}\n', r"m.jsonl:1: 'fast' is not a number"),
    ("m.jsonl", '{"params": {"x": 1}, "value": 2}\n{"params": \n', r"m.jsonl:2: not a JSON object"),
    (
        "m.json",
        '{"parameters": ["x"], "measurements": {"a": {"t": []}}}',
        r"m.json:measurements.a.t: expected a non-empty list of points",
    ),
    (
        "m.json",
        '{"parameters": ["x"], "measurements": {"a": {"t": [{"point": [1], "values": [1, NaN]}]}}}',
        r"m.json:measurements.a.t\[0\].values: nan is not finite",
    ),
    ("m.json", '{"parameters": ["x"], "measurements": ', r"m.json:1: not valid JSON"),
    (
        "m.talpas",
        '{"parameters":{"x":1};"metric":"t";"value":1}\n',
        r"m.talpas:1: missing property 'callpath'",
    ),
    (
        "m.csv",
        "kernel,x,time\nsort,1,2\n,2,3\n",
        r"m.csv:3: the kernel name is empty|"
        r"m.csv:3: column 'kernel' is empty",
    ),
    ("m.csv", "kernel,x,time\nsort,1,fast\n", r"m.csv:2: column 'time': 'fast' is not a number"),
    ("m.csv", "kernel,x\nsort,1\n", r"m.csv:1: need a parameter column and a value column"),
]


@pytest.mark.parametrize(("name", "text", "message"), LINE_ERRORS)
def test_line_format_errors(tmp_path: Path, name: str, text: str, message: str) -> None:
    fmt = "talpas" if name.endswith(".talpas") else None
    with pytest.raises(MeasurementError, match=message):
        read_measurements(write(tmp_path, name, text), fmt)


def test_aggregates_of_uneven_repetitions() -> None:
    ms = read_measurements(DATA / "text" / "one_parameter_6.txt")
    met2 = ms.series[1]
    assert met2.aggregate("median")[4] == 256.0
    assert met2.aggregate("min")[3] == 63.99 and met2.aggregate("max")[1] == 4.01
    np.testing.assert_allclose(met2.aggregate("mean"), [1, 4, 16.0018, 64, 256])
