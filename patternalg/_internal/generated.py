"""Data modules computed ahead of time and shipped in the package (fast start-up, no pickle).

A generated module holds only literals (``NAME = <literal>``): Python imports it from its
cached bytecode, which is faster than computing the data (lark's LALR tables) or parsing
it (the built-in TOML model files) at every start. Each records the checksum of the text it
was made from (a CRC-32: it notices an edit, it guards nothing), so a stale module is not
used; the tests check every shipped module is what its generator gives.

>>> print(literal_module("Squares.", SOURCE_CRC32=checksum(b"1 2"), DATA={1: 1, 2: 4}), end="")
'''Squares. (generated; do not edit)'''
<BLANKLINE>
SOURCE_CRC32 = '87bb2397'
DATA = {1: 1, 2: 4}
"""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any

__all__ = ["literal_module", "checksum", "write_module"]


def checksum(data: bytes) -> str:
    """The CRC-32 of ``data`` in hex (what a generated module records of its source); zlib is
    loaded with sympy already, hashlib would cost a few milliseconds of start-up."""
    return f"{zlib.crc32(data):08x}"


def literal_module(doc: str, **values: Any) -> str:
    """The text of a module with docstring ``doc`` and one ``NAME = repr(value)`` line a value."""
    lines = [f"'''{doc} (generated; do not edit)'''", ""]
    lines += [f"{name} = {value!r}" for name, value in values.items()]
    return "\n".join(lines) + "\n"


def write_module(name: str, text: str) -> Path:
    """Write the generated module ``patternalg.<name>`` (a dotted name); returns its path."""
    path = Path(__file__).resolve().parent.parent.joinpath(*name.split(".")).with_suffix(".py")
    path.write_text(text, encoding="utf-8")
    return path
