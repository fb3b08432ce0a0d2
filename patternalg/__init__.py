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

import typing as _typing

from ._internal.aliases import install as _install_aliases
from ._internal.lazy import lazy_functions as _lazy_functions

if _typing.TYPE_CHECKING:
    from .algebra.evaluated import Evaluation
    from .algebra.evaluation import Derivation
    from .algebra.machine import Machine
    from .algebra.semantics import Semantics
    from .decisions import compare, explore, optimize, sweep
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
    from .evidence import calibrate, validate
    from .laws import check
    from .library.evaluate import evaluate, explain, model
    from .library.fitted import fit
    from .library.model_library import AtomicModel, ModelLibrary
    from .measurements import read
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
    "read",
    "fit",
    "validate",
    "calibrate",
    "sweep",
    "compare",
    "optimize",
    "explore",
    "check",
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

#: where each public name is defined: loaded on first use, so that the command line starts
#: without sympy (a Ctrl-C while a command loads is then its own, docs/errors.md)
_HOMES = {
    "algebra.evaluated": ["Evaluation"],
    "algebra.evaluation": ["Derivation"],
    "algebra.machine": ["Machine"],
    "algebra.semantics": ["Semantics"],
    "decisions": ["sweep", "compare", "optimize", "explore"],
    "errors": [name for name in __all__ if name.endswith("Error")],
    "evidence": ["validate", "calibrate"],
    "laws": ["check"],
    "library.evaluate": ["evaluate", "explain", "model"],
    "library.fitted": ["fit"],
    "library.model_library": ["AtomicModel", "ModelLibrary"],
    "measurements": ["read"],
    "syntax.parser": ["parse", "parse_arithmetic"],
    "syntax.symbols": ["x", "p", "phi", "n", "m", "log2"],
    "syntax.terms": ["Term", "Atom", "Meta", "Seq", "Pipe", "TPool", "MapReduce", "Shuffle"],
}
_lazy_functions(__name__, __all__, {name: home for home, names in _HOMES.items() for name in names})
