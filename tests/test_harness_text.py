"""Harnesses' text reports (Google Benchmark's CSV and console table, hyperfine's CSV), on
real output of one run written in two formats at once (``tests/data/gbench/README.md``,
``tests/data/hyperfine/README.md``): each must read as the JSON of the same run."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patternalg.cli import main
from patternalg.errors import MeasurementError
from patternalg.measurements import READERS, Measurements, read

DATA = Path(__file__).parent / "data"
GB, HF, PB = DATA / "gbench", DATA / "hyperfine", DATA / "pytest_benchmark"
#: each text report, the JSON of the same run, and how many digits the text keeps
SAME_RUN = {
    GB / "gb_run.csv": (GB / "gb_run.json", "gbench-csv", 6),
    GB / "gb_console.txt": (GB / "gb_console.json", "gbench-console", 3),
    GB / "gb_tabular.txt": (GB / "gb_tabular.json", "gbench-console", 3),
}
READERS_OF = {path.name: fmt for path, (_, fmt, _) in SAME_RUN.items()}
#: every text report vendored, and its reader
TEXT_REPORTS = {
    **{path: fmt for path, (_, fmt, _) in SAME_RUN.items()},
    HF / "hf_dd.csv": "hyperfine-csv",
    PB / "pb_run.csv": "pytest-benchmark-csv",
    PB / "pb_run.txt": "pytest-benchmark-console",
    PB / "pb_groups.txt": "pytest-benchmark-console",
}


def values(ms: Measurements) -> dict[tuple[str, float], list[float]]:
    """Each kernel's repetitions at each point."""
    return {
        (s.kernel, float(p)): v.tolist()
        for s in ms
        for p, v in zip(s.points[:, 0], s.values, strict=True)
    }


def summary(ms: Measurements) -> dict[tuple[str, float], float]:
    """Each point's one value (a report of summaries)."""
    return {where: v for where, (v,) in values(ms).items()}


def statistic(ms: Measurements, of: object) -> dict[tuple[str, float], float]:
    """``of`` (``np.median``, ...) of each point's repetitions."""
    return {where: float(of(reps)) for where, reps in values(ms).items()}  # type: ignore[operator]


@pytest.mark.parametrize("path", SAME_RUN, ids=lambda p: p.name)
@pytest.mark.parametrize("metric", [None, "cpu_time"])
def test_a_text_report_reads_as_the_json_of_the_same_run(path: Path, metric: str | None) -> None:
    twin, fmt, digits = SAME_RUN[path]
    text, json = read(path, metric=metric), read(twin, metric=metric)
    assert text.format == fmt and text.parameters == json.parameters == ("x",)
    assert text.unit == json.unit == "ns" and text.value_name == json.value_name
    ours, theirs = values(text), values(json)
    assert ours.keys() == theirs.keys() and len(ours) >= 10
    for where, reps in theirs.items():
        assert len(ours[where]) == len(reps) == 3
        for a, b in zip(ours[where], reps, strict=True):  # as many digits as the text prints
            assert math.isclose(a, b, rel_tol=0.6 * 10 ** (1 - digits)), (where, a, b)


@pytest.mark.parametrize("path", SAME_RUN, ids=lambda p: p.name)
def test_the_library_s_own_fit_is_a_note(path: Path) -> None:
    twin, _, digits = SAME_RUN[path]
    own = "Google Benchmark's own fit of "
    notes = {n.split(" (")[0]: n for n in read(twin).notes if n.startswith(own)}
    text_notes = {n.split(" (")[0]: n for n in read(path).notes if n.startswith(own)}
    assert notes.keys() == text_notes.keys() and notes
    for kernel, note in notes.items():
        coefficient = float(note.split(": ")[1].split("*")[0])
        shown = float(text_notes[kernel].split(": ")[1].split("*")[0])
        assert text_notes[kernel].endswith(note.split("*", 1)[1])  # the same class, in ns
        # as printed: six digits in CSV, two decimals on the console (0.04 for 0.0355)
        assert math.isclose(shown, coefficient, rel_tol=0.6 * 10 ** (1 - digits), abs_tol=0.005 * (digits < 6))


