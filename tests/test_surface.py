"""One error, two surfaces: the command line names the flag (``--at x=-1``), Python the
argument the caller wrote (``x=-1``); ``main([...])`` called in-process leaves Python's."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

import patternalg
from patternalg import cli
from patternalg._internal.surface import command_line, on_command_line
from patternalg.errors import EvaluationError, PatternalgError
from tests.helpers import ROOT, run_cli, three_level_runs

try:
    import fcntl
except ImportError:  # Windows: no lock
    fcntl = None  # type: ignore[assignment]


def test_a_bad_binding_names_at_on_the_command_line_and_the_keyword_from_python() -> None:
    done = run_cli("eval", "qsort", "--at", "x=-1")
    assert done.returncode == 2
    assert "error: --at x=-1: x is a positive symbol; give a value > 0" in done.stderr
    with pytest.raises(EvaluationError) as caught:
        patternalg.model("qsort", x=-1)
    assert str(caught.value) == "x=-1: x is a positive symbol; give a value > 0"


def test_explore_without_a_budget_names_threads_and_cores_as_the_caller_gives_them() -> None:
    done = run_cli("explore", "pipe(qsort, inc)")
    assert done.returncode == 2
    assert "explore needs a thread budget (--threads N, or a machine: --cores N)" in done.stderr
    with pytest.raises(EvaluationError) as caught:
        patternalg.decisions.explore("pipe(qsort, inc)")
    assert str(caught.value) == "explore needs a thread budget (threads=N, or a machine: cores=N)"


def test_a_bad_grid_names_over_as_a_flag_or_as_the_argument() -> None:
    done = run_cli("sweep", "qsort", "--over", "x=0..10:5:log")
    assert done.returncode == 2
    assert "error: --over x=0..10:5:log: a log grid needs positive bounds, got 0" in done.stderr
    with pytest.raises(EvaluationError) as caught:
        patternalg.decisions.sweep("qsort", over="x=0..10:5:log")
    assert str(caught.value) == "over='x=0..10:5:log': a log grid needs positive bounds, got 0"


def test_a_declared_option_out_of_range_names_the_flag_or_the_keyword() -> None:
    done = run_cli("explore", "seq(qsort, inc)", "--threads", "8", "--top", "0")
    assert done.returncode == 2
    assert "error: --top 0: must be at least 1" in done.stderr
    with pytest.raises(EvaluationError) as caught:
        patternalg.decisions.explore("seq(qsort, inc)", threads=8, top=0)
    assert str(caught.value) == "top=0: must be at least 1"


@pytest.mark.parametrize("argv", [["eval", "qsort", "--at", "x=2"], ["eval", "qsort", "--at", "x=-1"], ["nosuch"]])
def test_main_leaves_the_python_surface_after_it_returns(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) if argv == ["nosuch"] else contextlib.nullcontext():
        cli.main(argv)
    capsys.readouterr()
    assert not on_command_line()
    with pytest.raises(EvaluationError, match=r"^x=-1: "):
        patternalg.model("qsort", x=-1)


def test_the_surface_is_restored_after_an_error_inside() -> None:
    with pytest.raises(EvaluationError), command_line():
        assert on_command_line()
        patternalg.model("qsort", x=-1)
    assert not on_command_line()



# --- messages that named a flag or a command whatever the surface ----------------------------
# Each reads as the caller gave the option: from Python the keyword (or the function), from
# the command line the flag, worded as before.


def _said(call: Callable[[], object]) -> str:
    """The message of the PatternalgError ``call`` raises (from Python)."""
    with pytest.raises(PatternalgError) as caught:
        call()
    return str(caught.value)


def _error(*argv: str, stdin: str | None = None) -> str:
    """The one line ``patternalg ARGV`` says on stderr as it exits 2."""
    done = run_cli(*argv, stdin=stdin)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    return done.stderr


def _noted(*argv: str) -> str:
    """What ``patternalg ARGV`` says on stderr as it succeeds (its notes)."""
    done = run_cli(*argv)
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_a_pooled_region_is_named_by_pool_or_by_pools(tmp_path: Path) -> None:
    from patternalg.profiles import CallTree, profile_term, read_profiles

    runs = three_level_runs(tmp_path)
    tree = CallTree.of(read_profiles(runs), "n")
    # a count that is no thread count: the command line refuses it before (PATH=N, N from 1)
    assert _said(lambda: profile_term(tree, pools={"main.b": 0})) == (
        "pools={'main.b': 0}: a thread count is a whole number from 1"
    )
    assert _said(lambda: profile_term(tree, pools={"main.b": 2, "main/b": 4})) == (
        "pools={'main/b': 4}: the path is given twice (also as main.b); give each region once"
    )
    assert "error: --pool main/b: the path is given twice (also as main.b); give each region once" in _error(
        "profile", *runs, "--param", "n", "--pool", "main.b=2", "--pool", "main/b=4"
    )
    assert _said(lambda: profile_term(tree, min_share=0.6, pools={"main/b/c": 2})) == (
        "pools={'main/b/c': 2}: the call path is folded into its parent's own time (below min_share=0.6 "
        "of the root in every run); min_share=0 keeps it"
    )
    assert "error: --pool main/b/c: the call path is folded into its parent's own time (below --min-share 0.6" in _error(
        "profile", *runs, "--param", "n", "--min-share", "0.6", "--pool", "main/b/c=2"
    )
    assert _said(lambda: profile_term(tree, pools={"nosuch": 2})) == "pools={'nosuch': 2}: no such call path in the term"
    assert "error: --pool nosuch: no such call path in the term" in _error("profile", *runs, "--param", "n", "--pool", "nosuch=2")


def test_a_profile_s_metric_is_named_by_metric(tmp_path: Path) -> None:
    from patternalg.profiles import read_profile

    several = tmp_path / "m_n1.json"
    several.write_text(json.dumps({"records": [{"path": ["main"], "alpha": 1.0, "beta": 2.0}], "globals": {"n": 1}}))
    assert ": several metrics: choose one with metric= (the profile has: 'alpha', 'beta')" in _said(
        lambda: read_profile(str(several))
    )
    assert ": several metrics: choose one with --metric (the profile has" in _error("profile", str(several), "--param", "n")
    cube = tmp_path / "run.cubex"
    cube.write_bytes(b"x")  # the metric is refused before the profile is read
    assert ": metric='Avg': a Cube profile's metric is 'Avg time/rank'," in _said(lambda: read_profile(str(cube), "Avg"))
    assert ": --metric 'Avg': a Cube profile's metric is" in _error("profile", str(cube), "--param", "n", "--metric", "Avg")


def test_reading_names_format_parameters_and_models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from patternalg.measurements import read

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"PK\x03\x04\x00")))
    assert _said(lambda: read("-")).endswith(": an Extra-P experiment there is read with format=extra-p")
    assert _error("fit", "-", stdin="PK\x03\x04\x00").endswith(
        ": an Extra-P experiment there is read with --input-format extra-p\n"
    )
    table = tmp_path / "rep.csv"
    table.write_text("n,rep,time\n" + "".join(f"{n},{r},{n + r / 100}\n" for n in (1, 2, 4, 8, 16) for r in (1, 2)))
    assert read(table).notes[-1].endswith("(declare the parameters to fit it as one: parameters='n,rep')")
    assert "(declare the parameters to fit it as one: --parameters n,rep)\n" in _noted("fit", str(table))
    assert _said(lambda: read(table, parameters="n,n")).startswith("parameters=: expected distinct names")
    assert "error: --parameters: expected distinct names" in _error("fit", str(table), "--parameters", "n,n")
    threads = ROOT / "tests" / "data" / "gbench" / "gb_threads.json"
    assert _said(lambda: read(threads, parameters="x,x2")).endswith("declare it too (its parameters: parameters='x,x2,p')")
    assert "declare it too (its parameters: --parameters x,x2,p)\n" in _error("fit", str(threads), "--parameters", "x,x2")
    models = tmp_path / "qsort.csv"
    models.write_text("format = 1\n[models.qsort]\n")
    assert _said(lambda: read(models)).endswith(": is a model file: use models=FILE")
    assert _error("fit", str(models)).endswith(": is a model file: use --models FILE\n")


def test_a_unit_is_named_by_unit(tmp_path: Path) -> None:
    from patternalg.forms import PMNF
    from patternalg.measurements import read

    in_ms = tmp_path / "k.csv"
    in_ms.write_text("x,time_ms\n" + "".join(f"{x},{x}\n" for x in (1, 2, 4, 8, 16)))
    assert _said(lambda: PMNF.fit_each(read(in_ms), unit="s")).endswith(
        ": unit=s contradicts the value column's unit ms (drop unit=, or rename the column)"
    )
    assert _error("fit", str(in_ms), "--unit", "s").endswith(
        ": --unit s contradicts the value column's unit ms (drop --unit, or rename the column)\n"
    )
    assert _said(lambda: PMNF.fit_each(read(in_ms), unit="furlongs")) == (
        "unit=furlongs: a length, not a time (valid: ns, us, ms, s, min)"
    )
    assert "error: --unit furlongs: a length, not a time" in _error("fit", str(in_ms), "--unit", "furlongs")
    counts = tmp_path / "v.csv"
    counts.write_text("x,visits\n" + "".join(f"{x},{x}\n" for x in (1, 2, 4, 8, 16)))
    assert ": unit=: 'zzz' is not a unit" in _said(lambda: PMNF.fit_each(read(counts), unit="zzz"))
    assert ": --unit: 'zzz' is not a unit" in _error("fit", str(counts), "--unit", "zzz")
    seconds = tmp_path / "s.csv"
    seconds.write_text("x,time\n" + "".join(f"{x},{x / 100}\n" for x in (1, 2, 4, 8, 16)))
    assert PMNF.notes(read(seconds), {})[0].endswith("if they are seconds, unit=s (or name the column time_s)")
    assert "if they are seconds, fit --unit s (or name the column time_s)\n" in _noted("fit", str(seconds))


def test_measure_names_grid_value_regex_and_timeout_as_the_caller_gave_them(tmp_path: Path) -> None:
    from patternalg.measurements.runner import Plan, measure

    out, journal = str(tmp_path / "o.txt"), tmp_path / "j.journal"
    plan = functools.partial(Plan.build, repetitions=1, warmup=0)
    assert _said(lambda: plan({"k": "echo {y}"}, {"x": [1.0, 2.0]})).endswith(
        "{y} is not a parameter of the grid (the grid has: x)"
    )
    assert _error("measure", "echo {y}", "--over", "x=1,2", "--out", out).endswith(
        "{y} is not a parameter of the grid (--over gives: x)\n"
    )
    assert _said(lambda: plan({"k": "echo {x}"}, {"x": [1.0, 2.0], "y": [1.0, 2.0]})).startswith(
        "grid=y: no command names {y}"
    )
    assert "error: --over y: no command names {y}" in _error("measure", "echo {x}", "--over", "x=1,2", "--over", "y=1,2", "--out", out)
    assert _said(lambda: plan({"k": "echo {x}"}, {"x": [1.0, 2.0]}, value_regex="(")).startswith("value_regex='(': missing )")
    assert "error: --value-regex '(': missing )" in _error("measure", "echo {x}", "--over", "x=1,2", "--out", out, "--value-regex", "(")
    for regex, python, command in [  # the output: v7 1 (or v7 2)
        ("took", "no match of value_regex='took'", "no match of --value-regex 'took'"),
        ("(a)|(b)|[0-9]", "value_regex='(a)|(b)|[0-9]' matched '7', but none", "--value-regex '(a)|(b)|[0-9]' matched '7', but none"),
        ("[a-z]+", "value_regex= matched 'v'", "--value-regex matched 'v'"),
    ]:
        assert python in _said(lambda r=regex: measure(plan({"k": "echo v7 {x}"}, {"x": [1.0, 2.0]}, value_regex=r), journal))  # type: ignore[misc]
        assert command in _error("measure", "echo v7 {x}", "--over", "x=1,2", "--out", out, "--warmup", "0", "--value-regex", regex)
    assert "still running after 0.1 s (timeout=0.1); it was stopped" in _said(
        lambda: measure(plan({"k": "sleep 5 {x}"}, {"x": [1.0, 2.0]}, timeout=0.1), journal)
    )
    assert "still running after 0.1 s (--timeout); it was stopped" in _error(
        "measure", "sleep 5 {x}", "--over", "x=1,2", "--out", out, "--warmup", "0", "--timeout", "0.1"
    )


def test_measure_s_output_limit_names_value_regex(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from patternalg.measurements import processes
    from patternalg.measurements.runner import Plan, measure

    monkeypatch.setattr(processes, "OUTPUT_LIMIT", 1)
    plan = Plan.build({"k": "echo {x}"}, {"x": [1.0, 2.0]}, repetitions=1, warmup=0, value_regex="[0-9]+")
    assert ": its standard output has 2 bytes; value_regex= searches 1 at most: print less, or measure the wall time (value_regex=None)" in _said(
        lambda: measure(plan, tmp_path / "j.journal")
    )
    assert ": its standard output has 2 bytes; --value-regex searches 1 at most: print less, or measure the wall time (no --value-regex)" in _error(
        "measure", "echo {x}", "--over", "x=1,2", "--out", str(tmp_path / "o.txt"), "--warmup", "0", "--value-regex", "[0-9]+"
    )


def test_a_journal_is_named_by_out_or_as_the_journal(tmp_path: Path) -> None:
    from patternalg.measurements.journal import JOURNAL_KIND
    from patternalg.measurements.runner import Plan, journal_path, measure

    out = tmp_path / "o.txt"
    plan = Plan.build({"k": "echo {x}"}, {"x": [1.0, 2.0]}, repetitions=1, warmup=0)
    argv = ["measure", "echo {x}", "--over", "x=1,2", "--out", str(out), "--warmup", "0"]
    journal = tmp_path / "j.journal"
    for path in (journal, journal_path(out)):  # of another plan, with a run
        path.write_text(json.dumps({"kind": JOURNAL_KIND, "plan": {}}) + "\n{}\n")
    assert "with the same regions, grid, repetitions, value_regex and seed to resume it" in _said(lambda: measure(plan, journal))
    assert "with the same command, grid, repetitions, --value-regex and --seed to resume it" in _error(*argv)
    if hasattr(os, "mkfifo"):
        for path in (journal, journal_path(out)):
            path.unlink()
            os.mkfifo(path)
        assert _said(lambda: measure(plan, journal)).endswith("not a regular file; remove it, or give another journal path")
        assert _error(*argv).endswith("not a regular file; remove it, or give another --out\n")
    if fcntl is not None:
        for path in (journal, journal_path(out)):
            path.unlink()
            held = os.open(path, os.O_RDWR | os.O_CREAT)
            fcntl.flock(held, fcntl.LOCK_EX)  # another open file: its lock is another measurement's
        assert _said(lambda: measure(plan, journal)).endswith(
            "another patternalg measure is writing this journal; wait for it to end, or give another journal path"
        )
        assert _error(*argv).endswith(
            "another patternalg measure is writing this journal (its --out is the same); wait for it to end, or give another --out\n"
        )


def test_a_fit_s_advice_names_the_keyword_or_the_flag(tmp_path: Path) -> None:
    from patternalg.forms import PMNF, Amdahl, Expression, Presca
    from patternalg.forms.presca.workloads import read_performance
    from patternalg.measurements import read

    negative = tmp_path / "neg.csv"
    negative.write_text("x,time\n1,1\n2,-1\n4,3\n8,4\n16,5\n")
    assert _said(lambda: PMNF.fit_each(read(negative))).endswith("; allow_nonpositive=True fits it anyway")
    assert _error("fit", str(negative)).endswith("; --allow-nonpositive fits it anyway\n")
    (kept,) = PMNF.fit_each(read(negative), allow_nonpositive=True)
    assert "the time -1 is not positive; fitted as measured (allow_nonpositive=True), 1 such value(s)" in kept.notes[0]
    assert "fitted as measured (--allow-nonpositive), 1 such" in _noted("fit", str(negative), "--allow-nonpositive")
    zero = tmp_path / "zero.csv"
    zero.write_text("x,time\n1,1\n1,0\n2,2\n4,3\n8,4\n16,5\n")
    (dropped,) = PMNF.fit_each(read(zero))
    assert dropped.notes[0].endswith("1 time of 0 among positive repetitions dropped (allow_nonpositive=True keeps it)")
    assert "1 time of 0 among positive repetitions dropped (--allow-nonpositive keeps it)\n" in _noted("fit", str(zero))
    falling = tmp_path / "solve.csv"
    falling.write_text("p,time\n1,1000\n2,520\n4,270\n8,140\n16,80\n")
    assert PMNF.notes(read(falling), {})[-1].endswith("if p counts cores, patternalg.forms.Amdahl models a time that falls with them")
    assert "if p counts cores, --form amdahl models a time that falls with them\n" in _noted("fit", str(falling))
    constant = tmp_path / "multi.csv"
    constant.write_text("x,y,time\n" + "".join(f"{x},3,{x}\n" for x in (1, 2, 4, 8, 16)))
    assert _said(lambda: PMNF.fit_each(read(constant))).endswith("it is 3 at every point: to fit without it, parameters=x")
    assert _error("fit", str(constant)).endswith("it is 3 at every point: to fit without it, --parameters x\n")
    no_one = tmp_path / "am.csv"
    no_one.write_text("p,time\n2,5\n4,3\n8,2\n")
    assert _said(lambda: Amdahl.fit_each(read(no_one))).endswith("(measure on 1 core, or use alpha_method=joint)")
    assert _error("fit", "--form", "amdahl", str(no_one)).endswith("(measure on 1 core, or use --alpha joint)\n")
    assert _said(lambda: Amdahl.fit_each(read(no_one), degree=1)).endswith(
        "missing column 'x' (degree=1 needs the predictor value x; without x, T_seq is a constant: degree=0)"
    )
    assert _error("fit", "--form", "amdahl", str(no_one), "--degree", "1").endswith(
        "missing column 'x' (--degree 1 needs the predictor value x; without x, T_seq is a constant: --degree 0)\n"
    )
    overflow = tmp_path / "ov.csv"
    overflow.write_text("p,time\n1,1e300\n2,1e-300\n4,1e-300\n8,1e-300\n")
    assert _said(lambda: Amdahl.fit_each(read(overflow), alpha_method="joint")).endswith(
        "(relative errors overflow); use alpha_method=highest or rescale the times"
    )
    assert _error("fit", "--form", "amdahl", str(overflow), "--alpha", "joint").endswith(
        "(relative errors overflow); use --alpha highest or rescale the times\n"
    )
    ops = tmp_path / "ops.csv"
    ops.write_text("p,q,ops\n1,1,1\n2,2,2\n4,4,3\n")
    assert _said(lambda: read_performance(ops, metric="ops")).endswith(
        "say higher_is_better=True or False (Presca's fit: better='higher' or 'lower'), or metric=NAME for another value column"
    )
    assert _error("predict", str(ops), "--metric", "ops").endswith(
        "say --higher-is-better or --lower-is-better (fit --form presca: --better higher|lower), or --metric NAME for another value column\n"
    )
    assert _said(lambda: Presca.fit_each(read(ops), param=["p=p", "q=p"], better="higher")) == (
        "param=: a presca model has one parameter, the thread count p; got 2 (param=['p=p', 'q=p'])"
    )
    assert "error: --param: a presca model has one parameter, the thread count p; got 2 (--param p=p --param q=p)" in _error(
        "fit", "--form", "presca", str(ops), "--param", "p=p", "--param", "q=p", "--better", "higher"
    )
    # a family no fitter fits: the command line offers only those with one (--form's choices)
    assert _said(Expression.fitting) == "form 'expr' cannot be fitted (fittable: the forms of patternalg.forms.FORMS whose fittable() is true)"


def test_a_value_at_one_point_is_eval_on_the_command_line_and_model_from_python(tmp_path: Path) -> None:
    from patternalg.decisions import explore, sweep

    assert _said(lambda: sweep("qsort", over="x=3")) == (
        "over='x=3': a grid needs at least 2 points, got 1 (the value at one point: model(term, x=3))"
    )
    assert "error: --over x=3: a grid needs at least 2 points, got 1 (the value at one point: eval --at x=3)" in _error(
        "sweep", "qsort", "--over", "x=3"
    )
    beyond = "qsort is beyond a double's range (1.8e+308) at x = 1e+305: its cell is empty"
    assert f"{beyond} (model(term, x=...) gives its value)" in sweep("qsort", over="x=1,1e305").notes
    assert f"{beyond} (eval --at gives its value)\n" in _noted("sweep", "qsort", "--over", "x=1,1e305")
    tiny = tmp_path / "tiny.toml"
    tiny.write_text('format = 1\n[models.tiny]\nmodel = "1e-1000*x*log2(x)"\nunit = "ns"\n')
    below = "tiny is below a double's range (2.2e-308) at x = 2 and 1 other point: shown as 0"
    assert f"{below} (model(term, x=...) gives it)" in sweep("tiny", over="x=1,2,4", library=patternalg.ModelLibrary.of(str(tiny))).notes
    assert f"{below} (eval --at gives it)\n" in _noted("sweep", "tiny", "--models", str(tiny), "--over", "x=1,2,4")
    assert "is beyond a double's range at x=1e+306 (model gives its value there)" in _said(
        lambda: explore("seq(qsort, inc)", threads=8, at={"x": 1e306})
    )
    assert "is beyond a double's range at --at x=1e+306 (eval gives its value there)" in _error(
        "explore", "seq(qsort, inc)", "--threads", "8", "--at", "x=1e306"
    )
    huge = "tpool_{10^400}(qsort)"
    assert _said(lambda: sweep(huge, over="x=1..100")).endswith(
        "grids and intervals are computed in doubles (model(term, x=...), without an interval, computes any size exactly)"
    )
    assert _error("sweep", huge, "--over", "x=1..100").endswith(
        "grids and intervals are computed in doubles (eval --at without --interval computes any size exactly)\n"
    )


def test_a_closed_form_too_deep_to_build_binds_the_counts_as_the_caller_does(monkeypatch: pytest.MonkeyPatch) -> None:
    import patternalg.algebra.evaluation as evaluation

    def too_deep(*args: object, **kwargs: object) -> None:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(evaluation, "fold", too_deep)
    assert _said(lambda: patternalg.model("tpool_n(qsort)")).endswith("; bind the counts, e.g. n=2")
    assert _error("eval", "tpool_n(qsort)").endswith("; bind the counts, e.g. --at n=2\n")


def test_notes_and_errors_of_models_name_the_function_or_the_command(tmp_path: Path) -> None:
    from patternalg.evidence import calibrate
    from patternalg.plotting.results import plot_fit_reports

    assert _said(lambda: patternalg.model("zzz")) == "unknown atom 'zzz'; sorted(ModelLibrary.of(library)) lists the known atoms"
    assert "error: unknown atom 'zzz'; `patternalg models` lists the known atoms" in _error("eval", "zzz")
    fitted = patternalg.ModelLibrary([patternalg.AtomicModel("k", 2 * patternalg.x, fit=(("points", 11),))])
    fitted.save(tmp_path / "k.toml")
    unsure = "no uncertainty recorded for k (fitted without one, as by {} or from one value per point)"
    assert unsure.format("a fit with uncertainty=none") in patternalg.explain("k", fitted, interval=0.9, x=1024).notes[0]
    assert unsure.format("fit --uncertainty none") in _noted(
        "eval", "k", "--models", str(tmp_path / "k.toml"), "--at", "x=1024", "--interval", "0.9"
    )
    assert _said(lambda: plot_fit_reports([object()] * 13)) == (
        "13 panels in one figure: at most 12 are drawn; choose fewer (reports to plot_fit_reports, or models to plot_models)"
    )
    many = tmp_path / "many.toml"
    patternalg.ModelLibrary([patternalg.AtomicModel(f"a{i}", i * patternalg.x) for i in range(1, 14)]).save(many)
    assert _error("plot", "--atoms", ",".join(f"a{i}" for i in range(1, 14)), "--models", str(many), "--over", "x=1..100", "-o", str(tmp_path / "p.png")).endswith(
        "13 panels in one figure: at most 12 are drawn; choose fewer (plot --fit FILE --kernel NAME, or fewer --atoms)\n"
    )
    run = ROOT / "benchmarks" / "realdata" / "data14"
    files = [str(run / "atoms.txt"), str(run / "compositions.txt")]
    assert _said(lambda: calibrate(files, terms=["pipe(inc, inc),tpool_2(qsort)"])) == (
        "terms=: one term an item of the list, not several separated by ',' (['pipe(inc, inc)', 'tpool_2(qsort)'])"
    )
    assert "error: --terms: terms are separated by ';', not ',' (pipe(inc, inc);tpool_2(qsort))" in _error(
        "calibrate", *files, "--out", str(tmp_path / "m.toml"), "--terms", "pipe(inc, inc),tpool_2(qsort)"
    )
