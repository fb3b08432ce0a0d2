"""Binding symbols to values (``--at n=4``), with the checks a thread count needs.

>>> from patternalg.syntax.parser import parse
>>> term = parse("tpool_n(qsort)")
>>> check_bindings(term, {"x", "n"}, {"n": parse_value("4")})
>>> check_bindings(term, {"x", "n"}, {"n": parse_value("0")})
Traceback (most recent call last):
...
patternalg.errors.EvaluationError: n = 0 makes the thread count of tpool_n(...) 0; it must be a positive integer
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import sympy

from .._internal.expression_limits import size_problem
from .._internal.limits import MAX_INTEGER_DIGITS, held_in_full, printable
from .._internal.surface import at_text, on_command_line
from ..errors import EvaluationError, ParseError
from ..syntax.arith import check_finite, format_expr, number_text, whole_number
from ..syntax.parser import parse_arithmetic
from ..syntax.symbols import symbol
from ..syntax.terms import Atom, MapReduce, Term, TPool, count_problem, format_count

__all__ = [
    "collect_bindings",
    "decided_number",
    "parse_binding",
    "parse_value",
    "as_value",
    "check_bindings",
    "check_made",
    "counts",
    "sizes",
    "float_value",
    "float_at",
    "held_by_double",
    "bounded_xreplace",
    "substitute",
]


def held_by_double(value: float, exact: Callable[[], sympy.Expr]) -> bool:
    """Whether ``value``, computed in doubles, is the value: finite, and not read as 0 (or as
    a subnormal of few digits) where the ``exact`` one, asked only then, is not 0.

    >>> held_by_double(2.0, lambda: sympy.Integer(2)), held_by_double(0.0, lambda: sympy.Integer(0))
    (True, True)
    >>> held_by_double(0.0, lambda: sympy.Float("1e-1000")), held_by_double(math.inf, lambda: sympy.Integer(1))
    (False, False)
    """
    if held_in_full(value):
        return True
    return math.isfinite(value) and not exact().is_nonzero


def parse_value(text: str) -> sympy.Expr:
    """A value for a symbol: any expression of the safe arithmetic (``1024``, ``2^20``); a
    number that is an integer is that integer, however written (``16.0`` is ``16``, a thread
    count like any other).

    >>> parse_value("16.0"), parse_value("2.5")
    (16, 2.50000000000000)
    """
    return whole_number(parse_arithmetic(text))


def as_value(value: float | int | str | sympy.Expr, name: str | None = None) -> sympy.Expr:
    """A Python number, a sympy expression or a text of the safe arithmetic, as an expression
    (the value of the symbol ``name``, which an error names).

    >>> as_value(4), as_value(2.5), as_value("2^10"), as_value(16.0)
    (4, 2.50000000000000, 1024, 16)
    >>> import numpy as np
    >>> as_value(np.int64(2)), as_value(np.float32(0.5))
    (2, 0.500000000000000)
    >>> as_value(np.arange(1, 4), "x")
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: x: expected one number or an expression, got ndarray of 3 values; a point binds one value a symbol: sweep(..., over='x=1,2,3') evaluates at many
    >>> as_value(np.logspace(3, 6, 20), "x")
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: x: expected one number or an expression, got ndarray of 20 values; a point binds one value a symbol: sweep(..., over='x=1000..1000000:20:log') evaluates at many
    """
    if isinstance(value, bool):
        raise EvaluationError(f"expected a number, got {value!r}")
    if not isinstance(value, int | float | sympy.Basic):  # numpy's numbers
        if isinstance(value, numbers.Integral):
            value = int(value)
        elif isinstance(value, numbers.Real):
            value = float(value)
    if isinstance(value, int | sympy.Basic):  # from Python, where the parser's limits do not reach
        exact = sympy.Integer(value) if isinstance(value, int) else value
        problem = size_problem(exact)
        if problem:
            raise EvaluationError(problem)
        return whole_number(exact)
    if isinstance(value, float):
        return whole_number(sympy.Float(value))
    if isinstance(value, str):
        return parse_value(value)
    raise EvaluationError(_not_a_value(value, name))


def _not_a_value(value: object, name: str | None) -> str:
    """What is wrong with ``value`` given for the symbol ``name``: several values (a list, an
    array) point to ``sweep``."""
    import numpy as np  # only here: evaluating at a point imports no numpy

    what = f"{name}: " if name else ""
    got = type(value).__name__
    try:
        many = np.asarray(value, dtype=float).reshape(-1) if not isinstance(value, str | bytes) else None
    except (TypeError, ValueError):
        many = None
    if many is None or many.size < 2 or not np.isfinite(many).all():
        return f"{what}expected one number or an expression, got {got}"
    if many.size <= 8:
        grid = ",".join(number_text(float(v)) for v in many)
    else:
        ordered = np.sort(many)
        grid = f"{number_text(float(ordered[0]))}..{number_text(float(ordered[-1]))}:{many.size}"
        steps = np.diff(np.log(ordered)) if ordered[0] > 0 else np.diff(ordered)
        grid += ":log" if ordered[0] > 0 and np.allclose(steps, steps.mean(), rtol=1e-6) else ""
    over = f"{name or 'x'}={grid}"
    return (
        f"{what}expected one number or an expression, got {got} of {many.size:,} values; a point binds "
        f"one value a symbol: sweep(..., over='{over}') evaluates at many"
    )


def collect_bindings(texts: Iterable[str], option: str | None = None) -> dict[str, sympy.Expr]:
    """``["x=1024", "n=4"]`` -> ``{"x": 1024, "n": 4}``; a symbol bound twice is an error,
    and a value naming another bound symbol takes that symbol's value. Errors name
    ``option`` (a Python argument's name), else ``--at`` on the command line.

    >>> collect_bindings(["x=2^10", "n=4"])
    {'x': 1024, 'n': 4}
    >>> collect_bindings(["x=2*n", "n=4"])
    {'x': 8, 'n': 4}
    >>> collect_bindings(["x=1024", "x=2048"])
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: x is given twice (1024 and 2048); one point takes one value per symbol: for several values use sweep(..., over='x=1024,2048')
    """
    found: dict[str, sympy.Expr] = {}
    for text in texts:
        name, value = parse_binding(text)
        if name in found:
            first, second = format_expr(found[name]), format_expr(value)
            grid = f"{name}={first},{second}"
            several = f"`patternalg sweep TERM --over {grid}`" if on_command_line() else f"sweep(..., over='{grid}')"
            raise EvaluationError(
                f"{_named(option, name)} is given twice ({first} and {second}); one point takes one value "
                f"per symbol: for several values use {several}"
            )
        found[name] = value
    return _resolved(found, option)


def _named(option: str | None, names: str) -> str:
    """``names`` after ``option``, or as the caller bound them (:func:`at_text`)."""
    return f"{option} {names}" if option else at_text(names)


def _resolved(found: dict[str, sympy.Expr], option: str | None) -> dict[str, sympy.Expr]:
    """``found`` with each value's bound symbols replaced by their values; an error if
    values name each other in a circle (``x=n``, ``n=x``)."""
    bound = {symbol(k): v for k, v in found.items()}
    for _ in range(len(found) + 1):
        if not any(s in bound for v in bound.values() for s in v.free_symbols):
            return {str(k): v for k, v in bound.items()}
        bound = {k: v.xreplace(bound) for k, v in bound.items()}
    names = sorted(str(k) for k, v in bound.items() if v.free_symbols & set(bound))
    raise EvaluationError(f"{_named(option, ', '.join(names))}: the values name each other in a circle")


def decided_number(name: str, value: sympy.Expr) -> sympy.Expr:
    """``value``, a binding of ``name``, or an error if it names other symbols: a decision
    compares numbers, and ``eval`` is the command for a model in them.

    >>> decided_number("p", sympy.Symbol("a"))
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: p=a: a decision needs a number for p (a value naming other symbols is for eval)
    """
    if value.free_symbols:
        raise EvaluationError(
            f"{at_text(f'{name}={format_expr(value)}')}: a decision needs a number for {name} "
            "(a value naming other symbols is for eval)"
        )
    return value


def parse_binding(text: str) -> tuple[str, sympy.Expr]:
    """``"x=1024"`` -> ``("x", 1024)``.

    >>> parse_binding("x = 2^10")
    ('x', 1024)
    """
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise EvaluationError(f"{at_text(repr(text))}: expected SYMBOL=VALUE, e.g. x=1024")
    if not name.isidentifier():
        raise EvaluationError(f"{at_text(repr(text))}: {name!r} is not a symbol name")
    try:
        parsed = parse_value(value)
    except ParseError as exc:
        raise EvaluationError(f"{at_text(f'{name}={printable(value.strip(), 60)}')}: {exc}") from None
    if name in {s.name for s in parsed.free_symbols}:  # x = 2^log2(x): sympy.limit hung
        raise EvaluationError(f"{at_text(f'{name}=...')}: the value names {name} itself")
    return name, parsed


def substitute(
    expr: sympy.Expr,
    mapping: Mapping[sympy.Symbol, sympy.Expr],
    where: str,
    replace: Callable[[sympy.Expr, Mapping[sympy.Symbol, sympy.Expr]], sympy.Expr] | None = None,
) -> sympy.Expr:
    """``expr`` with ``mapping`` substituted, refused first if a power would be too large to
    build exactly (``2^x`` at ``x = 10^10``) or the result is infinite or undefined.

    ``replace(expr, mapping)`` does the substitution (default: ``expr.xreplace(mapping)``).

    >>> from patternalg.syntax.symbols import x
    >>> substitute(2 ** x, {x: sympy.Integer(10)}, "--at x=10")
    1024
    >>> substitute(2 ** x, {x: sympy.Integer(10) ** 10}, "--at x=10^10")
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: --at x=10^10: the value has about 3.01e+09 digits (limit: 1000)
    """
    _refuse_too_large(_lazy(expr, mapping), where)
    try:
        result = replace(expr, mapping) if replace else expr.xreplace(mapping)
    except (ValueError, TypeError):  # sympy's Min/Max refuse non-comparable arguments
        result = sympy.nan
    if not check_finite(result):
        raise EvaluationError(
            f"{where}: the model is infinite or undefined there (a division by zero or log of 0)"
        )
    return result


def bounded_xreplace(
    expr: sympy.Expr, mapping: Mapping[sympy.Symbol, sympy.Expr], where: str
) -> sympy.Expr:
    """``expr.xreplace(mapping)``, refused first (an EvaluationError naming ``where``) if a
    power in it would be too large to build exactly; symbols may stay free.

    >>> from patternalg.syntax.symbols import n, x
    >>> bounded_xreplace(2 ** x * n, {x: sympy.Integer(10)}, "--at x=10")
    1024*n
    >>> bounded_xreplace(2 ** x * n, {x: sympy.Integer(10) ** 10}, "--at x=10^10")
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: --at x=10^10: the value has about 3.01e+09 digits (limit: 1000)
    """
    _refuse_too_large(_lazy(expr, mapping), where)
    return expr.xreplace(mapping)


def _lazy(expr: sympy.Expr, mapping: Mapping[sympy.Symbol, sympy.Expr]) -> sympy.Expr:
    """``expr`` with ``mapping`` substituted and nothing evaluated, built node by node with
    ``evaluate=False``: switching sympy's global ``evaluate`` clears its whole cache.

    >>> from patternalg.syntax.symbols import x
    >>> _lazy(2 ** x + x, {x: sympy.Integer(10)})
    10 + 2**10
    """
    done: dict[sympy.Basic, sympy.Basic] = {}
    stack: list[tuple[sympy.Basic, bool]] = [(expr, False)]
    while stack:
        node, ready = stack.pop()
        if node in done:
            continue
        if node in mapping:
            done[node] = mapping[node]
        elif not node.args:
            done[node] = node
        elif not ready:
            stack.append((node, True))
            stack.extend((arg, False) for arg in node.args)
        else:
            args = [done[arg] for arg in node.args]
            same = all(a is b for a, b in zip(args, node.args, strict=True))
            done[node] = node if same else _unevaluated(node.func, args)
    return done[expr]


def _unevaluated(func: Callable[..., sympy.Basic], args: list[sympy.Basic]) -> sympy.Basic:
    try:
        return func(*args, evaluate=False)
    except TypeError:  # a class without the keyword: the global switch (which clears the cache)
        with sympy.evaluate(False):
            return func(*args)


def _refuse_too_large(lazy: sympy.Expr, where: str) -> bool:
    """Raise if a number in ``lazy`` (a substitution left unevaluated) has more digits than
    the limit; return whether ``lazy`` itself is a finite float."""
    finite = False
    nodes = list(sympy.preorder_traversal(lazy))
    towers = set()  # first, from floats: a product holding 2^(1024^1024) took 6 s to find
    for node in nodes:  # not finite, twice
        if node.is_Pow and node.is_number and (digits := _power_digits(node)) is not None:
            _refuse_digits(digits, where)
            towers.add(node)
    for node in nodes:
        if (node.is_Pow or node is lazy) and node.is_number:
            if math.isfinite(float_value(node)):
                finite = finite or node is lazy
                continue  # below 10^309 in floats: far from the limit, no need for evalf
            if node in towers:  # its digits decided above
                continue
            try:
                magnitude = sympy.Abs(node.evalf(15))
            except (ValueError, TypeError):  # Min/Max of a lazy 0.e-140: not comparable
                continue
            if magnitude.is_Number and magnitude.is_finite and magnitude.is_positive:
                _refuse_digits(float(sympy.log(magnitude, 10)), where)
    return finite


def _refuse_digits(digits: float | None, where: str) -> None:
    """Raise if ``digits`` (a value's decimal digits, from floats; None: not known) is more
    than the limit."""
    if digits is not None and digits > MAX_INTEGER_DIGITS:
        shown = f"about {digits:.3g}" if math.isfinite(digits) else "more than 1e308"
        raise EvaluationError(f"{where}: the value has {shown} digits (limit: {MAX_INTEGER_DIGITS})")


def _power_digits(power: sympy.Pow) -> float | None:
    """The decimal digits of a numeric ``base^exp`` with a base above 1, from floats only
    (a tower's exponent may itself be beyond doubles: then infinitely many); None where
    that does not decide it (a base at most 1, or not a real number in floats).

    >>> _power_digits(sympy.Pow(2, sympy.Pow(10**6, 10**6, evaluate=False), evaluate=False))
    inf
    >>> round(_power_digits(sympy.Pow(10, 400, evaluate=False)), 6)
    400.0
    """
    base = _log10(power.base)
    if base is None or base <= 0:
        return None
    exponent = float_value(power.exp)
    if math.isnan(exponent):  # beyond doubles, or not real: its own digits, if a power
        digits = _log10(power.exp)
        if digits is None:
            return None
        exponent = math.inf if digits > 300 else 10.0**digits
    return exponent * base if exponent > 0 else None


def _log10(expr: sympy.Expr) -> float | None:
    """log10 of a positive numeric ``expr`` in floats, through powers whose value is beyond
    doubles; None where floats cannot tell."""
    value = float_value(expr)
    if math.isfinite(value) and value > 0:
        return math.log10(value)
    if expr.is_Pow:
        return _power_digits(expr)
    return None


_FLOAT_FUNCTIONS: dict[str, Callable[..., float]] = {
    "log2": math.log2,
    "exp": math.exp,
    "Max": max,
    "Min": min,
    "Abs": abs,
}


def float_value(expr: sympy.Expr) -> float:
    """``expr`` (a number) in floating point, or nan where floats cannot tell (an overflow,
    a complex value, a function not listed): a cheap first look before sympy's ``evalf``.

    >>> from patternalg.syntax.symbols import log2
    >>> float_value(sympy.Integer(3) * log2(sympy.Integer(8), evaluate=False))
    9.0
    >>> float_value(sympy.Pow(10, 400, evaluate=False))
    nan
    """
    stack: list[tuple[sympy.Expr, bool]] = [(expr, False)]
    values: list[float] = []
    try:
        while stack:
            node, ready = stack.pop()
            if node.is_Number or node.is_NumberSymbol:
                values.append(float(node))
            elif not ready:
                stack.append((node, True))
                stack.extend((arg, False) for arg in node.args)
            else:
                # children were pushed last-first, so their values pop first-first
                values.append(_apply(node, [values.pop() for _ in node.args]))
    except (OverflowError, ValueError, ZeroDivisionError, TypeError):
        return math.nan
    return values[0] if math.isfinite(values[0]) else math.nan


def float_at(expr: sympy.Expr, mapping: Mapping[sympy.Symbol, sympy.Expr]) -> float:
    """``expr`` with ``mapping`` substituted, in floating point (:func:`float_value`): nothing
    is built exactly, so ``2^x`` at ``x = 2^40`` is nan at once, not a number of 10^11 digits.

    >>> from patternalg.syntax.symbols import x
    >>> float_at(2**x - x, {x: sympy.Integer(10)}), float_at(2**x, {x: sympy.Integer(2**40)})
    (1014.0, nan)
    """
    return float_value(_lazy(expr, mapping))


def _apply(node: sympy.Expr, args: list[float]) -> float:
    if node.is_Add:
        return math.fsum(args)
    if node.is_Mul:
        return math.prod(args)
    if node.is_Pow:
        return math.pow(args[0], args[1])
    if isinstance(node, sympy.log):
        return math.log(args[0]) / (math.log(args[1]) if len(args) == 2 else 1.0)
    function = _FLOAT_FUNCTIONS.get(type(node).__name__)
    if function is None:
        raise TypeError(type(node).__name__)
    return function(*args)


def counts(term: Term) -> Iterable[tuple[str, sympy.Expr]]:
    """Every thread, node and key count in ``term``, with what it counts."""
    for node in term.walk():
        if isinstance(node, TPool):
            yield f"the thread count of tpool_{format_count(node.count)}(...)", node.count
        elif isinstance(node, MapReduce):
            yield "the node count m of mapReduce", node.nodes
            yield "the thread count n of mapReduce", node.threads
            if node.shuffle is not None:
                yield "the key count o of the shuffle", node.shuffle.keys


def sizes(term: Term) -> Iterable[tuple[str, sympy.Expr]]:
    """Every mapReduce's elements per key d and key count k in ``term``, with what they are
    (sizes: positive, not necessarily whole)."""
    for node in term.walk():
        if isinstance(node, MapReduce):
            yield f"the elements per key d of {node.head()}", node.per_key
            yield f"the key count k of {node.head()}", node.keys


def annotated(term: Term) -> Iterable[tuple[str, sympy.Expr]]:
    """Every annotation of an atom in ``term`` (``qsort[p=n]``'s p), with what it is
    (a size: positive, not necessarily whole)."""
    for node in term.walk():
        if isinstance(node, Atom):
            for name, value in node.annotations:
                yield f"the annotation {name} of {node.name}", value


def check_made(term: Term, mapping: Mapping[sympy.Symbol, sympy.Expr]) -> None:
    """An error naming the values of ``mapping`` that make a count of ``term`` other than a
    positive integer, or a mapReduce's size or an atom's annotation not positive.

    >>> from patternalg.syntax.parser import parse
    >>> check_made(parse("seq(tpool_k(qsort), qsort[p=k])"), {symbol("k"): sympy.Integer(2)})
    >>> check_made(parse("seq(tpool_k(qsort), qsort[p=k - 2])"), {symbol("k"): sympy.Integer(2)})
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: k = 2 makes the annotation p of qsort 0; it must be positive
    """
    for what, count in counts(term):
        _check_made(what, count, mapping, whole=True)
    for what, size in (*sizes(term), *annotated(term)):
        _check_made(what, size, mapping, whole=False)


def symbols_of(term: Term, names: Iterable[str], declared: Iterable[str] = ()) -> set[str]:
    """The symbols ``term`` has through its model, whose symbols are ``names`` and whose
    atoms were fitted over the inputs ``declared`` (:func:`inputs_of`): those, the symbols
    of its counts, and x unless the model is in other inputs and not in x (fitted with
    ``--param x=Y``: binding x would leave it in Y, unsaid); a model constant in its inputs
    takes any of them (a constant fitted over p: any p), and x if it has none. What a
    binding may name adds the symbols the term writes (:func:`~.term_symbols.term_symbols`).

    >>> from patternalg.syntax.parser import parse
    >>> sorted(symbols_of(parse("tpool_n(k)"), ["n"])), sorted(symbols_of(parse("k"), ["Y"]))
    (['n', 'x'], ['Y'])
    >>> sorted(symbols_of(parse("k"), [], ["p"]))
    ['p']
    """
    count_symbols = {s.name for _, c in counts(term) for s in c.free_symbols}
    names = set(names) | set(declared)
    inputs = names - count_symbols
    in_x = not inputs or "x" in inputs
    return names | count_symbols | ({"x"} if in_x else set())


def inputs_of(term: Term, library: Mapping[str, Any]) -> set[str]:
    """The inputs ``term``'s atoms were fitted over (their models' domains: ``p`` for a
    model fitted over thread counts, constant or not)."""
    return {name for node in term.walk() if isinstance(node, Atom) and node.name in library
            for name, _ in getattr(library[node.name], "domain", ())}  # fmt: skip


def size_symbols(term: Term) -> frozenset[str]:
    """The symbols of the mapReduces' sizes per key and keys (``d`` in ``^{d,x}``): the fold
    evaluates the sizes whether or not the parts' models read them (where none does, the
    model has no such symbol and any value of it gives the same result).

    >>> from patternalg.syntax.parser import parse
    >>> sorted(size_symbols(parse("seq(mapReduce_{1,n}^{d,x}(nop, nop), tpool_m(inc))")))
    ['d', 'x']
    """
    return frozenset(
        s.name
        for node in term.walk()
        if isinstance(node, MapReduce)
        for s in (node.per_key.free_symbols | node.keys.free_symbols)
    )


def unread_sizes(
    term: Term, known: Iterable[str], bound: Iterable[str], reads: Iterable[str] = ()
) -> dict[sympy.Symbol, sympy.Expr]:
    """A value (1) for each symbol of ``term``'s mapReduce sizes that its model, whose
    symbols are ``known``, does not read and ``bound`` does not give: the fold evaluates the
    sizes all the same, and any value of them gives the same result; and so for each
    symbol the semantics ``reads`` (a machine's hand-off in x) that the model does not
    have: an atom's received value, which no pipe of the term uses.

    >>> from patternalg.syntax.parser import parse
    >>> unread_sizes(parse("mapReduce_{1,1}^{d,x}(nop, nop)"), [], ["x"])
    {d: 1}
    >>> unread_sizes(parse("seq(c, c)"), ["p"], ["p"], reads=["x"])
    {x: 1}
    """
    known = set(known)
    unread = (size_symbols(term) - symbols_of(term, known) | set(reads) - known) - set(bound)
    return {symbol(name): sympy.Integer(1) for name in sorted(unread)}


def check_bindings(term: Term, bindable: Iterable[str], bindings: Mapping[str, sympy.Expr]) -> None:
    """Check ``bindings`` for ``term``, whose symbols are ``bindable``
    (:func:`~.term_symbols.term_symbols`): every name is a symbol of it, every count becomes
    a positive integer, every value is positive. (Each atom's model is checked where it is
    substituted: :func:`substitute`.)"""
    known = set(bindable)
    for name in bindings:
        if name not in known:
            raise EvaluationError(
                f"{at_text(f'{name}=...')}: the term has no symbol {name} "
                f"(its symbols: {', '.join(sorted(known))})"
            )
    mapping = {symbol(name): value for name, value in bindings.items()}
    for what, count in counts(term):
        _check_made(what, count, mapping, whole=True)
    for name, value in bindings.items():
        if value.is_number and not value.is_positive:
            raise EvaluationError(
                f"{at_text(f'{name}={format_expr(value)}')}: {name} is a positive symbol; give a value > 0"
            )
    for what, size in sizes(term):  # positive where the mapReduce runs
        _check_made(what, size, mapping, whole=False)


def _check_made(what: str, expr: sympy.Expr, mapping: Mapping[sympy.Symbol, sympy.Expr], whole: bool) -> None:
    """An error naming the bindings if they make the count (``whole``) or size ``expr`` one
    it cannot be (:func:`~patternalg.syntax.terms.count_problem`)."""
    value = expr.xreplace(mapping)
    if whole:
        value = whole_number(value)
    if expr.free_symbols and count_problem(value, whole):
        names = ", ".join(f"{s} = {format_expr(mapping[s])}" for s in sorted(expr.free_symbols, key=str) if s in mapping)
        wanted = "a positive integer" if whole else "positive"
        raise EvaluationError(f"{names} makes {what} {format_expr(value)}; it must be {wanted}")
