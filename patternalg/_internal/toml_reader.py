"""A model or machine file's TOML text as data: nesting bounded before ``tomllib`` reads it
(it recurses on arrays), every error a :class:`~patternalg.errors.ModelFileError` at its place.

>>> load_toml("format = 1", "m.toml")
{'format': 1}
>>> load_toml("a = " + "[" * 200 + "]" * 200, "m.toml")
Traceback (most recent call last):
...
patternalg.errors.ModelFileError: m.toml:1: arrays and inline tables nest deeper than 100 levels
>>> load_toml("format = ", "m.toml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
patternalg.errors.ModelFileError: m.toml: not valid TOML: ...
>>> load_toml("cores = " + "9" * 5000, "m.toml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
patternalg.errors.ModelFileError: m.toml: an integer of more than 4,300 digits (the most Python reads as a number)
>>> load_toml("# a comment\\n\\nnot a model file", "m.toml")
Traceback (most recent call last):
...
patternalg.errors.ModelFileError: m.toml:3: not valid TOML: the first statement is neither a [table] nor a key = value

An error about a key names its line (tomllib gives none), found by :func:`key_line`:

>>> text = "[models.sort]\\nmodel = '2*x'\\ntouches_data = 3\\n"
>>> with keys_located(text, load_toml(text, "m.toml"), "m.toml"):
...     raise ModelFileError("expected true or false, got 3", location=Location("m.toml", key="models.sort.touches_data"))
Traceback (most recent call last):
...
patternalg.errors.ModelFileError: m.toml:3: models.sort.touches_data: expected true or false, got 3
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import Location, ModelFileError
from .limits import TOML_TOKENS, toml_nesting_problem

__all__ = ["load_toml", "key_line", "keys_located"]


#: the first statement of a TOML text (after blank lines and comments), as far as it is
#: looked at: the first :data:`_LOOKED_AT` characters
_FIRST_STATEMENT = re.compile(r"(?:[ \t\r\n]|#[^\n]*)*(?P<line>[^\n]*)")
_LOOKED_AT = 1 << 16


def load_toml(text: str, path: str) -> dict[str, Any]:
    """``text`` parsed as TOML (``path`` names it in errors)."""
    import tomllib

    first = _FIRST_STATEMENT.match(text, 0, _LOOKED_AT)
    if first is not None and first["line"] and not first["line"].startswith("[") and "=" not in first["line"]:
        line = text.count("\n", 0, first.start("line")) + 1
        raise ModelFileError(
            "not valid TOML: the first statement is neither a [table] nor a key = value",
            location=Location(path, line=line),
        )  # before a minute of tomllib on 200 MB of something else
    too_deep = toml_nesting_problem(text)
    if too_deep:
        line, why = too_deep
        raise ModelFileError(why, location=Location(path, line=line))
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ModelFileError(f"not valid TOML: {exc}", location=Location(path)) from None
    except ValueError:  # an integer of more digits than Python converts (4,300)
        raise ModelFileError(
            "an integer of more than 4,300 digits (the most Python reads as a number)",
            location=Location(path),
        ) from None


@contextlib.contextmanager
def keys_located(text: str, data: Mapping[str, Any], path: str) -> Iterator[None]:
    """A :class:`ModelFileError` the block raises about a key of ``text`` (parsed as
    ``data``; ``path`` names it), ``path: key: why``, given that key's line: ``path:LINE:
    key: why``; unchanged where the line is not certain."""
    try:
        yield
    except ModelFileError as exc:
        key, why = _named_key(exc, path)
        line = None if key is None else key_line(text, data, key)
        if line is None:
            raise
        raise ModelFileError(why, location=Location(path, line=line, key=key)) from None


def _named_key(error: ModelFileError, path: str) -> tuple[str | None, str]:
    """The dotted key ``error`` names and what it says of it: from its location, or from the
    ``path: key: why`` a family's check writes into its message."""
    where = error.location
    if where is not None:
        usable = where.path == path and where.line is None and where.key
        return (where.key, error.message) if usable else (None, "")
    key, colon, why = error.message.removeprefix(f"{path}: ").partition(": ")
    if not error.message.startswith(f"{path}: ") or not colon or not _DOTTED.fullmatch(key):
        return None, ""
    return key, why


