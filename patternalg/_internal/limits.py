"""The explicit size limits of patternalg's inputs, and how long text is shown in messages.

Exact arithmetic on huge numbers runs until memory is gone, so sizes are bounded before
sympy evaluates anything (docs/errors.md, "Limits"):

>>> MAX_INTEGER_DIGITS, MAX_EXPONENT, MAX_FILE_NESTING, MAX_SHOWN
(1000, 1000, 100, 60)
>>> MAX_FILE_BYTES, MAX_UNIT_TEXT, MAX_CORES
(1073741824, 200, 1048576)
>>> power_problem(sympy.Integer(10), sympy.Integer(10) ** 10)
'10^10000000000 has about 1e+10 digits (limit: 1000)'
>>> from patternalg.syntax.symbols import x
>>> power_problem(x + 1, sympy.Integer(10) ** 6)
'exponent 1000000 is larger than 1000 (on an expression with symbols)'
>>> printable("a\\x1b[31m" + "b" * 100)
'a\\\\x1b[31mbbbbbbbbbbbbbbbbbbbb…bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'
"""

from __future__ import annotations

import functools
import math
import re
import sys

import sympy

__all__ = [
    "MAX_INTEGER_DIGITS",
    "MAX_NAME",
    "MAX_EXPONENT",
    "MAX_FILE_NESTING",
    "MAX_FILE_BYTES",
    "MAX_UNIT_TEXT",
    "MAX_CORES",
    "MAX_SHOWN",
    "MAX_EXAMPLES",
    "MAX_ASSIGNMENTS",
    "MAX_PREDICTED_THREADS",
    "MAX_TUNER_RUNS",
    "MAX_ANNEALING_ITERATIONS",
    "MAX_EXPANSIONS",
    "MAX_SEARCH_REBUILDS",
    "MAX_MAXIMUM_STAGES",
    "MAX_EXPANDED_TERMS",
    "MAX_PARAMETER_NODES",
    "expanded_terms",
    "held_in_full",
    "expansion_problem",
    "power_problem",
    "size_problem",
    "printable",
    "toml_nesting_problem",
    "whole_number_text",
]

#: digits of an integer (a literal, or an exact result such as 2^3000) and decimal exponent
#: of a literal (1e-1000): beyond double range by far, and printable as text
MAX_INTEGER_DIGITS = 1000
#: characters of a name in a term, a law or an expression (an atom, a metavariable, a symbol)
MAX_NAME = 1000
#: magnitude of a numeric exponent on an expression with symbols ((x+1)^1000)
MAX_EXPONENT = 1000
#: the most powers of numbers with exponents other than whole numbers an expression may nest
#: (``2^3^(1/2)^(1/3)``): sympy's exact evaluation of a deeper tower, which ``power_problem``
#: needs to bound its size, takes twice as long with each level (15 levels: 7 s)
MAX_TOWER = 4
#: terms of a term's parameter expression (a count, an annotation) once expanded, its
#: canonical form, and the operations and operands it may hold: sympy's expansion of a
#: rational expression of 80 operations with decimals took up to 27 s, (x+k+p+n)^20 /
#: (x+k+1)^10 (1,771 terms) 8 s; a thread count is a short expression
MAX_EXPANDED_TERMS = 1_000
MAX_PARAMETER_NODES = 64
#: nesting depth of brackets and tables in a model or measurement file
MAX_FILE_NESTING = 100
#: bytes of any file patternalg reads (a model, machine or measurement file, a journal, a
#: term's ``@FILE``; ``-``, standard input): a measurement file of 1,000,000 kernels is
#: 885 MB, and a device such as /dev/zero would otherwise be read until memory runs out
MAX_FILE_BYTES = 1 << 30
#: characters of a unit's text (``unit = "ms"``, ``--unit``): pint's parser takes
#: quadratic time in it (30,000 characters: 17 s)
MAX_UNIT_TEXT = 200
#: cores of a machine (``cores = N``, ``--cores N``): its speed-ups are checked on every
#: thread count up to it
MAX_CORES = 1 << 20
#: characters of user text (a name, an excerpt) shown in one message before eliding with …
MAX_SHOWN = 60
#: characters of an error message printed before its middle is elided (one visual line)
MAX_MESSAGE = 400
#: examples ``check``/``laws`` may search per law and semantics
MAX_EXAMPLES = 100_000
#: thread-count assignments ``optimize`` may search: at most the product of each count's
#: largest value under the budgets, or the simplex a budget cuts out of it
#: (``decisions.budget.assignments_at_most``; a+b<=1000 is 5*10^5 of them, under a second)
MAX_ASSIGNMENTS = 10_000_000
#: thread counts PreSca predicts for (``predict --upto``): its filter checks every count
#: 1..N, and a million of them take about a second and 150 MB
MAX_PREDICTED_THREADS = 1_000_000
#: random runs ``tune`` may average (a few milliseconds each)
MAX_TUNER_RUNS = 10_000
#: iterations of the memory-wall model's annealing (``fit --form memwall --iterations``;
#: about 50 us each on 16 points, 100 times the default)
MAX_ANNEALING_ITERATIONS = 1_000_000
#: designs ``explore`` may rewrite (``--expansions``; about a millisecond each, and every
#: design found is kept)
MAX_EXPANSIONS = 100_000
#: sub-terms one ``explore`` search rebuilds in all (each rewrite rebuilds the path from its
#: place to the root: on a design of thousands of sub-terms, some 2 microseconds each)
MAX_SEARCH_REBUILDS = 1_000_000
#: the most stages a closed form keeps in one maximum: stages none of the others is above
#: (a pipe of pools nested 1,000 deep whose count is free keeps one per level, each compared
#: with the next level's: minutes); the value at a point needs none
MAX_MAXIMUM_STAGES = 128

