"""Where compare puts its crossovers, touches and stretches: roots polished to the double
they are, stretches where two designs are equal, values through 0, counts."""

from __future__ import annotations

from patternalg.decisions.compare import compare


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
