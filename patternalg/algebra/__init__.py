"""The composition operators of paper 001 and the evaluation of terms: semantics, the one
fold, closed forms, values at points, normal forms, bindings, units and domains."""

from typing import TYPE_CHECKING

from .._internal.lazy import lazy_functions
from .operators import *  # noqa: F403 (the package re-exports the operators)
from .operators import __all__ as _operators
from .semantics import Semantics

if TYPE_CHECKING:
    from .evaluation import Derivation, Step, evaluate

__all__ = ["Semantics", "evaluate", "Derivation", "Step", *_operators]

# the evaluation loads on first use: a module of this package imported first (atomic_model,
# by patternalg.arguments) does not import it, and with it patternalg.arguments again
lazy_functions(__name__, ["evaluate", "Derivation", "Step"], dict.fromkeys(["evaluate", "Derivation", "Step"], "evaluation"))
