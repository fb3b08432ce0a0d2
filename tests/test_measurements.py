"""Reading measurements: Extra-P's text, JSON, JSON Lines and TaLPas formats, and CSV;
stdin, delimiters, deep nesting, units from column names, one atom name for every form."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from helpers import measurement_texts, run_cli

from patternalg.errors import MeasurementError
from patternalg.forms.pmnf import PMNF
from patternalg.measurements import READERS, Aggregation, Measurements, atom_name, read, sniff

EXTRAP = Path(__file__).parent / "data" / "extrap"  # vendored, see its README.md
DATA = EXTRAP / "tests" / "data"

#: the x = 20..60 data of Extra-P's tests, as text and as TaLPas (same repetitions)
SAME_DATA = [DATA / "input" / "input_data_1p.txt", DATA / "talpas" / "talpas_1.txt"]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def as_formats(ms: Measurements, tmp_path: Path) -> dict[str, Path]:
    """The single-parameter set ``ms`` written in every format we read."""
    (name,) = ms.parameters
    series = [
        (s.kernel, s.metric, [float(p[0]) for p in s.points], [list(v) for v in s.values])
        for s in ms.series
    ]
    texts = measurement_texts(name, series)
    return {fmt: write(tmp_path, file, text) for fmt, (file, text) in texts.items()}


def summary(ms: Measurements) -> list[tuple]:
    return [
        (s.kernel, s.metric, s.points[:, 0].tolist(), s.aggregate("mean").tolist())
        for s in ms.series
    ]


# --- Extra-P's own inputs ------------------------------------------------------------------
def test_extrap_text_file_is_read_with_kernels_metrics_and_lines() -> None:
    ms = read(DATA / "text" / "one_parameter_6.txt")
    assert ms.format == "text" and ms.parameters == ("p",)
    path = DATA / "text" / "one_parameter_6.txt"
    assert [(s.kernel, s.metric, str(s.location())) for s in ms.series] == [
        ("met1", "", f"{path}:5"),
        ("met2", "", f"{path}:12"),
        ("met3", "", f"{path}:19"),
        ("met4", "", f"{path}:26"),
    ]
    assert ms.series[1].lines[4] == (16,) * 4  # every repetition keeps its DATA line
    assert ms.series[0].points[:, 0].tolist() == [1000, 2000, 4000, 8000, 16000]
    assert ms.series[1].values[4].tolist() == [256.01, 255.99, 256, 256]  # 4 repetitions
    assert ms.series[0].aggregate("mean")[4] == pytest.approx(4.2)


def test_text_file_with_metrics_after_regions() -> None:
    ms = read(DATA / "text" / "one_parameter_5.txt")
    assert [(s.kernel, s.metric) for s in ms.series] == [
        ("merge", "time"),
        ("sort", "time"),
        ("merge", "flops"),
        ("sort", "flops"),
    ]


def test_points_without_brackets_and_one_point_per_line() -> None:
    seven = read(DATA / "text" / "one_parameter_7.txt")
    six = read(DATA / "text" / "one_parameter_6.txt")
    assert summary(seven)[0] == summary(six)[0]
    assert read(SAME_DATA[0]).series[0].points[:, 0].tolist() == [20, 30, 40, 50, 60]


def test_text_and_talpas_inputs_of_extrap_hold_the_same_data() -> None:
    text, talpas = (read(p) for p in SAME_DATA)
    assert talpas.format == "talpas" and talpas.parameters == ("x",)
    assert [v.tolist() for v in text.series[0].values] == [
        v.tolist() for v in talpas.series[0].values
    ]


def test_json_and_json_lines_of_extrap() -> None:
    ms = read(DATA / "json" / "new" / "input1.json")
    assert ms.format == "json" and summary(ms) == [
        ("sweep", "time", [4, 8, 16, 32, 64], [3.5, 5.5, 9.5, 17.5, 33.5])
    ]
    lines = read(DATA / "jsonlines" / "input_1.jsonl")
    assert lines.format == "jsonl" and lines.parameters == ("x", "y")
    assert lines.series[0].kernel == "<root>" and len(lines.series[0].points) == 25
    two = read(DATA / "text" / "two_parameter_1.txt")
    assert two.parameters == ("x", "y") and two.series[0].points.shape == (25, 2)


def test_every_format_reads_the_same_data_and_gives_the_same_models(tmp_path: Path) -> None:
    original = read(DATA / "text" / "one_parameter_3.txt")
    models = [r.model.expr for r in PMNF.fit_each(original)]
    for fmt, path in as_formats(original, tmp_path).items():
        ms = read(path)
        assert ms.format == fmt
        assert summary(ms) == summary(original), fmt
        assert [r.model.expr for r in PMNF.fit_each(read(path))] == models, fmt


def test_metric_filter(tmp_path: Path) -> None:
    ms = read(DATA / "text" / "one_parameter_3.txt", metric="flops")
    assert [(s.kernel, s.metric) for s in ms.series] == [("compute", "flops")]
    with pytest.raises(MeasurementError, match=r"no metric 'bytes' \(the file has: flops, time\)"):
        read(DATA / "text" / "one_parameter_3.txt", metric="bytes")


def test_csv_value_column_by_metric_and_kernel_named_after_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "n,time,bytes\n1,5,50\n2,6,60\n2,7,70\n"
    path = write(tmp_path, "2d-fft.csv", text)
    ms = read(path)  # each column named like a value is a metric, as a text file's METRICs
    assert ms.parameters == ("n",) and summary(ms) == [
        ("2d-fft", "time", [1, 2], [5, 6.5]),
        ("2d-fft", "bytes", [1, 2], [50, 65]),
    ]
    assert ms.atoms() == ("k_2d_fft_time", "k_2d_fft_bytes")
    assert [s.lines for s in ms] == [((2,), (3, 4)), ((2,), (3, 4))]
    time = read(path, metric="time")
    assert summary(time) == [("2d-fft", "time", [1, 2], [5, 6.5])]
    assert time.atoms() == ("k_2d_fft",)  # the atom name of the file's name
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert {s.kernel for s in read("-")} == {"kernel"}  # standard input has no name
    tagged = write(tmp_path, "t.csv", "kernel,metric,n,value\na,time,1,5\na,bytes,1,50\n")
    assert summary(read(tagged, metric="bytes")) == [("a", "bytes", [1], [50])]
    with pytest.raises(MeasurementError, match=r"no metric 'flops' \(the file has: bytes, time\)"):
        read(tagged, metric="flops")


def test_csv_metric_column_beside_several_value_columns_is_refused(tmp_path: Path) -> None:
    """Each row names its metric, so two value columns cannot both be it: the file used to
    be read as its last value column, and the other was dropped without a word."""
    long = write(tmp_path, "l.csv", "x,metric,time,energy\n1,a,10,3\n2,a,20,3\n")
    with pytest.raises(MeasurementError) as info:
        read(long)
    assert str(info.value) == (
        f"{long}:1: a 'metric' column names each row's metric, so the file has one value "
        "column, not 2 (time, energy): keep one, or drop the 'metric' column to read each "
        "as a metric"
    )


@pytest.mark.parametrize(
    ("text", "metric", "message"),
    [
        # --metric names the only parameter: the rest is named like a value
        (
            "x,time\n1,10\n",
            "x",
            "besides the value column 'x' (the header has: x, time; "
            "'time' is named like a measured value, not a parameter)",
        ),
        (
            "time,energy\n1,2\n",
            None,
            "need a parameter column (the header has: time, energy; each is named like a value)",
        ),
    ],
)
def test_csv_without_a_parameter_says_which_columns_are_values(
    tmp_path: Path, text: str, metric: str | None, message: str
) -> None:
    with pytest.raises(MeasurementError) as info:
        read(write(tmp_path, "m.csv", text), value=metric)
    assert str(info.value).endswith(message)


def test_sniff() -> None:
    assert sniff("a.csv", "x,y\n") == "csv"
    assert sniff("a.dat", '{"parameters":{"x":20};"metric":"t"}') == "talpas"
    assert sniff("a.dat", '{\n "parameters": ["x"]}') == "json"
    assert sniff("a.dat", "# comment\nPARAMETER x\n") == "text"
    assert sniff("a.dat", "# comment\nx time\n1 2\n") == "csv"
    harnesses = {"gbench", "gbench-csv", "gbench-console", "hyperfine", "hyperfine-csv", "pytest-benchmark"}
    harnesses |= {"pytest-benchmark-csv", "pytest-benchmark-console"}
    assert sniff("a.dat", "name,param:n,min,median\n") == "pytest-benchmark-csv"
    assert sniff("a.csv", "name,n,median\n") == "csv"  # a column that is no statistic
    assert sniff("out.txt", "== 3 passed ==\nName (time in us)  Min\n") == "pytest-benchmark-console"
    assert set(READERS) == {"csv", "text", "json", "jsonl", "talpas", "cube", "extra-p", *harnesses}


# --- errors: file, line and reason -------------------------------------------------------
HEAD = "PARAMETER x\nPOINTS 1 2 3\nREGION a\n"

ERRORS = [
    (HEAD + "DATA 1\nDATA 2\n", r"m.txt:5: REGION 'a' has 2 DATA lines but POINTS lists 3 points"),
    (
        HEAD + "DATA 1\nDATA 2\nDATA 3\nDATA 4\n",
        r"m.txt:7: REGION 'a' has more DATA lines than the 3 POINTS",
    ),
    (HEAD + "DATA 1\nDATA two\nDATA 3\n", r"m.txt:5: 'two' is not a number"),
    (HEAD + "REGION b\nDATA 1\nDATA 2\nDATA 3\n", r"m.txt:3: REGION 'a' has no DATA lines"),
    (HEAD + "DATUM 1\n", r"m.txt:4: unknown field 'DATUM' \(valid: PARAMETER, POINTS"),
    ("POINTS 1 2\n", r"m.txt:1: POINTS before any PARAMETER line"),
    ("PARAMETER x y\nPOINTS (1 2) (3)\n", r"m.txt:2: point \(3\) has 1 coordinates for 2"),
    ("PARAMETER x\nPOINTS 1 2\nDATA 1\n", r"m.txt:3: DATA before any REGION line"),
    # Extra-P refuses these too (its DATA lines outnumber the distinct points)
    ("PARAMETER x\nPOINTS 4 8 8.0 16\n", r"m.txt:2: POINTS lists \(8.0\) twice: give each"),
    ("PARAMETER x y\nPOINTS (1 2) (2 1)\nPOINTS (1 2)\n", r"m.txt:3: POINTS lists \(1 2\) twice"),
    ("\n\n", r"m.txt: the file is empty"),
]


@pytest.mark.parametrize(("text", "message"), ERRORS)
def test_text_format_errors(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(MeasurementError, match=message):
        read(write(tmp_path, "m.txt", text))


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
        r"m.json: measurements.a.t: expected a non-empty list of points",
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
    (  # the first row was read as the header: "kernel 'm', metric '5': 2 measured points..."
        "m.csv",
        "# sizes\n1024,5\n2048,9\n4096,18\n",
        r"m.csv:2: the first row holds numbers \(1024,5\) where the column names should be: begin the file with "
        r"a header naming its columns, such as x,time$",
    ),
    ("m.csv", "8;1024;5\n", r"m.csv:1: the first row holds numbers \(8;1024;5\) .* such as x;x2;time$"),
    (
        "m.csv",
        "x;time\n1;10,5\n",
        r"m.csv:2: column 'time': '10,5' is not a number \(write a decimal point and no "
        r"thousands separator: 10.5, 1000\)$",
    ),
    (
        "m.csv",
        "x;time\n1;2.5\n2;1,250.5\n",
        r"m.csv:3: column 'time': '1,250.5' is not a number \(",
    ),
    ("m.csv", "x;time\n1;ten\n", r"m.csv:2: column 'time': 'ten' is not a number$"),
]


@pytest.mark.parametrize(("name", "text", "message"), LINE_ERRORS)
def test_line_format_errors(tmp_path: Path, name: str, text: str, message: str) -> None:
    fmt = "talpas" if name.endswith(".talpas") else None
    with pytest.raises(MeasurementError, match=message):
        read(write(tmp_path, name, text), fmt)


def test_aggregates_of_uneven_repetitions() -> None:
    ms = read(DATA / "text" / "one_parameter_6.txt")
    met2 = ms.series[1]
    assert met2.aggregate("median")[4] == 256.0
    assert met2.aggregate("min")[3] == 63.99 and met2.aggregate("max")[1] == 4.01
    np.testing.assert_allclose(met2.aggregate("mean"), [1, 4, 16.0018, 64, 256])
    np.testing.assert_array_equal(met2.aggregate(Aggregation.MEDIAN), met2.aggregate("median"))


# --- standard input ------------------------------------------------------------------------
STDIN_CASES = [
    ("kernel,x,time\nsort,1,2\nsort,2,4\n", "csv"),
    ("PARAMETER x\nPOINTS 1 2\nREGION sort\nDATA 2\nDATA 4\n", "text"),
    ('{"parameters": ["x"], "measurements": {"sort": {"time": '
     '[{"point": [1], "values": [2]}, {"point": [2], "values": [4]}]}}}', "json"),
    ('{"params": {"x": 1}, "callpath": "sort", "value": 2}\n'
     '{"params": {"x": 2}, "callpath": "sort", "value": 4}\n', "jsonl"),
    ('{"parameters": {"x": 1}; "callpath": "sort"; "metric": "t"; "value": 2}\n'
     '{"parameters": {"x": 2}; "callpath": "sort"; "metric": "t"; "value": 4}\n', "talpas"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "fmt"), STDIN_CASES)
def test_dash_reads_stdin_in_every_format(monkeypatch, text: str, fmt: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    ms = read("-")
    assert (ms.format, ms.path) == (fmt, "<stdin>")
    assert [(s.kernel, s.column("x").tolist(), s.aggregate().tolist()) for s in ms] == [
        ("sort", [1.0, 2.0], [2.0, 4.0])
    ]


def test_stdin_that_is_not_utf8_is_named_with_its_line_and_byte(monkeypatch) -> None:
    """Standard input in Windows-1252 (a '€' is 0x80) gave the codec's byte offset."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbfx,time\r\n1,2\r\n2,\x80\r\n")))
    with pytest.raises(MeasurementError, match=r"^<stdin>: cannot read measurements: not UTF-8 text \(byte 0x80 on "
                       r"line 3, column 3\): save it as UTF-8$"):  # fmt: skip
        read("-")


