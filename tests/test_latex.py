"""LaTeX (``eval --format latex``, a notebook's ``_repr_latex_``) says what the text says:
the notes, the interval and ``--digits``; names and units escaped by one function (probe L)."""

from __future__ import annotations

import json

import pytest
from helpers import run_cli

from patternalg import explain, parse
from patternalg.library.model_library import AtomicModel, ModelLibrary
from patternalg.syntax.symbols import p, phi, x


def test_eval_latex_prints_the_notes_the_text_prints() -> None:
    text = run_cli("eval", "qsort", "--at", "x=0.5")
    latex = run_cli("eval", "qsort", "--at", "x=0.5", "--format", "latex")
    assert latex.returncode == 0 and latex.stdout == "-517.085 \\; \\mathrm{ns}\n"
    assert "note: the value -517.085 ns is negative" in text.stderr
    assert latex.stderr == text.stderr


def test_eval_latex_takes_the_interval_and_the_digits(tmp_path) -> None:
    args = ["pipe(inc, nop)", "--at", "x=4", "--interval", "0.9", "--digits", "3"]
    assert run_cli("eval", *args).stdout == "5420 ns [5420, 5420] (90 %)\n"
    assert run_cli("eval", *args, "--format", "latex").stdout == (
        "5420 \\; \\mathrm{ns} \\; [5420, 5420] \\; (90\\,\\%)\n"
    )
    model = run_cli("eval", "seq(qsort, inc)", "--format", "latex", "--digits", "2")
    assert run_cli("eval", "seq(qsort, inc)", "--digits", "2").stdout == "1000*x*log2(x) + 540*x\n"
    # the coefficients as the text shows them: a whole number without ".0"
    assert model.stdout.startswith("1000 x \\log_{2}{\\left(x \\right)} + 540 x \\;")


def test_latex_carries_the_digits_the_text_shows(tmp_path) -> None:
    """The tour's models: the text printed 4.498425219371718e-08 and 0.5420879388428478,
    LaTeX (and JSON's latex) sympy's 15 digits, 4.49842521937172 and 0.542087938842848."""
    path = tmp_path / "m.toml"
    path.write_text(
        '[models.make]\nmodel = "4.498425219371718e-08*x*log2(x)**2 + 0.5420879388428478"\nunit = "s"\n'
        '[models.scale]\nmodel = "1.575066004967934e-05*x + 0.5018797059498576"\nunit = "s"\n'
    )
    args = ["eval", "pipe(make, scale)", "--models", str(path)]
    assert run_cli(*args).stdout == "4.498425219371718e-08*x*log2(x)**2 + 0.5420879388428478\n"
    latex = "4.498425219371718 \\cdot 10^{-8} x \\log_{2}{\\left(x \\right)}^{2} + 0.5420879388428478"
    assert run_cli(*args, "--format", "latex").stdout == f"{latex} \\; \\mathrm{{s}}\n"
    assert json.loads(run_cli(*args, "--format", "json").stdout)["latex"] == latex


def test_a_unit_is_escaped_in_latex() -> None:
    lib = ModelLibrary([AtomicModel("util", 3 * x, unit="%")])
    assert explain("util", lib, x=2)._repr_latex_() == "$6 \\; \\mathrm{\\%}$"
    assert explain("util", lib)._repr_latex_() == "$3 x \\; \\mathrm{\\%}$"


@pytest.mark.parametrize(
    ("model", "latex"),
    [
        (AtomicModel("map_hadoop", 2 * x), "$\\mathrm{map\\_hadoop}(x) = 2 x$"),
        (AtomicModel("pool", p * phi), "$\\mathrm{pool}(p, \\phi) = p \\phi$"),
        (AtomicModel("nop", 5 + 0 * x), "$\\mathrm{nop} = 5$"),
    ],
)
def test_an_atom_s_latex_escapes_its_name_and_names_its_symbols(model: AtomicModel, latex: str) -> None:
    assert model._repr_latex_() == latex


def test_a_term_s_latex_is_its_text_escaped() -> None:
    latex = parse("tpool_{2*k}(map_grppi)")._repr_latex_()
    assert latex == "$\\mathtt{tpool\\_\\{2*k\\}(map\\_grppi)}$"


def test_every_latex_is_read_by_matplotlib() -> None:
    mathtext = pytest.importorskip("matplotlib.mathtext")
    parser = mathtext.MathTextParser("path")
    lib = ModelLibrary([AtomicModel("util_2", 3 * x, unit="%")])
    for latex in (
        explain("util_2", lib, x=2)._repr_latex_(),
        lib["util_2"]._repr_latex_(),
        ModelLibrary.builtin()["parsec_canneal"]._repr_latex_(),
        parse("mapReduce_{1,n}^{768,x}(map_grppi, shuffle_{1,n}^{768}, reduce_grppi)")._repr_latex_(),
    ):
        parser.parse(latex)
