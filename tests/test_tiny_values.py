"""Values below a double's range decide laws exactly: a pool nested 700 deep runs 3^-700 of
its body (1e-334), which a double reads as 0.0, and two such sides read alike had proved a
false law (``tpool_3`` 701 deep ``>=`` 700 deep), and one past 1e-1000 stopped ``check``
with an error about a literal the user never wrote."""

from __future__ import annotations

import numpy as np
import pytest
import sympy

from patternalg.algebra.arrays import compile_term
from patternalg.algebra.normal_forms.dominance import below, nonnegative
from patternalg.algebra.normal_forms.normal_form import normal_form
from patternalg.cli import main
from patternalg.decisions.sweep import below_range_note
from patternalg.laws import check
from patternalg.laws.certificate import dominates
from patternalg.laws.proof import decide
from patternalg.library import ModelLibrary
from patternalg.syntax.parser import parse
from patternalg.syntax.symbols import x

TINY = sympy.Float(3) ** -700  # 1.04e-334: a double's smallest normal is 2.2e-308


def nested(depth: int, count: int = 3, atom: str = "inc") -> str:
    return f"tpool_{count}(" * depth + atom + ")" * depth


def test_the_order_of_forms_below_a_double_is_their_exact_order() -> None:
    big, small = normal_form(TINY * x), normal_form(TINY * x / 3)
    assert below(small, big) and not below(big, small)
    assert nonnegative(normal_form(TINY * x - TINY * x / 3))
    assert not nonnegative(normal_form(TINY * x / 3 - TINY * x))


def test_coefficients_further_apart_than_a_double_reaches_are_not_proved_either_way() -> None:
    assert not below(normal_form(x + TINY), normal_form(x))  # true, but not provable in doubles
    assert not below(normal_form(x), normal_form(x + TINY))  # true too: not claimed


def test_neither_cheap_proof_claims_a_false_order_of_tiny_sides() -> None:
    assert not dominates([TINY * x / 3], [TINY * x])
    assert not decide(TINY * x / 3, TINY * x, ">=")
    assert decide(TINY * x, TINY * x / 3, ">=")


@pytest.mark.parametrize("semantics", ["exact", "asymptotic"])
def test_a_false_law_between_pools_nested_past_a_double_is_refuted(semantics: str) -> None:
    result = check(f"{nested(701)} >= {nested(700)}", examples=2, seed=1, semantics=semantics)
    assert result.status == "refuted"
    assert result.counterexample is not None
    assert result.counterexample.ratio_limit.startswith("0.333")
    assert result.counterexample.lhs is None  # no double holds 3.5e-335 ns: not shown as 0.0


def test_a_true_law_between_pools_nested_past_a_double_is_proved() -> None:
    assert check(f"{nested(701)} <= {nested(700)}", examples=2, seed=1, semantics="exact").status == "proved"


def test_a_pool_nested_past_a_literal_s_range_is_checked_not_refused(tmp_path, capsys) -> None:
    law = tmp_path / "law.txt"
    law.write_text(f"{nested(4000, count=2)} <= inc\n")  # 2^-4000: 7.6e-1205
    assert main(["check", f"@{law}", "--examples", "2", "--seed", "1"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert captured.out.count("proved") == 2


MODELS = """
[models.tiny]
model = "1e-1000*x"
[models.tiny2]
model = "2e-1000*x"
[models.huge]
model = "1.5e308*x"
[models.huge2]
model = "1.6e308*x"
[models.bigx]
model = "1e300*x"
[models.tinylog]
model = "1e-1000*x*log2(x)"
[models.tinylog2]
model = "2e-1000*x*log2(x)"
[models.m1]
model = "1.0001*x^2 + 1"
[models.m2]
model = "1.6e308*log2(x) + 1e-300"
[models.m3]
model = "1*x + 1e-1000"
[models.m4]
model = "3*log2(x) + 1e300"
"""


def _library() -> ModelLibrary:
    return ModelLibrary.builtin().merged(ModelLibrary.from_toml_text(MODELS))


@pytest.mark.parametrize("pair", [("tiny", "tiny2"), ("tinylog", "tinylog2")])  # 0 at x = 1, exactly
def test_compare_of_models_below_a_double_names_them_instead_of_a_tie(pair, tmp_path, capsys) -> None:
    models = tmp_path / "models.toml"
    models.write_text(MODELS)
    assert main(["compare", *pair, "--models", str(models)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{pair[0]}, {pair[1]}: beyond a double's range" in err


@pytest.mark.parametrize(
    ("law", "status"),
    [("huge2 >= huge", "proved"), ("huge >= huge2", "refuted"), ("pipe(huge, huge2) == huge2", "proved")],
)
def test_laws_over_coefficients_near_a_double_s_largest_are_decided(law: str, status: str) -> None:
    library = _library()  # sums overflowed
    assert check(law, library, "exact", examples=5, seed=1).status == status


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["optimize", "tpool_a(tiny)", "--budget", "a<=4", "--at", "x=10"],
         "tpool_a(tiny): the model's value is below a double's range at a=1"),
        (["explore", "seq(tiny, tiny2)", "--threads", "4", "--at", "x=10"],
         "seq(tiny, tiny2) is below a double's range at --at x=10"),
    ],
)
def test_decisions_over_values_below_a_double_are_refused_not_ranked_as_zeros(args, said, tmp_path, capsys) -> None:
    models = tmp_path / "models.toml"
    models.write_text(MODELS)
    assert main([*args, "--models", str(models)]) == 2  # every assignment read 0 ns: a=1 was "best"
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err


def test_a_value_that_is_zero_exactly_is_still_optimized(capsys) -> None:
    assert main(["optimize", "tpool_a(seq(qsort, qsort))", "--budget", "a<=4", "--at", "x=1"]) == 0
    assert capsys.readouterr().out.startswith("best: a=1: 0 ns")  # x*log2(x) is 0 at x = 1


def test_a_ratio_of_leading_terms_past_a_double_is_a_refutation_not_a_traceback() -> None:
    library = _library()
    result = check("bigx <= tiny", library, "exact", examples=5, seed=1)  # round(inf) raised
    assert result.status == "refuted"
    assert result.counterexample is not None and result.counterexample.ratio_limit == "1.0e+1300"


def test_an_equality_whose_difference_sympy_cannot_expand_is_decided_not_a_traceback() -> None:
    # sympy's polynomials made 1e-1000 an integer of a thousand digits: "too many digits"
    library = _library()
    law = "seq(tpool_2(m1), pipe(m3, m1)) == pipe(pipe(m4, m2), tpool_3(m4))"
    assert check(law, library, "exact", examples=10, seed=1).status == "refuted"


def test_sweep_says_which_cells_a_double_reads_as_zero(tmp_path, capsys) -> None:
    models = tmp_path / "models.toml"
    models.write_text(MODELS)
    args = ["sweep", "tinylog", "--models", str(models), "--format", "csv"]
    assert main([*args, "--over", "x=1,2,4"]) == 0
    captured = capsys.readouterr()
    assert [row.split(",")[1] for row in captured.out.splitlines()[1:]] == ["0.0", "0.0", "0.0"]
    assert "tinylog is below a double's range (2.2e-308) at x = 2 and 1 other point: shown as 0" in captured.err
    tiny = compile_term(parse("tinylog"), _library(), {})  # a grid of x = 1 alone is eval's
    at_1 = {"x": np.array([1.0])}
    assert below_range_note(tiny, tiny.values(at_1), at_1) == ()  # x*log2(x) is 0 at x = 1, exactly: no note