def test_stdin_errors_name_stdin(monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("x,time\n1,fast\n"))
    with pytest.raises(
        MeasurementError, match=r"^<stdin>:2: column 'time': 'fast' is not a number"
    ):
        read("-")


#: a file of each text format the readers take (the formats read from their content)
_TEXT_FILES = [
    DATA / "text" / "one_parameter_6.txt",
    DATA / "json" / "input_1.JSON",
    DATA / "talpas" / "talpas_1.txt",
    EXTRAP.parent / "gbench" / "gb_console.txt",
    EXTRAP.parent / "gbench" / "gb_run.csv",
    EXTRAP.parent / "hyperfine" / "hf_dd.csv",
    EXTRAP.parent / "hyperfine" / "hf_dd.json",
    EXTRAP.parent / "pytest_benchmark" / "pb_run.txt",
    EXTRAP.parent / "pytest_benchmark" / "pb_run.csv",
]


@pytest.mark.parametrize("source", _TEXT_FILES, ids=lambda path: path.name)
def test_a_file_that_is_not_utf8_is_named_so_with_its_line_and_byte(tmp_path: Path, source: Path) -> None:
    """A Latin-1 'é' gave the codec's "'utf-8' codec can't decode byte 0xe9 in position 13:
    invalid continuation byte", in every format: now the line, the column and what to do."""
    lines = source.read_bytes().split(b"\n")
    text = lines[2].removesuffix(b"\r")
    lines[2] = text + b"\xe9" + lines[2][len(text) :]  # after the third line's text
    path = tmp_path / source.name
    path.write_bytes(b"\n".join(lines))
    column = len(text.decode()) + 1
    with pytest.raises(MeasurementError) as error:
        read(path)
    assert str(error.value) == (
        f"{path}: cannot read measurements: not UTF-8 text (byte 0xe9 on line 3, column {column}): save it as UTF-8"
    )


