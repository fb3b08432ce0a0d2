"""The newer surfaces as hard as the old (issue 40): machine files, units, the files a command
reads, the harness readers, ``measure``, the uncertainty tables and their Python API. Each
input a campaign found crashing, hanging or losing a file is now one line on stderr and exit
status 2 (or the right answer), quickly; each test here failed before its fix."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest
import sympy

from patternalg._internal.limits import MAX_FILE_BYTES
from patternalg._internal.reading import NotText, TooLarge, read_stream
from patternalg.cli import main
from patternalg.errors import ArgumentError, PatternalgError


def one_error(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    """The one line ``patternalg ARGS`` writes on stderr, with exit status 2 and no output."""
    try:
        status = main(args)
    except SystemExit as exc:  # argparse's errors
        status = exc.code
    assert status == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    return line


# --- every file read is bounded ------------------------------------------------------------
DEVICE_READS = [
    ["eval", "qsort", "--machine", "/dev/zero"],
    ["eval", "qsort", "--models", "/dev/zero"],
    ["fit", "/dev/zero"],
    ["eval", "@/dev/zero"],
]


@pytest.mark.parametrize("args", DEVICE_READS, ids=lambda a: " ".join(a))
def test_a_device_is_refused_not_read_without_end(args, capsys) -> None:
    assert "not a text file (a NUL byte at byte 0)" in one_error(capsys, args)


@pytest.mark.parametrize("option", ["--machine", "--models", "fit", "fit-csv"])
def test_a_file_over_the_limit_is_refused_before_it_is_read(option, tmp_path, capsys) -> None:
    """A sparse file of MAX_FILE_BYTES + 1 bytes: its size refuses it, nothing is read."""
    big = tmp_path / ("big.csv" if option == "fit-csv" else "big.txt")
    with open(big, "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    args = ["fit", str(big)] if option.startswith("fit") else ["eval", "qsort", option, str(big)]
    assert f"larger than {MAX_FILE_BYTES:,} bytes" in one_error(capsys, args)


def test_a_stream_is_read_to_the_limit_only() -> None:
    assert read_stream(io.BytesIO(b"abc"), limit=3) == b"abc"
    with pytest.raises(TooLarge):
        read_stream(io.BytesIO(b"abcd"), limit=3)
    with pytest.raises(NotText):
        read_stream(io.BytesIO(b"ab\0"), limit=10)


# --- the harness readers are linear in their size (H1, H2) ----------------------------------
def _counting(monkeypatch, module, name: str) -> list[int]:
    calls = [0]
    original = getattr(module, name)

    def counted(*args):
        calls[0] += 1
        return original(*args)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_hyperfine_checks_each_parameter_once(monkeypatch, tmp_path) -> None:
    """One command over n values: the parameter's values are checked n times, not n^2
    (100,000 values took over 300 s), and the kernel is the command with {n}."""
    from patternalg.measurements import hyperfine, read

    n = 400
    results = [
        {"command": f"./k -n {i} -m sort", "mean": 1.0, "times": [1.0, 1.1], "parameters": {"n": str(i)}}
        for i in range(1, n + 1)
    ]
    path = tmp_path / "hf.json"
    path.write_text(json.dumps({"results": results}))
    calls = _counting(monkeypatch, hyperfine, "is_number_text")
    (series,) = read(path).series
    assert calls[0] <= 2 * n
    assert series.kernel == "./k -n {n} -m sort"
    assert len(series.points) == n


def test_pytest_benchmark_checks_each_parameter_once(monkeypatch, tmp_path) -> None:
    from patternalg.measurements import pytest_benchmark, read

    n = 400
    rows = [
        {"name": f"test_k[{i}]", "params": {"n": i, "kind": "a"}, "stats": {"data": [1e-6, 2e-6]}}
        for i in range(1, n + 1)
    ]
    path = tmp_path / "pb.json"
    path.write_text(json.dumps({"machine_info": {}, "benchmarks": rows}))
    calls = _counting(monkeypatch, pytest_benchmark, "is_number")
    (series,) = read(path).series
    assert calls[0] <= 4 * n
    assert series.kernel == "test_k[kind=a]" and len(series.points) == n


def test_a_value_stands_alone_in_the_command() -> None:
    from patternalg.measurements.hyperfine import kernel_of

    assert kernel_of("./k1 -n 100 -t 100.5 --size=100 x100 100_", {"n": "100"}) == (
        "./k1 -n {n} -t 100.5 --size={n} x100 100_"
    )
    assert kernel_of("run 1e3 1e30 -1e3", {"n": "1e3"}) == "run {n} 1e30 -{n}"


# --- machine files: bounded as model files are (M1-M11) -------------------------------------
def _machine(tmp_path: Path, cores: int, body: str) -> str:
    path = tmp_path / "m.toml"
    path.write_text(f"format = 1\n[machine]\ncores = {cores}\n{body}\n")
    return str(path)


MACHINE_ERRORS = [  # (cores, the [machine] table's body, term, a fragment of the one error line)
    (2, 'handoff = "x^x"', "pipe(qsort, inc)", "--at x=1024: the value has about 3.08e+03 digits"),
    (2, 'handoff = "sqrt(-x)"', "pipe(qsort, inc)", "m.toml:4: machine.handoff: line 1, column 1: I*sqrt(x) is not a real number (a root or a log of a negative number)"),
    (2, 'handoff = "sqrt(2 - x)"', "pipe(qsort, inc)", "sqrt(2 - x) is not a real number at x = 3"),
    (2, 'handoff = "2^(x^x)"', "pipe(qsort, inc)", "the value has more than 1e308 digits"),  # was a hang
    # a hang (fuzz seed 91): sympy's exact evaluation of a tower of powers of numbers, which
    # bounding its size needs, doubled its time with each of 36 levels
    (2, 'handoff = "y^10^' + "-11010^" * 36 + '-110"', "pipe(qsort, inc)",
     "a tower of more than 4 powers of numbers cannot be bounded in time"),
    (2, 'handoff = "log2(x - 1)"', "pipe(qsort, inc)", "log2(x - 1) is -inf at x = 1"),
    (2, 'handoff = "1000 - x"', "pipe(qsort, inc)", "1000 - x is -585 at x = 1585"),
    (4, '[machine.speedups]\nqsort = "sqrt(p-2)"', "tpool_4(qsort)",
     "sqrt(p - 2) is not a real number at p = 1"),
    (128, '[machine.speedups]\nqsort = "(70 - p)/69"', "tpool_100(qsort)",
     "70/69 - p/69 is 0 at p = 70"),  # checked only up to 64 threads, it gave a negative time
    (2, 'unit = "ns*ns"\nhandoff = "x"', "pipe(qsort, inc)", "expected a time unit"),
    (2, "calibration = " + "[" * 900 + "]" * 900, "pipe(qsort, inc)",
     "arrays and inline tables nest deeper than 100 levels"),
    (2, 'unit = "' + "a" * 100_000 + '"', "qsort", "is not a unit: 100,000 characters (limit: 200)"),
    (2, "calibration = " + "9" * 5000, "qsort", "an integer of more than 4,300 digits"),
]


@pytest.mark.parametrize(("cores", "body", "term", "fragment"), MACHINE_ERRORS)
def test_machine_file_errors_are_one_line(cores, body, term, fragment, tmp_path, capsys) -> None:
    path = _machine(tmp_path, cores, body)
    assert fragment in one_error(capsys, ["eval", term, "--at", "x=1024", "--machine", path, "-q"])


@pytest.mark.parametrize(
    ("body", "term", "value"),
    [  # exact powers are not built to check them: 2^x, p^p^p are finite where evaluated
        ('handoff = "2^x"', "pipe(inc, inc)", "65536 + 536.185 * 16"),
        ('[machine.speedups]\nqsort = "p^p^p"', "tpool_2(qsort)", "1034.17 * 16 * 4 / 16"),
        ('[machine.speedups]\nqsort = "1e-320*p"', "pipe(tpool_2(qsort), inc)", None),
    ],
)
def test_machine_expressions_beyond_doubles_are_answered(body, term, value, tmp_path, capsys) -> None:
    path = _machine(tmp_path, 128, body)
    assert main(["eval", term, "--at", "x=16", "--machine", path, "--quiet"]) == 0
    printed = capsys.readouterr().out.split()[0]
    if value is not None:
        assert float(printed) == pytest.approx(eval(value))  # noqa: S307 (the test's own text)


def test_a_speed_up_is_checked_on_every_thread_count() -> None:
    from patternalg.algebra.machine import Machine

    cores = 1 << 20
    with pytest.raises(ArgumentError, match=f"^speedups\\['k'\\]: the speed-up of k is positive on 1 to {cores} threads: .* at p = 999999"):
        Machine(cores, speedups={"k": "999999 - p + 1e-3*(p - 999999)^2 - 1e-12"})
    Machine(cores, speedups={"k": "p/(1 + 0.01*(p - 1))"})  # positive on all


API_ERRORS = [  # (call, the error class, a fragment of its message)
    ("machine_file.machine_from_text(None)", "ArgumentError", "text: expected a machine file's text"),
    ("machine_file.write_machine(None, 'm.toml')", "ArgumentError", "machine: expected a Machine"),
    ("machine_file.read_machine(3)", "ArgumentError", "path: expected the path of a machine file"),
    ("Machine(2, handoff='x', unit='a' * 100000)", "UnitError", "100,000 characters (limit: 200)"),
    ("Machine(2, unit=3)", "ArgumentError", "unit: expected the hand-off's time unit"),
    ("Machine(0)", "ArgumentError", "cores: expected a number of cores: an integer >= 1 and <= 1,048,576; got int 0"),
    ("Machine(2, speedups=5)", "ArgumentError", "speedups: expected a mapping of atom names"),
    ("Machine(2, handoff=float('nan'))", "ArgumentError", "handoff: expected the hand-off, a finite number or an expression"),
]


@pytest.mark.parametrize(("call", "kind", "fragment"), API_ERRORS)
def test_the_machine_api_names_what_is_wrong(call, kind, fragment, tmp_path, monkeypatch) -> None:
    import patternalg.errors as errors
    from patternalg.algebra.machine import Machine
    from patternalg.library import machine_file

    monkeypatch.chdir(tmp_path)
    expected = getattr(errors, kind, ValueError)
    with pytest.raises(expected, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        eval(call, {"machine_file": machine_file, "Machine": Machine})  # noqa: S307


# --- values too large to build are refused before they are built (the older cases) ---------
@pytest.mark.parametrize(
    "args",
    [
        ["eval", "k", "--at", "x=10^10"],  # 56 s and 4 GB: the closed form was substituted exactly
        ["eval", "tpool_n(k)", "--at", "x=10^10"],  # n free: the fold over closed forms
        ["eval", "mapReduce_{2,4}^{x,16}(inc, k)", "--at", "x=10^11"],  # k at its size x/16
    ],
)
def test_a_power_too_large_at_the_point_is_refused_at_once(args, tmp_path, capsys) -> None:
    models = tmp_path / "exp.toml"
    models.write_text('[models.k]\nmodel = "2^x"\n')
    line = one_error(capsys, [*args, "--models", str(models), "-q"])
    assert "digits (limit: 1000)" in line


def test_a_dominance_probe_is_not_built_exactly(tmp_path, capsys) -> None:
    """pipe(inc, inc) with a hand-off 2^x: the closed form's maximum was probed at x = 2^40
    by building 2^(2^40)."""
    path = _machine(tmp_path, 128, 'handoff = "2^x"')
    assert main(["eval", "pipe(inc, inc)", "--at", "x=16", "--machine", path, "-q"]) == 0
    assert float(capsys.readouterr().out.split()[0]) == pytest.approx(2**16 + 536.185 * 16)


# --- uncertainty tables and seeds (U1-U3, A4, A5, I1) ---------------------------------------
PMNF_UNCERTAIN = """format = 1
[models.inc]
form = "pmnf"
model = "6.3*x + 4000"
[models.inc.uncertainty]
terms = ["1", "x"]
covariance = COVARIANCE
repetitions = 10
noise = 0.02
method = "bootstrap"
"""


@pytest.mark.parametrize(
    ("covariance", "fragment"),
    [
        ("[[-1e6, 0], [0, -1]]", "a variance is negative (row 1: -1000000.0)"),
        ("[[1e6, 5e6], [-5e6, 1]]", "not symmetric (row 1, column 2: 5000000.0"),
        ("[[1, 2], [2, 1]]", "not positive semi-definite"),
    ],
)
def test_a_covariance_is_symmetric_positive_semi_definite(covariance, fragment, tmp_path, capsys) -> None:
    models = tmp_path / "u.toml"
    models.write_text(PMNF_UNCERTAIN.replace("COVARIANCE", covariance))
    args = ["eval", "inc", "--at", "x=1024", "--models", str(models), "--interval", "0.9", "-q"]
    line = one_error(capsys, args)
    assert "models.inc.uncertainty.covariance: " + fragment in line


def test_a_hand_written_pmnf_model_with_an_uncertainty_is_listed(tmp_path, capsys) -> None:
    """No [fit] table: its coefficients are read off the closed form (was KeyError 'constant')."""
    models = tmp_path / "u.toml"
    models.write_text(PMNF_UNCERTAIN.replace("COVARIANCE", "[[4.1e3, -1.2], [-1.2, 3.9e-4]]"))
    assert main(["models", "--models", str(models), "--format", "json", "-q"]) == 0
    (inc,) = [m for m in json.loads(capsys.readouterr().out) if m["name"] == "inc"]
    centers = [(low + high) / 2 for low, high in inc["uncertainty"]["intervals"]]
    assert centers == pytest.approx([4000, 6.3])


def test_the_uncertainty_api_names_what_is_wrong() -> None:
    from patternalg.algebra.uncertainty import Uncertainty
    from patternalg.errors import ArgumentError
    from patternalg.syntax.symbols import x

    u = Uncertainty((x,), ((1.0,),), 10, 0.0, "bootstrap")
    with pytest.raises(ArgumentError, match="rng: expected a numpy Generator"):
        u.draws(None, 10)
    with pytest.raises(ArgumentError, match="x: expected numbers"):
        u.spread(x=10**400)
    with pytest.raises(ValueError, match="not symmetric"):
        Uncertainty((x, x**2), ((1.0, 0.5), (0.0, 1.0)), 10, 0.0, "bootstrap")


@pytest.mark.parametrize("command", ["eval inc --at x=1024", "sweep inc --over x=1..8:3"])
def test_a_negative_seed_is_refused(command, tmp_path, capsys) -> None:
    models = tmp_path / "u.toml"
    models.write_text(PMNF_UNCERTAIN.replace("COVARIANCE", "[[4.1e3, -1.2], [-1.2, 3.9e-4]]"))
    args = [*command.split(), "--models", str(models), "--interval", "0.9", "--seed", "-1"]
    assert "argument --seed: must be at least 0, got -1" in one_error(capsys, args)
    from patternalg.library.evaluate import explain

    with pytest.raises(PatternalgError, match="seed: expected an integer >= 0"):
        explain("inc", str(models), x=1024, interval=0.9, seed=-1)


# --- measure: a default timeout, its journal checked, the program never replaced ----------
def test_a_run_is_stopped_by_the_default_timeout(monkeypatch, tmp_path) -> None:
    from patternalg.measurements import runner

    monkeypatch.setattr(runner, "DEFAULT_TIMEOUT", 0.5)
    plan = runner.Plan.build({"k": "sleep {x}"}, {"x": [30.0, 60.0]}, repetitions=1, warmup=0)
    with pytest.raises(PatternalgError, match=r"sleep \d+: still running after 0.5 s \(the default"):
        runner.measure(plan, tmp_path / "k.txt.journal")


def test_the_default_timeout_grows_with_the_longest_run(monkeypatch, tmp_path) -> None:
    """30 s, or 10 times the longest run before it: runs of 1, 5 and 0.5 s."""
    from patternalg.measurements import processes, runner

    clock, durations, timeouts = [0.0], iter([1.0, 5.0, 0.5]), []

    class FakeProcess:
        returncode = 0

        def __init__(self, argv, **options) -> None:
            pass

    def exited(process, timeout) -> None:
        timeouts.append(timeout)
        clock[0] += next(durations)

    monkeypatch.setattr(processes.subprocess, "Popen", FakeProcess)
    monkeypatch.setattr(processes, "_exited", exited)
    monkeypatch.setattr(processes.time, "perf_counter", lambda: clock[0])
    plan = runner.Plan.build({"k": "prog {x}"}, {"x": [1.0, 2.0, 3.0]}, repetitions=1, warmup=0)
    runner.measure(plan, tmp_path / "k.txt.journal")
    assert timeouts == [30.0, 30.0, 50.0]


def _journal(tmp_path: Path, plan, *records: str) -> Path:
    from patternalg.measurements.journal import JOURNAL_KIND

    path = tmp_path / "k.txt.journal"
    header = json.dumps({"kind": JOURNAL_KIND, "plan": plan.identity()})
    path.write_text("\n".join([header, *records]) + "\n")
    return path


@pytest.mark.parametrize(
    ("record", "fragment"),
    [
        ('{"repetition": 0, "region": "k", "point": 0, "value": NaN}', "value nan: expected a finite number"),
        ('{"repetition": 0, "region": "k", "point": 0, "value": -1.5}', "a wall time is at least 0"),
        ('{"repetition": 2, "region": "k", "point": 0, "value": 1.5}', "repetition 2: expected a whole number from 0 to 1"),
        ('{"repetition": 0, "region": "k", "point": 0.5, "value": 1.5}', "point 0.5: expected a whole number"),
        ('{"repetition": 0, "region": "j", "point": 0, "value": 1.5}', "region 'j' is not a region of the plan"),
        # a point whose coordinates are another's (fourth probe, 2026-11-30: it was taken)
        ('{"repetition": 0, "region": "k", "point": 0, "at": {"x": 999}, "value": 1.5}',
         "point 0 of the plan is elsewhere"),
        ("[" * 100_000, "arrays nested too deep"),
        # an integer no double holds was an OverflowError's traceback
        ('{"repetition": 0, "region": "k", "point": 0, "value": 1' + "0" * 400 + "}", "expected a finite number"),
    ],
)
def test_a_hand_edited_journal_is_refused(record, fragment, tmp_path) -> None:
    from patternalg.measurements import runner

    plan = runner.Plan.build({"k": "false {x}"}, {"x": [1.0, 2.0]}, repetitions=2, warmup=0)
    journal = _journal(tmp_path, plan, record)
    with pytest.raises(PatternalgError, match=f"k.txt.journal:2 is not a journal .*{re.escape(fragment)}"):
        runner.measure(plan, journal)


def test_a_run_journaled_twice_is_refused(tmp_path) -> None:
    from patternalg.measurements import runner

    plan = runner.Plan.build({"k": "false {x}"}, {"x": [1.0, 2.0]}, repetitions=2, warmup=0)
    run = '{"repetition": 1, "region": "k", "point": 1, "value": 1.5}'
    with pytest.raises(PatternalgError, match=":3 is not a journal .*repetition 1 of k at point 1 twice"):
        runner.measure(plan, _journal(tmp_path, plan, run, run))


def test_measure_never_replaces_the_program_it_measures(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("echo.py").write_text("import sys; print(sys.argv[1])\n")
    args = ["measure", f"{sys.executable} echo.py {{x}}", "--over", "x=1,2", "--out", "echo.py"]
    assert "cannot write echo.py: it is the input being read" in one_error(capsys, args)
    assert Path("echo.py").read_text() == "import sys; print(sys.argv[1])\n"
    program = f"{sys.executable} -c pass --input=echo.py {{x}}"  # a --name=FILE names a file too
    args = ["measure", program, "--over", "x=1,2", "--out", "echo.py"]
    assert "it is the input being read" in one_error(capsys, args)


def test_calibrate_never_replaces_the_record_it_reads_the_cores_from(tmp_path, capsys) -> None:
    import shutil

    from helpers import ROOT

    for name in ("atoms.txt", "compositions.txt", "machine.txt"):
        shutil.copy(ROOT / "benchmarks" / "realdata" / "data7" / name, tmp_path / name)
    record = (tmp_path / "machine.txt").read_text()
    files = [str(tmp_path / "atoms.txt"), str(tmp_path / "compositions.txt")]
    line = one_error(capsys, ["calibrate", *files, "--out", str(tmp_path / "machine.txt")])
    assert "machine.txt: it is the input being read" in line
    assert (tmp_path / "machine.txt").read_text() == record


@pytest.mark.parametrize("command", ["fit", "calibrate", "measure"])
def test_an_output_named_dash_is_refused_where_a_file_is_written(command, tmp_path, capsys) -> None:
    extra = {"measure": ["true {x}", "--over", "x=1,2"], "calibrate": ["m.txt"], "fit": ["m.txt"]}
    line = one_error(capsys, [command, *extra[command], "--out", "-"])
    assert "cannot write '-': this command writes a file" in line


def test_validate_out_dash_is_stdout(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "m.txt"
    data.write_text("PARAMETER x\nPOINTS 1024 2048\nMETRIC time\nREGION inc\nDATA 549053 549000\nDATA 1098000 1098100\n")
    assert main(["validate", str(data), "--out", "-", "--format", "csv", "-q"]) == 0
    assert capsys.readouterr().out.startswith("term,")
    assert not Path("-").exists()


# --- validate, calibrate, intervals (C1, C2, C5-C7, A6, A7) --------------------------------
NOP = "PARAMETER x\nPOINTS 1024 2048 4096 8192\nMETRIC time\nREGION nop\n" + "DATA 70 71 69\n" * 4


def test_validate_interval_of_a_constant_model(tmp_path, capsys) -> None:
    """A term constant in its symbols draws one value a draw (was a broadcast error)."""
    data = tmp_path / "nop.txt"
    data.write_text(NOP)
    models = tmp_path / "u.toml"
    models.write_text(
        'format = 1\n[models.nop]\nform = "pmnf"\nmodel = "70"\n[models.nop.uncertainty]\n'
        'terms = ["1"]\ncovariance = [[1.0]]\nrepetitions = 3\nnoise = 0.0\nmethod = "bootstrap"\n'
    )
    args = ["validate", str(data), "--models", str(models), "--interval", "0.9", "--format", "json"]
    assert main([*args, "-q"]) == 0
    found = json.loads(capsys.readouterr().out)
    ((low, high),) = {tuple(row[5:7]) for row in found["rows"]}
    assert found["header"][5:7] == ["low", "high"]
    assert low < 70 < high and high - low == pytest.approx(2 * 1.6449, rel=0.1)


def test_an_uncertainty_term_in_another_symbol_is_refused(tmp_path, capsys) -> None:
    models = tmp_path / "u.toml"
    models.write_text(PMNF_UNCERTAIN.replace("COVARIANCE", "[[1.0, 0], [0, 1.0]]").replace('"x"]', '"p"]'))
    line = one_error(capsys, ["eval", "inc", "--at", "x=1024", "--models", str(models), "-q"])
    assert "models.inc.uncertainty.terms: p is in p, which the model is not (its symbols: x)" in line


def test_a_constant_model_under_a_hand_off_in_x(tmp_path, capsys) -> None:
    """nop = 70 touches its data; the machine's hand-off x + 1 is read where it receives
    data, which no pipe does here: validated and swept without x (was KeyError x)."""
    data = tmp_path / "nop.txt"
    data.write_text(NOP)
    models = tmp_path / "c.toml"
    models.write_text('format = 1\n[models.nop]\nmodel = "70.0"\n')
    machine = _machine(tmp_path, 2, 'handoff = "1 + x"')
    args = ["validate", str(data), "--models", str(models), "--machine", machine, "--format", "json", "-q"]
    assert main(args) == 0
    assert [row[2] for row in json.loads(capsys.readouterr().out)["rows"]] == [70.0] * 4
    sweep = ["sweep", "tpool_n(nop)", "--over", "n=1,2", "--models", str(models), "--machine", machine]
    assert main([*sweep, "--format", "csv", "-q"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == ["1.0,70.0,", "2.0,35.0,"]


CALIBRATION = """PARAMETER x
POINTS {xs}
METRIC time
REGION inc
{inc}REGION nop
{nop}REGION pipe(inc, inc)
{inc}"""


@pytest.mark.parametrize(
    ("xs", "value", "fragment"),
    [
        ("1024 2048 4096 8192", "1e308", "is beyond double precision (about 1.8e308)"),
        ("-4 -2 2 4", "1000", "x is the size of a data element, a positive number"),
    ],
)
def test_calibrate_refuses_what_it_cannot_fit(xs, value, fragment, tmp_path, capsys) -> None:
    data = tmp_path / "cal.txt"
    rows = f"DATA {value} {value} {value}\n" * 4
    data.write_text(CALIBRATION.format(xs=xs, inc=rows, nop="DATA 70 70 70\n" * 4))
    line = one_error(capsys, ["calibrate", str(data), "--cores", "2", "--out", str(tmp_path / "m.toml")])
    assert fragment in line
    assert not (tmp_path / "m.toml").exists()


def test_calibrate_refuses_a_record_of_more_cores_than_a_machine_has(tmp_path, capsys) -> None:
    data = tmp_path / "cal.txt"
    data.write_text(CALIBRATION.format(xs="1024 2048 4096 8192", inc="DATA 900 910 890\n" * 4,
                                       nop="DATA 70 70 70\n" * 4))  # fmt: skip
    (tmp_path / "machine.txt").write_text("cores: " + "9" * 40 + "\n")
    line = one_error(capsys, ["calibrate", str(data), "--out", str(tmp_path / "m.toml")])
    assert "machine.txt: records more cores than a machine has (at most 1,048,576)" in line
    assert not (tmp_path / "m.toml").exists()


def test_calibrate_at_sizes_near_the_largest_double_is_one_line(tmp_path, capsys) -> None:
    """A pool's dispatch cost per element at x = 1e308 left double precision while it was
    fitted (scipy's least squares then refused its infinite Jacobian: a traceback). A pool
    pays at most its element's own time now, so the fit stays finite; the atoms' two sizes
    are what is refused, before anything is written."""
    data = tmp_path / "cal.txt"
    rows = {"tpool_2(qsort)": (6.9e-301, 1.3e-300), "inc": (1.8e-300, 3.6e-300),
            "seq(inc, inc)": (1.8e-300, 3.7e-300), "qsort": (1.1e-300, 2.2e-300)}  # fmt: skip
    data.write_text("PARAMETER x\nPOINTS 1e300 1e308\nMETRIC time\n" + "".join(
        f"REGION {name}\n" + "".join(f"DATA {v} {v * 1.02} {v * 0.98}\n" for v in values)
        for name, values in rows.items()))  # fmt: skip
    line = one_error(capsys, ["calibrate", str(data), "--cores", "1", "--out", str(tmp_path / "m.toml")])
    assert "kernel 'inc', metric 'time': 2 measured points; a pmnf fit needs at least 3" in line
    assert not (tmp_path / "m.toml").exists()


@pytest.mark.parametrize("cores", ["2097152", "0", "9" * 40])
def test_calibrate_cores_beyond_a_machine_are_one_line(cores, tmp_path, capsys) -> None:
    data = tmp_path / "cal.txt"
    data.write_text(CALIBRATION.format(xs="1024 2048 4096 8192", inc="DATA 900 910 890\n" * 4,
                                       nop="DATA 70 70 70\n" * 4))  # fmt: skip
    line = one_error(capsys, ["calibrate", str(data), f"--cores={cores}", "--out", str(tmp_path / "m.toml")])
    assert "expected a whole number of cores from 1 to 1048576" in line


def test_the_spread_api_names_what_is_wrong() -> None:
    from patternalg.algebra.intervals import Spread
    from patternalg.errors import ArgumentError, UnknownAtomError
    from patternalg.library.model_library import ModelLibrary

    with pytest.raises(UnknownAtomError, match="unknown atom 'qsrot'; did you mean qsort"):
        Spread.of("qsrot", ModelLibrary.builtin(), {})
    with pytest.raises(ArgumentError, match="library: expected a mapping of atom names"):
        Spread.of("qsort", "not a library", {})
    with pytest.raises(ArgumentError, match="fixed: expected a mapping"):
        Spread.of("qsort", ModelLibrary.builtin(), 3)


# --- explore: a search bounded in all (X1), its lines readable (stumble 5) -----------------
def test_an_explore_search_is_bounded_in_all(monkeypatch) -> None:
    """A flat seq of 2,100 atoms ran over 150 s: every expansion rebuilt 20,000 sub-terms,
    2,000 times. A search now stops after MAX_SEARCH_REBUILDS in all (here 20,000, on 300
    atoms), with a note, and its best design is still found from the start."""
    import importlib

    explore_module = importlib.import_module("patternalg.decisions.explore")

    monkeypatch.setattr(explore_module, "MAX_SEARCH_REBUILDS", 20_000)
    term = "seq(" + ", ".join(["qsort", "inc", "nop"] * 100) + ")"
    result = explore_module.explore(term, threads=4, at={"x": 1024}, top=1)
    assert not result.complete
    assert any("it had rebuilt 20,000 sub-terms (the limit of one search" in n for n in result.notes)
    assert result.designs[0].threads <= 4 and result.visited > 1
    # the summary names the limit that stopped it: more expansions would not search further
    # (it said "raise --expansions to search further")
    summary = result.lines()[-1]
    assert "(stopped: it rebuilt 20,000 sub-terms, the limit of one search" in summary
    assert "--expansions" not in summary and result.to_json()["stopped"] in summary


def test_an_explore_search_stopped_by_its_expansions_says_so() -> None:
    from patternalg.decisions.explore import explore

    result = explore("seq(qsort, inc, nop)", threads=8, at={"x": 1024}, expansions=3)
    assert result.lines()[-1].endswith("(stopped: raise expansions= to search further)")
    assert "stopped" not in explore("qsort", threads=1).to_json()  # complete


def test_explore_says_how_each_law_was_applied(capsys) -> None:
    assert main(["explore", "pipe(qsort, inc)", "--threads", "2", "--top", "1", "-q"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].strip() == "by 1 rewrite: pipe_vs_tpool2_seq: pipe(A, B) => tpool_2(seq(A, B))"
    assert main(["explore", "qsort", "--threads", "1", "-q"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("(1 thread)") and lines[1] == "1 design within 1 thread visited (complete: all that the rewrites reach through designs within 1 thread)"


# --- the older cases: a nested mapReduce in a symbolic n, a plot to 1.7e308 ---------------
def _nested_mapreduce(depth: int) -> str:
    term = "qsort"
    for _ in range(depth):
        term = f"mapReduce_{{2,n}}^{{x,16}}({term}, inc)"
    return term


def test_a_symbolic_coefficient_is_not_expanded_again_at_every_level() -> None:
    """A mapReduce nests its coefficient in n a level deeper each time: expanding it whole at
    every level was cubic in the depth (200 levels: over 300 s). The terms in x are the
    same: one growth, x, with the nested coefficient (here at n = 3)."""
    from patternalg.algebra.normal_forms.normal_form import normal_form
    from patternalg.syntax.symbols import n, x

    deep = sympy.Integer(1)
    for _ in range(100):
        deep = 1 + deep / (2 * n)
    form = normal_form(x * deep + 3 * x)
    assert form is not None
    ((growth, coefficient),) = form.items()
    assert growth == (1, 0)
    assert float(coefficient.subs(n, 3)) == pytest.approx(float((deep + 3).subs(n, 3)))


@pytest.mark.long
def test_a_mapreduce_nested_200_deep_in_a_symbolic_n(capsys) -> None:
    assert main(["eval", _nested_mapreduce(200), "-q"]) == 0
    assert capsys.readouterr().out.startswith("1024*x + x*(1024 + (1024 + ")


def test_a_plot_beyond_what_an_axis_draws_is_refused(tmp_path, capsys) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "p.png"
    args = ["plot", "--atoms", "qsort", "--over", "x=1/3..1.7e308:100", "--unit", "min", "-o", str(out), "-q"]
    # the curve's values beyond 1e300 are gaps, so the axis runs as far as the drawn points
    error = one_error(capsys, args)
    assert "the x axis would run from -4.93e+300 to 1.04e+302, beyond what a linear axis draws" in error
    assert not out.exists()


# --- fit of a harness scan of many points (H1, H2) ------------------------------------------
def test_the_leave_one_out_score_from_the_leverages_is_the_direct_one() -> None:
    import numpy as np

    from patternalg.forms.pmnf.default import _loo_score

    rng = np.random.default_rng(3)
    b = np.sort(rng.uniform(1, 100, (4, 80)), axis=-1)
    y = (5 + 2 * b) * (1 + 0.05 * rng.standard_normal((4, 80)))
    assert np.allclose(_loo_score(b, y, direct=0), _loo_score(b, y, direct=80), rtol=1e-9)


def test_a_bootstrap_of_many_points_is_chosen_a_slice_of_rows_at_a_time(monkeypatch) -> None:
    import numpy as np

    from patternalg.forms.pmnf import uncertainty
    from patternalg.forms.pmnf.default import select_default

    x = np.array([1.0, 2, 4, 8, 16, 32])
    rows = (3 + 0.5 * x) * (1 + 0.01 * np.random.default_rng(0).standard_normal((50, 6)))
    whole = select_default(x, rows)
    monkeypatch.setattr(uncertainty, "_NUMBERS", 6 * 42 * 7)  # 7 rows a slice
    sliced = uncertainty._chosen_by_rows(lambda r, noise: select_default(x, r, noise=noise), rows, None)
    for name in ("index", "c0", "c1", "criterion"):
        assert np.array_equal(getattr(sliced, name), getattr(whole, name))


def test_auto_does_not_resample_a_scan_of_many_points(tmp_path, capsys) -> None:
    """One hyperfine command over 12,000 values: auto records the linear method (the
    bootstrap resamples every point 200 times), and says so."""
    results = [
        {"command": f"./k {i}", "mean": 1e-6 * i, "times": [1e-6 * i, 1.01e-6 * i], "parameters": {"n": str(i)}}
        for i in range(1, 12_001)
    ]
    path = tmp_path / "hf.json"
    path.write_text(json.dumps({"results": results}))
    assert main(["fit", str(path), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert "more than 10,000 points: the uncertainty by the linear method" in captured.err
    (model,) = json.loads(captured.out)
    assert model["uncertainty"]["method"] == "linear"


def test_auto_does_not_resample_many_repetitions_of_few_points(tmp_path, capsys) -> None:
    """Nine sizes of 25,000 repetitions each: auto records the linear method (each
    resampling aggregates every repetition again: 1,000 at each of 889 sizes spent 20 of a
    fit's 31 s there), and says so."""
    import numpy as np

    x = np.repeat(2.0 ** np.arange(10, 19), 25_000)
    times = 3 * x * np.log2(x) * np.exp(np.random.default_rng(0).normal(0, 0.02, len(x)))
    path = tmp_path / "reps.csv"
    path.write_text("x,time\n" + "".join(f"{a:.0f},{b:.2f}\n" for a, b in zip(x, times, strict=True)))
    assert main(["fit", str(path), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert "more than 200,000 repetitions: the uncertainty by the linear method" in captured.err
    (model,) = json.loads(captured.out)
    assert model["uncertainty"]["method"] == "linear"


# --- a slice of the campaign (benchmarks/fuzz_campaign.py, classes of fuzz_surfaces.py) ----
@pytest.mark.long
@pytest.mark.parametrize(
    "cls", ["machine", "calibrate", "validate", "interval", "uncertainty", "harness", "measure", "files"]
)
def test_a_slice_of_the_surfaces_campaign(cls, monkeypatch) -> None:
    """Ten inputs of each class of the newer surfaces, run as the campaign runs them: no
    traceback, hang, wrong exit status, input replaced or file named '-' made."""
    import random
    import signal

    from helpers import ROOT

    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import fuzz_campaign

    previous = signal.signal(signal.SIGALRM, fuzz_campaign._alarm)
    try:
        for index in range(10):
            case = fuzz_campaign.make_input(cls, random.Random(f"40:{cls}:{index}"))
            outcome = fuzz_campaign.run_one(case, fuzz_campaign.TIMEOUTS.get(cls, 5.0))
            failed = [k for k in ("traceback", "hang", "wrong_exit", "data_loss") if outcome[k]]
            assert not failed, (case.get("argv"), outcome)
    finally:
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("command", [["compare", "tpool_{10^400}(qsort)", "qsort"],
                                     ["sweep", "tpool_{10^400}(qsort)", "--over", "x=1..100"]])  # fmt: skip
def test_a_thread_count_no_double_holds_is_one_line_on_a_grid(capsys, command) -> None:
    """A grid is computed in doubles: a count of 10^400 there raised OverflowError (a
    traceback, found by the fuzz campaign's ``decide`` class); ``eval --at`` computes it."""
    line = one_error(capsys, command)
    assert "a number beyond a double (about 1.8e308); grids and intervals are computed in doubles" in line
    assert main(["eval", "tpool_{10^400}(qsort)", "--at", "x=16"]) == 0


def test_a_crossover_beyond_doubles_is_no_traceback(tmp_path, capsys) -> None:
    """``max(2^10, log2(x))`` crosses ``log2(x)`` at x = 2^1024, beyond a double: the exact
    roots raised OverflowError there (a traceback, found by the fuzz campaign's ``compare``
    class); now that root is out of every range, and compare answers."""
    models = tmp_path / "m.toml"
    models.write_text('[models.k]\nmodel = "2^10"\n[models.z]\nmodel = "log2(x)"\n')
    assert main(["compare", "--models", str(models), "qsort", "pipe(k, z)", "--over", "x=2..1e6"]) == 0
    assert "x in [2, 1000000]: pipe(k, z) wins" in capsys.readouterr().out


def test_a_point_count_of_thousands_of_digits_is_one_line(capsys) -> None:
    """``--over x=1..1e6:3999...9`` (5,001 digits) hit int()'s 4,300-digit limit: a
    ValueError traceback (found by the fuzz campaign's ``sweep`` class)."""
    line = one_error(capsys, ["sweep", "qsort", "--over", "x=1..1e6:3" + "9" * 5000])
    assert "points is more than 1,000,000" in line and len(line) < 1000
