"""One atom's performance model (:class:`AtomicModel`) and the rules for atom names.

The algebra evaluates terms over any ``Mapping[str, AtomicModel]``; reading and writing
model files is :mod:`patternalg.library`'s job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import sympy

from .arith import format_expr
from .syntax import RESERVED_PREFIXES, RESERVED_WORDS

__all__ = ["AtomicModel", "COMMON_KEYS", "valid_atom_name"]

#: keys every model table may have, whatever its form
COMMON_KEYS = ("form", "unit", "source", "x_range", "fit", "domain")
_ATOM_NAME = re.compile(r"[a-z][A-Za-z0-9_]*\Z")


def valid_atom_name(name: str) -> bool:
    """Whether ``name`` can be written as an atom in a term.

    >>> valid_atom_name("map_hadoop"), valid_atom_name("Sort"), valid_atom_name("tpool_x")
    (True, False, False)
    """
    return (
        bool(_ATOM_NAME.match(name))
        and name not in RESERVED_WORDS
        and not name.startswith(RESERVED_PREFIXES)
        and not name.endswith("_")
    )


@dataclass(frozen=True)
class AtomicModel:
    """One atom's performance model: a closed form in x (and p, phi, ...) with provenance.

    ``form`` names the family (``expr`` for a plain expression) and ``spec`` holds the
    form's own keys as they appear in a model file; ``fit`` holds fit statistics,
    ``domain`` the measured range of every symbol and ``x_range`` that of x, if the model
    was fitted.

    >>> from patternalg.symbols import x
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

    def __post_init__(self) -> None:
        if self.x_range is not None and all(symbol != "x" for symbol, _ in self.domain):
            domain = tuple(sorted((*self.domain, ("x", self.x_range))))
            object.__setattr__(self, "domain", domain)

    @property
    def ranges(self) -> dict[str, tuple[float, float]]:
        """The measured [low, high] of each input symbol (empty if not fitted)."""
        return dict(self.domain)

    def to_toml(self) -> dict[str, Any]:
        """The table this model is written as in a model file."""
        table: dict[str, Any] = {}
        if self.form != "expr":
            table["form"] = self.form
        table.update(dict(self.spec) if self.spec else {"model": format_expr(self.expr)})
        table["unit"] = self.unit
        if self.source:
            table["source"] = self.source
        if self.x_range is not None:
            table["x_range"] = [float(v) for v in self.x_range]
        if any(symbol != "x" for symbol, _ in self.domain):
            table["domain"] = {symbol: [low, high] for symbol, (low, high) in self.domain}
        if self.fit:
            table["fit"] = dict(self.fit)
        return table

    def _repr_latex_(self) -> str:
        return f"$\\mathrm{{{self.name}}}(x) = {sympy.latex(self.expr)}$"
