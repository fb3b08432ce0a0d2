"""The list of checks left to the long stage names tests that exist."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).parent.parent


def long_checks() -> set[str]:
    """The root conftest's list (a module of that name here is tests/conftest.py)."""
    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.long_checks()  # type: ignore[no-any-return]


def test_every_long_check_listed_is_a_test_of_its_file() -> None:
    """A renamed or removed test would leave its line behind, and a new name run in the
    README's command unnoticed: each line is a file and a test function defined in it (or a
    documentation page, whose doctest is the page)."""
    listed = long_checks()
    assert len(listed) > 50
    for node in sorted(listed):
        path, _, name = node.partition("::")
        text = (ROOT / path).read_text(encoding="utf-8")
        if path.endswith(".md"):
            assert name == Path(path).name and ">>> " in text, node
        else:
            assert re.search(rf"^def {re.escape(name)}\(", text, re.MULTILINE), node
