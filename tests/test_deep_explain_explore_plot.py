"""``eval --explain``, ``explore`` and ``plot`` on terms thousands deep (issue 29, findings 16
and 17): a long derivation is elided in the middle, one expansion of explore costs about one
walk over the design, a plot's legend shows a long term elided, and no matplotlib warning
reaches the user."""

from __future__ import annotations

import re
import time
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_deep import flat, nested

from patternalg.algebra.pointwise import at_point
from patternalg.algebra.render import EXPLAIN_STEPS, shown_steps
from patternalg.cli import main
from patternalg.decisions.explore import explore
from patternalg.library import ModelLibrary
from patternalg.library.evaluate import explain
from patternalg.syntax import parse

LIB = ModelLibrary.builtin()

DEPTH = 10_000


@pytest.mark.long  # a deep term
def test_a_deep_explanation_is_elided_in_the_middle(capsys) -> None:
    start = time.monotonic()
    status = main(["eval", nested("tpool_n", DEPTH), "--explain", "--at", "x=1024", "--at", "n=2"])
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    assert time.monotonic() - start < 60  # on main: minutes (every tiny value printed)
    derivation = out[1:]  # the value first
    (gap,) = [i for i, line in enumerate(derivation) if "more sub-terms" in line]
    counted = re.search(r"\.\.\. ([\d,]+) more", derivation[gap])
    assert counted is not None
    hidden = int(counted.group(1).replace(",", ""))
    assert len(derivation) - 1 + hidden == DEPTH + 1  # every sub-term shown or counted
    assert len(derivation) - 1 == EXPLAIN_STEPS
    assert derivation[0].startswith("tpool_2  =  ") and derivation[-1].lstrip().startswith("qsort")


@settings(max_examples=20, deadline=None)
@given(count=st.integers(0, 1000), limit=st.integers(1, 300) | st.none())
def test_the_steps_shown_are_the_first_and_last_in_order(count: int, limit: int | None) -> None:
    head, tail = shown_steps(count, limit)
    shown = [*head, *tail]
    assert shown == sorted(set(shown)) and all(0 <= i < count for i in shown)
    assert len(shown) == (count if limit is None else min(count, limit))
    if tail:
        assert list(head) == list(range(len(head))) and tail[-1] == count - 1
        assert tail[0] > len(head)  # some left out between


def test_every_step_on_request() -> None:
    evaluation = explain(nested("pipe", 300), x=1024)
    assert len(evaluation.lines(limit=None)) == 2 * 300 + 1
    assert len(evaluation.lines()) == EXPLAIN_STEPS + 1


@pytest.mark.long  # a deep term
@pytest.mark.parametrize("term", [nested("seq", 2_000), flat("seq", 2_000)], ids=["nested", "flat"])
def test_explore_of_a_deep_term_is_bounded(term: str) -> None:
    start = time.monotonic()
    result = explore(term, threads=2, at={"x": 1024}, expansions=4, top=3)
    assert time.monotonic() - start < 30  # on main: an expansion was quadratic (~6 s each)
    assert not result.complete and any("nearest the root" in n for n in result.notes)
    best, start_value = result.designs[0], at_point(parse(term), LIB, {"x": 1024}).value
    assert best.value is not None and start_value is not None
    assert best.value < start_value and best.threads <= 2 and best.rewrites  # a pool, at least


@pytest.mark.long  # a deep term
def test_plot_of_a_long_term_has_a_short_legend_and_no_warning(tmp_path: Path, capsys) -> None:
    out = tmp_path / "long.svg"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start = time.monotonic()
        status = main(["plot", flat("seq", 2_000), "--over", "x=2..2^20:8", "-o", str(out)])
        elapsed = time.monotonic() - start
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert elapsed < 30  # on main: the legend's layout alone took many seconds
    assert "Warning" not in captured.err
    assert not [
        w for w in caught if "matplotlib" in (w.filename or "") or "layout" in str(w.message)
    ]
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", out.read_text()) or re.findall(
        r">([^<>]{2,})</", out.read_text()
    )
    assert texts and max(len(t) for t in texts) <= 80
    assert any("…" in t for t in texts)
