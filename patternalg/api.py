"""One-call helpers for design documents and notebooks."""

from __future__ import annotations

from collections.abc import Mapping
from os import PathLike

import sympy

from .algebra import Semantics, evaluate
from .arguments import as_term
from .library import AtomicModel, ModelLibrary
from .pointwise import at_point
from .terms import Term
from .units import in_one_unit

__all__ = ["model"]


def model(
    text: str | Term,
    library: Mapping[str, AtomicModel] | str | PathLike[str] | None = None,
    semantics: Semantics | str = Semantics.ASYMPTOTIC,
    **at: float | int | str | sympy.Expr,
) -> sympy.Expr:
    """Text of a term (or a term) to its closed-form model in one call; keywords bind
    symbols. ``library``: the built-ins, the path of a model file (the built-ins overridden
    by it, as ``--models``), or a mapping of atom names to models or their texts.

    Atoms of different time units are converted to ns first (see :mod:`patternalg.units`). With bindings, the result is
    the model's value there: a pipe whose stages are numbers at the point is their maximum,
    whatever the semantics (see :mod:`patternalg.pointwise`).

    >>> model("pipe(tpool_4(qsort), inc)")
    258.5425*x*log2(x)
    >>> model("tpool_n(qsort)", n=2, x=1024)
    5294950.40000000
    >>> model("pipe(inc, nop)", x=4)
    5422.97000000000
    """
    term = as_term(text, "text")
    library, _ = in_one_unit(term, ModelLibrary.of(library))
    if at:
        return at_point(term, library, at, semantics).expr
    return evaluate(term, library, semantics)
