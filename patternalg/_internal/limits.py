"""The explicit size limits of patternalg's inputs, and how long text is shown in messages.

Exact arithmetic on huge numbers runs until memory is gone, so sizes are bounded before
sympy evaluates anything (docs/errors.md, "Limits"):

>>> MAX_INTEGER_DIGITS, MAX_EXPONENT, MAX_FILE_NESTING, MAX_SHOWN
(1000, 1000, 100, 60)
>>> MAX_FILE_BYTES, MAX_UNIT_TEXT, MAX_CORES
(1073741824, 200, 1048576)
>>> printable("a\\x1b[31m" + "b" * 100)
'a\\\\x1b[31mbbbbbbbbbbbbbbbbbbbb…bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'
"""

from __future__ import annotations

import math
import re
import sys

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
    "MAX_MINIMUM_CLAUSES",
    "MAX_EXPANDED_TERMS",
    "MAX_PARAMETER_NODES",
    "held_in_full",
    "printable",
    "toml_nesting_problem",
    "TOML_TOKENS",
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
#: draws of a profile's per-node check (``check_profile(draws=)``): each draws every node's
#: model at every point (a billion asked for 52 GB)
MAX_PROFILE_DRAWS = 100_000
#: values one call of ``Uncertainty.draws`` may return (draws x terms, 8 bytes each: 800 MB;
#: a billion draws of 7 terms asked numpy for 52 GB)
MAX_DRAWN_VALUES = 100_000_000
#: program runs one ``measure`` plan may make (regions x points x (warm-up + repetitions)):
#: each is a process, a millisecond at the least, so a million take a quarter of an hour
MAX_MEASURED_RUNS = 1_000_000
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
#: the most clauses a closed form keeps in one minimum of forms (a pool's capped dispatch, a
#: stage's wake), each of two distributed over the other's at most: more stay a sympy
#: ``Min`` inside the maximum (a pipe of k stages that pay a wake was one of 2^k clauses)
MAX_MINIMUM_CLAUSES = 4

def held_in_full(value: float, largest: float = math.inf) -> bool:
    """Whether a double holds ``value`` with all its digits: not 0 or subnormal (a number
    below 2.2e-308 reads as one of those), not infinite (and below ``largest``, for values
    that are summed: a few of 1.6e308 overflow).

    >>> held_in_full(1e-300), held_in_full(1e-320), held_in_full(0.0), held_in_full(1.6e308, 1e300)
    (True, False, False, False)
    """
    return sys.float_info.min <= abs(value) < largest


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
    for token in TOML_TOKENS.finditer(text):
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
TOML_TOKENS = re.compile(
    r"[^\"'#\[\]{}\n]+|"  # the rest, stepped over in one match
    r'"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*(?:"""|\Z)'
    r"|'''[^']*(?:'(?!'')[^']*)*(?:'''|\Z)"
    r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"?'
    r"|'[^'\n]*'?"
    r"|#[^\n]*|[\[\]{}\n]",
    re.DOTALL,
)
