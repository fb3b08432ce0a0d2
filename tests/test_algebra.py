"""The composition operators and the evaluator (paper 001, eqs. 2-7)."""

from __future__ import annotations

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from patternalg import (
    EvaluationError,
    ModelLibrary,
    Semantics,
    UnknownAtomError,
    evaluate,
    model,
    parse,
)
from patternalg.algebra.evaluation import Derivation
from patternalg.algebra.operators import m_pipe
from patternalg.library.model_library import AtomicModel
from patternalg.syntax.symbols import log2, m, n, p, symbol, x

LIB = ModelLibrary.builtin()


def ev(text: str, semantics: str = "asymptotic", library=LIB) -> sympy.Expr:
    return evaluate(parse(text), library, semantics)


def test_seq_adds_eq2():
    assert ev("seq(qsort, inc)") == sympy.Float(1034.17) * x * log2(x) + sympy.Float(536.185) * x


def test_tpool_divides_eq3_and_keeps_symbols():
    assert ev("tpool_4(qsort)") == sympy.Float(258.5425) * x * log2(x)
    assert ev("tpool_n(qsort)") == sympy.Float(1034.17) * x * log2(x) / n
    assert ev("tpool_{2*k}(inc)") == sympy.Float(536.185) * x / (2 * symbol("k"))


def test_pipe_asymptotic_takes_worse_scaling_eq4():
    assert ev("pipe(tpool_4(qsort), inc)") == sympy.Float(258.5425) * x * log2(x)
    assert ev("pipe(inc, nop)") == sympy.Float(536.185) * x
    # a large constant still loses to x as x grows
    assert ev("pipe(map_own_large, inc)") == sympy.Float(536.185) * x


def test_pipe_asymptotic_breaks_ties_term_by_term():
    # same leading term: the stage with the larger next term is the bottleneck
    assert ev("pipe(inc, seq(inc, nop))") == ev("seq(inc, nop)")
    assert ev("pipe(seq(inc, nop), inc)") == ev("seq(inc, nop)")


def test_pipe_asymptotic_falls_back_to_max_when_undecidable():
    derivation = Derivation()
    expr = evaluate(parse("pipe(tpool_n(qsort), tpool_m(qsort))"), LIB, derivation=derivation)
    q = sympy.Float(1034.17) * x * log2(x)
    assert expr == sympy.Max(q / n, q / m)
    assert derivation.undecided == 1


def test_pipe_exact_is_pointwise_max():
    assert ev("pipe(inc, nop)", "exact") == sympy.Max(
        sympy.Float(536.185) * x, sympy.Float(5422.97)
    )
    # inc dominates qsort for x < 2^(536.185/1034.17), so both stay
    assert ev("pipe(qsort, inc)", "exact").func is sympy.Max


def test_pipe_exact_simplifies_under_x_at_least_one():
    lib = LIB.merged(
        [AtomicModel("lin", x), AtomicModel("one", sympy.Integer(1)), AtomicModel("quad", x**2)]
    )
    assert ev("pipe(lin, one)", "exact", lib) == x
    assert ev("pipe(lin, quad)", "exact", lib) == x**2
    assert ev("pipe(inc, tpool_2(inc))", "exact") == sympy.Float(536.185) * x
    assert ev("pipe(tpool_2(qsort), qsort)", "exact") == ev("qsort")


def test_mapreduce_grppi_eq6():
    assert ev("mapReduce_{1,n}^{768,x}(map_grppi, reduce_grppi)") == sympy.Float(2.1859e7) * x / n


def test_mapreduce_hadoop_eq7_with_corrected_transfer():
    expr = ev("mapReduce_{m,n}^{x,768}(map_hadoop, shuffle_hadoop_{m,n}^{768}, reduce_hadoop)")
    bytes_sent = (m * n - 1) / (m * n) * 12288 * x  # eq. (7)
    expected = x * sympy.Float(3.529e7) / (m * n) + 8 * bytes_sent + 768 * 9376 * x / (m * n)
    assert sympy.simplify(expr - expected) == 0


def test_default_shuffle_costs_nothing_on_one_node():
    shuffle = LIB["shuffle"].expr
    assert shuffle.xreplace({m: 1}) == 0
    assert shuffle.xreplace({m: 2, symbol("o"): 768}) == 8 * 768 * 16 * x / 2


