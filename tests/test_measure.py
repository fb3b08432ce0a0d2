"""``patternalg measure``: real (tiny) programs run over a grid, the fitted model of what
they measured, resuming after an interruption, and an output never half-written."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, run_cli

from patternalg.cli import main
from patternalg.measurements import read
from patternalg.measurements.runner import Plan, journal_path, measure, region_name, usable_cores

#: sorts n seeded random floats, counting the comparisons: about n*log2(n)
SORT = """
import functools, random, sys
n = int(sys.argv[1])  # fails on '1024.0': integers are substituted as integers
count = 0
def compare(a, b):
    global count
    count += 1
    return (a > b) - (a < b)
rng = random.Random(n)
sorted([rng.random() for _ in range(n)], key=functools.cmp_to_key(compare))
print("comparisons", count)
"""
#: a pass over n items, counted: n
PASS = "import sys\nn = int(sys.argv[1])\nprint('steps', sum(1 for _ in range(n)))\n"
#: counts its runs in a file; prints the count; kills its caller (SIGKILL) on run KILL_AT
COUNTER = """
import os, pathlib, signal, sys
runs = pathlib.Path(sys.argv[2])
count = int(runs.read_text() or 0) + 1 if runs.exists() else 1
runs.write_text(str(count))
kill = pathlib.Path(sys.argv[3])
if kill.exists() and count == int(kill.read_text()):
    os.kill(os.getppid(), signal.SIGKILL)
