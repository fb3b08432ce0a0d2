"""The composition operators M[.] of the paper and the evaluator of terms.

``seq`` adds (eq. 2), ``tpool_n`` divides by n (eq. 3), ``pipe`` takes the slower stage
(eq. 4) and ``mapReduce`` sums its three phases (eq. 5). The meaning of "slower" is a
:class:`Semantics`: ``asymptotic`` (the paper's: the stage with the worse O-scaling in x)
or ``exact`` (the pointwise maximum).

>>> from patternalg.syntax import parse
>>> from patternalg.library import ModelLibrary
>>> lib = ModelLibrary.builtin()
>>> evaluate(parse("pipe(tpool_4(qsort), inc)"), lib)
258.5425*x*log2(x)
>>> evaluate(parse("tpool_n(qsort)"), lib)
1034.17*x*log2(x)/n
>>> evaluate(parse("pipe(inc, nop)"), lib, Semantics.EXACT)
Max(5422.97, 536.185*x)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field

import sympy

from . import asymptotics
from .arith import format_expr
from .asymptotics import NormalForm, compare_normal_forms, normal_form
from .bindings import substitute
from .errors import EvaluationError, PatternalgError
from .library import AtomicModel
from .symbols import m as m_symbol
from .symbols import n as n_symbol
from .symbols import o as o_symbol
from .symbols import symbol, x
from .terms import Atom, MapReduce, Meta, Pipe, Seq, Term, TPool

__all__ = [
    "Semantics",
    "evaluate",
    "Derivation",
    "Step",
    "m_seq",
    "m_tpool",
    "m_pipe",
    "m_mapreduce",
    "RESOURCE_SYMBOLS",
]

#: symbols that annotations may bind on atoms whose models do not use them
RESOURCE_SYMBOLS = frozenset({"p", "phi"})
_SHIFT = sympy.Symbol("_x_minus_1", nonnegative=True)


class Semantics(enum.Enum):
    """How ``pipe`` chooses its bottleneck stage."""

    ASYMPTOTIC = "asymptotic"  #: the stage with the worse O-scaling in x (the paper's eq. 4)
    EXACT = "exact"  #: the pointwise maximum, simplified under x >= 1

    @classmethod
    def of(cls, value: Semantics | str) -> Semantics:
        """Accept a member or its name: ``Semantics.of("exact")``."""
        if isinstance(value, Semantics):
            return value
        try:
            return cls(value)
        except ValueError:
            raise EvaluationError(
                f"unknown semantics {value!r} (valid: asymptotic, exact)"
            ) from None

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Step:
    """One line of a derivation: a sub-term, its model, and what was decided there."""

    term: Term
    model: sympy.Expr
    depth: int
    note: str = ""


@dataclass
class Derivation:
    """The record of an evaluation, for ``--explain``: steps in pre-order."""

    steps: list[Step] = field(default_factory=list)
    atoms: dict[str, AtomicModel] = field(default_factory=dict)
    undecided: int = 0


# --- the composition operators --------------------------------------------------------------
def m_seq(left: sympy.Expr, right: sympy.Expr) -> sympy.Expr:
    """Eq. (2): M[seq(f1, f2)] = M[f1] + M[f2]."""
    return sympy.Add(left, right)


def m_tpool(count: sympy.Expr, body: sympy.Expr) -> sympy.Expr:
    """Eq. (3): M[tpool_n(task)] = M[task] / n."""
    return sympy.Mul(body, sympy.Pow(count, -1))


def _tie_break(a: sympy.Expr, b: sympy.Expr) -> int:
    return 1 if sympy.default_sort_key(a) >= sympy.default_sort_key(b) else -1


def _asymptotic_max(a: sympy.Expr, b: sympy.Expr) -> tuple[sympy.Expr, int | None]:
    order = asymptotics.compare(a, b)
    if order is None:
        return sympy.Max(a, b), None
    if order == 0:
        order = _tie_break(a, b)
    return (a, 0) if order > 0 else (b, 1)


#: points where a claimed dominance is tried numerically before sympy is asked to prove it
_PROBES = (1, 2, 1024, 2**20, 2**40)


def _violated_somewhere(difference: sympy.Expr) -> bool:
    """Whether ``difference`` is negative at one of the probe points (cheap refutation)."""
    if difference.free_symbols - {x}:
        return False
    for point in _PROBES:
        try:
            if float(difference.xreplace({x: sympy.Integer(point)})) < 0:
                return True
        except TypeError:  # not a real number there
            return False
    return False


def _dominated(small: sympy.Expr, big: sympy.Expr) -> bool:
    """Whether ``small <= big`` for every x >= 1 (as far as sympy can tell)."""
    difference = big - small
    form = normal_form(difference)
    if form is not None and all(c.is_nonnegative for _, c in form.items()):
        return True  # x^i and log2(x)^j are nonnegative for x >= 1
    if _violated_somewhere(difference):
        return False
    shifted = difference.xreplace({x: _SHIFT + 1}).rewrite(sympy.log)
    return bool(sympy.expand(shifted).is_nonnegative)


def _exact_max(a: sympy.Expr, b: sympy.Expr) -> tuple[sympy.Expr, int | None]:
    """Pointwise maximum; arguments that are never the maximum for x >= 1 are dropped."""
    args = list(dict.fromkeys([*sympy.Max.make_args(a), *sympy.Max.make_args(b)]))
    kept: list[sympy.Expr] = []
    for i, arg in enumerate(args):
        # drop arg if another argument is at least as large everywhere (ties keep the first)
        beaten = any(
            _dominated(arg, other) and (j < i or not _dominated(other, arg))
            for j, other in enumerate(args)
            if j != i
        )
        if not beaten:
            kept.append(arg)
    result = sympy.Max(*kept)
    if result == a:
        return a, 0
    if result == b:
        return b, 1
    return result, None


def m_pipe(
    left: sympy.Expr, right: sympy.Expr, semantics: Semantics = Semantics.ASYMPTOTIC
) -> tuple[sympy.Expr, int | None]:
    """Eq. (4): M[pipe(s1, s2)] = max(M[s1], M[s2]); returns the model and the bottleneck.

    The bottleneck is 0 (left), 1 (right) or None when the maximum stays symbolic.

    >>> from patternalg.symbols import x
    >>> m_pipe(536.185 * x, sympy.Float(5422.97))
    (536.185*x, 0)
    """
    if semantics is Semantics.EXACT:
        return _exact_max(left, right)
    return _asymptotic_max(left, right)


def m_mapreduce(
    nodes: sympy.Expr,
    threads: sympy.Expr,
    per_key: sympy.Expr,
    keys: sympy.Expr,
    map_model: sympy.Expr,
    shuffle_model: sympy.Expr,
    shuffle_keys: sympy.Expr,
    reduce_model: sympy.Expr,
) -> sympy.Expr:
    """Eq. (5): x*M[map](1)/(m*n) + M[shuffle_{m,n}^{o}](d(x)) + k(x)*M[reduce](d(x))/(m*n).

    The shuffle model is a model in x (elements per key), m, n and o (keys).
    """
    workers = sympy.Mul(nodes, threads)
    map_phase = sympy.Mul(x, map_model.xreplace({x: sympy.Integer(1)}), sympy.Pow(workers, -1))
    shuffle_phase = shuffle_model.xreplace(
        {m_symbol: nodes, n_symbol: threads, o_symbol: shuffle_keys, x: per_key}
    )
    reduce_phase = sympy.Mul(keys, reduce_model.xreplace({x: per_key}), sympy.Pow(workers, -1))
    return sympy.Add(map_phase, shuffle_phase, reduce_phase)


# --- the evaluator --------------------------------------------------------------------------
class _Value:
    """A sub-term's model, held as a sympy expression, a normal form, or both (lazily).

    Sums and task pools of normal forms stay normal forms, and pipes compare them
    directly, so big terms never pay for sympy's ``expand``.
    """

    __slots__ = ("_expr", "_normal", "_tried")

    def __init__(self, expr: sympy.Expr | None = None, normal: NormalForm | None = None) -> None:
        self._expr, self._normal, self._tried = expr, normal, normal is not None

    @property
    def expr(self) -> sympy.Expr:
        if self._expr is None:
            assert self._normal is not None
            self._expr = self._normal.to_expr()
        return self._expr

    @property
    def normal(self) -> NormalForm | None:
        if not self._tried:
            self._tried = True
            self._normal = normal_form(self.expr)
        return self._normal


def _seq_value(left: _Value, right: _Value) -> _Value:
    if left.normal is not None and right.normal is not None:
        return _Value(normal=left.normal + right.normal)
    return _Value(m_seq(left.expr, right.expr))


def _tpool_value(count: sympy.Expr, body: _Value) -> _Value:
    if body.normal is not None:
        return _Value(normal=body.normal.scaled(sympy.Pow(count, -1)))
    return _Value(m_tpool(count, body.expr))


def _pipe_value(left: _Value, right: _Value, semantics: Semantics) -> tuple[_Value, int | None]:
    if semantics is Semantics.ASYMPTOTIC and left.normal is not None and right.normal is not None:
        order = compare_normal_forms(left.normal, right.normal)
        if order is not None:  # 0 only for equal normal forms: either stage is the model
            return (left, 0) if order >= 0 else (right, 1)
    result, winner = m_pipe(left.expr, right.expr, semantics)
    return _Value(result), winner


def _atom_model(atom: Atom, library: Mapping[str, AtomicModel]) -> tuple[sympy.Expr, AtomicModel]:
    model = library[atom.name]
    if not atom.annotations:
        return model.expr, model
    names = {s.name for s in model.expr.free_symbols}
    bindings = {}
    for key, value in atom.annotations:
        if key not in names and key not in RESOURCE_SYMBOLS:
            raise EvaluationError(
                f"annotation {key}= on {atom.name}: its model has no symbol {key} "
                f"(its symbols: {', '.join(sorted(names)) or 'none'})"
            )
        bindings[symbol(key)] = value
    return substitute(model.expr, bindings, str(atom)), model


def _shuffle_model(
    term: MapReduce, library: Mapping[str, AtomicModel]
) -> tuple[sympy.Expr, sympy.Expr, str]:
    if term.shuffle is None:
        return library["shuffle"].expr, term.keys, "shuffle"
    sh = term.shuffle
    if sh.nodes != term.nodes or sh.threads != term.threads:
        raise EvaluationError(
            f"{sh}: the shuffle's m,n must be the mapReduce's "
            f"{{{format_expr(term.nodes)},{format_expr(term.threads)}}}"
        )
    return library[sh.name].expr, sh.keys, sh.name


def evaluate(
    term: Term,
    library: Mapping[str, AtomicModel] | None = None,
    semantics: Semantics | str = Semantics.ASYMPTOTIC,
    *,
    derivation: Derivation | None = None,
    metavariables: Mapping[str, sympy.Expr] | None = None,
) -> sympy.Expr:
    """The closed-form model M[term] as a sympy expression in x (and other symbols).

    ``metavariables`` gives models for the metavariables of a law (``A``, ``B``);
    ``derivation``, if given, is filled with every sub-term's model (for ``--explain``).
    Nothing recurses on the depth of the term.
    """
    if library is None:
        from .library import ModelLibrary

        library = ModelLibrary.builtin()
    semantics = Semantics.of(semantics)
    memo: dict[int, _Value] = {}
    notes: dict[int, str] = {}
    # post-order with an explicit stack: (node, children done?)
    stack: list[tuple[Term, bool]] = [(term, False)]
    while stack:
        node, ready = stack.pop()
        key = id(node)
        if key in memo:
            continue
        children = node.children()
        if not ready and children:
            stack.append((node, True))
            stack.extend((c, False) for c in reversed(children) if id(c) not in memo)
            continue
        memo[key], notes[key] = _combine(node, memo, library, semantics, metavariables, derivation)
    if derivation is not None:
        _record(term, memo, notes, derivation)
    return memo[id(term)].expr


def _combine(
    node: Term,
    memo: dict[int, _Value],
    library: Mapping[str, AtomicModel],
    semantics: Semantics,
    metavariables: Mapping[str, sympy.Expr] | None,
    derivation: Derivation | None,
) -> tuple[_Value, str]:
    if isinstance(node, Atom):
        expr, model = _atom_model(node, library)
        if derivation is not None:
            derivation.atoms[node.name] = model
        return _Value(expr), model.source
    if isinstance(node, Meta):
        if metavariables is None or node.name not in metavariables:
            raise EvaluationError(
                f"{node.name} is a metavariable (capitalised names stand for any term in laws); "
                "atom names start with a lowercase letter"
            )
        return _Value(metavariables[node.name]), "metavariable"
    if isinstance(node, Seq):
        return _seq_value(memo[id(node.left)], memo[id(node.right)]), ""
    if isinstance(node, TPool):
        return _tpool_value(node.count, memo[id(node.body)]), ""
    if isinstance(node, Pipe):
        result, winner = _pipe_value(memo[id(node.left)], memo[id(node.right)], semantics)
        if winner is None:
            if derivation is not None:
                derivation.undecided += 1
            return result, "could not decide which stage dominates; kept the maximum symbolic"
        return result, f"bottleneck: {'left' if winner == 0 else 'right'} stage"
    if isinstance(node, MapReduce):
        shuffle_expr, shuffle_keys, shuffle_name = _shuffle_model(node, library)
        if derivation is not None:
            derivation.atoms[shuffle_name] = library[shuffle_name]
        expr = m_mapreduce(
            node.nodes,
            node.threads,
            node.per_key,
            node.keys,
            memo[id(node.map)].expr,
            shuffle_expr,
            shuffle_keys,
            memo[id(node.reduce)].expr,
        )
        return _Value(expr), f"eq. (5) with shuffle model {shuffle_name}"
    raise PatternalgError(f"cannot evaluate {type(node).__name__}")  # pragma: no cover


def _record(
    term: Term, memo: dict[int, _Value], notes: dict[int, str], derivation: Derivation
) -> None:
    stack: list[tuple[Term, int]] = [(term, 0)]
    while stack:
        node, depth = stack.pop()
        step = Step(node, memo[id(node)].expr, depth, notes.get(id(node), ""))
        derivation.steps.append(step)
        stack.extend((c, depth + 1) for c in reversed(node.children()))
