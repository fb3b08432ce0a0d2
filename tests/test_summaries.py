"""Summaries as measurements: a file that keeps each point's statistics, not its repetitions
(Google Benchmark's aggregates, pytest-benchmark's CSV and table, an Extra-P experiment saved
without its values), states their spread and count; the fit's uncertainty and the noise come
from values standing in for those repetitions, and agree with what the repetitions themselves
give (each checked against the same run with its repetitions)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from patternalg.cli import main
from patternalg.forms import PMNF
from patternalg.measurements import Measurements, Series, Stated, read
from patternalg.measurements.halves import halved

DATA = Path(__file__).parent / "data"
SAVED = DATA / "extrap" / "saved"
PYTEST_BENCHMARK = DATA / "pytest_benchmark"


def spread(ms: Measurements) -> dict[str, tuple[dict[str, float], float]]:
    """Per kernel: the half-width of each coefficient's 90 % interval, and the noise."""
    found = {}
    for report in PMNF.fit_each(ms):
        u = report.model.uncertainty
        assert u is not None, f"{report.kernel}: no uncertainty"
        found[report.kernel] = (dict(zip(map(str, u.terms), u.half_widths(0.9), strict=True)), u.noise)
    return found


def agree(summary: dict, repetitions: dict, kernel: str, term: str, within: float) -> None:
    """The summary's half-width of ``term`` and its noise within a factor ``within`` of the
    repetitions'."""
    (widths, noise), (theirs, their_noise) = summary[kernel], repetitions[kernel]
    assert 1 / within < widths[term] / theirs[term] < within, (kernel, term, widths[term], theirs[term])
    assert 1 / within < noise / their_noise < within, (kernel, noise, their_noise)


def test_an_experiment_saved_without_values_spreads_as_the_one_with_them() -> None:
    """Extra-P 4.2.5 saved data13's atoms twice, with and without --keep-values: the
    statistics alone give intervals as wide as the repetitions (nop's std is 33 times its
    median at x = 262,144, from a few slow repetitions: bounded by its lower half)."""
    summary, repetitions = spread(read(SAVED / "atoms.extra-p")), spread(read(SAVED / "atoms_values.extra-p"))
    for kernel, term in (("qsort", "x*log2(x)"), ("inc", "x**(3/4)*log2(x)**2"), ("nop", "1")):
        agree(summary, repetitions, kernel, term, within=1.25)


def test_google_benchmark_aggregates_spread_as_their_iterations(tmp_path: Path) -> None:
    """gb.json holds the iteration rows and their aggregates of one run; without the
    iteration rows (--benchmark_report_aggregates_only), the mean and stddev of 5
    repetitions give what the 5 repetitions give."""
    document = json.loads((DATA / "gbench" / "gb.json").read_text())
    aggregates = {**document, "benchmarks": [b for b in document["benchmarks"] if b.get("run_type") != "iteration"]}
    path = tmp_path / "aggregates.json"
    path.write_text(json.dumps(aggregates))
    only = read(path, metric="cpu_time")
    assert all(s.stated and all(st is not None and st.count == 5 for st in s.stated) for s in only)
    summary, repetitions = spread(only), spread(read(DATA / "gbench" / "gb.json", metric="cpu_time"))
    agree(summary, repetitions, "BM_sort", "x*log2(x)", within=1.5)
    agree(summary, repetitions, "BM_pass", "x", within=1.5)


def test_google_benchmark_s_text_reports_state_the_spread_of_their_aggregates() -> None:
    """One aggregates-only run, printed and written as CSV: each point's stddev row and its
    count of repetitions (the aggregate rows' iterations) are read from either, alike."""
    printed, written = (read(DATA / "gbench" / f"gb_aggregates_run.{s}", metric="cpu_time") for s in ("txt", "csv"))
    for a, b in zip(printed, written, strict=True):
        assert [st.count for st in a.stated] == [st.count for st in b.stated] == [4] * len(a.stated)
        assert np.allclose([st.deviation for st in a.stated], [st.deviation for st in b.stated], rtol=5e-3)
    assert printed.series[0].stated[0].deviation == 34411  # BM_sort/16384_stddev, its CPU column


