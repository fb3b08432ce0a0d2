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

import math

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
#: examples ``check``/``laws`` may search per law and semantics
MAX_EXAMPLES = 100_000
#: thread-count assignments ``optimize`` may search: the product of each count's largest
#: value under the budgets (a+b<=1000 is 10^6 of them, about a second)
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


def _log10_abs(value: sympy.Expr) -> float:
    """log10 of ``|value|`` for a number, without evaluating anything large exactly."""
    if value.is_Rational:
        p, q = abs(int(value.p)), int(value.q)
        return (math.log10(p) if p else -math.inf) - math.log10(q)
    return float(sympy.log(sympy.Abs(value), 10).evalf(15))


def power_problem(base: sympy.Expr, exponent: sympy.Expr) -> str | None:
    """Why ``base^exponent`` is too large to build exactly, or None if it is fine."""
    if not exponent.is_number:
        return None
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


def size_problem(expr: sympy.Expr) -> str | None:
    """Why an exact number in ``expr`` (itself or a direct argument) is too long, or None."""
    for part in (expr, *expr.args):
        if part.is_Rational and max(int(part.p).bit_length(), int(part.q).bit_length()) > _MAX_BITS:
            return f"an exact number has more than {MAX_INTEGER_DIGITS} digits"
    return None


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
    """``text`` safe for one terminal line: control characters escaped, the middle elided.

    >>> printable("tab\\there"), printable("x" * 10, limit=6)
    ('tab\\\\there', 'xx…xxx')
    """
    if len(text) > 4 * limit:  # escape only what is shown
        text = text[: 2 * limit] + text[-2 * limit :]
    shown = "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )
    shown = shown.encode("utf-8", "backslashreplace").decode("utf-8")
    if len(shown) <= limit:
        return shown
    half = (limit - 1) // 2
    return f"{shown[:half]}…{shown[len(shown) - (limit - 1 - half) :]}"


def toml_nesting_problem(text: str) -> tuple[int, str] | None:
    """The line where a TOML text nests arrays and inline tables too deeply, and why, or
    None (strings and comments skipped; tomllib would otherwise recurse until Python's
    stack runs out).

    >>> toml_nesting_problem('a = [[1], "[[["]  # [[[')
    >>> toml_nesting_problem("a = " + "[" * 200 + "]" * 200)
    (1, 'arrays and inline tables nest deeper than 100 levels')
    """
    depth, pos, line, size = 0, 0, 1, len(text)
    while pos < size:
        char = text[pos]
        if char in "\"'":
            quote = text[pos : pos + 3] if text.startswith(char * 3, pos) else char
            pos += len(quote)
            while pos < size and not text.startswith(quote, pos):
                if char == '"' and text[pos] == "\\":
                    pos += 1
                line += text[pos] == "\n" if pos < size else 0
                pos += 1
            pos += len(quote)
            continue
        if char == "#":
            end = text.find("\n", pos)
            pos = size if end < 0 else end
            continue
        if char == "\n":
            line += 1
        elif char in "[{":
            depth += 1
            if depth > MAX_FILE_NESTING:
                return line, f"arrays and inline tables nest deeper than {MAX_FILE_NESTING} levels"
        elif char in "]}":
            depth = max(depth - 1, 0)
        pos += 1
    return None
