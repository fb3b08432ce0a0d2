"""The public API: ``__all__`` is the contract."""

from __future__ import annotations

import patternalg


def test_all_lists_exactly_the_public_names():
    public = {name for name in vars(patternalg) if not name.startswith("_")}
    modules = {name for name in public if type(getattr(patternalg, name)).__name__ == "module"}
    assert set(patternalg.__all__) == public - modules


def test_every_public_callable_is_documented():
    for name in patternalg.__all__:
        obj = getattr(patternalg, name)
        if callable(obj):
            assert obj.__doc__, name


def test_results_render_as_latex_in_notebooks():
    from patternalg.render import as_latex

    qsort = patternalg.model("qsort")
    assert qsort._repr_latex_() == f"$\\displaystyle {as_latex(qsort)}$"
    assert r"\log_{2}{\left(x \right)}" in qsort._repr_latex_()
    assert patternalg.parse("pipe(a, b)")._repr_latex_().startswith("$")
