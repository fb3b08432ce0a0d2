"""Where compare puts its crossovers, touches and stretches: roots polished to the double
they are, stretches where two designs are equal, values through 0, counts."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest
import sympy

from patternalg.algebra.atomic_model import AtomicModel
from patternalg.algebra.uncertainty import Uncertainty
from patternalg.decisions.compare import compare
from patternalg.syntax.symbols import x


def test_exact_crossovers_are_the_roots_themselves():
    """The companion matrix's eigenvalues are a few units in the last place off: (x-1)(x-2)(x-3)
    + 100 against 100 crossed at 1.0000000000000002, inside x = 1..10 (a stretch [1, 1] where
    they tied), and at 1.999999999999998 for 2; the quartic's printed 1.99999999999998."""
    cubic = compare(["a", "b"], library={"a": "x**3 - 6*x**2 + 11*x + 94", "b": "100"}, over="x=1..10")
    assert [c.value for c in cubic.crossovers] == [2.0, 3.0] and cubic.touches == ()
    assert [(i.start, i.end, i.winner) for i in cubic.intervals] == [(1, 2, "b"), (2, 3, "a"), (3, 10, "b")]
    quartic = compare(["a", "b"], library={"a": "(x-1)*(x-2)*(x-3)*(x-4) + 100", "b": "100"}, over="x=1..10")
    assert [c.value for c in quartic.crossovers] == [2.0, 3.0, 4.0]
    assert "crossover at x = 2 (exact): a below, b above; both 100 ns there" in quartic.lines()


def test_over_a_count_the_draws_decide_at_integers():
    """A thread count takes whole values only: the 90 % section said 'n in [1, 9.9]: nop wins'
    and put the crossover between n = 9 and n = 10 in [9.998, 10]."""
    result = compare(["tpool_n(inc)", "nop"], over="n=1..64", at={"x": 100}, interval=0.9)
    assert [(r.start, r.end, r.winner) for r in result.ranges] == [(1, 9, "nop"), (10, 64, "tpool_n(inc)")]
    assert [c.interval for c in result.crossovers] == [(9, 10)]
    assert "  n in [1, 9]: nop wins" in result.lines()


def test_over_a_count_an_undecided_stretch_ends_at_integers_printed_whole():
    """An end of a stretch the draws decide prints in the few digits the draws know it to,
    but a count is a whole number: 1613 printed as 1610."""
    a = AtomicModel("a", 2.0 * x, uncertainty=Uncertainty((x,), ((0.05**2,),), 10, 0.0, "bootstrap"))
    library = {"a": a, "b": AtomicModel("b", sympy.Float(12000.0))}
    result = compare(["tpool_n(a)", "b"], over="n=1..100000", at={"x": 1e7}, library=library, interval=0.9)
    assert [r.winner for r in result.ranges] == ["b", None, "tpool_n(a)"]
    lines = result.lines()
    for r in result.ranges:
        assert r.start.is_integer() and r.end.is_integer()
        assert any(line.startswith(f"  n in [{r.start:.0f}, {r.end:.0f}]: ") for line in lines)


@pytest.mark.parametrize("first", [0, 1])
def test_a_stretch_where_two_designs_are_equal_is_crossed_not_touched(first: int):
    """d is below b = 5 up to x = 5, equal to it up to 10 and above it beyond: the winner
    changes across the stretch. compare said 'd wins' on all of [1, 20] (its ratio to b
    0.33 at 20) with touches at 5, 7.5 and 10, each point read alone."""
    terms = ["d", "b"][first:] + ["d", "b"][:first]
    result = compare(terms, library={"d": "min(5, x) + max(0, x - 10)", "b": "5"}, over="x=1..20")
    assert [(i.start, i.end) for i in result.intervals] == [(1, 5), (5, 10), (10, 20)]
    assert [{i.winner, *i.ties} for i in result.intervals] == [{"d"}, {"d", "b"}, {"b"}]
    (cross,) = result.crossovers
    assert (cross.equal_from, cross.value, cross.designs, result.touches) == (5, 10, ("d", "b"), ())
    line = "crossover across x in [5, 10] (exact): d below, b above, equal in between; both 5 ns at x = 10"
    assert line in result.lines()
    assert "crossover across x in [5, 10]: d below, b above, equal in between" in result.caption()