@pytest.mark.parametrize("name", ["pb_run.csv", "pb_run.txt"])
def test_pytest_benchmark_s_statistics_spread_as_its_rounds(name: str) -> None:
    """One run saved as JSON (every round), CSV and the printed table: a median's IQR and
    the rounds give what the rounds give; a standard deviation would not (one round of
    test_sort[724] took 12 times the median: its stddev is 3 times the median)."""
    summary, rounds = spread(read(PYTEST_BENCHMARK / name)), spread(read(PYTEST_BENCHMARK / "pb_run.json"))
    kernel = "test_sort"
    term = "n**(4/3)" if name.endswith(".csv") else "x**(4/3)"
    (widths, noise), (theirs, their_noise) = summary[kernel], rounds[kernel]
    assert 0.8 < widths[term] / theirs["n**(4/3)"] < 1.25 and 0.5 < noise / their_noise < 2


def test_a_pytest_benchmark_run_saved_without_its_rounds_states_their_stddev(tmp_path: Path) -> None:
    document = json.loads((PYTEST_BENCHMARK / "pb_run.json").read_text())
    stats = [b["stats"] for b in document["benchmarks"]]
    for s in stats:
        del s["data"]
    (tmp_path / "saved.json").write_text(json.dumps(document))
    found = [st for series in read(tmp_path / "saved.json") for st in series.stated]
    assert sorted((st.deviation, st.count) for st in found) == sorted((s["stddev"], s["rounds"]) for s in stats)


def test_a_min_states_no_spread_and_a_model_from_summaries_has_the_repetitions_intervals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert not any(s.stated for s in read(PYTEST_BENCHMARK / "pb_run.csv", metric="min"))
    found = []
    for name in ("atoms", "atoms_values"):
        assert main(["fit", str(SAVED / f"{name}.extra-p"), "--out", str(tmp_path / f"{name}.toml")]) == 0
        assert "no uncertainty" not in capsys.readouterr().err
        assert main(["eval", "pipe(qsort, nop)", "--models", str(tmp_path / f"{name}.toml"), "--at", "x=65536",
                     "--interval", "0.9"]) == 0  # fmt: skip
        value, low, high = map(float, re.match(r"(\S+) ns \[(\S+), (\S+)\]", capsys.readouterr().out).groups())
        assert low < value < high
        found.append((high - low) / 2 / value)
    assert 0.8 < found[0] / found[1] < 1.25, found


def test_what_a_summary_states_follows_its_points() -> None:
    s = Series("k", "t", ("x", "p"), np.array([[1.0, 1], [1, 2], [2, 1]]),
               (np.array([5.0]), np.array([4.0]), np.array([9.0])), ((1,), (2,), (3,)), "m",
               stated=(Stated(1.0, 3), None, Stated(2.0, 4)))  # fmt: skip
    assert [len(v) for v in s.spread_values] == [3, 1, 4] and s.values[0].tolist() == [5.0]
    assert s.subset(np.array([False, True, True])).stated == (None, Stated(2.0, 4))
    assert s.over(["x"]).stated == (None, Stated(2.0, 4))  # x = 1 merges two points: two values
    assert halved(s, 0).stated == ()
    assert s != Series(s.kernel, s.metric, s.parameters, s.points, s.values, s.lines, s.path)
    with pytest.raises(ValueError, match="2 stated summaries for 3 points"):
        Series("k", "t", ("x",), np.ones((3, 1)), (np.ones(1),) * 3, ((1,),) * 3, "m", stated=(None, None))


def test_a_csv_of_summaries_reads_its_statistics_as_the_harness_files_do(tmp_path: Path) -> None:
    """A table as pandas writes ``groupby(["kernel", "x"]).agg(["mean", "std", "count"])``
    gives what Google Benchmark's aggregates of the same numbers give (both: a mean, its
    stddev and count)."""
    document = json.loads((DATA / "gbench" / "gb.json").read_text())
    rows = {}
    for b in document["benchmarks"]:
        if b.get("run_type") == "aggregate" and b["aggregate_name"] in ("mean", "stddev"):
            kernel, x = b["run_name"].split("/")
            rows.setdefault((kernel, x), {})[b["aggregate_name"]] = b["cpu_time"]
            rows[(kernel, x)]["count"] = b["repetitions"]
    lines = ["kernel,x,cpu_time_ns_mean,cpu_time_ns_std,cpu_time_ns_count"]
    lines += [f"{k},{x},{r['mean']!r},{r['stddev']!r},{r['count']}" for (k, x), r in rows.items()]
    (tmp_path / "summaries.csv").write_text("\n".join(lines) + "\n")
    table = read(tmp_path / "summaries.csv")
    assert table.parameters == ("x",) and {s.metric for s in table} == {"cpu_time_ns"} and table.unit == "ns"
    aggregates = {**document, "benchmarks": [b for b in document["benchmarks"] if b.get("run_type") != "iteration"]}
    (tmp_path / "aggregates.json").write_text(json.dumps(aggregates))
    ours, theirs = spread(table), spread(read(tmp_path / "aggregates.json", metric="cpu_time"))
    assert sorted(k.lower() for k in ours) == sorted(k.lower() for k in theirs) == ["bm_pass", "bm_sort"]
    for kernel, (widths, noise) in ours.items():
        their_widths, their_noise = theirs[kernel]
        assert widths == pytest.approx(their_widths, rel=1e-6) and noise == pytest.approx(their_noise, rel=1e-6)


