"""The safe arithmetic sub-language: sympy expressions built by constructors, printed back.

Nothing here reads strings with sympy's parser (which runs Python ``eval``); the grammar
hands over numbers, symbol names and operators, and these functions build the expression.

>>> from patternalg.syntax.symbols import x
>>> format_expr(1034.17 * x * build_call("log2", [x]))
'1034.17*x*log2(x)'
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Iterable, Sequence

import mpmath
import sympy
from sympy.printing.str import StrPrinter

from .._internal.limits import MAX_INTEGER_DIGITS
from .._internal.surface import flag
from .symbols import log2

__all__ = [
    "FUNCTIONS",
    "build_number",
    "build_call",
    "format_expr",
    "format_number",
    "number_text",
    "float_text",
    "shown_text",
    "bounds_text",
    "digits_apart",
    "DOUBLE_DIGITS",
    "value_digits",
    "latex_text",
    "latex_number",
    "latex_definition",
    "check_finite",
    "check_finite_node",
]

#: significant digits of a value printed at least: all a double holds reliably, so the noise
#: of float arithmetic on short coefficients (53618.49999999999) is not shown
DEFAULT_DIGITS = 15

#: name -> (constructor, (min arity, max arity or None))
FUNCTIONS: dict[str, tuple[Callable[..., sympy.Expr], tuple[int, int | None]]] = {
    "log2": (log2, (1, 1)),
    "log": (sympy.log, (1, 1)),
    "sqrt": (sympy.sqrt, (1, 1)),
    "min": (sympy.Min, (1, None)),
    "max": (sympy.Max, (1, None)),
}
_ALIASES = {"Min": "min", "Max": "max", "ln": "log"}


def build_number(text: str) -> sympy.Expr:
    """A literal: integers stay exact, decimals become floats.

    >>> build_number("768"), build_number("1.241e7")
    (768, 12410000.0000000)
    """
    if not text.isascii():  # the grammar's digits are Python's \d: Arabic-Indic, full-width
        raise ValueError(f"number {text[:20]} is not written in the digits 0 to 9")
    mantissa, _, exponent = text.lower().partition("e")
    if len(mantissa) > MAX_INTEGER_DIGITS or len(exponent.lstrip("+-")) > 4 or (
        exponent and abs(int(exponent)) > MAX_INTEGER_DIGITS
    ):
        raise ValueError(
            f"number {text[:20]}… is out of range (at most {MAX_INTEGER_DIGITS} digits "
            f"and exponents up to e±{MAX_INTEGER_DIGITS})"
        )
    if text.isdigit():
        return sympy.Integer(int(text))
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text} is out of range")
    if abs(value) < sys.float_info.min and any(c in "123456789" for c in text.lower().split("e")[0]):
        # below the doubles' normal range (where they keep fewer than 53 bits, or none):
        # mpmath reads the decimal at 53 bits, and float_text prints it back so
        return sympy.Float(text, precision=53)
    if value.is_integer() and "." not in text and abs(value) < 1e15:
        return sympy.Integer(int(value))
    return sympy.Float(value)


def whole_number(value: sympy.Expr) -> sympy.Expr:
    """``value`` as an integer where it is a decimal that is one (a count of ``4.0`` or
    ``4^0.5`` is the count 4 or 2, as ``4e0`` is); anything else as it is.

    >>> whole_number(sympy.Float(4.0)), whole_number(sympy.Float(0.5)), whole_number(sympy.Symbol("n"))
    (4, 0.500000000000000, n)
    >>> whole_number(sympy.Float("1e-400", precision=53))
    1.00000000000000e-400
    """
    if isinstance(value, sympy.Float) and value.is_finite and abs(value) < 2**53:
        whole = int(value)  # exact where the decimal is below a double's range (1e-400: 0)
        if value == sympy.Float(whole):
            return sympy.Integer(whole)
    return value


def canonical_function(name: str) -> str | None:
    """The canonical name of an arithmetic function, or None if there is none."""
    name = _ALIASES.get(name, name)
    return name if name in FUNCTIONS else None


def build_call(name: str, args: Sequence[sympy.Expr]) -> sympy.Expr:
    """Apply the function ``name`` (already checked with :func:`canonical_function`)."""
    constructor, _ = FUNCTIONS[canonical_function(name) or name]
    return constructor(*args)


def check_finite(expr: sympy.Expr) -> bool:
    """False if ``expr`` is infinite or undefined (a division by zero, say)."""
    return not expr.has(*_INFINITE)


def check_finite_node(expr: sympy.Expr) -> bool:
    """:func:`check_finite` of an expression built from parts checked already: only
    ``expr`` and its direct arguments can be new (a division by zero, ``log(0)``), so the
    parts' own trees are not walked again (a parser that walked them at every operator
    took quadratic time in an expression's length).

    >>> from patternalg.syntax.symbols import x
    >>> check_finite_node(x + 1), check_finite_node(sympy.Pow(sympy.Integer(0), -1)), check_finite_node(x + sympy.zoo)
    (True, False, False)
    """
    return not any(part in _INFINITE for part in (expr, *expr.args))


#: the values :func:`check_finite` refuses
_INFINITE = (sympy.zoo, sympy.oo, -sympy.oo, sympy.nan)


def in_double_range(value: sympy.Expr) -> bool:
    """Whether a double holds the real number ``value`` to its full precision (0, or a
    magnitude between 2.2e-308 and 1.8e308).

    >>> in_double_range(sympy.Float(1e300)), in_double_range(sympy.Float("1e-400"))
    (True, False)
    """
    magnitude = abs(float(value))
    return bool(value.is_zero) or sys.float_info.min <= magnitude <= sys.float_info.max


def float_text(value: sympy.Float, digits: int | None = None) -> str:
    """The fewest significant digits that read back to ``value`` at its own precision (a
    double's shortest ``repr``; a 100-bit Float keeps its 30 digits), or ``digits`` of them.

    >>> float_text(sympy.Float(1034.17)), float_text(sympy.Float(1034.17), 3)
    ('1034.17', '1030.0')
    >>> float_text(sympy.Float("0.1234567890123456789012345", 25)), float_text(sympy.Float("1e-400"))
    ('0.1234567890123456789012345', '1.0e-400')
    >>> float_text(sympy.Float("1e-309") / 2)  # below the doubles' normal range: no double's digits
    '5.0e-310'
    """
    if digits is not None:
        value = sympy.Float(mpmath.libmp.to_str(value._mpf_, digits), precision=value._prec)
    double = float(value)
    # a double's shortest digits in the doubles' normal range only: below 2.2e-308 a double
    # keeps fewer than 53 bits, and build_number reads a decimal there at 53 bits (0.1e-308/2
    # printed by its double, 5.00000000000003e-310, read back as another number)
    if value._prec <= 53 and math.isfinite(double) and (abs(double) >= sys.float_info.min or value.is_zero):
        return repr(double)
    enough = mpmath.libmp.repr_dps(value._prec)  # the digits that always read back
    for shown in range(1, enough):
        text = mpmath.libmp.to_str(value._mpf_, shown)
        if mpmath.libmp.from_str(text, value._prec, mpmath.libmp.round_nearest) == value._mpf_:
            return text
    return mpmath.libmp.to_str(value._mpf_, enough)


def format_number(value: float, digits: int | None = None) -> str:
    """The one printer of a value: ``value`` rounded to ``digits`` significant digits
    (default :data:`DEFAULT_DIGITS`), printed as the shortest decimal that reads back to the
    rounded value (a closed form's coefficients print by :func:`float_text`).

    >>> format_number(2647475.2), format_number(53618.49999999999), format_number(2647475.2, 3)
    ('2647475.2', '53618.5', '2650000.0')
    >>> format_number(1.2000000000000002), format_number(-0.0)
    ('1.2', '0.0')
    """
    return repr(float(f"{float(value):.{digits or DEFAULT_DIGITS}g}") + 0.0)


def number_text(value: float, digits: int | None = None) -> str:
    """:func:`format_number` for a table, a decision's line or a fit's summary: the same
    digits, a whole number written as one (a grid point ``4``, a count, ``64`` ms).

    >>> number_text(4.0), number_text(2048.000000000001), number_text(1.2000000000000002)
    ('4', '2048', '1.2')
    >>> number_text(549053.4400000001), number_text(1374175148.9812, 6), number_text(1e20)
    ('549053.44', '1374180000', '1e+20')
    """
    text = format_number(value, digits)
    return text.removesuffix(".0")


#: a decimal literal with a point or an exponent, not part of a name (``x2``, ``log2``)
_LITERAL = re.compile(r"(?<![\w.])\d+(?:\.\d*(?:[eE][+-]?\d+)?|[eE][+-]?\d+)(?![\w.])")


def shown_text(text: str, digits: int | None = None) -> str:
    """A closed form's text as a person reads it (a fit's line, a listing): each decimal
    literal through :func:`number_text`, so a computed coefficient shows no float noise and
    a whole number no ``.0``. Files and JSON keep every digit (``repr``).

    >>> shown_text("0.09502527352273117*log2(x) + 50.356989500000005")
    '0.0950252735227312*log2(x) + 50.3569895'
    >>> shown_text("536.185*x + 12410000.0"), shown_text("2.5e-07*x2**3 - 1e+20", 2)
    ('536.185*x + 12410000', '2.5e-07*x2**3 - 1e+20')
    >>> shown_text("123456789012345678901*x**(3/4)"), shown_text("1.0e-400*x + 0.0")
    ('123456789012345678901*x**(3/4)', '1.0e-400*x + 0')
    >>> shown_text("1.0*x + 1.0"), shown_text("2.0*x**(1/4) - 1.0*log2(x)"), shown_text("-1.0*x")
    ('x + 1', '2*x**(1/4) - log2(x)', '-x')
    """
    return _UNIT_COEFFICIENT.sub(r"\1", _LITERAL.sub(lambda m: _shown(m[0], digits), text))


#: a coefficient shown as 1 (``1*x``, ``- 1*log2(x)``), which sympy would not print
_UNIT_COEFFICIENT = re.compile(r"(^|[\s(+-])1\*(?=[A-Za-z(])")


def _shown(literal: str, digits: int | None) -> str:
    """One literal of :func:`shown_text`; as written where a double cannot hold it
    (``1.0e-400`` of a 100-bit Float)."""
    value = float(literal)
    zero = not literal.lower().partition("e")[0].strip("0.")
    if not math.isfinite(value) or (value == 0.0 and not zero):
        return literal
    return number_text(value, digits)


def bounds_text(low: float, high: float, least: int = 3, digits: int | None = None) -> tuple[str, str]:
    """An interval's ends by :func:`number_text` in the fewest significant digits, at least
    ``least``, that tell them apart (at most ``digits``, default :data:`DEFAULT_DIGITS`): an
    interval says how many digits mean something, but never shows as ``[141000000, 141000000]``.

    >>> bounds_text(6250000.1, 7520000.9), bounds_text(140557000.2, 140558350.7)
    (('6250000', '7520000'), ('140557000', '140558000'))
    >>> bounds_text(2.5, 2.5), bounds_text(0.1 + 0.2, 0.4, 5)
    (('2.5', '2.5'), ('0.3', '0.4'))
    """
    shown = digits_apart(low, high, least, digits)
    return number_text(low, shown), number_text(high, shown)


def digits_apart(low: float, high: float, least: int = 3, digits: int | None = None) -> int:
    """The fewest significant digits, at least ``least`` and at most ``digits`` (default
    :data:`DEFAULT_DIGITS`), in which :func:`number_text` tells ``low`` and ``high`` apart.

    >>> digits_apart(1.0, 1.0017), digits_apart(1.0013, 1.0017), digits_apart(2.5, 2.5, 3, 5)
    (4, 4, 5)
    """
    shown = least
    while number_text(low, shown) == number_text(high, shown) and shown < (digits or DEFAULT_DIGITS):
        shown += 1
    return shown


def float_digits(value: sympy.Float) -> int:
    """How many significant digits :func:`float_text` prints for ``value``.

    >>> float_digits(sympy.Float(1034.17)), float_digits(sympy.Float(0.001)), float_digits(sympy.Float(1/3))
    (6, 1, 16)
    """
    mantissa = float_text(value).lower().partition("e")[0].lstrip("-").replace(".", "")
    return max(1, len(mantissa.strip("0")))


class _Printer(StrPrinter):
    """sympy's text form, but floats print as the shortest decimal that reads back exactly
    (or in ``digits`` significant digits)."""

    _default_settings = {**StrPrinter._default_settings, "digits": None}

    def _print_Float(self, expr: sympy.Float) -> str:
        return float_text(expr, self._settings["digits"])

    def _print_Min(self, expr: sympy.Min) -> str:
        return "min(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Max(self, expr: sympy.Max) -> str:
        return "max(" + ", ".join(self._print(a) for a in expr.args) + ")"


_PRINTER = _Printer()


#: significant digits that round-trip any double
DOUBLE_DIGITS = 17


def value_digits(models: Iterable[sympy.Expr]) -> int:
    """The significant digits a value computed from ``models`` shows by default: enough for
    the models' own precision. Coefficients as short as ``1034.17`` get :data:`DEFAULT_DIGITS`
    (no float noise), a fitted ``1.012655257936508`` its 16, and exact models every digit of
    the double (:data:`DOUBLE_DIGITS`, the value's shortest round trip).

    >>> from patternalg.syntax.symbols import log2, x
    >>> value_digits([sympy.Float(1034.17) * x]), value_digits([sympy.Float(1.012655257936508) * x])
    (15, 16)
    >>> value_digits([x * log2(x), sympy.Integer(2) ** 53 + 1])
    17
    """
    digits = [float_digits(f) for model in models for f in model.atoms(sympy.Float)]
    return min(DOUBLE_DIGITS, max(DEFAULT_DIGITS, *digits)) if digits else DOUBLE_DIGITS



def format_expr(expr: sympy.Expr, digits: int | None = None) -> str:
    """Text form of an expression that the grammar reads back to the same expression (with
    ``digits``: every coefficient rounded to that many significant digits).

    >>> from patternalg.syntax.symbols import x
    >>> format_expr(sympy.Float(258.5425) * x * log2(x)), format_expr(sympy.Float(258.5425) * x, 3)
    ('258.5425*x*log2(x)', '259.0*x')
    """
    printer = _PRINTER if digits is None else _Printer({"digits": digits})
    if not expr.args:  # a number or a symbol (a term's counts, printed millions of times)
        return printer.doprint(expr)
    depth = _depth(expr)
    if depth <= _SHALLOW:
        return printer.doprint(expr)
    if depth > MAX_PRINTED_DEPTH:
        from ..errors import EvaluationError

        raise EvaluationError(
            f"the closed form nests {depth} levels deep, more than the {MAX_PRINTED_DEPTH} "
            f"that are printed; evaluate it at a point instead ({flag('at')})"
        )
    # sympy's printer recurses some five frames a level (a mapReduce nested 200 deep in a
    # symbolic n nests its coefficient 400 levels)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 6 * depth + 500))
    try:
        return printer.doprint(expr)
    finally:
        sys.setrecursionlimit(limit)


#: expressions up to this depth print within Python's default recursion limit
_SHALLOW = 100
#: the deepest closed form printed (its recursion then needs some 6,500 frames)
MAX_PRINTED_DEPTH = 1000


def _depth(expr: sympy.Basic) -> int:
    """How many levels ``expr`` nests (counted without recursion, stopping past
    :data:`MAX_PRINTED_DEPTH`).

    >>> from patternalg.syntax.symbols import x
    >>> _depth(x), _depth(1 + x / (2 + x))
    (1, 5)
    """
    deepest, stack = 0, [(expr, 1)]
    seen: dict[int, int] = {}  # a shared sub-expression's deepest level yet
    while stack and deepest <= MAX_PRINTED_DEPTH:
        node, level = stack.pop()
        if seen.get(id(node), 0) >= level:
            continue
        seen[id(node)] = level
        deepest = max(deepest, level)
        stack.extend((arg, level + 1) for arg in node.args)
    return deepest


#: the characters that mean something to LaTeX in math mode, and what writes each as text
_LATEX_SPECIAL = {
    "\\": "\\backslash{}",
    "{": "\\{",
    "}": "\\}",
    "_": "\\_",
    "^": "\\hat{}",
    "%": "\\%",
    "#": "\\#",
    "$": "\\$",
    "~": "\\sim{}",
    " ": "\\ ",
}


def latex_text(text: str) -> str:
    r"""``text`` (a name, a term, a unit) to be set as text in LaTeX's math mode, inside
    ``\mathrm{}`` or ``\mathtt{}``: every character LaTeX reads as a command escaped. The
    one escaping of every LaTeX this package writes.

    >>> print(latex_text("map_hadoop"), latex_text("%"), latex_text("mapReduce_{1,n}^{x,1}"))
    map\_hadoop \% mapReduce\_\{1,n\}\hat{}\{x,1\}
    """
    return "".join(_LATEX_SPECIAL.get(c, c) for c in text)


def latex_number(text: str) -> str:
    r"""A number as :func:`number_text` prints it, in LaTeX (an exponent as a power of 10).

    >>> print(latex_number("5422.97"), latex_number("-1.374e-394"), latex_number("1e+20"))
    5422.97 -1.374 \cdot 10^{-394} 10^{20}
    """
    mantissa, e, exponent = text.partition("e")
    if not e:
        return text
    power = f"10^{{{int(exponent)}}}"
    return power if mantissa == "1" else f"{mantissa} \\cdot {power}"


def latex_definition(name: str, symbols: Sequence[str], expr: sympy.Expr) -> str:
    r"""A model's definition in a notebook's LaTeX: ``name(symbols) = expr``, the name
    escaped, the arguments the symbols the model is in (none for a constant).

    >>> from patternalg.syntax.symbols import p, phi
    >>> print(latex_definition("map_hadoop", ["p", "phi"], 2 * p * phi), latex_definition("nop", [], sympy.Integer(5)))
    $\mathrm{map\_hadoop}(p, \phi) = 2 p \phi$ $\mathrm{nop} = 5$
    """
    arguments = ", ".join(sympy.latex(sympy.Symbol(name)) for name in symbols)
    head = f"\\mathrm{{{latex_text(name)}}}" + (f"({arguments})" if arguments else "")
    return f"${head} = {sympy.latex(expr)}$"
