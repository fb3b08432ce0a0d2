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

from ..syntax.terms import Atom, Term
from .arrays import Compiled, compile_term
from .atomic_model import AtomicModel
from .semantics import Semantics

__all__ = ["Shares", "atom_shares"]

#: the relative step an atom's value is moved by to see how the term follows it
STEP = 1e-3


@dataclass(frozen=True)
class Shares:
    """A term's model and, for each part of its atoms, the model with those atoms' values
    moved by :data:`STEP`: the parts' shares at any grid the term's model takes."""

    base: Compiled
    moved: tuple[tuple[str, Compiled], ...]

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
        own, else ``parts`` (a name -> the atoms moved together: their shares' sum; a part
        with none of the term's atoms is left out)."""
        bound = dict(fixed or {})
        own = sorted({n.name for n in term.walk() if isinstance(n, Atom)})
        chosen = {name: {name} for name in own} if parts is None else parts
        base = compile_term(term, library, bound, partial=True, semantics=semantics)
        moved = []
        for label, names in chosen.items():
            if set(names) & set(own):
                scaled = {**library, **{n: replace(library[n], expr=library[n].expr * (1 + STEP)) for n in set(names) & set(own)}}
                moved.append((label, compile_term(term, scaled, bound, partial=True, semantics=semantics)))
        return cls(base, tuple(moved))

    def at(self, grid: Mapping[str, Any]) -> dict[str, np.ndarray]:
        """Each atom's share at every point of ``grid`` (arrays broadcast against each
        other), 0 where the term's value is 0 or not a finite number (a double's overflow
        shows no share)."""
        arrays = {k: np.asarray(v, dtype=float) for k, v in grid.items()}
        with np.errstate(all="ignore"):
            base = self.base.values(arrays)
            found = {}
            for name, moved in self.moved:
                share = np.where(base != 0, (moved.values(arrays) - base) / (STEP * base), 0.0)
                found[name] = np.where(np.isfinite(share), share, 0.0)
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
