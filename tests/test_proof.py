"""The decision procedure behind ``proved``: it may say "not proved", never prove a falsehood."""

from __future__ import annotations

import math

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from patternalg.proof import decide
from patternalg.symbols import log2, n, x

A, B, C = sympy.symbols("_A _B _C", positive=True)
LEAVES = st.sampled_from([A, B, C, sympy.Integer(1), sympy.Rational(5, 2), x])


def _expressions() -> st.SearchStrategy[sympy.Expr]:
    return st.recursive(
        LEAVES,
        lambda inner: st.one_of(
            st.builds(lambda a, b: a + b, inner, inner),
            st.builds(sympy.Max, inner, inner),
            st.builds(lambda a: a / n, inner),
            st.builds(lambda a: a / 2, inner),
        ),
        max_leaves=4,
    )


def _value(expr: sympy.Expr, point: dict[sympy.Symbol, float]) -> float:
    return float(expr.xreplace({s: sympy.Float(v) for s, v in point.items()}))


POINTS = st.fixed_dictionaries(
    {
        A: st.floats(1e-3, 1e6),
        B: st.floats(1e-3, 1e6),
        C: st.floats(1e-3, 1e6),
        x: st.floats(1, 2**30),
        n: st.integers(1, 64).map(float),
    }
)


@settings(max_examples=40, deadline=None)
@given(
    _expressions(),
    _expressions(),
    st.sampled_from([">=", "==", ">"]),
    st.lists(POINTS, min_size=5, max_size=5),
)
def test_whatever_decide_proves_holds_at_random_points(lhs, rhs, relation, points):
    if not decide(lhs, rhs, relation, counts=[n]):
        return
    for point in points:
        a, b = _value(lhs, point), _value(rhs, point)
        tolerance = 1e-9 * max(abs(a), abs(b))
        if relation == "==":
            assert math.isclose(a, b, rel_tol=1e-9)
        elif relation == ">=":
            assert a >= b - tolerance
        else:
            assert a > b - tolerance


@pytest.mark.parametrize(
    "lhs, rhs, relation, proved",
    [
        (sympy.Max(A, B), (A + B) / 2, ">=", True),  # the paper's (iv) under exact semantics
        (sympy.Max(A, B), A + B, "<=", True),
        (sympy.Max(A / n, B / n), sympy.Max(A, B) / n, "==", True),  # (iii)
        (sympy.Max(A / n, B), sympy.Max(A, B), "<=", True),
        (A + B, sympy.Max(A, B), "<=", False),  # false
        (sympy.Max(A, B), A, "==", False),  # false
        (A / n, A, "<", False),  # false at n = 1
        (x * log2(x), x, ">=", False),  # false at x = 1
        (x * log2(x) + x, x, ">=", True),
    ],
)
def test_decide_on_known_relations(lhs, rhs, relation, proved):
    assert decide(lhs, rhs, relation, counts=[n]) is proved


def test_unknown_relation_is_rejected():
    with pytest.raises(ValueError, match="unknown relation"):
        decide(A, B, "=<")