_MAX_BITS = math.ceil(MAX_INTEGER_DIGITS * math.log2(10))
_TEN_TO_THE_MAX = 10**MAX_INTEGER_DIGITS


def _log10_abs(value: sympy.Expr) -> float:
    """log10 of ``|value|`` for a number, without evaluating anything large exactly."""
    if value.is_Rational:
        p, q = abs(int(value.p)), int(value.q)
        return (math.log10(p) if p else -math.inf) - math.log10(q)
    return float(sympy.log(sympy.Abs(value), 10).evalf(15))


def expanded_terms(expr: sympy.Expr, limit: int = MAX_EXPANDED_TERMS) -> int:
    """An upper bound of the terms ``sympy.expand(expr)`` gives (and of the largest
    expansion inside it, a denominator's or a function's argument), counted without
    expanding: per node the product of its factors' terms, at most the monomials of its
    degree in its generators (its symbols, and each function or negative power); past
    ``limit`` it returns a number above it.

    >>> from patternalg.syntax.symbols import symbol
    >>> a, b, c = symbol("a"), symbol("b"), symbol("c")
    >>> expanded_terms((a + b) * (b + c)), expanded_terms((a + b + c) ** 3), expanded_terms(1 / (a + b) ** 2 + c)
    (4, 10, 3)
    >>> expanded_terms(sympy.Mul(*(a + i for i in range(1, 21))))  # 21 powers of a, not 2^20
    21
    """
    counted: dict[sympy.Expr, tuple[int, int, frozenset[sympy.Expr]]] = {}  # terms, degree, generators
    found: tuple[int, int, frozenset[sympy.Expr]]
    inner = 1  # the largest expansion met inside a generator
    for node in _post_order(expr):
        if node in counted:
            continue
        args = [counted[a] for a in node.args]
        generators = frozenset().union(*(g for _, _, g in args))
        if node.is_Number:
            found = (1, 0, frozenset())
        elif node.is_Symbol:
            found = (1, 1, frozenset([node]))
        elif node.is_Add:
            found = (sum(t for t, _, _ in args), max(d for _, d, _ in args), generators)
        elif node.is_Mul:
            found = (math.prod(t for t, _, _ in args), sum(d for _, d, _ in args), generators)
        elif node.is_Pow and node.exp.is_Integer and node.exp >= 0:
            (count, degree, _), power = args[0], int(node.exp)
            found = (_multinomial_terms(count, power, limit), degree * power, generators)
        else:  # a generator: a function, a negative or symbolic power; its arguments expand inside
            if node.is_Pow and node.exp.is_Integer:
                inside = _multinomial_terms(args[0][0], -int(node.exp), limit)
            else:
                inside = max((t for t, _, _ in args), default=1)
            inner = max(inner, min(inside, limit + 1))
            found = (1, 1, frozenset([node]))
        terms, degree, gens = found
        if len(gens) <= limit and degree <= limit:
            terms = min(terms, math.comb(degree + len(gens), len(gens)))
        counted[node] = (min(terms, limit + 1), min(degree, limit + 1), gens)
    return max(counted[expr][0], inner)


