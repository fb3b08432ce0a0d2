"""Values at a point are the model's value at that point (issue 11, item 1)."""

from __future__ import annotations

import json

import pytest
from helpers import run_cli
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import patternalg
from patternalg.algebra.fold import model_symbols
from patternalg.algebra.machine import Machine
from patternalg.algebra.pointwise import at_point, bottleneck_at
from patternalg.laws.strategies import terms
from patternalg.library.model_library import ModelLibrary
from patternalg.syntax.parser import parse

LIB = ModelLibrary.builtin()


def test_pipe_at_a_point_is_the_slower_stage_there():
    # nop (5422.97) is slower than inc (536.185 * 4 = 2144.74) at x = 4
    assert run_cli("eval", "pipe(inc, nop)", "--at", "x=4").stdout.splitlines()[0] == "5422.97 ns"
    assert float(patternalg.model("pipe(inc, nop)", x=4)) == 5422.97
    # and beyond the crossover 5422.97/536.185 = 10.11 the asymptotic stage is right
    assert float(patternalg.model("pipe(inc, nop)", x=11)) == pytest.approx(536.185 * 11)


@pytest.mark.parametrize("semantics", ["asymptotic", "exact"])
def test_the_value_does_not_depend_on_the_semantics(semantics):
    value = at_point(parse("pipe(tpool_4(qsort), inc)"), LIB, {"x": 4}, semantics).value
    assert value == pytest.approx(536.185 * 4)  # inc: 2144.74 > 258.5425 * 4 * 2


def test_a_max_comparable_after_binding_is_resolved():
    result = run_cli("eval", "pipe(tpool_n(qsort), tpool_m(qsort))", "--at", "m=2", "--at", "n=4")
    assert result.stdout == "517.085*x*log2(x)\n" and result.stderr == ""
    both = run_cli(
        "eval", "pipe(tpool_n(qsort), tpool_m(qsort))", "--at", "m=2", "--at", "n=4",
        "--at", "x=1024",
    )
    assert float(both.stdout.removesuffix(" ns\n")) == pytest.approx(517.085 * 1024 * 10)


def test_no_false_note_under_exact_semantics():
    result = run_cli(
        "eval", "pipe(tpool_n(qsort), tpool_m(qsort))", "--semantics", "exact", "--at", "m=2"
    )
    assert "asymptotically" not in result.stderr
    crossing = run_cli("eval", "pipe(inc, nop)", "--semantics", "exact")
    assert "asymptotically" not in crossing.stderr and "cross" in crossing.stderr


def test_json_labels_the_point_and_the_closed_form():
    data = json.loads(
        run_cli("eval", "pipe(inc, nop)", "--at", "x=4", "--format", "json").stdout
    )
    assert data["value"] == 5422.97
    assert data["closed_form"] == "536.185*x" and data["semantics"] == "asymptotic"
    assert data["bottleneck_at_point"] == "nop" and data["bottleneck_asymptotic"] == "inc"
    assert any("2144.74" in note for note in data["notes"])
    agreeing = json.loads(
        run_cli("eval", "pipe(inc, nop)", "--at", "x=1024", "--format", "json").stdout
    )
    assert agreeing["bottleneck_at_point"] == agreeing["bottleneck_asymptotic"] == "inc"
    assert agreeing["notes"] == []


def test_explain_at_a_point_shows_every_value():
    lines = run_cli("eval", "pipe(tpool_4(qsort), inc)", "--at", "x=4", "--explain").stdout
    lines = lines.splitlines()
    assert lines[0] == "2144.74 ns"
    assert "bottleneck at the point: inc" in lines[1] and "asymptotic bottleneck: tpool_4" in lines[1]
    assert "->  2068.34 ns at the point" in lines[2]  # tpool_4(qsort) at x = 4
    assert "->  8273.36 ns at the point" in lines[3]  # qsort at x = 4


