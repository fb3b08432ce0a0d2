"""The checks of a machine's expressions, made once for every expression a machine holds:
a cost per data element (the hand-off; a pool's dispatch cost) is a real time of at least 0
for every x >= 1, and a speed-up a real number above 0 on every thread count 1 .. cores.

They are bounded as a model file's expressions are: the text is read by the safe arithmetic
(its literals and exponents bounded, :mod:`patternalg._internal.limits`), and values are
found in floating point (numpy, vectorised), never exactly: ``x^x`` at x = 10^12 or ``p^p^p``
at p = 64 is an overflow to infinity (of a known sign), not a number of 10^13 digits. A value
that is not real, or undefined (``sqrt(2 - x)`` at x = 3, ``log2(p - 1)`` at p = 1), is refused, naming
the point. Each error is an :class:`~patternalg.errors.ArgumentError` naming the argument of
:class:`~patternalg.algebra.machine.Machine` (a machine file's reader adds the file).

>>> from patternalg.syntax.symbols import p, x
>>> check_cost(machine_expression("x^x", "the hand-off", x, "handoff"), "the hand-off", "handoff")
>>> check_cost(machine_expression("sqrt(2 - x)", "the hand-off", x, "handoff"), "the hand-off", "handoff")
Traceback (most recent call last):
...
patternalg.errors.ArgumentError: handoff: the hand-off is a time per element, at least 0 for every x >= 1: sqrt(2 - x) is not a real number at x = 3
>>> check_speedup(machine_expression("(70 - p)/69", "the speed-up of k", p, "speedups['k']"), "k", 128)
Traceback (most recent call last):
...
patternalg.errors.ArgumentError: speedups['k']: the speed-up of k is positive on 1 to 128 threads: 70/69 - p/69 is 0 at p = 70
"""

from __future__ import annotations

import functools
import math
import numbers
from typing import Any

import sympy

from .._internal.json_values import finite_number
from .._internal.limits import MAX_CORES, printable
from ..arguments import as_int, wrong
from ..errors import ArgumentError, ParseError
from ..syntax.arith import format_expr, number_text
from ..syntax.parser import parse_arithmetic
from ..syntax.symbols import p, x
from .atomic_model import own_symbols

__all__ = ["machine_expression", "check_cost", "check_speedup", "check_cores", "COST_SIZES"]

#: the data sizes a cost per element is checked at: 1 .. 10^12, five a decade
COST_SIZES = tuple(sorted({round(10 ** (k / 5)) for k in range(61)}))


def check_cores(cores: Any, name: str = "cores") -> int:
    """``cores`` as an ``int`` if it is a whole number (Python's or numpy's) from 1 to
    :data:`MAX_CORES`, else an ArgumentError naming the argument ``name``.

    >>> import numpy as np
    >>> check_cores(2), check_cores(np.int64(4))
    (2, 4)
    >>> check_cores("4")
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: cores: expected a number of cores: an integer >= 1 and <= 1,048,576; got str '4'
    """
    return as_int(cores, name, 1, MAX_CORES, what="a number of cores")


def machine_expression(value: Any, what: str, variable: sympy.Symbol, name: str) -> sympy.Expr:
    """A number, a sympy expression or a text of the safe arithmetic (never ``sympify``), in
    ``variable`` only: the argument ``name`` of a machine, ``what`` it is.

    >>> machine_expression(5j, "the hand-off", x, "handoff")
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: handoff: expected the hand-off, a finite number or an expression in x (or its text, e.g. '100 + 0.5*x'); got complex 5j
    >>> machine_expression(10**400, "the hand-off", x, "handoff")
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: handoff: expected the hand-off, a finite number or an expression in x (or its text, e.g. '100 + 0.5*x'); got a very large int
    >>> machine_expression(sympy.oo, "the hand-off", x, "handoff")
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: handoff: expected the hand-off, a finite number or an expression in x (or its text, e.g. '100 + 0.5*x'); got Infinity oo
    >>> machine_expression(300 + sympy.Symbol("x") / 2, "the hand-off", x, "handoff").free_symbols == {x}
    True
    >>> machine_expression("1e400", "the wake", x, "wake")
    Traceback (most recent call last):
    ...
    patternalg.errors.ParseError: wake: line 1, column 1: number 1e400 is out of range: ^1e400
    """
    if isinstance(value, str):
        try:
            expr = parse_arithmetic(value)
        except ParseError as exc:  # named by its argument: a machine file says the key's line
            raise ParseError(f"{name}: {exc}") from None
    elif finite_number(value):
        expr = sympy.Integer(int(value)) if isinstance(value, numbers.Integral) else sympy.Float(float(value))
    elif isinstance(value, sympy.Expr) and not value.has(sympy.oo, -sympy.oo, sympy.zoo, sympy.nan):
        expr = own_symbols(value, name)  # a notebook's sympy.Symbol("x") is patternalg's x
    else:
        example = "100 + 0.5*x" if variable == x else "p/(1 + 0.05*(p - 1))"
        wanted = f"{what}, a finite number or an expression in {variable} (or its text, e.g. '{example}')"
        raise wrong(name, wanted, value)
    unknown = expr.free_symbols - {variable}
    if unknown:
        names = ", ".join(sorted(map(str, unknown)))
        raise ArgumentError(f"{name}: {what} is an expression in {variable} only (it has {printable(names)})")
    return expr


