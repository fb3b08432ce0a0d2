"""Terms evaluated on numpy grids: a fold over the term whose values are arrays.

Each atom's model (and each count, each mapReduce's eq. (5)) is lambdified once, never a
whole term's model: a term 10,000 deep is 10,000 numpy operations, and nothing recurses on
its depth (:func:`patternalg.algebra.fold.fold`). Only expressions patternalg built itself are
lambdified (symbol names come from the grammar); user text never reaches ``lambdify``.

>>> import numpy as np
>>> from patternalg.syntax.parser import parse
>>> from patternalg.library.model_library import ModelLibrary
>>> f = compile_term(parse("pipe(inc, nop)"), ModelLibrary.builtin(), {})
>>> f.symbols
('x',)
>>> f.values({"x": np.array([4.0, 1024.0])}).tolist()
[5422.97, 549053.44]
>>> [f.stages[i] for i in f.bottleneck({"x": np.array([4.0, 1024.0])})]
['nop', 'inc']
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy

from .._internal.caches import Recomputed
from .._internal.limits import printable
from .._internal.surface import at_text, either, flag
from ..errors import EvaluationError
from ..syntax.arith import format_expr
from ..syntax.symbols import symbol
from ..syntax.terms import Pipe, Term
from .atomic_model import AtomicModel
from .bindings import (
    as_value,
    check_bindings,
    counts,
    decided_number,
    sizes,
    unread_sizes,
)
from .fold import TIE, Arithmetic, Plan, fold
from .numpy_code import numpy_function
from .pointwise import outermost_pipe, pointwise_models
from .semantics import CORES, CORES_NAME, Semantics
from .term_symbols import term_symbols

__all__ = ["Compiled", "compile_term", "count_symbols"]

def _in_doubles() -> str:
    """Why a number beyond a double is refused, and what computes it, as the caller asks."""
    exact = either("eval --at without --interval", "model(term, x=...), without an interval,")
    return f"grids and intervals are computed in doubles ({exact} computes any size exactly)"


#: terms up to this many nodes also keep their pointwise model as one sympy expression
#: (``compare`` solves it for exact crossovers); larger ones are only folded numerically
SYMBOLIC_NODES = 64


@functools.lru_cache(maxsize=4096)
def _lambdified(expr: sympy.Expr) -> tuple[tuple[sympy.Symbol, ...], Callable[..., Any]]:
    """``expr`` (one of ours: an atom's model, a count, eq. (5)) as a numpy function of its
    free symbols, compiled once."""
    names = tuple(sorted(expr.free_symbols, key=str))
    return names, numpy_function(names, expr)


class Arrays(Arithmetic[np.ndarray]):
    """The arithmetic of :func:`~patternalg.algebra.fold.fold` on numpy arrays (doubles)."""

    def __init__(self, winners: bool = False) -> None:
        #: (expression, ids of its arguments) -> (value, the arguments, kept alive)
        self._leaves: dict[tuple[Any, ...], tuple[np.ndarray, list[np.ndarray]]] = {}
        self.winners = winners  #: whether :meth:`larger` says which stage at every point

    def leaf(self, expr: sympy.Expr, context: Mapping[sympy.Symbol, np.ndarray]) -> np.ndarray:
        """``expr`` at every point of ``context`` (each distinct leaf once per argument
        arrays: 10,000 ``qsort`` stages share one array)."""
        names, function = _lambdified(expr)
        args = [context[s] for s in names]
        key = (expr, *map(id, args))
        found = self._leaves.get(key)
        if found is None:
            try:
                value = np.asarray(function(*args), dtype=float)
            except OverflowError:  # an integer (a thread count 10^400) no double holds
                raise EvaluationError(
                    f"{printable(format_expr(expr))}: a number beyond a double (about 1.8e308); {_in_doubles()}"
                ) from None
            found = self._leaves[key] = (value, args)
        return found[0]

    def add(self, left: np.ndarray, right: np.ndarray) -> np.ndarray:
        """Eq. (2) at every point."""
        return left + right

    def divide(self, body: np.ndarray, count: np.ndarray) -> np.ndarray:
        """Eq. (3) at every point."""
        return body / count

    def larger(self, left: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, Any]:
        """Eq. (4) at every point; the winner differs from point to point (None), or, asked
        for ``winners``, is an array of them (0 left, 1 right; ties within :data:`~.fold.TIE`:
        left)."""
        return np.maximum(left, right), (np.asarray(right > left * (1 + TIE), dtype=np.int8) if self.winners else None)

    def smaller(self, left: np.ndarray, right: np.ndarray) -> np.ndarray:
        """The minimum at every point."""
        return np.minimum(left, right)

    def multiply(self, left: np.ndarray, right: np.ndarray) -> np.ndarray:
        """The product at every point."""
        return left * right

    def constant(self, value: np.ndarray) -> float | None:
        """The value if it is the same at every point.

        >>> Arrays().constant(np.array([2.0, 2.0])), Arrays().constant(np.array([1.0, 2.0]))
        (2.0, None)
        """
        value = np.asarray(value)
        first = value.flat[0] if value.size else None
        return float(first) if first is not None and bool(np.all(value == first)) else None


def count_symbols(term: Term) -> set[str]:
    """Names of the symbols in thread, node and key counts (they take positive integers)."""
    return {s.name for _, c in counts(term) for s in c.free_symbols}


def _outer_stages(term: Term) -> tuple[Term, ...]:
    """The stages of the outermost pipe (not inside a mapReduce), or ``(term,)``."""
    outermost = outermost_pipe(term)
    return (term,) if outermost is None else outermost.stages()


@dataclass(frozen=True, eq=False)
class Compiled(Recomputed):
    """A term's pointwise model as a numpy function of its free symbols."""

    term: Term
    library: Mapping[str, AtomicModel]
    symbols: tuple[str, ...]
    stage_terms: tuple[Term, ...]  #: the outermost pipe's stages (the term itself if no pipe)
    fixed: Mapping[str, sympy.Expr]  #: the bound symbols
    doubles: Mapping[str, float]  #: their values as doubles (what the arrays compute with)
    semantics: Semantics = Semantics.EXACT  #: how the operators combine (pointwise: all but toys)

    @functools.cached_property
    def plan(self) -> Plan:
        """The fold's plan of :attr:`term`, made once for every evaluation."""
        return Plan.of(self.term, self.library, None, self.semantics)

    @property
    def stages(self) -> tuple[str, ...]:
        """The outermost pipe's stages as text."""
        return tuple(str(s) for s in self.stage_terms)

    @functools.cached_property
    def expr(self) -> sympy.Expr | None:
        """The pointwise model (pipes as ``Max``, under :attr:`semantics`: the values' own
        closed form) with the fixed symbols bound, for terms of at most
        :data:`SYMBOLIC_NODES` nodes; None for larger ones (only folded numerically)."""
        if sum(1 for _ in self.term.walk()) > SYMBOLIC_NODES:
            return None
        mapping = {symbol(k): v for k, v in self.fixed.items()}
        return pointwise_models(self.term, self.library, mapping, self.semantics)[id(self.term)]

    @property
    def has_pipe(self) -> bool:
        """Whether the term has a pipe outside mapReduces (so a bottleneck to name)."""
        return self.stage_terms != (self.term,)

    def require(self, names: Iterable[str]) -> None:
        """An error unless every free symbol is one of ``names`` (bound or swept)."""
        given = set(names)
        missing = [s for s in self.symbols if s not in given]
        if missing:
            raise EvaluationError(
                f"{self.term}: no value for {', '.join(missing)} (bind it with {flag('at')} or {flag('over')})"
            )

    def check_counts(self, grid: Mapping[str, np.ndarray]) -> None:
        """An error at the first point of ``grid`` (arrays of one shape) where a count of
        :attr:`term` is not a positive integer (``tpool_{n/2}`` at n = 3), or a mapReduce's
        d or k not positive, as ``--at`` says at a point: a grid of counts is checked by the
        counts it makes, not by its values.

        >>> from patternalg.syntax.parser import parse
        >>> from patternalg.library.model_library import ModelLibrary
        >>> f = compile_term(parse("tpool_{n/2}(qsort)"), ModelLibrary.builtin(), {})
        >>> f.check_counts({"n": np.array([2.0, 3.0, 4.0])})
        Traceback (most recent call last):
        ...
        patternalg.errors.EvaluationError: n = 3 makes the thread count of tpool_{n/2}(...) 3/2; it must be a positive integer
        """
        for what, expr, whole_only, names, arrays, bad in self._made(grid):
            if bad.any():
                at = np.unravel_index(int(np.argmax(bad)), bad.shape)
                point = {s: as_value(float(a[at])) for s, a in zip(names, arrays, strict=True)}
                shown = ", ".join(f"{s} = {format_expr(v)}" for s, v in point.items())
                wanted = "a positive integer" if whole_only else "positive"
                raise EvaluationError(f"{shown} makes {what} {format_expr(expr.xreplace(point))}; it must be {wanted}")

    def counts_hold(self, grid: Mapping[str, np.ndarray]) -> np.ndarray:
        """Where on ``grid`` (arrays that broadcast) every count of :attr:`term` is a positive
        integer and every mapReduce's d and k positive (what :meth:`check_counts` checks).

        >>> from patternalg.syntax.parser import parse
        >>> from patternalg.library.model_library import ModelLibrary
        >>> f = compile_term(parse("tpool_{n/2}(qsort)"), ModelLibrary.builtin(), {})
        >>> f.counts_hold({"n": np.array([2.0, 3.0, 4.0])}).tolist()
        [True, False, True]
        """
        shape = np.broadcast_shapes(*(np.shape(a) for a in grid.values()))
        hold = np.ones(shape, dtype=bool)
        for *_, bad in self._made(grid):
            hold &= ~bad
        return hold

    def _made(
        self, grid: Mapping[str, np.ndarray]
    ) -> Iterable[tuple[str, sympy.Expr, bool, Sequence[sympy.Symbol], Sequence[np.ndarray], np.ndarray]]:
        """Each count (whole) and size of :attr:`term` that ``grid`` makes: what it is, its
        expression, whether it must be whole, its symbols and their arrays, and where on them
        it is no count (``bad``)."""
        swept = {symbol(k) for k in grid}
        bound = {symbol(k): v for k, v in self.fixed.items()}
        made = [*((w, c, True) for w, c in counts(self.term)), *((w, d, False) for w, d in sizes(self.term))]
        for what, count, whole_only in made:
            expr = count.xreplace(bound)
            if not expr.free_symbols or not expr.free_symbols <= swept:
                continue
            names, function = _lambdified(expr)
            arrays = np.broadcast_arrays(*(np.asarray(grid[s.name], dtype=float) for s in names))
            with np.errstate(all="ignore"):
                values = np.broadcast_to(np.asarray(function(*arrays), dtype=float), arrays[0].shape)
            if whole_only:  # a count beyond a double (inf) is whole: its grid is the doubles'
                whole = np.abs(values - np.round(values)) <= 1e-9 * np.maximum(1.0, np.abs(values))
                bad = ~((whole & (values >= 1 - 1e-9)) | (values == np.inf))
            else:
                bad = ~(values > 0)
            yield what, expr, whole_only, names, arrays, bad

    def _fold(self, grid: Mapping[str, np.ndarray], keep: Callable[[Term], bool], winners: bool = False) -> Any:
        self.require(grid)
        arrays = [np.asarray(v, dtype=float) for v in grid.values()]
        shape = np.broadcast_shapes(*(a.shape for a in arrays)) if arrays else ()
        context = {symbol(k): np.asarray(v, dtype=float) for k, v in self.doubles.items()}
        context.update((symbol(k), np.asarray(v, dtype=float)) for k, v in grid.items())
        with np.errstate(all="ignore"):
            found = fold(self.term, self.library, Arrays(winners), context, keep, self.plan, self.semantics)
        return found, shape

    def values(self, grid: Mapping[str, np.ndarray]) -> np.ndarray:
        """The model at every point of ``grid`` (arrays broadcast against each other)."""
        found, shape = self._fold(grid, lambda node: False)
        return np.array(np.broadcast_to(found.value, shape), dtype=float)

    def kept(self, grid: Mapping[str, np.ndarray], keep: Callable[[Term], bool]) -> dict[int, np.ndarray]:
        """The values of the sub-terms ``keep`` selects (by ``id``) at every point of
        ``grid``, from one fold (a profile's check keeps every node's)."""
        found, shape = self._fold(grid, keep)
        return {k: np.broadcast_to(v, shape) for k, v in found.kept.items()}

    def bottleneck(self, grid: Mapping[str, np.ndarray]) -> np.ndarray:
        """Index into :attr:`stages` of the stage that sets the pace at every point: the
        larger of each pipe's stages as the semantics compares them (on a machine, a
        stage that receives its data with its hand-off), followed down nested pipes
        (ties: the first); ``len(stages)`` where a machine's cores set a pipe's pace."""
        found, shape = self._fold(grid, lambda node: False, winners=True)
        outermost = outermost_pipe(self.term)
        if outermost is None:
            return np.zeros(shape, dtype=int)
        # the chain's pipes, parents before children; its stages numbered left to right,
        # as Pipe.stages() lists them
        pipes: list[Pipe] = []
        chosen: dict[int, np.ndarray] = {}
        stack: list[Term] = [outermost]
        position = iter(range(len(self.stage_terms)))
        while stack:
            node = stack.pop()
            if isinstance(node, Pipe):
                pipes.append(node)
                stack.extend((node.right, node.left))
            else:
                chosen[id(node)] = np.full(shape, next(position))
        cores = np.full(shape, len(self.stage_terms))  # past the stages: the cores
        for node in reversed(pipes):  # its winner at every point picks a side
            side = np.broadcast_to(found.winners[id(node)], shape)
            picked = np.where(side == 0, chosen[id(node.left)], chosen[id(node.right)])
            chosen[id(node)] = np.where(side == CORES, cores, picked)
        return chosen[id(outermost)]

    def bottleneck_names(self, grid: Mapping[str, np.ndarray]) -> np.ndarray:
        """What sets the pace at every point (:meth:`bottleneck`), by name: a stage's
        term, or :data:`~.semantics.CORES_NAME`."""
        return np.array([*self.stages, CORES_NAME], dtype=object)[self.bottleneck(grid)]


def _double(name: str, value: sympy.Expr) -> float:
    """A bound value as a double, or an error if it is no number or a double cannot hold it."""
    try:
        number = float(decided_number(name, value))
    except (TypeError, OverflowError):
        number = math.nan
    if not math.isfinite(number):
        raise EvaluationError(
            f"{at_text(f'{name}={format_expr(value)}')}: the value is beyond a double (about 1.8e308); {_in_doubles()}"
        )
    return number


def compile_term(
    term: Term,
    library: Mapping[str, AtomicModel],
    fixed: Mapping[str, sympy.Expr],
    *,
    partial: bool = False,
    semantics: Semantics | str = Semantics.EXACT,
) -> Compiled:
    """The pointwise model of ``term`` with ``fixed`` bound, as a numpy function of the rest
    (with ``partial``, bindings of symbols ``term`` does not have are left out), its operators
    combined as ``semantics`` says."""
    semantics = Semantics.of(semantics)
    found = term_symbols(term, library, semantics)
    own = set(found.model)
    if partial:
        fixed = {k: v for k, v in fixed.items() if k in found.bindable}
    check_bindings(term, found.bindable, fixed)
    names = tuple(sorted((own | count_symbols(term)) - set(fixed)))
    doubles = {k: _double(k, v) for k, v in fixed.items()}
    # read by the semantics (a hand-off in x) or by a mapReduce's sizes where the result
    # depends on no value of them (model_symbols says so): a constant model's received
    # value, which no pipe uses; a constant reduce at d(x) elements per key
    unread = unread_sizes(term, own | count_symbols(term), fixed, semantics.reads())  # one rule with a point's
    doubles.update((s.name, math.nan) for s in unread)
    return Compiled(term, library, names, _outer_stages(term), dict(fixed), doubles, semantics)
