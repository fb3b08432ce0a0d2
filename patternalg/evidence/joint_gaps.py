"""The draws of a profile check's gaps: the runs resampled jointly, and the gap's own
held-out error.

A node and its parts were measured in the same runs: a slow run is slow in the node and in
its children. Drawn one model at a time from each fit's own uncertainty, the node's inclusive
model and its composed sub-term moved independently, and the gap's interval was as wide as
both models' (on ``tests/data/profiles/difflib``, three cProfile runs per size: 43 points
wide at the median, around gaps of 1 to 9 %; now 2.8). Here:

* **the runs, jointly**: every draw resamples the runs at each point once, for every model
  alike (the same runs of the point), takes each series' median over them, and fits each
  model's own terms again by least squares to these medians (weights ``1/y``, the default
  modeler's final fit; the hypothesis the fit chose stays), beside the same fit to the
  medians of all the runs. The median, not the fit's biweight: the biweight of every
  series' resampled runs at every point took a minute for 1,000 runs of 200 call paths
  (``benchmarks/bench_profiles.py``: the check 73 s, against 11 s before the joint draws
  and 21 s with the median), and a median of a few runs moves more than their biweight:
  the intervals are wider, not narrower (on difflib 2.7 points at the median, 1.7 with the
  biweight, before the gap's own error). The models' deltas are bound
  into one fold of the whole term, so a node's composed draw and its inclusive draw come
  from the same runs;
* **the gap's own error**: each measured point left out in turn, every model fitted again
  without it (the same terms), and the gap predicted there; how far it moves from the gap
  fitted with the point is the gap's held-out error, sized where it was seen and growing
  beyond the points as a model's own error does
  (:func:`~patternalg.algebra.own_error.own_error`: ``k`` steps beyond the end, ``k`` times
  the end's; one normal draw per node).

A gap outside its interval is then a disagreement of the parts with the whole that neither
the runs' noise nor leaving a point out explains.

>>> from patternalg.profiles.tree import CallTree
>>> from patternalg.profiles.term import profile_term
>>> from patternalg.profiles.fit import fit_profile
>>> from patternalg.syntax.terms import Atom, Seq
>>> rng = np.random.default_rng(1)
>>> n = np.repeat([8.0, 16.0, 32.0, 64.0, 128.0], 3)
>>> slow = np.exp(rng.normal(0, 0.2, n.size))          # a run slow in the node and its part
>>> tree = CallTree((("main",), ("main", "solve")), np.array([(2 + 3 * n) * slow, 3 * n * slow]),
...                 tuple(f"r{i}" for i in range(n.size)), ("n",), n[:, None], "time", "s")
>>> fitted = fit_profile(profile_term(tree))
>>> term, inclusive = fitted.built.term, Atom("k_inclusive.main")
>>> drawn = gap_draws(fitted, Seq(inclusive, term), {("main",): (term, inclusive)},
...                   {"n": np.array([8.0, 256.0])}, 400, 0)[("main",)]
>>> drawn.shape, [round(float(v), 3) for v in np.ptp(np.quantile(drawn, [0.05, 0.95], axis=0), axis=0)]
((400, 2), [0.013, 0.003])

(a run 20 % slow or fast moves each model by as much: not the gap).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np
import sympy

from ..algebra.arrays import Arrays, compile_term
from ..algebra.atomic_model import AtomicModel
from ..algebra.own_error import own_error
from ..algebra.uncertainty import Uncertainty
from ..profiles.fit import INCLUSIVE, ProfileFit, point_groups
from ..profiles.tree import Path
from ..syntax.symbols import symbol
from ..syntax.terms import Term

__all__ = ["gap_draws"]

#: the draws of one fold (each keeps every node's values at every point: memory, not time)
_CHUNK = 50


def gap_draws(
    fitted: ProfileFit,
    whole: Term,
    pairs: Mapping[Path, tuple[Term, Term]],
    grid: Mapping[str, np.ndarray],
    draws: int,
    seed: int,
) -> dict[Path, np.ndarray]:
    """Per node (its call path in ``pairs``: its sub-term and its inclusive model's atom,
    both sub-terms of ``whole``): its gap's draws at every point of ``grid`` (draws,
    points; the measured points first, as the check's grid has them). Empty where every
    point was run once (nothing to resample)."""
    models = _models(fitted)
    if models is None:
        return {}
    rng = np.random.default_rng(seed)
    chosen = [rng.integers(0, count, (draws, count)) for count in models.counts]
    resampled = models.resampled(chosen)
    compiled = compile_term(whole, {**fitted.library, **models.library}, {}, partial=True)

    wanted = {id(t) for both in pairs.values() for t in both}

    def gaps(bound: dict[str, np.ndarray]) -> dict[Path, np.ndarray]:
        kept = compiled.kept(bound, lambda node: id(node) in wanted)
        return {path: kept[id(sub)] / kept[id(inclusive)] - 1 for path, (sub, inclusive) in pairs.items()}

    # a few draws a fold: every node's values are kept, draws x points each
    chunks = [gaps(models.bound(grid, {n: d[i : i + _CHUNK] for n, d in resampled.items()}))
              for i in range(0, draws, _CHUNK)]  # fmt: skip
    measured = models.points
    # leaving point i out, at point i (fold i at point i: no points x points arrays)
    held = gaps(models.bound(measured, {n: m.held_out() for n, m in models.each.items()}, aligned=True))
    fitted_gaps = gaps(models.bound(measured, {n: np.zeros((1, m.width)) for n, m in models.each.items()}))
    found = {}
    for path in pairs:
        drawn_gaps = np.concatenate([chunk[path] for chunk in chunks])
        moved = held[path] - fitted_gaps[path][0]
        own = _own(moved, measured)
        if own is not None:  # one normal draw per node: the gap's own error where it is
            at = np.broadcast_to(Arrays().leaf(own, {symbol(k): v for k, v in grid.items()}), drawn_gaps.shape[1:])
            drawn_gaps = drawn_gaps + rng.standard_normal((draws, 1)) * at[None, :]
        found[path] = drawn_gaps
    return found


@dataclass(frozen=True)
class _Model:
    """One fitted model's terms at the measured points and the aggregates of its runs."""

    terms: tuple[sympy.Expr, ...]
    design: np.ndarray  #: (points, terms), rows weighted by 1/sqrt(y)
    root: np.ndarray  #: the rows' weights
    y: np.ndarray  #: the medians of the runs at each point

    @property
    def width(self) -> int:
        return len(self.terms)

    @classmethod
    def of(cls, expr: sympy.Expr, y: np.ndarray, points: Mapping[str, np.ndarray]) -> _Model:
        terms = _terms(expr)
        context = {symbol(k): v for k, v in points.items()}
        arrays = Arrays()
        design = np.column_stack([np.broadcast_to(arrays.leaf(t, context), y.shape) for t in terms])
        # weights 1/y (the default modeler's final fit), none above the smallest positive
        # value's (a node's own time cut at 0 in some runs)
        positive = np.abs(y[y != 0])
        root = 1.0 / np.sqrt(np.maximum(np.abs(y), positive.min() if positive.size else 1.0))
        return cls(terms, design * root[:, None], root, y)

    def solution(self) -> np.ndarray:
        """The least squares as a matrix (points, terms): values ``y`` at the points give
        the coefficients ``y @ solution``."""
        return self.root[:, None] * np.linalg.pinv(self.design).T  # type: ignore[no-any-return]

    def held_out(self) -> np.ndarray:
        """How far leaving each point out moves the coefficients: (points, terms), from the
        fit of all points and each point's leverage ``h`` (``-(X^T X)^+ x_i r_i / (1 - h_i)``:
        no refit per point, linear in the points); 0 where the other points do not
        determine them (``h`` about 1).

        >>> m = _Model.of(symbol("x"), np.array([1.0, 2.1, 2.9, 4.2]), {"x": np.array([1.0, 2, 3, 4])})
        >>> z = m.y * m.root
        >>> def fit(rows):  # the weighted least squares refitted on ``rows``
        ...     return np.linalg.lstsq(m.design[rows], z[rows], rcond=None)[0]
        >>> direct = [fit(np.arange(4) != i) - fit(np.arange(4) >= 0) for i in range(4)]
        >>> bool(np.allclose(m.held_out(), direct))
        True
        """
        x, z = self.design, self.y * self.root
        inverse = np.linalg.pinv(x.T @ x)
        residual = z - x @ (inverse @ (x.T @ z))
        leverage = np.einsum("pi,ij,pj->p", x, inverse, x)
        with np.errstate(divide="ignore", invalid="ignore"):
            moved = -(x @ inverse) * (residual / (1.0 - leverage))[:, None]
        return np.where((leverage < 1.0 - 1e-9)[:, None] & np.isfinite(moved), moved, 0.0)