# --- CSV: delimiters, value column and unit by name -------------------------------------------
@pytest.mark.parametrize("sep", [",", ";", "\t", " ", "  \t "])
def test_csv_delimiters_are_detected(tmp_path: Path, sep: str) -> None:
    rows = ["kernel", "x", "time"], ["sort", "1", "2.5"], ["sort", "2", "5"]
    ms = read(write(tmp_path, "m.csv", "\n".join(sep.join(r) for r in rows) + "\n"))
    assert ms.parameters == ("x",) and ms.value_name == "time"
    assert [(s.kernel, s.aggregate().tolist()) for s in ms] == [("sort", [2.5, 5.0])]


def test_an_unknown_delimiter_is_named(tmp_path: Path) -> None:
    with pytest.raises(MeasurementError) as info:
        read(write(tmp_path, "m.csv", "x|time\n1|2\n"))
    assert str(info.value) == (
        f"{tmp_path / 'm.csv'}:1: need a parameter column and a value column (the header has: "
        "x|time; found no comma, semicolon, tab or blank between columns)"
    )
    with pytest.raises(
        MeasurementError, match=r"header has: kernel, x; columns separated by tab\)"
    ):
        read(write(tmp_path, "n.csv", "kernel\tx\na\t2\n"))


@pytest.mark.parametrize(
    ("header", "value", "unit"),
    [
        ("x,time_ms", "time_ms", "ms"),
        ("x,runtime[s]", "runtime[s]", "s"),
        ("x,t (us)", "t (us)", "us"),
        ("x,time", "time", None),
        ("x,Time_ns", "time_ns", "ns"),
        ("x,cycles", "cycles", None),
    ],
)
def test_the_unit_is_read_from_the_value_columns_name(
    tmp_path: Path, header: str, value: str, unit: str | None
) -> None:
    ms = read(write(tmp_path, "m.csv", f"{header}\n1,2\n2,3\n"))
    assert (ms.parameters, ms.value_name, ms.unit) == (("x",), value, unit)


