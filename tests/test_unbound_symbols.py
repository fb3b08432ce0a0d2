"""Binding a symbol the model does not have (issue 29, finding 6): one rule, in every
command — an error naming the model's symbols. x is no exception for a model in other
inputs (fitted with ``--param x=Y``); a model constant in its inputs takes any x."""

from __future__ import annotations

import pytest

from patternalg.cli import main
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
    assert "the model has no symbol x (its symbols: p)" in capsys.readouterr().err
