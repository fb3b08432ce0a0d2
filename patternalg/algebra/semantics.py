"""What the composition operators mean: a semantics defines paper 001's eqs. (2)-(4) once,
over any arithmetic — closed forms, numbers at a point, numpy arrays over a grid — and the
one fold over a term (:func:`patternalg.algebra.fold.fold`) asks it to combine.

Three semantics are built in: ``asymptotic`` (the paper's pipe: the stage with the worse
O-scaling in x), ``exact`` (the pointwise maximum) and ``machine`` (the pointwise one on a
machine with cores and a pipeline hand-off: :mod:`.machine`; by name, this computer's cores). Where the values are numbers (at a
point, on a grid) "the worse O-scaling" has no meaning and both are the pointwise maximum:
a value at a point is the model's value at that point. A new semantics is one class,
registered by name; ``--semantics NAME`` and ``semantics="NAME"`` then take it:

>>> class Summed(Semantics):
...     '''A pipe that costs the sum of its stages (as if nothing overlapped).'''
...     name = "summed"
...     def pipe(self, arithmetic, left, right):
...         return arithmetic.add(left, right), None
>>> _ = Semantics.register(Summed())
>>> from patternalg.library.evaluate import model
>>> model("pipe(inc, nop)", semantics="summed"), model("pipe(inc, nop)", semantics="summed", x=4)
(536.185*x + 5422.97, 7567.71000000000)
>>> Semantics.unregister("summed")
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, TypeVar

from ..errors import ArgumentError, EvaluationError

__all__ = ["Semantics", "Asymptotic", "Exact", "CORES", "CORES_NAME", "paced_by"]

#: a pipe's winner, beside 0 (its left stage) and 1 (its right), where a machine's cores set
#: its pace: its stages' work over the cores is more than either stage takes
CORES = 2
#: what a bottleneck of the cores is called
CORES_NAME = "the cores"


def paced_by(pipe: Any, winner: int) -> Any:
    """What a pipe's ``winner`` names: its left or right stage, or :data:`CORES_NAME`."""
    return CORES_NAME if winner == CORES else (pipe.left if winner == 0 else pipe.right)

V = TypeVar("V")


class _Registered(type):
    """Iterating the class gives the registered semantics (as iterating an enum would)."""

    def __iter__(cls) -> Iterator[Semantics]:
        return iter([Semantics.of(name) for name in Semantics.names()])

    def __len__(cls) -> int:
        return len(Semantics.names())


