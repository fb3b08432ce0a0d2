"""A law of your own, checked two ways: a hand-written hypothesis test and the checker.

The law: giving one stage of a pipeline more threads never makes the pipeline slower,

    pipe(tpool_n(A), B) <= pipe(A, B)

Run it with ``pytest examples/test_my_law.py``. The first test states the law as a
property over random libraries of Extra-P-shaped atoms, random terms built from them,
random thread counts and input sizes, using the public strategies of
``patternalg.laws.strategies``. The others ask ``patternalg.laws.check`` for a verdict
under each pipe semantics, which is what ``patternalg check "LAW"`` prints, and pin
down with two atoms of our own where the law holds only as x grows.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from patternalg import AtomicModel, ModelLibrary, Pipe, TPool, evaluate, x
from patternalg.laws import check
from patternalg.laws import strategies as pst

MY_LAW = "pipe(tpool_n(A), B) <= pipe(A, B)"


@st.composite
def instances(draw):
    """A library, two terms over it, a thread count and an input size."""
    library = draw(pst.libraries())
    a = draw(pst.terms(max_depth=2, atoms=library))
    b = draw(pst.terms(max_depth=2, atoms=library))
    return library, a, b, draw(pst.thread_counts()), draw(pst.input_sizes())


@settings(max_examples=30, deadline=None)
@given(instances())
def test_more_threads_in_a_stage_never_slow_the_pipeline(instance):
    library, a, b, n, size = instance
    faster = evaluate(Pipe(TPool(n, a), b), library, "exact")
    slower = evaluate(Pipe(a, b), library, "exact")
    assert float(faster.subs(x, size)) <= float(slower.subs(x, size)) * (1 + 1e-12)


def test_the_checker_agrees():
    # pointwise maxima: the law is a theorem
    assert check(MY_LAW, semantics="exact", seed=0).status == "proved"
    # "the stage that grows faster": the search finds no counterexample that persists
    # as x grows (it may or may not meet a pointwise one in 20 examples)
    result = check(MY_LAW, semantics="asymptotic", examples=20, seed=0)
    assert result.status in {"no-counterexample", "holds-asymptotically"}


def test_where_the_law_is_only_asymptotic():
    # more threads can hand the bottleneck to the other stage, which is slower at small x
    library = ModelLibrary.builtin().merged(
        [AtomicModel("fast", 3 * x), AtomicModel("slow", 2 * x + 1000)]
    )
    law = "pipe(tpool_2(fast), slow) <= pipe(fast, slow)"
    result = check(law, library, semantics="asymptotic", seed=0)
    assert result.status == "holds-asymptotically"
    cx = result.counterexample
    assert (cx.x, cx.lhs, cx.rhs, cx.ratio_limit) == (1, 1002.0, 3.0, "2/3")
    assert check(law, library, semantics="exact", seed=0).status == "proved"
