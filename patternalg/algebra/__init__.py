"""The composition operators of paper 001 and the evaluation of terms: semantics, the one
fold, closed forms, values at points, normal forms, bindings, units and domains."""

from .evaluation import Derivation, Step, evaluate
from .operators import *  # noqa: F403 (the package re-exports the operators)
from .operators import __all__ as _operators
from .semantics import Semantics

__all__ = ["Semantics", "evaluate", "Derivation", "Step", *_operators]
