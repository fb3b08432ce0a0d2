"""Semantics are objects (issue 30): a new one is one class, registered by name, and the one
fold gives it in closed forms, at points and on grids alike."""

from __future__ import annotations

import numpy as np
import pytest
import sympy

from patternalg import ModelLibrary, model, parse, x
from patternalg.algebra import Semantics, evaluate
from patternalg.algebra.arrays import compile_term
from patternalg.errors import EvaluationError

LIB = ModelLibrary.builtin()


class Summed(Semantics):
    """A toy: a pipe costs the sum of its stages."""

    name = "toy-summed"

    def pipe(self, arithmetic, left, right):
        return arithmetic.add(left, right), None


@pytest.fixture
def summed():
    yield Semantics.register(Summed())
    Semantics.unregister("toy-summed")


def test_a_registered_semantics_is_used_in_closed_forms_points_and_grids(summed) -> None:
    term = parse("pipe(tpool_2(qsort), seq(inc, nop))")
    closed = evaluate(term, LIB, "toy-summed")
    as_seq = evaluate(parse("seq(tpool_2(qsort), seq(inc, nop))"), LIB)
    assert sympy.simplify(closed - as_seq) == 0
    at = model(str(term), semantics="toy-summed", x=1024)
    assert float(at) == pytest.approx(float(as_seq.subs(x, 1024)), rel=1e-12)
    grid = np.array([2.0, 1024.0, 2.0**20])
    values = compile_term(term, LIB, {}, semantics=summed).values({"x": grid})
    want = [float(as_seq.subs(x, v)) for v in grid]
    assert values.tolist() == pytest.approx(want, rel=1e-12)


def test_the_built_in_semantics_keep_their_names_and_meanings() -> None:
    assert Semantics.of("exact") is Semantics.EXACT and Semantics.EXACT.value == "exact"
    assert str(Semantics.ASYMPTOTIC) == "asymptotic"
    assert evaluate(parse("pipe(inc, nop)"), LIB, "asymptotic") == evaluate(parse("inc"), LIB)
    with pytest.raises(EvaluationError, match="unknown semantics 'nope'"):
        Semantics.of("nope")
