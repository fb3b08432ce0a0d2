"""Which design grows slowest in the size: the paper's asymptotic semantics (or a machine's
own) applied to each design's closed form, growths ordered by their normal forms, and
designs whose growths are equal to rounding tied.

>>> from patternalg.syntax.symbols import log2
>>> growth_order(x**2, x * log2(x)), growth_order(x * log2(x) + 3, x * log2(x) + 4)
(1, -1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import sympy

from ..algebra.arrays import Compiled
from ..algebra.bindings import as_value
from ..algebra.evaluation import evaluate, size_of
from ..algebra.machine import MachineSemantics
from ..algebra.model_maps import ModelChain
from ..algebra.normal_forms.normal_form import compare as compare_growth
from ..algebra.normal_forms.normal_form import eventual, normal_form
from ..algebra.pointwise import with_counts
from ..algebra.semantics import Semantics
from ..algebra.units import atom_names
from ..errors import EvaluationError
from ..library.model_library import AtomicModel
from ..syntax.symbols import symbol, x
from ..syntax.terms import Term
from .crossovers import TIE_RTOL

__all__ = ["asymptotic_winner", "growth_order"]


def asymptotic_winner(
    compiled: list[Compiled],
    names: tuple[str, ...],
    library: Mapping[str, AtomicModel],
    at: Mapping[str, Any] | None,
    semantics: Semantics,
) -> tuple[str | None, tuple[str, ...], str]:
    """The design whose closed form grows slowest in x, those that grow exactly as it does
    (None if undecided, or if a closed form is too deep to build: the grid's answer stands
    without it), and the size it is for: x, or the one other symbol the atoms are models in
    (:func:`~patternalg.algebra.evaluation.size_of`: a table's ``n``). The paper's asymptotic semantics,
    or a machine's own (its hand-off grows with x): each maximum and minimum as the
    argument it is for large x."""
    chosen = semantics if isinstance(semantics, MachineSemantics) else Semantics.ASYMPTOTIC
    try:  # the counts bound first: a deep term's closed form stays flat in x
        terms = [with_counts(c.term, at) for c in compiled]
        found = _size(terms, library, chosen, at or {})
        size = "x" if found is None else found.name
        library = _bound(terms, library, {k: v for k, v in (at or {}).items() if k not in {size, "x"}})
        built = [evaluate(t, library, chosen) for t in terms]
    except (EvaluationError, RecursionError):
        return None, (), "x"
    mapping = {symbol(k): as_value(v, k) for k, v in (at or {}).items() if k != size}
    if found is not None:  # the normal forms order growths in x: the size is named x there
        mapping[found] = x
    forms = [eventual(f.xreplace(mapping)) for f in built]
    best = 0
    for k in range(1, len(forms)):
        order = growth_order(forms[k], forms[best])
        if order is None:
            return None, (), size
        if order < 0:
            best = k
    ties = tuple(names[k] for k in range(len(forms)) if k != best and growth_order(forms[k], forms[best]) == 0)
    return names[best], ties, size


def _size(
    terms: list[Term], library: Mapping[str, AtomicModel], semantics: Semantics, at: Mapping[str, Any]
) -> sympy.Symbol | None:
    """The one symbol other than x that the atoms of every term are models in
    (:func:`~patternalg.algebra.evaluation.size_of`), else the one left where ``at`` binds
    the others (x aside): ``30*n + 250*n*log2(p)`` at ``p = 4`` grows in n; None: x."""
    for models in (library, _bound(terms, library, {k: v for k, v in at.items() if k != "x"})):
        sizes = {size_of(t, models, semantics) for t in terms}
        if len(sizes) == 1 and None not in sizes:
            return sizes.pop()
    return None


def _bound(terms: list[Term], library: Mapping[str, AtomicModel], at: Mapping[str, Any]) -> Mapping[str, AtomicModel]:
    """The library with ``at``'s values in the models ``terms`` use: with ``--at p=4``,
    ``30*n + 250*n*log2(p)`` is a model in n alone, folded in n as a table's models are."""
    mapping = {symbol(k): as_value(v, k) for k, v in at.items()}
    if not mapping:
        return library
    names = {name for term in terms for name in atom_names(term) if name in library}
    bound = {name: replace(library[name], expr=library[name].expr.xreplace(mapping)) for name in names}
    return ModelChain(bound, library)  # type: ignore[arg-type]


def growth_order(a: sympy.Expr, b: sympy.Expr) -> int | None:
    """1 if ``a`` grows faster than ``b``, -1 if slower, 0 if alike: the same terms with
    numeric coefficients equal to rounding (:data:`TIE_RTOL`; two designs the machine runs
    alike came out as 14050.97100767225 and 14050.971007672248 ns, and the last digit chose
    an asymptotic winner beside a tie over the range), None if undecided.

    >>> from patternalg.syntax.symbols import log2
    >>> growth_order(x * log2(x) + sympy.Float("14050.97100767225"), x * log2(x) + sympy.Float("14050.971007672248"))
    0
    >>> growth_order(x * log2(x) + 14050, x * log2(x) + 14051), growth_order(x**2, x * log2(x))
    (-1, 1)
    """
    order = compare_growth(a, b)
    if not order:
        return order
    fa, fb = normal_form(a), normal_form(b)
    if fa is None or fb is None:
        return order
    ta, tb = dict(fa.items()), dict(fb.items())
    alike = ta.keys() == tb.keys() and all(
        ta[k].is_Number and tb[k].is_Number and abs(ta[k] - tb[k]) <= TIE_RTOL * max(abs(ta[k]), abs(tb[k]))
        for k in ta
    )
    return 0 if alike else order