def key_line(text: str, data: Mapping[str, Any], key: str) -> int | None:
    """The line of TOML ``text`` (parsed as ``data``) where the dotted ``key`` is written:
    its ``[table]`` header, its ``key = value``, or the ``key = {inline table}`` holding it
    (all on one line); None where that is not certain: a key with a dot of its own on the
    way (``"a.b"``), one under an array of tables, a quoted key with an escape, a key not
    written (a default).

    >>> text = "[models.sort]\\nmodel = '2*x'\\ndomain = {x = [1, 9]}\\n[models]\\nb.model = 'x'\\n"
    >>> data = load_toml(text, "m.toml")
    >>> keys = ("models.sort", "models.sort.model", "models.sort.domain.x", "models.b.model", "models.sort.unit")
    >>> [key_line(text, data, key) for key in keys]
    [1, 2, 3, 5, None]
    """
    parts = key.split(".")
    node: Any = data
    for part in parts:  # each a key of the data, and no key on the way holds a dot
        if not isinstance(node, Mapping) or part not in node or any("." in k for k in node):
            return None
        node = node[part]
    wanted = tuple(parts)
    table: tuple[str, ...] | None = ()
    for line, statement, whole in _statements(text):
        header = _HEADER.fullmatch(statement)
        if header is not None or statement.startswith("["):  # [[array of tables]]: not read
            table = None if header is None else _key_path(header["key"])
            if table == wanted:
                return line
            continue
        pair = _PAIR.match(statement)
        written = None if pair is None or table is None else _key_path(pair["key"])
        if pair is None or table is None or written is None:
            continue
        written = table + written
        inline = whole and pair["value"].startswith("{") and wanted[: len(written)] == written
        if written == wanted or inline:
            return line
    return None


def _statements(text: str) -> Iterator[tuple[int, str, bool]]:
    """Each statement of ``text`` (not a comment): the line where it starts, that line
    stripped, and whether the statement ends on it (no array, inline table or string goes
    on to the next)."""
    depth, line, begun = 0, 1, None
    for token in TOML_TOKENS.finditer(text):
        piece = token[0]
        if piece == "\n":
            if begun is not None and depth == 0:
                yield begun[0], begun[1], begun[0] == line
                begun = None
            line += 1
            continue
        if begun is None and depth == 0 and piece.strip() and piece[0] != "#":
            end = text.find("\n", token.start())
            begun = line, text[token.start() : len(text) if end < 0 else end].strip()
        if piece in "[{":
            depth += 1
        elif piece in "]}":
            depth = max(depth - 1, 0)
        elif piece[0] in "\"'":
            line += piece.count("\n")
    if begun is not None:
        yield begun[0], begun[1], begun[0] == line


def _key_path(text: str) -> tuple[str, ...] | None:
    """A TOML key (``a.b``, ``"a b".c``) as its parts, or None for one this reading is not
    sure of (an escape in a quoted part)."""
    parts = [match[0] for match in _KEY_PART.finditer(text)]
    if any("\\" in part for part in parts):
        return None
    return tuple(part[1:-1] if part[0] in "\"'" else part for part in parts)


_PART = r"""(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')"""
_KEY = rf"[ \t]*{_PART}(?:[ \t]*\.[ \t]*{_PART})*[ \t]*"
_KEY_PART = re.compile(_PART)
_HEADER = re.compile(rf"\[(?P<key>{_KEY})\][ \t]*(?:#.*)?")
_PAIR = re.compile(rf"(?P<key>{_KEY})=[ \t]*(?P<value>.*)")
#: a key a family's check names in its message: models.NAME.KEY, machine.KEY
_DOTTED = re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+")
