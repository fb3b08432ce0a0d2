"""Where compare puts its crossovers, touches and stretches: roots polished to the double
they are, stretches where two designs are equal, values through 0, counts."""

from __future__ import annotations

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
