"""TOML text of model files, the same text as ``tomli_w.dumps`` but fast for many models.

tomli_w escapes strings one character at a time in Python and walks every value through a
chain of type checks; 100,000 fitted models took longer to write than to fit. This writer
follows tomli_w's layout rule for rule (literals before sub-tables, arrays one item a
line, indent 4) for the values model files hold: tables, strings, booleans, integers,
floats and arrays of them. Anything else (dates, arrays of tables) goes to tomli_w.

>>> print(dumps({"format": 1, "models": {"sort": {"model": "2*x", "x_range": [4.0, 64.0]}}}))
format = 1
<BLANKLINE>
[models.sort]
model = "2*x"
x_range = [
    4.0,
    64.0,
]
<BLANKLINE>
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .json_values import byte_text

__all__ = ["dumps", "table_text", "table_chunks", "toml_key", "toml_string"]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_BARE_KEYS = re.compile(r"[A-Za-z0-9_-]+(?:\n[A-Za-z0-9_-]+)*")  # lines of bare keys
#: what tomli_w escapes in a basic string: quote, backslash and control characters but tab
_ILLEGAL = re.compile(r'["\\\x00-\x08\x0a-\x1f\x7f\udc80-\udcff]')
_COMPACT = {"\b": "\\b", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}
_INDENT = "    "
_KEYS: dict[str, str] = {}


class _Unsupported(Exception):
    """A value this writer leaves to tomli_w."""


def dumps(obj: Mapping[str, Any]) -> str:
    """``tomli_w.dumps(obj)``, faster for model files."""
    out: list[str] = []
    try:
        table_chunks(obj, "", out)
    except _Unsupported:
        import tomli_w

        return tomli_w.dumps(obj)
    return "".join(out)


def table_text(table: Mapping[str, Any], *path: str) -> str:
    """The text of ``table`` as the sub-table ``path`` of a file (``models``, ``sort``), led
    by a blank line; arrays of tables and the like go to tomli_w.

    >>> print(table_text({"model": "2*x", "terms": [{"i": 1}]}, "models", "sort"), end="")
    <BLANKLINE>
    [models.sort]
    model = "2*x"
    terms = [
        { i = 1 },
    ]
    """
    out = ["\n"]
    try:
        table_chunks(table, ".".join(toml_key(part) for part in path), out)
    except _Unsupported:
        import tomli_w

        nested: Mapping[str, Any] = table
        for part in reversed(path):
            nested = {part: nested}
        return "\n" + tomli_w.dumps(nested)
    return "".join(out)


def table_chunks(table: Mapping[str, Any], name: str, out: list[str]) -> None:
    """Append the text of ``table`` (named ``name``, "" at the top) to ``out`` in pieces,
    laid out as tomli_w lays it out."""
    literals = []
    tables = []
    for key, value in table.items():
        kind = type(value)
        if kind is float or kind is int:
            literals.append(f"{_KEYS.get(key) or toml_key(key)} = {value}\n")
        elif kind is str:
            text = f'"{value}"' if _ILLEGAL.search(value) is None else toml_string(value)
            literals.append(f"{_KEYS.get(key) or toml_key(key)} = {text}\n")
        elif kind is dict or (kind is not bool and isinstance(value, Mapping)):
            tables.append((key, value))
        elif kind in (list, tuple) and value and all(isinstance(v, Mapping) for v in value):
            raise _Unsupported
        else:
            literals.append(f"{toml_key(key)} = {_literal(value, 0)}\n")
    yielded = bool(literals)
    if name and (literals or not tables):
        yielded = True
        out.append(f"[{name}]\n")
    out.extend(literals)
    for key, value in tables:
        if yielded:
            out.append("\n")
        yielded = True
        part = toml_key(key)
        table_chunks(value, f"{name}.{part}" if name else part, out)


def toml_key(part: str) -> str:
    """A key as TOML writes it: bare if it can be, else quoted."""
    text = _KEYS.get(part)
    if text is None:
        if type(part) is not str:
            raise _Unsupported
        text = part if _BARE_KEY.fullmatch(part) else toml_string(part)
        if len(_KEYS) < 4096:  # keys repeat in every model: remember the first few thousand
            _KEYS[part] = text
    return text


def toml_keys(parts: Sequence[str]) -> list[str]:
    """:func:`toml_key` of each part (all checked at once: atom names are bare keys).

    >>> toml_keys(["sort", "a-b"]), toml_keys(["sort", "a b"])
    (['sort', 'a-b'], ['sort', '"a b"'])
    """
    if _BARE_KEYS.fullmatch("\n".join(parts)):
        return list(parts)
    return list(map(toml_key, parts))


def toml_strings(texts: Sequence[str]) -> list[str]:
    """:func:`toml_string` of each text (all checked at once: most need no escape).

    >>> toml_strings(["sort", 'say "hi"'])
    ['"sort"', '"say \\\\"hi\\\\""']
    """
    if _ILLEGAL.search("".join(texts)) is None:
        return [f'"{text}"' for text in texts]
    return list(map(toml_string, texts))


def toml_string(text: str) -> str:
    """A string as TOML writes it (a basic string, escaped as tomli_w escapes).

    >>> print(toml_string('say "hi"'))
    "say \\"hi\\""
    """
    if _ILLEGAL.search(text) is None:
        return f'"{text}"'
    return '"' + _ILLEGAL.sub(_escape, text) + '"'


def _escape(match: re.Match[str]) -> str:
    """The escape of one character; a lone surrogate that holds a file name's byte that is
    not UTF-8 (as Python's file functions decode one) has none in TOML: it is written as the
    text ``\\xff`` of its byte. Other lone surrogates are no text, and writing them fails.

    >>> print(toml_string("n" + chr(0xDCFF) + "ame.csv"))
    "n\\\\xffame.csv"
    """
    char = match.group()
    if "\udc80" <= char <= "\udcff":
        return byte_text(char).replace("\\", "\\\\")  # TOML escapes the backslash
    return _COMPACT.get(char) or "\\u" + hex(ord(char))[2:].rjust(4, "0")


def _literal(value: Any, level: int) -> str:
    kind = type(value)
    if kind is str:
        return toml_string(value)
    if kind is float or kind is int:
        return str(value)
    if kind is bool:
        return "true" if value else "false"
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        inner = _INDENT * (level + 1)
        items = ",\n".join(inner + _literal(item, level + 1) for item in value)
        return f"[\n{items},\n{_INDENT * level}]"
    raise _Unsupported
