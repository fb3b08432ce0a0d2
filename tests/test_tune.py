"""OPreSca (Algorithm 2 of paper 004), the Binsearch baseline, and the ``tune`` command."""

from __future__ import annotations

import json

import pytest

from patternalg.cli import main
from patternalg.errors import PatternalgError
from patternalg.forms.presca.tuning import (
    OPreSca,
    Run,
    Scores,
    mean_scores,
    run_binsearch,
    run_opresca,
    score,
    step_error,
)

THREADS = range(1, 49)


def contention(peak: float) -> dict[int, float]:
    """A throughput that rises, peaks near ``peak`` threads and falls (kmeans-like)."""
    return {n: 100.0 * n / (1.0 + (n / peak) ** 2) for n in THREADS}


def amdahl_time(serial: float, overhead: float) -> dict[int, float]:
    """An execution time with a serial fraction and a per-thread overhead: a U shape."""
    return {n: serial + (1 - serial) / n + overhead * n for n in THREADS}


UNIMODAL = [
    (contention(10), True),
    (contention(20), True),
    (contention(40), True),
    (amdahl_time(0.05, 0.0005), False),
    (amdahl_time(0.01, 0.002), False),
]


def best(table: dict[int, float], higher_is_better: bool) -> int:
    return (max if higher_is_better else min)(table, key=table.__getitem__)


# --- Binsearch -----------------------------------------------------------------------------
def test_binsearch_first_phase_is_1_5_13_29_61():
    increasing = {n: float(n) for n in range(1, 101)}
    run = run_binsearch(increasing, higher_is_better=True)
    assert [n for n, _ in run.steps] == [1, 5, 13, 29, 61, 100, 80, 90, 95, 97, 98, 99]
    assert run.chosen == 100


def test_binsearch_brackets_the_peak_then_halves_the_wider_side():
    table = contention(20)
    run = run_binsearch(table, higher_is_better=True)
    steps = [n for n, _ in run.steps]
    assert steps[:5] == [1, 5, 13, 29, 48][: steps.index(29) + 2]
    assert run.chosen == best(table, True)
    assert len(set(steps)) == len(steps)


def test_binsearch_on_a_sparse_table_uses_the_nearest_counts():
    table = {n: v for n, v in contention(20).items() if n in (1, 4, 8, 12, 16, 24, 32, 48)}
    run = run_binsearch(table, higher_is_better=True)
    assert {n for n, _ in run.steps} <= set(table)
    assert [n for n, _ in run.steps][:3] == [1, 4, 12]
    assert run.chosen == best(table, True)


# --- OPreSca -------------------------------------------------------------------------------
@pytest.mark.parametrize(("table", "higher"), UNIMODAL)
@pytest.mark.parametrize("init", [None, [12, 24, 36]])
def test_opresca_converges_on_unimodal_workloads(table, higher, init):
    runs = [run_opresca(table, higher, init=init, seed=seed) for seed in range(3)]
    for run in runs:
        steps = [n for n, _ in run.steps]
        assert len(set(steps)) == len(steps)
        assert run.chosen in steps  # converged: the predicted best was measured
        assert score(run, table, higher).E < 0.05
    assert mean_scores(score(r, table, higher) for r in runs).S < 10


def test_opresca_uses_given_initial_counts_then_its_predictions():
    tuner = OPreSca(THREADS, higher_is_better=True, init=[12, 24, 36])
    table = contention(20)
    chosen = [tuner.next_threads()]
    for _ in range(2):
        chosen.append(tuner.interval_expired(chosen[-1], table[chosen[-1]]))
    assert chosen == [12, 24, 36]
    assert not tuner.converged
    following = tuner.interval_expired(36, table[36])
    assert following not in (12, 24, 36) and 12 < following < 36  # best inside: interpolate


def test_opresca_random_initial_counts_are_seeded_and_distinct():
    def first_three(seed):
        tuner = OPreSca(THREADS, True, seed=seed)
        counts = []
        for _ in range(3):
            counts.append(tuner.next_threads())
            tuner.record(counts[-1], 1.0 + len(counts))
        return counts

    assert first_three(7) == first_three(7)
    assert len(set(first_three(7))) == 3
    assert first_three(7) != first_three(8)


def test_opresca_workload_change_starts_over():
    tuner = OPreSca(THREADS, True, init=[12, 24, 36])
    for table in (contention(10), contention(40)):
        n = tuner.next_threads()
        while not tuner.converged:
            n = tuner.interval_expired(n, table[n])
        assert abs(n - best(table, True)) <= 2
        tuner.workload_change()
        assert tuner.measured == {} and tuner.next_threads() == 12


def test_opresca_against_a_callable_source():
    calls = []

    def workload(threads: int) -> float:
        calls.append(threads)
        return amdahl_time(0.05, 0.0005)[threads]

    run = run_opresca(workload, False, threads=list(THREADS), init=[12, 24, 36])
    assert calls == [n for n, _ in run.steps]
    assert abs(run.chosen - best(amdahl_time(0.05, 0.0005), False)) <= 3


def test_opresca_on_a_sparse_table_only_chooses_its_counts():
    table = {n: v for n, v in contention(20).items() if n % 4 == 0 or n == 1}
    for seed in range(3):
        run = run_opresca(table, True, seed=seed)
        assert {n for n, _ in run.steps} <= set(table)


