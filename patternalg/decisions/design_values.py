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

from ..algebra.bindings import unread_sizes
from ..algebra.evaluation import evaluate
from ..algebra.fold import MAP, REDUCE, Arithmetic, mapreduce_form, model_symbols
from ..algebra.normal_forms.normal_form import NormalForm, compare_normal_forms, normal_form
from ..algebra.pointfold import Numbers
from ..algebra.pointwise import at_point
from ..algebra.semantics import Semantics
from ..errors import EvaluationError
from ..library.model_library import AtomicModel
from ..syntax.symbols import symbol, x
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
            f"explore needs numeric thread counts, got {count} (bind it with --at)"
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
    """Doubles: the arithmetic a semantics combines ``explore``'s memoised values in."""

    def leaf(self, expr: sympy.Expr, context: Mapping[sympy.Symbol, Any]) -> float:
        return float(expr.xreplace(dict(context)))

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


class DesignValues:
    """Values of designs, memoised per sub-term: pointwise at a point (combined as
    ``semantics`` says, on doubles), or normal forms."""

    def __init__(
        self,
        library: Mapping[str, AtomicModel],
        at: Mapping[str, sympy.Expr],
        semantics: Semantics = Semantics.EXACT,
    ) -> None:
        self.library, self.at, self.semantics = library, at, semantics
        self.floats = _Floats()
        self.mapping = {symbol(k): v for k, v in at.items()}
        self.numbers: dict[tuple[tuple[str, sympy.Expr], ...], dict[Term, Any]] = {}
        self.arithmetic = Numbers(f"--at {', '.join(f'{k}={v}' for k, v in at.items())}")
        self.forms: dict[Term, NormalForm] = {}
        self.entering = semantics.enters()  # as the fold

    def number(self, term: Term) -> float:
        """The pointwise model at the point (a pipe is the larger stage there)."""
        return float(self.semantics.lower(self._at(term, self.mapping)))

    def _at(self, term: Term, context: Mapping[sympy.Symbol, sympy.Expr]) -> Any:
        """``term`` at ``context``, each sub-term once per context: a mapReduce's parts at the
        sizes eq. (5) runs them at (map at x = 1, reduce at x = d(x)), without recursion."""
        stack: list[tuple[Term, Mapping[sympy.Symbol, sympy.Expr], bool]] = [(term, context, False)]
        while stack:
            node, here, ready = stack.pop()
            memo = self._memo(here)
            if node in memo:
                continue
            parts = self._parts(node, here)
            pending = [(c, h) for c, h in parts if c not in self._memo(h)]
            if pending and not ready:
                stack.append((node, here, True))
                stack.extend((c, h, False) for c, h in pending)
                continue
            memo[node] = self._combine(node, here, [self._memo(h)[c] for c, h in parts])
        return self._memo(context)[term]

    def _memo(self, context: Mapping[sympy.Symbol, sympy.Expr]) -> dict[Term, Any]:
        key = tuple(sorted((s.name, v) for s, v in context.items()))
        return self.numbers.setdefault(key, {})

    def _parts(
        self, node: Term, here: Mapping[sympy.Symbol, sympy.Expr]
    ) -> list[tuple[Term, Mapping[sympy.Symbol, sympy.Expr]]]:
        """``node``'s parts, each with the context it runs in: a mapReduce's at the sizes
        eq. (5) runs them at, and as the semantics tells them where they run (as the fold
        does: on a machine with speed-ups, the threads of the pools around a part)."""
        parts: list[tuple[Term, Mapping[sympy.Symbol, sympy.Expr]]]
        if isinstance(node, MapReduce):
            if node.per_key.free_symbols - set(here):  # d beside a constant reduce: any value
                own = model_symbols(node, self.library, self.semantics)
                here = {**here, **unread_sizes(node, own, [s.name for s in here])}
            size = self.arithmetic.leaf(node.per_key, here)
            parts = [(node.map, {**here, x: sympy.Integer(1)}), (node.reduce, {**here, x: size})]
        else:
            parts = [(c, here) for c in node.children()]
        if self.entering:
            parts = [(c, self.semantics.enter(self.floats, node, dict(h))) for c, h in parts]
        return parts

    def _combine(self, node: Term, here: Mapping[sympy.Symbol, sympy.Expr], parts: list[Any]) -> Any:
        semantics, floats = self.semantics, self.floats
        if isinstance(node, Seq):
            return semantics.seq(floats, parts[0], parts[1])
        if isinstance(node, Pipe):
            return semantics.pipe(floats, parts[0], parts[1])[0]
        if isinstance(node, TPool):
            return semantics.tpool(floats, float(node.count.xreplace(here)), parts[0])
        if isinstance(node, MapReduce):  # eq. (5), the one definition, with its parts' values
            form = mapreduce_form(node, self.library, semantics)
            low = [sympy.Float(semantics.lower(part)) for part in parts]
            value = float(self.arithmetic.leaf(form, {**here, MAP: low[0], REDUCE: low[1]}))
            return semantics.lift(floats, node, value, here, self.library)
        at = {s.name: v for s, v in here.items()}  # an atom: the reference evaluation
        expr = at_point(node, self.library, at, partial=True).expr
        if expr.free_symbols:  # float() of it was a TypeError
            names = ", ".join(sorted(s.name for s in expr.free_symbols))
            raise EvaluationError(f"{node}: no value for {names} (bind it with --at)")
        return semantics.lift(floats, node, float(expr), here, self.library)

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
                        "with --at x=..."
                    )
                free = {s.name for _, c in found.items() for s in c.free_symbols}
                if free:  # a growth in x with a coefficient in p is no rank
                    raise EvaluationError(
                        f"{node}: no value for {', '.join(sorted(free))} (bind it with --at)"
                    )
                value = found
            self.forms[node] = value
        return self.forms[term]
