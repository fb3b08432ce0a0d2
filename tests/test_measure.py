"""``patternalg measure``: real (tiny) programs run over a grid, the fitted model of what
they measured, resuming after an interruption, and an output never half-written."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest
from helpers import run_cli

from patternalg.measurements import read
from patternalg.measurements.runner import Plan, journal_path, measure

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
    assert models["pass"].startswith("1.0*x") or models["pass"].startswith("x ")
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
    journal_path(out).write_text(
        json.dumps({"kind": "patternalg-measure-journal", "plan": {}}) + "\n"
    )
    done = run_cli("measure", "true {x}", "--over", "x=1,2", "--out", str(out))
    assert done.returncode == 2 and "other options" in done.stderr
    assert done.stderr.count("\n") == 1 and not out.exists()


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
