"""The model library: atomic models by name, read from and written to TOML model files; the built-in models."""

from .model_library import *  # noqa: F403 (the package re-exports its main module)
from .model_library import __all__ as __all__
