"""What ``explore`` answers: the ranked designs, each with its value, threads and the chain
of rewrites that reaches it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._internal.display import as_digits, brief, cell, counted
from .._internal.tables import Tabular, fields_json, with_unit
from ..laws.builtin import builtin_law
from ..syntax.arith import bounds_text, shown_text

__all__ = ["Rewrite", "Design", "Exploration"]

#: runs of one law a derivation lists in order before it only counts each law
_RUNS = 6


@dataclass(frozen=True)
class Rewrite:
    """One step: ``before`` became ``after`` by ``law`` read in ``direction``; ``relation``
    holds between the whole designs (``before >= after``: the step never slows the design)."""

    law: str
    direction: str  #: "->" (left to right) or "<-"
    relation: str  #: between before and after: "==", ">=" or "<="
    semantics: tuple[str, ...]
    before: str
    after: str

    def to_json(self) -> dict[str, Any]:
        """``{law, direction, relation, semantics, before, after}``."""
        return fields_json(self)

    def step(self) -> str:
        """The law and the way it was applied, its sides in the order read.

        >>> Rewrite("pipe_vs_tpool2_seq", "->", ">=", ("exact",), "b", "a").step()
        'pipe_vs_tpool2_seq: pipe(A, B) => tpool_2(seq(A, B))'
        """
        law = builtin_law(self.law)
        source, target = (law.lhs, law.rhs) if self.direction == "->" else (law.rhs, law.lhs)
        return f"{self.law}: {source} => {target}"


@dataclass(frozen=True)
class Design:
    """A design reached from the start term, its value, thread count and rewrite chain."""

    term: str
    value: float | None  #: the pointwise model at the point (None when ranked asymptotically)
    #: its closed form with the point's non-x symbols bound: the paper's asymptotic one, or
    #: on a machine the machine's (whose values rank the designs), there None for a design
    #: of more than ``SYMBOLIC_NODES`` sub-terms (its value is folded; the form took seconds)
    model: str | None
    threads: int
    rewrites: tuple[Rewrite, ...]
    #: other designs reached with the same model (rewritings of this one, not shown)
    equivalent: int = 0
    #: with ``interval=``: the central interval of what a measurement would show, and
    #: whether a measurement could tell this design from the best (None: not asked)
    interval: tuple[float, float] | None = None
    indistinguishable: bool | None = None

    def to_json(self) -> dict[str, Any]:
        """``{term, value, model, threads, rewrites, equivalent}`` (and ``interval``,
        ``indistinguishable`` with an interval)."""
        data = fields_json(self)
        if self.interval is None:
            data.pop("interval")
            data.pop("indistinguishable")
        else:
            data["interval"] = list(self.interval)
        return data

    def derivation(self) -> str:
        """The chain of rewrites in one short line: each law with the way it was applied
        (its sides, metavariables for the parts), in order with repeats counted, or, for a
        chain of more than :data:`_RUNS` runs, how often each was used.

        >>> more = Rewrite("tpool_more", "<-", ">=", ("exact",), "a", "b")
        >>> fewer = Rewrite("tpool_more", "->", "<=", ("exact",), "b", "a")
        >>> Design("b", 1.0, "1", 3, (more, more)).derivation()
        'by 2 rewrites: tpool_more: tpool_n(A) => tpool_{n + 1}(A) x2'
        >>> Design("b", 1.0, "1", 3, (more, fewer) * 4 + (more,)).derivation()
        'by 9 rewrites: tpool_more: tpool_n(A) => tpool_{n + 1}(A) x5, tpool_more: tpool_{n + 1}(A) => tpool_n(A) x4 (in all)'
        """
        steps = [r.step() for r in self.rewrites]
        runs: list[list[Any]] = []
        for step in steps:
            if runs and runs[-1][0] == step:
                runs[-1][1] += 1
            else:
                runs.append([step, 1])
        note = ""
        if len(runs) > _RUNS:
            runs = [[step, steps.count(step)] for step in dict.fromkeys(steps)]
            note = " (in all)"
        laws = ", ".join(step if count == 1 else f"{step} x{count}" for step, count in runs)
        return f"by {len(steps)} rewrite{'s' if len(steps) != 1 else ''}: {laws}{note}"


@dataclass(frozen=True)
class Exploration(Tabular):
    """The ranked designs of :func:`explore`."""

    start: str
    threads: int
    at: tuple[tuple[str, str], ...]
    designs: tuple[Design, ...]  #: the best ``top``, best first
    visited: int  #: designs within the thread budget that were reached
    #: True where the search visited every design that its rewrites (:func:`.rewrites.neighbours`)
    #: reach from the start through designs within the budget (one reached only through a
    #: design of more threads is not: a larger budget may find it); False if it stopped
    complete: bool
    unit: str  #: of every value and closed form (the atoms converted to it)
    notes: tuple[str, ...] = ()  #: which atoms were converted to :attr:`unit`
    level: float | None = None  #: with ``interval=``: the intervals' level
    #: why the search stopped short, what its summary says ("" where it is complete): its
    #: ``expansions`` spent, the fixed limit of sub-terms one search rebuilds (more expansions
    #: do not help), or designs so large that each expansion tried only the rewrites nearest the root
    stopped: str = ""

    def __repr__(self) -> str:
        """The start, the best design found and how many were visited, on one line."""
        best = f"best {self.designs[0].term}" if self.designs else "no design"
        return brief("Exploration", f"from {self.start}: {best} of {counted(self.visited, 'design')} within {self.threads} threads")

    def to_json(self) -> dict[str, Any]:
        """``{start, threads, at, designs, visited, complete, unit, notes}`` (and ``level``;
        ``stopped`` where the search stopped short)."""
        data = {**fields_json(self), "at": dict(self.at)}
        if self.level is None:
            data.pop("level")
        if not self.stopped:
            data.pop("stopped")
        return data

    def header(self) -> list[str]:
        """Columns of the ranking (with an interval: ``low``, ``high`` after the value)."""
        bounds = ["low", "high", _CANNOT_TELL] if self.level is not None else []
        return ["rank", "term", with_unit("value", self.unit), *bounds, "threads", "rewrites", "equivalent"]

    def rows(self) -> list[list[Any]]:
        """One row per design; rewrites as ``law ->`` steps; with an interval, its ends and
        whether a measurement could not tell the design from the best (the best: empty)."""
        return [
            [
                i + 1,
                d.term,
                d.value if d.value is not None else d.model,
                *([] if self.level is None else [*(d.interval or (None, None)), d.indistinguishable if i else None]),
                d.threads,
                "; ".join(r.step() for r in d.rewrites),
                d.equivalent,
            ]
            for i, d in enumerate(self.designs)
        ]

    def plot(self, ax: Any = None) -> Any:
        """The ranked designs' values as bars, best on top (matplotlib axes)."""
        from ..plotting.results import plot_exploration

        return plot_exploration(self, ax=ax)

    def column_digits(self, digits: int | None = None) -> dict[int, int | None]:
        """The values (and with an interval its ends) in ``digits`` significant digits."""
        return dict.fromkeys(range(2, 5 if self.level is not None else 3), digits)

    def lines(self, why: bool = False, digits: int | None = None) -> list[str]:
        """The ranking for people: each design (the simplest of those with its model, the
        others counted) and the laws that lead to it in one line; ``why``: each step; values
        (and a closed form's coefficients) in ``digits`` significant digits (default 15, no
        float noise), an interval's ends in the fewest, at least 3, that tell them apart."""
        digits = as_digits(digits)
        unit = f" {self.unit}"
        lines = []
        for i, d in enumerate(self.designs):
            shown = f"{cell(d.value, digits)}{unit}" if d.value is not None else shown_text(d.model or "", digits)
            if d.interval is not None:
                low, high = bounds_text(*d.interval, least=min(3, digits or 3), digits=digits)
                shown += f" [{low}, {high}]" + (f" ({_CANNOT_TELL})" if d.indistinguishable and i else "")
            others = d.equivalent
            more = f"; and {others} equivalent rewriting{'s' if others > 1 else ''}" if others else ""
            lines.append(f"{i + 1}. {d.term}  =  {shown}  ({_threads(d.threads)}{more})")
            if not why:
                if d.rewrites:
                    lines.append(f"     {d.derivation()}")
                continue
            for r in d.rewrites:
                lines.append(
                    f"     {r.law} {r.direction} [{'/'.join(r.semantics)}]: "
                    f"{r.before}  {r.relation}  {r.after}"
                )
        return lines + self._summary()

    def _summary(self) -> list[str]:
        """The lines after the designs: the search's extent, how they are ranked."""
        budget = _threads(self.threads)
        state = (
            f"complete: all that the rewrites reach through designs within {budget}"
            if self.complete
            else f"stopped: {self.stopped}"
        )
        designs = f"{self.visited} design{'s' if self.visited != 1 else ''}"
        lines = [f"{designs} within {budget} visited ({state})"]
        if any(d.value is None for d in self.designs):
            lines.append(f"models in {self.unit}, ranked by their growth in x")
        if self.level is not None:
            lines.append(
                f"intervals: {100 * self.level:g} % of what a measurement would show; a design "
                "the best is faster than in fewer of the joint draws cannot be told from it"
            )
        return lines

    def caption(self) -> str:
        """How far the search went, how the designs are ranked, and with an interval which
        ranks a measurement could not tell from the best (above the HTML table).

        >>> from patternalg.decisions.explore import explore
        >>> explore("pipe(qsort, inc)", threads=2, at={"x": 1024}).caption()
        '6 designs within 2 threads visited (complete: all that the rewrites reach through designs within 2 threads)'
        """
        summary = self._summary()
        if self.level is not None:
            ranks = [str(i + 1) for i, d in enumerate(self.designs) if i and d.indistinguishable]
            summary.append(
                f"{_CANNOT_TELL} at {100 * self.level:g} %: "
                + (f"rank {', '.join(ranks)}" if ranks else "none of the others")
            )
        return "; ".join(summary)


#: a design a measurement could not tell from the best (with ``interval=``)
_CANNOT_TELL = "cannot tell from the best"


def _threads(count: int) -> str:
    return f"{count} thread{'s' if count != 1 else ''}"
