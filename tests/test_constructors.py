"""Where sympy's evaluating ``Max`` and ``Min`` are built, read with ``ast``.

Their evaluation compares every pair of arguments through sympy's assumptions, and once per
level of a deep term that took minutes: the asymptotic maximum of crossing pools nested 300
deep spent 68 of its 70 s there, and the sign on counts rebuilt maxima around each chosen
argument. So the package builds them evaluated only where a rule says it may (each place
below, with why); everywhere else with ``evaluate=False``, or as its own ``Maximum`` and
``Minimum``. A new place is a decision: name it here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import patternalg

ROOT = Path(patternalg.__file__).resolve().parent

#: (module path, function) -> why sympy may evaluate the Max or Min built there
ALLOWED = {
    ("algebra/operators.py", "_symbolic_max"): "only small stages, none holding a Min",
    ("algebra/machine.py", "_larger"): "two thread counts that are both numbers",
    ("algebra/machine.py", "_at_most"): "a mapReduce's threads per node against the machine's cores, once per count",
    ("algebra/own_error.py", "own_error"): "max(1, steps beyond a fit's sizes), in one symbol",
    ("forms/memwall/form.py", "speedup_expr"): "a fraction of two numbers a model file gives",
}


def evaluating_calls(source: str) -> set[tuple[str, int]]:
    """The functions (name, line of the call) that call ``sympy.Max``/``Min`` (or ``Max``/``Min``
    by name) without an ``evaluate`` keyword; ``""`` for a call outside any function."""
    tree = ast.parse(source)
    found: set[tuple[str, int]] = set()

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = function
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = child.name
            elif (
                isinstance(child, ast.Call)
                and _constructor(child.func)
                and not any(keyword.arg == "evaluate" for keyword in child.keywords)
            ):
                found.add((function, child.lineno))
            visit(child, name)

    visit(tree, "")
    return found


def _constructor(func: ast.expr) -> bool:
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return func.value.id == "sympy" and func.attr in ("Max", "Min")
    return isinstance(func, ast.Name) and func.id in ("Max", "Min")


def test_the_reader_finds_an_evaluating_max_and_passes_an_unevaluated_one() -> None:
    source = (
        "import sympy\n"
        "def f(a):\n    return sympy.Max(a, 1)\n"
        "def g(a):\n    return sympy.Min(a, 1, evaluate=False)\n"
        "class C:\n    def h(self, a):\n        return Max(a, 2)\n"
    )
    assert evaluating_calls(source) == {("f", 3), ("h", 8)}


def test_sympy_evaluates_a_max_or_min_only_where_a_rule_allows_it() -> None:
    places = {}
    for path in sorted(ROOT.rglob("*.py")):
        module = path.relative_to(ROOT).as_posix()
        for function, line in evaluating_calls(path.read_text(encoding="utf-8")):
            places[(module, function)] = line
    unexpected = {place: line for place, line in places.items() if place not in ALLOWED}
    assert not unexpected, (
        f"an evaluating sympy Max/Min built outside the allowed places: {unexpected}"
    )
    assert set(places) == set(ALLOWED), (
        f"allowed but gone (drop them): {set(ALLOWED) - set(places)}"
    )
