"""A term under a library of models, in one call: :func:`model` (the closed form, or a value)
and :func:`explain` (the :class:`~patternalg.algebra.evaluated.Evaluation`: value, unit, notes,
interval, and the derivation as a view). They take what ``patternalg eval`` takes — a term's
text, a model file's path, a machine file's path or a core count — and hand the algebra the
objects those stand for.

>>> e = explain("pipe(inc, nop)", x=4)
>>> e.value, e.point.bottleneck_at_point
(5422.97, 'nop')
>>> explain("pipe(tpool_4(qsort), inc)").text()
'258.5425*x*log2(x)'
>>> [row[:2] for row in explain("seq(qsort, nop)").rows()]
[['seq', '1034.17*x*log2(x) + 5422.97'], ['· qsort', '1034.17*x*log2(x)'], ['· nop', '5422.97 ns']]
"""

from __future__ import annotations

from collections.abc import Mapping
from os import PathLike

import sympy

from ..algebra import evaluation
from ..algebra.atomic_model import AtomicModel
from ..algebra.evaluated import Evaluation, evaluated
from ..algebra.evaluation import Derivation
from ..algebra.pointwise import at_point
from ..algebra.semantics import Semantics
from ..algebra.units import in_one_unit
from ..arguments import as_optional_text, as_seed, as_term
from ..syntax.terms import Term
from .machines import MachineLike, chosen_semantics
from .model_library import ModelLibrary

__all__ = ["evaluate", "explain", "model"]


def explain(
    term: str | Term,
    library: Mapping[str, AtomicModel] | str | PathLike[str] | None = None,
    semantics: Semantics | str | None = None,
    *,
    unit: str | None = None,
    machine: MachineLike = None,
    cores: int | None = None,
    interval: float | None = None,
    seed: int = 0,
    **at: float | int | str | sympy.Expr,
) -> Evaluation:
    """The model of ``term``, or its value where keywords bind symbols (``x=1024``), with its
    notes and its derivation (:meth:`~patternalg.algebra.evaluated.Evaluation.lines`).

    ``library``: the built-ins, a model file's path (the built-ins overridden by it) or a
    mapping of atom names to models. Every atom is converted to one unit first: ``unit``,
    else the atoms' common unit. ``semantics``: asymptotic unless given. ``machine`` (a
    :class:`~patternalg.algebra.machine.Machine`, a machine file's path or a number of
    cores) evaluates under that machine's semantics (another ``semantics`` beside it is an
    ArgumentError); ``cores``, as ``--cores``, replaces its cores (alone: a machine of that
    many).
    ``interval`` (a level such as 0.9), where every symbol is bound, adds the central
    interval of what a measurement would show, ``seed`` fixing the draws; what it is made of,
    each of its sources drawn alone, is the result's ``interval_sources()``.
    """
    return evaluated(
        as_term(term),
        ModelLibrary.of(library),
        chosen_semantics(semantics, machine, cores, Semantics.ASYMPTOTIC),
        at=at,
        unit=as_optional_text(unit, "unit"),
        interval=interval,
        seed=as_seed(seed),
    )


def model(
    text: str | Term,
    library: Mapping[str, AtomicModel] | str | PathLike[str] | None = None,
    semantics: Semantics | str | None = None,
    *,
    machine: MachineLike = None,
    cores: int | None = None,
    **at: float | int | str | sympy.Expr,
) -> sympy.Expr:
    """Text of a term (or a term) to its closed-form model in one call; keywords bind
    symbols. ``library``: the built-ins, the path of a model file (the built-ins overridden
    by it, as ``--models``), or a mapping of atom names to models or their texts.
    ``semantics``, ``machine`` and ``cores`` as :func:`explain` takes them.

    Atoms of different time units are converted to ns first (see :mod:`patternalg.algebra.units`). With bindings, the result is
    the model's value there: a pipe whose stages are numbers at the point is their maximum,
    whatever the semantics (see :mod:`patternalg.algebra.pointwise`).

    >>> model("pipe(tpool_4(qsort), inc)")
    258.5425*x*log2(x)
    >>> model("tpool_n(qsort)", n=2, x=1024)
    5294950.40000000
    >>> model("pipe(inc, nop)", x=4)
    5422.97000000000
    >>> model("tpool_4(qsort)", machine=2)
    517.085*x*log2(x)
    """
    term = as_term(text, "text")
    library, unit = in_one_unit(term, ModelLibrary.of(library))
    semantics = chosen_semantics(semantics, machine, cores, Semantics.ASYMPTOTIC).in_unit(unit)
    if at:
        return at_point(term, library, at, semantics).expr
    return evaluation.evaluate(term, library, semantics)


def evaluate(
    term: Term | str,
    library: Mapping[str, AtomicModel] | str | PathLike[str] | None = None,
    semantics: Semantics | str = Semantics.ASYMPTOTIC,
    *,
    derivation: Derivation | None = None,
    metavariables: Mapping[str, sympy.Expr] | None = None,
) -> sympy.Expr:
    """The closed-form model M[term] (:func:`patternalg.algebra.evaluation.evaluate`) over
    ``library`` as :func:`model` takes it: a mapping, a ``ModelLibrary``, a model file's
    path (the built-ins overridden by it), or None (the built-ins, as when it is left out).

    >>> evaluate("seq(qsort, nop)")
    1034.17*x*log2(x) + 5422.97
    >>> evaluate("seq(qsort, nop)", {"qsort": "2*x", "nop": "5"})
    2*x + 5
    """
    term = as_term(term)  # before the library: evaluate(models, text) read the text as a model file's path
    return evaluation.evaluate(
        term, ModelLibrary.of(library), semantics, derivation=derivation, metavariables=metavariables
    )
