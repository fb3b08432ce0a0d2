"""The per-node check of a profile's term: each node's own inclusive model beside the model
composed from its children, and their gap.

For every node of the term :func:`check_profile` puts the model fitted directly to the node's
measured inclusive time (the *inclusive* model) beside the model of the node's sub-term, its
atoms composed by the algebra (the *composed* model: ``seq`` adds, ``tpool_N`` divides by N),
and gives their gap, ``composed / inclusive - 1``, at the measured points and at ``at`` (say
``p = 1000``), each with its interval: the atoms' fitted uncertainty drawn jointly through the
sub-term, the inclusive model's drawn beside it (``for_measurement=False``: the interval of the
models' values), and the gap's from the runs resampled jointly for the node and its parts,
with the gap's own held-out error (:mod:`~patternalg.evidence.joint_gaps`; runs at points
measured once: the models' own draws). A gap that grows with p says the parts scale
otherwise than the whole was measured to; at a measured point it is the fits' error. Under ``Max time/rank`` the children's
slowest ranks are other ranks than the node's: they add up to more than the node (a load
imbalance), the node's own time is cut at 0 and the composed model lies above the inclusive
one; the check says where.

The result prints as a tree (like Hatchet's ``tree()``), as JSON (``{"term", "param", "unit",
"nodes": [{"path", "atom", "measured", "inclusive_model", "composed_model", "gap", ...}]}``),
as CSV, and as a DataFrame keyed by call path (``main/lulesh.cycle``) that joins a Thicket
statsframe (docs/profiles.md).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy

from .._internal.display import as_digits, brief, counted, percent_cell
from .._internal.limits import MAX_PROFILE_DRAWS
from .._internal.surface import at_text
from .._internal.tables import Tabular
from ..algebra.atomic_model import AtomicModel
from ..algebra.bindings import as_value
from ..algebra.evaluation import sub_models
from ..algebra.intervals import DRAWS, Spread, check_level
from ..arguments import as_bindings, as_int, as_seed, expect, wrong
from ..errors import EvaluationError, PatternalgError
from ..profiles.fit import INCLUSIVE, ProfileFit
from ..profiles.tree import PROGRAM, Path
from ..syntax.arith import format_expr, number_text
from ..syntax.terms import Atom, Seq, Term, TPool
from .joint_gaps import gap_draws

__all__ = ["NodeCheck", "ProfileCheck", "check_profile", "positive_number"]


@dataclass(frozen=True)
class NodeCheck:
    """One node: its models and, at each point (the measured ones, then ``at``), the
    measured value (None at ``at``), both models' values, the gap and their intervals."""

    path: Path
    atom: str
    threads: int | None
    leaf: bool
    measured: tuple[float | None, ...]
    inclusive_model: sympy.Expr
    composed_model: sympy.Expr
    inclusive: np.ndarray
    composed: np.ndarray
    gap: np.ndarray
    inclusive_interval: np.ndarray  #: (points, 2)
    composed_interval: np.ndarray
    gap_interval: np.ndarray
    imbalance: float | None = None  #: how much more the children add up to, at most

    def __repr__(self) -> str:
        """``NodeCheck(main/lulesh.cycle: atom main.lulesh_cycle; gap -3.2 % .. +4.1 %)``:
        its call path, its atom and its gap's range over the points."""
        finite = self.gap[np.isfinite(self.gap)]
        gap = f"gap {_gap_text(finite.min(), 0, 0)} .. {_gap_text(finite.max(), 0, 0)}" if finite.size else "no gap"
        return brief("NodeCheck", f"{'/'.join(self.path) or PROGRAM}: atom {self.atom}; {gap}")

    @property
    def name(self) -> str:
        """The region's own name (the last part of its call path)."""
        return self.path[-1] if self.path else PROGRAM

    @property
    def path_text(self) -> str:
        """The call path as ``main/lulesh.cycle`` (``program`` for the root above several)."""
        return "/".join(self.path) or PROGRAM