def test_opresca_rejects_initial_counts_outside_the_table():
    with pytest.raises(PatternalgError, match="initial thread count 50 is not among"):
        OPreSca(THREADS, True, init=[12, 50])
    with pytest.raises(PatternalgError, match="repeat"):
        OPreSca(THREADS, True, init=[12, 12])


# --- scores --------------------------------------------------------------------------------
def test_scores_follow_tables_2_and_3():
    table = {1: 10.0, 2: 18.0, 4: 30.0, 8: 25.0}  # a throughput, best 30 at 4 threads
    run = Run(((1, 10.0), (8, 25.0), (2, 18.0), (4, 30.0)), chosen=4)
    result = score(run, table, higher_is_better=True)
    errors = [2.0, 0.2, 12 / 18, 0.0]  # |value - best| / value
    assert result == Scores(E=0.0, S=4, E_S=pytest.approx(sum(errors) / 4), S_E_gt_10=3)
    assert result.cost == pytest.approx(sum(errors))
    time = {1: 10.0, 2: 6.0, 4: 5.0}  # a time: the error of 1 thread is (10 - 5) / 10
    assert score(Run(((1, 10.0), (4, 5.0)), 4), time, False).E_S == pytest.approx(0.25)
    assert step_error(15.0, 10.0) == pytest.approx(1 / 3)


# --- the command ---------------------------------------------------------------------------
def _table_file(tmp_path, table, column="throughput"):
    path = tmp_path / "w.csv"
    path.write_text(f"p,{column}\n" + "".join(f"{n},{v}\n" for n, v in table.items()))
    return str(path)


def test_tune_command_json(tmp_path, capsys):
    path = _table_file(tmp_path, contention(20))
    assert main(["tune", path, "--format", "json", "--runs", "3", "--seed", "1"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record) >= {"opresca", "binsearch"}
    for tuner in ("opresca", "binsearch"):
        assert set(record[tuner]) == {"chosen", "E", "S", "E_S", "S_E_gt_10"}
    assert record["binsearch"]["chosen"] == best(contention(20), True)
    assert record["runs"] == 3
    assert main(["tune", path, "--init", "12,24,36", "--max-threads", "40"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["workload", "tuner", "chosen", "E", "S", "E_S", "S_E>10%"]
    assert [line.split()[1] for line in lines[1:]] == ["OPreSca", "Binsearch"]


def test_tune_command_errors(tmp_path, capsys):
    path = _table_file(tmp_path, contention(20))
    assert main(["tune", path, "--init", "12,x"]) == 2
    assert capsys.readouterr().err == (
        "patternalg tune: error: --init: expected 'random' or thread counts like 12,24,36, "
        "got '12,x'\n"
    )
    assert main(["tune", path, "--max-threads", "2"]) == 2
    assert "the tuners need at least 3 thread counts" in capsys.readouterr().err
    ops = _table_file(tmp_path, contention(20), column="ops")
    assert (
        main(
            ["tune", ops, "--metric", "ops", "--lower-is-better", "--format", "json", "--runs", "1"]
        )
        == 0
    )
    # read as a time, the contention curve's best is its lowest value: 1 thread or 48
    assert json.loads(capsys.readouterr().out)["binsearch"]["chosen"] in (1, 48)


def test_opresca_extrapolates_when_the_best_is_at_an_edge():
    tuner = OPreSca(THREADS, higher_is_better=True, init=[4, 8, 12])
    for n in (4, 8, 12):  # still rising at 12: Rat11 through 3 points, sought over 1..48
        tuner.record(n, 100.0 * n / (1 + n / 40))
    assert tuner.predicted_best() == 48
    tuner = OPreSca(THREADS, higher_is_better=False, init=[4, 8, 12])
    for n, t in ((4, 5.0), (8, 3.0), (12, 4.0)):  # best inside: a parabola, vertex 8 2/3
        tuner.record(n, t)
    assert tuner.predicted_best() == 9


def test_tune_leaves_out_a_workload_it_cannot_use_and_tunes_the_rest(tmp_path, capsys):
    """A workload with 2 counts, or without an --init count, aborted the whole file."""
    rows = [("a", n, 100 / n + n) for n in (1, 2, 4, 8, 16, 32)] + [("b", 1, 100), ("b", 2, 60)]
    rows += [("c", n, 100 / n + n) for n in (1, 2, 4, 8)]
    path = tmp_path / "multi.csv"
    path.write_text("kernel,p,time\n" + "".join(f"{k},{n},{t}\n" for k, n, t in rows))
    assert main(["tune", str(path), "--format", "json", "--runs", "1"]) == 0
    out, err = capsys.readouterr()
    assert [r["workload"] for r in json.loads(out)] == ["a", "c"]
    assert err == (
        f"warning: {path}: workload b: the tuners need at least 3 thread counts (up to "
        "--max-threads), got 2 (left out; the other workloads are tuned)\n"
    )
    assert main(["tune", str(path), "--format", "json", "--init", "1,2,32"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["workload"] == "a"
    assert "workload c: initial thread count 32 is not among" in err and "workload b" in err
