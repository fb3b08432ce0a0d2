"""Linear budgets on thread counts: ``a+b<=24``, ``2*a + b <= 32``, ``a >= 2``.

>>> b = parse_budget("a + 2*b <= 24", ("a", "b"))
>>> b.coefficients, b.bound
((1.0, 2.0), 24.0)
>>> parse_budget("a*b <= 24", ("a", "b"))
Traceback (most recent call last):
...
patternalg.errors.EvaluationError: budget='a*b <= 24': not linear in a, b (a budget is a sum of counts times numbers, e.g. a+b<=24)
>>> parse_budget("threads <= 4", ("a", "b"))
Traceback (most recent call last):
...
patternalg.errors.EvaluationError: budget='threads <= 4': names no free thread count (free: a, b): a budget sums them, e.g. a+b<=24; threads=N bounds the threads the design runs in all
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import sympy

from .._internal.surface import flag
from ..algebra.machine import threads_text
from ..errors import EvaluationError, ParseError
from ..syntax.arith import number_text
from ..syntax.parser import parse_arithmetic
from ..syntax.symbols import symbol

__all__ = ["Budget", "parse_budget", "thread_budgets", "too_small", "upper_bounds", "assignments_at_most"]

#: the most budgets one ``--threads`` becomes (a maximum inside a sum is a budget per pair)
MOST_THREAD_BUDGETS = 64

_RELATION = re.compile(r"<=|>=|<|>|==")


@dataclass(frozen=True)
class Budget:
    """``coefficients . counts <= bound`` (strict: ``<``), over the free counts in order."""

    text: str
    coefficients: tuple[float, ...]
    bound: float
    strict: bool = False

    def holds(self, assignments: np.ndarray) -> np.ndarray:
        """Which rows of ``assignments`` (one column per count) satisfy the budget."""
        total = assignments @ np.array(self.coefficients)
        slack = 1e-9 * max(1.0, abs(self.bound))
        return total < self.bound - slack if self.strict else total <= self.bound + slack


def parse_budget(text: str, names: Sequence[str], unread: Mapping[str, str] | None = None) -> Budget:
    """Parse ``LHS REL RHS`` (REL one of <=, <, >=, >, ==) as a linear budget over ``names``;
    a symbol of ``unread`` (a count nothing reads -> why) is refused with why.

    ``==`` is not a budget; ``>=`` and ``>`` are turned around.

    >>> parse_budget("a+b<=6", ["a"], {"b": "qsort ignores p (its model has no p)"})
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: budget='a+b<=6': b changes nothing, so optimize does not choose it: qsort ignores p (its model has no p); leave it out of the budget
    """
    where = flag("budget", repr(text))
    parts = _RELATION.split(text)
    relations = _RELATION.findall(text)
    if len(relations) != 1 or relations[0] == "==":
        raise EvaluationError(f"{where}: expected one of <=, <, >=, > between two sides, e.g. a+b<=24")
    try:
        lhs, rhs = (parse_arithmetic(p) for p in parts)
    except ParseError as exc:
        raise EvaluationError(f"{where}: {exc}") from None
    relation = relations[0]
    expr = sympy.expand(lhs - rhs if relation in ("<=", "<") else rhs - lhs)
    used = {s.name for s in expr.free_symbols}
    ignored = sorted(used & set(unread or {}))
    if ignored:
        raise EvaluationError(
            f"{where}: {ignored[0]} changes nothing, so optimize does not choose it: "
            f"{(unread or {})[ignored[0]]}; leave it out of the budget"
        )
    if not used & set(names):
        free = ", ".join(names) or "none"
        sums = f"a budget sums them, e.g. {'+'.join(names)}<=24; " if names else ""
        raise EvaluationError(
            f"{where}: names no free thread count (free: {free}): {sums}"
            f"{flag('threads', 'N')} bounds the threads the design runs in all"
        )
    if used - set(names):
        unknown = ", ".join(sorted(used - set(names)))
        raise EvaluationError(
            f"{where}: {unknown} is not a free thread count (free: {', '.join(names)})"
        )
    variables = [symbol(n) for n in names]
    try:
        poly = sympy.Poly(expr, *variables)
    except sympy.PolynomialError:
        poly = None
    if poly is None or poly.total_degree() > 1 or not all(c.is_number for c in poly.coeffs()):
        raise EvaluationError(
            f"{where}: not linear in {', '.join(names)} (a budget is a sum of counts times "
            "numbers, e.g. a+b<=24)"
        )
    coefficients = tuple(float(poly.coeff_monomial(v)) for v in variables)
    constant = float(poly.coeff_monomial(1))
    return Budget(text, coefficients, -constant, relation in ("<", ">"))


def too_small(budget: Budget, names: Sequence[str]) -> str | None:
    """Why ``budget`` (over the counts ``names``, each 1 or more) allows no assignment at
    all where that is plain: its coefficients are nonnegative and every count at 1 exceeds
    it; else None.

    >>> too_small(parse_budget("a+b<=1", ("a", "b")), ("a", "b"))
    'the budget a+b<=1 is too small: with a, b at their least, 1 each (a pool needs 1 or more threads), it comes to 2, above 1'
    >>> too_small(parse_budget("a+b<=2", ("a", "b")), ("a", "b")) is None
    True
    """
    if any(c < 0 for c in budget.coefficients) or budget.holds(np.ones((1, len(names))))[0]:
        return None
    used = [n for n, c in zip(names, budget.coefficients, strict=True) if c]
    least = number_text(sum(budget.coefficients))
    at_least = "at its least, 1" if len(used) == 1 else "at their least, 1 each"
    return (
        f"the budget {budget.text} is too small: with {', '.join(used)} {at_least} (a pool needs 1 or more "
        f"threads), it comes to {least}, {'not below' if budget.strict else 'above'} {number_text(budget.bound)}"
    )


def upper_bounds(budgets: Sequence[Budget], count: int) -> list[float]:
    """Each count's largest value that some assignment of counts >= 1 allows (inf if none)."""
    upper = [np.inf] * count
    for _ in range(count + 1):  # propagate bounds through budgets with negative coefficients
        for budget in budgets:
            for v, a in enumerate(budget.coefficients):
                if a <= 0:
                    continue
                rest = sum(
                    c * 1.0 if c > 0 else c * upper[w]
                    for w, c in enumerate(budget.coefficients)
                    if w != v and c != 0
                )
                if np.isfinite(rest):
                    room = (budget.bound - rest) / a
                    top = np.ceil(room - 1e-9) - 1 if budget.strict else np.floor(room + 1e-9)
                    upper[v] = min(upper[v], top)
    return upper


