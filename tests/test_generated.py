"""The data modules shipped in the package are what their generators give, and are used."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tomllib

import lark
import pytest
import test_fuzz as fuzz
from helpers import ROOT
from hypothesis import given
from hypothesis import strategies as st

from patternalg import ModelLibrary
from patternalg.library import build
from patternalg.library import builtin_tables as builtin_tables
from patternalg.library import model_library as library
from patternalg.syntax import grammar_tables as grammar_tables
from patternalg.syntax import lalr as patternalg_lalr
from patternalg.syntax import parser as syntax


def _generated(module: str, seed: str) -> str:
    """What ``patternalg.library.build`` makes of ``module`` (a dotted name), in a fresh process."""
    code = f"from patternalg.library import build; print(build.GENERATORS[{module!r}](), end='')"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": seed}
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=120,
    ).stdout


def _shipped(module: str) -> str:
    return (ROOT / "patternalg" / f"{module.replace('.', '/')}.py").read_text(encoding="utf-8")


@pytest.mark.parametrize("module", sorted(build.GENERATORS))
def test_a_shipped_module_is_what_the_build_gives_whatever_the_hash_seed(module) -> None:
    if module == "syntax.grammar_tables" and grammar_tables.LARK_VERSION != lark.__version__:
        pytest.skip(
            f"the shipped tables were made by lark {grammar_tables.LARK_VERSION}, this is lark "
            f"{lark.__version__} (another lark may number them otherwise; the runtime uses no lark)"
        )
    # lark numbers its states by hashing: two seeds, two numberings, one canonical text
    assert _generated(module, "1") == _generated(module, "2") == _shipped(module), (
        f"patternalg/{module.replace('.', '/')}.py is stale: run `{build.COMMAND}`"
    )


@pytest.mark.parametrize("module", sorted(build.GENERATORS))
def test_a_shipped_module_holds_only_literals(module) -> None:
    tree = ast.parse(_shipped(module))
    assert isinstance(tree.body[0], ast.Expr)  # the docstring
    for statement in tree.body[1:]:  # then NAME = <literal>, nothing to run
        assert isinstance(statement, ast.Assign)
        ast.literal_eval(statement.value)


def _imports_lark(path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        if any(name == "lark" or name.startswith("lark.") for name in names):
            return True
    return False


def test_lark_is_a_build_tool_the_runtime_does_not_require() -> None:
    package = ROOT / "patternalg"
    importers = {
        p.relative_to(package).as_posix() for p in package.rglob("*.py") if _imports_lark(p)
    }
    assert importers == {"library/build.py"}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert not [d for d in project["dependencies"] if d.startswith("lark")]
    assert [d for d in project["optional-dependencies"]["test"] if d.startswith("lark")]


def _refuse(*args, **kwargs):
    raise AssertionError("not this way")


@pytest.fixture
def fresh_parser():
    syntax._parser.cache_clear()
    yield
    syntax._parser.cache_clear()


def test_the_parser_runs_the_shipped_tables_without_lark() -> None:
    code = (
        "import sys; sys.modules['lark'] = None; import patternalg.cli; "  # no lark to import
        "patternalg.cli.main(['eval', 'qsort']); print(sys.modules.get('lark') is not None)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert result.stdout.splitlines() == ["1034.17*x*log2(x)", "False"], result.stderr


def test_stale_tables_are_refused_with_the_command_that_regenerates_them(
    fresh_parser, monkeypatch
) -> None:
    monkeypatch.setattr(grammar_tables, "SOURCE_CRC32", "0" * 8)  # as after a grammar edit
    with pytest.raises(RuntimeError, match=re.escape(build.COMMAND)):
        syntax.parse("pipe(a, seq(b, c))")


LARK = lark.Lark.open(str(syntax.grammar_path()), **syntax.PARSER_OPTIONS, transformer=syntax._Build())
CASES = [
    ("pipe(tpool_4(qsort), inc)", "term"),
    ("mapReduce_{m,n}^{x,768}(map_hadoop, shuffle_hadoop_{m,n}^{768}, reduce_hadoop)", "term"),
    ("tpool_{2*n}(seq(a[p=2, phi=1/2], b, c))  # comment\n", "term"),
    ("2.5 * x * log2(x) / n + -3^2 - max(x, 1e3) ** 2", "expr"),
    ("pipe(A, B) <= seq(A, B)", "law"),
    ("seq(a,, b)", "term"),
    ("pipe(a b)", "term"),
    ("tpool_4(", "term"),
    ("seq(a, b))", "term"),
    ("seq(a, b) $ c", "term"),
    ("pipeline(a, b)", "term"),
    ("x +* 2", "expr"),
    ("(x", "expr"),
    ("a == ", "law"),
]


def _outcome(parser, text: str, start: str):
    """What a parser makes of a text: the value, or the error's kind, offset and alternatives."""
    try:
        return parser.parse(text, start=start)
    except lark.exceptions.VisitError as err:  # lark wraps what a rule raises, we do not
        problem = err.orig_exc
        return "problem", problem.pos, problem.message
    except syntax._Problem as problem:
        return "problem", problem.pos, problem.message
    except (lark.exceptions.UnexpectedInput, patternalg_lalr.UnexpectedInput) as err:
        found = getattr(err, "token", None)
        kind = "token" if found is not None else "character"
        expected = getattr(err, "expected", None) or getattr(err, "allowed", None)
        return kind, getattr(found, "type", None), err.pos_in_stream, set(expected or ())


@pytest.mark.parametrize(("text", "start"), CASES)
def test_the_tables_run_here_parse_and_fail_as_lark_does(text, start) -> None:
    assert _outcome(syntax._parser(), text, start) == _outcome(LARK, text, start)


@fuzz.FUZZ
@given(st.data())
def test_random_texts_parse_and_fail_as_lark_does(data) -> None:
    start = data.draw(st.sampled_from(["term", "expr", "law"]))
    text = data.draw(fuzz.texts(start))
    assert _outcome(syntax._parser(), text, start) == _outcome(LARK, text, start)


@pytest.fixture
def fresh_builtins(monkeypatch):
    monkeypatch.setattr(library, "_BUILTIN", [])


def _builtin_models() -> dict[str, object]:
    built = ModelLibrary.builtin()
    return {name: built[name] for name in built}


def test_the_builtins_come_from_the_tables_without_a_toml_parser(fresh_builtins, monkeypatch):
    from_tables = _builtin_models()
    monkeypatch.setattr(library, "_BUILTIN", [])
    monkeypatch.setattr(builtin_tables, "SOURCE_CRC32", "0" * 8)  # as after a model file edit
    from_files = _builtin_models()
    assert from_tables == from_files and len(from_tables) >= 13
    monkeypatch.setattr(library, "_BUILTIN", [])
    monkeypatch.setattr(ModelLibrary, "from_toml_text", _refuse)
    with pytest.raises(AssertionError, match="not this way"):
        ModelLibrary.builtin()  # stale tables: the files are read
    monkeypatch.undo()
    monkeypatch.setattr(library, "_BUILTIN", [])
    monkeypatch.setattr(ModelLibrary, "from_toml_text", _refuse)
    assert _builtin_models() == from_tables  # fresh tables: no TOML parsed
