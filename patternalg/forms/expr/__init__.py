"""The plain family: a model written as an expression of the grammar's safe arithmetic."""

from .form import Expression

__all__ = ["Expression"]