def _multinomial_terms(count: int, power: int, limit: int) -> int:
    """The terms of a sum of ``count`` terms raised to ``power``: C(count + power - 1,
    power), or ``limit + 1`` where the power alone is past the limit."""
    if count == 1:
        return 1
    return limit + 1 if power > limit else math.comb(count + power - 1, power)


def _post_order(expr: sympy.Expr, most: int | None = None) -> list[sympy.Expr]:
    """The nodes of ``expr``, each after its arguments (no recursion: a tree built in
    Python may be deeper than the interpreter's stack); with ``most``, the first ``most``
    of them at most (a count of nodes that stops early)."""
    found: list[sympy.Expr] = []
    stack = [(expr, False)]
    while stack and (most is None or len(found) < most):
        node, done = stack.pop()
        if done:
            found.append(node)
        else:
            stack.append((node, True))
            stack.extend((a, False) for a in node.args)
    return found


@functools.lru_cache(maxsize=4096)  # a term's nodes share a few parameters (n, 2, k)
def expansion_problem(expr: sympy.Expr) -> str | None:
    """Why expanding ``expr`` (a parameter of a term is kept expanded) would take too
    long, or None.

    >>> from patternalg.syntax.symbols import symbol
    >>> product = sympy.Mul(*(symbol(f"a{i}") + 1 for i in range(12)))
    >>> expansion_problem(product)
    'the expression expands to more than 1,000 terms (a product of sums: multiply fewer of them)'
    >>> expansion_problem(sympy.Add(*(symbol(f"a{i}") / (i + 2) for i in range(40))))
    "the expression holds more than 64 operations and operands (a term's parameter is short: n, 2*k, n*m)"
    >>> expansion_problem(sympy.Mul(*(symbol("k") + i for i in range(1, 21)))).split(",")[0]
    'the expression expands to more than 64 operations and operands'
    """
    if not isinstance(expr, sympy.Basic) or expr.is_Atom:  # a number or a symbol
        return None
    nodes = len(_post_order(expr, MAX_PARAMETER_NODES + 1))
    if nodes > MAX_PARAMETER_NODES:
        return (
            f"the expression holds more than {MAX_PARAMETER_NODES} operations and operands (a term's "
            "parameter is short: n, 2*k, n*m)"
        )
    if expanded_terms(expr) > MAX_EXPANDED_TERMS:
        return (
            f"the expression expands to more than {MAX_EXPANDED_TERMS:,} terms (a product of "
            "sums: multiply fewer of them)"
        )
    if len(_post_order(sympy.expand(expr), MAX_PARAMETER_NODES + 1)) > MAX_PARAMETER_NODES:
        return (  # a term prints its parameters expanded: its text must parse back
            f"the expression expands to more than {MAX_PARAMETER_NODES} operations and operands, "
            "and a term prints its parameters expanded (a term's parameter is short: n, 2*k, n*m)"
        )
    return None


def power_problem(base: sympy.Expr, exponent: sympy.Expr) -> str | None:
    """Why ``base^exponent`` is too large to build exactly, or None if it is fine. A
    symbolic exponent counts by its largest coefficient: sympy writes ``2^(c*n)`` as
    ``(2^c)^n`` when it simplifies, and builds ``2^c``.

    >>> from patternalg.syntax.symbols import symbol
    >>> power_problem(sympy.Integer(2), 2**64 * symbol("n"))
    '2^(18446744073709551616*n) has about 5.55e+18 digits per unit of n (limit: 1000)'
    >>> power_problem(sympy.Integer(2), 64 * symbol("n")) is None
    True
    """
    if not exponent.is_number:
        if not base.is_number:
            return None
        coefficients = [abs(c) for c in exponent.as_coefficients_dict().values() if c.is_Number]
        try:
            digits = float(max(coefficients, default=0)) * abs(_log10_abs(base))
        except (TypeError, ValueError):
            return None
        if math.isnan(digits) or digits <= MAX_INTEGER_DIGITS:
            return None
        unit = ", ".join(sorted(str(s) for s in exponent.free_symbols))
        shown = f"{_short_number(base)}^({_short_number(exponent)})"
        return f"{shown} has about {digits:.3g} digits per unit of {unit} (limit: {MAX_INTEGER_DIGITS})"
    if base.is_number and not exponent.is_Rational and _tower(exponent) >= MAX_TOWER:
        return f"a tower of more than {MAX_TOWER} powers of numbers cannot be bounded in time: write its value"
    try:
        magnitude = abs(float(exponent.evalf(15)))
    except TypeError:  # a complex exponent: sympy builds it lazily, nothing to bound
        return None
    if not base.is_number:
        if magnitude > MAX_EXPONENT:
            return f"exponent {_short_number(exponent)} is larger than {MAX_EXPONENT} (on an expression with symbols)"
        return None
    try:
        digits = magnitude * abs(_log10_abs(base))
    except (TypeError, ValueError):
        return None
    if math.isnan(digits) or digits <= MAX_INTEGER_DIGITS:
        return None
    shown = f"{_short_number(base)}^{_short_number(exponent)}"
    return f"{shown} has about {digits:.3g} digits (limit: {MAX_INTEGER_DIGITS})"


