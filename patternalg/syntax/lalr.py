"""Run the LALR(1) tables lark computed ahead of time, without importing lark.

``patternalg/grammar_tables.py`` holds lark's serialized parser for the grammar (its
terminals, rules and parse table). This module is the small part of lark needed to run
them, with lark's semantics: the basic lexer (terminals tried by priority, then longest
pattern; a keyword that a name pattern also matches becomes the keyword's terminal), the
LALR loop, and the tree-builder rules of an embedded transformer (anonymous tokens
dropped, ``_rule`` children spliced, ``?rule`` with one child passed through, each rule's
result made by the transformer method of its alias or name). Importing lark and building
its scanner cost a fifth of the command line's start-up; this costs nothing at import.

>>> from patternalg.syntax import grammar_tables as t
>>> class Echo:
...     def seq(self, children):
...         return ("seq", *children)
>>> Parser(t.DATA, t.MEMO, Echo()).parse("seq(a, b)  # two", "term")
('seq', Tree(data='atom', children=['a']), Tree(data='atom', children=['b']))
>>> Parser(t.DATA, t.MEMO, Echo()).parse("seq(a b)", "term")
Traceback (most recent call last):
...
patternalg.syntax.lalr.UnexpectedToken: unexpected NAME 'b' at 6 (expected $END, COMMA, LSQB, RELATION, RPAR)
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

__all__ = ["Parser", "Token", "Tree", "UnexpectedInput", "UnexpectedCharacters", "UnexpectedToken"]

_SHIFT = 0  # lark's serialized action codes: 0 shift to a state, 1 reduce by a rule


class Token(str):
    """A token: its text (the str), its terminal's name and its offset in the text."""

    __slots__ = ("type", "start_pos")
    type: str
    start_pos: int

    def __new__(cls, type_: str, value: str, start_pos: int) -> Token:
        token = super().__new__(cls, value)
        token.type = type_
        token.start_pos = start_pos
        return token


class Tree(NamedTuple):
    """What a rule without a transformer method gives: its name and its children."""

    data: str
    children: list[Any]


class UnexpectedInput(Exception):
    """The text does not follow the grammar at offset ``pos_in_stream``."""

    pos_in_stream: int


class UnexpectedCharacters(UnexpectedInput):
    """No terminal matches at ``pos_in_stream``; ``allowed``: the terminals there are."""

    def __init__(self, pos: int, allowed: set[str]) -> None:
        super().__init__(f"no terminal matches at {pos}")
        self.pos_in_stream, self.allowed = pos, allowed


class UnexpectedToken(UnexpectedInput):
    """``token`` cannot come here; ``expected``: the terminals that could."""

    def __init__(self, token: Token, expected: set[str]) -> None:
        super().__init__(
            f"unexpected {token.type} {str(token)!r} at {token.start_pos}"
            f" (expected {', '.join(sorted(expected))})"
        )
        self.token, self.expected, self.pos_in_stream = token, expected, token.start_pos


class _Rule(NamedTuple):
    origin: str
    size: int
    build: Callable[[list[Any]], Any]


def _pattern(terminal: Mapping[str, Any]) -> tuple[str, int]:
    """A terminal's regular expression and the most characters it can match (lark's)."""
    pattern = terminal["pattern"]
    value = pattern["value"]
    is_string = pattern["__type__"] == "PatternStr"
    regexp = re.escape(value) if is_string else value
    for flag in pattern["flags"]:
        regexp = f"(?{flag}:{regexp})"
    return regexp, len(value) if is_string else pattern["_width"][1]


def _scanner(terminals: list[Mapping[str, Any]]) -> re.Pattern[str]:
    """One alternation of the terminals, tried in lark's order."""
    ordered = sorted(
        terminals,
        key=lambda t: (-t["priority"], -_pattern(t)[1], -len(t["pattern"]["value"]), t["name"]),
    )
    return re.compile("|".join(f"(?P<{t['name']}>{_pattern(t)[0]})" for t in ordered))


def _is_terminal(symbol: Mapping[str, Any]) -> bool:
    return bool(symbol["__type__"] == "Terminal")


