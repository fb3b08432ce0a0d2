"""Text to AST: the lark grammar in ``grammar/patternalg.lark``, loaded once, LALR.

>>> parse("pipe(a, b, c)") == parse("pipe(a, pipe(b, c))")
True
>>> parse_arithmetic("1034.17 * x * log2(x) / n")
1034.17*x*log2(x)/n
>>> parse("tpool_0(qsort)")
Traceback (most recent call last):
...
patternalg.errors.ParseError: line 1, column 7: thread count of tpool_ must be a positive integer, got 0: tpool_^0(qsort)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sympy

from .._internal.expression_limits import expansion_problem, power_problem, size_problem
from .._internal.generated import checksum
from .._internal.limits import MAX_NAME, MAX_SHOWN, printable
from ..errors import ArgumentError, ParseError, close_names, did_you_mean
from .arith import (
    build_call,
    build_number,
    canonical_function,
    check_finite_node,
    format_expr,
    whole_number,
)
from .lalr import Parser, Token, UnexpectedCharacters, UnexpectedInput
from .symbols import symbol
from .terms import (
    RESERVED_WORDS,
    Atom,
    MapReduce,
    Meta,
    Pipe,
    Seq,
    Shuffle,
    Term,
    TPool,
    count_problem,
)

__all__ = [
    "parse", "parse_arithmetic", "parse_law_parts", "grammar_path", "is_symbol_name", "SYMBOL_RULE",
    "MAX_NESTING",
]

#: deepest nesting of brackets accepted in one text (terms nest; 10,000 is a fair design)
MAX_NESTING = 100_000
#: deepest nesting of an arithmetic expression (sympy's own algorithms recurse on it)
MAX_EXPR_DEPTH = 200
#: names that read as non-finite numbers: never symbols (``--at x=nan``)
NOT_SYMBOLS = frozenset({"nan", "inf", "infinity", "oo", "zoo"})


def grammar_path() -> Path:
    """The grammar file: inside the installed package, or in the source checkout."""
    package = Path(__file__).resolve().parent.parent
    shipped = package / "grammar" / "patternalg.lark"
    return shipped if shipped.is_file() else package.parent / "grammar" / "patternalg.lark"


#: How the grammar is compiled (one place: the parser, the cold-start benchmark, the tests).
#: No ``cache``: lark's ``cache=True`` unpickles a predictably named file in the shared temp
#: directory, which any local user can plant. The LALR tables are computed ahead of time
#: instead, into ``patternalg/syntax/grammar_tables.py`` by ``patternalg.library.build``
#: (plain Python literals, no pickle, inside the package; ``tests/test_generated.py`` checks it
#: is what the grammar gives): computing them at start-up cost about 0.07 s of CPU
#: (benchmarks/bench_parser_cold_start.py) and needed lark.
PARSER_OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "start": ["term", "expr", "law"],
    "lexer": "basic",
    "maybe_placeholders": False,
}


@functools.cache
def _parser() -> Parser:
    """The parser of the shipped tables. Tables made from another grammar (after an edit of
    ``grammar/patternalg.lark``, before they are regenerated) are refused: computing them
    needs lark, a build-time tool the runtime does without."""
    from . import grammar_tables as tables

    if tables.SOURCE_CRC32 != checksum(grammar_path().read_bytes()):
        raise RuntimeError(
            "patternalg/syntax/grammar_tables.py was made from another grammar/patternalg.lark: "
            "run `python -m patternalg.library.build` (it needs lark)"
        )
    return Parser(tables.DATA, tables.MEMO, _Build())


def _excerpt(text: str, pos: int) -> str:
    """One line of ``text`` around ``pos`` with a caret before the offending character."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end
    lo, hi = max(start, pos - MAX_SHOWN // 2), min(end, pos + MAX_SHOWN // 2)
    before = ("…" if lo > start else "") + printable(text[lo:pos], MAX_SHOWN)
    after = printable(text[pos:hi], MAX_SHOWN) + ("…" if hi < end else "")
    return f"{before}^{after}".strip()


def _name(token: Token) -> str:
    """The text of a NAME token, at most :data:`~patternalg._internal.limits.MAX_NAME` characters (a
    symbol ending in thousands of digits broke sympy's ordering of symbols)."""
    name = str(token)
    if len(name) > MAX_NAME:
        raise _Problem(
            _pos(token), f"name '{printable(name)}' has {len(name)} characters (limit: {MAX_NAME})"
        )
    return name


def _position(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, column


def _error_at(text: str, pos: int, message: str) -> ParseError:
    line, column = _position(text, pos)
    excerpt = _excerpt(text, pos)
    return ParseError(message, line, column, excerpt)


_TOKEN_NAMES = {
    "NAME": "a name",
    "DOTTED": "a name",
    "NUMBER": "a number",
    "TPOOL": "tpool_",
    "MAPREDUCE": "mapReduce_",
    "RELATION": "a relation (==, <=, >=, <, >)",
    "$END": "the end of the text",
}


def _describe_expected(names: Sequence[str]) -> str:
    parser = _parser()
    words = []
    for name in sorted(set(names)):
        if name in _TOKEN_NAMES:
            words.append(_TOKEN_NAMES[name])
            continue
        try:
            pattern = parser.terminals[name]
        except KeyError:
            words.append(name)
            continue
        is_string = pattern["__type__"] == "PatternStr"
        words.append(f"'{pattern['value']}'" if is_string else name.lower())
    words = list(dict.fromkeys(words))  # two tokens may read alike ("a name")
    if len(words) > 6:
        return "a term or an expression"
    return " or ".join(words)


def _syntax_error(text: str, err: UnexpectedInput, start: str) -> ParseError:
    pos = getattr(err, "pos_in_stream", None)
    token = getattr(err, "token", None)
    at_end = token is not None and token.type == "$END"
    if pos is None or at_end:
        pos = len(text.rstrip())
        what = "the text ends too early"
    elif isinstance(err, UnexpectedCharacters):
        what = f"unexpected character {text[pos]!r}"
    else:
        what = f"unexpected {str(token)!r}"
    expected = set(getattr(err, "expected", None) or getattr(err, "allowed", None) or ())
    if start != "law":
        expected.discard("RELATION")
    count = _count_problem(text, pos)
    if count:
        return _error_at(text, pos, f"syntax error, {count}")
    hint = _pattern_hint(text, pos)
    if hint:
        what += did_you_mean([hint], before="; ")
    elif start == "term" and _after_a_whole_term(text, pos):
        first, rest = text[:pos].strip(), text[pos + 1 :].strip()
        example = f" ('{first}' '{rest}')" if len(first) + len(rest) <= 80 else ""
        what += f" after a whole term: one term per argument{example}"
    elif expected:
        what += f" (expected {_describe_expected(list(expected))})"
    return _error_at(text, pos, f"syntax error, {what}")


def _after_a_whole_term(text: str, pos: int) -> bool:
    """Whether ``text`` is a term up to ``pos``, where a separator (``;`` or ``,``) starts
    another: several designs written as one argument.

    >>> _after_a_whole_term("pipe(qsort, inc);seq(qsort, inc)", 16), _after_a_whole_term("pipe(a;b)", 6)
    (True, False)
    """
    if pos >= len(text) or text[pos] not in ";," or not text[pos + 1 :].strip():
        return False
    try:
        _parser().parse(text[:pos], start="term")
    except (UnexpectedInput, RecursionError, _Problem):  # not a term there: the error stands
        return False
    return True


_PATTERNS = {"seq": "seq(T, T, ...)", "pipe": "pipe(T, T, ...)", "tpool": "tpool_n(T)",
             "mapreduce": "mapReduce_{m,n}^{d,k}(map, reduce)"}
_SYNONYMS = {"pipeline": "pipe", "sequence": "seq", "threadpool": "tpool", "farm": "tpool"}


def _count_problem(text: str, pos: int) -> str | None:
    """What is wrong with a sign right after ``tpool_`` (``tpool_-2``): a count is a positive
    integer (a literal, a symbol or an expression in braces).

    >>> _count_problem("tpool_-2(qsort)", 6)
    'a thread count must be a positive integer (as in tpool_4, tpool_n or tpool_{2*k})'
    >>> _count_problem("tpool_4(qsort)", 7) is None
    True
    """
    if pos >= len(text) or text[pos] not in "-+" or not re.search(r"\btpool_\s*$", text[:pos]):
        return None
    return "a thread count must be a positive integer (as in tpool_4, tpool_n or tpool_{2*k})"


def _pattern_hint(text: str, pos: int) -> str | None:
    """A did-you-mean for a name used as a pattern before ``(`` (``Pipe(``, ``tpool4(``).

    >>> _pattern_hint("tpool4(qsort)", 6), _pattern_hint("Pipe(a, b)", 4)
    ('tpool_4(T)', 'pipe(T, T, ...)')
    """
    if pos >= len(text) or text[pos] != "(":
        return None
    found = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*$", text[:pos])
    if not found:
        return None
    word = found.group(1).lower().replace("_", "")
    count = re.fullmatch(r"tpool(\d+)", word)
    if count:
        return f"tpool_{count.group(1)}(T)"
    word = _SYNONYMS.get(word, word)
    close = close_names(word, _PATTERNS, cutoff=0.75)
    return _PATTERNS[close[0]] if close else None


@dataclass(frozen=True)
class _Arith:
    """An arithmetic value under construction: its expression, nesting depth and position."""

    expr: sympy.Expr
    depth: int
    pos: int


class _Problem(Exception):
    """A semantic error found while building the AST, at an offset of the text."""

    def __init__(self, pos: int, message: str) -> None:
        super().__init__(message)
        self.pos = pos
        self.message = message


def _pos(item: Any) -> int:
    start = getattr(item, "start_pos", None)  # a token's (ours or, in the tests, lark's)
    return start if start is not None else getattr(item, "pos", 0)


def _not_real(expr: sympy.Expr) -> bool:
    """Whether a power or function of real parts left the reals: sympy then puts ``I`` or a
    negative number's root (``(-1)**(1/3)``) at the top of what it returns (``I*sqrt(x)``,
    ``(1.0*I)*x**0.5``, ``I*pi``), two levels deep at most; read there, not by sympy's
    assumptions (which load sympy's sets: eval's start-up)."""
    near = [expr, *expr.args, *(b for a in expr.args for b in a.args)]
    return any(
        e is sympy.I or (e.is_Pow and e.base.is_Number and e.base.is_negative and not e.exp.is_Integer)
        for e in near
    )


class _Build:
    """Builds the AST while the LALR parser reduces (lark's embedded transformer): no parse
    tree is built and nothing recurses on depth."""

    # --- arithmetic -----------------------------------------------------------------
    def _real(self, pos: int, parts: Sequence[_Arith], expr: sympy.Expr) -> _Arith:
        """:meth:`_combine` of a power or a function, the one kind of node whose value may
        leave the real numbers (a root or a log of a negative number): refused where it is
        written (sympy's I is no symbol the grammar reads back, and no time is complex)."""
        found = self._combine(pos, parts, expr)
        if _not_real(expr):
            raise _Problem(pos, f"{format_expr(expr)} is not a real number (a root or a log of a negative number)")
        return found

    def _combine(self, pos: int, parts: Sequence[_Arith], expr: sympy.Expr) -> _Arith:
        # the depth of the expression sympy holds: a part that sympy flattened into the new
        # node (x + x + ... + x is one Add, however long) adds no level
        flat = expr.func if expr.func in (sympy.Add, sympy.Mul) else None
        depth = max((p.depth + (p.expr.func is not flat) for p in parts), default=1)
        if depth > MAX_EXPR_DEPTH:
            raise _Problem(pos, f"expression nested deeper than {MAX_EXPR_DEPTH} levels")
        if not check_finite_node(expr):
            raise _Problem(pos, "division by zero (the expression is infinite or undefined)")
        too_large = size_problem(expr)
        if too_large:
            raise _Problem(pos, too_large)
        return _Arith(expr, depth, pos)

    def number(self, children: list[Token]) -> _Arith:
        token = children[0]
        try:
            return _Arith(build_number(str(token)), 1, _pos(token))
        except ValueError as exc:
            raise _Problem(_pos(token), str(exc)) from None

    def symbol(self, children: list[Token]) -> _Arith:
        token = children[0]
        if canonical_function(str(token)):
            raise _Problem(_pos(token), f"{token} is a function: write {token}(...)")
        if str(token).lower() in NOT_SYMBOLS:
            raise _Problem(_pos(token), f"{token} is not a finite number and cannot be a symbol")
        return _Arith(symbol(_name(token)), 1, _pos(token))

    def call(self, children: list[Any]) -> _Arith:
        name, args = children[0], children[1:]
        canonical = canonical_function(str(name))
        if canonical is None:
            raise _Problem(
                _pos(name), f"unknown function {name}() (valid: log2, log, sqrt, min, max)"
            )
        if canonical in {"log2", "log", "sqrt"} and len(args) != 1:
            raise _Problem(_pos(name), f"{canonical}() takes one argument, got {len(args)}")
        return self._real(_pos(name), args, build_call(canonical, [a.expr for a in args]))

    def _binary(self, a: _Arith, b: _Arith, op: str) -> _Arith:
        if op == "/" and b.expr.is_zero:
            raise _Problem(a.pos, "division by zero")
        if op == "+":
            expr = sympy.Add(a.expr, b.expr)
        elif op == "-":
            expr = sympy.Add(a.expr, -b.expr)
        elif op == "*":
            expr = sympy.Mul(a.expr, b.expr)
        elif op == "/":
            expr = sympy.Mul(a.expr, sympy.Pow(b.expr, -1))
        else:
            too_large = power_problem(a.expr, b.expr)
            if too_large:
                raise _Problem(b.pos, too_large)
            return self._real(a.pos, [a, b], sympy.Pow(a.expr, b.expr))
        return self._combine(a.pos, [a, b], expr)

    def add(self, c: list[_Arith]) -> _Arith:
        return self._binary(c[0], c[1], "+")

    def sub(self, c: list[_Arith]) -> _Arith:
        return self._binary(c[0], c[1], "-")

    def mul(self, c: list[_Arith]) -> _Arith:
        return self._binary(c[0], c[1], "*")

    def div(self, c: list[_Arith]) -> _Arith:
        return self._binary(c[0], c[1], "/")

    def pow(self, c: list[Any]) -> _Arith:
        return self._binary(c[0], c[1], "^")

    # a sign is kept (the grammar's ``!?unary``): a signed value is where its sign is
    def neg(self, c: list[Any]) -> _Arith:
        sign, value = c
        return self._combine(_pos(sign), [value], -value.expr)

    def pos(self, c: list[Any]) -> _Arith:
        sign, value = c
        return self._combine(_pos(sign), [value], value.expr)

    def group(self, c: list[_Arith]) -> _Arith:
        return self._combine(c[0].pos, c, c[0].expr)

    # --- terms ----------------------------------------------------------------------
    @staticmethod
    def _expandable(pos: int, value: sympy.Expr) -> None:
        """A term keeps its parameters expanded (:func:`~patternalg.syntax.terms.canonical`):
        one whose expansion is too large is an error here, where it was written."""
        too_large = expansion_problem(value)
        if too_large:
            raise _Problem(pos, too_large)

    @staticmethod
    def _positive_integer(pos: int, value: sympy.Expr, what: str) -> sympy.Expr:
        """Literal counts must be positive integers; symbolic ones stay symbolic."""
        _Build._expandable(pos, value)
        value = whole_number(value)
        problem = count_problem(value)
        if problem and value.is_number:
            raise _Problem(pos, f"{what} must be a positive integer, got {format_expr(value)}")
        if problem:  # tpool_{-n}, tpool_{1-n}
            raise _Problem(pos, f"{what} must be a positive integer, but {format_expr(value)} is {problem}")
        return sympy.Integer(int(value)) if value.is_number else value

    @staticmethod
    def _positive(pos: int, value: sympy.Expr, what: str) -> sympy.Expr:
        _Build._expandable(pos, value)
        if count_problem(value, whole=False):  # a number, or every symbol positive: -x, -n
            raise _Problem(pos, f"{what} must be positive, got {format_expr(value)}")
        return value

    def atom(self, children: list[Any]) -> Term:
        token = children[0]
        name = _name(token)
        if name in RESERVED_WORDS:
            raise _Problem(_pos(token), f"{name} needs arguments: {name}(T, T, ...)")
        if name[0].isupper():
            if len(children) > 1:
                raise _Problem(_pos(token), f"metavariable {name} cannot carry annotations")
            return Meta(name)
        if len(children) == 1:
            return Atom(name)
        bindings: dict[str, sympy.Expr] = {}
        for key, value in children[1]:
            if key in bindings:
                raise _Problem(_pos(token), f"{key} is annotated twice on {name}")
            if key == "x":
                raise _Problem(_pos(token), "x is the input size and cannot be bound on one atom")
            bindings[key] = value
        return Atom(name, tuple(sorted(bindings.items())))

    def annotation(self, children: list[tuple[str, sympy.Expr]]) -> list[tuple[str, sympy.Expr]]:
        return children

    def binding(self, children: list[Any]) -> tuple[str, sympy.Expr]:
        name, value = _name(children[0]), children[1]
        return (name, self._positive(value.pos, value.expr, name))

    @staticmethod
    def _chain(cls: type[Seq] | type[Pipe], children: list[Term]) -> Term:
        # n-ary forms are sugar for right-nested binary terms: pipe(a, b, c) = pipe(a, pipe(b, c))
        result = children[-1]
        for left in reversed(children[:-1]):
            result = cls(left, result)
        return result

    def seq(self, children: list[Term]) -> Term:
        return self._chain(Seq, children)

    def pipe(self, children: list[Term]) -> Term:
        return self._chain(Pipe, children)

    def count_number(self, children: list[Token]) -> sympy.Expr:
        value = self.number(children).expr
        return self._positive_integer(_pos(children[0]), value, "thread count of tpool_")

    def count_symbol(self, children: list[Token]) -> sympy.Expr:
        token = children[0]
        if not token[0].islower():
            raise _Problem(
                _pos(token), f"thread count {token} must be a lowercase symbol or a number"
            )
        return symbol(_name(token))

    def count_expr(self, children: list[_Arith]) -> sympy.Expr:
        arith = children[0]
        return self._positive_integer(arith.pos, arith.expr, "thread count of tpool_")

    def tpool(self, children: list[Any]) -> Term:
        _, count, body = children
        return TPool(count, body)

    def shuffle(self, children: list[Any]) -> Shuffle:
        token = children[0]
        name, where = str(token), _pos(token)
        if not name.endswith("_") or not name[0].islower():
            raise _Problem(where, "a shuffle is written name_{m,n}^{o}")
        m, n, o = (c.expr for c in children[1:])
        return Shuffle(
            name[:-1],
            self._positive_integer(where, m, "node count m of the shuffle"),
            self._positive_integer(where, n, "thread count n of the shuffle"),
            self._positive_integer(where, o, "key count o of the shuffle"),
        )

    def mapreduce(self, children: list[Any]) -> Term:
        where = _pos(children[0])
        m, n, d, k = (c.expr for c in children[1:5])
        rest = children[5:]
        shuffle = rest[1] if len(rest) == 3 else None
        return MapReduce(
            self._positive_integer(where, m, "node count m of mapReduce"),
            self._positive_integer(where, n, "thread count n of mapReduce"),
            self._positive(where, d, "elements per key d of mapReduce"),
            self._positive(where, k, "key count k of mapReduce"),
            rest[0],
            shuffle,
            rest[-1],
        )

    def law(self, children: list[Any]) -> tuple[Term, str, Term]:
        return children[0], str(children[1]), children[2]


def _check_nesting(text: str) -> None:
    if text.count("(") + text.count("{") + text.count("[") <= MAX_NESTING:
        return
    depth = 0
    for pos, char in enumerate(text):
        if char in "({[":
            depth += 1
            if depth > MAX_NESTING:
                raise _error_at(text, pos, f"nesting deeper than {MAX_NESTING} levels")
        elif char in ")}]":
            depth -= 1


def _run(text: str, start: str) -> Any:
    if not isinstance(text, str):
        what = {"term": "a term's text", "expr": "an expression's text", "law": "a law's text"}.get(start, "text")
        raise ArgumentError.wanted("text", what, text)
    if not text.strip():
        raise ParseError(
            f"empty text: expected {'an expression' if start == 'expr' else 'a ' + start}"
        )
    _check_nesting(text)
    try:
        return _parser().parse(text, start=start)
    except UnexpectedInput as err:
        raise _syntax_error(text, err, start) from None
    except _Problem as problem:
        raise _error_at(text, problem.pos, problem.message) from None


def parse(text: str) -> Term:
    """Parse a term.

    >>> str(parse("seq(qsort,   # sort first\\n    inc)"))
    'seq(qsort, inc)'
    """
    return _run(text, "term")


def parse_arithmetic(text: str) -> sympy.Expr:
    """Parse an arithmetic expression of the safe sub-language (no sympy string parsing, no Python eval).

    >>> parse_arithmetic("(m*n - 1)/(m*n) * 12288 * x")
    12288*x*(m*n - 1)/(m*n)
    """
    result = _run(text, "expr")
    return result.expr if isinstance(result, _Arith) else result


def is_symbol_name(text: object) -> bool:
    """Whether ``text`` can be a symbol of a model (a parameter's name in a model file, in
    ``--at``, in a term's counts): the grammar's arithmetic reads it back as that symbol.

    Not a function (``log``, ``Max``), a pattern's word or prefix (``seq``, ``tpool_n``), a
    name of a non-finite number (``oo``, ``NaN``), nor anything but one name:

    >>> [is_symbol_name(t) for t in ("p", "problem_size", "log", "Max", "tpool_n", "NaN", "n ranks")]
    [True, True, False, False, False, False, False]
    """
    if not isinstance(text, str) or not _SYMBOL_TEXT.fullmatch(text):
        return False
    try:
        return bool(parse_arithmetic(text) == symbol(text))
    except ParseError:
        return False


_SYMBOL_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
#: :func:`is_symbol_name`'s rule, as an error message says it
SYMBOL_RULE = (
    "a letter, then letters, digits or _; not a function (log, Max), a pattern's word or "
    "prefix (seq, pipe, tpool_), nor a number's name (oo, nan, inf)"
)


def parse_law_parts(text: str) -> tuple[Term, str, Term]:
    """Parse a law ``LHS REL RHS`` into its two terms and the relation.

    >>> parse_law_parts("pipe(A, B) == pipe(B, A)")
    (parse('pipe(A, B)'), '==', parse('pipe(B, A)'))
    """
    return _run(text, "law")