def test_shuffle_must_match_the_mapreduce_grid():
    with pytest.raises(EvaluationError, match="m,n must be"):
        ev("mapReduce_{2,n}^{x,768}(map_hadoop, shuffle_hadoop_{1,n}^{768}, reduce_hadoop)")


def test_annotations_substitute_resources():
    lib = LIB.merged([AtomicModel("kernel", 100 * x / p + 5 * x)])
    assert ev("kernel[p=4]", library=lib) == 30 * x
    assert ev("tpool_n(kernel[p=4])", library=lib) == 30 * x / n
    # p and phi may be given to atoms that do not use them (a sequential stage stays sequential)
    assert ev("inc[p=8]") == ev("inc")
    with pytest.raises(EvaluationError, match="its model has no symbol q"):
        ev("inc[q=8]")


def test_unknown_atoms_and_metavariables_are_errors():
    with pytest.raises(UnknownAtomError, match="did you mean qsort"):
        ev("pipe(qsrot, inc)")
    with pytest.raises(EvaluationError, match="metavariable"):
        ev("pipe(A, inc)")


def test_metavariables_take_given_models():
    a = sympy.Function("a", positive=True)(x)
    assert evaluate(parse("tpool_2(tpool_3(A))"), LIB, metavariables={"A": a}) == a / 6


def test_deep_nesting_evaluates_without_recursion():
    depth = 10_000
    term = parse("pipe(qsort, " * depth + "inc" + ")" * depth)
    assert evaluate(term, LIB) == sympy.Float(1034.17) * x * log2(x)
    chain = parse("seq(" * 3000 + "inc" + ", nop)" * 3000)
    total = evaluate(chain, LIB)
    assert total.coeff(x) == sympy.Float(536.185)
    assert float(total.subs(x, 0)) == pytest.approx(3000 * 5422.97, rel=1e-12)


def test_explain_derivation_records_every_subterm():
    derivation = Derivation()
    evaluate(parse("pipe(tpool_4(qsort), inc)"), LIB, derivation=derivation)
    assert [str(s.term) for s in derivation.steps] == [
        "pipe(tpool_4(qsort), inc)",
        "tpool_4(qsort)",
        "qsort",
        "inc",
    ]
    assert derivation.steps[0].note == "bottleneck: left stage"
    assert [s.model for s in derivation.steps] == [
        ev("tpool_4(qsort)"),
        ev("tpool_4(qsort)"),
        ev("qsort"),
        ev("inc"),
    ]
    assert derivation.atoms["qsort"].source.startswith("paper 001, Table 1, row 3")


def test_model_api_binds_keywords():
    assert model("tpool_n(qsort)", n=4, x=1024) == sympy.Float(258.5425) * 1024 * 10
    with pytest.raises(EvaluationError, match="positive integer"):
        model("tpool_n(qsort)", n=0)


def test_semantics_names():
    assert Semantics.of("exact") is Semantics.EXACT
    with pytest.raises(EvaluationError, match="valid: asymptotic, exact"):
        Semantics.of("fastest")


# --- the asymptotic pipe is commutative and associative on the library's atoms -----------------
stage = st.one_of(
    # atoms in x alone: resource models (p, phi) leave the order of pipe stages undecided
    st.sampled_from(
        sorted(n for n in LIB if not n.startswith("shuffle") and LIB[n].expr.free_symbols == {x})
    ),
    st.tuples(st.integers(1, 24), st.sampled_from(["qsort", "inc", "nop", "reduce_v"])).map(
        lambda ca: f"tpool_{ca[0]}({ca[1]})"
    ),
    st.tuples(st.sampled_from(["qsort", "inc"]), st.sampled_from(["nop", "inc"])).map(
        lambda ab: f"seq({ab[0]}, {ab[1]})"
    ),
)


@given(stage, stage, stage)
def test_asymptotic_pipe_is_commutative_and_associative(a, b, c):
    assert ev(f"pipe({a}, {b})") == ev(f"pipe({b}, {a})")
    assert ev(f"pipe({a}, pipe({b}, {c}))") == ev(f"pipe(pipe({a}, {b}), {c})")


@given(stage, stage)
def test_asymptotic_pipe_picks_one_of_its_stages(a, b):
    result, winner = m_pipe(ev(a), ev(b))
    assert result == (ev(a) if winner == 0 else ev(b))


