"""How much of a composed term's value each of its atoms carries: ``d log P / d log A``,
the relative change of the term's value per relative change of one atom's, under a
semantics. A stage that is not a pipe's bottleneck carries none of it; two stages in
sequence carry their shares of the sum; an atom a pool divides carries all of its part.

The calibration reads each composition's miss as its atoms' misses weighted by these shares
(:mod:`patternalg.evidence.missed`), and an interval weights each atom's miss by the
predicted term's shares at every point it is drawn at (:mod:`.machine_spread`).

>>> import numpy as np
>>> from patternalg.algebra.atomic_model import AtomicModel
>>> from patternalg.syntax.parser import parse
>>> from patternalg.syntax.symbols import x
>>> library = {"a": AtomicModel("a", 3 * x), "b": AtomicModel("b", x)}
>>> shares = atom_shares(parse("seq(a, b)"), library, "exact", np.array([4.0]))
>>> {k: v.round(3).tolist() for k, v in shares.items()}
{'a': [0.75], 'b': [0.25]}
>>> {k: v.round(3).tolist() for k, v in atom_shares(parse("pipe(a, b)"), library, "exact", np.array([4.0])).items()}
{'a': [1.0], 'b': [0.0]}
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import sympy

from ..syntax.symbols import symbol
from ..syntax.terms import Atom, Term
from .arrays import Compiled, compile_term
from .atomic_model import AtomicModel
from .semantics import Semantics

__all__ = ["Shares", "atom_shares"]

#: the relative step an atom's value is moved by to see how the term follows it
STEP = 1e-3


@dataclass(frozen=True)
class Shares:
    """A term's model with each part of its atoms scaled by ``1 + _share_i`` (``labels[i]``
    the part's name): one compilation, and one fold for every part's share at once (a
    term 10,000 deep folds once, not once per part)."""

    compiled: Compiled
    labels: tuple[str, ...]

    @classmethod
    def of(
        cls,
        term: Term,
        library: Mapping[str, AtomicModel],
        semantics: Semantics | str,
        fixed: Mapping[str, sympy.Expr] | None = None,
        parts: Mapping[str, Collection[str]] | None = None,
    ) -> Shares:
        """``term`` over ``library`` under ``semantics``, with ``fixed`` bound (a binding of
        a symbol the term lacks is left out); by default each of its atoms a part of its
        own, else ``parts`` (a name -> the atoms moved together, disjoint: their shares'
        sum; a part with none of the term's atoms is left out)."""
        own = sorted({n.name for n in term.walk() if isinstance(n, Atom)})
        chosen = {name: {name} for name in own} if parts is None else parts
        scaled, labels = dict(library), list[str]()
        for label, names in chosen.items():
            moved = set(names) & set(own)
            if moved:
                share = symbol(f"_share_{len(labels)}")
                scaled.update((n, replace(library[n], expr=library[n].expr * (1 + share))) for n in moved)
                labels.append(label)
        compiled = compile_term(term, scaled, dict(fixed or {}), partial=True, semantics=semantics)
        return cls(compiled, tuple(labels))

    def at(self, grid: Mapping[str, Any]) -> dict[str, np.ndarray]:
        """Each part's share at every point of ``grid`` (arrays broadcast against each
        other), 0 where the term's value is 0 or not a finite number (a double's overflow
        shows no share): the term folded once, the parts moved by :data:`STEP` one to a row."""
        arrays = {k: np.asarray(v, dtype=float) for k, v in grid.items()}
        shape = np.broadcast_shapes(*(a.shape for a in arrays.values())) if arrays else ()
        rows, extra = len(self.labels) + 1, (1,) * len(shape)
        bound = {k: a[None, ...] for k, a in arrays.items()}
        for i in range(len(self.labels)):  # row 0 the term's value, row i + 1 part i moved
            moved = np.zeros((rows, *extra))
            moved[i + 1] = STEP
            bound[f"_share_{i}"] = moved
        with np.errstate(all="ignore"):
            values = np.broadcast_to(self.compiled.values(bound), (rows, *shape))
            base = values[0]
            found = {}
            for i, label in enumerate(self.labels):
                share = np.where(base != 0, (values[i + 1] - base) / (STEP * base), 0.0)
                found[label] = np.where(np.isfinite(share), share, 0.0)
        return found


def atom_shares(
    term: Term,
    library: Mapping[str, AtomicModel],
    semantics: Semantics | str,
    sizes: np.ndarray,
    names: set[str] | None = None,
) -> dict[str, np.ndarray]:
    """Each atom's share of ``term``'s value at ``sizes`` (x) under ``semantics``, by name
    (only those in ``names``, if given): :class:`Shares` at one row of sizes."""
    parts = None if names is None else {name: {name} for name in names}
    return Shares.of(term, library, semantics, {}, parts).at({"x": np.asarray(sizes, dtype=float)})