def assignments_at_most(budgets: Sequence[Budget], upper: Sequence[float]) -> float:
    """An upper bound of the assignments of counts >= 1 within ``upper`` and the budgets: the
    box of ``upper``, or less where a budget of nonnegative coefficients cuts a simplex out
    of it (each assignment's unit cube lies in ``c . z <= B`` with z >= 0, whose volume is
    ``B^k / (k! prod c)``; the counts it leaves out keep their ``upper``).

    >>> a_b_c_d = Budget("a+b+c+d<=64", (1.0, 1.0, 1.0, 1.0), 64.0)
    >>> upper = upper_bounds([a_b_c_d], 4)
    >>> int(math.prod(upper)), round(assignments_at_most([a_b_c_d], upper))  # 635,376 there are
    (13845841, 699051)
    """
    upper = [float(u) for u in upper]  # Python floats: beyond 1e308 is inf, no warning
    if any(u < 1 for u in upper):  # a count with no value at all (a<1): none
        return 0.0
    best = math.prod(upper)
    for budget in budgets:
        inside = [c for c in budget.coefficients if c > 0]
        if any(c < 0 for c in budget.coefficients) or not inside or budget.bound <= 0:
            continue
        outside = math.prod(u for u, c in zip(upper, budget.coefficients, strict=True) if c == 0)
        k = len(inside)  # in logarithms: a bound of 1e300 squared is no float
        log_simplex = k * math.log(budget.bound) - math.lgamma(k + 1) - sum(map(math.log, inside))
        if log_simplex < min(math.log(best), 700.0):  # e^700: still a float
            best = min(best, math.exp(log_simplex) * outside)
    return best