@dataclass(frozen=True)
class ProfileCheck(Tabular):
    """Every node's check (:class:`NodeCheck`, pre-order) with what they share."""

    term: str
    parameters: tuple[str, ...]
    unit: str
    metric: str
    points: tuple[dict[str, float], ...]  #: the measured points, then ``at`` (if given)
    at: dict[str, float] | None
    level: float
    nodes: tuple[NodeCheck, ...]
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        """``ProfileCheck(30 nodes at 5 points and p = 1000; 90 % intervals)``: never the
        term, which has a node per kept call path."""
        points = counted(len(self.points) - (self.at is not None), "point")
        points += f" and {_point_text(self.at)}" if self.at else ""
        return brief("ProfileCheck", f"{counted(len(self.nodes), 'node')} at {points}; {percent_cell(self.level)} intervals")

    def to_json(self) -> dict[str, Any]:
        """The JSON record (see the module)."""
        return {
            "term": self.term,
            "param": ", ".join(self.parameters),
            "unit": self.unit,
            "metric": self.metric,
            "points": list(self.points),
            "at": self.at,
            "level": self.level,
            "nodes": [_node_json(node) for node in self.nodes],
            "notes": list(self.notes),
        }

    def header(self) -> list[str]:
        where = _point_text(self.at) if self.at else "the last measured point"
        return [
            "path", "atom", "threads", f"measured [{self.unit}]", "inclusive_model", "composed_model",
            "largest measured gap", f"inclusive at {where} [{self.unit}]",
            f"composed at {where} [{self.unit}]", f"gap at {where}", "gap low", "gap high", "imbalance",
        ]  # fmt: skip

    def rows(self) -> list[list[Any]]:
        rows = []
        measured = len(self.points) - (1 if self.at else 0)
        for node in self.nodes:
            gaps = node.gap[:measured]
            largest = float(gaps[np.argmax(np.abs(gaps))]) if len(gaps) else None
            rows.append([
                node.path_text, node.atom, node.threads, node.measured[measured - 1],
                node.inclusive_model, node.composed_model, largest, float(node.inclusive[-1]),
                float(node.composed[-1]), float(node.gap[-1]), float(node.gap_interval[-1, 0]),
                float(node.gap_interval[-1, 1]), node.imbalance,
            ])  # fmt: skip
        return rows

    def column_digits(self, digits: int | None = None) -> dict[int, int | None]:
        return {i: digits or 6 for i in (3, 6, 7, 8, 9, 10, 11, 12)}

    def percent_columns(self) -> frozenset[int]:
        """The gaps and the imbalance."""
        return frozenset((6, 9, 10, 11, 12))

    def to_dataframe(self) -> Any:
        """The table as a pandas DataFrame indexed by call path (``main/lulesh.cycle``):
        ``frame.join(check.to_dataframe())`` beside a Thicket statsframe indexed the same."""
        return super().to_dataframe().set_index("path")

    def caption(self) -> str:
        """Above the notebook's table: what was checked, where, and what the gap is."""
        return "; ".join(self._summary())

    def _summary(self) -> list[str]:
        """The nodes, the metric and the points; what the gap is."""
        shown = ", ".join(_point_text(p) for p in self.points[: len(self.points) - bool(self.at)])
        return [
            f"{len(self.nodes)} nodes, {self.metric} in {self.unit}; measured at {shown}"
            + (f"; predicted at {_point_text(self.at)}" if self.at else ""),
            f"gap = composed / inclusive - 1 ({100 * self.level:g} % intervals)",
        ]

    def text(self, digits: int | None = 4) -> str:
        """The tree as a person reads it: each node's name, its composed and inclusive
        models and the gap at each point (like Hatchet's ``tree()``)."""
        digits = as_digits(digits)
        lines = self._summary()
        depth = {node.path: i for i, node in enumerate(self.nodes)}
        for node in self.nodes:
            prefix = _prefix(node, self.nodes, depth)
            pool = f" tpool_{node.threads}" if node.threads else ""
            lines.append(f"{prefix}{node.name}  ({node.atom}{pool})")
            pad = _continuation(node, self.nodes, depth)
            if not node.leaf:
                lines.append(f"{pad}composed:  {format_expr(node.composed_model, digits)}")
            lines.append(f"{pad}inclusive: {format_expr(node.inclusive_model, digits)}")
            measured = "  ".join("-" if v is None else number_text(v, digits) for v in node.measured)
            lines.append(f"{pad}measured:  {measured}")  # the points the inclusive model was fitted to
            gaps = "  ".join(_gap_text(g, lo, hi) for g, (lo, hi) in zip(node.gap, node.gap_interval, strict=True))
            lines.append(f"{pad}gap:       {gaps}")
            if node.imbalance is not None:
                lines.append(
                    f"{pad}imbalance: its children add up to {100 * node.imbalance:.3g} % more than "
                    f"it ({'the slowest ranks of the parts are other ranks' if 'Max' in self.metric else 'overlapping regions'})"
                )
        return "\n".join(lines) + "\n"


