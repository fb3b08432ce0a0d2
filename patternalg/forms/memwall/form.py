"""The memory-wall form (paper 003): T(x, p, phi) = T_1(x) / S_p with the variable-delay speedup

    S_p = ((1 - mu_1) + rho*mu_1) / max(((1 - mu_p) + rho*mu_p)*((1 - f) + f/p), rho*mu_p)

of eq. (15), mu_p = min(m1 + m2/p, 1) (eq. 16) and rho = 1 + k*phi (eq. 10), phi being the
ratio F_CPU / F_Mem. Parameters: the parallel fraction f, the memory-delay factor k, and
m1, m2 for the fraction of memory instructions. S_1 = 1 for every parameter set.

A model file writes (``t1`` is optional; without it the model is the time relative to the
1-core time at the same frequency, 1/S_p)::

    [models.canneal]
    form = "memwall"
    f = 0.9946
    k = 0.4341
    m1 = 0.0057
    m2 = 0.8562

>>> from patternalg.syntax.symbols import p, phi
>>> s = speedup_expr(0.99, 2.0, 0.05, 0.5)
>>> s.xreplace({p: 1})
1
>>> round(float(s.xreplace({p: 8, phi: 2.0})), 6)
5.688889

Fitting (``patternalg fit FILE --form memwall``) is in :mod:`.fit`, by the Coupled Simulated
Annealing of :mod:`.csa`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, TypeAlias

import sympy

from ..._internal.limits import MAX_ANNEALING_ITERATIONS
from ..._internal.options import Option
from ...algebra.bindings import as_value
from ...syntax.symbols import p, phi
from ..amdahl.form import serial_fraction
from ..base import Form
from ..fit_options import aggregate_option, uncertainty_option
from ..parameters import Parameter

__all__ = ["Memwall", "speedup_expr", "memwall_expr", "over_p_phi", "BOUNDS", "ITERATIONS"]

#: the search bounds of paper 003, section 4.3: f, m1, m2 in [0, 1], k in [0, 10]
BOUNDS: dict[str, tuple[float, float]] = {
    "f": (0.0, 1.0),
    "k": (0.0, 10.0),
    "m1": (0.0, 1.0),
    "m2": (0.0, 1.0),
}
#: default iteration budget of the annealing (paper 003 used 30,000)
ITERATIONS = 10_000

Value: TypeAlias = "sympy.Expr | float"


def _memory_share(mu: sympy.Expr, rho: sympy.Expr) -> sympy.Expr:
    """(1 - mu) + rho*mu: the time of one instruction mix relative to pure processor work."""
    return sympy.Add(1, -mu, sympy.Mul(rho, mu))


def _lazy(op: type[sympy.Min] | type[sympy.Max], a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
    """``op(a, b)``, left unevaluated while a side depends on p.

    Deciding Min/Max of sides symbolic in p costs sympy some 80 ms per model and decides
    nothing (the order changes with p); binding p evaluates them. Sides in phi alone are
    evaluated, so S_1 = 1 comes out exactly.
    """
    if p in a.free_symbols or p in b.free_symbols:
        return op(a, b, evaluate=False)
    return op(a, b)


def speedup_expr(f: Value, k: Value, m1: Value, m2: Value) -> sympy.Expr:
    """S_p of eq. (15) in the symbols ``p`` and ``phi``; exact (``sympy.Min``/``Max``).

    >>> speedup_expr(1, 0, 0, 0)
    1/Max(0, 1/p)
    >>> _.xreplace({p: 4})
    4
    """
    # a float stays a float (as_value reads 1.0 as the integer 1, for thread counts): mixed
    # with the other floats, an integer k left S_1 = (phi + 1)/(1.0*phi + 1.0), not 1
    f, k, m1, m2 = (sympy.Float(v) if isinstance(v, float) else as_value(v) for v in (f, k, m1, m2))
    rho = sympy.Add(1, sympy.Mul(k, phi))
    mu_1 = sympy.Min(sympy.Add(m1, m2), 1)  # numbers when read from a model file
    mu_p = _lazy(sympy.Min, sympy.Add(m1, sympy.Mul(m2, sympy.Pow(p, -1))), sympy.Integer(1))
    amdahl = sympy.Add(serial_fraction(f), sympy.Mul(f, sympy.Pow(p, -1)))
    slowest = _lazy(sympy.Max, sympy.Mul(_memory_share(mu_p, rho), amdahl), sympy.Mul(rho, mu_p))
    return sympy.Mul(_memory_share(mu_1, rho), sympy.Pow(slowest, -1))


def memwall_expr(f: Value, k: Value, m1: Value, m2: Value, t1: Value = 1) -> sympy.Expr:
    """T_1 / S_p: the time on p cores at frequency ratio phi.

    >>> from patternalg.syntax.symbols import x
    >>> memwall_expr(1, 0, 0, 0, 5 * x).xreplace({p: 4})
    5*x/4
    """
    return sympy.Mul(as_value(t1), sympy.Pow(speedup_expr(f, k, m1, m2), -1))


def _t1_check(t1: sympy.Expr) -> str | None:
    if p in t1.free_symbols:
        return "the 1-core time must not depend on p (the form adds it)"
    return None


def over_p_phi(series: Any) -> Any:
    """The series over ``p`` and ``phi``: ``phi = f_cpu / f_mem`` where the file gives the
    two frequencies, so that two pairs of one ratio are one point.

    >>> from patternalg.measurements.csv import CsvReader
    >>> text = "p,f_cpu,f_mem,speedup\\n1,2,1,1\\n1,4,2,1\\n2,2,1,1.8\\n"
    >>> over_p_phi(CsvReader.read("m.csv", text).series[0]).points.tolist()
    [[1.0, 2.0], [2.0, 2.0]]
    """
    if "phi" not in series.parameters:
        series = series.with_column("phi", series.column("f_cpu") / series.column("f_mem"))
    return series.over(["p", "phi"])


class Memwall(Form):
    """Memory-wall speedup model (paper 003)."""

    name = "memwall"
    parameters: ClassVar[tuple[Parameter, ...]] = (
        Parameter("f", bounds=BOUNDS["f"], help="the parallel fraction"),
        Parameter("k", bounds=(0.0, float("inf")), help="the memory-delay factor"),
        Parameter("m1", bounds=BOUNDS["m1"], help="memory instructions: m1 + m2/p"),
        Parameter("m2", bounds=BOUNDS["m2"], help="memory instructions: m1 + m2/p"),
        Parameter(
            "t1",
            kind="expression",
            required=False,
            check=_t1_check,
            help="the 1-core time (default 1: the time relative to it)",
        ),
    )
    fitter = "patternalg.forms.memwall.fit:MemwallFitter"
    inputs = ("p", "phi")
    fit_options: ClassVar[tuple[Option, ...]] = (
        Option("seed", 0, "seed of the annealing", type=int, minimum=0),
        Option(
            "iterations",
            ITERATIONS,
            "annealing iteration budget",
            type=int,
            minimum=1,
            maximum=MAX_ANNEALING_ITERATIONS,
        ),
        aggregate_option("median"),
        uncertainty_option(),
    )

    def term_coefficients(self) -> tuple[float, ...]:
        """f, k, m1, m2: the delta method's terms are the derivatives by them."""
        return () if self._uncertainty is None else tuple(float(self.values[n]) for n in "f k m1 m2".split())

    def _term_names(self) -> tuple[str, ...]:
        return ("f", "k", "m1", "m2")

    def _build(self, values: Mapping[str, sympy.Expr]) -> sympy.Expr:
        t1 = values.get("t1", sympy.Integer(1))
        return memwall_expr(values["f"], values["k"], values["m1"], values["m2"], t1)
