"""Text to AST: the lark grammar in ``grammar/patternalg.lark``, loaded once, LALR.

>>> parse("pipe(a, b, c)") == parse("pipe(a, pipe(b, c))")
True
>>> parse_expression("1034.17 * x * log2(x) / n")
1034.17*x*log2(x)/n
>>> parse("tpool_0(qsort)")
Traceback (most recent call last):
...
patternalg.errors.ParseError: line 1, column 7: thread count of tpool_ must be a positive integer, got 0: tpool_^0(qsort)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import sympy
from lark import Lark, Token, Transformer_NonRecursive, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, VisitError

from .arith import build_call, build_number, canonical_function, check_finite
from .errors import ParseError
from .symbols import symbol
from .terms import Atom, MapReduce, Meta, Pipe, Seq, Shuffle, Term, TPool

__all__ = ["parse", "parse_expression", "parse_law_parts", "grammar_path", "MAX_NESTING"]

#: deepest nesting of brackets accepted in one text (terms nest; 10,000 is a fair design)
MAX_NESTING = 100_000
#: deepest nesting of an arithmetic expression (sympy's own algorithms recurse on it)
MAX_EXPR_DEPTH = 200
RESERVED_WORDS = frozenset({"seq", "pipe"})
RESERVED_PREFIXES = ("tpool_", "mapReduce_")


def grammar_path() -> Path:
    """The grammar file: inside the installed package, or in the source checkout."""
    shipped = resources.files("patternalg") / "grammar" / "patternalg.lark"
    if shipped.is_file():
        return Path(str(shipped))
    return Path(__file__).resolve().parent.parent / "grammar" / "patternalg.lark"


@functools.cache
def _parser() -> Lark:
    return Lark.open(
        str(grammar_path()),
        parser="lalr",
        start=["term", "expr", "law"],
        propagate_positions=True,
        maybe_placeholders=False,
        cache=True,
    )


def _excerpt(text: str, pos: int) -> str:
    """One line of ``text`` around ``pos`` with a caret before the offending character."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end
    lo, hi = max(start, pos - 40), min(end, pos + 40)
    before = ("..." if lo > start else "") + text[lo:pos]
    after = text[pos:hi] + ("..." if hi < end else "")
    return f"{before}^{after}".strip()


