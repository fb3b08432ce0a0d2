"""patternalg: closed-form performance models of parallel programs built from design patterns.

>>> import patternalg
>>> patternalg.model("pipe(tpool_4(qsort), inc)")
258.5425*x*log2(x)
>>> term = patternalg.parse("seq(qsort, nop)")
>>> patternalg.evaluate(term, patternalg.ModelLibrary.builtin())
1034.17*x*log2(x) + 5422.97

A public function takes what its command takes (a term's text, a grid ``x=1..1e6:20:log``,
a model file's path); any other argument is an :class:`ArgumentError` naming it:

>>> patternalg.model("qsort", library={"qsort": "2*x"})
2*x
>>> patternalg.model("qsort", library=[1])
Traceback (most recent call last):
...
patternalg.errors.ArgumentError: library: expected a mapping of atom names to models (AtomicModel, or a model's text such as '2*x'), a ModelLibrary, or the path of a model file; got list [1]
"""

from ._internal.aliases import install as _install_aliases
from .algebra.evaluated import Evaluation
from .algebra.evaluation import Derivation
from .algebra.machine import Machine
from .algebra.semantics import Semantics
from .errors import (
    ArgumentError,
    EvaluationError,
    FitError,
    MeasurementError,
    ModelFileError,
    ParseError,
    PatternalgError,
    UnknownAtomError,
)
from .library.evaluate import evaluate, explain, model
from .library.model_library import AtomicModel, ModelLibrary
from .syntax.parser import parse, parse_arithmetic
from .syntax.symbols import log2, m, n, p, phi, x
from .syntax.terms import Atom, MapReduce, Meta, Pipe, Seq, Shuffle, Term, TPool

_install_aliases()  # the previous release's module paths keep importing

__version__ = "0.1.0"

__all__ = [
    "parse",
    "parse_arithmetic",
    "evaluate",
    "model",
    "explain",
    "Evaluation",
    "Semantics",
    "Machine",
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
    "ArgumentError",
    "ParseError",
    "UnknownAtomError",
    "ModelFileError",
    "EvaluationError",
    "MeasurementError",
    "FitError",
]
