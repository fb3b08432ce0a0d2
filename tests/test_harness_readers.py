"""Readers of benchmark harnesses' JSON (Google Benchmark, hyperfine, pytest-benchmark), on
real output of each tool (``tests/data/<tool>/``, made as their READMEs say)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patternalg.cli import main
from patternalg.commands.common import HARNESSES, INPUT_FORMATS
from patternalg.errors import MeasurementError
from patternalg.forms import PMNF
from patternalg.measurements import READERS, atom_name, read

DATA = Path(__file__).parent / "data"
GB, HF, PB = DATA / "gbench", DATA / "hyperfine", DATA / "pytest_benchmark"
FILES = {
    GB / "gb.json": "gbench",
    GB / "gb_aggregates.json": "gbench",
    GB / "gb_threads.json": "gbench",
    HF / "hf_sort.json": "hyperfine",
    HF / "hf_lists.json": "hyperfine",
    PB / "pb.json": "pytest-benchmark",
    PB / "pb_saved.json": "pytest-benchmark",
}
#: the PMNF term (i, j) of x^i * log2(x)^j of each kernel's complexity
N_LOG_N, LINEAR = ("1", 1), ("1", 0)


def load(path: Path) -> Any:
    return json.loads(path.read_text())


def terms(path: Path, metric: str | None = None) -> dict[str, tuple[str, int]]:
    """The fitted PMNF term of each kernel of ``path``."""
    return {
        r.kernel: (r.fitted.statistics.get("i"), r.fitted.statistics.get("j"))
        for r in PMNF.fit_each(read(path, metric=metric))
    }


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_file_is_recognised_from_its_content(path: Path, tmp_path: Path) -> None:
    assert read(path).format == FILES[path]
    renamed = tmp_path / "measurements.txt"  # a suffix of another format: the content decides
    renamed.write_text(path.read_text())
    assert read(renamed).format == FILES[path]


def test_the_command_line_names_every_harness_format() -> None:
    own = set(READERS) - {"text", "json", "jsonl", "talpas", "csv", "cube", "extra-p"}  # the harnesses'
    assert set(HARNESSES) == own
    assert {"cube", *INPUT_FORMATS} == set(READERS)  # every reader is an --input-format


# --- Google Benchmark -------------------------------------------------------------------


def test_gbench_iteration_rows_are_the_repetitions_of_real_time() -> None:
    rows = load(GB / "gb.json")["benchmarks"]
    ms = read(GB / "gb.json")
    assert ms.value_name == "real_time" and ms.unit == "ns" and ms.parameters == ("x",)
    for s in ms:
        for point, values in zip(s.points[:, 0], s.values, strict=True):
            expected = [
                r["real_time"]
                for r in rows
                if r["run_type"] == "iteration" and r["run_name"] == f"{s.kernel}/{int(point)}"
            ]
            assert values.tolist() == expected and len(expected) == 5


def test_gbench_kernels_fit_their_complexity_with_cpu_time() -> None:
    assert terms(GB / "gb.json", "cpu_time") == {"BM_sort": N_LOG_N, "BM_pass": LINEAR}
    assert terms(GB / "gb_aggregates.json", "cpu_time")["BM_sort"] == N_LOG_N


def test_gbench_own_big_o_is_shown_beside_our_model(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = cli(capsys, "fit", str(GB / "gb.json"), "--metric", "cpu_time")
    assert status == 0
    ours = {line.split(":")[0]: line for line in out.splitlines() if not line.startswith(" ")}
    for row in load(GB / "gb.json")["benchmarks"]:
        if row.get("aggregate_name") != "BigO":
            continue
        kernel, coefficient = row["run_name"], row["cpu_coefficient"]
        form = {"NlgN": "x*log2(x)", "N": "x"}[row["big_o"]]
        note = (
            f"note: Google Benchmark's own fit of {kernel} (cpu_time): {coefficient:.4g}*{form} ns"
        )
        assert note in err
        line = ours[atom_name(kernel)]  # BM_sort -> bm_sort
        assert f"*{form} " in line and "**" not in line
        our_coefficient = float(line.split(": ")[1].split("*")[0])
        assert math.isclose(our_coefficient, coefficient, rel_tol=0.2)


def test_gbench_aggregates_only_where_no_iteration_rows() -> None:
    rows = load(GB / "gb_aggregates.json")["benchmarks"]
    ms = read(GB / "gb_aggregates.json")
    means = {r["run_name"]: r["real_time"] for r in rows if r.get("aggregate_name") == "mean"}
    assert not any(r["run_type"] == "iteration" for r in rows)
    for s in ms:
        assert [v.tolist() for v in s.values] == [
            [means[f"{s.kernel}/{int(x)}"]] for x in s.points[:, 0]
        ]
    assert any("--benchmark_report_aggregates_only" in n and "mean" in n for n in ms.notes)
    assert not any("aggregates_only" in n for n in read(GB / "gb.json").notes)


def test_gbench_arguments_and_threads_are_parameters() -> None:
    ms = read(GB / "gb_threads.json")
    assert ms.parameters == ("x", "x2", "p")
    (s,) = ms.series
    rows = [r for r in load(GB / "gb_threads.json")["benchmarks"] if r["run_type"] == "iteration"]
    assert {tuple(p) for p in s.points.tolist()} == {
        (float(r["run_name"].split("/")[1]), float(r["run_name"].split("/")[2]), r["threads"])
        for r in rows
    }


def test_gbench_parameters_declared_keep_a_kernel_whose_other_parameter_is_constant() -> None:
    """``--parameters x``: ``BM_pt`` (``->Threads(1)``, p = 1 at every point) is fitted over
    x, as the declaration names; it stayed left out as "measured over (p, x)"."""
    ms = read(GB / "gb_threads_one.json", parameters="x")
    assert ms.parameters == ("x",) and [s.kernel for s in ms] == ["BM_mt", "BM_rp", "BM_pt"]
    assert "BM_pt: parameter 'p', not among those declared, is 1 at every point: left out" in ms.notes
    assert not any("measured over" in n for n in ms.notes)


def test_gbench_parameters_declared_that_leave_out_every_kernel_are_one_error() -> None:
    with pytest.raises(MeasurementError, match=r"gb_threads.json: every kernel is measured at several values of a "
                       r"parameter not declared \(x, x2\): declare it too \(its parameters: parameters='x,x2,p'\)"):
        read(GB / "gb_threads.json", parameters="x,x2")  # its one kernel, BM_fill, ran on 1 and 2 threads
    notes = [n for n in read(GB / "gb_threads_one.json").notes if "measured over" in n]
    assert notes and notes[0].startswith("BM_pt is measured over (p, x)")  # undeclared: as before


def test_gbench_names_time_units_and_options() -> None:
    rows = [
        {"name": "BM_a/n:8/min_time:0.5/threads:2", "run_type": "iteration", "real_time": 2,
         "time_unit": "us"},
        {"name": "BM_a/n:16/min_time:0.5/threads:2", "run_type": "iteration", "real_time": 3,
         "time_unit": "ms"},
        {"name": "BM_a/n:16/min_time:0.5/threads:2", "run_type": "iteration", "error_occurred": True,
         "error_message": "boom"},
    ]  # fmt: skip
    ms = GoogleBenchmark(rows)
    assert ms.parameters == ("n", "p") and ms.unit == "us"
    assert [v.tolist() for v in ms.series[0].values] == [[2.0], [3000.0]]
    assert any("boom" in n for n in ms.notes)


def GoogleBenchmark(rows: list[dict[str, Any]]) -> Any:
    text = json.dumps({"context": {}, "benchmarks": rows})
    return READERS["gbench"].read("gb.json", text)


def test_gbench_families_over_other_arguments_are_left_out_with_a_note() -> None:
    rows = [
        {"name": "BM_a/8", "run_type": "iteration", "real_time": 1, "time_unit": "ns"},
        {"name": "BM_b/8/2", "run_type": "iteration", "real_time": 1, "time_unit": "ns"},
        {"name": "BM_c/16", "run_type": "iteration", "real_time": 2, "time_unit": "ns"},
    ]
    ms = GoogleBenchmark(rows)
    assert [s.kernel for s in ms.series] == ["BM_a", "BM_c"] and ms.parameters == ("x",)
    assert any(n.startswith("BM_b is measured over (x, x2), the file's other kernels over (x): left out") for n in ms.notes)


def test_gbench_families_that_differ_in_run_options_are_kernels_of_their_own() -> None:
    """``->UseManualTime()`` beside the automatic timing of one function (Google Benchmark
    1.7.1's names): two quantities, not repetitions of one point."""
    rows = [
        {"name": f"BM_w/{n}{option}", "run_type": "iteration", "real_time": value, "time_unit": "ns"}
        for n in (1024, 4096, 16384)
        for option, value in (("", 0.75 * n), ("/manual_time", 1e6))
    ]
    ms = GoogleBenchmark(rows)
    found = {s.kernel: [v.tolist() for v in s.values] for s in ms.series}
    assert found == {"BM_w": [[768.0], [3072.0], [12288.0]], "BM_w/manual_time": [[1e6]] * 3}
    same = GoogleBenchmark([{**r, "name": r["name"] + "/real_time"} for r in rows[::2]])
    assert [s.kernel for s in same.series] == ["BM_w"]  # one option throughout: the name is kept


def test_gbench_a_family_without_threads_beside_one_with_them_ran_on_one() -> None:
    rows = [
        {"name": f"BM_a/{n}{threads}", "run_type": "iteration", "real_time": n / p, "time_unit": "ns"}
        for n in (8, 16, 32)
        for threads, p in (("", 1), ("/threads:2", 2), ("/threads:4", 4))
    ]
    (s,) = GoogleBenchmark(rows).series
    assert s.parameters == ("x", "p")
    assert {tuple(point) for point in s.points.tolist()} == {(n, p) for n in (8, 16, 32) for p in (1, 2, 4)}


@pytest.mark.parametrize(
    ("text", "harness"),
    [
        ('{"results": []}', "hyperfine's \"results\""),
        ('{"context": {"caches": [{"type": "Data"}]}, "benchmarks": []}', "Google Benchmark's \"benchmarks\""),
        ('{"machine_info": {}, "benchmarks": []}', "pytest-benchmark's \"benchmarks\""),
    ],
)
def test_a_harness_file_without_entries_is_named_as_that_harness_s(text: str, harness: str, tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text(text)
    with pytest.raises(MeasurementError, match=f"expected {harness}: a non-empty list"):
        read(path)


# --- hyperfine ------------------------------------------------------------------------


def test_hyperfine_results_are_points_and_times_repetitions() -> None:
    results = load(HF / "hf_sort.json")["results"]
    (s,) = read(HF / "hf_sort.json").series
    assert s.kernel == "./kernels sort {n}" and s.unit == "s"
    assert s.points[:, 0].tolist() == [float(r["parameters"]["n"]) for r in results]
    assert [v.tolist() for v in s.values] == [r["times"] for r in results]


def test_hyperfine_kernels_fit_their_complexity() -> None:
    assert terms(HF / "hf_lists.json") == {
        "./kernels sort {n}": N_LOG_N,
        "./kernels pass {n}": LINEAR,
    }


# --- pytest-benchmark -----------------------------------------------------------------


def test_pytest_benchmark_params_and_rounds() -> None:
    rows = load(PB / "pb.json")["benchmarks"]
    ms = read(PB / "pb.json")
    assert ms.parameters == ("n",) and [s.kernel for s in ms] == [
        "test_sort",
        "test_pass[order=shuffled]",
        "test_pass[order=sorted]",
    ]
    sort = ms.series[0]
    data = {r["params"]["n"]: r["stats"]["data"] for r in rows if r["name"].startswith("test_sort")}
    assert [v.tolist() for v in sort.values] == [data[int(x)] for x in sort.points[:, 0]]
    assert terms(PB / "pb.json")["test_sort"] == N_LOG_N


def test_pytest_benchmark_without_data_uses_the_mean() -> None:
    rows = load(PB / "pb_saved.json")["benchmarks"]
    (s,) = read(PB / "pb_saved.json").series
    assert [v.tolist() for v in s.values] == [[r["stats"]["mean"]] for r in rows]
    assert any("--benchmark-save-data" in n for n in read(PB / "pb_saved.json").notes)


# --- malformed or partial files --------------------------------------------------------

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=4), st.just([]),
    st.just({}), st.just(1e308 * 10), st.just("nan"),
)  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(sorted(FILES)), data=st.data())
def test_a_damaged_file_is_read_or_refused_with_its_name(path: Path, data: st.DataObject) -> None:
    document = load(path)
    key = "results" if "results" in document else "benchmarks"
    entries = document[key]
    index = data.draw(st.integers(0, len(entries) - 1))
    entry = entries[index]
    field = data.draw(st.sampled_from(sorted(entry)))
    if data.draw(st.booleans()):
        del entry[field]
    else:
        entry[field] = data.draw(JUNK)
    text = json.dumps(document)
    cut = data.draw(st.one_of(st.none(), st.integers(1, len(text) - 1)))
    try:
        READERS[FILES[path]].read(str(path), text if cut is None else text[:cut])
    except MeasurementError as error:
        assert str(error).startswith(str(path)) and "\n" not in str(error)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_partial_file_is_one_line_naming_it(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    partial = tmp_path / path.name
    partial.write_text(path.read_text()[: len(path.read_text()) // 2])
    status, out, err = cli(capsys, "fit", str(partial))
    assert status == 2 and not out
    assert err.count("\n") == 1 and str(partial) in err and "Traceback" not in err


def test_an_entry_without_its_values_is_named() -> None:
    document = load(HF / "hf_sort.json")
    del document["results"][3]["times"], document["results"][3]["mean"]
    with pytest.raises(MeasurementError, match=r"hf.json: results\[3\]: no .times."):
        READERS["hyperfine"].read("hf.json", json.dumps(document))


def test_gbench_metric_picks_a_user_counter_or_names_the_columns() -> None:
    rows = [
        {"name": "BM_a/8", "run_type": "iteration", "real_time": 2, "time_unit": "ns", "items": 80},
        {"name": "BM_a/16", "run_type": "iteration", "real_time": 5, "time_unit": "ns", "items": 160},
        {"name": "BM_a_BigO", "run_type": "aggregate", "aggregate_name": "BigO", "big_o": "N",
         "real_coefficient": 0.3, "cpu_coefficient": 0.2, "time_unit": "ns"},
    ]  # fmt: skip
    text = json.dumps({"context": {}, "benchmarks": rows})
    counted = READERS["gbench"].read("gb.json", text, metric="items")
    assert [v.tolist() for v in counted.series[0].values] == [[80.0], [160.0]]
    assert counted.series[0].unit == "dimensionless" and not counted.notes  # no BigO beside a counter
    assert READERS["gbench"].read("gb.json", text).notes == (
        "Google Benchmark's own fit of BM_a (real_time): 0.3*x ns (its BigO, over N = x)",
    )
    with pytest.raises(MeasurementError, match=r"benchmarks\[0\]: no 'bytes' \(the row has: "):
        READERS["gbench"].read("gb.json", text, metric="bytes")


def test_gbench_files_older_than_run_type() -> None:
    """Google Benchmark before 1.5 names aggregates only by the row's suffix."""
    rows = [
        {"name": "BM_a/8", "real_time": 2, "time_unit": "ns"},
        {"name": "BM_a/8", "real_time": 4, "time_unit": "ns"},
        {"name": "BM_a/8_mean", "real_time": 3, "time_unit": "ns"},
        {"name": "BM_a/8_stddev", "real_time": 1, "time_unit": "ns"},
        {"name": "BM_a/16_mean", "real_time": 7, "time_unit": "ns"},
        {"name": "BM_a_BigO", "big_o": "N", "real_coefficient": 0.4, "time_unit": "ns"},
        {"name": "BM_a_RMS", "rms": 0.1},
    ]
    ms = GoogleBenchmark(rows)
    assert [s.kernel for s in ms] == ["BM_a"]
    assert [v.tolist() for v in ms.series[0].values] == [[2.0, 4.0], [7.0]]
    assert any("0.4*x" in n for n in ms.notes) and any("mean" in n for n in ms.notes)


def test_a_repetition_that_is_not_finite_is_dropped_with_a_note() -> None:
    document = load(PB / "pb.json")
    document["benchmarks"][0]["stats"]["data"][2] = float("nan")  # json writes NaN
    ms = READERS["pytest-benchmark"].read("pb.json", json.dumps(document))
    assert (
        len(ms.series[0].values[0])
        == len(load(PB / "pb.json")["benchmarks"][0]["stats"]["data"]) - 1
    )
    assert any("not finite" in n for n in ms.notes)


def test_a_kernel_named_with_blanks_around_it_reads() -> None:
    # fuzz seed 70: a command " 1 a" became the kernel " {n} a", which the collector names
    # without its blanks: the unit looked up by the other name was a KeyError, a traceback
    rows = [{"command": f" {n} a", "times": [0.2, 0.21], "parameters": {"n": str(n)}} for n in (1, 2, 4)]
    (series,) = READERS["hyperfine"].read("hf.json", json.dumps({"results": rows}))
    assert series.kernel == "{n} a" and series.unit == "s"