def test_a_counter_of_the_console_reads_as_in_json_and_a_kernel_without_it_is_left_out() -> None:
    text = read(GB / "gb_console.txt", metric="items_per_second")
    json = read(GB / "gb_console.json", metric="items_per_second")
    assert [s.kernel for s in text] == [s.kernel for s in json] == ["BM_scan"]
    for where, reps in values(json).items():  # 2.87326G/s: six digits and an SI prefix
        assert values(text)[where] == pytest.approx(reps, rel=1e-5)
    assert any(n.startswith("BM_sort has no 'items_per_second' (line 4)") for n in text.notes)
    assert text.series[0].unit == "dimensionless"  # a rate, not a time in ns


def test_a_console_table_headed_by_user_counters_reads() -> None:
    """The layout Google Benchmark 1.7.1 prints when its first family has counters: the
    header's ``UserCounters...`` names no column."""
    table = """-----------------------------------------------------------------------
Benchmark             Time             CPU   Iterations UserCounters...
-----------------------------------------------------------------------
BM_inc/1024         505 ns          505 ns        32081 bytes=4.096k
BM_inc/2048         914 ns          913 ns        18816 bytes=8.192k
BM_inc/4096        1450 ns         1450 ns         8471 bytes=16.384k
"""
    ms = READERS["gbench-console"].read("gb.txt", table)
    assert [v.tolist() for v in ms.series[0].values] == [[505.0], [914.0], [1450.0]]
    counted = READERS["gbench-console"].read("gb.txt", table, metric="bytes")
    assert [v.tolist() for v in counted.series[0].values] == [[4096.0], [8192.0], [16384.0]]


def test_the_library_s_own_fit_in_a_text_report_is_in_ns_whatever_its_runs_unit() -> None:
    """Google Benchmark states a BigO coefficient in ns (its row's ``time_unit`` in the
    JSON, none in the CSV), also of runs timed in us: 3.516 ns * x*log2(x) is 3.7 ms at
    x = 65,536, as measured; read in us it would be 3.7 s."""
    csv = """name,iterations,real_time,cpu_time,time_unit,bytes_per_second,items_per_second,label,error_occurred,error_message
"BM_sort/65536",1,3771.5,3771.4,us,,,,,
"BM_sort/131072",1,8012.3,8011.9,us,,,,,
"BM_sort_BigO",,3.51596,2.82377,NlgN,,,,,
"""
    (note,) = READERS["gbench-csv"].read("gb.csv", csv).notes
    assert note.startswith("Google Benchmark's own fit of BM_sort (real_time): 3.516*x*log2(x) ns")


def test_an_error_row_beside_user_counters_is_left_out_and_the_rest_reads() -> None:
    """Google Benchmark writes a ``SkipWithError`` run as its ten fixed cells, none under
    the user counters' columns; the whole report was refused for it."""
    ms = read(GB / "gb_error_counters.csv")
    assert {s.kernel: len(s.points) for s in ms} == {"BM_sort": 7, "BM_err": 3}
    assert "BM_err/300 (line 13) reported an error (bad size): left out" in ms.notes
    assert values(read(GB / "gb_error_counters.csv", metric="bytes"))["BM_sort", 2048.0] == [8192.0]


@pytest.mark.parametrize("name", ["gb_labels.txt", "gb_label_counters.txt", "gb_label_tabular.txt"])
def test_a_label_after_the_counters_is_the_run_s_label(name: str) -> None:
    """``state.SetLabel``: free text after the counters (``size 1024, "dense"``), not a
    counter; every report with a label was refused whole."""
    ms = read(GB / name)
    assert {s.kernel for s in ms} == ({"BM_lab", "BM_lab2"} if name == "gb_labels.txt" else {"BM_lab"})
    assert all(len(s.points) == 4 and all(len(v) == 2 for v in s.values) for s in ms)
    if name != "gb_labels.txt":
        assert values(read(GB / name, metric="elems"))["BM_lab", 4096.0] == [4096.0, 4096.0]