def _prefix(node: NodeCheck, nodes: tuple[NodeCheck, ...], index: Mapping[Path, int]) -> str:
    """Hatchet's ``├─ `` / ``└─ `` before a node, with the bars of its ancestors."""
    root = len(nodes[0].path)
    depth = len(node.path) - root
    if depth == 0:
        return ""
    bars = "".join("   " if _last(node.path[: root + k + 1], nodes, index) else "│  " for k in range(depth - 1))
    return bars + ("└─ " if _last(node.path, nodes, index) else "├─ ")


def _continuation(node: NodeCheck, nodes: tuple[NodeCheck, ...], index: Mapping[Path, int]) -> str:
    """The bars under a node's line, for its detail lines."""
    root = len(nodes[0].path)
    depth = len(node.path) - root
    bars = "".join("   " if _last(node.path[: root + k + 1], nodes, index) else "│  " for k in range(depth))
    return bars + ("│    " if not node.leaf else "     ")


def _last(path: Path, nodes: tuple[NodeCheck, ...], index: Mapping[Path, int]) -> bool:
    """Whether ``path`` is the last child of its parent."""
    later = nodes[index[path] + 1 :]
    return not any(n.path[:-1] == path[:-1] and len(n.path) == len(path) for n in later)


def _gap_text(gap: float, low: float, high: float) -> str:
    if not np.isfinite(gap):
        return "-"
    if not high > low:  # no uncertainty drawn: no interval to show
        return f"{100 * gap:+.3g} %"
    return f"{100 * gap:+.3g} % [{100 * low:+.3g}, {100 * high:+.3g}]"


def _point_text(point: Mapping[str, float] | None) -> str:
    return ", ".join(f"{k} = {number_text(v)}" for k, v in (point or {}).items())


def _node_json(node: NodeCheck) -> dict[str, Any]:
    def values(array: np.ndarray) -> list[float | None]:
        return [float(v) if np.isfinite(v) else None for v in np.ravel(array)]

    def pairs(array: np.ndarray) -> list[list[float | None]]:
        return [values(row) for row in array]

    return {
        "path": node.path_text,
        "name": node.name,
        "atom": node.atom,
        "threads": node.threads,
        "measured": list(node.measured),
        "inclusive_model": format_expr(node.inclusive_model),
        "composed_model": format_expr(node.composed_model),
        "inclusive": values(node.inclusive),
        "composed": values(node.composed),
        "gap": values(node.gap),
        "inclusive_interval": pairs(node.inclusive_interval),
        "composed_interval": pairs(node.composed_interval),
        "gap_interval": pairs(node.gap_interval),
        "imbalance": node.imbalance,
    }


def positive_number(value: Any) -> float | None:
    """``value`` (a number, an expression of numbers or its text) as a positive finite
    float, else None: a point of the runs' parameters (``--at p=343``).

    >>> positive_number(343), positive_number("7^3"), positive_number(0), positive_number(float("inf"))
    (343.0, 343.0, None, None)
    """
    try:
        number = float(as_value(value))
    except (PatternalgError, TypeError):  # no number: a symbol, a complex number
        return None
    return number if math.isfinite(number) and number > 0 else None


def _point(at: Any) -> dict[str, float] | None:
    """``at`` of :func:`check_profile`: None, or a mapping or ``p=343`` texts binding
    each symbol to a positive number."""
    if at is None:
        return None
    point = {}
    for name, value in as_bindings(at, "at").items():
        number = positive_number(value)
        if number is None:
            raise wrong(f"at[{name!r}]", "a positive number such as 1000", value)
        point[name] = number
    return point


