"""An atom's own error: what its fit misses beyond its coefficients' draws and its points'
noise, as an expression in the fit's parameter, drawn per atom by
:class:`~patternalg.algebra.intervals.Spread` (docs/uncertainty.md, "The models' own
error"): at the held-out sizes what the fits made without them missed, between them linear
in log2(x), beyond them growing as fast as the hypothesis erred beyond what it saw.
"""

from __future__ import annotations

import functools
import sys
from typing import Any

import numpy as np
import sympy

from ..syntax.symbols import log2, x

__all__ = ["own_error"]

#: the doublings beyond an end where an own error's growth is taken net of the draws
_REACH = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
#: the largest growth of an own error per doubling drawn (a model file may say 1e308)
_MOST_GROWTH = sys.float_info.max / 4096
#: the most sizes an atom's own error is interpolated between (a piece each, in every
#: draw's expression: a profile's 200 runs would make each atom's model 200 pieces long)
_KNOTS = 9


@functools.lru_cache(maxsize=256)
def own_error(expr: sympy.Expr, u: Any) -> sympy.Expr | None:
    """An atom's own relative error beyond its coefficients' draws and its points' noise, as
    an expression in the fit's parameter, x or another (None: none seen, no held-out
    errors, or a model in several symbols other than x): at each held-out size
    ``sqrt(max(0, s^2 - c^2 - noise^2))`` with ``s`` the held-out errors pooled there
    (:meth:`~patternalg.algebra.uncertainty.Uncertainty.held_out_local`) and ``c`` the
    coefficients' relative spread; between the sizes linear in log2(x) (at most ``_KNOTS``
    of them, evenly chosen); ``k`` steps (the sizes' own spacing at that end) beyond them
    ``k`` times the end's: the end's held-out error is that of a prediction one step beyond
    the points its fit saw; where the fit measured its hypothesis's ``growth`` (relative
    error per doubling beyond the sizes a fit saw, below and above), ``d`` doublings beyond
    an end the larger of the end's and ``growth * d`` less what the coefficients' draws say
    there (:func:`_grown`). A model constant in x (a term bound to no size) gets the root
    mean square over the sizes.

    >>> from patternalg.algebra.uncertainty import Uncertainty
    >>> from patternalg.syntax.symbols import x
    >>> u = Uncertainty((sympy.Integer(1),), ((0.0,),), 5, 0.01, "linear",
    ...                 ((1.0, 0.05), (2.0, -0.05), (4.0, 0.05)))
    >>> e = own_error(100 + 0 * x, u)
    >>> [round(float(e.subs(x, v)), 4) for v in (1, 4, 8)]
    [0.049, 0.049, 0.049]
    >>> from patternalg.syntax.symbols import symbol
    >>> n = symbol("n")
    >>> grown = own_error(100 + n, u)  # a profile's atom keeps its parameter's name: two steps beyond, twice
    >>> sorted(map(str, grown.free_symbols)), round(float(grown.subs(n, 16)), 4)
    (['n'], 0.098)
    >>> from dataclasses import replace
    >>> drifts = own_error(100 + x, replace(u, growth=(0.0, 0.02)))  # 2 % per doubling above
    >>> [round(float(drifts.subs(x, v)), 4) for v in (2, 8, 64)]
    [0.049, 0.049, 0.08]
    """
    if not getattr(u, "held_out", ()):
        return None
    symbols = expr.free_symbols
    if len(symbols) > 1 and x not in symbols:  # held out over which of them: not recorded
        return None
    var = next(iter(symbols)) if len(symbols) == 1 else x  # the fit's parameter (x, n, p, ...)
    sizes, scale = u.held_out_local()
    logs = np.log2(sizes)
    steps = (float(logs[1] - logs[0]), float(logs[-1] - logs[-2])) if len(sizes) > 1 else (1.0, 1.0)
    if len(sizes) > _KNOTS:  # many sizes (a scan, a profile's runs): the error at a few of them
        knots = np.unique(np.linspace(0, len(sizes) - 1, _KNOTS).round().astype(int))
        sizes, scale = sizes[knots], scale[knots]
    with np.errstate(over="ignore"):  # a noise of 1e308 leaves the model no error of its own
        own = np.sqrt(np.clip(scale**2 - _drawn(expr, u, sizes, var) ** 2 - np.float64(u.noise) ** 2, 0.0, None))
    # at most what keeps growth * d finite over every double's log2 (|d| < 4096)
    growth = tuple(min(float(g), _MOST_GROWTH) for g in getattr(u, "growth", ())) or (0.0, 0.0)
    if not (np.any(own > 0) or any(g > 0 for g in growth)) or not np.all(np.isfinite(own)):
        return None
    if not symbols:
        return sympy.Float(float(np.sqrt(np.mean(own**2))))
    if len(sizes) == 1:
        return sympy.Float(own[0])
    at = [sympy.Float(v) for v in np.log2(sizes)]
    where = log2(var)
    if any(growth):  # beyond either end: as fast as the hypothesis erred beyond what it saw
        pieces = _grown(expr, u, var, float(logs[0]), -1, growth[0], float(own[0]))
    else:  # the end's value grown as the held-out scale grows
        pieces = [(sympy.Float(own[0]) * sympy.Max(1, (at[0] - where) / steps[0]), where < at[0])]
    for i in range(len(at) - 1):
        slope = (own[i + 1] - own[i]) / float(at[i + 1] - at[i])
        pieces.append((sympy.Float(own[i]) + sympy.Float(slope) * (where - at[i]), where < at[i + 1]))
    if any(growth):
        pieces += _grown(expr, u, var, float(logs[-1]), 1, growth[1], float(own[-1]))
    else:
        pieces.append((sympy.Float(own[-1]) * sympy.Max(1, (where - at[-1]) / steps[1]), True))
    return sympy.Piecewise(*pieces, evaluate=False)  # the pieces are in order: nothing to simplify


