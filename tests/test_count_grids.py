"""A range of a count (a thread count) with a number of points or a log spacing takes the
whole numbers nearest its points, and says so: ``--over n=1..4:3`` gave n = 1, 2, 4 (2.5
rounded to even) and ``n=1..4:5`` four points, without a word."""

from __future__ import annotations

import pytest
from helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

import patternalg
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


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["", "-", "+"]),
    st.integers(0, 10**20),
    st.integers(0, 10**6),
    st.one_of(st.just(""), st.integers(-420, 420).map(lambda e: f"e{e}")),
)
def test_a_listed_decimal_is_the_double_its_exact_value_rounds_to_or_the_same_error(sign: str, whole: int, part: int, exponent: str) -> None:
    """Listed values skip the safe arithmetic when they are plain decimals (100,000 of them
    took 7 s); the double and every refusal (1e-400 is no 0, 1e400 no number) are the same."""
    from patternalg.algebra.grid import _exact, _number

    text = f"{sign}{whole}.{part}{exponent}"
    outcomes = []
    for read in (lambda: _number(text, "--over x"), lambda: float(_exact(text, "--over x"))):
        try:
            outcomes.append(read())
        except EvaluationError as error:
            outcomes.append(str(error))
    assert outcomes[0] == outcomes[1]


def test_a_mapping_of_symbols_to_values_or_ranges_is_a_grid() -> None:
    import numpy as np

    assert sweep("inc", over={"x": [1, 2, 4]}).rows()[2][:2] == [4.0, 2144.74]
    swept = sweep("tpool_n(inc)", over={"x": np.array([1024.0, 2048.0]), "n": range(1, 3)})
    assert [row[:2] for row in swept.rows()] == [[1024.0, 1.0], [1024.0, 2.0], [2048.0, 1.0], [2048.0, 2.0]]
    assert sweep("inc", over={"x": "1..4:4"}).rows()[1][0] == 2.0
    assert len(sweep("inc", over={"x": np.arange(1, 100_001)}).rows()) == 100_000  # 7 s of parsing before, 0.3 s now
    with pytest.raises(patternalg.ArgumentError, match=r"over\['x'\]: expected a range's text such as '1..1e6:20:log', or a list of numbers; got list \['a'\]"):
        sweep("inc", over={"x": ["a"]})
    with pytest.raises(patternalg.ArgumentError, match=r"over\['x'\]: expected numbers a double holds \(magnitudes up to 1.8e308\); got a very large int"):
        sweep("inc", over={"x": [10**5000, 1]})  # str() of it was Python's own ValueError
    with pytest.raises(EvaluationError, match="n counts threads, and n = 0 is not a positive integer"):
        sweep("tpool_n(inc)", over={"n": [0, 2]})
