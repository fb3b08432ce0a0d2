"""Unknown names: one helper finds the close names and words the hint (``errors.did_you_mean``)."""

from __future__ import annotations

import ast

import pytest
from helpers import ROOT
from hypothesis import given
from hypothesis import strategies as st

from patternalg import ModelLibrary
from patternalg.errors import ModelFileError, UnknownAtomError, close_names, did_you_mean
from patternalg.forms import FORMS, form_class


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            if isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                found.add(id(body[0].value))
    return found


def _hand_built_hints(path) -> list[str]:
    """Where a module imports difflib or spells a did-you-mean hint itself (docstrings aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name == "difflib" for a in node.names):
            found.append(f"import difflib, line {node.lineno}")
        elif isinstance(node, ast.ImportFrom) and node.module == "difflib":
            found.append(f"from difflib, line {node.lineno}")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and "did you mean" in node.value
            and id(node) not in docstrings
        ):
            found.append(f"{node.value!r}, line {node.lineno}")
    return found


def test_only_the_helper_finds_close_names_and_words_the_hint() -> None:
    package = ROOT / "patternalg"
    wrong = {
        path.relative_to(package).as_posix(): found
        for path in package.rglob("*.py")
        if path.name != "errors.py" and (found := _hand_built_hints(path))
    }
    assert not wrong


NAMES = st.text(st.sampled_from("abcdemnopqrstx_"), min_size=1, max_size=8)


@given(name=NAMES)
def test_an_unknown_atom_names_the_close_ones(name) -> None:
    library = ModelLibrary.builtin()
    if name in library:
        return
    with pytest.raises(UnknownAtomError) as caught:
        library[name]
    close = close_names(name, library, n=3)
    assert caught.value.suggestions == close and all(c in library for c in close)
    assert str(caught.value).startswith(f"unknown atom '{name}'")
    if close:
        assert str(caught.value).endswith(f"; did you mean {', '.join(close)}?")


@given(name=NAMES)
def test_an_unknown_form_names_the_closest_quoted(name) -> None:
    if name in FORMS:
        return
    with pytest.raises(ModelFileError) as caught:
        form_class(name, "m.toml: models.a")
    hint = did_you_mean(close_names(name, FORMS), quote="'", after=" ")
    valid = ", ".join(sorted(FORMS))
    assert str(caught.value) == f"m.toml: models.a: unknown form '{name}' ({hint}valid: {valid})"
    assert hint == "" or hint.removeprefix("did you mean '").removesuffix("'? ") in FORMS


def test_the_hint_says_nothing_without_a_close_name() -> None:
    assert close_names("zzzz", ["qsort", "inc"]) == []
    assert did_you_mean([], before="; ", after=" ") == ""
