"""Public hypothesis strategies for models, terms and model libraries.

Write your own property tests of pattern compositions with them:

>>> from hypothesis import given, settings
>>> from patternalg import evaluate
>>> @settings(max_examples=10, deadline=None, database=None)
... @given(libraries().flatmap(lambda lib: terms(atoms=lib).map(lambda t: (lib, t))))
... def test_models_are_positive(case):
...     library, term = case
...     assert evaluate(term, library).subs(x, 2) > 0
>>> test_models_are_positive()

:func:`models` draws closed forms of Extra-P's performance model normal form (PMNF):
sums of ``c * x^i * log2(x)^j`` whose ``(i, j)`` is the constant or one of Extra-P's
building blocks (:mod:`patternalg.algebra.normal_forms.blocks`, the fitter's; Calotoiu et al., SC'13) and
positive coefficients of two significant digits from 10^-3 to about 10^10.
:func:`terms` draws terms of bounded depth over a set of atom names; :func:`libraries`
draws model libraries of such atoms.

>>> from hypothesis import find
>>> find(models(), lambda e: e.has(x))
log2(x)
>>> find(terms(atoms=["inc", "nop"]), lambda t: isinstance(t, Pipe))
parse('pipe(inc, inc)')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import sympy
from hypothesis import strategies as st

from ..algebra.normal_forms import blocks
from ..algebra.operators import RESOURCE_SYMBOLS
from ..library.model_library import AtomicModel, ModelLibrary
from ..syntax.symbols import log2, x
from ..syntax.terms import Atom, MapReduce, Pipe, Seq, Term, TPool

__all__ = [
    "coefficients",
    "models",
    "terms",
    "libraries",
    "thread_counts",
    "input_sizes",
    "POLY_EXPONENTS",
    "LOG_EXPONENTS",
    "MAX_INPUT_SIZE",
]

_R = sympy.Rational
#: exponents of x in Extra-P's default search space (:data:`patternalg.algebra.normal_forms.blocks.POLY_EXPONENTS`)
POLY_EXPONENTS: tuple[sympy.Rational, ...] = tuple(
    _R(i.numerator, i.denominator) for i in blocks.POLY_EXPONENTS
)
#: exponents of log2(x) in Extra-P's default search space
LOG_EXPONENTS: tuple[int, ...] = blocks.LOG_EXPONENTS
#: the terms ``(i, j)`` a drawn model is made of: the constant and Extra-P's building blocks
_TERMS: tuple[tuple[sympy.Rational, int], ...] = tuple(
    (_R(i.numerator, i.denominator), j) for i, j in blocks.TERMS
)
#: the largest input size the law checker draws: x ranges over [1, 2^30]
MAX_INPUT_SIZE = 2**30


def coefficients(low: int = -3, high: int = 8) -> st.SearchStrategy[sympy.Rational]:
    """Positive exact coefficients ``m * 10^k`` (m in 1..99, k in [low, high]).

    The exponent is drawn uniformly, so every order of magnitude is as likely as another.

    >>> from hypothesis import find
    >>> c = find(coefficients(), lambda c: c > 10**6)
    >>> c.is_Rational and c > 10**6
    True
    """
    return st.builds(
        lambda k, m: sympy.Integer(m) * _R(10) ** k,
        st.integers(low, high),
        st.integers(1, 99),
    )


def _pmnf_term(coefficient: sympy.Expr, block: tuple[sympy.Rational, int]) -> sympy.Expr:
    i, j = block
    return sympy.Mul(coefficient, sympy.Pow(x, i), sympy.Pow(log2(x), j))


def models(max_terms: int = 2) -> st.SearchStrategy[sympy.Expr]:
    """Closed forms in x of Extra-P's normal form: 1 to ``max_terms`` terms ``c*x^i*log2(x)^j``.

    Constants (i = j = 0) are included; coefficients are positive and span 13 orders
    of magnitude, so a drawn stage can dominate another at small x and lose at large x.

    >>> from hypothesis import find
    >>> find(models(), lambda e: not e.has(x))
    1
    """
    one = st.builds(
        _pmnf_term,
        coefficients(),
        st.sampled_from(_TERMS),
    )
    return st.lists(one, min_size=1, max_size=max_terms).map(lambda ts: sympy.Add(*ts))


def thread_counts(high: int = 64) -> st.SearchStrategy[sympy.Integer]:
    """Thread counts of task pools: positive integers up to ``high``.

    >>> from hypothesis import find
    >>> find(thread_counts(), lambda n: n > 4)
    5
    """
    return st.integers(1, high).map(sympy.Integer)


def input_sizes() -> st.SearchStrategy[int]:
    """Input sizes x in [1, 2^30]: the ends, powers of two, and any integer between.

    >>> from hypothesis import find
    >>> find(input_sizes(), lambda v: v > 1000)
    1001
    """
    return st.one_of(
        st.integers(1, MAX_INPUT_SIZE),
        st.integers(0, 30).map(lambda e: 2**e),
        st.sampled_from([1, MAX_INPUT_SIZE]),
    )


def _atom_names(atoms: Iterable[str] | Mapping[str, object] | None) -> list[str]:
    if atoms is None:
        return sorted(ModelLibrary.builtin())
    names = list(atoms)
    if not names:
        raise ValueError("terms() needs at least one atom name")
    return names


def _annotated(name: str, key: str, value: sympy.Expr) -> Atom:
    return Atom(name, ((key, value),))


def terms(
    max_depth: int = 3,
    atoms: Iterable[str] | Mapping[str, object] | None = None,
    counts: st.SearchStrategy[sympy.Expr] | None = None,
    *,
    mapreduce: bool | None = None,
    annotations: bool = True,
) -> st.SearchStrategy[Term]:
    """Terms of depth at most ``max_depth`` of seq, pipe, tpool and mapReduce over ``atoms``.

    ``atoms`` is a list of atom names or a library (default: the built-in library);
    ``counts`` draws the thread counts of task pools and mapReduce's m and n (default
    :func:`thread_counts` up to 8). ``mapReduce_{m,n}^{d,k}(map, reduce)`` is drawn if
    ``mapreduce`` is true, by default if ``atoms`` holds the ``shuffle`` model it needs;
    with ``annotations``, atoms are drawn with a resource bound too (``inc[p=4]``).
    Shrinking goes toward single plain atoms, then towards the first atom.

    >>> from hypothesis import find
    >>> find(terms(max_depth=2, atoms=["qsort"]), lambda t: t.depth() == 2)
    parse('seq(qsort, qsort)')
    >>> find(terms(max_depth=2, atoms=["inc", "shuffle"]), lambda t: isinstance(t, MapReduce))
    parse('mapReduce_{1,1}^{x,x}(inc, inc)')
    """
    if max_depth < 1:
        raise ValueError(f"max_depth must be at least 1, got {max_depth}")
    names = _atom_names(atoms)
    count_strategy = counts if counts is not None else thread_counts(8)
    leaves = st.sampled_from(names).map(Atom)
    if annotations:
        leaves = st.one_of(
            leaves,
            st.builds(
                _annotated,
                st.sampled_from(names),
                st.sampled_from(sorted(RESOURCE_SYMBOLS)),
                count_strategy,
            ),
        )
    with_mapreduce = "shuffle" in names if mapreduce is None else mapreduce
    # d(x) and k(x): the input size or a constant
    sizes = st.one_of(st.just(x), count_strategy)

    def level(depth: int) -> st.SearchStrategy[Term]:
        if depth == 1:
            return leaves
        below = st.deferred(lambda: level(depth - 1))
        operators = [
            leaves,
            st.builds(Seq, below, below),
            st.builds(Pipe, below, below),
            st.builds(TPool, count_strategy, below),
        ]
        if with_mapreduce:
            operators.append(
                st.builds(
                    MapReduce,
                    count_strategy,
                    count_strategy,
                    sizes,
                    sizes,
                    below,
                    st.none(),
                    below,
                )
            )
        return st.one_of(*operators)

    return level(max_depth)


def libraries(
    min_size: int = 1, max_size: int = 3, prefix: str = "k"
) -> st.SearchStrategy[ModelLibrary]:
    """Libraries of ``min_size`` to ``max_size`` atoms ``k0, k1, ...`` drawn by :func:`models`.

    >>> from hypothesis import find
    >>> sorted(find(libraries(min_size=2, max_size=2), lambda lib: True))
    ['k0', 'k1']
    """
    return st.lists(models(), min_size=min_size, max_size=max_size).map(
        lambda exprs: ModelLibrary(
            AtomicModel(f"{prefix}{i}", e, source="hypothesis: patternalg.laws.strategies.models()")
            for i, e in enumerate(exprs)
        )
    )
