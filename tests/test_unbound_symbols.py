"""Binding a symbol the model does not have (issue 29, finding 6): one rule, in every
command — an error naming the term's symbols. x is no exception for a model in other
inputs (fitted with ``--param x=Y``); a model constant in its inputs takes any x. A symbol
the term writes is one of its symbols, read or not (probe F15): ``tpool_2(qsort[p=n])``'s
n, which qsort, a sequential atom, ignores, is taken by every surface, changes nothing and
is noted; ``optimize`` does not choose it."""

from __future__ import annotations

import pytest

from patternalg.cli import main
from patternalg.decisions import optimize, sweep
from patternalg.errors import EvaluationError
from patternalg.library.evaluate import explain
from patternalg.library.model_library import ModelLibrary

_IN_Y = '[models.qsort]\nmodel = "3*Y*log2(Y)"\n'


@pytest.fixture
def in_y(tmp_path):
    path = tmp_path / "y.toml"
    path.write_text(_IN_Y)
    return str(path)


@pytest.mark.parametrize(
    "command",
    [
        ["eval", "qsort"],
        ["eval", "tpool_4(qsort)", "--explain"],
        ["sweep", "qsort", "--over", "Y=2,4"],
        ["compare", "qsort", "tpool_2(qsort)", "--over", "Y=2..40"],
        ["optimize", "tpool_n(qsort)", "--budget", "n<=4", "--at", "Y=40"],
    ],
)
@pytest.mark.parametrize("name", ["x", "p"])
def test_binding_a_symbol_the_model_lacks_is_an_error(in_y, capsys, command, name) -> None:
    assert main([*command, "--models", in_y, "--no-builtin", "--at", f"{name}=1024"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"symbol {name}" in err[0] and "Y" in err[0]


def test_the_python_api_says_the_same() -> None:
    library = ModelLibrary.from_toml_text(_IN_Y, "y.toml")
    with pytest.raises(EvaluationError, match=r"no symbol x \(its symbols: Y\)"):
        explain("qsort", library, x=1024)
    assert explain("qsort", library, Y=1024).value == 3 * 1024 * 10


def test_a_constant_model_and_a_model_in_x_take_x(capsys) -> None:
    assert main(["eval", "nop", "--at", "x=1024"]) == 0
    assert main(["eval", "tpool_n(nop)", "--at", "x=1024", "--at", "n=2"]) == 0
    assert capsys.readouterr().out.splitlines() == ["5422.97 ns", "2711.485 ns"]


def test_a_constant_fitted_over_threads_takes_its_threads_not_x(tmp_path, capsys):
    """A model constant in p (fitted over thread counts: 13 of LULESH's 29 call paths) had
    no symbol at all: --at p=4, inside the range fit named, was refused ("its symbols: x"),
    and --at x=4, never measured, was taken."""
    data = tmp_path / "const.csv"
    data.write_text("p,time\n" + "".join(f"{p},{v}\n" for p in (1, 2, 4, 8, 16) for v in (5.0, 5.04)))
    models = tmp_path / "const.toml"
    assert main(["fit", str(data), "--out", str(models), "-q"]) == 0
    capsys.readouterr()
    assert main(["eval", "tpool_2(const)", "--models", str(models), "--at", "p=4"]) == 0
    assert capsys.readouterr().out.strip() == "2.51 ns"
    assert main(["eval", "const", "--models", str(models), "--at", "x=4"]) == 2
    assert "the term has no symbol x (its symbols: p)" in capsys.readouterr().err


_IGNORED = "tpool_2(qsort[p=n])"
_NOTE = "n changes nothing in tpool_2(qsort[p=n]): qsort ignores p (its model has no p)"


@pytest.mark.parametrize(
    "command",
    [
        ["eval", _IGNORED, "--at", "n=2", "--at", "x=1000"],
        ["eval", _IGNORED, "--at", "n=2", "--at", "x=1000", "--interval", "0.9"],
        ["sweep", _IGNORED, "--over", "n=1,2,4", "--at", "x=1000"],
        ["sweep", _IGNORED, "tpool_n(qsort)", "--over", "n=1,2,4", "--at", "x=1000"],
        ["compare", _IGNORED, "tpool_4(qsort)", "--over", "n=1..8", "--at", "x=1000"],
        ["compare", _IGNORED, "tpool_4(qsort)", "--at", "n=2"],
        ["explore", _IGNORED, "--at", "n=2", "--at", "x=1000", "--threads", "4"],
        ["plot", _IGNORED, "--over", "n=1..8", "--at", "x=1000", "-o", "PICTURE"],
    ],
    ids=["eval", "eval-interval", "sweep", "sweep-two", "compare-over", "compare-at", "explore", "plot"],
)
def test_a_symbol_only_an_ignored_annotation_writes_is_taken_and_noted(capsys, tmp_path, command) -> None:
    """eval and a one-term sweep refused n ("the model has no symbol n"), a sweep beside
    tpool_n(qsort) took it: one rule now, everywhere."""
    command = [str(tmp_path / "n.png") if arg == "PICTURE" else arg for arg in command]
    assert main(command) == 0
    assert _NOTE in capsys.readouterr().err


def test_the_ignored_symbol_changes_nothing_and_others_are_still_refused(capsys) -> None:
    assert main(["eval", _IGNORED, "--at", "n=2", "--at", "x=1000"]) == 0
    assert main(["eval", "tpool_2(qsort)", "--at", "x=1000"]) == 0
    assert main(["sweep", _IGNORED, "--over", "n=1,2,4", "--at", "x=1000", "--format", "csv"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == out[1] == "5153157.5668345 ns"
    assert [row.split(",")[1] for row in out[3:6]] == ["5153157.5668345"] * 3
    assert main(["eval", _IGNORED, "--at", "p=2", "--at", "x=1000"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["patternalg eval: error: --at p=...: the term has no symbol p (its symbols: n, x)"]


def test_a_size_no_part_reads_is_taken_and_noted_alike(capsys) -> None:
    assert main(["eval", "mapReduce_{1,1}^{d,x}(nop, nop)", "--at", "d=4", "--at", "x=10"]) == 0
    out, err = capsys.readouterr()
    assert out == "108459.4 ns\n"  # as without d
    assert "d changes nothing in mapReduce_{1,1}^{d,x}(nop, nop): nothing reads the elements per key d" in err


@pytest.mark.parametrize(
    ("command", "fragment"),
    [
        (["tpool_2(qsort[p=b])", "--budget", "b<=6"], "no free thread count to choose (b changes nothing, qsort ignores p"),
        (["tpool_a(qsort[p=b])", "--budget", "a+b<=6"],
         "--budget 'a+b<=6': b changes nothing, so optimize does not choose it: qsort ignores p"),
        (["tpool_a(qsort)", "--vary", "b", "--budget", "a+b<=6"],
         "--vary b: b changes nothing, so there is nothing to choose: tpool_a(qsort) has no symbol b"),
    ],
)
def test_optimize_refuses_to_choose_a_count_nothing_reads(capsys, command, fragment) -> None:
    """It listed b = 1 .. 6, all equal, and called b=1 the proven optimum."""
    assert main(["optimize", *command, "--at", "x=1000"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and fragment in err[0], err


def test_optimize_leaves_a_count_nothing_reads_out_of_its_choice() -> None:
    found = optimize("tpool_a(qsort[p=b])", budget="a<=6", at={"x": 1000})
    assert found.variables == ("a",) and found.best.assignment == (("a", 6),)
    assert "b changes nothing in tpool_a(qsort[p=b]): qsort ignores p (its model has no p)" in found.notes
    assert found.method == "branch-and-bound"  # b no longer makes it exhaustive


def test_the_python_functions_take_it_as_the_commands_do() -> None:
    assert explain(_IGNORED, n=2, x=1000).value == explain("tpool_2(qsort)", x=1000).value
    assert _NOTE in explain(_IGNORED, n=2, x=1000).notes
    table = sweep(_IGNORED, over="n=1,2,4", at={"x": 1000})
    first, *rest = table.values[0].tolist()
    assert rest == [first] * 2 and first == pytest.approx(5153157.5668345) and _NOTE in table.notes


def test_validate_notes_a_measured_symbol_nothing_reads_and_never_takes_it_as_x(tmp_path, capsys) -> None:
    rows = "".join(f'"{_IGNORED}",{x},{n},{t}\n' for x, n, t in ((1000, 1, 5.2e6), (1000, 2, 5.1e6), (2000, 1, 1.1e7)))
    both = tmp_path / "both.csv"
    both.write_text("kernel,x,n,time_ns\n" + rows)
    assert main(["validate", str(both)]) == 0
    assert _NOTE in capsys.readouterr().err
    only_n = tmp_path / "n.csv"  # n is the term's n, not its size: x is not measured
    only_n.write_text(f'kernel,n,time_ns\n"{_IGNORED}",1000,5.2e6\n"{_IGNORED}",2000,1.1e7\n')
    assert main(["validate", str(only_n)]) == 2
    err = capsys.readouterr().err
    assert "its model needs x" in err and "taken as the symbol x" not in err
