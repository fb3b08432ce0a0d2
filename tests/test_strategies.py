"""The public hypothesis strategies: what they draw is what their documentation promises."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import Phase, given, settings
from hypothesis import find as shrinking_find
from hypothesis import strategies as st

from patternalg import strategies as pst
from patternalg.algebra import evaluate
from patternalg.pmnf.blocks import TERMS
from patternalg.pmnf.normal_form import normal_form
from patternalg.library import ModelLibrary, valid_atom_name
from patternalg.symbols import log2, x
from patternalg.syntax import parse
from patternalg.terms import Atom, TPool

LIB = ModelLibrary.builtin()


def find(strategy, condition):
    """hypothesis.find without shrinking: these tests only ask whether a value is reachable."""
    return shrinking_find(
        strategy,
        condition,
        settings=settings(phases=[Phase.generate], max_examples=2000, database=None),
    )


def test_public_names():
    assert all(hasattr(pst, name) for name in pst.__all__)
    assert {"models", "terms", "libraries"} <= set(pst.__all__)


def test_extra_p_exponent_sets():
    assert len(pst.POLY_EXPONENTS) == 20 and pst.LOG_EXPONENTS == (0, 1, 2)
    assert pst.POLY_EXPONENTS[0] == 0 and pst.POLY_EXPONENTS[-1] == 3
    assert sympy.Rational(4, 3) in pst.POLY_EXPONENTS
    assert sympy.Rational(4, 5) in pst.POLY_EXPONENTS  # Extra-P tries x^(4/5)


def test_models_draw_exactly_the_fitters_terms():
    """Every term the fitter can choose is drawn, and nothing else (the constant included)."""
    drawn = set()
    for block in TERMS:
        want = (sympy.Rational(block[0].numerator, block[0].denominator), block[1])
        model = find(pst.models(max_terms=1), lambda e, w=want: next(normal_form(e).items())[0] == w)
        drawn.add(next(normal_form(model).items())[0])
    assert len(drawn) == len(TERMS) == 43


@given(pst.models())
def test_models_are_in_extra_p_normal_form(model):
    form = normal_form(model)
    assert form is not None
    for (i, j), coefficient in form.items():
        assert (Fraction(int(i.p), int(i.q)), j) in TERMS
        assert coefficient.is_Rational and coefficient > 0
    assert model.free_symbols <= {x}
    assert float(model.subs(x, 2)) > 0


def test_model_coefficients_span_many_orders_of_magnitude():
    def leading(e):
        return next(normal_form(e).items())[1]

    assert leading(find(pst.models(), lambda e: leading(e) >= 10**8)) >= 10**8
    assert leading(find(pst.models(), lambda e: leading(e) <= sympy.Rational(1, 10))) <= 0.1


def test_models_include_constants_and_log_terms():
    assert find(pst.models(), lambda e: not e.has(x)).is_number
    assert find(pst.models(), lambda e: e.has(log2)).has(log2)


@given(pst.terms(max_depth=3, atoms=["inc", "nop", "qsort"]))
def test_terms_respect_depth_and_atoms_and_round_trip(term):
    assert 1 <= term.depth() <= 3
    assert {n.name for n in term.walk() if isinstance(n, Atom)} <= {"inc", "nop", "qsort"}
    assert parse(str(term)) == term
    assert evaluate(term, LIB).subs(x, 4) > 0


@given(pst.terms(max_depth=2, atoms=LIB, counts=st.just(sympy.Integer(3))))
def test_terms_take_a_library_and_a_count_strategy(term):
    assert all(n.count == 3 for n in term.walk() if isinstance(n, TPool))
    assert all(n.name in LIB for n in term.walk() if isinstance(n, Atom))


def test_terms_reach_every_operator():
    for op in ("seq(", "pipe(", "tpool_"):
        assert op in str(find(pst.terms(atoms=["inc"]), lambda t, op=op: op in str(t)))


def test_terms_reject_bad_arguments():
    with pytest.raises(ValueError, match="max_depth must be at least 1"):
        pst.terms(max_depth=0)
    with pytest.raises(ValueError, match="at least one atom"):
        pst.terms(atoms=[])


@given(pst.libraries(min_size=2, max_size=4))
def test_libraries_round_trip_through_model_files(library):
    assert 2 <= len(library) <= 4
    assert all(valid_atom_name(name) for name in library)
    again = ModelLibrary.from_toml_text(library.to_toml())
    assert {k: m.expr for k, m in again.items()} == {k: m.expr for k, m in library.items()}


@given(pst.input_sizes(), pst.thread_counts())
def test_input_sizes_and_thread_counts_ranges(size, count):
    assert 1 <= size <= 2**30
    assert 1 <= count <= 64 and count.is_Integer
