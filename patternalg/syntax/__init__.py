"""Text in, terms out: the grammar's LALR runtime and tables, the AST, the safe arithmetic, the symbols."""

from .parser import *  # noqa: F403 (the package re-exports its main module)
from .parser import __all__ as __all__
