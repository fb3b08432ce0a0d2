"""A fitted PMNF model ``constant + coefficient * x^i * log2(x)^j`` as sympy, as text of the
grammar's arithmetic, and as Extra-P writes its hypothesis.

``block`` indexes :data:`~patternalg.algebra.normal_forms.blocks.BUILDING_BLOCKS`; ``-1`` is the constant model.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import sympy

from ...syntax.symbols import log2
from .blocks import BUILDING_BLOCKS

__all__ = ["pmnf_expr", "pmnf_text", "pmnf_texts", "hypothesis_text"]


def pmnf_expr(
    var: sympy.Symbol,
    constant: float,
    block: int,
    coefficient: float,
    block2: int = -1,
    coefficient2: float = 0.0,
) -> sympy.Expr:
    """``constant + coefficient * var^i * log2(var)^j`` for building block ``block`` (-1: none),
    plus ``coefficient2`` times block ``block2`` (-1: none).

    Equal to building it with ``+`` and ``*``, but some 5x faster (fitting a thousand
    kernels is mostly building their expressions): the canonical argument order that
    sympy's flattening would produce is assembled directly.

    >>> from patternalg.syntax.symbols import x
    >>> e = pmnf_expr(x, 3.0, 25, 0.5)
    >>> e, e == sympy.Float(3.0) + sympy.Float(0.5) * x ** sympy.Rational(3, 2)
    (0.5*x**(3/2) + 3.0, True)
    >>> pmnf_expr(x, 3.0, 18, 9.0, 19, 4.5)
    4.5*x*log2(x) + 9.0*x + 3.0
    """
    if block < 0:
        return sympy.Float(constant)
    term = sympy.Mul._from_args((sympy.Float(coefficient), *_term_factors(var, block)))
    if block2 >= 0:
        second = sympy.Mul._from_args((sympy.Float(coefficient2), *_term_factors(var, block2)))
        parts = (term, second) if constant == 0 else (sympy.Float(constant), term, second)
        return sympy.Add(*parts)
    if constant == 0:
        return term
    return sympy.Add._from_args((sympy.Float(constant), term))


@functools.cache
def _term_factors(var: sympy.Symbol, block: int) -> tuple[sympy.Expr, ...]:
    """The factors of ``var^i * log2(var)^j`` in sympy's canonical order."""
    i, j = BUILDING_BLOCKS[block]
    term = sympy.Mul(
        sympy.Pow(var, sympy.Rational(i.numerator, i.denominator)), sympy.Pow(log2(var), j)
    )
    return term.args if isinstance(term, sympy.Mul) else (term,)


def pmnf_text(
    var: str,
    constant: float,
    block: int,
    coefficient: float,
    block2: int = -1,
    coefficient2: float = 0.0,
) -> str:
    """The model in the grammar's arithmetic (what a model file's ``model`` key holds).

    >>> pmnf_text("x", -2.5, 22, 0.48)
    '0.48*x**(5/4)*log2(x) - 2.5'
    >>> pmnf_text("x", 3.0, 18, 9.0, 19, 4.5)
    '4.5*x*log2(x) + 9.0*x + 3.0'
    """
    constant, coefficient = float(constant), float(coefficient)
    second = repr(float(coefficient2)) if block2 >= 0 else ""
    return _text(var, constant, block, repr(constant), repr(coefficient), block2, second)


def pmnf_texts(
    var: str,
    constants: Sequence[float],
    blocks: Sequence[int],
    constant_texts: Sequence[str],
    coefficient_texts: Sequence[str],
    blocks2: Sequence[int] = (),
    coefficient2_texts: Sequence[str] = (),
) -> list[str]:
    """:func:`pmnf_text` of many models, given the ``repr`` of their constants and
    coefficients (a caller that writes them too formats each float once); ``blocks2`` and
    ``coefficient2_texts`` their second terms, if any model has one.

    >>> pmnf_texts("x", [-2.5, 3.0], [22, -1], ["-2.5", "3.0"], ["0.48", "0.0"])
    ['0.48*x**(5/4)*log2(x) - 2.5', '3.0']
    """
    text = functools.partial(_text, var)
    if not any(h >= 0 for h in blocks2):
        return list(map(text, constants, blocks, constant_texts, coefficient_texts))
    return list(
        map(text, constants, blocks, constant_texts, coefficient_texts, blocks2, coefficient2_texts)
    )


def _text(
    var: str,
    constant: float,
    block: int,
    constant_text: str,
    coefficient_text: str,
    block2: int = -1,
    coefficient2_text: str = "",
) -> str:
    if block < 0:
        return constant_text
    text = _scaled(coefficient_text, _term_text(var, block))
    if block2 >= 0:  # the faster-growing term first, as sympy prints it
        text = _joined(_scaled(coefficient2_text, _term_text(var, block2)), text)
    return text if constant == 0 else _joined(text, constant_text)


def _scaled(coefficient_text: str, term_text: str) -> str:
    """A coefficient and its term's text (``*x``); a coefficient printed as 1 (or -1) as
    nothing (or a sign), as sympy prints one: ``x``, not ``1*x``.

    >>> _scaled("2.5", "*x"), _scaled("1", "*x*log2(x)"), _scaled("-1", "*x"), _scaled("1.0", "*x")
    ('2.5*x', 'x*log2(x)', '-x', '1.0*x')
    """
    if coefficient_text in ("1", "-1"):
        return coefficient_text[:-1] + term_text[1:]
    return coefficient_text + term_text


def _joined(first: str, second: str) -> str:
    """``first + second``, or ``first - ...`` where ``second`` is negative (``repr(-c)`` is
    ``"-" + repr(c)``)."""
    return f"{first} - {second[1:]}" if second.startswith("-") else f"{first} + {second}"


@functools.cache
def _term_text(var: str, block: int) -> str:
    """``*x**(5/4)*log2(x)``: what follows the coefficient in the text of ``block``."""
    i, j = BUILDING_BLOCKS[block]
    factors = [""]
    if i != 0:
        power = "" if i == 1 else f"**{i}" if i.denominator == 1 else f"**({i})"
        factors.append(var + power)
    if j != 0:
        factors.append(f"log2({var})" + (f"**{j}" if j != 1 else ""))
    return "*".join(factors)


@functools.cache
def hypothesis_text(index: int, name: str = "x", index2: int = -1) -> str:
    """A building block as Extra-P writes it; ``-1`` is the constant model; ``index2`` a
    second block (two terms: ``A + B``).

    >>> hypothesis_text(22), hypothesis_text(-1), hypothesis_text(18, "x", 19)
    ('x^(5/4)*log2(x)^1', 'constant', 'x^(1) + x^(1)*log2(x)^1')
    """
    if index2 >= 0:
        return f"{hypothesis_text(index, name)} + {hypothesis_text(index2, name)}"
    if index < 0:
        return "constant"
    i, j = BUILDING_BLOCKS[index]
    parts = ([f"{name}^({i})"] if i != 0 else []) + ([f"log2({name})^{j}"] if j else [])
    return "*".join(parts)
