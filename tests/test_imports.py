"""The package's import graph, read with ``ast`` (function-level imports included)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import patternalg

ROOT = Path(patternalg.__file__).resolve().parent


def _modules() -> dict[str, tuple[Path, bool]]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = ["patternalg", *path.relative_to(ROOT).with_suffix("").parts]
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def import_graph() -> dict[str, set[str]]:
    """module -> the package's modules it imports anywhere in its text."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, (path, package) in modules.items():
        here = name.split(".") if package else name.split(".")[:-1]
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = here[: len(here) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                # ``from . import x`` imports the submodule x, or a name of the package
                candidates = [
                    f"{target}.{alias.name}" if f"{target}.{alias.name}" in modules else target
                    for alias in node.names
                ]
            elif isinstance(node, ast.Import):
                candidates = [alias.name for alias in node.names]
            else:
                continue
            edges.update(c for c in candidates if c in modules and c != name)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of modules, or None (iterative depth-first search)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in sorted(graph):
        if start in state:
            continue
        path = [start]
        state[start] = 1
        pending = [iter(sorted(graph[start]))]
        while pending:
            nxt = next(pending[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                pending.pop()
            elif state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            elif nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                pending.append(iter(sorted(graph[nxt])))
    return None


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, stack = set(), [start]
    while stack:
        for nxt in graph[stack.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def test_the_checker_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_the_graph_sees_function_level_and_relative_imports():
    graph = import_graph()
    assert "patternalg.algebra.normal_forms.normal_form" in graph["patternalg.algebra.operators"]
    assert "patternalg.forms" in graph["patternalg.library.model_library"]


def test_the_package_has_no_import_cycle():
    assert find_cycle(import_graph()) is None


def test_the_algebra_reads_no_files():
    assert "patternalg.library.model_library" not in reachable(import_graph(), "patternalg.algebra.operators")


def test_the_decisions_read_no_file_format():
    """Measurement formats are read by the evidence (validate, calibrate), never by a decision."""
    graph = import_graph()
    decisions = [m for m in graph if m.startswith("patternalg.decisions")]
    assert decisions
    for module in decisions:
        assert not [t for t in graph[module] if t.startswith("patternalg.measurements")], module


def test_eval_does_not_go_through_the_decisions():
    """``eval`` is the algebra's result; --explain a view of it (issue 37)."""
    reached = reachable(import_graph(), "patternalg.commands.eval")
    assert not [m for m in reached if m.startswith("patternalg.decisions")]


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in PACKAGES) else parts[-1]


#: the top-level packages, by concern
PACKAGES = (
    "syntax",
    "algebra",
    "library",
    "laws",
    "forms",
    "measurements",
    "evidence",
    "decisions",
    "profiles",
    "plotting",
    "commands",
    "_internal",
)

#: package -> the packages (and top-level modules) it may import: one direction, no back-edges
ALLOWED = {
    "_internal": {"errors", "syntax.arith"},  # plumbing; numbers print through the one printer
    "syntax": {"_internal", "errors"},  # text in, terms out: nothing of models
    # what the operators mean and how a term is evaluated: nothing of files or fitting (a
    # result draws itself with the optional plotting extra, lazily, as a fit's does)
    "algebra": {"_internal", "errors", "syntax", "arguments", "plotting"},
    "measurements": {"_internal", "errors", "syntax", "algebra.units", "algebra.atomic_model", "algebra.grid", "arguments"},
    "forms": {"_internal", "errors", "syntax", "algebra", "measurements", "plotting", "arguments"},
    "library": {"_internal", "errors", "syntax", "algebra", "forms", "arguments", "plotting"},
    "laws": {"_internal", "errors", "syntax", "algebra", "library", "arguments"},
    "plotting": {"_internal", "errors", "syntax", "algebra.units", "measurements"},  # draws what it is given
    # the models against measurements: reads (and fits) measurements, evaluates with the algebra
    "evidence": {"_internal", "errors", "syntax", "algebra", "library", "forms", "measurements", "plotting", "arguments", "profiles"},
    # the questions a designer asks: the algebra, the laws, the evidence's results; no file format
    "decisions": {"_internal", "errors", "syntax", "algebra", "library", "laws", "evidence", "plotting", "arguments"},
    "profiles": {"_internal", "errors", "syntax", "algebra", "measurements", "forms", "library", "arguments"},  # call trees over runs -> terms and atoms
    "commands": set(PACKAGES) | {"errors", "arguments", "cli"},
}


def _allowed(source: str, target: str) -> bool:
    rules = ALLOWED[source]
    short = target.removeprefix("patternalg.")
    return any(short == rule or short.startswith(rule + ".") for rule in rules)


def test_each_package_imports_only_what_its_concern_allows():
    """The flow of docs/architecture.md: syntax -> algebra -> library/laws -> decisions, with
    measurements -> forms beside it, plumbing under all and the commands on top."""
    wrong = []
    for module, targets in import_graph().items():
        source = _package(module)
        if source not in ALLOWED:
            continue
        for target in targets:
            if _package(target) != source and not _allowed(source, target):
                wrong.append(f"{module} -> {target}")
    assert not wrong, "imports against the flow:\n" + "\n".join(sorted(wrong))


def test_the_top_level_is_the_flow():
    entries = {p.name for p in ROOT.iterdir() if p.name != "__pycache__"}
    assert len(entries) <= 18, sorted(entries)
    assert set(PACKAGES) <= entries


_FIRST_IMPORTS = """
import importlib, pkgutil, sys
import numpy, sympy  # loaded once: each module below is imported as a notebook's first import
import patternalg
names = [m.name for m in pkgutil.walk_packages(patternalg.__path__, "patternalg.")
         if m.ispkg or sys.argv[1] == "all"]
names += ["patternalg.arguments", "patternalg.errors", "patternalg.cli"]
for name in names:
    for loaded in [k for k in sys.modules if k == "patternalg" or k.startswith("patternalg.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception as exc:
        print(name, type(exc).__name__, exc)
"""


def _first_imports(which: str) -> list[str]:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _FIRST_IMPORTS, which], capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def test_every_package_imports_as_the_first_import() -> None:
    """``import patternalg.laws`` (and ``patternalg.arguments``) as a session's first import
    was an ImportError once ``import patternalg`` loaded nothing eagerly: arguments imports
    algebra.atomic_model, whose package imported the evaluation, which imports arguments.
    The graph above does not see a package's own ``__init__`` run before its module."""
    assert _first_imports("packages") == []


@pytest.mark.long
def test_every_module_imports_as_the_first_import() -> None:
    assert _first_imports("all") == []