def _values(expr: sympy.Expr, variable: sympy.Symbol, points: Any) -> Any:
    """``expr`` at ``points`` (a float array) in double precision: an overflow is an
    infinity, a value that is not real or undefined is NaN."""
    import numpy as np

    if not expr.free_symbols:
        try:
            value = complex(expr.evalf(17))
        except (TypeError, ValueError, OverflowError):  # zoo, nan, beyond doubles
            value = complex(math.nan)
        scalar = value.real if value.imag == 0 else math.nan
        return np.full(points.shape, scalar)
    function = _lambdified(expr, variable)
    with np.errstate(all="ignore"):
        try:
            found = np.asarray(function(points))
        except (ValueError, TypeError, ZeroDivisionError, OverflowError):
            return np.full(points.shape, math.nan)
    if np.iscomplexobj(found):
        found = np.where(found.imag == 0, found.real, math.nan)
    return np.broadcast_to(np.asarray(found, dtype=float), points.shape)


@functools.lru_cache(maxsize=256)
def _lambdified(expr: sympy.Expr, variable: sympy.Symbol) -> Any:
    """``expr`` as a numpy function of ``variable`` (an expression of the safe arithmetic:
    its one symbol is the grammar's, never text of a user's)."""
    from .numpy_code import numpy_function

    return numpy_function([variable], expr)


def _first_bad(values: Any, good: Any) -> int | None:
    import numpy as np

    bad = np.flatnonzero(~good(values))
    return int(bad[0]) if len(bad) else None


def _shown(value: float) -> str:
    return "not a real number" if math.isnan(value) else number_text(value)


@functools.lru_cache(maxsize=1024)
def check_cost(expr: sympy.Expr, what: str, name: str) -> None:
    """An ArgumentError naming the argument ``name`` unless ``expr`` (in x) is a real number >= 0 at every size of
    :data:`COST_SIZES` (1 .. 10^12): a time per data element (the hand-off, a dispatch
    cost)."""
    if expr.is_Number and expr.is_finite and expr >= 0:
        return  # a constant cost, as a machine of so many cores has (0): no grid, no numpy
    import numpy as np

    sizes = np.array(COST_SIZES, dtype=float)
    values = _values(expr, x, sizes)
    bad = _first_bad(values, lambda v: v >= 0)  # NaN compares False
    if bad is not None:
        value = _shown(float(values[bad]))
        raise ArgumentError(
            f"{name}: {what} is a time per element, at least 0 for every x >= 1: "
            f"{printable(format_expr(expr))} is {value} at x = {COST_SIZES[bad]}"
        )


@functools.lru_cache(maxsize=1024)
def check_speedup(expr: sympy.Expr, name: str, cores: int) -> None:
    """An ArgumentError naming the argument ``speedups['name']`` unless ``expr`` (in p) is a real number > 0 on every thread count
    1 .. ``cores`` (a pool divides by it): all of them, in one numpy evaluation (a million
    cores: some 50 ms)."""
    import numpy as np

    threads = np.arange(1, check_cores(cores) + 1, dtype=float)
    values = _values(expr, p, threads)
    bad = _first_bad(values, lambda v: v > 0)
    if bad is not None:
        value = _shown(float(values[bad]))
        raise ArgumentError(
            f"speedups[{name!r}]: the speed-up of {name} is positive on 1 to {cores} threads: "
            f"{printable(format_expr(expr))} is {value} at p = {bad + 1}"
        )
