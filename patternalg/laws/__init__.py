"""Relational laws of the operators: the law language, the built-in laws, proof, search, public hypothesis strategies."""

from .checker import *  # noqa: F403 (the package re-exports its main module)
from .checker import __all__ as __all__
