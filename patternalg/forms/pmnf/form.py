"""The PMNF family: a model ``c0 + c1 * x^i * log2(x)^j`` (the default modeler may add a
second term of the same power), written as plain arithmetic.

A model file holds a fitted model as the grammar's arithmetic, with its statistics::

    [models.sort]
    form = "pmnf"
    model = "0.4827*x**(5/4)*log2(x) + 2.818"
    x_range = [4.0, 64.0]
    fit = { hypothesis = "x^(5/4)*log2(x)^1", smape = 1.2, ... }

A fitted model is in its parameter's own name (``PARAMETER n``: a model in n) unless
``param`` maps it to another symbol (``param=["n=x"]``).

>>> PMNF.from_table({"model": "2.818 + 0.4827*x^(5/4)*log2(x)"}, "models.sort").expr
0.4827*x**(5/4)*log2(x) + 2.818
>>> import tempfile, os
>>> from patternalg.measurements import read
>>> path = os.path.join(tempfile.mkdtemp(), "m.txt")
>>> _ = open(path, "w").write("PARAMETER n\\nPOINTS 4 8 16 32 64\\nREGION scale\\n"
...     + "".join(f"DATA {3 + 0.5 * v:g}\\n" for v in (4, 8, 16, 32, 64)))
>>> model = PMNF.fit(read(path))
>>> model.text(), model.domain, model.statistics["hypothesis"]
('0.5*n + 3.0', {'n': (4.0, 64.0)}, 'n^(1)')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import sympy

from ..._internal.options import Option
from ..base import Form
from ..fit_options import aggregate_option, uncertainty_option, unit_option
from ..parameters import Parameter
from .modelers import MODELERS

__all__ = ["PMNF", "term_centers"]


def term_centers(count: int, c0: float, *chosen: float) -> tuple[float, ...]:
    """The fitted coefficients of an uncertainty's ``count`` terms: the constant, the
    chosen blocks' coefficients (none: a constant model) and 0 for the other blocks.

    >>> term_centers(3, 2.5, 0.5), term_centers(2, 2.5), term_centers(4, 2.5, 0.5, 0.25)
    ((2.5, 0.5, 0.0), (2.5, 0.0), (2.5, 0.5, 0.25, 0.0))
    """
    return (float(c0), *map(float, chosen), *[0.0] * (count - 1 - len(chosen)))


class PMNF(Form):
    """Extra-P's performance model normal form."""

    name = "pmnf"
    parameters: ClassVar[tuple[Parameter, ...]] = (
        Parameter("model", kind="expression", help="the fitted model (the grammar's arithmetic)"),
    )
    inputs = ("x",)
    fitter = "patternalg.forms.pmnf.fitter:PMNFFitter"
    fit_options: ClassVar[tuple[Option, ...]] = (
        Option(
            "modeler",
            "default",
            "basic: Extra-P 4.2.5's modeler; default: ours",
            choices=tuple(MODELERS),
        ),
        aggregate_option(None, "biweight; mean with --modeler basic"),
        Option(
            "param",
            (),
            "map a file's parameter to a symbol (default: each keeps its own name; one that cannot be a symbol, e.g. 'n ranks', is x)",
            repeat=True,
            metavar="NAME=SYMBOL",
        ),
        unit_option(),
        uncertainty_option(),
    )

    def _build(self, values: Mapping[str, sympy.Expr]) -> sympy.Expr:
        return values["model"]

    def text(self) -> str:
        return str(self.values["model"])

    def record(self) -> dict[str, Any]:
        """For JSON: also ``constant`` and ``terms`` (coefficient, i, j of each term)."""
        stats = self.statistics
        if "symbols" in stats:  # several parameters: terms with their factors
            return {**super().record(), "constant": stats.get("constant")}
        terms = [
            {k: stats[k + n] for k in ("coefficient", "i", "j")}
            for n in ("", "2")
            if "coefficient" + n in stats
        ]
        return {**super().record(), "constant": stats.get("constant"), "terms": terms}

    def _own_terms(self) -> int | None:
        """The constant and the chosen blocks (the others only draws of the bootstrap chose)."""
        stats = self.statistics
        if "symbols" in stats:
            return None
        return 1 + ("coefficient" in stats) + ("coefficient2" in stats)

    def term_coefficients(self) -> tuple[float, ...]:
        """The constant, the term's coefficient (if the model has a term), and 0 for each
        block that only the bootstrap's draws chose (from the fit's statistics)."""
        if self._uncertainty is None:
            return ()
        stats = self.statistics
        if "symbols" in stats or "constant" not in stats:  # several parameters, or no fit
            return super().term_coefficients()  # recorded (a hand-written model file)
        chosen = [stats[k] for k in ("coefficient", "coefficient2") if k in stats]
        return term_centers(len(self._uncertainty.terms), stats["constant"], *chosen)

    @classmethod
    def fit_batches(cls, path: str, **options: Any) -> Iterator[Any]:
        """Reports of a regular Extra-P text file, a batch at a time (see :mod:`.stream` and
        docs/scaling.md): ``fit_each(read(path))``'s reports. Options that are
        not valid raise ``fit_each``'s error at once; a file this does not fit (not regular,
        a kernel ``fit_each`` would not fit as measured) a
        :class:`~patternalg.errors.MeasurementError`, possibly after some batches."""
        return cls.fitting().fit_batches(path, **options)  # type: ignore[no-any-return]
