"""The PMNF family: a model ``c0 + c1 * x^i * log2(x)^j``, written as plain arithmetic.

A model file holds a fitted model as the grammar's arithmetic, with its statistics::

    [models.sort]
    form = "pmnf"
    model = "0.4827*x**(5/4)*log2(x) + 2.818"
    x_range = [4.0, 64.0]
    fit = { hypothesis = "x^(5/4)*log2(x)^1", smape = 1.2, ... }

>>> PMNF.from_table({"model": "2.818 + 0.4827*x^(5/4)*log2(x)"}, "models.sort").expr
0.4827*x**(5/4)*log2(x) + 2.818
>>> import tempfile, os
>>> from patternalg.measurements import read
>>> path = os.path.join(tempfile.mkdtemp(), "m.txt")
>>> _ = open(path, "w").write("PARAMETER n\\nPOINTS 4 8 16 32 64\\nREGION scale\\n"
...     + "".join(f"DATA {3 + 0.5 * v:g}\\n" for v in (4, 8, 16, 32, 64)))
>>> model = PMNF.fit(read(path))
>>> model.text(), model.domain, model.statistics["hypothesis"]
('0.5*x + 3.0', {'x': (4.0, 64.0)}, 'x^(1)')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

import sympy

from ..._internal.callbacks import ProgressCallback
from ..._internal.options import Option
from ...errors import FitError
from ..base import Form, Parameter, aggregate_option, unit_option

__all__ = ["PMNF", "MODELERS"]

#: modeler name -> its default aggregation of repetitions (measured: see docs/pmnf.md)
MODELERS = {"basic": "mean", "default": "biweight"}


class PMNF(Form):
    """Extra-P's performance model normal form."""

    name = "pmnf"
    parameters: ClassVar[tuple[Parameter, ...]] = (
        Parameter("model", kind="expression", help="the fitted model (the grammar's arithmetic)"),
    )
    inputs = ("x",)
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
            "map a file's parameter to a symbol (default: the single parameter becomes x)",
            repeat=True,
            metavar="NAME=SYMBOL",
        ),
        unit_option(),
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
        term = {k: stats[k] for k in ("coefficient", "i", "j") if k in stats}
        return {
            **super().record(),
            "constant": stats.get("constant"),
            "terms": [term] if term else [],
        }

    @classmethod
    def _fit(
        cls, series: Sequence[Any], options: Mapping[str, Any], progress: ProgressCallback = None
    ) -> list[PMNF]:
        from .fit import fit_series

        if not series:
            return []
        if len(series[0].parameters) != 1:  # two or three parameters
            from .fit_multi import fitted_models

            how = options["aggregate"] or MODELERS[options["modeler"]]
            found = fitted_models(series, options["param"], options["modeler"], how, progress)
            return [cls._fitted(**found_one) for found_one in found]
        var, how = cls._symbol_and_aggregate(series[0].parameters, series[0].path, options)
        fitted = fit_series(series, options["modeler"], how, progress)
        return cls._models(series, fitted, var, how)

    @classmethod
    def fit_batches(cls, path: str, **options: Any) -> Iterator[Any]:
        """Reports of a regular Extra-P text file, a batch at a time (see :mod:`.stream`)."""
        from .stream import fit_text_batches

        return fit_text_batches(cls, path, **options)

    @classmethod
    def _symbol_and_aggregate(
        cls, parameters: Sequence[str], path: str, options: Mapping[str, Any]
    ) -> tuple[sympy.Symbol, str]:
        """The symbol the file's one parameter becomes, and how repetitions are aggregated."""
        from ...syntax.symbols import symbol
        from .fit import parse_param_options

        if len(parameters) != 1:
            raise FitError(
                f"{path}: this path fits one parameter; the file has {len(parameters)} "
                f"({', '.join(parameters)})"
            )
        mapping = parse_param_options(options["param"], parameters, path)
        return symbol(mapping[parameters[0]]), options["aggregate"] or MODELERS[options["modeler"]]

    @classmethod
    def _models(
        cls, series: Sequence[Any], fits: Sequence[Any], var: sympy.Symbol, how: str
    ) -> list[PMNF]:
        """The models of ``fits`` (:class:`~.fit.Fitted`), one per series (kernel, metric, path)."""
        from ...algebra.normal_forms.blocks import BUILDING_BLOCKS
        from ...algebra.normal_forms.render import hypothesis_text, pmnf_expr, pmnf_text

        models = []
        for s, fitted in zip(series, fits, strict=True):
            index, c0, c1 = fitted.index, fitted.c0, fitted.c1
            term = {}
            if index >= 0:
                i, j = BUILDING_BLOCKS[index]
                term = {"coefficient": c1, "i": str(i), "j": j}
            statistics = {
                "hypothesis": hypothesis_text(index, var.name),
                "constant": c0,
                **term,
                **fitted.stats,
                "modeler": fitted.modeler,
                "aggregate": how,
                "parameter": s.parameters[0],
                "symbol": var.name,
                "range": [fitted.low, fitted.high],
                "file": s.path,
                "points": fitted.points,
                "kernel": s.kernel,
                "metric": s.metric,
            }
            models.append(
                cls._fitted(
                    {"model": pmnf_text(var.name, c0, index, c1)},
                    domain={var.name: (fitted.low, fitted.high)},
                    statistics=statistics,
                    expr=_closed_form(pmnf_expr, var, c0, index, c1),
                )
            )
        return models

    @classmethod
    def _source(cls, series: Any, model: Form, options: Mapping[str, Any]) -> str:
        stats = model.statistics
        metric = f", metric '{series.metric}'" if series.metric else ""
        return (
            f"pmnf fit ({stats['modeler']}, {stats['aggregate']}) of {series.path}, "
            f"kernel '{series.kernel}'{metric}"
        )

    @classmethod
    def notes(cls, data: Any, options: Mapping[str, Any]) -> list[str]:
        """Which symbol the file's parameter became, unless ``param`` said so."""
        if len(data.parameters) > 1:
            from .fit_multi import symbol_names

            note = symbol_names(options.get("param") or (), data.parameters, data.path)[1]
            return [note] if note else []
        if options.get("param"):
            return []
        name = data.parameters[0]
        hint = "" if name == "x" else f" (use --param {name}=SYMBOL to choose another)"
        return [f"parameter '{name}' of {data.path} is the symbol x in these models{hint}"]


def _closed_form(
    build: Callable[..., sympy.Expr], var: sympy.Symbol, c0: float, index: int, c1: float
) -> Callable[[], sympy.Expr]:
    """The closed form, built when first asked for (fitting 100,000 kernels builds none)."""
    return lambda: build(var, c0, index, c1)