@dataclass(frozen=True)
class _Models:
    """Every model of a profile's check: its runs' values (aligned: run ``r`` is the same
    run in every model), their groups by point, each model's terms perturbed by symbols."""

    each: Mapping[str, _Model]
    runs: Mapping[str, np.ndarray]  #: each model's value in every run
    groups: tuple[np.ndarray, ...]  #: the runs at each measured point
    library: Mapping[str, AtomicModel]
    symbols: Mapping[str, tuple[str, ...]]
    points: Mapping[str, np.ndarray]  #: the measured points, by parameter

    @property
    def counts(self) -> tuple[int, ...]:
        """How many runs each point has."""
        return tuple(len(g) for g in self.groups)

    def resampled(self, chosen: list[np.ndarray]) -> dict[str, np.ndarray]:
        """How far each model's coefficients move when fitted to the medians of the runs
        ``chosen`` at each point (per point (draws, count), positions in its group: the same
        runs for every model): (draws, terms) by name. Point by point (a point's medians
        of every model and draw at once), never every point's at once."""
        names = list(self.each)
        widest = max(self.each[n].width for n in names)
        solution = np.zeros((len(names), len(self.groups), widest))  # (models, points, terms)
        for j, name in enumerate(names):
            solution[j, :, : self.each[name].width] = self.each[name].solution()
        table = np.array([self.runs[n] for n in names], dtype=float)  # (models, runs)
        center = np.array([self.each[n].y for n in names])  # (models, points): all the runs' medians
        moved = np.zeros((len(names), len(chosen[0]), widest))
        for i, (group, picked) in enumerate(zip(self.groups, chosen, strict=True)):
            medians = np.median(table[:, group[picked]], axis=-1)  # (models, draws)
            moved += (medians - center[:, i, None])[:, :, None] * solution[:, i, None, :]
        return {name: moved[j, :, : self.each[name].width] for j, name in enumerate(names)}

    def bound(
        self, grid: Mapping[str, np.ndarray], deltas: Mapping[str, np.ndarray], aligned: bool = False
    ) -> dict[str, np.ndarray]:
        """``grid`` and each model's ``deltas`` (rows, terms) as arrays a fold broadcasts:
        the rows first, or with ``aligned`` row i at the grid's point i (one row a point)."""
        if aligned:
            bound = {k: np.asarray(v, dtype=float) for k, v in grid.items()}
            extra: tuple[int, ...] = ()
        else:
            shape = np.broadcast_shapes(*(np.shape(v) for v in grid.values())) if grid else ()
            extra = (1,) * len(shape)
            bound = {k: np.asarray(v, dtype=float)[None, ...] for k, v in grid.items()}
        for name, names in self.symbols.items():
            for i, s in enumerate(names):
                bound[s] = deltas[name][:, i].reshape((-1, *extra))
        return bound