def _tower(expr: sympy.Expr) -> int:
    """How many powers of numbers with exponents other than whole numbers nest in each other
    in ``expr`` (counted up to :data:`MAX_TOWER`).

    >>> _tower(sympy.Integer(2) ** sympy.Rational(1, 3)), _tower(sympy.sqrt(2) + 1)
    (1, 1)
    """
    best, stack = 0, [(expr, 0)]
    while stack:
        node, depth = stack.pop()
        if node.is_Pow and node.is_number and not node.exp.is_Integer:
            depth += 1
            if depth >= MAX_TOWER:
                return depth
        best = max(best, depth)
        stack.extend((arg, depth) for arg in node.args)
    return best


def size_problem(expr: sympy.Expr) -> str | None:
    """Why a number in ``expr`` (itself or a direct argument) is too long, or None: an
    exact one of more than :data:`MAX_INTEGER_DIGITS` digits, or a decimal a literal
    could not give (beyond a double's 1.8e308, or below 1e-:data:`MAX_INTEGER_DIGITS`):
    its text would not read back.

    >>> size_problem(sympy.Float(100) / sympy.Float("1e-999"))
    'a decimal number is out of range (a literal reads up to 1.8e308 and down to 1e-1000)'
    >>> size_problem(sympy.Float(1e300) * 10**9), size_problem(sympy.Float(1e300) * 10)
    ('a decimal number is out of range (a literal reads up to 1.8e308 and down to 1e-1000)', None)
    """
    for part in (expr, *expr.args):
        if part.is_Rational and any(_too_long(int(n)) for n in (part.p, part.q)):
            return f"an exact number has more than {MAX_INTEGER_DIGITS} digits"
        if part.is_Float and _beyond_literals(part):
            return (
                "a decimal number is out of range (a literal reads up to 1.8e308 and down to "
                f"1e-{MAX_INTEGER_DIGITS})"
            )
    return None


def _too_long(number: int) -> bool:
    """Whether ``number`` has more than :data:`MAX_INTEGER_DIGITS` digits (10^1000 has
    1,001: its bits, 3,322, are those of 10^1000 - 1).

    >>> _too_long(10**MAX_INTEGER_DIGITS), _too_long(10**MAX_INTEGER_DIGITS - 1)
    (True, False)
    """
    bits = abs(number).bit_length()
    return bits > _MAX_BITS or (bits == _MAX_BITS and abs(number) >= _TEN_TO_THE_MAX)


def _beyond_literals(value: sympy.Float) -> bool:
    """Whether a decimal's magnitude is beyond what a literal reads (0, inf and nan are
    not this check's to say)."""
    if not value.is_finite or value.is_zero:
        return False
    magnitude = abs(value)
    return bool(magnitude > _LARGEST_LITERAL or magnitude < _SMALLEST_LITERAL)


#: the largest and the smallest magnitude a decimal literal reads (a double's largest; the
#: 53-bit decimal of 1e-1000, as build_number reads it)
_LARGEST_LITERAL = sympy.Float(sys.float_info.max)
_SMALLEST_LITERAL = sympy.Float(f"1e-{MAX_INTEGER_DIGITS}", precision=53)