def test_each_metric_of_a_file_has_the_unit_its_name_states(tmp_path: Path) -> None:
    """time_ms in a file of several metrics is in ms (it was fitted as ns), in CSV and text."""
    csv = write(tmp_path, "m.csv", "x,time_ms,energy\n1,2,9\n2,4,9\n4,8,9\n")
    text = write(
        tmp_path,
        "m.txt",
        "PARAMETER x\nPOINTS 1 2 4\nREGION m\nMETRIC time_ms\nDATA 2\nDATA 4\nDATA 8\n"
        "METRIC energy\nDATA 9\nDATA 9\nDATA 9\n",
    )
    for path in (csv, text):
        reports = PMNF.fit_each(read(path))
        assert [(r.atom, r.unit) for r in reports] == [
            ("m_time_ms", "ms"),
            ("m_energy", "dimensionless"),
        ], path


def test_the_value_column_is_recognised_by_name(tmp_path: Path) -> None:
    ms = read(write(tmp_path, "m.csv", "time,size\n5,10\n9,20\n"))
    assert (ms.parameters, ms.value_name) == (("size",), "time")
    assert ms.series[0].column("size").tolist() == [10.0, 20.0]
    both = read(write(tmp_path, "b.csv", "x,p,time\n1,1,5\n1,2,3\n"))
    assert (both.parameters, both.value_name) == (("x", "p"), "time")
    assert both.series[0].points.tolist() == [[1.0, 1.0], [1.0, 2.0]]