print("run", count, "at", int(sys.argv[1]))
"""

#: what an interruption before any run finished says
NOTHING_KEPT = "no run was measured (nothing kept: a corrected command starts anew)"


def program(tmp_path: Path, name: str, text: str) -> str:
    script = tmp_path / f"{name}.py"
    script.write_text(text)
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


def test_the_measured_kernels_fit_their_models(tmp_path: Path) -> None:
    out = tmp_path / "k.txt"
    done = run_cli(
        "measure", "--over", "x=256..65536:5:log", "--repetitions", "2", "--warmup", "0",
        "--region", f"sort={program(tmp_path, 'sort', SORT)} {{x}}",
        "--region", f"pass={program(tmp_path, 'pass', PASS)} {{x}}",
        "--value-regex", r"(?:comparisons|steps) (\d+)", "--metric", "operations", "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    ms = read(out)
    assert ms.parameters == ("x",) and [s.kernel for s in ms] == ["sort", "pass"]
    assert ms.series[0].points[:, 0].tolist() == [256, 1024, 4096, 16384, 65536]
    assert [len(v) for s in ms for v in s.values] == [2] * 10
    assert ms.series[1].aggregate().tolist() == [256, 1024, 4096, 16384, 65536]
    fitted = run_cli("fit", str(out))
    assert fitted.returncode == 0, fitted.stderr
    models = dict(line.split(": ", 1) for line in fitted.stdout.splitlines() if ": " in line)
    assert "*x*log2(x)" in models["sort"] and "**" not in models["sort"]
    assert models["pass"].startswith("x ")  # exactly one step per item
    assert not journal_path(out).exists()


def test_the_wall_time_of_each_run(tmp_path: Path) -> None:
    out = tmp_path / "w.json"  # Extra-P JSON
    done = run_cli(
        "measure", f"{program(tmp_path, 'pass', PASS)} {{n}}", "--over", "n=1,10,100",
        "--repetitions", "3", "--out", str(out), "--name", "pass",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (series,) = read(out).series
    assert series.kernel == "pass" and series.unit == "s"
    assert all(len(v) == 3 and (v > 0).all() and (v < 60).all() for v in series.values)


def test_an_interrupted_run_resumes_without_losing_or_repeating_a_point(tmp_path: Path) -> None:
    out, runs, kill = tmp_path / "r.txt", tmp_path / "runs", tmp_path / "kill"
    out.write_text("the previous results\n")
    command = f"{program(tmp_path, 'counter', COUNTER)} {{x}} {runs} {kill}"
    args = (
        "measure", command, "--over", "x=1,2,3,4", "--repetitions", "3", "--warmup", "1",
        "--value-regex", r"run (\d+)", "--out", str(out), "--name", "counter",
    )  # fmt: skip
    kill.write_text("11")  # 4 warm-up runs, then 6 measured ones, then the kill
    first = run_cli(*args, process=True)  # the program kills its caller: a process of its own
    assert first.returncode != 0
    assert out.read_text() == "the previous results\n"  # never half-written, never replaced
    journal = [json.loads(line) for line in journal_path(out).read_text().splitlines()[1:]]
    assert [r["value"] for r in journal] == [5.0, 6.0, 7.0, 8.0, 9.0, 10.0]
    kill.unlink()
    second = run_cli(*args)
    assert second.returncode == 0, second.stderr
    (series,) = read(out).series
    values = sorted(v for vs in series.values for v in vs)
    assert [len(v) for v in series.values] == [3, 3, 3, 3]  # nothing lost
    assert len(set(values)) == 12  # nothing repeated
    assert {r["value"] for r in journal} <= set(values)  # the runs before the kill are kept
    assert not journal_path(out).exists()


def test_a_partly_written_journal_line_is_cut_off(tmp_path: Path) -> None:
    script = tmp_path / "p.py"
    script.write_text(PASS)
    plan = Plan.build(
        {"pass": f"{sys.executable} {script} {{x}}"}, {"x": [3.0, 5.0]}, repetitions=2,
        warmup=0, value_regex=r"steps (\d+)",
    )  # fmt: skip
    journal = tmp_path / "j"
    first = measure(plan, journal)
    lines = journal.read_text().splitlines(keepends=True)
    journal.write_text("".join(lines[:3]) + lines[3][:10])  # killed while writing run 3
    again = measure(plan, journal)
    assert again == first == {("pass", 0): [3.0, 3.0], ("pass", 1): [5.0, 5.0]}
    assert len(journal.read_text().splitlines()) == 5  # the header and four runs


def test_a_journal_of_other_options_is_not_resumed(tmp_path: Path) -> None:
    out = tmp_path / "o.txt"
    header = json.dumps({"kind": "patternalg-measure-journal", "plan": {}})
    run = json.dumps({"repetition": 0, "region": "true", "point": 0, "value": 0.1})
    journal_path(out).write_text(f"{header}\n{run}\n")
    done = run_cli("measure", "true {x}", "--over", "x=1,2", "--out", str(out))
    assert done.returncode == 2 and "other options" in done.stderr
    assert done.stderr.count("\n") == 1 and not out.exists()
    assert "remove the journal to start anew" in done.stderr


def test_a_failed_run_says_how_to_start_anew(tmp_path: Path, capsys) -> None:
    # /usr/bin/test wants integers: 31622.776601683792 fails it, as it failed a user's program
    out = tmp_path / "t.txt"
    argv = ["measure", "test {x} -ge 0", "--over", "x=1000..1e6:5:log", "--repetitions", "1"]
    assert main([*argv, "--no-integers", "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert "test 5623.413251903491 -ge 0 failed" in error or "test 31622.776601683792" in error
    assert "nothing kept: a corrected command starts anew" in error
    assert not journal_path(out).exists() and not out.exists()
    assert main([*argv, "--out", str(out)]) == 0  # the corrected command: integers
    assert read(out).series[0].points[:, 0].tolist() == [1000, 5623, 31623, 177828, 1000000]


def test_a_failure_after_some_runs_keeps_them_and_says_so(tmp_path: Path, capsys) -> None:
    out = tmp_path / "f.txt"
    argv = ["measure", "test {x} -le 2", "--over", "x=1,2,3", "--repetitions", "2", "--warmup", "0"]
    assert main([*argv, "--out", str(out), "--seed", "3"]) == 2
    error = capsys.readouterr().err
    runs = len(journal_path(out).read_text().splitlines()) - 1
    assert runs >= 0 and error.count("\n") == 1
    if runs:  # the seeded order ran some points below 3 first
        assert f"the {runs} run(s) measured are kept in {journal_path(out)}" in error
        assert "the same command resumes them, or remove that file to start anew" in error


def test_grids_of_integers_run_integers_and_the_journal_says_what_ran(tmp_path: Path) -> None:
    out = tmp_path / "e.txt"
    plan_values = []
    for grid, integers in (("x=1000..1e6:5:log", None), ("x=1..20:10:log", None), ("x=0.5..2:4", None),
                           ("x=0.5..2:4", True), ("x=1,2.5,4", None)):  # fmt: skip
        flags = [] if integers is None else ["--integers"]
        assert main(["measure", "echo {x}", "--over", grid, *flags, "--value-regex", r"\S+",
                     "--metric", "shown", "--repetitions", "1", "--warmup", "0",
                     "--out", str(out)]) == 0  # fmt: skip
        (series,) = read(out).series
        assert series.points[:, 0].tolist() == [v[0] for v in series.values]  # what ran
        plan_values.append(series.points[:, 0].tolist())
    assert plan_values == [
        [1000, 5623, 31623, 177828, 1000000],
        [1, 2, 3, 4, 5, 7, 10, 14, 20],  # 10 log points, two of them round to 1
        [0.5, 1.0, 1.5, 2.0],  # a range with an end that is no integer: as computed
        [1, 2],  # --integers: 0.5 and 1.5 round up (to 1 and 2)
        [1, 2.5, 4],  # a list: as written
    ]


def test_the_journal_records_each_runs_values(tmp_path: Path) -> None:
    plan = Plan.build({"e": "echo {x} {n}"}, {"x": [8.0, 16.0], "n": [2.0]}, repetitions=1, warmup=0)
    journal = tmp_path / "j"
    measure(plan, journal)
    records = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
    assert sorted((r["point"], r["at"]) for r in records) == [(0, {"x": 8, "n": 2}), (1, {"x": 16, "n": 2})]


@pytest.mark.parametrize(
    ("command", "name"),
    [
        ("python3 -u examples/programs/sortprog.py {x}", "sortprog"),
        ('sh -c "./scale {x} | ./filter {x}"', "scale_filter"),
        ("./my-kernel --n {x}", "my_kernel"),
        ("env OMP_NUM_THREADS=4 taskset -c 0 ./solve {x}", "solve"),
    ],
)
def test_a_region_is_named_after_the_program_it_runs(command: str, name: str) -> None:
    assert region_name(command) == name


def test_measure_records_the_cores_and_names_its_region(tmp_path: Path, capsys) -> None:
    out = tmp_path / "c.json"
    assert main(["measure", "sh -c 'true {x}'", "--over", "x=1,2", "--repetitions", "1",
                 "--out", str(out)]) == 0  # fmt: skip
    assert "the region of \"sh -c 'true {x}'\" is true (--name chooses another)" in capsys.readouterr().err
    assert json.loads(out.read_text())["context"]["num_cpus"] == usable_cores()
    assert main(["measure", "true {x}", "--over", "x=1,2", "--repetitions", "1", "--out",
                 str(tmp_path / "c.txt")]) == 0  # fmt: skip
    assert f"# cores: {usable_cores()}\n" in (tmp_path / "c.txt").read_text()


def test_no_shell_is_involved(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    done = run_cli(
        "measure", f"echo {{x}} ; touch {marker} $(touch {marker})", "--over", "x=1,2",
        "--repetitions", "1", "--out", str(tmp_path / "e.txt"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert not marker.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["true {y}", "--over", "x=1,2"], r"\{y\} is not a parameter of the grid"),
        (["/no/such/program {x}", "--over", "x=1,2"], "cannot run /no/such/program [12]: "),
        (["false {x}", "--over", "x=1,2"], r"false [12] failed \(exit status 1\)"),
        (["sleep {x}", "--over", "x=5,6", "--timeout", "0.2", "--warmup", "0"], "--timeout"),
        (["echo {x}", "--over", "x=1,2", "--value-regex", "nothing"], "no match of --value-regex"),
        (["echo {x}", "--over", "x=1,2", "--repetitions", "0"], "at least 1"),
        (["--over", "x=1,2"], "nothing to measure"),
    ],
)
def test_bad_input_is_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "bad.txt"
    done = run_cli("measure", *args, "--out", str(out))
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert re.search(message, done.stderr), done.stderr
    assert not out.exists()


def test_measure_notes_what_fit_will_refuse_in_what_it_wrote(tmp_path: Path) -> None:
    """A grid through 0 and a program printing negative times wrote a file fit then refused
    ('parameter value 0 is not positive', 'the time -5 is not positive') with no word."""
    program = tmp_path / "neg.py"
    program.write_text('import sys\nprint("t:", -float(sys.argv[1]))\n')
    out = tmp_path / "z.txt"
    done = run_cli(
        "measure", f"{shlex.quote(sys.executable)} {program} {{x}}", "--over", "x=0..4:3:lin",
        "--value-regex", r"t: (\S+)", "--metric", "time_s", "--out", str(out), "--repetitions", "1",
    )  # fmt: skip
    assert done.returncode == 0 and out.exists(), done.stderr
    assert "x = 0 is measured, but a pmnf fit leaves out the points with x <= 0" in done.stderr
    assert "2 value(s) of time_s below 0 (e.g. -2.0)" in done.stderr


def test_measure_refuses_a_grid_listing_a_value_twice(tmp_path: Path) -> None:
    """x=1,1.0,2,4 wrote POINTS 1 1 2 4, which fit refused ('POINTS lists (1) twice'),
    while the same grid written as JSON was read."""
    out = tmp_path / "h.txt"
    done = run_cli("measure", f"{shlex.quote(sys.executable)} -c pass", "--over", "x=1,1.0,2,4", "--out", str(out))
    assert done.returncode == 2 and "x = 1.0 is listed twice" in done.stderr and not out.exists()


def test_measure_does_not_write_over_a_file_a_shell_script_reads(tmp_path: Path) -> None:
    """sh -c 'prog {x}; cat data.txt' --out data.txt replaced data.txt: the words of a
    script given as one argument name files too."""
    data = tmp_path / "data.txt"
    data.write_text("keep me\n")
    done = run_cli("measure", f'sh -c "true {{x}}; cat {data}"', "--over", "x=1,2", "--out", str(data))
    assert done.returncode == 2 and "it is the input being read" in done.stderr
    assert data.read_text() == "keep me\n"


@pytest.mark.parametrize("command", ["cat {folder}/in{x}.dat", "sh -c 'cat {folder}/in{x}.dat'", "prog --in={folder}/in{x}.dat"])
def test_measure_does_not_write_over_a_file_named_through_a_placeholder(tmp_path: Path, command: str) -> None:
    """measure --over x=1,2 --out in2.dat 'cat in{x}.dat' replaced in2.dat: the words naming
    a parameter were not looked at; they name a file at each point of the grid."""
    data = tmp_path / "in2.dat"
    data.write_text("two\n")
    done = run_cli("measure", command.replace("{folder}", str(tmp_path)), "--over", "x=1,2", "--out", str(data))
    assert done.returncode == 2 and "it is the input being read" in done.stderr
    assert data.read_text() == "two\n"


def test_measure_does_not_write_over_the_program_the_search_path_finds(tmp_path: Path) -> None:
    """'myprog {x}' --out pbin/myprog, with pbin on PATH, replaced the program by its own
    measurements: a program named without a directory is the file the search path finds."""
    program = tmp_path / "pbin" / "myprog"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\necho $1\n")
    program.chmod(0o755)
    env = {"PATH": f"{program.parent}{os.pathsep}{os.environ['PATH']}"}
    done = run_cli("measure", "myprog {x}", "--over", "x=1,2", "--out", str(program), env=env)
    assert done.returncode == 2 and "it is the input being read" in done.stderr
    assert program.read_text() == "#!/bin/sh\necho $1\n"


def test_a_journal_that_cannot_be_written_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a full disk measure said only 'error: No space left on device' and left an empty
    journal."""
    import errno

    from patternalg.errors import PatternalgError
    from patternalg.measurements import journal as journal_module

    plan = Plan.build({"k": f"{shlex.quote(sys.executable)} -c pass {{x}}"}, {"x": [1.0, 2.0]}, repetitions=1)
    with pytest.raises(PatternalgError, match=r"cannot write the journal .*missing.*: No such file or directory"):
        measure(plan, tmp_path / "missing" / "m.txt.journal")

    def full(log: object, record: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(journal_module.Journal, "append", full)
    journal = tmp_path / "m.txt.journal"
    with pytest.raises(PatternalgError, match=r"cannot write the journal .*m.txt.journal: No space left on device; no run was measured"):
        measure(plan, journal)
    assert not journal.exists()


def test_an_output_that_cannot_be_written_at_the_end_names_the_journal_that_keeps_the_runs(tmp_path: Path, capsys) -> None:
    """The output became a directory while it measured: the error said 'cannot write' alone,
    and nothing said where the runs measured were (the journal, which the same command resumes)."""
    out = tmp_path / "m.txt"
    maker = program(tmp_path, "maker", f"import os\nos.makedirs({str(out)!r}, exist_ok=True)\n")
    argv = ["measure", f"{maker} {{x}}", "--over", "x=1,2", "--repetitions", "1", "--warmup", "0", "--out", str(out)]
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"patternalg measure: error: cannot write {out}: it is a directory") and error.count("\n") == 1
    assert f"the 2 run(s) measured are kept in {journal_path(out)}: the same command resumes them" in error
    assert len(journal_path(out).read_text().splitlines()) == 3  # its header and the 2 runs
    out.rmdir()
    maker_gone = tmp_path / "maker.py"
    maker_gone.write_text("raise SystemExit(1)\n")  # resumed: nothing runs again
    assert main(argv) == 0
    assert read(out).series[0].points[:, 0].tolist() == [1, 2] and not journal_path(out).exists()


