"""The public API: ``__all__`` is the contract."""

from __future__ import annotations

import types

import patternalg


def test_all_lists_exactly_the_public_names():
    public = {name for name in vars(patternalg) if not name.startswith("_")}
    modules = {name for name in public if isinstance(getattr(patternalg, name), types.ModuleType)}
    assert set(patternalg.__all__) == public - modules


def test_every_public_callable_is_documented():
    for name in patternalg.__all__:
        obj = getattr(patternalg, name)
        if callable(obj):
            assert obj.__doc__, name


def test_results_render_as_latex_in_notebooks():
    from patternalg.algebra.render import as_latex

    qsort = patternalg.model("qsort")
    assert qsort._repr_latex_() == f"$\\displaystyle {as_latex(qsort)}$"
    assert r"\log_{2}{\left(x \right)}" in qsort._repr_latex_()
    assert patternalg.parse("pipe(a, b)")._repr_latex_().startswith("$")


def test_log2_behaves_as_sympy_codegens_log2() -> None:
    """Our log2 (not imported from sympy.codegen, for start-up) prints, differentiates,
    evaluates and compiles as sympy.codegen.cfunctions.log2 does."""
    import inspect

    import sympy
    from sympy.codegen.cfunctions import log2 as codegen_log2
    from sympy.printing.pycode import MpmathPrinter, PythonCodePrinter

    x = patternalg.x

    def behaviour(log2: type[sympy.Function]) -> tuple[str, ...]:
        e = 258.5425 * x * log2(x) + 3 * log2(x) ** 2 / x + log2(sympy.Integer(16000))
        return (
            str(e),
            sympy.srepr(log2(x)),
            PythonCodePrinter().doprint(e),
            MpmathPrinter().doprint(log2(x)),
            inspect.getsource(sympy.lambdify(x, e, "numpy")),
            str(e.diff(x)),
            str(log2(sympy.Integer(8))),
            str(log2(2**x)),
            str(log2(sympy.Integer(3)).evalf(20)),
            str(sympy.expand_func(log2(x))),
            str(log2(x).rewrite(sympy.log)),
        )

    assert not issubclass(patternalg.log2, codegen_log2)
    assert behaviour(patternalg.log2) == behaviour(codegen_log2)
