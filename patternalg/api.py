"""One-call helpers for design documents and notebooks."""

from __future__ import annotations

from collections.abc import Mapping

import sympy

from .algebra import Semantics, evaluate
from .library import AtomicModel, ModelLibrary
from .pointwise import at_point
from .syntax import parse

__all__ = ["model"]


def model(
    text: str,
    library: Mapping[str, AtomicModel] | None = None,
    semantics: Semantics | str = Semantics.ASYMPTOTIC,
    **at: float | int | str | sympy.Expr,
) -> sympy.Expr:
    """Text of a term to its closed-form model in one call; keywords bind symbols.

    With bindings, the result is the model's value there: a pipe whose stages are numbers
    at the point is their maximum, whatever the semantics (see :mod:`patternalg.pointwise`).

    >>> model("pipe(tpool_4(qsort), inc)")
    258.5425*x*log2(x)
    >>> model("tpool_n(qsort)", n=2, x=1024)
    5294950.40000000
    >>> model("pipe(inc, nop)", x=4)
    5422.97000000000
    """
    term = parse(text)
    library = library if library is not None else ModelLibrary.builtin()
    if at:
        return at_point(term, library, at, semantics).expr
    return evaluate(term, library, semantics)