def test_repeated_at_is_an_error_that_points_to_sweep():
    result = run_cli("eval", "qsort", "--at", "x=1024", "--at", "x=2048")
    assert result.returncode == 2 and result.stdout == ""
    assert "given twice" in result.stderr and "sweep" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_mapreduce_runs_its_parts_at_their_own_sizes():
    # map at x = 1: pipe(inc, nop) there is nop; reduce_v at d(x) = x
    term = "mapReduce_{2,4}^{x,10}(pipe(inc, nop), reduce_v)"
    shuffle = 16 * 10 * 4 * (8 * 2 - 8) / 2
    expected = 4 * 5422.97 / 8 + shuffle + 10 * 0.353395 * 4 / 8
    assert float(patternalg.model(term, x=4)) == pytest.approx(expected)


@settings(max_examples=60, deadline=None)
@given(
    term=terms(max_depth=4, atoms=["inc", "nop", "qsort", "shuffle"], annotations=False),
    size=st.sampled_from([1, 4, 11, 1024]),
    semantics=st.sampled_from(["exact", "asymptotic", Machine(2, handoff="40", dispatch="9").semantics]),
)
def test_the_candidates_bottleneck_is_the_points(term, size, semantics):
    """optimize names each candidate's bottleneck from one fold that keeps nothing
    (bottleneck_at): the stage at_point names there, under every semantics."""
    assume(model_symbols(term, LIB, semantics) <= {"x"})  # shuffle alone has m and o
    bindings = {"x": size}
    assert bottleneck_at(term, LIB, bindings, semantics) == at_point(term, LIB, bindings, semantics).bottleneck_at_point


def test_a_candidate_names_its_counts_bound():
    term = parse("seq(nop, pipe(tpool_n(qsort), inc))")
    assert bottleneck_at(term, LIB, {"x": 1024, "n": 2}) == "tpool_2(qsort)"
    assert bottleneck_at(term, LIB, {"x": 4, "n": 4}) == "inc"
    assert bottleneck_at(parse("mapReduce_{1,1}^{1,1}(pipe(inc, nop), inc)"), LIB, {"x": 4}) is None


def test_a_value_naming_a_symbol_gives_the_closed_form_in_it_at_the_point():
    """--at n=a --at x=100 said "no value for a (bind it with --at)", and --at a=4 was then
    refused as no symbol of the model: with every symbol bound but one value naming another,
    the value is the closed form in that symbol, as with x left free."""
    library = ModelLibrary.builtin()
    found = at_point(parse("tpool_n(qsort)"), library, {"n": "2*a", "x": 100}, "exact").expr
    free = at_point(parse("tpool_n(qsort)"), library, {"x": 100}, "exact").expr  # in n
    (a,), (n,) = found.free_symbols, free.free_symbols
    assert a.name == "a" and (found - free.subs(n, 2 * a)).simplify() == 0
    done = run_cli("eval", "pipe(tpool_n(qsort), inc)", "--at", "n=a", "--at", "x=4")
    assert done.returncode == 0 and done.stdout.strip() == "max(2144.74, 8273.36/a)", done.stderr


def test_a_size_beyond_a_double_is_named_as_it_is_in_the_extrapolation_note(tmp_path):
    """eval qsort --at x=2^2000 computes 1.33e606 exactly and noted "x = inf is outside
    the measured range" (the size read as a double for the note; probe O)."""
    models = tmp_path / "m.toml"
    models.write_text('format = 1\n[models.k]\nmodel = "3*x*log2(x)"\ndomain = {x = [1024, 262144]}\n')
    done = run_cli("eval", "k", "--models", str(models), "--at", "x=2^2000")
    assert done.returncode == 0, done.stderr
    assert "note: x = 1.148131e+602 is outside the measured range of k (x in [1024, 262144])" in done.stderr


def test_the_bottleneck_note_gives_the_closed_form_s_value_without_float_noise():
    """The note said 'it gives 277238.20499999996 here': a double's noise, though values
    print in the digits of their models (docs/language.md)."""
    done = run_cli("eval", "pipe(seq(nop, tpool_3(inc)), seq(nop, tpool_3(inc)))", "--cores", "4", "--at", "x=1024")
    assert done.returncode == 0, done.stderr
    assert "(it gives 277238.205 here)" in done.stderr