def _position(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, column


def _error_at(text: str, pos: int, message: str) -> ParseError:
    line, column = _position(text, pos)
    excerpt = _excerpt(text, pos)
    return ParseError(f"line {line}, column {column}: {message}: {excerpt}", line, column, excerpt)


_TOKEN_NAMES = {
    "NAME": "a name",
    "NUMBER": "a number",
    "TPOOL": "tpool_",
    "MAPREDUCE": "mapReduce_",
    "RELATION": "a relation (==, <=, >=, <, >)",
    "POW": "'^'",
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
            pattern = parser.get_terminal(name).pattern
        except KeyError:
            words.append(name)
            continue
        words.append(f"'{pattern.value}'" if pattern.type == "str" else name.lower())
    if len(words) > 6:
        return "a term or an expression"
    return " or ".join(words)


def _syntax_error(text: str, err: UnexpectedInput, start: str) -> ParseError:
    pos = getattr(err, "pos_in_stream", None)
    token = getattr(err, "token", None)
    at_end = token is not None and token.type == "$END"
    if isinstance(err, UnexpectedEOF) or pos is None or at_end:
        pos = len(text.rstrip())
        what = "the text ends too early"
    elif isinstance(err, UnexpectedCharacters):
        what = f"unexpected character {text[pos]!r}"
    else:
        what = f"unexpected {str(token)!r}"
    expected = set(getattr(err, "expected", None) or getattr(err, "allowed", None) or ())
    if start != "law":
        expected.discard("RELATION")
    if expected:
        what += f" (expected {_describe_expected(list(expected))})"
    return _error_at(text, pos, f"syntax error, {what}")


@dataclass(frozen=True)
class _Arith:
    """An arithmetic value under construction, with its nesting depth."""

    expr: sympy.Expr
    depth: int


class _Build(Transformer_NonRecursive):
    """Lark tree to AST, bottom-up, without recursion."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def fail(self, where: Any, message: str) -> ParseError:
        pos = getattr(where, "start_pos", None)
        if pos is None:
            pos = getattr(where, "start_pos", 0) or 0
        return _error_at(self.text, pos, message)

    # --- arithmetic -----------------------------------------------------------------
    def _combine(self, meta: Any, parts: Sequence[_Arith], expr: sympy.Expr) -> _Arith:
        depth = 1 + max((p.depth for p in parts), default=0)
        if depth > MAX_EXPR_DEPTH:
            raise self.fail(meta, f"expression nested deeper than {MAX_EXPR_DEPTH} levels")
        if not check_finite(expr):
            raise self.fail(meta, "division by zero (the expression is infinite or undefined)")
        return _Arith(expr, depth)

    def number(self, children: list[Token]) -> _Arith:
        token = children[0]
        try:
            return _Arith(build_number(str(token)), 1)
        except ValueError as exc:
            raise self.fail(token, str(exc)) from None

    def symbol(self, children: list[Token]) -> _Arith:
        token = children[0]
        if canonical_function(str(token)):
            raise self.fail(token, f"{token} is a function: write {token}(...)")
        return _Arith(symbol(str(token)), 1)

    @v_args(meta=True)
    def call(self, meta: Any, children: list[Any]) -> _Arith:
        name, args = children[0], children[1:]
        canonical = canonical_function(str(name))
        if canonical is None:
            raise self.fail(name, f"unknown function {name}() (valid: log2, log, sqrt, min, max)")
        if canonical in {"log2", "log", "sqrt"} and len(args) != 1:
            raise self.fail(name, f"{canonical}() takes one argument, got {len(args)}")
        return self._combine(meta, args, build_call(canonical, [a.expr for a in args]))

    def _binary(self, meta: Any, children: list[_Arith], op: str) -> _Arith:
        a, b = children[0], children[-1]
        if op == "/" and b.expr.is_zero:
            raise self.fail(meta, "division by zero")
        exprs = {
            "+": lambda: sympy.Add(a.expr, b.expr),
            "-": lambda: sympy.Add(a.expr, -b.expr),
            "*": lambda: sympy.Mul(a.expr, b.expr),
            "/": lambda: sympy.Mul(a.expr, sympy.Pow(b.expr, -1)),
            "^": lambda: sympy.Pow(a.expr, b.expr),
        }
        return self._combine(meta, [a, b], exprs[op]())

    @v_args(meta=True)
    def add(self, meta: Any, c: list[_Arith]) -> _Arith:
        return self._binary(meta, c, "+")

    @v_args(meta=True)
    def sub(self, meta: Any, c: list[_Arith]) -> _Arith:
        return self._binary(meta, c, "-")

    @v_args(meta=True)
    def mul(self, meta: Any, c: list[_Arith]) -> _Arith:
        return self._binary(meta, c, "*")

    @v_args(meta=True)
    def div(self, meta: Any, c: list[_Arith]) -> _Arith:
        return self._binary(meta, c, "/")

    @v_args(meta=True)
    def pow(self, meta: Any, c: list[Any]) -> _Arith:
        return self._binary(meta, [c[0], c[2]], "^")

    @v_args(meta=True)
    def neg(self, meta: Any, c: list[_Arith]) -> _Arith:
        return self._combine(meta, c, -c[0].expr)

    @v_args(meta=True)
    def pos(self, meta: Any, c: list[_Arith]) -> _Arith:
        return self._combine(meta, c, c[0].expr)

    @v_args(meta=True)
    def group(self, meta: Any, c: list[_Arith]) -> _Arith:
        return self._combine(meta, c, c[0].expr)

    # --- terms ----------------------------------------------------------------------
    def _positive_integer(self, where: Any, value: sympy.Expr, what: str) -> sympy.Expr:
        """Literal counts must be positive integers; symbolic ones stay symbolic."""
        if value.is_number:
            if not (value.is_integer and value.is_positive):
                shown = value if not value.is_Float else repr(float(value))
                raise self.fail(where, f"{what} must be a positive integer, got {shown}")
            return sympy.Integer(int(value))
        return value

    def _positive(self, where: Any, value: sympy.Expr, what: str) -> sympy.Expr:
        if value.is_number and not value.is_positive:
            raise self.fail(where, f"{what} must be positive, got {value}")
        return value

    @v_args(meta=True)
    def atom(self, meta: Any, children: list[Any]) -> Term:
        name = str(children[0])
        if name in RESERVED_WORDS:
            raise self.fail(children[0], f"{name} needs arguments: {name}(T, T, ...)")
        if name[0].isupper():
            if len(children) > 1:
                raise self.fail(children[0], f"metavariable {name} cannot carry annotations")
            return Meta(name)
        if len(children) == 1:
            return Atom(name)
        bindings: dict[str, sympy.Expr] = {}
        for key, value in children[1]:
            if key in bindings:
                raise self.fail(children[0], f"{key} is annotated twice on {name}")
            if key == "x":
                raise self.fail(children[0], "x is the input size and cannot be bound on one atom")
            bindings[key] = value
        return Atom(name, tuple(sorted(bindings.items())))

    def annotation(self, children: list[tuple[str, sympy.Expr]]) -> list[tuple[str, sympy.Expr]]:
        return children

    def binding(self, children: list[Any]) -> tuple[str, sympy.Expr]:
        return (str(children[0]), children[1].expr)

    def _chain(self, cls: type[Seq] | type[Pipe], children: list[Term]) -> Term:
        # n-ary forms are sugar for right-nested binary terms: pipe(a, b, c) = pipe(a, pipe(b, c))
        result = children[-1]
        for left in reversed(children[:-1]):
            result = cls(left, result)
        return result

    def seq(self, children: list[Term]) -> Term:
        return self._chain(Seq, children)

    def pipe(self, children: list[Term]) -> Term:
        return self._chain(Pipe, children)

    def count_number(self, children: list[Token]) -> tuple[Token, sympy.Expr]:
        token = children[0]
        return token, self._positive_integer(
            token, build_number(str(token)), "thread count of tpool_"
        )

    def count_symbol(self, children: list[Token]) -> tuple[Token, sympy.Expr]:
        token = children[0]
        if not token[0].islower():
            raise self.fail(token, f"thread count {token} must be a lowercase symbol or a number")
        return token, symbol(str(token))

    @v_args(meta=True)
    def count_expr(self, meta: Any, children: list[_Arith]) -> tuple[Any, sympy.Expr]:
        return meta, self._positive_integer(meta, children[0].expr, "thread count of tpool_")

    def tpool(self, children: list[Any]) -> Term:
        _, (_, count), body = children
        return TPool(count, body)

    @v_args(meta=True)
    def shuffle(self, meta: Any, children: list[Any]) -> Shuffle:
        name = str(children[0])
        if not name.endswith("_") or not name[0].islower():
            raise self.fail(children[0], "a shuffle is written name_{m,n}^{o}")
        m, n, o = (c.expr for c in children[1:])
        return Shuffle(
            name[:-1],
            self._positive_integer(meta, m, "node count m of the shuffle"),
            self._positive_integer(meta, n, "thread count n of the shuffle"),
            self._positive_integer(meta, o, "key count o of the shuffle"),
        )

    @v_args(meta=True)
    def mapreduce(self, meta: Any, children: list[Any]) -> Term:
        m, n, d, k = (c.expr for c in children[1:5])
        rest = children[5:]
        shuffle = rest[1] if len(rest) == 3 else None
        return MapReduce(
            self._positive_integer(meta, m, "node count m of mapReduce"),
            self._positive_integer(meta, n, "thread count n of mapReduce"),
            self._positive(meta, d, "elements per key d of mapReduce"),
            self._positive(meta, k, "key count k of mapReduce"),
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
        raise TypeError(f"expected text, got {type(text).__name__}")
    if not text.strip():
        raise ParseError(
            f"empty text: expected {'an expression' if start == 'expr' else 'a ' + start}"
        )
    _check_nesting(text)
    try:
        tree = _parser().parse(text, start=start)
    except UnexpectedInput as err:
        raise _syntax_error(text, err, start) from None
    try:
        return _Build(text).transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, ParseError):
            raise err.orig_exc from None
        raise


def parse(text: str) -> Term:
    """Parse a term.

    >>> str(parse("seq(qsort,   # sort first\\n    inc)"))
    'seq(qsort, inc)'
    """
    return _run(text, "term")


def parse_expression(text: str) -> sympy.Expr:
    """Parse an arithmetic expression of the safe sub-language (never ``sympify``).

    >>> parse_expression("(m*n - 1)/(m*n) * 12288 * x")
    12288*x*(m*n - 1)/(m*n)
    """
    result = _run(text, "expr")
    return result.expr if isinstance(result, _Arith) else result


def parse_law_parts(text: str) -> tuple[Term, str, Term]:
    """Parse a law ``LHS REL RHS`` into its two terms and the relation.

    >>> parse_law_parts("pipe(A, B) == pipe(B, A)")
    (parse('pipe(A, B)'), '==', parse('pipe(B, A)'))
    """
    return _run(text, "law")
