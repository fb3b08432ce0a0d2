"""One number printer (issue 29, finding 10): a value prints the same wherever it shows —
``eval``'s first line and its ``--explain`` tree, a law's counterexample — by
:func:`patternalg.syntax.arith.format_number` (values) and :func:`patternalg.syntax.arith.float_text`
(a closed form's coefficients)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from patternalg.algebra.render import format_number
from patternalg.laws.checker import check, parse_law
from patternalg.library.evaluate import explain
from patternalg.library.model_library import ModelLibrary

_VALUE = re.compile(r"->  (\S+) ns at the point")


@settings(max_examples=25, deadline=None)
@given(
    st.floats(1e-3, 1e6, allow_nan=False),
    st.floats(1e-3, 1e6, allow_nan=False),
    st.integers(2, 10**6),
    st.sampled_from(["seq(k, j)", "pipe(k, j)", "tpool_3(seq(k, j))"]),
)
def test_the_explain_tree_prints_the_value_as_the_first_line(a, b, at, term) -> None:
    """The first line and the tree's root show one value in the same digits (the tree once
    cut a 16-digit value to 15: ``78838.28347974883`` above ``78838.2834797488``)."""
    library = ModelLibrary.from_toml_text(
        f'[models.k]\nmodel = "{a!r}*x*log2(x)"\n[models.j]\nmodel = "{b!r}*x"\n', "m.toml"
    )
    result = explain(term, library, "exact", x=at)
    shown = result.text().removesuffix(" ns")
    root = _VALUE.search(result.lines()[0])
    assert root is not None and root.group(1) == shown
    assert _VALUE.search(result.lines(4)[0]).group(1) == result.text(4).removesuffix(" ns")


def test_a_laws_limit_ratio_prints_as_a_value() -> None:
    """0.1 + 0.1 + 0.1 over 0.25 is 1.2000000000000002 in doubles: the limit prints 1.2."""
    library = ModelLibrary.from_toml_text(
        '[models.a]\nmodel = "0.1*x"\n[models.b]\nmodel = "0.25*x"\n', "m.toml"
    )
    result = check(parse_law("seq(a, seq(a, a)) <= b"), library, "asymptotic", seed=1)
    shown = str(result.counterexample)
    assert "lhs/rhs -> 1.2 as x -> oo" in shown
    assert f"lhs = {format_number(0.1 + 0.1 + 0.1)} ns" in shown  # 0.3, as eval prints it


@given(st.floats(allow_nan=False, allow_infinity=False), st.integers(1, 17))
def test_format_number_reads_back_to_the_rounded_value(value, digits) -> None:
    text = format_number(value, digits)
    assert float(text) == float(f"{value:.{digits}g}")
    assert not text.startswith("-0.0") or float(text) != 0


@given(st.floats(1e-300, 1e300, allow_nan=False).map(lambda v: v if v != int(v) else v + 0.5))
def test_a_message_prints_a_literal_as_its_shortest_repr(value) -> None:
    """``p must be positive, got -2.5`` (sympy's own printer said ``-2.50000000000000``)."""
    from patternalg.errors import ParseError
    from patternalg.syntax.parser import parse

    text = repr(value)
    try:
        parse(f"qsort[p=-{text}]")
    except ParseError as error:
        assert f"got -{text}:" in str(error)
    else:  # pragma: no cover - a negative annotation is always refused
        raise AssertionError("accepted")


def test_a_fitted_coefficient_of_one_prints_as_sympy_prints_one(tmp_path, capsys) -> None:
    """``fit`` printed ``k: 1*x + 1`` for a slope of exactly 1, on the reference path (a
    CSV) and on the fast one (a regular Extra-P file); its model file keeps ``1.0*x``."""
    from patternalg.cli import main

    rows = "".join(f"k,{x},{x + 1}\n" for x in (1, 2, 4, 8, 16))
    (tmp_path / "m.csv").write_text("kernel,x,time\n" + rows)
    data = "".join(f"DATA {-(x + 1)} {-(x + 1)}\n" for x in (1, 2, 4, 8, 16))
    (tmp_path / "m.txt").write_text("PARAMETER x\nPOINTS 1 2 4 8 16\nMETRIC time\nREGION k\n" + data)
    assert main(["-q", "fit", str(tmp_path / "m.csv"), "--out", str(tmp_path / "m.toml")]) == 0
    assert capsys.readouterr().out.startswith("k: x + 1  [ns]\n")
    assert 'model = "1.0*x + 1.0"' in (tmp_path / "m.toml").read_text()
    assert main(["-q", "fit", str(tmp_path / "m.txt"), "--allow-nonpositive"]) == 0
    assert capsys.readouterr().out.startswith("k: -x - 1  [ns]\n")
