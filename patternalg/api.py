"""One-call helpers for design documents and notebooks."""

from __future__ import annotations

from collections.abc import Mapping

import sympy

from .algebra import Semantics, evaluate
from .bindings import as_value, bind
from .library import AtomicModel, ModelLibrary
from .syntax import parse
from .units import in_one_unit

__all__ = ["model"]


def model(
    text: str,
    library: Mapping[str, AtomicModel] | None = None,
    semantics: Semantics | str = Semantics.ASYMPTOTIC,
    **at: float | int | str | sympy.Expr,
) -> sympy.Expr:
    """Text of a term to its closed-form model in one call; keywords bind symbols.

    Atoms of different time units are converted to ns first (see :mod:`patternalg.units`).

    >>> model("pipe(tpool_4(qsort), inc)")
    258.5425*x*log2(x)
    >>> model("tpool_n(qsort)", n=2, x=1024)
    5294950.40000000
    """
    term = parse(text)
    library, _ = in_one_unit(term, library if library is not None else ModelLibrary.builtin())
    expr = evaluate(term, library, semantics)
    return bind(term, expr, {k: as_value(v) for k, v in at.items()}) if at else expr
