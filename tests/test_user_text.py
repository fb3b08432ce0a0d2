"""What a user reads — ``--help`` and the docstrings ``help()`` shows — speaks of the
program, not of the project's tracker (issue 29, finding 14: a docstring said "(issue 13)")."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import patternalg
from patternalg.cli import COMMANDS, main

ROOT = Path(patternalg.__file__).resolve().parent
ISSUE = re.compile(r"\bissues?\s*#?\d+", re.IGNORECASE)


def _docstrings() -> list[tuple[str, str]]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                doc = ast.get_docstring(node)
                if doc:
                    found.append((f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 1)}", doc))
    return found


def test_no_docstring_names_an_issue() -> None:
    assert [where for where, doc in _docstrings() if ISSUE.search(doc)] == []


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_no_help_names_an_issue(capsys, command) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"] if command else ["--help"])
    assert not ISSUE.search(capsys.readouterr().out)