def test_a_stretch_where_the_winner_stays_is_touched_at_its_ends_only():
    """max(5, 10 - x, x - 10) is 5 on [5, 15]: b = 5 never loses to it; x = 10, where its
    two other branches meet inside the stretch, was a touch."""
    result = compare(["d", "b"], library={"d": "max(5, 10 - x, x - 10)", "b": "5"}, over="x=1..20")
    assert [t.value for t in result.touches] == [5, 15] and result.crossovers == ()
    assert [(i.winner, i.ties) for i in result.intervals] == [("b", ())]


def test_a_stretch_found_numerically_is_crossed_from_its_refined_ends():
    """sqrt(x) + log2(x) is no polynomial: the stretch [5, 27.33] where d equals b is
    bracketed on the scan, its ends refined by bisection (they were the first and last scan
    points inside it, and no winner changed: 'b wins' on all of [1, 100], where d is 1 at 1)."""
    library = {"d": "min(5, x) + max(0, sqrt(x) + log2(x) - 10)", "b": "5"}
    result = compare(["d", "b"], library=library, over="x=1..100")
    (cross,) = result.crossovers
    end = next(v for v in np.linspace(27, 28, 100001) if math.sqrt(v) + math.log2(v) > 10)
    assert not cross.exact and cross.equal_from == pytest.approx(5, rel=1e-8)
    assert cross.value == pytest.approx(end, abs=1e-5)
    assert [(i.winner, i.ties) for i in result.intervals] == [("d", ()), ("d", ("b",)), ("b", ())]


@pytest.mark.parametrize("terms", [["a", "b"], ["b", "a"], ["a", "b", "c"]])
def test_designs_that_cross_where_both_pass_through_0_cross_there(terms: list[str]):
    """b is 1.5 a, and both pass through 0 at x = 70.82 (extrapolated models): below it b is
    the more negative. Equal at the point was read relative to values near 0 and never held:
    the crossover was lost, 'a wins' on all of [1, 1e5], and beside c the stretch up to
    107.75 went to b while its crossover said 'a below, c above'."""
    library = {"a": "0.664*x^(3/4)*log2(x)^2 - 612.3", "b": "1.5*(0.664*x^(3/4)*log2(x)^2 - 612.3)", "c": "400"}
    result = compare(terms, library=library, over="x=1..1e5")
    zero = result.crossovers[0]
    assert zero.designs == ("b", "a") and 0.664 * zero.value**0.75 * math.log2(zero.value) ** 2 == pytest.approx(612.3)
    winners = [i.winner for i in result.intervals]
    assert winners == ["b", "a", "c"][: len(terms)]
    for before, c, after in zip(result.intervals, result.crossovers, result.intervals[1:], strict=False):
        assert (before.winner, after.winner) == c.designs  # the lines agree


@pytest.mark.parametrize("candidates", [[(5.0, True), (10.0, True)], [(4.5, False), (10.5, False)], [(7.0, True)]])
def test_over_a_count_a_stretch_of_equal_integers_is_crossed_from_its_first_to_its_last(candidates):
    """Over a count the same walk reads the steps between integers: d = min(5, n) + max(0,
    n - 10) equals b = 5 at n = 5..10, whichever candidates bracket the stretch's ends (a
    candidate inside it, n = 7, gives steps inside it: nothing)."""
    from patternalg.decisions.classify import classify

    def values(n: np.ndarray) -> np.ndarray:
        return np.stack([np.minimum(5.0, n) + np.maximum(0.0, n - 10.0), np.full_like(n, 5.0)])

    crossovers, touches = classify(candidates, values, ("d", "b"), "n", 1.0, 20.0, integer=True)
    if len(candidates) == 1:
        assert crossovers == touches == []
        return
    (cross,) = crossovers
    assert (cross.equal_from, cross.value, cross.previous, cross.designs, touches) == (5.0, 10.0, None, ("d", "b"), [])


@pytest.mark.parametrize(
    ("model", "exact", "at"),
    [
        ("600 + (x - 9.3)^2", True, 9.3),
        ("5 + 1000*(x - 17.77)^2", True, 17.77),  # a double root as a near-real complex pair
        ("5 + (x - 9)^2", True, 9.0),  # split into 9 -+ 8e-9: printed 8.999999992070073
        ("5 + (sqrt(x) - sqrt(9.3))^2 + (log2(x) - log2(9.3))^2", False, 9.3),
    ],
)
def test_designs_that_only_touch_are_touches(model: str, exact: bool, at: float):
    """At a tangent point the two designs were read 1e-6 of x either side, where they differ
    by 1e-12 of their values, equal to rounding: no change was seen, and no touch said."""
    result = compare(["d", "b"], library={"d": model, "b": "600" if model.startswith("600") else "5"}, over="x=1..100")
    (touch,) = result.touches
    assert (touch.designs, touch.exact, result.crossovers) == (("b", "d"), exact, ())
    assert touch.value == at if exact else touch.value == pytest.approx(at, rel=1e-7)
    assert [(i.start, i.end, i.winner) for i in result.intervals] == [(1, 100, "b")]


