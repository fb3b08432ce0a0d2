"""One atom's performance model (:class:`AtomicModel`) and the rules for atom names.

The algebra evaluates terms over any ``Mapping[str, AtomicModel]``; reading and writing
model files is :mod:`patternalg.library.model_library`'s job.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Any

import sympy

from .._internal.display import brief, ranges_text
from ..errors import ArgumentError
from ..syntax.arith import check_finite, format_expr, latex_definition, shown_text
from ..syntax.parser import SYMBOL_RULE, is_symbol_name, parse_arithmetic
from ..syntax.symbols import symbol
from ..syntax.terms import writable_atom_name
from .uncertainty import Uncertainty
from .unit_text import check_unit

__all__ = [
    "AtomicModel",
    "ATOM_NAME_RULE",
    "COMMON_KEYS",
    "expression_problem",
    "model_table",
    "own_symbols",
    "stated_numbers",
    "valid_atom_name",
]

#: keys every model table may have, whatever its form
COMMON_KEYS = ("form", "unit", "source", "x_range", "fit", "domain", "uncertainty", "touches_data")


#: :func:`valid_atom_name`'s rule, as a message says it
ATOM_NAME_RULE = "a lowercase letter, then letters, digits or _; not seq, pipe, tpool_..., mapReduce_..."


def valid_atom_name(name: str) -> bool:
    """Whether ``name`` can be written as an atom in a term.

    >>> valid_atom_name("map_hadoop"), valid_atom_name("Sort"), valid_atom_name("tpool_x")
    (True, False, False)
    >>> valid_atom_name("main.lulesh_cycle.timeincrement"), valid_atom_name("main.2d")
    (True, False)
    """
    return writable_atom_name(name) and not name.endswith("_")


@dataclass(frozen=True)
class AtomicModel:
    """One atom's performance model: a closed form in x (and p, phi, ...) with provenance.

    ``form`` names the family (``expr`` for a plain expression) and ``spec`` holds the
    form's own keys as they appear in a model file; ``fit`` holds fit statistics,
    ``domain`` the measured range of every symbol and ``x_range`` that of x, if the model
    was fitted; ``uncertainty`` how sure the fit is
    (:class:`~patternalg.algebra.uncertainty.Uncertainty`; None: not fitted, or no repetitions).
    ``touches_data`` is false for an atom that passes its data on untouched (``nop``): as a
    pipeline stage it pays no hand-off (:mod:`.machine`).

    >>> from patternalg.syntax.symbols import x
    >>> AtomicModel("inc", 536.185 * x).to_toml()
    {'model': '536.185*x', 'unit': 'ns'}
    """

    name: str
    expr: sympy.Expr
    unit: str = "ns"
    source: str = ""
    form: str = "expr"
    spec: tuple[tuple[str, Any], ...] = ()
    x_range: tuple[float, float] | None = None
    fit: tuple[tuple[str, Any], ...] = field(default=(), compare=False)
    domain: tuple[tuple[str, tuple[float, float]], ...] = ()
    uncertainty: Uncertainty | None = field(default=None, compare=False)
    touches_data: bool = True

    def __post_init__(self) -> None:
        """The checks a model file's reader makes (:mod:`patternalg.library.model_library`):
        a model it writes, it reads back."""
        if not isinstance(self.name, str) or not valid_atom_name(self.name):
            raise ArgumentError.wanted("AtomicModel name", f"an atom's name such as 'qsort' ({ATOM_NAME_RULE})", self.name)
        where = f"AtomicModel {self.name!r}"
        expr = _expression(self.expr, f"{where} expr")
        problem = expression_problem(expr)
        if problem:
            raise ArgumentError(f"{where} expr: {problem}")
        object.__setattr__(self, "expr", expr)
        object.__setattr__(self, "unit", check_unit(self.unit, f"{where} unit"))
        if self.x_range is not None:
            object.__setattr__(self, "x_range", _range(self.x_range, f"AtomicModel {self.name!r} x_range"))
        domain = tuple((s, _range(r, f"AtomicModel {self.name!r} domain[{s!r}]")) for s, r in self.domain)
        object.__setattr__(self, "domain", domain)
        if self.x_range is not None and all(symbol != "x" for symbol, _ in self.domain):
            domain = tuple(sorted((*self.domain, ("x", self.x_range))))
            object.__setattr__(self, "domain", domain)

    @property
    def ranges(self) -> dict[str, tuple[float, float]]:
        """The measured [low, high] of each input symbol (empty if not fitted)."""
        return dict(self.domain)

    def to_toml(self) -> dict[str, Any]:
        """The table this model is written as in a model file."""
        table = model_table(
            self.form,
            self.spec or (("model", format_expr(self.expr)),),
            unit=self.unit,
            source=self.source,
            x_range=self.x_range,
            domain=self.domain,
            fit=self.fit,
            uncertainty=self.uncertainty,
        )
        if not self.touches_data:
            table["touches_data"] = False
        return table

    def __repr__(self) -> str:
        """Its name and unit, its family if not a plain expression, where it was fitted, and
        its closed form, on one line (:meth:`to_toml` has every field).

        >>> from patternalg.syntax.symbols import x
        >>> AtomicModel("k", sympy.Float(2.5) * x, form="pmnf", domain=(("x", (4.0, 64.0)),))
        AtomicModel(k [ns], pmnf, fitted on x in [4, 64]: 2.5*x)
        """
        said = [f"{self.name} [{self.unit}]"]
        if self.form != "expr":
            said.append(self.form)
        if self.domain:
            said.append(f"fitted on {ranges_text(self.domain)}")
        return brief("AtomicModel", f"{', '.join(said)}: {shown_text(format_expr(self.expr))}")

    def _repr_latex_(self) -> str:
        return latex_definition(self.name, sorted(s.name for s in self.expr.free_symbols), self.expr)


def stated_numbers(model: AtomicModel) -> tuple[sympy.Expr, ...]:
    """The numbers ``model`` is stated in, for the digits a value shows: its form's own
    numbers where its table gives them (a memory-wall model's f, k, m1, m2), else its closed
    form (whose decimals are then the stated ones). A closed form built from a table may
    hold decimals that arithmetic made (``1.6662 * 0.2725`` is ``0.45403949999999993``):
    their 17 digits are noise, not precision.

    >>> from patternalg.syntax.symbols import x
    >>> stated_numbers(AtomicModel("k", sympy.Float(1.25) * x))
    (1.25*x,)
    >>> stated_numbers(AtomicModel("k", x, form="memwall", spec=(("f", 0.9771), ("k", 1.6662))))
    (0.977100000000000, 1.66620000000000)
    """
    numbers = tuple(sympy.Float(v) for _, v in model.spec if isinstance(v, float))
    return numbers or (model.expr,)


def _expression(value: Any, what: str) -> sympy.Expr:
    """A model's closed form: a sympy expression, a number, or a text of the safe arithmetic.

    >>> _expression("2*x + 1", "expr"), _expression(3, "expr")
    (2*x + 1, 3)
    """
    if isinstance(value, str):
        return parse_arithmetic(value)
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return sympy.Integer(int(value)) if isinstance(value, numbers.Integral) else sympy.Float(float(value))
    if not isinstance(value, sympy.Expr):
        raise ArgumentError.wanted(what, "a sympy expression, a number or a model's text such as '2*x'", value)
    return own_symbols(value, what)


def own_symbols(expr: sympy.Expr, what: str) -> sympy.Expr:
    """``expr`` in patternalg's symbols: each free symbol is the one of its name
    (:func:`~patternalg.syntax.symbols.symbol`, positive), as the arithmetic reads it. A
    notebook's ``sympy.Symbol("x")`` is another symbol to sympy: a binding of x would not
    reach it. Such a symbol with a name the arithmetic cannot read is an ArgumentError at
    ``what``.

    >>> own_symbols(2 * sympy.Symbol("x"), "expr").free_symbols == {symbol("x")}
    True
    >>> own_symbols(sympy.Symbol("a b"), "expr")
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: expr: expected an expression in symbols named as in a model's text (a letter, then letters, digits or _; not a function (log, Max), a pattern's word or prefix (seq, pipe, tpool_), nor a number's name (oo, nan, inf)); got Symbol a b
    """
    swaps = {}
    for free in expr.free_symbols:
        if isinstance(free, sympy.Symbol) and free is symbol(free.name):
            continue  # one of patternalg's own (a draw's _delta_k_0 too)
        if not isinstance(free, sympy.Symbol) or not is_symbol_name(free.name):
            raise ArgumentError.wanted(what, f"an expression in symbols named as in a model's text ({SYMBOL_RULE})", free)
        swaps[free] = symbol(free.name)
    return expr.xreplace(swaps) if swaps else expr


def expression_problem(expr: sympy.Expr) -> str | None:
    """What makes ``expr`` no model of a time (None: nothing), as a message says it.

    >>> from patternalg.syntax.symbols import x
    >>> expression_problem(2 * x), expression_problem(x + sympy.zoo), expression_problem(sympy.sqrt(-x))
    (None, 'the model zoo is infinite or undefined (a division by zero?)', 'the model I*sqrt(x) is not real (a root or log of a negative number?)')
    """
    if not check_finite(expr):
        return f"the model {format_expr(expr)} is infinite or undefined (a division by zero?)"
    if expr.has(sympy.I):
        return f"the model {format_expr(expr)} is not real (a root or log of a negative number?)"
    return None


def _range(value: Any, what: str) -> tuple[float, float]:
    """A measured range: two finite numbers, the lower first, as doubles.

    >>> _range((1, 10), "x_range")
    (1.0, 10.0)
    """
    try:
        low, high = (float(v) for v in value)
    except (TypeError, ValueError):
        raise ArgumentError.wanted(what, "two numbers (low, high)", value) from None
    if not (math.isfinite(low) and math.isfinite(high) and low <= high):
        raise ArgumentError.wanted(what, "two finite numbers, the lower first", value)
    return low, high


def model_table(
    form: str,
    spec: tuple[tuple[str, Any], ...],
    *,
    unit: str,
    source: str = "",
    x_range: tuple[float, float] | None = None,
    domain: tuple[tuple[str, tuple[float, float]], ...] = (),
    fit: tuple[tuple[str, Any], ...] = (),
    uncertainty: Uncertainty | None = None,
) -> dict[str, Any]:
    """A model file's table of a model: its form's keys ``spec`` and the common keys.

    >>> model_table("pmnf", (("model", "2*x"),), unit="ms", x_range=(1, 8))
    {'form': 'pmnf', 'model': '2*x', 'unit': 'ms', 'x_range': [1.0, 8.0]}
    """
    table: dict[str, Any] = {}
    if form != "expr":
        table["form"] = form
    table.update(dict(spec))
    table["unit"] = unit
    if source:
        table["source"] = source
    if x_range is not None:
        table["x_range"] = [float(v) for v in x_range]
    if any(symbol != "x" for symbol, _ in domain):
        table["domain"] = {symbol: [low, high] for symbol, (low, high) in domain}
    if fit:
        table["fit"] = dict(fit)
    if uncertainty is not None:
        table["uncertainty"] = uncertainty.to_table()
    return table