def held_in_full(value: float, largest: float = math.inf) -> bool:
    """Whether a double holds ``value`` with all its digits: not 0 or subnormal (a number
    below 2.2e-308 reads as one of those), not infinite (and below ``largest``, for values
    that are summed: a few of 1.6e308 overflow).

    >>> held_in_full(1e-300), held_in_full(1e-320), held_in_full(0.0), held_in_full(1.6e308, 1e300)
    (True, False, False, False)
    """
    return sys.float_info.min <= abs(value) < largest


def _short_number(value: sympy.Expr) -> str:
    if value.is_Integer and int(value).bit_length() > 64:
        return f"({whole_number_text(int(value))})"
    return printable(str(value))


def whole_number_text(value: int) -> str:
    """A whole number as a message shows it: its digits up to 64 bits, else its length
    (nobody reads 4,772 digits, and Python refuses to print more than 4,300).

    >>> whole_number_text(12), whole_number_text(-(2**64)), whole_number_text(3**10_000)
    ('12', 'a 20-digit negative integer', 'a 4,772-digit integer')
    """
    n = abs(int(value))
    if n.bit_length() <= 64:
        return str(value)
    digits = int(math.log10(n)) + 1  # exact but at the powers of ten, checked next
    digits += (n >= 10**digits) - (n < 10 ** (digits - 1))
    return f"a {digits:,}-digit {'negative ' if value < 0 else ''}integer"


def printable(text: str, limit: int = MAX_SHOWN) -> str:
    """``text`` safe for one terminal line: control characters escaped, the middle elided;
    a byte that was no UTF-8 (a file name's, kept by Python as a lone surrogate) shown as
    the byte it was.

    >>> printable("tab\\there"), printable("x" * 10, limit=6), printable("a\\udcffb.csv")
    ('tab\\\\there', 'xx…xxx', 'a\\\\xffb.csv')
    """
    if len(text) > 4 * limit:  # escape only what is shown
        text = text[: 2 * limit] + text[-2 * limit :]
    shown = "".join(
        c if c.isprintable()
        else f"\\x{ord(c) - 0xDC00:02x}" if "\udc80" <= c <= "\udcff"
        else c.encode("unicode_escape").decode("ascii")
        for c in text
    )  # fmt: skip
    shown = shown.encode("utf-8", "backslashreplace").decode("utf-8")
    if len(shown) <= limit:
        return shown
    half = (limit - 1) // 2
    return f"{shown[:half]}…{shown[len(shown) - (limit - 1 - half) :]}"


def toml_nesting_problem(text: str) -> tuple[int, str] | None:
    """The line where a TOML text nests arrays and inline tables too deeply, and why, or
    None (strings and comments skipped; tomllib would otherwise recurse until Python's
    stack runs out). A regular expression steps over everything else: 200 MB of text
    without a bracket is scanned in a second, not a minute.

    >>> toml_nesting_problem('a = [[1], "[[["]  # [[[')
    >>> toml_nesting_problem("a = " + "[" * 200 + "]" * 200)
    (1, 'arrays and inline tables nest deeper than 100 levels')
    >>> toml_nesting_problem("a = '''\\n[[[\\n'''\\nb = " + "[" * 101)
    (4, 'arrays and inline tables nest deeper than 100 levels')
    """
    depth, line = 0, 1
    for token in _TOML_TOKENS.finditer(text):
        char = token[0][0]
        if char == "\n":
            line += 1
        elif char in "[{":
            depth += 1
            if depth > MAX_FILE_NESTING:
                return line, f"arrays and inline tables nest deeper than {MAX_FILE_NESTING} levels"
        elif char in "]}":
            depth = max(depth - 1, 0)
        elif char in "\"'":  # a string: its lines counted
            line += token[0].count("\n")
    return None


#: what the nesting of a TOML text depends on: strings (multi-line ones first; one left open
#: runs to the end of its line, where tomllib stops), comments, line ends and brackets; and
#: the runs of other characters between them
_TOML_TOKENS = re.compile(
    r"[^\"'#\[\]{}\n]+|"  # the rest, stepped over in one match
    r'"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*(?:"""|\Z)'
    r"|'''[^']*(?:'(?!'')[^']*)*(?:'''|\Z)"
    r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"?'
    r"|'[^'\n]*'?"
    r"|#[^\n]*|[\[\]{}\n]",
    re.DOTALL,
)