def _drawn(expr: sympy.Expr, u: Any, sizes: np.ndarray, var: sympy.Symbol) -> np.ndarray:
    """The relative spread the coefficients' draws give ``expr`` at ``sizes`` (0 where its
    terms are in other symbols than the fit's: their draws are not known here, or where
    the model is not a positive number)."""
    if not all(term.free_symbols <= {var} for term in u.terms):
        return np.zeros_like(sizes)
    with np.errstate(all="ignore"):
        value = np.abs(_at(expr, sizes, var))
        g = np.array([_at(term, sizes, var) for term in u.terms])  # (terms, sizes)
        variance = np.einsum("il,ij,jl->l", g, np.array(u.covariance, dtype=float), g)
        drawn = np.sqrt(np.clip(variance, 0.0, None)) / np.where(value > 0, value, np.inf)
    return np.nan_to_num(drawn, nan=0.0, posinf=0.0)


def _grown(expr: sympy.Expr, u: Any, var: sympy.Symbol, edge: float, side: int, rate: float,
           end: float) -> list[tuple[sympy.Expr, Any]]:  # fmt: skip
    """The pieces of an own error beyond the end at ``log2(var) = edge`` (``side`` -1:
    below it, 1: above), in ascending order of x: ``rate * d`` at ``d`` doublings beyond,
    less what the coefficients' draws already say there (taken at :data:`_REACH` and
    linear in log2(x) between; nothing counts twice), never below the end's own ``end``."""
    where = log2(var)
    if rate <= 0:
        return [(sympy.Float(end), where < edge if side < 0 else sympy.true)]
    reach = np.array(_REACH)
    with np.errstate(all="ignore"):
        drawn = _drawn(expr, u, 2.0 ** (edge + side * reach), var)
    grown = rate * reach  # (a^2 - c^2)^(1/2) as a (1 - (c/a)^2)^(1/2): no square overflows
    values = np.maximum(end, grown * np.sqrt(np.clip(1.0 - (drawn / grown) ** 2, 0.0, None)))
    d = side * (where - sympy.Float(edge))
    known = [(0.0, end), *zip(reach.tolist(), values.tolist(), strict=True)]
    pieces = [  # from the end outwards: d in [a, b) of each pair of knots, then past the last
        (sympy.Float(va) + sympy.Float((vb - va) / (b - a)) * (d - sympy.Float(a)),
         where < edge + b if side > 0 else where < edge - a)
        for (a, va), (b, vb) in zip(known, known[1:], strict=False)
    ]  # fmt: skip
    pieces.append((sympy.Float(known[-1][1] / known[-1][0]) * d, sympy.true if side > 0 else where < edge - known[-1][0]))
    return pieces if side > 0 else pieces[::-1]


def _at(expr: sympy.Expr, sizes: np.ndarray, var: sympy.Symbol) -> np.ndarray:
    """``expr`` (in ``var`` at most) at a few sizes, numerically: no function is compiled
    for the nine or so sizes of a fit (compiling one costs more than evaluating it there)."""
    if var not in expr.free_symbols:
        return np.full(len(sizes), float(expr))
    return np.array([float(expr.xreplace({var: sympy.Float(v)})) for v in sizes])
