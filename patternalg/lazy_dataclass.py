"""``@dataclass`` applied to a class when its first instance is made, not when it is defined.

``dataclasses`` compiles five or six methods for each frozen class (about 0.5 ms): a class
that a command never instantiates (say, ``PointValue`` for ``eval`` without ``--at``)
then costs nothing at start-up, where patternalg's own modules are what it adds to
``import sympy``.

>>> @dataclass_when_used(frozen=True)
... class Point:
...     x: float
...     y: float = 0.0
>>> "__dataclass_fields__" in Point.__dict__
False
>>> Point(1.0), Point(1.0) == Point(1.0, 0.0), "__dataclass_fields__" in Point.__dict__
(Point(x=1.0, y=0.0), True, True)

An instance unpickled or copied first (made without ``__init__``) applies it too. Only
for classes that nothing inherits from (a dataclass needs its bases' fields when it is
made) and whose class-level dataclass attributes (``dataclasses.fields(cls)``) nothing
reads before an instance exists.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

__all__ = ["dataclass_when_used"]

T = TypeVar("T")
_LOCK = threading.Lock()


@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def dataclass_when_used(**options: Any) -> Callable[[type[T]], type[T]]:
    """``@dataclass(**options)``, applied when the first instance is made."""

    def wrap(cls: type[T]) -> type[T]:
        def make() -> None:
            with _LOCK:
                if cls.__dict__.get("__init__") is __init__:
                    del cls.__init__  # type: ignore[misc]
                    del cls.__setstate__  # type: ignore[attr-defined]
                    dataclasses.dataclass(cls, **options)

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            make()
            cls.__init__(self, *args, **kwargs)  # type: ignore[misc]

        def __setstate__(self: Any, state: dict[str, Any]) -> None:
            make()
            self.__dict__.update(state)  # what pickle and copy do without __setstate__

        cls.__init__ = __init__  # type: ignore[method-assign]
        cls.__setstate__ = __setstate__  # type: ignore[attr-defined]
        return cls

    return wrap