@pytest.mark.skipif(os.name != "posix", reason="a file-size limit (RLIMIT_FSIZE)")
def test_a_journal_filling_the_disk_keeps_its_runs_whole(tmp_path: Path) -> None:
    """On a full disk measure said only 'error: No space left on device' (closing the journal
    wrote its buffer again, and that error replaced the one naming the journal), and left a
    half-written last line. A file-size limit stands in for the full disk."""
    import resource

    out = tmp_path / "j.txt"

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (3000, 3000))

    done = subprocess.run(
        [sys.executable, "-m", "patternalg.cli", "measure", "--over", "x=1..100:100",
         "--warmup", "0", "--out", str(out), "true {x}"],
        capture_output=True, text=True, preexec_fn=limited, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    lines = journal_path(out).read_text().splitlines(keepends=True)
    runs = len(lines) - 1
    assert runs > 5 and all(line.endswith("}\n") for line in lines)
    assert done.stderr == (
        f"patternalg measure: error: cannot write the journal {journal_path(out)}: File too large; "
        f"the {runs} run(s) measured are kept in {journal_path(out)}: the same command resumes "
        "them, or remove that file to start anew\n"
    )


def test_a_second_measure_of_the_same_out_is_refused_while_the_first_runs(tmp_path: Path) -> None:
    """Two measurements of one --out ran at once: their programs disturbed each other's
    timings, their journal lines mixed, and the second failed at its end (the journal removed
    by the first)."""
    out = tmp_path / "cc.txt"
    first = subprocess.Popen(
        [sys.executable, "-m", "patternalg.cli", "measure", "--over", "x=1..2:2", "--warmup", "0",
         "--out", str(out), "sleep 3 {x}"],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not journal_path(out).exists() or not journal_path(out).read_text():
            assert time.monotonic() < deadline and first.poll() is None
            time.sleep(0.05)
        done = run_cli("measure", "--over", "x=1..2:2", "--warmup", "0", "--out", str(out), "sleep 3 {x}")
        assert done.returncode == 2 and done.stderr == (
            f"patternalg measure: error: {journal_path(out)}: another patternalg measure is writing "
            "this journal (its --out is the same); wait for it to end, or give another --out\n"
        )
    finally:
        first.terminate()
        first.communicate(timeout=60)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rpartition(")")[2].split()[0] == "Z")


def _started(path: Path) -> int:
    deadline = time.monotonic() + 60
    while not (path.exists() and path.read_text().strip()):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return int(path.read_text())


@pytest.mark.skipif(os.name != "posix", reason="POSIX sessions and signals")
def test_a_stopped_run_stops_the_processes_it_started(tmp_path: Path) -> None:
    """With --timeout the message said 'it was stopped' but the program's own child (sleep)
    ran on, and a SIGTERM to measure left the program running."""
    pid = tmp_path / "pid"
    command = f"sh -c 'sleep 30 & echo $! > {shlex.quote(str(pid))}; wait' {{x}}"
    done = run_cli("measure", "--over", "x=1,2", "--repetitions", "1", "--warmup", "0",
                   "--timeout", "0.5", "--out", str(tmp_path / "t.txt"), command)  # fmt: skip
    assert done.returncode == 2 and "it was stopped" in done.stderr
    assert not _alive(_started(pid))
    pid.unlink()
    out = tmp_path / "s.txt"
    measuring = subprocess.Popen(
        [sys.executable, "-m", "patternalg.cli", "measure", "--over", "x=1,2", "--warmup", "0",
         "--out", str(out), command],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    sleeping = _started(pid)
    measuring.terminate()
    _, stderr = measuring.communicate(timeout=60)
    assert measuring.returncode == 130 and stderr == f"patternalg: interrupted; {NOTHING_KEPT}\n"
    assert not _alive(sleeping) and not journal_path(out).exists()


#: a program that outlives SIGTERM (only SIGKILL ends it), writing its number to DIR/term; its pid in DIR/pid
STUBBORN = """
import os, pathlib, signal, sys, time
marks = pathlib.Path(sys.argv[1])
signal.signal(signal.SIGTERM, lambda signum, frame: (marks / "term").write_text(str(signum)))
(marks / "pid").write_text(str(os.getpid()))
while True:
    time.sleep(1)
"""
#: measure with a second SIGTERM raised in stop() before it holds the signals, as one comes
#: when the process is kept from the CPU between the handler of the first and stop
SECOND_BEFORE_STOP = """
import signal, sys
from patternalg.measurements import processes
stop = processes.stop
def stop_after_a_second_signal(process):
    signal.raise_signal(signal.SIGTERM)
    stop(process)
processes.stop = stop_after_a_second_signal
from patternalg.cli import main
sys.exit(main())
"""


def _measuring_a_stubborn_program(tmp_path: Path, start: list[str]) -> tuple[subprocess.Popen[str], int]:
    """``measure`` of :data:`STUBBORN` started (``start``: how Python runs patternalg), and
    the pid of the program once it runs."""
    marks = tmp_path / "marks"
    marks.mkdir()
    command = f"{program(tmp_path, 'stubborn', STUBBORN)} {shlex.quote(str(marks))} {{x}}"
    measuring = subprocess.Popen(
        [sys.executable, *start, "measure", "--over", "x=1,2", "--warmup", "0",
         "--out", str(tmp_path / "s.txt"), command],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    return measuring, _started(marks / "pid")


def _ended(pid: int) -> bool:
    """Whether process ``pid`` ends within 30 s (one SIGKILLed on a loaded machine may take a
    moment to exit; one left running would not: the program runs for ever)."""
    deadline = time.monotonic() + 30
    while _alive(pid):
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            return False
        time.sleep(0.05)
    return True


@pytest.mark.skipif(os.name != "posix", reason="POSIX sessions and signals")
def test_a_second_signal_in_the_grace_second_still_stops_the_processes(tmp_path: Path) -> None:
    """A program that ignores SIGTERM gets SIGKILL a second later; a second Ctrl-C or SIGTERM
    within that second raised in the wait and left the program running. The second signal is
    sent once the program has the first's SIGTERM from stop (it was sent 0.3 s after the
    first, which on a loaded machine could come anywhere)."""
    measuring, pid = _measuring_a_stubborn_program(tmp_path, ["-m", "patternalg.cli"])
    measuring.terminate()
    _started(tmp_path / "marks" / "term")
    measuring.terminate()
    _, stderr = measuring.communicate(timeout=60)
    assert _ended(pid)
    # on a loaded machine the second signal can come after measure has stopped the program
    # and set SIGTERM's action back: then it ends measure at once
    if measuring.returncode != -signal.SIGTERM:
        assert measuring.returncode == 130 and stderr == f"patternalg: interrupted; {NOTHING_KEPT}\n"


@pytest.mark.skipif(os.name != "posix", reason="POSIX sessions and signals")
def test_a_second_signal_before_stop_holds_the_signals_still_stops_the_processes(tmp_path: Path) -> None:
    """A second SIGTERM between the first's handler and stop()'s holding of the signals (a
    process kept from the CPU there under load) ended measure with the program running."""
    measuring, pid = _measuring_a_stubborn_program(tmp_path, ["-c", SECOND_BEFORE_STOP])
    measuring.terminate()
    _, stderr = measuring.communicate(timeout=60)
    assert _ended(pid)
    assert (tmp_path / "marks" / "term").exists()  # stop sent SIGTERM, then SIGKILL
    assert measuring.returncode == 130 and stderr == f"patternalg: interrupted; {NOTHING_KEPT}\n"


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("pipe(a,b", "syntax error, the text ends too early"),
        ("A", "a law's metavariable"),
        ("seq", "expected '('"),
    ],
)
def test_a_region_named_neither_an_atom_nor_a_term_is_refused_before_measuring(tmp_path: Path, name, fragment) -> None:
    """``--region 'pipe(a,b'=...`` measured every run and fit then read an atom pipe_a_b:
    a region is an atom or the term of the composition it measures (measure --help)."""
    out = tmp_path / "m.txt"
    result = run_cli("measure", "--region", f"{name}=true {{x}}", "--over", "x=1,2,3", "--repetitions", "1", "--out", str(out))
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert f"region {name}: a region is named by an atom" in result.stderr and fragment in result.stderr
    assert not out.exists() and not list(tmp_path.iterdir())


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="the peak memory of a process (VmHWM)")
def test_a_runs_output_is_neither_held_in_memory_nor_timed(tmp_path: Path) -> None:
    """'head -c 1500M /dev/zero' took 3.15 GB and was timed at 6.66 s (0.04 s to /dev/null):
    its whole output was read into memory, while the run was timed; of standard error only
    the last line is wanted."""
    script = """
import re
from patternalg.errors import PatternalgError
from patternalg.measurements.processes import run_program
value, _ = run_program(["head", "-c", "300M", "/dev/zero"], 60.0, "--timeout", None)
try:
    run_program(["sh", "-c", "yes error | head -c 120000000 >&2; echo boom >&2; exit 3"], 60.0, "--timeout", None)
except PatternalgError as exc:
    print(exc)
print(re.search(r"VmHWM:\\s*(\\d+) kB", open("/proc/self/status").read())[1], value)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    assert done.returncode == 0, done.stderr
    error, usage = done.stdout.splitlines()
    assert error.endswith("failed (exit status 3): boom")
    assert int(usage.split()[0]) < 200_000  # kB: not the 300 MB the program wrote (VmHWM: since exec)


def test_a_runs_time_ends_at_its_exit_not_at_its_background_processes(tmp_path: Path) -> None:
    """A 0.05 s program whose background child held its output pipes was timed at 1.07 s."""
    from patternalg.measurements.processes import run_program

    value, elapsed = run_program(["sh", "-c", "sleep 3 & echo took 5"], 30.0, "--timeout", r"took (\d+)")
    assert value == 5.0 and elapsed < 2
    assert run_program(["sh", "-c", "sleep 3 &"], 30.0, "--timeout", None)[0] < 2


def test_value_regex_searches_a_bounded_standard_output(monkeypatch: pytest.MonkeyPatch) -> None:
    from patternalg.errors import PatternalgError
    from patternalg.measurements import processes

    monkeypatch.setattr(processes, "OUTPUT_LIMIT", 10)
    with pytest.raises(PatternalgError, match="its standard output has 22 bytes; value_regex= searches 10 at most"):
        processes.run_program(["echo", "took 42.5 ms and more"], 30.0, "--timeout", r"took (\S+)")
    with pytest.raises(PatternalgError, match="its standard output has no match of value_regex="):
        processes.run_program(["sh", "-c", "echo took 4 >&2"], 30.0, "--timeout", r"took (\S+)")


@pytest.mark.parametrize(
    ("regex", "value"), [(r"took ([0-9.]+) s|elapsed: ([0-9.]+)", 2.5), (r"(a)?elapsed: (\S+)", 2.5)]
)
def test_value_regex_takes_the_first_group_that_matched(regex: str, value: float) -> None:
    """A first group outside the match (an alternative, an optional group) crashed with a
    TypeError (float(None)) and left a journal of its header alone."""
    from patternalg.measurements.processes import run_program

    assert run_program(["echo", "elapsed: 2.5"], 30.0, "--timeout", regex)[0] == value


def test_value_regex_whose_groups_all_missed_is_one_line(tmp_path: Path) -> None:
    out = tmp_path / "v.txt"
    done = run_cli("measure", "echo elapsed: {x}", "--over", "x=1,2", "--value-regex", "(a)?", "--out", str(out))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "--value-regex '(a)?' matched '', but none of its groups took part in the match" in done.stderr
    assert not out.exists() and not journal_path(out).exists()


@pytest.mark.skipif(os.name != "posix", reason="signals")
def test_a_program_killed_by_a_signal_is_named_so(tmp_path: Path) -> None:
    """It said 'failed (exit status -11)'."""
    done = run_cli("measure", "sh -c 'kill -SEGV $$' {x}", "--over", "x=1,2", "--out", str(tmp_path / "s.txt"))
    assert done.returncode == 2 and "failed (killed by signal SIGSEGV): no message" in done.stderr


@pytest.mark.parametrize(("newline", "bom"), [("\n", ""), ("\r\n", ""), ("\r\n", "\ufeff"), ("\n", "\ufeff"), ("\r", "")])
def test_a_journal_of_any_line_ends_has_its_partly_written_line_cut_off(tmp_path: Path, newline: str, bom: str) -> None:
    """A journal with CRLF line ends or a BOM (an editor's) was cut at an offset counted in
    the text read (CRLF as LF, no BOM): its last whole line cut, the next resume refused it."""
    plan = Plan.build({"e": "echo {x}"}, {"x": [3.0, 5.0]}, repetitions=2, warmup=0, value_regex=r"\d+")
    journal = tmp_path / "j"
    first = measure(plan, journal)
    lines = journal.read_text().splitlines()
    journal.write_bytes((bom + newline.join(lines[:3]) + newline + lines[3][:10]).encode())
    assert measure(plan, journal) == first  # the runs of lines 2 and 3 kept, line 4 run again
    assert measure(plan, journal) == first  # the journal resumed is one to resume again
    assert len(journal.read_text().splitlines()) == 5


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_a_journal_that_is_no_regular_file_is_refused(tmp_path: Path) -> None:
    """A FIFO at OUT.journal hung measure, reading it for ever."""
    out = tmp_path / "ff.txt"
    os.mkfifo(journal_path(out))
    done = subprocess.run(
        [sys.executable, "-m", "patternalg.cli", "measure", "echo {x}", "--over", "x=1,2", "--out", str(out)],
        capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert f"cannot write the journal {journal_path(out)}: it is a FIFO, not a regular file" in done.stderr


#: counts its runs in a file; on run 3 sends its caller (measure) a SIGTERM, and waits
TERMINATOR = """
import os, pathlib, signal, sys, time
runs = pathlib.Path(sys.argv[2])
count = int(runs.read_text()) + 1 if runs.exists() else 1
runs.write_text(str(count))
if count == 3:
    os.kill(os.getppid(), signal.SIGTERM)
    time.sleep(30)
"""


@pytest.mark.skipif(os.name != "posix", reason="signals")
def test_an_interruption_and_a_resumption_say_what_the_journal_keeps(tmp_path: Path) -> None:
    """An interruption said 'interrupted' alone, and the same command then resumed the runs
    of the journal without a word (of a program rebuilt meanwhile too)."""
    out, runs = tmp_path / "i.txt", tmp_path / "runs"
    args = ("measure", f"{program(tmp_path, 'term', TERMINATOR)} {{x}} {runs}", "--over", "x=1,2",
            "--repetitions", "2", "--warmup", "0", "--name", "term", "--out", str(out))  # fmt: skip
    first = run_cli(*args, process=True)
    assert first.returncode == 130 and first.stderr == (
        f"patternalg: interrupted; the 2 run(s) measured are kept in {journal_path(out)}: the same "
        "command resumes them, or remove that file to start anew\n"
    )
    second = run_cli(*args)
    assert second.returncode == 0, second.stderr
    assert (
        f"note: resuming the 2 run(s) journaled in {journal_path(out)} (the same command and grid); "
        "remove it to measure anew\n"
    ) in second.stderr
    assert runs.read_text() == "5"  # two runs kept, the third run again, and the fourth


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["./s.sh 20", "--over", "x=1,2"], r"--over x: no command names \{x\} \(the command: './s.sh 20'\)"),
        (["true {x}", "--over", "x=1,2", "--over", "y=1,2"], r"--over y: no command names \{y\}"),
        (["--region", "a=true {x}", "--region", "b=true {x}", "--over", "x=1,2", "--over", "n=1,2"],
         r"--over n: no command names \{n\} \(the commands: 'true \{x\}', 'true \{x\}'\)"),
        (["--region", "a=true {x}", "--name", "foo", "--over", "x=1,2"],
         "--name foo: names the region of COMMAND, and no COMMAND is given"),
    ],
)
def test_a_parameter_or_name_nothing_uses_is_refused(tmp_path: Path, args: list[str], message: str) -> None:
    """A grid parameter no command names ran the same commands at every point, and --name
    beside --region alone was ignored, without a word."""
    out = tmp_path / "nx.txt"
    done = run_cli("measure", *args, "--out", str(out))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert re.search(message, done.stderr), done.stderr
    assert not out.exists() and not journal_path(out).exists()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda plan, j: measure("notaplan", j), "plan: expected a Plan"),  # an AttributeError
        (lambda plan, j: measure(plan, 42), "journal: expected the path of the journal file; got int 42"),
        (lambda plan, j: measure(plan, j, progress=5), "progress: expected None or a function"),  # after the warm-ups
        (lambda plan, j: measure(plan, j, resuming="yes"), "resuming: expected None or a function"),
        (lambda plan, j: Plan.build({"k": "true {x}"}, {"": [1, 2]}, repetitions=1), "grid key: expected a parameter name"),
        (lambda plan, j: Plan.build({"k": "true {x}"}, {"x": [1, 1]}, repetitions=1),
         r"grid\['x'\]: expected a list of finite numbers, each once"),
        (lambda plan, j: Plan.build({"": "true {x}"}, {"x": [1, 2]}, repetitions=1), "regions key: expected a region name"),
    ],
)
def test_measure_and_plan_check_their_arguments_before_running(tmp_path: Path, call, message: str) -> None:
    """Each of these failed deep inside (an AttributeError, a TypeError after every warm-up
    run), or was taken: an empty region or parameter name, a point listed twice."""
    from patternalg.errors import ArgumentError

    plan = Plan.build({"k": f"touch {tmp_path}/ran{{x}}"}, {"x": [1, 2]}, repetitions=1)
    with pytest.raises(ArgumentError, match=message):
        call(plan, tmp_path / "j")
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing ran, no journal


def test_measure_refuses_a_parameter_no_command_can_name(tmp_path: Path) -> None:
    done = run_cli("measure", "echo {x}", "--over", "α=1,2", "--out", str(tmp_path / "a.txt"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "--over α=1,2: a parameter a command names as {NAME} is a letter or _, then letters" in done.stderr


def test_a_timeout_of_years_is_waited_for(tmp_path: Path) -> None:
    """--timeout 1e8 (under the 1e9 allowed) overflowed poll's milliseconds, a traceback."""
    from patternalg.measurements.processes import run_program

    assert run_program(["echo", "took 3"], 1e8, "--timeout", r"took (\d+)")[0] == 3.0


@pytest.mark.skipif(os.name != "posix", reason="POSIX sessions and signals")
def test_a_signal_while_the_program_starts_stops_it_before_measure_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C that came inside ``subprocess.Popen``, once the program had started, raised
    there: the process object was lost and the program ran on in its own session, which no
    signal to measure reaches. The signal now waits for Popen to return; the program is
    stopped, then the signal acts (here a KeyboardInterrupt)."""
    from patternalg.measurements import processes

    started: list[subprocess.Popen[bytes]] = []
    real = subprocess.Popen

    def popen_then_ctrl_c(*args: object, **kwargs: object) -> subprocess.Popen[bytes]:
        started.append(real(*args, **kwargs))  # type: ignore[call-overload]
        signal.raise_signal(signal.SIGINT)  # inside Popen, after the program started
        return started[-1]

    monkeypatch.setattr(processes.subprocess, "Popen", popen_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        processes.run_program(["sleep", "30"], 60.0, "--timeout", None)
    assert len(started) == 1 and started[0].poll() is not None  # stopped, not left running
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