@pytest.mark.parametrize(("model", "base"), [("600 + (x - 9.3)^3", "600"), ("1000000 + 0.1*(x - 9.3)", "1000000")])
def test_a_crossover_where_the_difference_is_flat_is_a_crossover(model: str, base: str):
    """d is below b up to x = 9.3 and above it beyond, but 1e-6 of x either side of 9.3 the
    two are equal to rounding: 'x in [1, 100]: b wins (d x0.047 .. x1244.57)', d 0.047 times b."""
    result = compare(["d", "b"], library={"d": model, "b": base}, over="x=1..100")
    (cross,) = result.crossovers
    assert cross.designs == ("d", "b") and cross.value == pytest.approx(9.3, rel=1e-9)
    assert [(i.start, i.end, i.winner) for i in result.intervals] == [(1, cross.value, "d"), (cross.value, 100, "b")]
    for interval in result.intervals:  # each winner is below the other at the ends' ratios
        assert all(a is None or a >= 1 for _, a, _ in interval.ratios)


def test_a_stretch_found_numerically_ties_up_to_its_refined_ends():
    """The bisection put the stretch's end at 10.000000002681217, where d = min(5, x*log2(x))
    + max(0, x - 10) is 5.4e-10 above b = 5: not equal at both ends, no tie, and two
    neighbouring intervals both said 'b wins'. Its ends are now where the two are still equal."""
    library = {"d": "min(5, x*log2(x)) + max(0, x - 10)", "b": "5"}
    result = compare(["d", "b"], library=library, over="x=1..100")
    assert [(i.winner, i.ties) for i in result.intervals] == [("d", ()), ("d", ("b",)), ("b", ())]
    (cross,) = result.crossovers
    assert cross.equal_from == result.intervals[1].start and cross.value == pytest.approx(10, rel=1e-9)
    assert cross.value <= 10


def test_a_stretch_found_numerically_with_one_winner_around_it_is_touched_at_its_ends():
    """t = max(5, 10 - x, sqrt(x) + log2(x) - 5) equals b = 5 on [5, 27.33] and is above it
    on either side: touches at 5 and 27.33, as the exact max(5, 10 - x, x - 10) has at 5 and
    15; the numeric path added a stretch's ends only where the winner changed across it."""
    result = compare(["t", "b"], library={"t": "max(5, 10 - x, sqrt(x) + log2(x) - 5)", "b": "5"}, over="x=1..100")
    end = next(v for v in np.linspace(27, 28, 100001) if math.sqrt(v) + math.log2(v) > 10)
    assert [t.designs for t in result.touches] == [("b", "t")] * 2 and result.crossovers == ()
    assert [t.value for t in result.touches] == [pytest.approx(5, rel=1e-8), pytest.approx(end, abs=1e-5)]


@pytest.mark.parametrize("terms", [["a", "c", "b"], ["c", "b", "a"]])
def test_a_stretch_whose_designs_change_inside_it_is_crossed_from_one_still_equal_at_its_end(terms: list[str]):
    """a = b = x*log2(x) < c = 5 up to 3.08, all three equal up to 10, then b = c up to 20, then
    c alone: the fastest go {a, b}, {a, b, c}, {b, c}, {c}. b, still among them, closed the
    stretch at 10 with touches, and 'c wins' on all of [1, 1000], where a and b are 0 at 1."""
    library = {"a": "min(5, x*log2(x)) + max(0, x - 10)", "b": "min(5, x*log2(x)) + max(0, x - 20)", "c": "max(5, x - 100)"}
    result = compare(terms, library=library, over="x=1..1000")
    (cross,) = result.crossovers
    assert cross.designs == ("b", "c") and result.touches == ()
    assert (cross.equal_from, cross.value) == (pytest.approx(3.0804483, rel=1e-7), pytest.approx(20, rel=1e-9))
    assert [{i.winner, *i.ties} for i in result.intervals] == [{"a", "b"}, {"b", "c"}, {"c"}]


