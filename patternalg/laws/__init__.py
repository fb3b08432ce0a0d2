"""Relational laws of the operators: the law language, the built-in laws, proof, search, public hypothesis strategies."""

from .builtin import BUILTIN_LAWS, builtin_law
from .checker import check
from .contexts import in_contexts
from .language import Law, parse_law, parse_laws, validate
from .proof import RELATIONS
from .results import STATUSES, CheckResult, Counterexample

__all__ = [
    "Law",
    "parse_law",
    "parse_laws",
    "BUILTIN_LAWS",
    "builtin_law",
    "validate",
    "Counterexample",
    "CheckResult",
    "check",
    "in_contexts",
    "STATUSES",
    "RELATIONS",
]
