"""One error, two surfaces: the command line names the flag (``--at x=-1``), Python the
argument the caller wrote (``x=-1``); ``main([...])`` called in-process leaves Python's."""

from __future__ import annotations

import contextlib

import pytest

import patternalg
from patternalg import cli
from patternalg._internal.surface import command_line, on_command_line
from patternalg.errors import EvaluationError
from tests.helpers import run_cli


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