# --- hardening: deep nesting, overflow ----------------------------------------------------------
@pytest.mark.parametrize("depth", [2_000, 100_000])
@pytest.mark.parametrize("name", ["m.json", "m.jsonl"])
def test_deep_json_is_one_clear_error(tmp_path: Path, depth: int, name: str) -> None:
    path = write(tmp_path, name, "[" * depth + "]" * depth + "\n")
    with pytest.raises(MeasurementError, match="nested too deep to read") as info:
        read(path, "json" if name == "m.json" else "jsonl")
    assert "\n" not in str(info.value) and str(info.value).startswith(str(path))


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("m.csv", "x,time\n1,2\n2,1e999\n", r"m.csv:3: column 'time': 1e999 overflows a float"),
        ("m.txt", "PARAMETER x\nPOINTS 1 2\nREGION a\nDATA 1\nDATA 1e400\n", r"m.txt:5: 1e400 overflows"),
        ("m.jsonl", '{"params": {"x": 1}, "value": 1' + "0" * 5000 + "}\n", r"m.jsonl:1: 10000.*…0+ overflows a float"),
        # a coordinate must be finite (a measured value that is not is dropped with a note)
        ("m.csv", "x,time\n1,2\n-inf,1\n", r"m.csv:3: column 'x': -inf is not finite"),
        ("m.txt", "PARAMETER x\nPOINTS 1 nan\n", r"m.txt:2: nan is not finite"),
        (
            "m.json",
            '{"parameters": ["x"], "measurements": {"a": {"t": [{"point": [1e999], "values": [1]}]}}}',
            r"m.json: measurements.a.t\[0\].point: 1e999 overflows a float",
        ),
    ],
)  # fmt: skip
def test_overflowing_and_infinite_numbers_are_errors_with_their_line(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    with pytest.raises(MeasurementError, match=message):
        read(write(tmp_path, name, text))


# --- one atom name, whatever the form -------------------------------------------------------
def test_atom_name_is_one_rule_valid_for_the_library() -> None:
    from patternalg.library.model_library import valid_atom_name

    kernels = ["2d fft", "Sort", "seq", "pipe", "tpool_4", "parsec-blackscholes", "<root>", "", "_"]
    names = [atom_name(k) for k in kernels]
    assert names[:3] == ["k_2d_fft", "sort", "k_seq"]
    assert all(valid_atom_name(n) for n in names)


def test_latin_letters_of_a_kernel_name_keep_their_letter_in_the_atom_name() -> None:
    """``größe`` and ``grüße`` were both ``gr_e`` (then ``gr_e_2``): an atom's name is ASCII."""
    from patternalg.measurements.names import atom_names

    assert atom_names(["größe", "grüße", "Ölfass", "naïve", "π"]) == ["grosse", "grusse", "olfass", "naive", "kernel"]


def test_every_form_names_a_kernel_the_same(tmp_path: Path) -> None:

    from patternalg.forms import Amdahl, Memwall, presca

    def rows(header: str, lines: list[str]) -> str:
        return "\n".join([header, *lines]) + "\n"

    sizes = [f"2d fft,{x},{3 * x}" for x in (1, 2, 4, 8)]
    amdahl = [f"2d fft,{x},{p},{x * (0.1 + 0.9 / p)}" for x in (1, 2) for p in (1, 2, 4)]
    memwall = [f"2d fft,{p},{phi},{1 / p + phi}" for p in (1, 2, 4) for phi in (1.0, 2.0)]
    threads = [f"2d fft,{p},{10 / p + 1}" for p in range(1, 9)]
    fits = [
        PMNF.fit_each(read(write(tmp_path, "a.csv", rows("kernel,x,time", sizes)))),
        Amdahl.fit_each(read(write(tmp_path, "b.csv", rows("kernel,x,p,time", amdahl)))),
        Memwall.fit_each(
            read(write(tmp_path, "c.csv", rows("kernel,p,phi,time", memwall))), iterations=10
        ),
        presca.predict_file(write(tmp_path, "d.csv", rows("kernel,p,time", threads))),
    ]
    assert [[r.model.name for r in reports] for reports in fits] == [["k_2d_fft"]] * 4


def test_series_over_merges_repetitions_and_keeps_lines(tmp_path: Path) -> None:
    ms = read(write(tmp_path, "m.csv", "x,p,time\n1,1,5\n1,2,3\n1,1,7\n2,1,9\n"))
    (s,) = ms
    assert s.lines == ((2, 4), (3,), (5,))
    over = s.over(["x"])
    assert over.points.tolist() == [[1.0], [2.0]]
    assert over.lines == ((2, 4, 3), (5,)) and over.values[0].tolist() == [5.0, 7.0, 3.0]
    assert str(s.location(1)) == f"{tmp_path / 'm.csv'}:3"
    assert isinstance(ms, Measurements) and len(ms) == 1 and ms.select(kernel="m") is not ms


def test_errors_carry_their_location_and_survive_pickling(tmp_path: Path) -> None:
    import pickle

    from patternalg.errors import Location

    path = write(tmp_path, "m.csv", "x,time\n1,2\n2,fast\n")
    with pytest.raises(MeasurementError) as info:
        read(path)
    assert info.value.location == Location(str(path), 3)
    assert info.value.message == "column 'time': 'fast' is not a number"
    assert str(pickle.loads(pickle.dumps(info.value))) == str(info.value)


@pytest.mark.parametrize(
    ("suffixed", "bracketed", "unit"),
    [
        ("time_μs", "time[μs]", "us"),  # the Greek mu (U+03BC)
        ("time_µs", "time[µs]", "us"),  # the micro sign (U+00B5)
        ("time_usec", "time[usec]", "us"),
        ("time_msec", "time[msec]", "ms"),
        ("time_nsec", "time (nsec)", "ns"),
        ("time_seconds", "time[seconds]", "s"),
    ],
)
def test_a_unit_of_time_reads_alike_as_a_suffix_or_in_brackets(
    tmp_path: Path, suffixed: str, bracketed: str, unit: str
) -> None:
    """time_μs, time_msec, ... were read as ns ("name no unit") where time[μs] and
    time[msec] were honoured (probe L)."""
    for k, header in enumerate((suffixed, bracketed)):
        ms = read(write(tmp_path, f"m{k}.csv", f"x,{header}\n1,2\n2,3\n4,5\n8,9\n16,17\n"))
        assert ms.unit == unit, header
    result = run_cli("fit", str(tmp_path / "m0.csv"))
    assert result.returncode == 0 and f"[{unit}]" in result.stdout and "name no unit" not in result.stderr


@pytest.mark.parametrize(
    ("column", "unit"),
    [("seconds", "s"), ("s", "s"), ("sec", "s"), ("ms", "ms"), ("msec", "ms"), ("us", "us"), ("usec", "us"),
     ("μs", "us"), ("µs", "us"), ("ns", "ns"), ("nsec", "ns"), ("minutes", "min"), ("Seconds", "s")],
)  # fmt: skip
def test_a_value_column_named_by_a_unit_of_time_alone_is_in_that_unit(tmp_path: Path, column: str, unit: str) -> None:
    """``seconds`` was a time read as ns, its note saying that the times (seconds) name no
    unit (probe F17)."""
    path = write(tmp_path, "s.csv", f"x,{column}\n1,0.5\n2,1.0\n4,2.0\n8,4.0\n16,8.0\n")
    assert read(path).unit == unit
    result = run_cli("fit", str(path))
    assert result.returncode == 0, result.stderr
    assert f"0.5*x  [{unit}]" in result.stdout and "name no unit" not in result.stderr
    assert "looks like a time" not in run_cli("fit", str(write(tmp_path, "p.csv", f"{column},time\n1,2\n2,4\n4,8\n"))).stderr


def test_a_value_column_named_by_a_unit_of_time_is_found_wherever_it_stands(tmp_path: Path) -> None:
    """Such a column was the value only where it was the last one: before a ``rep`` column
    the repetitions were fitted, before a text column that --parameters leaves out the text
    was refused (probe U)."""
    rows = "".join(f"k,{x},{x},{r}\n" for r in (0, 1) for x in (1, 2, 4, 8))
    before_rep = write(tmp_path, "r.csv", "kernel,x,seconds,rep\n" + rows)
    assert read(before_rep).unit == "s" and [s.metric for s in read(before_rep)] == ["seconds"]
    before_text = write(tmp_path, "t.csv", "kernel,x,ms,host\nk,1,1,a\nk,2,2,b\nk,4,4,c\nk,8,8,zz\n")
    result = run_cli("fit", str(before_text), "--parameters", "x")
    assert result.returncode == 0 and "k: x  [ms]" in result.stdout, result.stderr


def test_min_alone_is_a_minimum_not_minutes(tmp_path: Path) -> None:
    """A column ``min`` names a summary's minimum as often as minutes: it says no unit."""
    assert read(write(tmp_path, "m.csv", "x,min\n1,2\n2,3\n")).unit is None


# --- one bad region is left out, the rest read (test_fit_partial: what fit prints) -----------
FIVE = "PARAMETER x\nPOINTS ( 1 ) ( 2 ) ( 4 ) ( 8 ) ( 16 )\n"
GOOD_REGION = "REGION good\nDATA 1\nDATA 2\nDATA 4\nDATA 8\nDATA 16\n"
LEFT_OUT = [
    ("m.txt", FIVE + GOOD_REGION + "REGION bad\nDATA 1\nDATA 1e999\nDATA 4\nDATA 8\nDATA 16\n",
     "m.txt:11: kernel 'bad': 1e999 overflows a float (largest: 1.8e308)"),
    ("m.txt", FIVE + GOOD_REGION + "REGION bad\nDATA 1\nDATA abc\nDATA 4\nDATA 8\nDATA 16\n",
     "m.txt:11: kernel 'bad': 'abc' is not a number"),
    ("m.txt", FIVE + "REGION bad\nDATA 1\nDATA 2\nDATA 4\n" + GOOD_REGION,
     "m.txt:6: REGION 'bad' has 3 DATA lines but POINTS lists 5 points"),
    ("m.txt", FIVE + "REGION bad\nDATA 1\nDATA\nDATA 4\nDATA 8\nDATA 16\n" + GOOD_REGION,
     "m.txt:5: DATA line without values"),
    ("m.txt", FIVE + "REGION bad\n" + "DATA 1\n" * 6 + GOOD_REGION,
     "m.txt:9: REGION 'bad' has more DATA lines than the 5 POINTS"),
    ("m.csv", "kernel,x,time\n" + "".join(f"good,{x},{x}\nbad,{x},{'abc' if x == 2 else x}\n" for x in (1, 2, 4)),
     "m.csv:5: kernel 'bad', metric 'time': column 'time': 'abc' is not a number"),
    ("m.jsonl", '{"params": {"x": 1}, "callpath": "good", "value": 1}\n'
     '{"params": {"x": 1}, "callpath": "bad", "value": "x"}\n',
     "m.jsonl:2: kernel 'bad', metric '<default>': 'x' is not a number"),
    ("m.json", '{"parameters": ["x"], "measurements": {"good": {"t": [{"point": [1], "values": [1]}]}, '
     '"bad": {"t": [{"point": [1], "values": []}]}}}',
     "m.json: measurements.bad.t[0].values: kernel 'bad', metric 't': no values"),
]


@pytest.mark.parametrize(("name", "text", "message"), LEFT_OUT)
def test_a_region_with_a_bad_value_is_left_out_and_the_others_are_read(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    """One bad value in one kernel refused the whole file: every other kernel was lost."""
    ms = read(write(tmp_path, name, text))
    assert [s.kernel for s in ms] == ["good"]
    assert [(o.kernel, str(o.error).replace(f"{tmp_path}/", "")) for o in ms.left_out] == [("bad", message)]
    with pytest.raises(MeasurementError) as raised:
        PMNF.fit_each(ms)  # without on_error a series left out stops the fit, as one not fitted
    assert str(raised.value) == str(ms.left_out[0].error)
    assert ms.select(kernel="good").left_out == ()


def test_a_region_given_twice_under_one_metric_is_left_out_naming_both_lines(tmp_path: Path) -> None:
    """Two blocks of REGION r under METRIC time were merged into repetitions, silently."""
    five = "DATA 1\nDATA 2\nDATA 4\nDATA 8\nDATA 16\n"
    text = FIVE + "METRIC time\nREGION r\n" + five + "REGION r\n" + "DATA 5\n" * 5 + "REGION s\n" + five
    ms = read(write(tmp_path, "m.txt", text))
    assert [s.kernel for s in ms] == ["s"]
    assert [str(o.error) for o in ms.left_out] == [
        f"{tmp_path}/m.txt:10: REGION 'r' under METRIC 'time' is given twice (line 4): give each "
        "region's DATA once per metric"
    ]
    # a region under two metrics is two series, as before
    two = FIVE + "REGION r\nMETRIC time\n" + five + "METRIC visits\n" + five
    assert [(s.kernel, s.metric) for s in read(write(tmp_path, "t.txt", two))] == [("r", "time"), ("r", "visits")]


def test_a_parameter_declared_twice_is_an_error_at_its_second_line(tmp_path: Path) -> None:
    with pytest.raises(MeasurementError, match=r"dp.txt:2: PARAMETER 'x' is declared twice \(line 1\)"):
        read(write(tmp_path, "dp.txt", "PARAMETER x\nPARAMETER x\nPOINTS ( 1 1 ) ( 2 2 )\n"))
    with pytest.raises(MeasurementError, match=r"d.txt:1: PARAMETER 'x' is declared twice \(line 1\)"):
        read(write(tmp_path, "d.txt", "PARAMETER x x\nPOINTS ( 1 1 ) ( 2 2 )\n"))


def test_a_metric_stating_no_unit_is_named_with_its_line(tmp_path: Path) -> None:
    text = FIVE + "METRIC time [foo]\n" + GOOD_REGION
    with pytest.raises(MeasurementError, match=r"m.txt:3: METRIC 'time \[foo\]': 'foo' is not a unit"):
        read(write(tmp_path, "m.txt", text))
    with pytest.raises(MeasurementError, match=r"m.csv:1: column 'time\[foo\]': 'foo' is not a unit"):
        read(write(tmp_path, "m.csv", "x,time[foo]\n1,1\n2,2\n"))


def test_measurements_show_as_a_table_of_their_series_and_a_notebook_builds_only_the_rows_it_shows(monkeypatch) -> None:
    from patternalg.measurements import table as table_module
    from patternalg.measurements.readers import CsvReader

    text = "kernel,x,p,time_us\n" + "".join(
        f"k{k},{x},{p},{(k + 1) * x * (1 + r / 100)}\n" for k in range(100) for x in (8, 64) for p in (1, 2) for r in (0, 2, 4)
    )
    ms = CsvReader.read("m.csv", text)
    table = ms.table()
    assert table.header()[:5] == ["kernel", "metric", "points", "measured", "repetitions"]
    first = table.rows()[0]
    assert first[:5] == ["k0", "time_us", 4, "x in [8, 64], p in [1, 2]", "3"]
    assert first[5] == pytest.approx(8 * 1.02) and first[6] == pytest.approx(64 * 1.02) and first[7] == "us"
    assert first[8] == pytest.approx(np.std([1.0, 1.02, 1.04], ddof=1) / 1.02)  # the same at every point
    assert table.to_csv().splitlines()[1].startswith("k0,time_us,4,")
    built = []
    original = table_module._noise
    monkeypatch.setattr(table_module, "_noise", lambda s: built.append(s.kernel) or original(s))
    html = ms._repr_html_()
    assert "100 series from m.csv" in html and "... 80 more rows: .table() has them all ..." in html and len(built) == 20
    whole = ms.table()._repr_html_()  # the table itself shows its ends too
    assert whole.count("<tr>") == 1 + 20 + 1 and "... 80 more rows" in whole
    assert "<td>1.96 %</td>" in html  # 0.02 / 1.02
