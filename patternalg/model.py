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
COMMON_KEYS = ("form", "unit", "source", "x_range", "domain", "fit")
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


#: symbol name -> measured (low, high), as a sorted tuple of pairs (hashable)
Domain = tuple[tuple[str, tuple[float, float]], ...]


@dataclass(frozen=True)
class AtomicModel:
    """One atom's performance model: a closed form in x (and p, phi, ...) with provenance.

    ``form`` names the family (``expr`` for a plain expression) and ``spec`` holds the
    form's own keys as they appear in a model file; ``fit`` holds fit statistics and
    ``domain`` the measured range of every input symbol, if the model was fitted
    (``x_range`` gives the range of x alone; a model file may still say ``x_range``).
    ``unit`` is the unit of the model's values (:mod:`patternalg.units`).

    >>> from patternalg.symbols import x
    >>> AtomicModel("inc", 536.185 * x).to_toml()
    {'model': '536.185*x', 'unit': 'ns'}
    >>> AtomicModel("k", 2 * x, x_range=(8.0, 64.0)).to_toml()["domain"]
    {'x': [8.0, 64.0]}
    """

    name: str
    expr: sympy.Expr
    unit: str = "ns"
    source: str = ""
    form: str = "expr"
    spec: tuple[tuple[str, Any], ...] = ()
    x_range: tuple[float, float] | None = None
    fit: tuple[tuple[str, Any], ...] = field(default=(), compare=False)
    domain: Domain = ()

    def __post_init__(self) -> None:
        ranges = {key: (float(lo), float(hi)) for key, (lo, hi) in self.domain}
        if self.x_range is not None:
            ranges.setdefault("x", (float(self.x_range[0]), float(self.x_range[1])))
        object.__setattr__(self, "domain", tuple(sorted(ranges.items())))
        object.__setattr__(self, "x_range", ranges.get("x"))

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
        if self.domain:
            table["domain"] = {key: [lo, hi] for key, (lo, hi) in self.domain}
        if self.fit:
            table["fit"] = dict(self.fit)
        return table

    def _repr_latex_(self) -> str:
        return f"$\\mathrm{{{self.name}}}(x) = {sympy.latex(self.expr)}$"