def check_profile(
    fitted: ProfileFit,
    *,
    at: Mapping[str, Any] | str | list[str] | None = None,
    level: float = 0.9,
    draws: int = DRAWS,
    seed: int = 0,
) -> ProfileCheck:
    """The per-node check of a fitted profile (see the module); ``at`` a point beyond the
    measured ones binding every symbol of the runs' parameters to a positive number (a
    mapping, or texts such as ``"p=343"`` as ``--at`` takes them)."""
    expect(fitted, ProfileFit, "fitted", "a ProfileFit, e.g. fit_profile(profile_term(tree))")
    at, level = _point(at), check_level(level, "level")
    draws, seed = as_int(draws, "draws", 1, MAX_PROFILE_DRAWS), as_seed(seed)
    built, tree = fitted.built, fitted.built.tree
    if at is not None and set(at) != set(tree.parameters):
        extra = sorted(set(at) - set(tree.parameters))
        what = (
            f"{', '.join(extra)} {'is' if len(extra) == 1 else 'are'} not a parameter of the runs "
            f"({', '.join(tree.parameters)})" if extra
            else f"give a value of {', '.join(tree.parameters)} (the runs' parameters)"
        )
        raise EvaluationError(
            f"{at_text(_point_text(at))}: {what}, e.g. " + " ".join(at_text(f"{s}=1000") for s in tree.parameters)
        )
    unique = np.unique(tree.points, axis=0)
    grid_rows = [*unique, *([[float(at[s]) for s in tree.parameters]] if at else [])]
    grid = {s: np.array([row[i] for row in grid_rows], dtype=float) for i, s in enumerate(tree.parameters)}
    library: dict[str, AtomicModel] = dict(fitted.library)
    library.update({f"{INCLUSIVE}{built.atoms[p]}": r.model for p, r in fitted.inclusive.items() if r.atom != built.atoms[p]})
    composed_models, _ = sub_models(built.term, library, "exact", {})
    imbalance = tree.overlap()
    parents = {p[:-1] for p in built.atoms if p != tree.root}
    # one fold draws every node's sub-term and, beside the term, every inclusive model
    direct = {p: Atom(f"{INCLUSIVE}{a}") for p, a in built.atoms.items() if fitted.inclusive[p].atom != a}
    # inside pools a node's atoms stand for the work of all their threads: its time is its
    # sub-term shared by those threads, as the pools above it share it
    above = {p: _threads_above(p, built.pools) for p in built.atoms}
    shared = {p: _shared(built.nodes[p], above[p]) for p in built.atoms}
    whole: Term = built.term
    for beside in reversed([*direct.values(), *(t for p, t in shared.items() if t is not built.nodes[p])]):
        whole = Seq(beside, whole)
    wanted = {id(t) for t in (*shared.values(), *direct.values())}
    drawn = _drawn(Spread.of(whole, library, {}, for_measurement=False), grid, wanted, draws, seed)
    pairs = {p: (shared[p], a) for p, a in direct.items()}
    joint = gap_draws(fitted, whole, pairs, grid, draws, seed)  # the runs resampled jointly
    nodes = []
    for path, atom in built.atoms.items():  # pre-order
        sub, threads = shared[path], above[path]
        report = fitted.inclusive[path]
        composed = drawn[id(sub)]
        # a leaf outside a pool: its inclusive model is its atom's, drawn alike
        inclusive = drawn[id(direct[path])] if path in direct else composed
        gap = _rounded(composed[1] / inclusive[1] - 1)
        # no joint draws (the same model on both sides, runs that do not tie the models
        # together): the models' own draws
        gaps = _rounded(joint.get(path, composed[0] / inclusive[0] - 1))
        measured = report.series.aggregate(report.fitted.statistics.get("aggregate", "median"))
        nodes.append(
            NodeCheck(
                path,
                atom,
                built.pools.get(path),
                path not in parents,
                (*(float(v) for v in measured), *([None] if at else [])),
                report.model.expr,
                composed_models[id(built.nodes[path])] / threads,
                inclusive[1],
                composed[1],
                gap,
                _interval(inclusive[0], level),
                _interval(composed[0], level),
                _interval(gaps, level),
                imbalance.get(path),
            )
        )
    points = tuple({s: float(row[i]) for i, s in enumerate(tree.parameters)} for row in grid_rows)
    notes = list(fitted.notes)
    unsure = [r.atom for r in fitted.atoms if r.model.uncertainty is None]
    if unsure:
        every = len(unsure) == len(fitted.atoms)
        what = "no atom has" if every else f"{len(unsure)} of {len(fitted.atoms)} atoms have no"
        intervals = "are the models' values" if every else "count them as exact"
        notes.append(
            f"{what} uncertainty (a parameter value run once: repeat runs for intervals); the "
            f"intervals {intervals}"
        )
    if imbalance:
        worst = max(imbalance, key=imbalance.__getitem__)
        why = (
            "the slowest ranks of their parts are other ranks (a load imbalance)"
            if "Max" in tree.metric
            else "their regions overlap"
        )
        one = len(imbalance) == 1
        whose = "node's" if one else "nodes'"
        notes.append(
            f"{len(imbalance)} {whose} children add up to more "
            f"than {'the node' if one else 'the nodes'} ({why}; the most: {'/'.join(worst) or PROGRAM}, "
            f"{100 * imbalance[worst]:.3g} %): {'its' if one else 'their'} own time is cut at 0 "
            "and the composed model lies above the inclusive one"
        )
    return ProfileCheck(
        str(built.term),
        tree.parameters,
        tree.unit,
        tree.metric,
        points,
        dict(at) if at else None,
        level,
        tuple(nodes),
        tuple(notes),
    )


