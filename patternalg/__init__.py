"""patternalg: closed-form performance models of parallel programs built from design patterns.

>>> import patternalg
>>> patternalg.model("pipe(tpool_4(qsort), inc)")
258.5425*x*log2(x)
>>> term = patternalg.parse("seq(qsort, nop)")
>>> patternalg.evaluate(term, patternalg.ModelLibrary.builtin())
1034.17*x*log2(x) + 5422.97
"""

from .algebra import Derivation, Semantics, evaluate
from .api import model
from .errors import (
    EvaluationError,
    FitError,
    MeasurementError,
    ModelFileError,
    ParseError,
    PatternalgError,
    UnknownAtomError,
)
from .explanation import Evaluation, explain
from .library import AtomicModel, ModelLibrary
from .symbols import log2, m, n, p, phi, x
from .syntax import parse, parse_arithmetic
from .terms import Atom, MapReduce, Meta, Pipe, Seq, Shuffle, Term, TPool

__version__ = "0.1.0"

__all__ = [
    "parse",
    "parse_arithmetic",
    "evaluate",
    "model",
    "explain",
    "Evaluation",
    "Semantics",
    "Derivation",
    "ModelLibrary",
    "AtomicModel",
    "Term",
    "Atom",
    "Meta",
    "Seq",
    "Pipe",
    "TPool",
    "MapReduce",
    "Shuffle",
    "x",
    "p",
    "phi",
    "n",
    "m",
    "log2",
    "PatternalgError",
    "ParseError",
    "UnknownAtomError",
    "ModelFileError",
    "EvaluationError",
    "MeasurementError",
    "FitError",
]
