"""Terms evaluated on numpy grids: our own sympy models, lambdified once, never ``subs`` per point.

Only expressions patternalg built itself are lambdified (symbol names come from the
grammar); user text never reaches ``lambdify``.

>>> import numpy as np
>>> from patternalg.syntax import parse
>>> from patternalg.library import ModelLibrary
>>> f = compile_term(parse("pipe(inc, nop)"), ModelLibrary.builtin(), {})
>>> f.symbols
('x',)
>>> f.values({"x": np.array([4.0, 1024.0])}).tolist()
[5422.97, 549053.44]
>>> [f.stages[i] for i in f.bottleneck({"x": np.array([4.0, 1024.0])})]
['nop', 'inc']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy

from ..bindings import check_bindings, counts, symbols_of
from ..errors import EvaluationError
from ..library import AtomicModel
from ..pointwise import pointwise_models
from ..symbols import symbol
from ..terms import MapReduce, Pipe, Term

__all__ = ["Compiled", "compile_term", "count_symbols"]


def _vmax(*args: Any) -> np.ndarray:
    return np.maximum.reduce(np.broadcast_arrays(*args))


def _vmin(*args: Any) -> np.ndarray:
    return np.minimum.reduce(np.broadcast_arrays(*args))


_MODULES = [{"Max": _vmax, "Min": _vmin}, "numpy"]


def _lambdify(names: tuple[str, ...], expr: sympy.Expr) -> Callable[..., Any]:
    return sympy.lambdify([symbol(n) for n in names], expr, modules=_MODULES)


def count_symbols(term: Term) -> set[str]:
    """Names of the symbols in thread, node and key counts (they take positive integers)."""
    return {s.name for _, c in counts(term) for s in c.free_symbols}


def _outer_stages(term: Term) -> tuple[Term, ...]:
    """The stages of the outermost pipe (not inside a mapReduce), or ``(term,)``."""
    stack = [term]
    while stack:
        node = stack.pop()
        if isinstance(node, Pipe):
            return node.stages()
        if not isinstance(node, MapReduce):
            stack.extend(reversed(node.children()))
    return (term,)


@dataclass(frozen=True, eq=False)
class Compiled:
    """A term's pointwise model as a numpy function of its free symbols."""

    term: Term
    expr: sympy.Expr  #: the pointwise model (pipes as ``Max``) with the fixed symbols bound
    symbols: tuple[str, ...]
    stages: tuple[str, ...]  #: the outermost pipe's stages (the term itself if no pipe)
    _total: Callable[..., Any]
    _stages: tuple[Callable[..., Any], ...]

    @property
    def has_pipe(self) -> bool:
        """Whether the term has a pipe outside mapReduces (so a bottleneck to name)."""
        return self.stages != (str(self.term),)

    def require(self, names: Iterable[str]) -> None:
        """An error unless every free symbol is one of ``names`` (bound or swept)."""
        given = set(names)
        missing = [s for s in self.symbols if s not in given]
        if missing:
            raise EvaluationError(
                f"{self.term}: no value for {', '.join(missing)} (bind it with --at or --over)"
            )

    def _args(self, grid: Mapping[str, np.ndarray]) -> list[np.ndarray]:
        self.require(grid)
        return [np.asarray(grid[s], dtype=float) for s in self.symbols]

    def _shape(self, grid: Mapping[str, np.ndarray]) -> tuple[int, ...]:
        arrays = [np.asarray(v) for v in grid.values()]
        return np.broadcast_shapes(*(a.shape for a in arrays)) if arrays else ()

    def values(self, grid: Mapping[str, np.ndarray]) -> np.ndarray:
        """The model at every point of ``grid`` (arrays broadcast against each other)."""
        with np.errstate(all="ignore"):
            result = np.broadcast_to(self._total(*self._args(grid)), self._shape(grid))
        return np.asarray(result, dtype=float)

    def bottleneck(self, grid: Mapping[str, np.ndarray]) -> np.ndarray:
        """Index into :attr:`stages` of the slowest stage at every point (ties: the first)."""
        args = self._args(grid)
        shape = self._shape(grid)
        with np.errstate(all="ignore"):
            each = [np.broadcast_to(np.asarray(f(*args), dtype=float), shape) for f in self._stages]
        return np.argmax(np.stack(each), axis=0)


def term_symbols(term: Term, library: Mapping[str, AtomicModel]) -> set[str]:
    """The names ``--at`` may bind in ``term``: its model's symbols, its counts' and x."""
    return symbols_of(term, pointwise_models(term, library, {})[id(term)])


def compile_term(
    term: Term,
    library: Mapping[str, AtomicModel],
    fixed: Mapping[str, sympy.Expr],
    *,
    partial: bool = False,
) -> Compiled:
    """The pointwise model of ``term`` with ``fixed`` bound, as a numpy function of the rest
    (with ``partial``, bindings of symbols ``term`` does not have are left out)."""
    model = pointwise_models(term, library, {})[id(term)]
    if partial:
        known = symbols_of(term, model)
        fixed = {k: v for k, v in fixed.items() if k in known}
    check_bindings(term, model, fixed)
    mapping = {symbol(k): v for k, v in fixed.items()}
    models = pointwise_models(term, library, mapping)
    total = models[id(term)]
    names = tuple(sorted({s.name for s in total.free_symbols} | (count_symbols(term) - set(fixed))))
    stages = _outer_stages(term)
    return Compiled(
        term,
        total,
        names,
        tuple(str(s) for s in stages),
        _lambdify(names, total),
        tuple(_lambdify(names, models[id(s)]) for s in stages),
    )