def test_a_csv_summary_needs_its_spread_and_count_and_a_value_s_name(tmp_path: Path) -> None:
    def read_text(text: str, **options: str) -> Measurements:
        (tmp_path / "s.csv").write_text(text)
        return read(tmp_path / "s.csv", **options)

    no_count = read_text("n,time_mean,time_std\n8,1.5,0.1\n16,3.5,0.2\n32,7.0,0.3\n")
    assert not no_count.series[0].stated and "s.csv: time_mean: its time_std is not used" in no_count.notes[0]
    # a parameter named n is no count; size_mean is no value's name: a parameter, not a summary
    assert read_text("n,size_mean,size_std,time\n8,1,0,1.5\n16,2,0,3.5\n").parameters == ("n", "size_mean", "size_std")
    both = "x,time_mean,time_std,energy_mean,energy_std,runs\n8,1.5,0.1,20,2,5\n16,3.5,0.2,41,3,5\n"
    assert [(s.metric, s.stated[0]) for s in read_text(both, metric="energy")] == [("energy", Stated(2.0, 5))]
    assert sorted(s.metric for s in read_text(both)) == ["energy", "time"]


def test_the_three_csv_files_pandas_writes_of_summaries_read_alike(tmp_path: Path) -> None:
    """``df.groupby(["kernel", "x"]).agg(["mean", "std", "count"]).to_csv()`` (a two-level
    header), the same of one column (``["time"].agg(...)``: bare statistics) and the
    flattened columns (``time_mean``) hold the same numbers: each reads as the others."""
    rows = [("sort", 1024, 10283.4, 400.0, 10), ("sort", 2048, 22020.0, 1031.7, 10), ("sort", 4096, 47000.5, 900.2, 10)]
    body = [f"{k},{x},{m},{sd},{n}" for k, x, m, sd, n in rows]
    files = {
        "multi": [",,time,time,time", ",,mean,std,count", "kernel,x,,,", *body],
        "single": ["kernel,x,mean,std,count", *body],
        "flat": ["kernel,x,time_mean,time_std,time_count", *body],
    }
    read_back = {}
    for name, lines in files.items():
        (tmp_path / f"{name}.csv").write_text("\n".join(lines) + "\n")
        (series,) = read(tmp_path / f"{name}.csv").series
        read_back[name] = (series.parameters, series.aggregate().tolist(), series.stated, series.lines)
    assert read_back["multi"][:3] == read_back["flat"][:3] and read_back["single"][1:3] == read_back["flat"][1:3]
    assert read_back["flat"][2] == tuple(Stated(sd, n) for _, _, _, sd, n in rows)
    assert read_back["multi"][3] == ((4,), (5,), (6,))  # the lines of the file as written
    # a file with a measured value keeps it: its mean and std are parameters, not a summary
    (tmp_path / "named.csv").write_text("x,mean,std,time\n1,1,0,2\n2,2,0,4\n")
    assert read(tmp_path / "named.csv").parameters == ("x", "mean", "std")


def test_a_dataframe_of_summaries_reads_as_its_csv_file(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    text = "kernel,x,time_mean,time_std,time_count\nsort,1024,10.0,1.0,10\nsort,2048,21.0,2.0,10\nsort,4096,44.0,3.0,5\n"
    (tmp_path / "s.csv").write_text(text)
    frame = pd.read_csv(tmp_path / "s.csv")
    (series,) = Measurements.from_dataframe(frame, parameters=["x"], value="time_mean").series
    assert series.stated == read(tmp_path / "s.csv").series[0].stated == (Stated(1.0, 10), Stated(2.0, 10), Stated(3.0, 5))
