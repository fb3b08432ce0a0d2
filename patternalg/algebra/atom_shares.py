"""How much of a composed term's value each of its atoms carries: ``d log P / d log A``,
the relative change of the term's value per relative change of one atom's, under a
semantics. A stage that is not a pipe's bottleneck carries none of it; two stages in
sequence carry their shares of the sum; an atom a pool divides carries all of its part.

The calibration reads each composition's miss as its atoms' misses weighted by these shares
(:mod:`patternalg.evidence.missed`), and an interval weights each atom's miss by the
predicted term's shares (:mod:`.machine_spread`).

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

from collections.abc import Mapping
from dataclasses import replace

import numpy as np
import sympy

from ..syntax.terms import Atom, Term
from .arrays import compile_term
from .atomic_model import AtomicModel
from .semantics import Semantics

__all__ = ["atom_shares"]

#: the relative step an atom's value is moved by to see how the term follows it
STEP = 1e-3


def atom_shares(
    term: Term,
    library: Mapping[str, AtomicModel],
    semantics: Semantics | str,
    sizes: np.ndarray,
    fixed: Mapping[str, sympy.Expr] | None = None,
    names: set[str] | None = None,
) -> dict[str, np.ndarray]:
    """Each atom's share of ``term``'s value at ``sizes`` (x; every other symbol bound by
    ``fixed``), under ``semantics``: by name (only those in ``names``, if given), 0 where
    the term's value is 0 or not a finite number (a double's overflow shows no share)."""
    grid = {"x": np.asarray(sizes, dtype=float)}
    bound = dict(fixed or {})
    base = compile_term(term, library, bound, semantics=semantics).values(grid)
    found = {}
    for name in sorted({n.name for n in term.walk() if isinstance(n, Atom)}):
        if names is not None and name not in names:
            continue
        moved = {**library, name: replace(library[name], expr=library[name].expr * (1 + STEP))}
        shifted = compile_term(term, moved, bound, semantics=semantics).values(grid)
        with np.errstate(all="ignore"):
            share = np.where(base != 0, (shifted - base) / (STEP * base), 0.0)
        found[name] = np.where(np.isfinite(share), share, 0.0)
    return found
