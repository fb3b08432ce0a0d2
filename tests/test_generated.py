"""The data modules shipped in the package are what their generators give, and are used."""

from __future__ import annotations

import ast
import os
import subprocess
import sys

import lark
import pytest

from helpers import ROOT
from patternalg import ModelLibrary, builtin_tables, grammar_tables, library, syntax

#: generated module -> the code that prints what it should hold
GENERATORS = {
    "grammar_tables": "from patternalg import syntax; print(syntax.grammar_tables(), end='')",
    "builtin_tables": "from patternalg import library; print(library.builtin_tables(), end='')",
}


def _generated(module: str, seed: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": seed}
    return subprocess.run(
        [sys.executable, "-c", GENERATORS[module]],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=120,
    ).stdout


@pytest.mark.parametrize("module", sorted(GENERATORS))
def test_a_shipped_module_is_what_its_generator_gives_whatever_the_hash_seed(module) -> None:
    shipped = (ROOT / "patternalg" / f"{module}.py").read_text(encoding="utf-8")
    # lark numbers its states by hashing: two seeds, two numberings, one canonical text
    assert _generated(module, "1") == _generated(module, "2") == shipped, (
        f"patternalg/{module}.py is stale: run its write_{module}()"
    )


@pytest.mark.parametrize("module", sorted(GENERATORS))
def test_a_shipped_module_holds_only_literals(module) -> None:
    tree = ast.parse((ROOT / "patternalg" / f"{module}.py").read_text(encoding="utf-8"))
    assert isinstance(tree.body[0], ast.Expr)  # the docstring
    for statement in tree.body[1:]:  # then NAME = <literal>, nothing to run
        assert isinstance(statement, ast.Assign)
        ast.literal_eval(statement.value)


def test_the_grammar_tables_match_this_lark() -> None:
    assert grammar_tables.LARK_VERSION == lark.__version__


def _refuse(*args, **kwargs):
    raise AssertionError("not this way")


@pytest.fixture
def fresh_parser():
    syntax._parser.cache_clear()
    yield
    syntax._parser.cache_clear()


def test_the_parser_is_loaded_from_the_tables_not_built(fresh_parser, monkeypatch) -> None:
    monkeypatch.setattr(lark.Lark, "__init__", _refuse)  # computing the tables goes through it
    assert str(syntax.parse("pipe(a, seq(b, c))")) == "pipe(a, seq(b, c))"


def test_stale_tables_are_not_used(fresh_parser, monkeypatch) -> None:
    monkeypatch.setattr(grammar_tables, "SOURCE_SHA256", "0" * 64)  # as after a grammar edit
    monkeypatch.setattr(lark.Lark, "_load_from_dict", _refuse)
    assert str(syntax.parse("pipe(a, seq(b, c))")) == "pipe(a, seq(b, c))"


def test_the_loaded_parser_parses_and_fails_like_one_built_from_the_grammar() -> None:
    shipped = syntax._parser()
    built = lark.Lark.open(str(syntax.grammar_path()), **syntax.PARSER_OPTIONS, transformer=syntax._Build())
    for text, start in [
        ("pipe(tpool_4(qsort), inc)", "term"),
        ("mapReduce_{m,n}^{x,768}(map_hadoop, shuffle_hadoop_{m,n}^{768}, reduce_hadoop)", "term"),
        ("2.5 * x * log2(x) / n + -3^2", "expr"),
        ("pipe(A, B) <= seq(A, B)", "law"),
    ]:
        assert shipped.parse(text, start=start) == built.parse(text, start=start)
    for text in ["seq(a,, b)", "pipe(a b)", "tpool_4(", "seq(a, b))"]:
        with pytest.raises(lark.exceptions.UnexpectedInput) as shipped_error:
            shipped.parse(text, start="term")
        with pytest.raises(lark.exceptions.UnexpectedInput) as built_error:
            built.parse(text, start="term")
        assert type(shipped_error.value) is type(built_error.value)
        assert getattr(shipped_error.value, "expected", None) == getattr(built_error.value, "expected", None)


@pytest.fixture
def fresh_builtins(monkeypatch):
    monkeypatch.setattr(library, "_BUILTIN", [])


def _builtin_models() -> dict[str, object]:
    built = ModelLibrary.builtin()
    return {name: built[name] for name in built}


def test_the_builtins_come_from_the_tables_without_a_toml_parser(fresh_builtins, monkeypatch):
    from_tables = _builtin_models()
    monkeypatch.setattr(library, "_BUILTIN", [])
    monkeypatch.setattr(builtin_tables, "SOURCE_SHA256", "0" * 64)  # as after a model file edit
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
