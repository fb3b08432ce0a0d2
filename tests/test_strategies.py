"""The public hypothesis strategies: what they draw is what their documentation promises."""

from __future__ import annotations

from fractions import Fraction

import sympy
from hypothesis import Phase, given, settings
from hypothesis import find as shrinking_find
from hypothesis import strategies as st

from patternalg.algebra.evaluation import evaluate
from patternalg.algebra.normal_forms.blocks import TERMS
from patternalg.algebra.normal_forms.normal_form import normal_form
from patternalg.laws import strategies as pst
from patternalg.library.model_library import ModelLibrary
from patternalg.syntax.parser import parse
from patternalg.syntax.symbols import log2, x
from patternalg.syntax.terms import Atom, MapReduce, TPool

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
    wanted = {(sympy.Rational(i.numerator, i.denominator), j) for i, j in TERMS}
    drawn = set()

    def every_term_drawn(model: sympy.Expr) -> bool:  # one search collects them all
        drawn.add(next(normal_form(model).items())[0])
        return wanted <= drawn

    find(pst.models(max_terms=1), every_term_drawn)
    assert drawn == wanted and len(TERMS) == 43


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
    for op in ("seq(", "pipe(", "tpool_", "[p=", "[phi="):
        assert op in str(find(pst.terms(atoms=["inc"]), lambda t, op=op: op in str(t)))
    assert "mapReduce_" not in str(find(pst.terms(atoms=["inc"]), lambda t: t.depth() == 3))


@given(pst.terms(max_depth=3, atoms=["inc", "qsort", "shuffle"]))
def test_terms_with_a_shuffle_model_draw_mapreduce_and_evaluate(term):
    assert parse(str(term)) == term
    assert evaluate(term, LIB).subs({x: 4, sympy.Symbol("m", positive=True): 1}).is_number


def test_terms_reach_mapreduce_and_annotations_over_the_builtins():
    found = find(pst.terms(), lambda t: any(isinstance(n, MapReduce) for n in t.walk()))
    assert any(isinstance(n, MapReduce) for n in found.walk())
    annotated = find(
        pst.terms(), lambda t: any(isinstance(n, Atom) and n.annotations for n in t.walk())
    )
    assert any(isinstance(n, Atom) and n.annotations for n in annotated.walk())


def test_public_names_are_exactly_the_module_s_own():
    """``__all__`` lists every public name the module defines at top level, and nothing else."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(pst))
    defined = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            defined.update(t.id for t in targets if isinstance(t, ast.Name))
    public = {name for name in defined if not name.startswith("_")}
    assert set(pst.__all__) == public
    assert len(pst.__all__) == len(set(pst.__all__))
