"""``patternalg plot`` says what the command it draws would say: the notes of the results
it draws (unit conversion, x below 1, negative values), ``--unit`` of ``plot --fit`` as
``fit``'s, and no curve drawn as "the same" as another for its gaps (probe L)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
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


def _seconds(path: Path) -> Path:
    """Times in seconds in a column that names no unit."""
    rows = [f"{x},{2e-9 * x + 1e-6 * r}" for x in (64, 128, 256, 512, 1024) for r in (1, 2, 3)]
    path.write_text("x,time\n" + "\n".join(rows) + "\n")
    return path


def test_plot_fit_unit_is_the_unit_fit_takes(tmp_path: Path) -> None:
    """``--unit s`` names the measured values' unit, as ``fit --unit s``: the axis said ns."""
    data = _seconds(tmp_path / "t.csv")
    fitted = run_cli("fit", str(data), "--unit", "s")
    assert fitted.returncode == 0 and "[s]" in fitted.stdout
    out = tmp_path / "s.svg"
    result = run_cli("plot", "--fit", str(data), "--unit", "s", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert "time [s]" in out.read_text() and "time [ns]" not in out.read_text()
    assert "name no unit" not in result.stderr


def test_plot_fit_says_what_fit_says_of_times_without_a_unit(tmp_path: Path) -> None:
    data = _seconds(tmp_path / "t.csv")
    fitted = [n for n in _notes(run_cli("fit", str(data))) if "name no unit" in n]
    result = run_cli("plot", "--fit", str(data), "-o", str(tmp_path / "ns.svg"))
    assert result.returncode == 0, result.stderr
    assert len(fitted) == 1 and fitted[0] in _notes(result)
    assert "time [ns]" in (tmp_path / "ns.svg").read_text()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--unit", "furlongs"], "--unit furlongs: a length, not a time"),
        (["--form", "memwall", "--unit", "ms"], "--unit is not an option of --form memwall"),
    ],
)
def test_plot_fit_refuses_a_unit_fit_refuses(tmp_path: Path, argv: list[str], message: str) -> None:
    data = _seconds(tmp_path / "t.csv")
    result = run_cli("plot", "--fit", str(data), *argv, "-o", str(tmp_path / "x.svg"))
    assert result.returncode == 2 and message in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_a_plot_with_nothing_to_draw_is_an_error_not_an_empty_picture(tmp_path: Path) -> None:
    """Above MAX_DRAWN every value is a gap: it drew an empty picture, exit 0, with a legend
    'qsort (same as inc)'."""
    out = tmp_path / "empty.png"
    result = run_cli("plot", "inc", "qsort", "--over", "x=1e299..1e303", "-o", str(out))
    assert result.returncode == 2 and not out.exists()
    assert result.stderr.splitlines() == [
        "patternalg plot: error: nothing to draw: inc, qsort have no value over x in "
        "[1e+299, 1e+303] (a number of magnitude up to 1e+300): choose another --over"
    ]


def test_a_curve_of_gaps_alone_says_so_and_is_the_same_as_no_other(tmp_path: Path) -> None:
    out = tmp_path / "gaps.svg"
    result = run_cli("plot", "inc", "qsort", "--over", "x=-5..-1:lin", "-o", str(out))
    assert result.returncode == 0, result.stderr
    svg = out.read_text()
    assert "qsort (no value to draw)" in svg and "same as" not in svg


def test_two_curves_of_gaps_alone_are_not_the_same() -> None:
    from patternalg.plotting.curves import Curve, plot_curves

    gaps = np.full(4, np.nan)
    ax = plot_curves(np.arange(1.0, 5.0), [Curve("a", np.arange(4.0) + 1), Curve("b", gaps), Curve("c", gaps)])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "a", "b (no value to draw)", "c (no value to draw)"
    ]


def test_plot_atoms_draws_the_atoms_with_values_and_names_those_without(tmp_path: Path) -> None:
    """One atom without a value over the range (qsort at x < 0) failed the whole picture,
    naming qsort's formula: the others are drawn, its panel says so; with none drawable the
    error names the atoms."""
    out = tmp_path / "a.png"
    drawn = run_cli("plot", "--atoms", "inc,qsort", "--over", "x=-5..-1:lin", "-o", str(out))
    assert drawn.returncode == 0 and out.stat().st_size > 0, drawn.stderr
    none = run_cli("plot", "--atoms", "inc,qsort", "--over", "x=1e299..1e303", "-o", str(tmp_path / "b.png"))
    assert none.returncode == 2 and none.stderr.count("\n") == 1 and not (tmp_path / "b.png").exists()
    assert "nothing to draw: inc, qsort have no value over x" in none.stderr


def test_plot_fit_warns_of_a_point_left_out_as_fit_does(tmp_path: Path) -> None:
    """A point at x = 0 is left out of the fit drawn, with fit's warning (even with -q)."""
    data = tmp_path / "z.csv"
    data.write_text("x,time\n" + "".join(f"{x},{x + 1}\n" for x in range(9)))
    warning = (
        f"warning: {data}:2: kernel 'z', metric 'time': x = 0 left out: a pmnf term (log2(x), "
        "x^i) is not defined at x <= 0; fitted on the other 8 points"
    )
    assert warning in run_cli("fit", "-q", str(data)).stderr.splitlines()
    result = run_cli("plot", "-q", "--fit", str(data), "-o", str(tmp_path / "z.svg"))
    assert result.returncode == 0 and result.stderr.splitlines() == [warning]
