"""Relational laws of the operators: the law language, the built-in laws, proof, search, public hypothesis strategies."""

from typing import TYPE_CHECKING

from .._internal.lazy import lazy_functions
from .builtin import BUILTIN_LAWS, builtin_law
from .contexts import in_contexts
from .language import Law, parse_law, parse_laws, validate
from .proof import RELATIONS
from .results import STATUSES, CheckResult, Counterexample

if TYPE_CHECKING:
    from .checker import check

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

# the search loads on first use: hypothesis is a fifth of a second, and explore reads only
# the built-in laws (decisions.exploration)
lazy_functions(__name__, ["check"], {"check": "checker"})