#: three built-in designs: the pool wins up to 14.76, where it crosses map_own_small, which the
#: first pipe (its bottleneck map_own_small up to 21.07) equals from x = 1 to 21.07
_TIED = (
    "pipe(pipe(tpool_2(qsort), map_own_small), reduce_hadoop)",
    "map_own_small",
    "pipe(tpool_3(map_own_small), seq(pipe(nop, qsort), pipe(nop, reduce_hadoop)))",
)


def _as_listed(line: str) -> str:
    """An interval's line with the designs it lists over its winner in one order."""
    head, said, others = line.partition(" (others over it at the ends: ")
    items = re.findall(r"(.+?) (x[^ ,)]+ \.\. x[^ ,)]+)(?:, |\)$)", others)
    return head + said + ", ".join(sorted(f"{name} {ratios}" for name, ratios in items))


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_a_crossover_among_tied_designs_names_the_stretches_winners_in_any_order(order: tuple[int, ...]):
    """Just above the crossover at 14.76 the pipe equals map_own_small, the winner of the
    stretch above it. The crossover named whichever was given first ('... below, pipe(pipe(...
    above', beside 'map_own_small wins'), and at the refined point the designs it had not
    named showed x0.999999999998001 and x1.000000000002 for 1."""
    pipe, constant, pool = _TIED
    result = compare([_TIED[k] for k in order], over="x=1..1e6")
    (cross,) = result.crossovers
    assert [i.winner for i in result.intervals] == [pool, constant] == list(cross.designs)
    assert cross.ties == ((), (pipe,)) and cross.to_json()["ties"] == [[], [pipe]]
    below, above = (dict((name, ends) for name, *ends in i.ratios) for i in result.intervals)
    assert {name: ends[1] for name, ends in below.items()} == {name: 1.0 for name in _TIED}
    assert {name: ends[0] for name, ends in above.items()} == {name: 1.0 for name in _TIED}
    assert f"{pool} below, {constant} above (as is {pipe}); both" in result.lines()[2]
    first = compare(list(_TIED), over="x=1..1e6")
    assert [_as_listed(line) for line in result.lines()] == [_as_listed(line) for line in first.lines()]


@pytest.mark.parametrize(
    ("terms", "library", "over"),
    [
        (["pipe(inc, inc)", "nop", "inc"], None, "x=2..5000"),
        (["d", "b", "e"], {"d": "min(5, x) + max(0, x - 10)", "e": "min(5, x) + max(0, x - 10)", "b": "5"}, "x=1..20"),
    ],
)
def test_a_crossover_names_the_winner_of_a_tied_stretch_and_its_ties(
    terms: list[str], library: dict[str, str] | None, over: str
):
    """Designs equal up to a crossover (pipe(inc, inc) and inc; d and e, crossed across [5, 10]
    by b): the crossover names the winner of the stretch below it, the design given first,
    and the other as its tie; it named the first given alone ('pipe(inc, inc) below, nop
    above', and given second 'inc below'), as if the other were not as fast."""
    for given in (terms, terms[::-1]):
        result = compare(given, library=library, over=over)
        (cross,) = result.crossovers
        first, second = (name for name in given if name in terms[::2])
        assert (result.intervals[0].winner, result.intervals[0].ties) == (first, (second,))
        assert cross.designs == (first, terms[1]) and cross.ties == ((second,), ())
        assert f": {first} below (as is {second}), {terms[1]} above" in result.lines()[-2]


@pytest.mark.parametrize(
    "terms", [["tpool_n(inc)", "nop", "tpool_n(pipe(inc, inc))"], ["tpool_n(pipe(inc, inc))", "nop", "tpool_n(inc)"]]
)
def test_over_a_count_a_crossover_names_the_winner_from_its_integer_and_its_ties(terms: list[str]):
    """The two pools are equal at every n: from n = 10 on the one given first wins, the other
    its tie, and the crossover between 9 and 10 says both."""
    result = compare(terms, over="n=1..64", at={"x": 100})
    (cross,) = result.crossovers
    assert (cross.previous, cross.value, cross.designs, cross.ties) == (9, 10, ("nop", terms[0]), ((), (terms[2],)))
    assert result.intervals[1].winner == terms[0]
    assert f"nop wins at 9, {terms[0]} from 10 on (as does {terms[2]})" in result.lines()[-2]
