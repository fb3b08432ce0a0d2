"""Mappings of atom names to models checked as they were built, which
:func:`patternalg.arguments.as_models` takes as they are (a ``ModelLibrary``, its own
:class:`~patternalg.arguments.Models`, the algebra's :class:`ModelChain`): any other
mapping a user gives is checked model by model.

>>> from patternalg.algebra.atomic_model import AtomicModel
>>> chain = ModelChain({"k": AtomicModel("k", 2)}, {"k": AtomicModel("k", 3), "j": AtomicModel("j", 1)})
>>> chain["k"].expr, isinstance(chain, CheckedModels)
(2, True)
"""

from __future__ import annotations

from collections import ChainMap
from typing import Any

__all__ = ["CheckedModels", "ModelChain"]


class CheckedModels:
    """A mapping whose every value is an :class:`~patternalg.algebra.atomic_model.AtomicModel`
    under its own name, checked as it was built."""


class ModelChain(CheckedModels, ChainMap[str, Any]):
    """A checked library with some of its models replaced (converted to one unit, with
    bindings in them): a ``ChainMap`` of checked models."""