def thread_budgets(threads: sympy.Expr, most: int) -> list[str]:
    """The linear budgets that hold exactly where a design running ``threads`` threads
    (:func:`~patternalg.algebra.machine.threads_needed`: sums, maxima and multiples of its
    counts) runs at most ``most``: a maximum is at most ``most`` where each of its arguments
    is, and a sum of maxima is the maximum of the sums.

    >>> from patternalg.syntax.symbols import symbol
    >>> a, b, c = symbol("a"), symbol("b"), symbol("c")
    >>> thread_budgets(a + b, 8)
    ['a + b <= 8']
    >>> thread_budgets(sympy.Max(a, b, evaluate=False) + 2 * c + 1, 16)
    ['a + 2*c + 1 <= 16', 'b + 2*c + 1 <= 16']
    >>> thread_budgets(sympy.Max(2, a, evaluate=False), 8)  # a seq beside a pool of two
    ['a <= 8']
    >>> thread_budgets(a * b, 8)
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: threads=8: the design runs a*b threads, not a sum of counts times numbers: give its budget with budget=
    """
    from ..syntax.arith import format_expr

    def alternatives(expr: sympy.Expr) -> list[sympy.Expr]:
        if expr.is_number or expr.is_Symbol:
            return [expr]
        if isinstance(expr, sympy.Max):
            return [alt for arg in expr.args for alt in alternatives(arg)]
        if expr.is_Add:
            found = [sympy.Integer(0)]
            for arg in expr.args:
                found = [f + alt for f in found for alt in alternatives(arg)]
                if len(found) > MOST_THREAD_BUDGETS:
                    break
            return found
        if expr.is_Mul:
            numbers = [f for f in expr.args if f.is_number]
            rest = [f for f in expr.args if not f.is_number]
            if len(rest) == 1 and all(n > 0 for n in numbers):
                return [sympy.Mul(*numbers) * alt for alt in alternatives(rest[0])]
        raise _refused(threads, most, "not a sum of counts times numbers: give its budget")

    found = list(dict.fromkeys(alternatives(threads)))
    if len(found) > MOST_THREAD_BUDGETS:
        raise _refused(threads, most, f"more than {MOST_THREAD_BUDGETS} budgets' worth of maxima: give its budgets")
    if any(_degree(alt) > 1 for alt in found):
        raise _refused(threads, most, "not a sum of counts times numbers: give its budget")
    fixed = [alt for alt in found if alt.is_number]  # threads no count changes: holds or not
    if any(alt > most for alt in fixed):
        raise EvaluationError(f"{flag('threads', str(most))}: the design runs {threads_text(max(fixed))} threads whatever its counts")
    return [f"{format_expr(alt)} <= {most}" for alt in found if not alt.is_number]


def _degree(expr: sympy.Expr) -> int:
    """The total degree of ``expr`` in its symbols (2 where it is not a polynomial)."""
    try:
        return int(sympy.Poly(expr, *sorted(expr.free_symbols, key=str)).total_degree()) if expr.free_symbols else 0
    except sympy.PolynomialError:
        return 2


def _refused(threads: sympy.Expr, most: int, why: str) -> EvaluationError:
    """``--threads``' one line where its budgets cannot be written: the threads, and why."""
    return EvaluationError(f"{flag('threads', str(most))}: the design runs {threads_text(threads)} threads, {why} with {flag('budget')}")
