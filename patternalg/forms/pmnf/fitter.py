"""Fitting PMNF: :class:`PMNFFitter`, every series of one parameter at once by
:mod:`.fit` (or of two or three by :mod:`.fit_multi`), with the modeler of
:data:`.modelers.MODELERS` that ``modeler`` names; a regular Extra-P text file a batch at a
time (:mod:`.stream`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import sympy

from ..._internal.callbacks import OnError, ProgressCallback
from ..._internal.surface import flag
from ...algebra.normal_forms.blocks import BUILDING_BLOCKS
from ...algebra.normal_forms.render import hypothesis_text, pmnf_expr, pmnf_text
from ...errors import FitError
from ...measurements.blocks import Summary
from ...syntax.parser import is_symbol_name
from ...syntax.symbols import symbol
from ..base import Form
from ..fit_options import AUTO_BOOTSTRAP, auto_uncertainty, uncertainty_method
from ..fitting import Fitter
from .falling import falling_notes
from .fit import check_points, fit_series, parse_param_options
from .form import PMNF
from .modelers import MODELERS
from .stream import fit_text_batches, regular_only

__all__ = ["PMNFFitter"]


class PMNFFitter(Fitter):
    """The fit of :class:`~.form.PMNF`: the kernels of a file together."""

    form = PMNF

    @classmethod
    def check_series(cls, series: Any, options: Mapping[str, Any]) -> None:
        if len(series.parameters) == 1:
            check_points(series)
        else:
            from .fit_multi import check_series

            check_series(series)

    @classmethod
    def defined(cls, series: Any, options: Mapping[str, Any]) -> tuple[Any, str | None]:
        """``series`` without its points where a parameter is not positive: a pmnf term
        (``log2(x)``, ``x^i``) is not defined there (an empty input measured at x = 0). A
        warning names the first point's line; too few points left raise the error of
        :meth:`check_series`, which names them too."""
        bad = ~(series.points > 0).all(axis=1)
        if not bad.any():
            return series, None
        row = min(map(int, np.flatnonzero(bad)), key=lambda r: series.location(r).line or 0)
        column = int(np.flatnonzero(~(series.points[row] > 0))[0])
        name, value = series.parameters[column], float(series.points[row, column])
        count = int(bad.sum())
        where = f"{name} <= 0" if len(series.parameters) == 1 else "a parameter <= 0"
        what = f"{name} = {value:g}" if count == 1 else f"{count} points with {where}"
        terms = f"log2({name}), {name}^i"
        kept = series.subset(~bad)
        try:
            cls.check_series(kept, options)
        except FitError as error:
            line = series.location(row).line
            first = f"line {line}, {name} = {value:g}" if count > 1 else f"line {line}"
            raise FitError(
                f"{error}; {what} left out ({first}: {terms} are not defined at {name} <= 0)"
            ) from None
        points = f"{len(kept)} point{'s' if len(kept) != 1 else ''}"
        first = "" if count == 1 else f" (the first: {name} = {value:g})"
        return kept, (
            f"{series.location(row)}: {series.label}: {what} left out{first}: a pmnf term "
            f"({terms}) is not defined at {name} <= 0; fitted on the other {points}"
        )

    @classmethod
    def fit_models(
        cls,
        series: Sequence[Any],
        options: Mapping[str, Any],
        progress: ProgressCallback = None,
        *,
        on_error: OnError = None,
    ) -> list[PMNF]:
        if not series:
            return []
        method = uncertainty_method(options["uncertainty"], len(series), *_sizes(series))
        if len(series[0].parameters) != 1:  # two or three parameters
            from .fit_multi import fitted_models

            how = aggregate_of(options)
            found = fitted_models(
                series, options["param"], options["modeler"], how, progress, method
            )
            return [PMNF._fitted(**found_one) for found_one in found]
        var, how = cls.symbol_and_aggregate(series[0].parameters, series[0].path, options)
        fitted = fit_series(
            series, options["modeler"], how, progress, var.name, method
        )
        return cls.models(series, fitted, var, how)

    @classmethod
    def fit_batches(cls, path: str, **options: Any) -> Iterator[Any]:
        """Reports of a regular Extra-P text file, a batch at a time (see :mod:`.stream`); a
        file it does not take a :class:`~patternalg.errors.MeasurementError`."""
        return regular_only(path, fit_text_batches(cls, path, **options))

    @classmethod
    def symbol_and_aggregate(
        cls, parameters: Sequence[str], path: str, options: Mapping[str, Any]
    ) -> tuple[sympy.Symbol, str]:
        """The symbol the file's one parameter becomes, and how repetitions are aggregated."""
        if len(parameters) != 1:
            raise FitError(
                f"{path}: this path fits one parameter; the file has {len(parameters)} "
                f"({', '.join(parameters)})"
            )
        mapping = parse_param_options(options["param"], parameters, path)
        return symbol(mapping[parameters[0]]), aggregate_of(options)

    @classmethod
    def models(
        cls, series: Sequence[Any], fits: Sequence[Any], var: sympy.Symbol, how: str
    ) -> list[PMNF]:
        """The models of ``fits`` (:class:`~.fit.Fitted`), one per series (kernel, metric, path)."""
        models = []
        for s, fitted in zip(series, fits, strict=True):
            index, c0, c1, index2, c2 = (
                fitted.index, fitted.c0, fitted.c1, fitted.index2, fitted.c2
            )  # fmt: skip
            term = {}
            if index >= 0:
                i, j = BUILDING_BLOCKS[index]
                term = {"coefficient": c1, "i": str(i), "j": j}
            if index2 >= 0:
                i, j = BUILDING_BLOCKS[index2]
                term.update({"coefficient2": c2, "i2": str(i), "j2": j})
            statistics = {
                "hypothesis": hypothesis_text(index, var.name, index2),
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
                PMNF._fitted(
                    {"model": pmnf_text(var.name, c0, index, c1, index2, c2)},
                    domain={var.name: (fitted.low, fitted.high)},
                    statistics=statistics,
                    expr=_closed_form(pmnf_expr, var, c0, index, c1, index2, c2),
                    uncertainty=fitted.uncertainty,
                )
            )
        return models

    @classmethod
    def uncertainty_of(cls, data: Any, options: Mapping[str, Any]) -> str | None:
        """How the uncertainty of every kernel of ``data`` is found: ``auto`` resolved as
        for their fit together (:func:`~patternalg.forms.fit_options.uncertainty_method`)."""
        return uncertainty_method(options.get("uncertainty", "auto"), len(data), *_sizes_of(data))

    @classmethod
    def source(cls, series: Any, model: Form, options: Mapping[str, Any]) -> str:
        stats = model.statistics
        metric = f", metric '{series.metric}'" if series.metric else ""
        return (
            f"pmnf fit ({stats['modeler']}, {stats['aggregate']}) of {series.path}, "
            f"kernel '{series.kernel}'{metric}"
        )

    @classmethod
    def notes(cls, data: Any, options: Mapping[str, Any]) -> list[str]:
        """Which symbol the file's parameter became where it is not its own name and ``param``
        did not say so; how the uncertainty was found when ``auto`` chose the linear method
        or none; the compositions left out; values that fall as a parameter grows. ``data``:
        measurements, or a file streamed in blocks (its
        :class:`~patternalg.measurements.blocks.Summary`)."""
        notes = [*super().notes(data, options), *falling_notes(data)]
        kernels = len(data)
        if options.get("uncertainty", "auto") == "auto":
            sizes = _sizes_of(data) if kernels <= AUTO_BOOTSTRAP else (0, 0)
            why = auto_uncertainty(kernels, *sizes)[1]
            notes += [why] if why else []
        if len(data.parameters) > 1:
            from .fit_multi import symbol_names

            note = symbol_names(options.get("param") or (), data.parameters, data.path)[1]
            return [note, *notes] if note else notes
        name = data.parameters[0]
        if options.get("param") or is_symbol_name(name):
            return notes  # the models are in the symbol --param names, or in the parameter's own
        return [
            f"parameter '{name}' of {data.path} is no symbol name: it is the symbol x in these "
            f"models (use {flag('param', repr(f'{name}=SYMBOL'))} to choose another)",
            *notes,
        ]


def _sizes_of(data: Any) -> tuple[int, int]:
    """The points of all kernels of ``data`` (measurements, or a file streamed in blocks:
    its :class:`~patternalg.measurements.blocks.Summary`), and their repetitions."""
    return data.sizes if isinstance(data, Summary) else _sizes(data)


def _sizes(series: Any) -> tuple[int, int]:
    """The points of all kernels, and their repetitions."""
    return sum(len(s.points) for s in series), sum(len(v) for s in series for v in s.values)


def _closed_form(
    build: Callable[..., sympy.Expr], var: sympy.Symbol, *values: Any
) -> Callable[[], sympy.Expr]:
    """The closed form, built when first asked for (fitting 100,000 kernels builds none)."""
    return lambda: build(var, *values)


def aggregate_of(options: Mapping[str, Any]) -> str:
    """How repetitions are aggregated: ``aggregate``, else the modeler's own."""
    return str(options["aggregate"] or MODELERS[options["modeler"]].aggregate)