# --- one definition per equation --------------------------------------------------------------
ODD = LIB.merged([AtomicModel("odd", x**2 / (x + 1))])  # not in Extra-P's normal form


@pytest.mark.parametrize("semantics", ["asymptotic", "exact"])
@pytest.mark.parametrize("body", ["qsort", "odd"])
@pytest.mark.parametrize(
    "operator, text",
    [
        ("m_seq", "seq(B, B)"),
        ("m_tpool", "tpool_4(B)"),
        ("m_pipe", "pipe(B, inc)"),
        ("m_mapreduce", "mapReduce_{1,n}^{768,x}(B, B)"),
    ],
)
def test_each_equation_is_computed_by_its_function_only(
    monkeypatch, operator, text, body, semantics
):
    """Patching m_* changes the evaluated model, whether the bodies are PMNF (qsort) or not."""
    from patternalg.algebra import operators as algebra

    term = parse(text.replace("B", body))
    before = evaluate(term, ODD, semantics)
    original = getattr(algebra, operator)
    marker = sympy.Symbol("patched")

    def patched(*args):
        result = original(*args)
        if operator == "m_pipe":
            return algebra.as_expr(result[0]) * marker, result[1]
        return algebra.as_expr(result) * marker

    monkeypatch.setattr(algebra, operator, patched)
    assert evaluate(term, ODD, semantics) == before * marker


def test_a_closed_form_sympy_cannot_build_is_an_evaluation_error(monkeypatch):
    # a mapReduce_{2,n} 300 deep with n free nests its coefficient 300 deep: sympy's
    # recursive algorithms stop at Python's limit (tests/test_deep_hangs.py builds the real one)
    import patternalg.algebra.evaluation as evaluation

    def too_deep(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(evaluation, "fold", too_deep)
    with pytest.raises(EvaluationError, match="nests too deeply.*; bind the counts, e.g. n=2$"):
        evaluation.evaluate(parse("tpool_n(qsort)"), LIB)


def test_atoms_over_a_size_named_n_compose_as_over_x():
    """A table over n fits models in n: the normal forms order stages in x alone, so a pipe of
    them kept its maximum symbolic (exact and asymptotic alike) where the same models in x
    take the dominant stage; the size is folded as x and named back."""
    big, small = 100 * n * log2(n) + 50, 2 * n + 1
    in_n = ModelLibrary([AtomicModel("big", big), AtomicModel("small", small)])
    for semantics in ("exact", "asymptotic"):
        assert ev("pipe(big, small)", semantics, in_n) == big
        assert ev("seq(tpool_2(big), small)", semantics, in_n) == big / 2 + small
    # where n is also a thread count, or an annotation binds it, it is no size: as before
    assert ev("tpool_n(big)", "exact", in_n) == big / n
    assert ev("pipe(big[n=4], small[n=4])", "exact", in_n) == big.subs(n, 4)
    derivation = Derivation()
    evaluate(parse("pipe(big, small)"), in_n, "exact", derivation=derivation)
    assert [s.model for s in derivation.steps] == [big, big, small] and derivation.undecided == 0


def test_a_pipe_in_a_mapreduce_s_map_compares_its_stages_at_size_1() -> None:
    """The map runs at x = 1 (eq. (5)), where inc (536 ns) is below map_own_small (197,598
    ns): the asymptotic closed form picked inc by its growth and was 368 times below the
    value at every x, with no note (third probe, 2026-11-30)."""
    from patternalg.library.evaluate import explain, model

    term = "mapReduce_{1,1}^{1,1}(pipe(inc, map_own_small), nop)"
    closed = model(term)
    assert closed == model(term, semantics="exact")
    assert float(closed.subs(x, 10**6)) == pytest.approx(explain(term, x=10**6).value, rel=1e-12)


def test_a_number_in_digits_other_than_0_to_9_is_refused() -> None:
    """Python's \\d took Arabic-Indic and full-width digits: --at x=٤ was x = 4."""
    from helpers import run_cli

    for text in ("x=\u0664", "x=\uff14"):
        done = run_cli("eval", "qsort", "--at", text)
        assert done.returncode == 2 and "is not written in the digits 0 to 9" in done.stderr