def _models(fitted: ProfileFit) -> _Models | None:
    """Every atom's and inclusive model's :class:`_Model` over the call tree's runs; None
    where every point was run once."""
    built, tree = fitted.built, fitted.built.tree
    unique, groups = point_groups(tree.points)
    if max(len(g) for g in groups) < 2:
        return None
    reports = {r.atom: r for r in fitted.atoms}
    runs = {name: np.asarray(built.work[name], dtype=float) for name in reports}
    for path, report in fitted.inclusive.items():
        if report.atom != built.atoms[path]:
            name = f"{INCLUSIVE}{built.atoms[path]}"
            reports[name], runs[name] = report, np.asarray(built.inclusive[path], dtype=float)
    points = {k: unique[:, i] for i, k in enumerate(tree.parameters)}
    table = np.array(list(runs.values()), dtype=float)
    y = dict(zip(runs, np.stack([np.median(table[:, g], axis=-1) for g in groups], axis=-1), strict=True))
    each: dict[str, _Model] = {}
    library: dict[str, AtomicModel] = {}
    symbols: dict[str, tuple[str, ...]] = {}
    for name, report in reports.items():
        each[name] = model = _Model.of(report.model.expr, y[name], points)
        names = tuple(f"_joint_{name}_{i}" for i in range(model.width))
        shift = sum((symbol(s) * t for s, t in zip(names, model.terms, strict=True)), sympy.Integer(0))
        library[name] = replace(report.model, expr=report.model.expr + shift, uncertainty=None)
        symbols[name] = names
    return _Models(each, runs, groups, library, symbols, points)


def _own(moved: np.ndarray, measured: Mapping[str, np.ndarray]) -> sympy.Expr | None:
    """The gap's own error as an expression in the runs' parameter, from its held-out moves
    ``moved`` at the ``measured`` points (their noise not taken out: a move is the noise of
    the point left out too, counted again beside the resampled runs; wider, never narrower);
    None for runs over several parameters."""
    if len(measured) != 1 or not np.all(np.isfinite(moved)):
        return None
    ((name, sizes),) = measured.items()
    if np.any(sizes <= 0):
        return None
    pairs = tuple((float(s), float(m)) for s, m in zip(sizes, moved, strict=True))
    u = Uncertainty((sympy.Integer(1),), ((0.0,),), 1, 0.0, "held-out gaps", pairs)
    return own_error(symbol(name), u)  # the parameter: the symbol the error grows along


def _terms(expr: sympy.Expr) -> tuple[sympy.Expr, ...]:
    """The terms of a fitted model, its coefficients taken off (``1`` for the constant).

    >>> from patternalg.syntax.symbols import log2
    >>> x = symbol("x")
    >>> _terms(sympy.Float(2.5) * x * log2(x) + 3 + sympy.Float(0.5) * x)
    (1, x, x*log2(x))
    """
    found = {term.as_coeff_Mul()[1] for term in sympy.Add.make_args(expr)}
    return tuple(sorted(found, key=sympy.default_sort_key))

