"""PreSca as a family of the form protocol: :class:`Presca`, a performance function of p.

>>> m = Presca(kernel="CubicLn", parameters={"a": 1.0, "b": 2.0, "c": 0.0, "d": 0.0},
...            interpolation=[1.0, 2.0], interpolation_range=[1.0, 4.0])
>>> m(p=[2.0, 8.0]).round(4).tolist()
[5.0, 5.1589]
>>> Presca.from_table(m.to_table(), "models.w") == m
True
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import sympy

from ..._internal.callbacks import ProgressCallback
from ..._internal.limits import MAX_PREDICTED_THREADS
from ..._internal.options import Option
from ...errors import FitError
from ...syntax.arith import number_text
from ..base import Form, Parameter, atom_names_of, series_of, unit_option
from .algorithm import CHECKPOINTS, Prediction, plan, target_count
from .interpolation import INTERPOLATIONS
from .model import KEYS, Piece, read_table
from .workloads import direction, thread_column, workload

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Presca"]

_HELP = {
    "kernel": "the candidate function of Table 1 (Rat12, Rat22, Rat23, Rat33, CubicLn, ExpRat)",
    "parameters": "its parameters in Table 1's names (above the measured range)",
    "parameters_below": "its parameters below the measured range (default: parameters)",
    "interpolation": "the interpolating polynomial's coefficients, lowest power first",
    "interpolation_range": "[low, high]: where the polynomial applies",
    "interpolation_of": "value (default) or inverse: the polynomial is of 1/value",
}


class Presca(Form):
    """PreSca (paper 004): a polynomial on the measured range, a candidate function beyond."""

    name = "presca"
    parameters: ClassVar[tuple[Parameter, ...]] = tuple(
        Parameter(key, kind="table", required=False, help=_HELP[key]) for key in KEYS
    )
    inputs = ("p",)
    fit_options: ClassVar[tuple[Option, ...]] = (
        Option(
            "param",
            None,
            "NAME=SYMBOL: a file's parameter as a symbol (presca: NAME=p is the thread "
            "column, default p, else the first column)",
            repeat=True,
            metavar="NAME=SYMBOL",
        ),
        Option(
            "upto",
            None,
            "predict for 1..N threads (default: twice the highest measured count)",
            type=int,
            minimum=1,
            maximum=MAX_PREDICTED_THREADS,
            metavar="N",
        ),
        Option(
            "checkpoints",
            CHECKPOINTS,
            "measurements with the highest thread counts kept to choose the function "
            "(fewer, with a note, when there are fewer than C + 4)",
            type=int,
            minimum=1,
            metavar="C",
        ),
        Option(
            "interpolate",
            "auto",
            "inside the measured range: poly (the paper's), inverse (of 1/value), or auto "
            "(inverse for lower-is-better metrics)",
            choices=INTERPOLATIONS,
        ),
        Option(
            "better",
            None,
            "whether a higher or a lower value is better (default: from the metric's name)",
            choices=("higher", "lower"),
        ),
        unit_option(),
    )
    summary = "{atom}: {choice}; predicted {metric} at p={upto}: {predicted_value}"

    @classmethod
    def summary_fields(cls, record: Mapping[str, Any]) -> dict[str, str]:
        """The predicted value by the one printer (15 significant digits, no float noise)."""
        return {"predicted_value": number_text(record["predicted"])}

    @classmethod
    def _checked(cls, table: Mapping[str, Any], where: str) -> dict[str, Any]:
        return {"table": read_table(table, where)}

    def _build(self, values: Mapping[str, Any]) -> sympy.Expr:
        return values["table"].expr()  # type: ignore[no-any-return]

    def _key(self) -> tuple[Any, ...]:
        """The base's key with the tables and lists of the model file made hashable."""
        return (type(self), _frozen(self._values), self._domain)

    def to_table(self) -> dict[str, Any]:
        """The model-file table (a copy: the model's own tables stay as they are)."""
        return copy.deepcopy(dict(self._values))

    def _evaluate(self, inputs: Mapping[str, np.ndarray]) -> np.ndarray:
        return self._function()(inputs["p"])  # type: ignore[no-any-return]

    def _function(self) -> Any:
        """The performance function of the model's table (built once)."""
        function = self._cache.get("function")
        if function is None:
            function = self._cache["function"] = self._cache_values()["table"].function()
        return function

    def describe(self) -> str:
        """The function of each range of p and its coefficients: the closed form is a
        ``Piecewise`` of hundreds of characters."""
        return "; ".join(piece.describe() for piece in self.pieces())

    def label(self, digits: int = 4) -> str:
        """The function of each range of p, without coefficients."""
        return "; ".join(piece.describe(None) for piece in self.pieces())

    # --- fitting ------------------------------------------------------------------------
    @classmethod
    def _fit(
        cls, series: Sequence[Any], options: Mapping[str, Any], progress: ProgressCallback = None
    ) -> list[Presca]:
        threads = thread_column(options["param"] or ())
        models = []
        for done, s in enumerate(series, start=1):
            stated = options["better"]
            better = direction(s.metric, None if stated is None else stated == "higher", s.path)
            measured = workload(s, threads, better, s.atom)
            upto = target_count(options["upto"], measured.p)
            try:
                result = measured.predict(
                    upto, checkpoints=options["checkpoints"], interpolation=options["interpolate"]
                )
            except FitError as error:  # too few measurements: say where, and what would do
                within = int(max(measured.p))
                hint = (
                    f"; to predict up to p = {upto}, measure more thread counts, or stay "
                    f"within the measured range with --upto {within}"
                    if upto > within and len(measured.p) > 1  # one point interpolates nothing
                    else ""
                )
                raise FitError(f"{s.location()}: {s.label}: {error}{hint}") from None
            models.append(cls.from_prediction(result, measured.p, measured.metric, upto))
            if progress is not None:
                progress(done, len(series))
        return models

    @classmethod
    def from_prediction(
        cls, result: Prediction, threads: Sequence[int] | np.ndarray, metric: str, upto: int
    ) -> Presca:
        """The model of a :func:`~.algorithm.predict` result on measurements at ``threads``."""
        function = result.function
        error = result.checkpoint_error
        choice = (
            f"{function.name} on the first {result.subset}, checkpoint error {error:.2%}"
            if error is not None
            else f"{function.name} (interpolation)"
        )
        statistics: dict[str, Any] = {
            "function": function.name,
            "metric": metric,
            "measurements": len(threads),
            "choice": choice,
            "upto": upto,
            "predicted": float(function([upto])[0]),
        }
        if result.subset is not None:
            statistics.update(
                subset=result.subset, checkpoints=result.checkpoints, checkpoint_error=error
            )
        domain = {"p": (float(min(threads)), float(max(threads)))}
        return cls(**dict(function.spec()), domain=domain, statistics=statistics)

    @classmethod
    def _source(cls, series: Any, model: Form, options: Mapping[str, Any]) -> str:
        """The paper's method, how many thread counts, and which file and kernel."""
        count = model.statistics["measurements"]
        return (
            f"PreSca (paper 004) on {count} measurements of {series.path}, kernel '{series.kernel}'"
        )

    @classmethod
    def notes(cls, data: Any, options: Mapping[str, Any]) -> list[str]:
        """Which column is p, and where Algorithm 1 uses fewer checkpoints."""
        checked = cls.options(**options)
        series = series_of(data)
        notes = (
            text
            for s, atom in zip(series, atom_names_of(data, series), strict=True)
            for text in cls.series_notes(s, atom, checked)
        )
        return list(dict.fromkeys(notes))

    @classmethod
    def series_notes(cls, series: Any, atom: str, checked: Mapping[str, Any]) -> list[str]:
        """The notes of one series fitted as ``atom`` with the checked options: which of its
        columns is p, and whether Algorithm 1 uses fewer checkpoints on it."""
        threads = thread_column(checked["param"] or ())
        column = threads or ("p" if "p" in series.parameters else series.parameters[0])
        notes = []
        if threads is None and column != "p":
            notes.append(
                f"column '{column}' of {series.path} is the thread count p "
                "(use --param NAME=p to choose another)"
            )
        counts = series.column(column)
        measured = len(set(counts.tolist()))
        upto = target_count(checked["upto"], counts)
        if measured >= 4 and (min(counts) > 1 or upto > max(counts)):
            notes += [f"{atom}: {text}" for text in plan(measured, checked["checkpoints"])[2]]
        return notes

    def pieces(self) -> tuple[Piece, ...]:
        """The ranges of p in order, each with its function and coefficients."""
        return self._function().pieces()  # type: ignore[no-any-return]


def _frozen(value: Any) -> Any:
    """``value`` with every dict a sorted tuple of items and every list a tuple.

    >>> _frozen({"b": [1, 2], "a": {"c": 3}})
    (('a', (('c', 3),)), ('b', (1, 2)))
    """
    if isinstance(value, Mapping):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value
