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

from ..._internal.limits import MAX_PREDICTED_THREADS
from ..._internal.options import Option
from ..base import Form
from ..fit_options import unit_option
from ..parameters import Parameter
from .algorithm import CHECKPOINTS, Prediction
from .interpolation import INTERPOLATIONS
from .model import KEYS, Piece, read_table
from .workloads import AGGREGATE

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
    fitter = "patternalg.forms.presca.fit:PrescaFitter"
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

    @property
    def symbols(self) -> tuple[str, ...]:
        """``p``: the performance function is one of the thread count, also where its
        closed form came out constant (values below a double's normal range)."""
        return self.inputs

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
        if result.interpolation_note:
            choice += f"; {result.interpolation_note}"
        statistics: dict[str, Any] = {
            "function": function.name,
            "metric": metric,
            "aggregate": AGGREGATE,
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
