"""``patternalg plot`` says what the command it draws would say: the notes of the results
it draws (unit conversion, x below 1, negative values), ``--unit`` of ``plot --fit`` as
``fit``'s, and no curve drawn as "the same" as another for its gaps (probe L)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run_cli

pytest.importorskip("matplotlib")

BELOW_ONE = "note: x = 0.5 is below 1: x counts input elements, the models describe x >= 1"


def _notes(result: object) -> list[str]:
    lines = result.stderr.splitlines()  # type: ignore[attr-defined]
    return [line for line in lines if line.startswith("note: ")]


@pytest.mark.parametrize(
    "argv",
    [
        ["qsort", "--over", "x=0.5..2:lin"],
        ["pipe(inc, nop)", "qsort", "--over", "x=0.5..2:lin"],
        ["--atoms", "qsort", "--over", "x=0.5..2:lin"],
    ],
)
def test_plot_prints_the_notes_of_the_curves_it_draws(tmp_path: Path, argv: list[str]) -> None:
    result = run_cli("plot", *argv, "-o", str(tmp_path / "curves.png"))
    assert result.returncode == 0, result.stderr
    notes = _notes(result)
    assert notes.count(BELOW_ONE) == 1  # once, though the sweep and the comparison both say it
    assert any(n.startswith("note: qsort: values down to -517.085 ns are negative") for n in notes)


def test_plot_atoms_names_the_atoms_it_converted(tmp_path: Path) -> None:
    result = run_cli("plot", "--atoms", "qsort", "--over", "x=1..8", "--unit", "us", "-o", str(tmp_path / "a.png"))
    assert result.returncode == 0, result.stderr
    assert "note: converted to us: qsort (ns)" in _notes(result)


@pytest.mark.parametrize(
    "argv",
    [
        ["--optimize", "pipe(tpool_a(qsort), tpool_b(inc))", "--budget", "a+b<=8", "--at", "x=0.5"],
        ["--explore", "pipe(qsort, inc)", "--threads", "2", "--at", "x=0.5"],
    ],
)
def test_plot_of_the_best_designs_prints_their_notes(tmp_path: Path, argv: list[str]) -> None:
    result = run_cli("plot", *argv, "-o", str(tmp_path / "bars.png"))
    assert result.returncode == 0, result.stderr
    assert BELOW_ONE in _notes(result)
