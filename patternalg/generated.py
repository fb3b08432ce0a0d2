"""Data modules computed ahead of time and shipped in the package (fast start-up, no pickle).

A generated module holds only literals (``NAME = <literal>``): Python imports it from its
cached bytecode, which is faster than computing the data (lark's LALR tables) or parsing
it (the built-in TOML model files) at every start. Each records the SHA-256 of the text it
was made from, so a stale module is noticed and not used; the tests check every shipped
module is what its generator gives.

>>> print(literal_module("Squares.", SOURCE_SHA256=sha256(b"1 2"), DATA={1: 1, 2: 4}), end="")
'''Squares. (generated; do not edit)'''
<BLANKLINE>
SOURCE_SHA256 = 'f71998fe363b9c29116c80b5eecf33a2fedca3b6159724384485804b71651029'
DATA = {1: 1, 2: 4}
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

__all__ = ["literal_module", "sha256", "write_module"]


def sha256(data: bytes) -> str:
    """The hex SHA-256 of ``data`` (what a generated module records of its source)."""
    return hashlib.sha256(data).hexdigest()


def literal_module(doc: str, **values: Any) -> str:
    """The text of a module with docstring ``doc`` and one ``NAME = repr(value)`` line a value."""
    lines = [f"'''{doc} (generated; do not edit)'''", ""]
    lines += [f"{name} = {value!r}" for name, value in values.items()]
    return "\n".join(lines) + "\n"


def write_module(name: str, text: str) -> Path:
    """Write the generated module ``patternalg/<name>.py``; returns its path."""
    path = Path(__file__).resolve().parent / f"{name}.py"
    path.write_text(text, encoding="utf-8")
    return path
