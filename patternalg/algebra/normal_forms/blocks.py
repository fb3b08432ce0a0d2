"""The building blocks of Extra-P's performance model normal form (PMNF), defined once.

A building block ``(i, j)`` stands for the term ``x^i * log2(x)^j``. The fitter tries
:data:`BUILDING_BLOCKS` (Extra-P 4.2.5's 42, in its search order, so that ``--modeler
basic`` agrees with Extra-P); a fitted model is a constant plus at most one of them, so
the shapes a fitted model can take are :data:`TERMS` (the constant block ``(0, 0)``
first). The algebra's normal forms, the fitter and :mod:`patternalg.laws.strategies` all use
these tuples.

>>> len(BUILDING_BLOCKS), BUILDING_BLOCKS[:3]
(42, ((Fraction(0, 1), 1), (Fraction(0, 1), 2), (Fraction(1, 4), 0)))
>>> TERMS[0], len(TERMS)
((Fraction(0, 1), 0), 43)
>>> [str(i) for i in POLY_EXPONENTS[:8]], LOG_EXPONENTS
(['0', '1/4', '1/3', '1/2', '2/3', '3/4', '4/5', '1'], (0, 1, 2))
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["Block", "BUILDING_BLOCKS", "TERMS", "POLY_EXPONENTS", "LOG_EXPONENTS"]

Block = tuple[Fraction, int]  #: (exponent of x, exponent of log2(x))

#: Extra-P 4.2.5's 42 building blocks (exponent of x, exponent of log2 x), in its search order
# fmt: off
BUILDING_BLOCKS: tuple[Block, ...] = tuple(
    (Fraction(a, b), c)
    for a, b, c in [
        (0, 1, 1), (0, 1, 2), (1, 4, 0), (1, 3, 0), (1, 4, 1), (1, 3, 1), (1, 4, 2), (1, 3, 2),
        (1, 2, 0), (1, 2, 1), (1, 2, 2), (2, 3, 0), (3, 4, 0), (2, 3, 1), (3, 4, 1), (4, 5, 0),
        (2, 3, 2), (3, 4, 2), (1, 1, 0), (1, 1, 1), (1, 1, 2), (5, 4, 0), (5, 4, 1), (4, 3, 0),
        (4, 3, 1), (3, 2, 0), (3, 2, 1), (3, 2, 2), (5, 3, 0), (7, 4, 0), (2, 1, 0), (2, 1, 1),
        (2, 1, 2), (9, 4, 0), (7, 3, 0), (5, 2, 0), (5, 2, 1), (5, 2, 2), (8, 3, 0), (11, 4, 0),
        (3, 1, 0), (3, 1, 1),
    ]
)
# fmt: on

#: the constant term followed by the building blocks: every term a fitted PMNF model can hold
TERMS: tuple[Block, ...] = ((Fraction(0), 0), *BUILDING_BLOCKS)
#: the exponents of x that occur in :data:`TERMS`, ascending
POLY_EXPONENTS: tuple[Fraction, ...] = tuple(sorted({i for i, _ in TERMS}))
#: the exponents of log2(x) that occur in :data:`TERMS`, ascending
LOG_EXPONENTS: tuple[int, ...] = tuple(sorted({j for _, j in TERMS}))