@pytest.mark.parametrize(("metric", "digits"), [(None, 3), ("bytes_per_second", 5)])
def test_a_labelled_console_table_reads_as_the_json_of_the_same_run(metric: str | None, digits: int) -> None:
    """Also its ``bytes_per_second``, which Google Benchmark counts by 1024:
    ``19.487G/s`` is 19.487 * 1024^3 (read as 10^9, every value was 7% low)."""
    text = read(GB / "gb_label_counters.txt", metric=metric)
    json = read(GB / "gb_label_counters.json", metric=metric)
    assert values(text).keys() == values(json).keys()
    for where, reps in values(json).items():
        assert values(text)[where] == pytest.approx(reps, rel=0.6 * 10 ** (1 - digits))


@pytest.mark.parametrize("name", ["gb_label_counters.json", "gb_label_counters.txt"])
def test_a_user_counter_is_no_time(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``elems`` counts elements: its model was in ns ("the times (elems) name no unit:
    read as ns"), and ``seq(bm_lab, inc)`` added 1024 elements as 1024 ns."""
    models = tmp_path / "elems.toml"
    assert main(["fit", str(GB / name), "--metric", "elems", "--out", str(models), "-q"]) == 0
    assert 'unit = "dimensionless"' in models.read_text() and "read as ns" not in capsys.readouterr().err
    assert main(["eval", "seq(bm_lab, inc)", "--models", str(models), "--at", "x=1024"]) == 2
    assert "cannot compose bm_lab (dimensionless" in capsys.readouterr().err


def test_a_console_time_printed_with_few_digits_says_so_and_a_printed_zero_is_left_out() -> None:
    """The console prints three decimals below 1 of the unit: 0.000385 ms is ``0.000 ms``
    (it was fitted as a measured 0, under a note claiming three or more digits), 0.0012 ms
    ``0.001 ms``: one significant digit."""
    ms = read(GB / "gb_console_digits.txt")
    (series,) = ms
    assert 1000.0 not in series.points[:, 0] and len(series.points) == 7
    assert all((v > 0).all() for v in series.values)
    assert "BM_sum (real_time): 7 row(s) print 0.000, no digit measured: left out" in " ".join(ms.notes)
    assert any(n.startswith("BM_sum (real_time): its values printed with as few as 1 significant digit") for n in ms.notes)
    assert not any("three or more digits;" in n for n in ms.notes)


@pytest.mark.parametrize("name", ["gb_statistics.txt", "gb_statistics.csv"])
def test_a_statistic_of_the_user_s_is_an_aggregate_not_a_kernel(name: str) -> None:
    """``ComputeStatistics("max", ...)``: ``BM_acc/1024/repeats:3_max`` was a kernel of its
    own (``bm_acc_repeats_3_max``); the JSON marks the row an aggregate."""
    ms = read(GB / name)
    assert [s.kernel for s in ms] == ["BM_acc"] and [len(v) for v in ms.series[0].values] == [3, 3, 3]


def test_counters_as_columns_read_as_in_json() -> None:
    """``--benchmark_counters_tabular``: the counter is a column, under a header printed
    again where the counters change (``BM_pass`` has none, ``BM_scan`` one)."""
    text = read(GB / "gb_tabular.txt", metric="items_per_second")
    json = read(GB / "gb_tabular.json", metric="items_per_second")
    assert [s.kernel for s in text] == ["BM_scan"] and values(text).keys() == values(json).keys()
    for where, reps in values(json).items():
        assert values(text)[where] == pytest.approx(reps, rel=1e-5)


def test_the_csv_on_standard_output_has_no_context_and_reads_alike(tmp_path: Path) -> None:
    lines = (GB / "gb_run.csv").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("name,iterations"))
    bare = tmp_path / "out.csv"
    bare.write_text("\n".join(lines[start:]) + "\n")
    assert read(bare).format == "gbench-csv"
    assert values(read(bare)) == values(read(GB / "gb_run.csv"))


def test_the_atoms_are_named_without_the_capital_of_bm(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fit", str(GB / "gb_run.csv"), "--metric", "cpu_time", "-q"]) == 0
    names = {line.split(":")[0] for line in capsys.readouterr().out.splitlines() if line[:1].isalpha()}
    assert names == {"bm_sort", "bm_pass"}


@pytest.mark.parametrize(
    ("path", "edit", "message"),
    [
        ("gb_run.csv", lambda t: re.sub(r'("BM_sort/65536",\d+),', r"\1,fast", t, count=1),
         r"gb_run.csv:19: column 'real_time': 'fast[0-9.e+]+' is not a number"),
        ("gb_run.csv", lambda t: t.replace("ns,,,,,\n", "ns,,,\n", 1),
         r"gb_run.csv:12: 8 cells under a header of 10 columns"),
        ("gb_run.csv", lambda t: t.split("name,iterations")[0],
         r"gb_run.csv: no Google Benchmark CSV header"),
        ("gb_console.txt", lambda t: t.replace(" ns ", " parsecs ", 1),
         r"gb_console.txt:4: not a row of Google Benchmark's console table: 'BM_sort/16384"),
        ("gb_tabular.txt", lambda t: t.replace("1.40243G/s", "many", 1),
         r"gb_tabular.txt:44: counter 'items_per_second': 'many' is not a number"),
    ],
)  # fmt: skip
def test_a_damaged_report_is_one_line_naming_the_line(
    path: str, edit: object, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    damaged = tmp_path / path
    damaged.write_text(edit((GB / path).read_text()))  # type: ignore[operator]
    metric = ["--metric", "items_per_second"] if "counter" in message else []
    assert main(["fit", str(damaged), "--input-format", READERS_OF[path], *metric]) == 2
    out, err = capsys.readouterr()
    assert not out and err.count("\n") == 1 and "Traceback" not in err
    assert re.search(message, err), err


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(sorted(TEXT_REPORTS)), data=st.data())
def test_any_cut_or_changed_line_is_read_or_refused_with_its_name(path: Path, data: st.DataObject) -> None:
    lines = path.read_text().splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    lines[i] = data.draw(st.sampled_from(["", "junk", lines[i][: len(lines[i]) // 2], lines[i] + " 1"]))
    text = "\n".join(lines[: data.draw(st.integers(1, len(lines)))])
    try:
        READERS[TEXT_REPORTS[path]].read(str(path), text)
    except MeasurementError as error:
        assert str(error).startswith(str(path)) and "\n" not in str(error)


def test_a_console_row_of_any_iteration_count_reads() -> None:
    # fuzz seed 67: a row with 5,000 digits of iterations was a ValueError of int() (Python's
    # limit on converting long digit strings), a traceback; no value reads the count
    table = "Benchmark  Time  CPU  Iterations\n-----\nBM_a/8  2.00 us  1.00 us  " + "7" * 5000 + "\nBM_a/16  4.00 us  2.00 us  10\n"
    (series,) = READERS["gbench-console"].read("gb.txt", table)
    assert [v.tolist() for v in series.values] == [[2.0], [4.0]]


def test_a_long_run_of_digits_in_a_row_is_refused_in_one_line() -> None:
    # fuzz seed 67: a row whose time ran into 5,000 digits took the row patterns cubic time
    # (a number's digits could be split two ways between \\d+ and \\d*): a hang of fit
    row = "BM_a/8  2.00 us  " + "9" * 3000 + "[9937 ns  3"
    table = "Benchmark  Time  CPU  Iterations\n-----\n" + row + "\n"
    with pytest.raises(MeasurementError, match=r"gb.txt:3: not a row of Google Benchmark's console table"):
        READERS["gbench-console"].read("gb.txt", table)


# --- hyperfine's CSV ----------------------------------------------------------------------


def test_hyperfine_csv_holds_the_median_of_each_command_s_runs() -> None:
    text, json = read(HF / "hf_dd.csv"), read(HF / "hf_dd.json")
    assert text.format == "hyperfine-csv" and text.parameters == json.parameters == ("n",)
    assert text.unit == json.unit == "s"
    medians = statistic(json, np.median)
    assert summary(text) == pytest.approx(medians, rel=1e-12)
    assert len(medians) == 10 and any("its median is one value" in n for n in text.notes)


def test_hyperfine_asciidoc_export_is_named_with_the_exports_read(capsys: pytest.CaptureFixture[str]) -> None:
    """``--export-asciidoc`` starts ``[cols=...``: it was read as JSON, "not valid JSON"."""
    assert main(["fit", str(HF / "hf_table.adoc")]) == 2
    err = capsys.readouterr().err
    assert "hf_table.adoc: is an AsciiDoc table (hyperfine --export-asciidoc)" in err
    assert "--export-json (every run) or --export-csv" in err and err.count("\n") == 1


#: what a user pastes of a harness's (or Extra-P's) printed output, and what it is said to be
PRINTED = {
    "hf.md": (
        "| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |\n|:---|---:|---:|---:|---:|\n"
        "| `./k 1` | 102.3 ± 0.5 | 101.5 | 103.0 | 1.00 |\n| `./k 2` | 202.3 ± 0.5 | 201.5 | 203.0 | 1.98 ± 0.01 |\n",
        "is a Markdown or Org table (hyperfine --export-markdown, --export-orgmode), which holds no runs and is "
        "not read: hyperfine's --export-json (every run) or --export-csv is",
    ),
    "hf.org": (
        "| Command | Mean [s] | Min [s] | Max [s] | Relative |\n|--+--+--+--+--|\n| =./k 1= | 0.102 ± 0.001 | 0.101 "
        "| 0.103 | 1.00 |\n",
        "is a Markdown or Org table (hyperfine --export-markdown, --export-orgmode), which holds no runs and is "
        "not read: hyperfine's --export-json (every run) or --export-csv is",
    ),
    "hf.txt": (
        "Benchmark 1: ./k 1\n  Time (mean ± σ):     102.3 ms ±   0.5 ms    [User: 1.0 ms, System: 1.2 ms]\n"
        "  Range (min … max):   101.5 ms … 103.0 ms    10 runs\n",
        "is hyperfine's terminal output, which holds no runs and is not read: hyperfine's --export-json (every "
        "run) or --export-csv is",
    ),
    "table.md": (
        "| x | time |\n|---|---|\n| 1 | 2 |\n| 2 | 4 |\n| 4 | 8 |\n",
        "is a Markdown table, which is not read: write it as CSV, a header naming the columns (x,time) and a row "
        "of numbers per measurement",
    ),
    "extrap.txt": (  # extrap --text input.txt, which prints every model (Extra-P 4.2.5)
        "Callpath: compute\n\tMetric: time\n\t\tMeasurement point: (2.00E+01) Mean: 8.03E+01 Median: 8.03E+01\n"
        "\t\tModel: 1.23+4.5*p^(1)\n\t\tRSS: 1.00E+00\n\t\tAdjusted R^2: 9.99E-01\n",
        "is Extra-P's printed output (its models; each point's mean and median in three digits), which is not "
        "read: give Extra-P's input file, or an experiment it saved (extrap ... --save-experiment e.extra-p)",
    ),
}


@pytest.mark.parametrize("name", PRINTED)
def test_printed_output_is_named_with_what_is_read(tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """hyperfine's Markdown table was read as a CSV table: "hf.md:1: column '|' appears twice
    in the header"; its terminal output and Extra-P's gave "N cells where the header has M"."""
    text, says = PRINTED[name]
    path = tmp_path / name
    path.write_text(text)
    assert main(["fit", str(path)]) == 2
    assert capsys.readouterr().err == f"patternalg fit: error: {path}: {says}\n"


def test_hyperfine_runs_that_failed_under_i_are_noted() -> None:
    """``hyperfine -i``: the runs of odd n exited with status 1 (``exit_codes``); they were
    fitted without a word."""
    (note,) = [n for n in read(HF / "hf_exit_codes.json").notes if "non-zero status" in n]
    assert note.startswith("runs that exited with a non-zero status (hyperfine -i went on): sh -c")
    assert note.count("(3 of 3)") == 2 and "fitted as measured" in note


def test_hyperfine_kernels_keep_a_text_parameter_and_find_a_number_inside_a_word() -> None:
    kernels = {s.kernel for s in read(HF / "hf_dd.csv")}
    assert kernels == {f"dd if=/dev/zero of=/dev/null bs={bs} count={{n}}k" for bs in ("32k", "64k")}
    assert kernels == {s.kernel for s in read(HF / "hf_dd.json")}


def test_hyperfine_a_scanned_value_that_is_also_a_literal_keeps_its_point() -> None:
    """``hyperfine -P n 1 4 './k {n} 2'``: at n = 2 the command is ``./k 2 2``, of the
    template every other point names, not a kernel of its own."""
    results = [{"command": f"./k {n} 2", "mean": n, "times": [n, n], "parameters": {"n": str(n)}} for n in range(1, 5)]
    ms = READERS["hyperfine"].read("hf.json", json.dumps({"results": results}))
    assert [s.kernel for s in ms.series] == ["./k {n} 2"] and len(ms.series[0].points) == 4


def test_hyperfine_csv_metric_names_a_summary_column_or_lists_them() -> None:
    means = statistic(read(HF / "hf_dd.json"), np.mean)
    assert summary(read(HF / "hf_dd.csv", metric="mean")) == pytest.approx(means, rel=1e-12)
    with pytest.raises(MeasurementError, match=r"hf_dd.csv:1: no column 'p50' of times \(valid: mean, "):
        read(HF / "hf_dd.csv", metric="p50")
    with pytest.raises(MeasurementError, match=r"x.csv:3: 2 cells under a header of 10 columns"):
        lines = (HF / "hf_dd.csv").read_text().splitlines()
        READERS["hyperfine-csv"].read("x.csv", "\n".join([*lines[:2], "a,1"]))


# --- pytest-benchmark's CSV and console table ---------------------------------------------


def by_test_id(ms: Measurements) -> dict[tuple[str, float], list[float]]:
    """Each point's values, by its kernel written without parameter names, and x."""
    return {(re.sub(r"\w+=", "", kernel), x): v for (kernel, x), v in values(ms).items()}


def test_pytest_benchmark_csv_holds_each_point_s_median_as_the_json_names_it() -> None:
    text, json = read(PB / "pb_run.csv"), read(PB / "pb_run.json")
    assert text.format == "pytest-benchmark-csv" and text.parameters == json.parameters == ("n",)
    assert text.unit == json.unit == "s"
    medians = statistic(json, np.median)
    assert summary(text) == pytest.approx(medians, rel=1e-12)
    assert {s.kernel for s in text} == {"test_sort", "test_pass[order=shuffled]", "test_pass[order=sorted]"}
    assert len(medians) == 33 and any("its median is one value" in n for n in text.notes)
    lowest = statistic(json, np.min)
    assert summary(read(PB / "pb_run.csv", metric="min")) == pytest.approx(lowest, rel=1e-12)
    with pytest.raises(MeasurementError, match=r"pb_run.csv:1: no column 'ops' of times \(valid: median, mean, min, max\)"):
        read(PB / "pb_run.csv", metric="ops")


def test_pytest_benchmark_csv_of_two_runs_uses_no_run_s_spread_for_both() -> None:
    """``compare 0001 0002 --csv``: a row per run, the runs not named. The two medians are
    two repetitions of a point; the second run's stated spread replaced the first's, and
    was taken for the point's, without a word."""
    ms = read(PB / "pb_compare_two_runs.csv")
    (series,) = ms
    assert [len(v) for v in series.values] == [2, 2, 2] and not any(series.stated)
    assert any("kernel 'test_pedantic', metric 'time': more than one row summarises n=100; n=200; n=400" in n for n in ms.notes)


@pytest.mark.parametrize("name", ["pb_run.txt", "pb_groups.txt"])
def test_pytest_benchmark_table_reads_as_the_json_to_its_four_decimals(name: str) -> None:
    text, json = read(PB / name), read(PB / "pb_run.json")
    assert text.format == "pytest-benchmark-console" and text.parameters == ("x",)
    assert {s.kernel for s in text} == {"test_sort", "test_pass[shuffled]", "test_pass[sorted]"}
    medians = {where: float(np.median(reps)) for where, reps in by_test_id(json).items()}
    ours = {where: v for where, (v,) in by_test_id(text).items()}
    assert ours.keys() == medians.keys() and len(ours) == 33
    units = re.findall(r"Name \(time in (\w+)\)", (PB / name).read_text())
    assert units == (["ns", "us"] if name == "pb_groups.txt" else ["ns"])
    for (kernel, x), median in medians.items():  # four decimals in the table's unit
        unit = 1e-6 if kernel == "test_sort" and name == "pb_groups.txt" else 1e-9
        assert abs(ours[kernel, x] - median) <= 0.51e-4 * unit, (kernel, x)


def test_pytest_benchmark_table_reads_an_id_written_name_equals_number_under_its_name() -> None:
    """``ids=lambda v: f"n={v}"``: the table read no number of ``n=1000`` (every id was
    one word), and with no number in any id the error did not say where the numbers are."""
    ms = read(PB / "pb_named_ids.txt")
    assert ms.parameters == ("n",) and [s.kernel for s in ms] == ["test_eq"]
    assert ms.series[0].points[:, 0].tolist() == [1000.0, 2000.0, 4000.0]
    assert ms.series[0].values[0][0] == pytest.approx(27.2360e-6)  # its median, in s
    table = "Name (time in us)   Min   Max\n----\ntest_a[up]  1.0 (1.0)  2.0 (1.0)\n----\n"
    with pytest.raises(MeasurementError, match=r"t.txt: no test id holds a number to fit over .*pytest --benchmark-json FILE"):
        READERS["pytest-benchmark-console"].read("t.txt", table)


def test_pytest_benchmark_ids_a_run_tag_and_a_negative_number() -> None:
    table = (
        "Name (time in ms)       Min         Max\n"
        "---------------------------------------\n"
        "test_k[-1-a]   1.0000 (1.0)  2.0000 (1.0)\n"
        "test_k[2-a]    3.0000 (3.0)  4.0000 (2.0)\n"
        "test_k[2-a] (0001_run)    5.0000 (5.0)  6,000.0000 (3.0)\n"
        "---------------------------------------\n"
    )
    ms = READERS["pytest-benchmark-console"].read("t.txt", table)
    assert {s.kernel: values_of(s) for s in ms} == {
        "test_k[a]": {-1.0: [1e-3], 2.0: [3e-3]},
        "test_k[a, 0001_run]": {2.0: [5e-3]},
    }
    assert values_of(READERS["pytest-benchmark-console"].read("t.txt", table, metric="max").series[1]) == {2.0: [6.0]}


def values_of(series: object) -> dict[float, list[float]]:
    return {float(p): v.tolist() for p, v in zip(series.points[:, 0], series.values, strict=True)}  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("path", "edit", "message"),
    [
        ("pb_run.txt", lambda t: t.replace("1,028.8533 (1.39)", "", 1), r"pb_run.txt:\d+: not a row of pytest-benchmark's table: 'test_pass\[91-sorted\]"),
        ("pb_run.txt", lambda t: t.replace("Name (time in ns)", "Benchmarks (time)"), r"pb_run.txt: no pytest-benchmark table"),
        ("pb_run.csv", lambda t: t.replace(",15,10\n", ",15\n", 1), r"pb_run.csv:2: 12 cells under a header of 13 columns"),
        ("pb_run.csv", lambda t: t.replace("7.513997843489051e-07", "fast", 1), r"pb_run.csv:2: column 'median': 'fast' is not a number"),
    ],
)  # fmt: skip
def test_a_damaged_pytest_benchmark_report_is_one_line_naming_the_line(
    path: str, edit: object, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    damaged = tmp_path / path
    damaged.write_text(edit((PB / path).read_text()))  # type: ignore[operator]
    fmt = "pytest-benchmark-csv" if path.endswith(".csv") else "pytest-benchmark-console"
    assert main(["fit", str(damaged), "--input-format", fmt]) == 2
    out, err = capsys.readouterr()
    assert not out and err.count("\n") == 1 and "Traceback" not in err
    assert re.search(message, err), err


@pytest.mark.parametrize(
    ("header", "row", "line"),
    [
        ("name,iterations,real_time,cpu_time,time_unit,label,error_occurred,error_message", '"BM_a/8",10,2,1,us,{long},,', 2),
        ("command,mean,stddev,median,user,system,min,max,parameter_n", "./k {long},3,0,3,2,0.2,3,3,16", 2),
    ],
)
def test_a_cell_beyond_csv_s_limit_in_a_harness_table_is_one_line(tmp_path: Path, header: str, row: str, line: int) -> None:
    """A cell of more than 131,072 characters stopped Google Benchmark's and hyperfine's CSV
    readers with csv's own error and a traceback (the CSV reader's was fixed before)."""
    path = tmp_path / "long.csv"
    path.write_text(header + "\n" + row.format(long="x" * 200_000) + "\n")
    with pytest.raises(MeasurementError, match=rf"long.csv:{line}: a cell longer than 131,072 characters"):
        read(path)