#: gaps below this are what two ways of folding one value leave in doubles (a leaf in a
#: pool: 8 times its per-thread work shared by 8 threads), not a gap
_LEFTOVER = 1e-12


def _rounded(gap: np.ndarray) -> np.ndarray:
    """``gap`` with the doubles' leftovers (below :data:`_LEFTOVER`) made 0.

    >>> _rounded(np.array([-1.11e-16, 0.05])).tolist()
    [0.0, 0.05]
    """
    return np.where(np.abs(gap) < _LEFTOVER, 0.0, gap)


def _threads_above(path: Path, pools: Mapping[Path, int]) -> int:
    """The threads of the pools strictly above ``path``, multiplied (1 outside pools).

    >>> _threads_above(("a", "b", "c"), {("a",): 2, ("a", "b"): 4, ("a", "b", "c"): 8})
    8
    """
    return int(np.prod([pools.get(path[:k], 1) for k in range(1, len(path))], dtype=float))


def _shared(sub: Term, threads: int) -> Term:
    """``sub`` as a node inside pools of ``threads`` in all runs it: shared by them."""
    return sub if threads == 1 else TPool(threads, sub)


def _drawn(
    spread: Spread, grid: Mapping[str, np.ndarray], wanted: set[int], draws: int, seed: int
) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Of each wanted sub-term (by ``id``): its draws (draws, points) and its value at each
    point (no draw), two folds in all."""
    keep = lambda node: id(node) in wanted  # noqa: E731
    drawn = spread.kept_draws(grid, keep, draws, seed)
    zero = {name: np.zeros(1) for name in spread.drawn}
    values = spread.compiled.kept({**grid, **zero}, keep)
    points = len(next(iter(grid.values())))
    return {k: (drawn[k], np.array(np.broadcast_to(values[k], (points,)), dtype=float)) for k in drawn}


def _interval(drawn: np.ndarray, level: float) -> np.ndarray:
    """The central ``level`` interval at each point: shape (points, 2), NaN draws left out
    (numpy's ``nanquantile`` goes column by column: only where there are any)."""
    levels = [(1 - level) / 2, (1 + level) / 2]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a point no draw reached: NaN
        missing = np.isnan(drawn).any(axis=0)
        low, high = np.quantile(drawn, levels, axis=0)
        if missing.any():
            low[missing], high[missing] = np.nanquantile(drawn[:, missing], levels, axis=0)
    return np.column_stack([low, high])