def _rule_builder(rule: Mapping[str, Any], transformer: object) -> Callable[[list[Any]], Any]:
    """lark's tree builder for one rule under an embedded transformer."""
    keep = [
        (i, not _is_terminal(symbol) and symbol["name"].startswith("_"))
        for i, symbol in enumerate(rule["expansion"])
        if not (_is_terminal(symbol) and symbol["filter_out"])
    ]
    name = rule["alias"] or rule["origin"]["name"]
    method = getattr(transformer, name, None) if not name.startswith("_") else None
    single = rule["options"]["expand1"] and not rule["alias"]

    def build(children: list[Any]) -> Any:
        kept: list[Any] = []
        for i, splice in keep:
            if not splice:
                kept.append(children[i])
            elif kept:
                kept += children[i].children
            else:  # a left-recursive list grows in place, not copied at every item
                kept = children[i].children
        if single and len(kept) == 1:
            return kept[0]
        return method(kept) if method is not None else Tree(name, kept)

    return build


class Parser:
    """lark's serialized LALR parser (``data``, ``memo``) run with ``transformer``'s methods."""

    def __init__(self, data: Mapping[str, Any], memo: Mapping[int, Any], transformer: object) -> None:
        frontend = data["parser"]
        lexer = frontend["lexer_conf"]
        terminals = [memo[ref["@"]] for ref in lexer["terminals"]]
        self.terminals = {t["name"]: t["pattern"] for t in terminals}
        self._ignore = frozenset(lexer["ignore"])
        # a keyword that a pattern of the same priority matches whole is lexed by that
        # pattern and renamed after (lark's "unless" callbacks): seq, pipe by NAME
        self._keywords: dict[str, re.Pattern[str]] = {}
        embedded = set()
        strings = [t for t in terminals if t["pattern"]["__type__"] == "PatternStr"]
        for pattern in (t for t in terminals if t["pattern"]["__type__"] == "PatternRE"):
            words = []
            for word in (t for t in strings if t["priority"] == pattern["priority"]):
                found = re.match(_pattern(pattern)[0], word["pattern"]["value"])
                if found and found.group() == word["pattern"]["value"]:
                    words.append(word)
                    if set(word["pattern"]["flags"]) <= set(pattern["pattern"]["flags"]):
                        embedded.add(word["name"])
            if words:
                self._keywords[pattern["name"]] = _scanner(words)
        scanned = [t for t in terminals if t["name"] not in embedded]
        self._scan = _scanner(scanned)
        self._allowed = {t["name"] for t in scanned} - self._ignore
        table = frontend["parser"]
        names = table["tokens"]
        rules = {ref: memo[ref] for ref in memo if memo[ref]["__type__"] == "Rule"}
        built = {
            ref: _Rule(rule["origin"]["name"], len(rule["expansion"]), _rule_builder(rule, transformer))
            for ref, rule in rules.items()
        }
        self._states = {
            state: {
                names[key]: (action, arg if action == _SHIFT else built[arg["@"]])
                for key, (action, arg) in actions.items()
            }
            for state, actions in table["states"].items()
        }
        self._starts, self._ends = table["start_states"], table["end_states"]

    def _tokens(self, text: str) -> Any:
        pos, end, scan, ignore = 0, len(text), self._scan.match, self._ignore
        while pos < end:
            found = scan(text, pos)
            if found is None:
                raise UnexpectedCharacters(pos, set(self._allowed))
            kind, value = found.lastgroup or "", found.group()
            if kind not in ignore:
                keyword = self._keywords.get(kind)
                word = keyword.fullmatch(value) if keyword is not None else None
                yield Token(word.lastgroup or kind if word else kind, value, pos)
            pos = found.end()

    def parse(self, text: str, start: str) -> Any:
        """The transformer's value of ``text`` from the start symbol ``start``."""
        states, end_state = self._states, self._ends[start]
        state_stack, values = [self._starts[start]], []
        last = 0
        for token in itertools.chain(self._tokens(text), [None]):
            if token is None:  # lark's end token borrows the last token's position
                token = Token("$END", "", last)
            last = token.start_pos
            while True:
                actions = states[state_stack[-1]]
                if token.type not in actions:
                    raise UnexpectedToken(token, {s for s in actions if s.isupper()})
                action, arg = actions[token.type]
                if action == _SHIFT:
                    state_stack.append(arg)
                    values.append(token)
                    break
                if arg.size:
                    children = values[-arg.size :]
                    del state_stack[-arg.size :], values[-arg.size :]
                else:
                    children = []
                values.append(arg.build(children))
                state_stack.append(states[state_stack[-1]][arg.origin][1])
                if token.type == "$END" and state_stack[-1] == end_state:
                    return values[-1]
        raise AssertionError("the tables accepted no end")  # pragma: no cover
