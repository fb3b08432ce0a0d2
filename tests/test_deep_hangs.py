"""The last hangs of the deep-term campaign (issue 29, finding 16): a false law over a task
pool nested thousands deep is not handed to sympy's assumptions, and explore values nested
mapReduces once per size their parts run at."""

from __future__ import annotations

import pytest

from patternalg.algebra.pointwise import at_point
from patternalg.decisions import explore
from patternalg.laws import check
from patternalg.library import ModelLibrary
from patternalg.syntax import parse

LIB = ModelLibrary.builtin()


pytestmark = pytest.mark.long  # terms thousands deep: the long checks


def test_a_false_law_3000_deep_is_answered_by_the_search() -> None:
    law = "tpool_n(" * 3000 + "qsort" + ")" * 3000 + " >= A"
    result = check(law, examples=2, seed=0, semantics="exact")
    assert result.status in ("refuted", "holds-asymptotically")  # not "proved": it is false


def test_explore_values_a_mapreduce_nested_1000_deep() -> None:
    term = parse("mapReduce_{1,1}^{1,1}(" * 1000 + "map_grppi" + ", reduce_p)" * 1000)
    found = explore(term, threads=2, at={"x": 1024}, expansions=10, library=LIB)
    assert found.designs[0].value > 0
    for depth in (1, 3, 50):  # the same value as the one fold gives at the point
        nested = parse("mapReduce_{2,1}^{x,4}(" * depth + "map_grppi" + ", inc)" * depth)
        value = explore(nested, threads=2, at={"x": 1024}, library=LIB).designs[0].value
        want = float(at_point(nested, LIB, {"x": 1024}).expr)
        assert abs(value - want) <= 1e-9 * abs(want)


def _deep_mapreduce(depth: int) -> str:
    return "mapReduce_{2,n}^{x,16}(" * depth + "map_grppi" + ", shuffle_{2,n}^{16}, reduce_p)" * depth


def test_a_closed_form_too_deep_for_sympy_is_one_line_and_compare_still_answers(tmp_path) -> None:
    from helpers import run_cli

    (tmp_path / "t.term").write_text(_deep_mapreduce(300))
    # with n free each level nests its coefficient in the last: a RecursionError in sympy
    done = run_cli("eval", "@t.term", cwd=tmp_path)
    code, out, err = done.returncode, done.stdout, done.stderr
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "nests too deeply" in err and "--at n=2" in err
    # with n bound first the closed form stays flat: compare answers, asymptotic winner
    # included, and names the 10,000-character design in short
    done = run_cli("compare", "@t.term", "inc", "--at", "n=2", cwd=tmp_path)
    code, out = done.returncode, done.stdout
    assert code == 0 and "inc wins" in out
    assert "asymptotic winner (x -> oo): inc" in out
    assert max(map(len, out.splitlines())) < 400


def test_a_false_law_over_a_mapreduce_3000_deep_is_refuted() -> None:
    law = "mapReduce_{1,1}^{1,1}(" * 3000 + "map_grppi" + ", reduce_p)" * 3000 + " >= A"
    assert check(law, examples=2, seed=1, semantics="exact").status == "refuted"