class Semantics(metaclass=_Registered):
    """The meaning of ``seq``, ``tpool`` and ``pipe`` (paper 001, eqs. (2)-(4)) over an
    arithmetic: ``arithmetic.add``, ``.divide`` and ``.larger`` (the pointwise maximum, and
    which stage is it: 0, 1, or None where that differs from point to point). ``mapReduce``
    is eq. (5), built from these by the fold.

    A subclass sets :attr:`name` and overrides the operators it changes."""

    name: ClassVar[str] = ""
    #: whether ``pipe`` is the pointwise maximum of its stages (so a maximum of closed forms
    #: may be added and divided form by form)
    pointwise: ClassVar[bool] = True
    #: whether a term's value depends on its parts' values alone (so a law's metavariable
    #: may stand for its model); not so on a machine, where a part's threads and work count
    compositional: ClassVar[bool] = True
    _registry: ClassVar[dict[str, Semantics]] = {}
    #: built-in semantics made on first use: name -> "module:callable" (no import cycle)
    _lazy: ClassVar[dict[str, str]] = {"machine": "patternalg.algebra.machine:here"}
    ASYMPTOTIC: ClassVar[Semantics]
    EXACT: ClassVar[Semantics]

    def seq(self, arithmetic: Any, left: V, right: V) -> V:
        """Paper 001, eq. (2): M[seq(f1, f2)] = M[f1] + M[f2]."""
        return arithmetic.add(left, right)

    def tpool(self, arithmetic: Any, count: V, body: V) -> V:
        """Paper 001, eq. (3): M[tpool_n(task)] = M[task] / n."""
        return arithmetic.divide(body, count)

    def pipe(self, arithmetic: Any, left: V, right: V) -> tuple[V, int | None]:
        """Paper 001, eq. (4): M[pipe(s1, s2)] = max(M[s1], M[s2]), and the bottleneck (0:
        the left stage, 1: the right, :data:`CORES`: the machine's cores; None: undecided)."""
        return arithmetic.larger(left, right)

    def lift(
        self,
        arithmetic: Any,
        node: Any,
        value: V,
        context: Mapping[Any, Any],
        library: Mapping[str, Any],
    ) -> Any:
        """An atom's or a mapReduce's value (from ``arithmetic``) as this semantics holds
        values: itself, unless a semantics carries more than the time (:mod:`.machine`)."""
        return value

    def lower(self, value: Any) -> Any:
        """A value held as :meth:`lift` made it, as the arithmetic's value (the time)."""
        return value

    def enter(self, arithmetic: Any, node: Any, context: dict[Any, Any]) -> dict[Any, Any]:
        """The context the parts of ``node`` are folded in: ``context``, unless a semantics
        tells its parts where they run (:mod:`.machine`: the threads of the pools around
        them)."""
        return context

    def enters(self) -> bool:
        """Whether this semantics tells parts where they run (overrides :meth:`enter`): a
        fold that does not need it skips the call at every node."""
        return type(self).enter is not Semantics.enter

    def threads(self, count: Any) -> Any:
        """The threads a mapReduce's ``count`` threads per node run on (eq. (5) divides by
        them): all of them, unless a machine has fewer cores."""
        return count

    def reads(self) -> frozenset[str]:
        """The symbols this semantics' own numbers read beside the models' (a machine's
        hand-off reads x): a fold needs a value for them even where the result does not
        depend on them (a received value no pipe uses)."""
        return frozenset()

    def describe(self) -> str:
        """The name, and what it stands for where it has parameters (a machine's cores)."""
        return self.name

    def in_unit(self, unit: str) -> Semantics:
        """This semantics for atoms in ``unit`` (a machine's hand-off has a unit)."""
        return self

    @property
    def value(self) -> str:
        """The name (as an enum member's value: ``Semantics.EXACT.value == "exact"``)."""
        return self.name

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Semantics.of({self.name!r})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return Semantics.of, (self.name,)

    @classmethod
    def register(cls, semantics: Semantics) -> Semantics:
        """Make ``semantics`` known by its name; returns it."""
        if not isinstance(semantics, Semantics) or not semantics.name:
            raise TypeError("register takes a Semantics instance whose class sets a name")
        cls._registry[semantics.name] = semantics
        return semantics

    @classmethod
    def unregister(cls, name: str) -> None:
        """Forget the semantics called ``name`` (the built-in ones stay)."""
        if name not in ("asymptotic", "exact", *cls._lazy):
            cls._registry.pop(name, None)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The registered names, the built-in ones first."""
        return tuple(dict.fromkeys([*cls._registry, *cls._lazy]))

    @classmethod
    def of(cls, value: Semantics | str, name: str = "semantics") -> Semantics:
        """A semantics or its name: ``Semantics.of("exact")``; anything else is an
        ArgumentError naming the argument ``name``.

        >>> Semantics.of(3, "rules")
        Traceback (most recent call last):
        ...
        patternalg.errors.ArgumentError: rules: expected a Semantics or its name (asymptotic, exact, machine); got int 3
        """
        if isinstance(value, Semantics):
            return value
        if not isinstance(value, str):
            raise ArgumentError.wanted(name, f"a Semantics or its name ({', '.join(cls.names())})", value)
        found = cls._registry.get(value)
        if found is None and value in cls._lazy:
            module, _, name = cls._lazy[value].partition(":")
            found = cls._registry[value] = getattr(importlib.import_module(module), name)()
        if found is None:
            raise EvaluationError(f"unknown semantics {value!r} (valid: {', '.join(cls.names())})")
        return found


class Asymptotic(Semantics):
    """The paper's: a pipe is the stage with the worse O-scaling in x (paper 001, eq. (4));
    where the stages are numbers, their maximum."""

    name = "asymptotic"
    pointwise = False

    def pipe(self, arithmetic: Any, left: V, right: V) -> tuple[V, int | None]:
        """Eq. (4) read asymptotically: ``arithmetic.dominant`` where the arithmetic has
        growth to compare (closed forms), else the pointwise maximum."""
        dominant = getattr(arithmetic, "dominant", None)
        return dominant(left, right) if dominant is not None else arithmetic.larger(left, right)


class Exact(Semantics):
    """The pointwise maximum, simplified under x >= 1."""

    name = "exact"


Semantics.ASYMPTOTIC = Semantics.register(Asymptotic())
Semantics.EXACT = Semantics.register(Exact())
