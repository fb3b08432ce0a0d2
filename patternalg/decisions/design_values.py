"""How ``explore`` counts and values a design, memoised per sub-term so that the designs a
search reaches share their parts' work: its threads (an atom or a pipe stage one thread,
``seq`` the larger part, ``pipe`` the sum, ``tpool_n`` n times its body), its text's length,
its value at a point (combined as the ranking's semantics says, on doubles) or its growth
(a normal form, without a point).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import sympy

from .._internal.surface import at_text, flag
from ..algebra.bindings import unread_sizes
from ..algebra.evaluation import evaluate
from ..algebra.fold import Arithmetic, SharedPlan, fold, model_symbols
from ..algebra.normal_forms.normal_form import NormalForm, compare_normal_forms, normal_form
from ..algebra.pointfold import Numbers
from ..algebra.semantics import Semantics
from ..errors import EvaluationError
from ..library.model_library import AtomicModel
from ..syntax.symbols import symbol
from ..syntax.terms import Atom, MapReduce, Pipe, Seq, Term, TPool, format_count

__all__ = ["DesignValues", "text_length", "thread_count"]


def thread_count(term: Term, memo: dict[Term, int] | None = None) -> int:
    """Threads a design occupies: atom 1, seq the larger part, pipe the sum, tpool_n n times.

    >>> from patternalg.syntax import parse
    >>> thread_count(parse("pipe(tpool_3(qsort), seq(inc, nop))"))
    4
    """
    memo = memo if memo is not None else {}
    for node in term.post_order(memo.__contains__):
        kids = [memo[c] for c in node.children()]
        if isinstance(node, Pipe):
            memo[node] = kids[0] + kids[1]
        elif isinstance(node, Seq):
            memo[node] = max(kids)
        elif isinstance(node, TPool):
            memo[node] = _int_count(node.count) * kids[0]
        elif isinstance(node, MapReduce):
            memo[node] = _int_count(node.nodes) * _int_count(node.threads)
        else:
            memo[node] = 1
    return memo[term]


def _int_count(count: sympy.Expr) -> int:
    if not count.is_Integer:
        raise EvaluationError(
            f"explore needs numeric thread counts, got {count} (bind it with {flag('at')})"
        )
    return int(count)


def text_length(term: Term, memo: dict[Term, int]) -> int:
    """``len(str(term))`` by a fold over the sub-terms not in ``memo`` (shared ones once).

    >>> from patternalg.syntax import parse
    >>> text_length(parse("pipe(tpool_3(qsort), seq(inc, nop))"), {})
    35
    >>> term = parse("mapReduce_{2,n}^{x,16}(seq(a, b), shuffle_{2,n}^{16}, inc)")
    >>> text_length(term, {}) == len(str(term))
    True
    """
    for node in term.post_order(memo.__contains__):
        if isinstance(node, Seq | Pipe):
            opener = len("seq(") if isinstance(node, Seq) else len("pipe(")
            memo[node] = opener + memo[node.left] + len(", ") + memo[node.right] + len(")")
        elif isinstance(node, TPool):
            memo[node] = len(f"tpool_{format_count(node.count)}()") + memo[node.body]
        elif isinstance(node, MapReduce):  # its own text around one-letter parts, then theirs
            bare = len(str(replace(node, map=_ONE, reduce=_ONE))) - 2
            memo[node] = bare + memo[node.map] + memo[node.reduce]
        else:
            memo[node] = len(str(node))
    return memo[term]


_ONE = Atom("a")  # a one-character part: what a mapReduce's text adds to its parts' is the rest


# --- values ----------------------------------------------------------------------------------
class _Floats(Arithmetic[Any]):
    """Doubles: the arithmetic ``explore``'s memoised fold combines in (a model at a point
    is evaluated as :class:`~patternalg.algebra.pointfold.Numbers` does, then rounded)."""

    def __init__(self, numbers: Numbers) -> None:
        self.numbers = numbers
        self.symbols: dict[sympy.Expr, tuple[sympy.Symbol, ...]] = {}
        self.leaves: dict[tuple[sympy.Expr, tuple[Any, ...]], float] = {}

    def leaf(self, expr: sympy.Expr, context: Mapping[sympy.Symbol, Any]) -> float:
        names = self.symbols.get(expr)
        if names is None:
            names = self.symbols[expr] = tuple(expr.free_symbols)
        key = (expr, tuple(context.get(s) for s in names))
        found = self.leaves.get(key)
        if found is None:
            bound = {s: _exact(context[s]) for s in names if s in context}
            found = self.leaves[key] = float(self.numbers.leaf(expr, bound))
        return found

    def add(self, left: float, right: float) -> float:
        return left + right

    def divide(self, body: float, count: float) -> float:
        return body / count

    def larger(self, left: float, right: float) -> tuple[float, int]:
        return (left, 0) if left >= right else (right, 1)

    def smaller(self, left: float, right: float) -> float:
        return min(left, right)

    def multiply(self, left: float, right: float) -> float:
        return left * right

    def constant(self, value: float) -> float:
        return value


def _exact(value: Any) -> sympy.Expr:
    """A value of the context as sympy takes it (a double as a float of its own digits)."""
    return value if isinstance(value, sympy.Basic) else sympy.Float(value)


class DesignValues:
    """Values of designs, memoised per sub-term: pointwise at a point (the one fold,
    :func:`~patternalg.algebra.fold.fold`, combining as ``semantics`` says on doubles,
    each part once per context it runs in), or normal forms."""

    def __init__(
        self,
        library: Mapping[str, AtomicModel],
        at: Mapping[str, sympy.Expr],
        semantics: Semantics = Semantics.EXACT,
    ) -> None:
        self.library, self.at, self.semantics = library, at, semantics
        self.mapping = {symbol(k): v for k, v in at.items()}
        self.arithmetic = _Floats(Numbers(at_text(", ".join(f"{k}={v}" for k, v in at.items()))))
        self.plan = SharedPlan(library, semantics)
        self.memo: dict[tuple[Term, frozenset], Any] = {}
        self.values: dict[Term, float] = {}
        self.forms: dict[Term, NormalForm] = {}

    def number(self, term: Term) -> float:
        """The pointwise model at the point (a pipe is the larger stage there)."""
        found = self.values.get(term)
        if found is None:
            try:
                found = self._fold(term, self.mapping)
            except EvaluationError as error:  # a symbol without a value: where, or is it unread?
                own = model_symbols(term, self.library, self.semantics)
                unread = unread_sizes(term, own, self.at, self.semantics.reads())
                if not unread:
                    raise self._unbound(term) or error from None
                found = self._fold(term, {**self.mapping, **unread})  # any value gives the same
            self.values[term] = found
        return found

    def _unbound(self, term: Term) -> EvaluationError | None:
        """The error naming an atom of ``term`` whose model has a symbol the point does not give."""
        for node in term.walk():
            if isinstance(node, Atom):
                free = {s.name for s in self.plan.model(node).free_symbols} - set(self.at)
                if free:
                    return EvaluationError(f"{node}: no value for {', '.join(sorted(free))} (bind it with {flag('at')})")
        return None

    def _fold(self, term: Term, context: Mapping[sympy.Symbol, sympy.Expr]) -> float:
        folded = fold(term, self.library, self.arithmetic, context, plan=self.plan, semantics=self.semantics, memo=self.memo)
        return float(folded.value)

    def relation_holds(self, relation: str, before: Term, after: Term) -> bool:
        """Whether ``before relation after`` (``>=``, ``<=``, ``==``) holds at the point,
        to a relative 1e-9."""
        a, b = self.number(before), self.number(after)
        slack = 1e-9 * max(abs(a), abs(b))
        if relation == ">=":
            return a >= b - slack
        if relation == "<=":
            return a <= b + slack
        return abs(a - b) <= slack

    def slower_at_point(self, pipe: Pipe) -> int:
        """0 if the left stage is the slower one at the point, else 1."""
        return 0 if self.number(pipe.left) >= self.number(pipe.right) else 1

    def slower_asymptotically(self, pipe: Pipe) -> int:
        """0 if the left stage grows at least as fast, else 1."""
        order = compare_normal_forms(self.form(pipe.left), self.form(pipe.right))
        return 0 if (order or 0) >= 0 else 1

    def growth(self, term: Term) -> tuple[tuple[float, float, float], ...]:
        """A sort key in the order of growth: the terms (i, j, c), fastest first (models
        are times, their coefficients positive, so tuples compare as the models grow)."""
        return tuple((float(i), float(j), float(c)) for (i, j), c in self.form(term).items())

    def form(self, term: Term) -> NormalForm:
        """The asymptotic closed form as a normal form (for ranking without a point)."""
        for node in term.post_order(self.forms.__contains__):
            if isinstance(node, Seq):
                value = self.forms[node.left] + self.forms[node.right]
            elif isinstance(node, Pipe):
                a, b = self.forms[node.left], self.forms[node.right]
                value = a if (compare_normal_forms(a, b) or 0) >= 0 else b
            elif isinstance(node, TPool):
                value = self.forms[node.body].scaled(sympy.Pow(node.count, -1))
            else:
                expr = evaluate(node, self.library).xreplace(self.mapping)
                found = normal_form(expr)
                if found is None:
                    raise EvaluationError(
                        f"{node}: its model is not in normal form; rank designs at a point "
                        f"with {at_text('x=...')}"
                    )
                free = {s.name for _, c in found.items() for s in c.free_symbols}
                if free:  # a growth in x with a coefficient in p is no rank
                    raise EvaluationError(
                        f"{node}: no value for {', '.join(sorted(free))} (bind it with {flag('at')})"
                    )
                value = found
            self.forms[node] = value
        return self.forms[term]
