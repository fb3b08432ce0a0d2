"""A range of a count (a thread count) with a number of points or a log spacing takes the
whole numbers nearest its points, and says so: ``--over n=1..4:3`` gave n = 1, 2, 4 (2.5
rounded to even) and ``n=1..4:5`` four points, without a word."""

from __future__ import annotations

import pytest
from helpers import run_cli

from patternalg.algebra.grid import parse_axis
from patternalg.decisions import sweep
from patternalg.errors import EvaluationError


@pytest.mark.parametrize(
    ("text", "values", "said"),
    [
        ("n=1..4:3", [1, 3, 4], "the 3 points from 1 to 4 are rounded to whole numbers (a half up), n = 1, 3, 4"),
        ("n=1..4:5", [1, 2, 3, 4], "the 5 points from 1 to 4 are rounded to whole numbers (a half up), 4 distinct, n = 1, 2, 3, 4"),
        ("n=1..100:5:log", [1, 3, 10, 32, 100], "n = 1, 3, 10, 32, 100"),
    ],
)  # fmt: skip
def test_a_count_grid_rounded_says_the_values_it_takes(text: str, values: list[int], said: str) -> None:
    axis = parse_axis(text, integer=True)
    assert axis.values.tolist() == values
    assert axis.note.startswith(f"over='{text}': n counts threads, so ") and said in axis.note


@pytest.mark.parametrize("text", ["n=1..64:7:log", "n=1..10:4", "n=2..9", "n=1,3,4"])
def test_a_count_grid_whose_points_are_whole_says_nothing(text: str) -> None:
    assert parse_axis(text, integer=True).note == ""


def test_the_ends_of_a_count_range_must_be_whole() -> None:
    """n=1.5..4 swept n = 2, 3, 4."""
    with pytest.raises(EvaluationError, match=r"^over='n=1.5..4': n counts threads, and n = 1.5 is not a positive integer"):
        parse_axis("n=1.5..4", integer=True)


def test_sweep_notes_the_rounded_counts_in_python_and_on_the_command_line() -> None:
    result = sweep("tpool_n(qsort)", over="n=1..4:3", at={"x": 1024})
    assert result.axes[0].values.tolist() == [1, 3, 4]
    (note,) = [n for n in result.notes if "counts threads" in n]
    assert note.endswith("n = 1, 3, 4; list the counts to choose others (n=1,2,4)")
    done = run_cli("sweep", "tpool_n(qsort)", "--over", "n=1..4:3", "--at", "x=1024", "--format", "csv")
    assert done.returncode == 0 and [row.split(",")[0] for row in done.stdout.splitlines()[1:]] == ["1.0", "3.0", "4.0"]
    assert note.startswith("over='n=1..4:3': ")  # the same note, the grid named as each surface takes it
    assert f"note: --over n=1..4:3: {note.partition(': ')[2]}" in done.stderr.splitlines()
