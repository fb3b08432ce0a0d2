"""The machine in the model: cores, a pipeline's hand-off and wake, a pool's dispatch cost and
turn, per-atom speed-ups — paper 001's rules with the limits its section 7 names ("synchronization
overhead, hardware contention, and work sharing") made part of the semantics.

A :class:`Machine` is the description (``--machine FILE``, ``--cores N``); its
:class:`MachineSemantics` is a third semantics beside ``asymptotic`` and ``exact``, built on
the pointwise one. A value under it is a :class:`Busy`: the time per data element (what
the rules compute) *and* the core time it keeps busy (its work), so that

* ``tpool_n(A)`` gains at most the cores it can have: ``M[A] / S(min(n, cores))``, where
  ``S(k) = k`` unless the machine gives ``A`` a measured speed-up (extends eq. (3); the
  committed runs: ``tpool_4(qsort)`` on 2 cores is half of ``qsort``, not a quarter, -45
  to -48 % for the rule on every run of ``benchmarks/realdata``), and a pool of two or
  more threads pays the machine's **dispatch** cost ``d(x)`` per data element beside it,
  whatever its thread count (handing an element to one of several workers and collecting
  it: about 0.5 us per element on a 16-core Xeon with 2 or 4 threads alike, 1.4 us in the
  authors' framework, docs/machine.md; a pool of one is its body's own stream), at most
  an element's own time as it runs there (an element shorter than a dispatch is handed on
  before anybody waits for it: a pool of ``nop`` pays tens to hundreds of ns per element
  where one of ``inc`` pays 0.5 to 2.3 us at x = 1,024, ``benchmarks/realdata``);
* a pool of two or more threads takes at least the machine's **turn** ``t(x)`` per data
  element, whatever its body: its threads take turns at one queue (``tpool_2(nop)`` 94 ns
  on the Xeon of ``data21``, 167 ns on the EPYC of ``data23``, twice and four times ``nop``);
  the turn is time, not work (a thread that waits for the queue runs nothing);
* a pipeline stage pays the hand-off ``h(x)`` where it receives a data element, unless
  it does not touch its data (an atom whose model file says ``touches_data = false``,
  like ``nop``): ``max(M[s1], M[s2] + h)`` (extends eq. (4); ``pipe(inc, inc)`` costs 13 to
  25 % more than ``inc`` on every committed run); in a stage that runs on several threads
  the hand-off is shared like its work;
* a pipeline stage pays to wake the next where that one waits for it, at most the machine's
  **wake** ``w(x)`` per element: ``pipe(A, B)`` is ``max(A + min(max(A - B, 0), w), B)``
  (``B`` as it receives; a stage that waits sleeps, and waking it costs more the longer it
  slept: ``pipe(inc, nop)`` 2.1 to 2.3 times ``inc`` at x = 1,024 on the runs from
  ``data19`` on, a wake of 12 to 14 us); a stage of several threads shares it, one thread's
  per element, and it is core time;
* every term takes at least its work divided by the cores (extends eqs. (3), (4): the
  limit no rule of the paper has; ``pipe(tpool_2(qsort), tpool_2(inc))`` runs 4 threads
  on 2 cores).

``seq`` is eq. (2) unchanged (one thread runs both), and a pool of it divides each part by
its own speed-up (``tpool_n(seq(A, B))`` is ``A / S_A(k) + B / S_B(k)``: with Amdahl's
speed-ups, the parts' serial work adds up; ``tpool_2(seq(qsort, inc))`` on the runs that
keep speed-ups: median |error| 6.7, 4.3, 6.9 % before, 4.2, 5.6, 5.8 %, docs/machine.md);
a ``mapReduce`` is eq. (5) with its threads per node bounded by the cores (its nodes are
machines of their own). An atom in pools within pools runs on all their threads at once:
``tpool_n(tpool_m(A))`` gains ``S_A(min(n*m, cores))``, as ``tpool_{n*m}(A)`` does
(:meth:`MachineSemantics.enter`), not ``S_A(m)`` times ``n``.

>>> from patternalg.syntax.parser import parse
>>> from patternalg.library.model_library import ModelLibrary
>>> from patternalg.algebra.evaluation import evaluate
>>> two = Machine(cores=2).semantics
>>> evaluate(parse("tpool_4(qsort)"), ModelLibrary.builtin(), two)
517.085*x*log2(x)
>>> evaluate(parse("pipe(inc, inc)"), ModelLibrary.builtin(), Machine(2, handoff=3*x).semantics)
539.185*x
>>> evaluate(parse("tpool_2(inc)"), ModelLibrary.builtin(), Machine(2, dispatch=800).semantics)
Min(804.2775*x, 268.0925*x + 800)
>>> evaluate(parse("tpool_2(inc)"), ModelLibrary.builtin(), Machine(2, turn=1000).semantics)
Max(1000, 268.0925*x)
>>> evaluate(parse("pipe(qsort, inc)"), ModelLibrary.builtin(), Machine(2, wake=3000).semantics)
Min(1034.17*x*log2(x) + 3000, Max(536.185*x, 2068.34*x*log2(x) - 536.185*x))
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import sympy

from .._internal.display import brief, listed
from .._internal.limits import printable, whole_number_text
from ..arguments import as_text, wrong
from ..errors import EvaluationError
from ..syntax.arith import format_expr, shown_text
from ..syntax.symbols import p, x
from ..syntax.terms import Atom, MapReduce, Pipe, Seq, Term, TPool
from .atomic_model import AtomicModel
from .fold import TIE
from .machine_checks import check_cores, check_cost, check_speedup, machine_expression
from .semantics import CORES, Semantics

__all__ = ["COSTS", "Busy", "Machine", "MachineSemantics", "here", "threads_needed", "threads_text", "cores_of"]


@dataclass(frozen=True)
class Machine:
    """A machine: its ``cores``, the ``handoff`` a pipeline stage pays per data element it
    receives (an expression in x, the element's size, in ``unit``), per-atom parallel
    ``speedups`` (an expression in p, the threads the atom runs on: ``S(1) = 1``) and the
    ``dispatch`` cost a task pool of two or more threads pays per data element (an
    expression in x, in ``unit``), the ``turn``, the least time per data element of such a
    pool (its threads take turns at one queue; an expression in x, in ``unit``), and the ``wake``, the most a pipeline stage pays per data
    element to wake the stage it hands the element to where that one waits for it (an
    expression in x, in ``unit``).

    >>> Machine(cores=4).cores, Machine(cores=4).semantics.name
    (4, 'machine')
    """

    cores: int
    handoff: sympy.Expr = sympy.Integer(0)
    speedups: tuple[tuple[str, sympy.Expr], ...] | Mapping[str, Any] = ()
    unit: str = "ns"
    source: str = ""
    #: what a calibration found (numbers, residuals, files): kept in the machine file
    calibration: tuple[tuple[str, Any], ...] = field(default=(), compare=False)
    dispatch: sympy.Expr = sympy.Integer(0)
    wake: sympy.Expr = sympy.Integer(0)
    turn: sympy.Expr = sympy.Integer(0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cores", check_cores(self.cores))
        unit = as_text(self.unit, "unit", "the hand-off's time unit, e.g. ns")
        if unit != "ns":
            from .units import check_time_unit

            check_time_unit(unit, "the hand-off's unit")
        for name, what in COSTS.items():
            cost = machine_expression(getattr(self, name), what, x, name)
            check_cost(cost, what, name)  # a time per element: never below 0 for x >= 1
            # 0.0 is no cost (sympy's Float(0.0) == 0 is false: a stage would pay it)
            object.__setattr__(self, name, sympy.Integer(0) if cost.is_zero else cost)
        if not isinstance(self.speedups, Mapping | tuple | list):
            raise wrong("speedups", "a mapping of atom names to speed-ups (expressions in p)", self.speedups)
        try:
            speedups = dict(self.speedups)  # also from a sequence of (name, speed-up) pairs
        except (TypeError, ValueError):
            raise wrong("speedups", "a mapping of atom names to speed-ups (expressions in p)", self.speedups) from None
        checked = tuple(
            (str(name), machine_expression(s, f"the speed-up of {name}", p, f"speedups[{str(name)!r}]"))
            for name, s in speedups.items()
        )
        for name, speedup in checked:  # a pool divides by it, on 1 .. cores threads
            check_speedup(speedup, name, self.cores)
        object.__setattr__(self, "speedups", checked)

    def __repr__(self) -> str:
        """Its cores, costs (in its unit), the atoms with a speed-up and whether it was
        calibrated, on one line (:meth:`describe` says each speed-up).

        >>> Machine(2, handoff=300 + sympy.Float(0.5) * x, speedups={"qsort": p}, source="lab")
        Machine(cores=2, handoff=0.5*x + 300, unit='ns', speedups of qsort, source='lab')
        """
        parts = [f"cores={self.cores}"]
        parts += [f"{name}={shown_text(format_expr(getattr(self, name)))}"
                  for name in COSTS if getattr(self, name) != 0]  # fmt: skip
        if len(parts) > 1:
            parts.append(f"unit={self.unit!r}")
        if self.speedups:
            parts.append(f"speedups of {listed(list(self.speedup), 4)}")
        if self.calibration:
            parts.append("calibrated")
        if self.source:
            parts.append(f"source={self.source!r}")
        return brief("Machine", ", ".join(parts))

    def _repr_html_(self) -> str:
        """A notebook's table of the machine: what each number costs (or speeds up), in its
        unit, and for a calibrated one the numbers fitted with their standard errors.

        >>> html = Machine(2, handoff=300 + sympy.Float(0.5) * x, calibration=(("numbers", {"h0": 300.0}), ("errors", {"h0": 12.0})))._repr_html_()
        >>> "<td>hand-off</td><td>0.5*x + 300</td><td>ns per element a stage receives</td>" in html, "h0 = 300 (standard error 12)" in html
        (True, True)
        """
        from .._internal.display import table_html

        rows = [["cores", str(self.cores), "threads that run at once"]]
        if self.handoff != 0:
            rows.append(["hand-off", shown_text(format_expr(self.handoff)), f"{self.unit} per element a stage receives"])
        if self.dispatch != 0:
            rows.append(["dispatch", shown_text(format_expr(self.dispatch)), f"{self.unit} per element of a pool of 2 or more threads"])
        if self.turn != 0:
            rows.append(["turn", shown_text(format_expr(self.turn)), f"{self.unit} per element at least, a pool of 2 or more threads"])
        if self.wake != 0:
            rows.append(["wake", shown_text(format_expr(self.wake)), f"{self.unit} per element at most, to wake a waiting stage"])
        rows += [[f"speed-up of {name}", shown_text(format_expr(s)), "on p threads"] for name, s in self.speedup.items()]
        found = dict(self.calibration)
        numbers, errors = found.get("numbers") or {}, found.get("errors") or {}
        fitted = [
            f"{name} = {shown_text(format_expr(sympy.Float(value)))}"
            + (f" (standard error {shown_text(format_expr(sympy.Float(errors[name])))})" if name in errors else "")
            for name, value in numbers.items()
        ]
        details = [f"calibrated: {', '.join(fitted)}"] if fitted else []
        return table_html(["number", "value", "meaning"], rows, self.source, details=details)

    @classmethod
    def here(cls) -> Machine:
        """This computer: its cores (``os.cpu_count()``), no hand-off."""
        return cls(cores=os.cpu_count() or 1, source="this computer (os.cpu_count())")

    def with_cores(self, cores: int) -> Machine:
        """The same machine with ``cores`` cores (``--cores`` beside ``--machine``)."""
        return replace(self, cores=cores)

    def in_unit(self, unit: str) -> Machine:
        """The same machine with its hand-off in ``unit`` (a time unit, as the atoms')."""
        unit = as_text(unit, "unit", "a time unit's name, e.g. ns or ms")
        if unit == self.unit or all(getattr(self, name) == 0 for name in COSTS):
            return self  # no cost to convert (--cores alone: atoms in T1 are fine)
        from .units import factor

        scale = factor(self.unit, unit)
        rational = sympy.Rational(scale.numerator, scale.denominator)
        costs = {name: sympy.expand(getattr(self, name) * rational) for name in COSTS}
        return replace(self, **costs, unit=unit)  # type: ignore[arg-type]

    @property
    def speedup(self) -> dict[str, sympy.Expr]:
        """The atoms' speed-ups by name."""
        return dict(self.speedups)  # type: ignore[arg-type]

    @property
    def semantics(self) -> MachineSemantics:
        """The semantics of this machine."""
        return MachineSemantics(self)

    def describe(self) -> str:
        """One line for people, its numbers by the one printer (no float noise; the machine
        file keeps every digit): ``2 cores, hand-off 312.5 + 0.61*x ns per element``, and the
        dispatch cost if any.

        >>> from patternalg.syntax.symbols import p
        >>> Machine(2, speedups={"sort": p / (1 + sympy.Float(0.5692) * (p - 1))}).describe()
        '2 cores, S_sort(p) = p/(0.5692*p + 0.4308)'
        """
        parts = [f"{self.cores} core{'s' if self.cores != 1 else ''}"]
        if self.handoff != 0:
            parts.append(f"hand-off {shown_text(format_expr(self.handoff))} {self.unit} per element")
        if self.dispatch != 0:
            parts.append(f"dispatch {shown_text(format_expr(self.dispatch))} {self.unit} per element of a pool")
        if self.turn != 0:
            parts.append(f"turn at least {shown_text(format_expr(self.turn))} {self.unit} per element of a pool")
        if self.wake != 0:
            parts.append(f"wake at most {shown_text(format_expr(self.wake))} {self.unit} per element")
        parts += [f"S_{name}(p) = {shown_text(format_expr(s))}" for name, s in self.speedup.items()]
        return ", ".join(parts)


#: a machine's costs per data element (its attributes, its machine file's keys) and what a
#: message calls them
COSTS = {"handoff": "the hand-off", "dispatch": "the dispatch cost", "turn": "the turn", "wake": "the wake"}


class Busy(NamedTuple):
    """A value under the machine semantics: ``time`` per data element (the rules' value)
    and ``work``, the core time per element; ``received``/``received_work`` the same where
    the term is a pipeline stage that receives its data (its first atom that touches the
    data pays the hand-off); ``serial`` when one thread does it all (time is work),
    ``touches`` whether it reads its data, ``speedup`` an atom's own on a number of running
    threads (:meth:`MachineSemantics.speedup_at`; None: it gains its threads), ``pool``
    the machine's dispatch cost and turn where the term is evaluated (None: neither); ``parts`` those
    of a ``seq`` a part of which has a speed-up of its own (a pool divides each part by
    its own: :meth:`MachineSemantics.threaded`); ``several``, where ``serial`` is false only
    because a thread count here is not one number (free, or varied by a grid), 0 where one
    thread runs it all and 1 where several do (a pool of one is its body's own stream).

    On a machine with a wake (None on one without): ``sending`` and ``sending_received``
    the time per element of the stage that hands elements on (as the term runs alone, and
    as a pipeline stage that receives them), ``first`` that of the stage that receives
    them (with its hand-off), ``share`` one over the threads of the stage that hands them
    on (the wake of one element is one thread's), ``wake`` the machine's bound where the
    term is evaluated."""

    time: Any
    work: Any
    received: Any
    received_work: Any
    serial: bool
    touches: bool
    speedup: Callable[[Any], Any] | None = None
    pool: PoolCosts | None = None
    parts: tuple[Busy, Busy] | None = None
    several: Any = None
    sending: Any = None
    sending_received: Any = None
    first: Any = None
    share: Any = None
    wake: Any = None


class PoolCosts(NamedTuple):
    """What a pool of two or more threads pays where a term is evaluated: the machine's
    ``dispatch`` cost per element and its ``turn``, the least time per element (None: it
    has none)."""

    dispatch: Any
    turn: Any


class MachineSemantics(Semantics):
    """Paper 001's operators on a machine (see the module's docstring): eqs. (3) and (4)
    extended by the cores, the hand-off and the atoms' speed-ups, pointwise."""

    name = "machine"
    compositional = False

    def __init__(self, machine: Machine) -> None:
        self.machine = machine

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MachineSemantics) and other.machine == self.machine

    def __hash__(self) -> int:
        return hash(("machine", self.machine))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return MachineSemantics, (self.machine,)

    def __repr__(self) -> str:
        return f"MachineSemantics({self.machine!r})"

    def describe(self) -> str:
        return f"machine ({self.machine.describe()})"

    def threads(self, count: Any) -> Any:
        """A mapReduce's threads per node run on at most the machine's cores."""
        return _at_most(count, self.machine.cores)

    def reads(self) -> frozenset[str]:
        """The symbols of the machine's own expressions (the hand-off's, the dispatch
        cost's, the wake's): a fold reads them where a stage receives its data, a pool
        dispatches or a stage wakes the next."""
        exprs = (getattr(self.machine, name) for name in COSTS)
        return frozenset(s.name for e in exprs for s in e.free_symbols)

    def costs_reading(self, names: set[str]) -> list[str]:
        """The machine's costs (``hand-off``, ...) whose expressions read a symbol of ``names``.

        >>> Machine(2, handoff="100 + x", turn="3*x").semantics.costs_reading({"x"})
        ['hand-off', 'turn']
        """
        return [what.removeprefix("the ") for name, what in COSTS.items()
                if {s.name for s in getattr(self.machine, name).free_symbols} & names]  # fmt: skip

    def in_unit(self, unit: str) -> MachineSemantics:
        """This semantics with the machine's hand-off in ``unit``."""
        machine = self.machine.in_unit(unit)
        return self if machine is self.machine else MachineSemantics(machine)

    # --- the machine's numbers where a value needs them -------------------------------------
    def handoff_at(self, arithmetic: Any, context: Mapping[sympy.Symbol, Any]) -> Any:
        """The hand-off per data element at the point(s) of ``context`` (a subclass may
        give several machines' at once: ``calibrate``'s held-out fits)."""
        return arithmetic.leaf(self.machine.handoff, context)

    def dispatch_at(self, arithmetic: Any, context: Mapping[sympy.Symbol, Any]) -> Any:
        """The dispatch cost per data element at the point(s) of ``context``."""
        return arithmetic.leaf(self.machine.dispatch, context)

    def turn_at(self, arithmetic: Any, context: Mapping[sympy.Symbol, Any]) -> Any:
        """The least time per data element of a pool of two or more threads at the point(s)
        of ``context``."""
        return arithmetic.leaf(self.machine.turn, context)

    def wake_at(self, arithmetic: Any, context: Mapping[sympy.Symbol, Any]) -> Any:
        """The most a stage pays per data element to wake the next, at the point(s) of
        ``context``."""
        return arithmetic.leaf(self.machine.wake, context)

    def pays_wake(self) -> bool:
        """Whether a pipeline stage pays to wake a faster stage it hands elements to."""
        return self.machine.wake != 0

    def pays_handoff(self) -> bool:
        """Whether a stage that receives its data pays a hand-off on this machine."""
        return self.machine.handoff != 0

    def pays_dispatch(self) -> bool:
        """Whether a pool of two or more threads pays a dispatch cost on this machine."""
        return self.machine.dispatch != 0

    def pays_turn(self) -> bool:
        """Whether a pool of two or more threads takes at least a turn per element."""
        return self.machine.turn != 0

    def speeds_up(self) -> bool:
        """Whether an atom may have a speed-up of its own on this machine."""
        return bool(self.machine.speedup)

    def speedup_at(self, arithmetic: Any, atom: str, context: Mapping[sympy.Symbol, Any]) -> Callable[[Any], Any] | None:
        """Atom ``atom``'s speed-up at the point(s) of ``context``, as a function of the
        threads it runs on (None: it gains its threads, S(p) = p)."""
        speedup = self.machine.speedup.get(atom)
        if speedup is None:
            return None
        return lambda running: arithmetic.leaf(speedup, {p: running})

    # --- values --------------------------------------------------------------------------
    def lift(
        self,
        arithmetic: Any,
        node: Term,
        value: Any,
        context: Mapping[sympy.Symbol, Any],
        library: Mapping[str, AtomicModel],
    ) -> Busy:
        """An atom's (or a mapReduce's) value as a :class:`Busy`: one thread, busy all the
        time; received, it pays the hand-off unless its model says it does not touch its
        data."""
        touches, speedup = True, None
        if isinstance(node, Atom):
            model = library.get(node.name)
            touches = model is None or model.touches_data
            speedup = self.speedup_at(arithmetic, node.name, context)
            outer = context.get(_OUTER)
            if speedup is not None and outer is not None:
                speedup = self._within(arithmetic, speedup, outer)
        received = value
        if touches and self.pays_handoff():  # added where a stage receives (most never do)
            received = _Paid(value, self.handoff_at(arithmetic, context))
        pool = None
        if self.pays_dispatch() or self.pays_turn():
            pool = PoolCosts(self.dispatch_at(arithmetic, context) if self.pays_dispatch() else None,
                             self.turn_at(arithmetic, context) if self.pays_turn() else None)  # fmt: skip
        waking = _stage(arithmetic, value, received, self.wake_at(arithmetic, context) if self.pays_wake() else None)
        if isinstance(node, MapReduce):  # its threads per node keep that many cores busy
            running = arithmetic.leaf(self.threads(node.threads), context)
            received = _paid(arithmetic, received)
            work, received_work = (arithmetic.multiply(v, running) for v in (value, received))
            return Busy(value, work, received, received_work, False, touches, None, pool, None, None, *waking)
        return Busy(value, value, received, received, True, touches, speedup, pool, None, None, *waking)

    def lower(self, value: Any) -> Any:
        """The time per element: what the fold's caller sees."""
        return value.time if isinstance(value, Busy) else value

    def enter(self, arithmetic: Any, node: Any, context: dict[Any, Any]) -> dict[Any, Any]:
        """A pool's parts run within its threads: the context's ``_OUTER`` is the threads of
        the pools around a part's own pool (at most the cores), absent for a part of one
        pool only; a mapReduce's parts run on nodes of their own, within none."""
        if isinstance(node, MapReduce) and _WITHIN in context:
            return {k: v for k, v in context.items() if k not in (_WITHIN, _OUTER)}
        if not isinstance(node, TPool) or not self.speeds_up():
            return context
        cores = arithmetic.leaf(sympy.Integer(self.machine.cores), {})
        running = arithmetic.smaller(arithmetic.leaf(node.count, context), cores)
        within = context.get(_WITHIN)
        if within is None:
            return {**context, _WITHIN: running}
        return {**context, _WITHIN: arithmetic.smaller(arithmetic.multiply(within, running), cores), _OUTER: within}

    def _within(self, arithmetic: Any, speedup: Callable[[Any], Any], outer: Any) -> Callable[[Any], Any]:
        """An atom's speed-up in a pool within pools of ``outer`` threads: on ``running``
        threads of its own pool, ``k = min(running * outer, cores)`` threads run the atom at
        once, each at ``S(k) / k``, so its pool gains ``running * S(k) / k`` (and the pools
        around it the rest: ``tpool_n(tpool_m(A))`` is ``tpool_{n*m}(A)`` but for the
        dispatch, not a way around the atom's speed-up)."""
        cores = arithmetic.leaf(sympy.Integer(self.machine.cores), {})

        def gain(running: Any) -> Any:
            total = arithmetic.smaller(arithmetic.multiply(running, outer), cores)
            return arithmetic.divide(arithmetic.multiply(speedup(total), running), total)

        return gain

    # --- the operators -------------------------------------------------------------------
    def seq(self, arithmetic: Any, left: Any, right: Any) -> Any:
        """Eq. (2): one thread runs both stages; times and work add (received, the first
        stage that touches the data pays the hand-off)."""
        add = arithmetic.add
        time = add(left.time, right.time)
        serial = left.serial and right.serial
        work = time if serial else add(left.work, right.work)
        if _unpaid(left) and _unpaid(right):
            received, received_work = time, work
        elif left.touches:
            received = _plus(arithmetic, left.received, left.time, right.time, time)
            received_work = received if serial else _plus(arithmetic, left.received_work, left.work, right.work, work)
        else:
            received = _plus(arithmetic, right.received, right.time, left.time, time)
            received_work = received if serial else _plus(arithmetic, right.received_work, right.work, left.work, work)
        own = any(part.speedup is not None or part.parts is not None for part in (left, right))
        wake = _woken(left, right)
        several = None if serial else _seq_several(arithmetic, left, right)
        waking: tuple[Any, ...]
        if serial or wake is None:  # one stage as a pipe sees it: it receives, runs both, hands on
            waking = _stage(arithmetic, time, received, wake)
        else:  # parts with stages of their own: it receives at the first's, hands on from the last's
            waking = (right.sending, right.sending_received, left.first, right.share, wake)
            waking = _one_or_several(arithmetic, several, _stage(arithmetic, time, received, wake), waking)
        return Busy(time, work, received, received_work, serial, left.touches or right.touches,
                    None, _pool(left, right), (left, right) if own else None, several, *waking)  # fmt: skip

    def threaded(self, arithmetic: Any, body: Busy, running: Any) -> tuple[Any, Any, Any, Any]:
        """``body`` run as ``running`` instances at once, each on a thread of its own: its
        time, work, received time and received work per element, its time over its
        speed-up (over ``running`` without one), its work grown by what the speed-up falls
        short of ``running``. A ``seq`` whose parts have speed-ups of their own divides each
        part by its own, which for Amdahl's speed-ups is Amdahl's law with the parts' serial
        fractions weighted by their times (their serial work adds up)."""
        if body.parts is None:
            return _divided(arithmetic, body, running)
        value: Busy | None = None
        for part in _seq_parts(body):
            divided = Busy(*_divided(arithmetic, part, running), False, part.touches, None, part.pool)
            value = divided if value is None else self.seq(arithmetic, value, divided)
        assert value is not None  # a body has at least one part
        return value.time, value.work, _paid(arithmetic, value.received), _paid(arithmetic, value.received_work)

    def tpool(self, arithmetic: Any, count: Any, body: Any) -> Any:
        """Eq. (3) on the machine: at most ``cores`` instances run at once, each at the
        body's speed-up ``S(k)`` (``k`` without one); the work grows by ``k / S(k)``; a pool
        of two or more threads pays the dispatch cost per element, in time and in work, at
        most the body's own time per element as it runs here where one thread runs the
        body; a pool of one is its body's own stream (one thread runs it all if one runs
        its body)."""
        cores = arithmetic.leaf(sympy.Integer(self.machine.cores), {})
        running = arithmetic.smaller(count, cores)
        dispatch = turn = several = None
        # a pool of one is its body's own stream: one thread runs it all if its body is so
        open_ended = body.several is not None and not arithmetic.symbolic
        if body.pool is not None or body.serial or open_ended:  # min(1, n - 1): 0 for one
            several = arithmetic.smaller(
                arithmetic.add(count, arithmetic.leaf(sympy.Integer(-1), {})),
                arithmetic.leaf(sympy.Integer(1), {}),
            )
        if body.pool is not None and body.pool.dispatch is not None:
            dispatch = arithmetic.multiply(body.pool.dispatch, several)
        if body.pool is not None and body.pool.turn is not None:
            turn = arithmetic.multiply(body.pool.turn, several)
        serial, threads = False, None
        if body.serial:
            known = arithmetic.constant(several)
            serial, threads = (known == 0, None) if known is not None else (False, several)
        elif open_ended:  # a closed form takes a pool of such a pool as of several threads
            threads = arithmetic.larger(body.several, several)[0]

        threaded = self.threaded(arithmetic, body, running)

        def pool(time: Any, work: Any) -> tuple[Any, Any]:
            # a body one thread runs pays at most an element's own time as it runs here
            # (its work per element, on its thread among the pool's: an atom's own time,
            # grown where its speed-up falls short of its threads): an element shorter than
            # a dispatch is handed on before anybody waits for it (a body of several
            # threads, with queues of its own, pays the whole: its time holds its own pools'
            # capped dispatch, and a cap on it would nest them level by level); where the
            # body's threads are not one number, the cap is that time plus the whole
            # dispatch if several run it
            paid = dispatch
            if dispatch is not None and body.serial:
                paid = arithmetic.smaller(dispatch, work)
            elif dispatch is not None and body.several is not None:
                paid = arithmetic.smaller(dispatch, arithmetic.add(work, arithmetic.multiply(dispatch, body.several)))
            if not body.serial:  # a body of several threads: the cores bound the pool
                time = arithmetic.larger(time, arithmetic.divide(work, cores))[0]
            if paid is not None:
                time, work = arithmetic.add(time, paid), arithmetic.add(work, paid)
            if turn is not None:  # its threads take turns at its queue: time, not work
                time = arithmetic.larger(time, turn)[0]
            return time, work

        time, work = pool(threaded[0], threaded[1])
        received, received_work = (time, work) if _unpaid(body) else pool(threaded[2], threaded[3])
        waking: tuple[Any, ...] = ()
        if body.wake is not None:  # each thread wakes the next stage for its own elements
            share = arithmetic.divide(body.share, running)
            alone = (time, received, received, share, body.wake)
            if body.serial:  # one stage of several threads: the pool's own time
                waking = alone
            else:  # a pool of stages: their ends, as many at once as it runs
                ends = (body.sending, _paid(arithmetic, body.sending_received), _paid(arithmetic, body.first))
                waking = (*(arithmetic.divide(end, running) for end in ends), share, body.wake)
                waking = _one_or_several(arithmetic, body.several, alone, waking)
        return Busy(time, work, received, received_work, serial, body.touches, None, body.pool, None, threads,
                    *waking)  # fmt: skip

    def pipe(self, arithmetic: Any, left: Any, right: Any) -> tuple[Any, int | None]:
        """Eq. (4) on the machine: the receiving stage pays the hand-off (its first atom
        that touches the data; none if none does); the pipe takes at least its work over
        the cores (its bottleneck is then :data:`~.semantics.CORES`)."""
        cores = arithmetic.leaf(sympy.Integer(self.machine.cores), {})

        def bounded(time: Any, work: Any) -> Any:
            return arithmetic.larger(time, arithmetic.divide(work, cores))[0]

        left_time, left_work = left.time, left.work
        if left.wake is not None:
            left_time, left_work = _woke(arithmetic, left, right, left.sending, left.time, left.work)
        time, winner = arithmetic.larger(left_time, _paid(arithmetic, right.received))
        work = arithmetic.add(left_work, _paid(arithmetic, right.received_work))
        stage, over = time, arithmetic.divide(work, cores)
        time, bound = arithmetic.larger(stage, over)
        if not arithmetic.symbolic and _some(bound):  # numbers: the cores pace it only beyond
            # rounding, so that doubles and 192 bits name one bottleneck (closed forms: exact)
            bound = arithmetic.larger(arithmetic.multiply(stage, arithmetic.leaf(_ROUNDING, {})), over)[1]
        winner = _paced(winner, bound)
        if _unpaid(left):
            received, received_work = time, work
        else:
            left_received, left_received_work = _paid(arithmetic, left.received), _paid(arithmetic, left.received_work)
            if left.wake is not None:
                left_received, left_received_work = _woke(arithmetic, left, right, _paid(arithmetic, left.sending_received),
                                                          left_received, left_received_work)  # fmt: skip
            received = arithmetic.larger(left_received, _paid(arithmetic, right.received))[0]
            received_work = arithmetic.add(left_received_work, _paid(arithmetic, right.received_work))
            received = bounded(received, received_work)
        waking: tuple[Any, ...] = ()
        if right.wake is not None:  # it receives at its first stage and hands on from its last
            last = _paid(arithmetic, right.sending_received)
            waking = (last, last, left.first, right.share, right.wake)
        busy = Busy(time, work, received, received_work, False, left.touches or right.touches,
                    None, _pool(left, right), None, None, *waking)  # fmt: skip
        return busy, winner


def threads_needed(term: Term) -> sympy.Expr:
    """The threads ``term`` runs at once on one machine: an atom 1, ``seq`` the larger part,
    ``pipe`` the sum, ``tpool_n`` n times its body, a mapReduce its threads per node (its
    nodes are machines of their own).

    >>> from patternalg.syntax.parser import parse
    >>> threads_needed(parse("pipe(tpool_3(qsort), seq(inc, tpool_n(nop)))"))
    n + 3
    >>> threads_needed(parse("seq(tpool_n(inc), tpool_m(inc))"))
    Max(m, n)
    """
    memo: dict[int, sympy.Expr] = {}
    for node in term.post_order():
        kids = [memo[id(c)] for c in node.children()]
        if isinstance(node, Pipe):
            memo[id(node)] = kids[0] + kids[1]
        elif isinstance(node, Seq):
            memo[id(node)] = _larger(kids[0], kids[1])
        elif isinstance(node, TPool):
            memo[id(node)] = node.count * kids[0]
        elif isinstance(node, MapReduce):
            memo[id(node)] = node.threads
        else:
            memo[id(node)] = sympy.Integer(1)
    return memo[id(term)]


def _larger(a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
    """The larger of two thread counts, each at least 1 (counts are): a count beside 1 is
    itself, and a maximum of expressions is one flat maximum of the different ones, its
    numbers as their largest, not evaluated further (sympy's evaluation asks its assumptions
    of both sides, which took minutes on the counts of 15 nested pools; a maximum nested
    3,000 deep, a seq chain's, passed the recursion limit where sympy sorted it).

    >>> from patternalg.syntax.symbols import symbol
    >>> n, m = symbol("n"), symbol("m")
    >>> _larger(sympy.Max(n, 2, evaluate=False), _larger(n, sympy.Integer(3)))
    Max(3, n)
    >>> _larger(n, m), _larger(n, sympy.Integer(1))
    (Max(m, n), n)
    """
    if a.is_Integer and b.is_Integer:  # the counts of pools of numbers (sympy's Max asks its assumptions)
        return a if a >= b else b
    if a.is_number and b.is_number:
        return sympy.Max(a, b)
    if b == 1 or a == b:
        return a
    if a == 1:
        return b
    parts = dict.fromkeys(arg for side in (a, b) for arg in (side.args if isinstance(side, sympy.Max) else (side,)))
    numbers = [p for p in parts if p.is_number]
    kept = [p for p in parts if not p.is_number] + ([max(numbers)] if numbers and max(numbers) > 1 else [])
    return kept[0] if len(kept) == 1 else sympy.Max(*kept, evaluate=False)


def threads_text(threads: sympy.Expr) -> str:
    """A count of threads (:func:`threads_needed`) as a message shows it: a whole number by
    its digits or, beyond 64 bits, its length; an expression in one terminal line."""
    if threads.is_Integer:
        return whole_number_text(int(threads))
    try:
        return printable(format_expr(threads))
    except EvaluationError:  # a count free at every level of a term 1,000 deep nests as deep
        return "(a count nested too deep to print)"


#: the context's threads of the pools around a part (at most the cores), and of the pools
#: around its own pool (:meth:`MachineSemantics.enter`)
_WITHIN = sympy.Symbol("_pools_threads")
_OUTER = sympy.Symbol("_outer_pools_threads")


@functools.lru_cache(maxsize=1024)
def _at_most(count: sympy.Expr, cores: int) -> sympy.Expr:
    """``min(count, cores)``, once per count: sympy's ``Min`` of a free count tries to order
    it against the cores (1.3 ms a call; a mapReduce 10,000 deep asked 80,000 times)."""
    return sympy.Min(count, cores)


def _seq_parts(body: Busy) -> list[Busy]:
    """``body``'s parts in order, as :meth:`MachineSemantics.threaded` divides them: the
    parts of a ``seq`` that has speed-ups inside (however deep), else ``body`` itself."""
    found, stack = [], [body]
    while stack:
        value = stack.pop()
        if value.parts is None:
            found.append(value)
        else:
            stack.extend(reversed(value.parts))
    return found


def _divided(arithmetic: Any, part: Busy, running: Any) -> tuple[Any, Any, Any, Any]:
    """``part`` (no ``seq`` of parts) run as ``running`` instances at once: its time and
    received time over its gain, its work grown by what its speed-up falls short of
    ``running`` (``work / S * running``; as it is without a speed-up)."""
    if part.speedup is None:
        gain, grown = running, lambda work: work
    else:
        gain = part.speedup(running)

        def grown(work: Any) -> Any:
            return arithmetic.multiply(arithmetic.divide(work, gain), running)

    time, work = arithmetic.divide(part.time, gain), grown(part.work)
    if _unpaid(part):
        return time, work, time, work
    return time, work, arithmetic.divide(_paid(arithmetic, part.received), gain), grown(_paid(arithmetic, part.received_work))


#: a stage's time grown by this is still the pipe's pace where its work over the cores is
#: no more (the two equal but for rounding: a hand-off of 2e-16*x on one core)
_ROUNDING = sympy.Float(1 + TIE)


def _some(bound: Any) -> bool:
    """Whether the cores bound a pipe anywhere (``bound``: 1, an array with a 1, or None)."""
    return bound is None or bool(bound.any() if hasattr(bound, "any") else bound)  # numpy only if given


def _paced(winner: Any, bound: Any) -> Any:
    """A pipe's winner (0, 1; an array of them on a grid; None: undecided) with the cores':
    :data:`~.semantics.CORES` where its work over the cores (``bound``: 1) is more than
    either stage takes, whichever stage is the slower."""
    if bound is None:
        return winner
    if winner is None:
        return CORES if isinstance(bound, int) and bound == 1 else None
    return winner + bound * (CORES - winner)


def _seq_several(arithmetic: Any, left: Busy, right: Busy) -> Any:
    """A ``seq``'s ``several`` (:class:`Busy`): several threads if either part has them,
    None if a part has them for sure."""
    found = [part.several for part in (left, right) if not part.serial]
    if any(several is None for several in found):
        return None
    return found[0] if len(found) == 1 else arithmetic.larger(found[0], found[1])[0]


def _woken(left: Busy, right: Busy) -> Any:
    """The wake bound of a composition's context (its parts share one; None: no wake)."""
    return left.wake if left.wake is not None else right.wake


def _one_or_several(arithmetic: Any, several: Any, one: tuple[Any, ...], more: tuple[Any, ...]) -> tuple[Any, ...]:
    """The wake fields of a term whose threads are not one number (``several``: 0 where one
    thread runs it all, 1 where several do, as a grid varies a count): ``one``'s where it
    is 0, ``more``'s where it is 1. A closed form keeps ``more``'s (carrying both doubled
    the form per level; ``eval`` notes it: :func:`~.machine_notes.free_count_note`)."""
    if several is None or arithmetic.symbolic:
        return more
    unit, minus = arithmetic.leaf(sympy.Integer(1), {}), arithmetic.leaf(sympy.Integer(-1), {})
    rest = arithmetic.add(unit, arithmetic.multiply(several, minus))
    blend = [
        arithmetic.add(arithmetic.multiply(_paid(arithmetic, a), rest), arithmetic.multiply(_paid(arithmetic, b), several))
        for a, b in zip(one[:4], more[:4], strict=True)
    ]
    return (*blend, more[4])


def _stage(arithmetic: Any, time: Any, received: Any, wake: Any) -> tuple[Any, ...]:
    """A :class:`Busy`'s wake fields for a term that is one stage on one thread (an atom,
    a ``seq``, a mapReduce as a pipe sees it): it receives and hands on every element
    itself; none without a wake."""
    if wake is None:
        return ()
    return time, received, received, arithmetic.leaf(sympy.Integer(1), {}), wake


def _woke(arithmetic: Any, left: Busy, right: Busy, sending: Any, time: Any, work: Any) -> tuple[Any, Any]:
    """``left``'s time and work per element as the first stage of a pipe into ``right``,
    its last stage (``sending``) paying to wake ``right``'s first where that one waits:
    per element the time the receiver waits, ``sending`` less its own, at most the wake
    bound, on one of the sender's threads (so over its threads in time)."""
    minus = arithmetic.leaf(sympy.Integer(-1), {})
    zero = arithmetic.leaf(sympy.Integer(0), {})
    waits = arithmetic.larger(arithmetic.add(sending, arithmetic.multiply(_paid(arithmetic, right.first), minus)), zero)[0]
    paid = arithmetic.smaller(waits, arithmetic.multiply(left.wake, left.share))
    woken = arithmetic.add(sending, paid)
    # a sender that is the whole stage needs no maximum with it (a closed form would carry
    # the stage twice more for each pipe around it)
    time = woken if sending is time else arithmetic.larger(time, woken)[0]
    return time, arithmetic.add(work, arithmetic.divide(paid, left.share))


def _pool(left: Busy, right: Busy) -> PoolCosts | None:
    """What a pool pays in a composition's context (its parts share one)."""
    return left.pool if left.pool is not None else right.pool


class _Paid:
    """A received time not yet added up: ``base + extra`` (a value and the hand-off its
    first atom that touches the data pays), added only where a stage does receive
    (:func:`_paid`): a ``seq`` carries it along by moving its base (:func:`_plus`), so a
    10,000-deep sequence adds each atom's time once, not twice and its hand-off again."""

    __slots__ = ("base", "extra", "_sum")

    def __init__(self, base: Any, extra: Any) -> None:
        self.base, self.extra, self._sum = base, extra, None


def _paid(arithmetic: Any, value: Any) -> Any:
    """A received time as a value of ``arithmetic`` (a :class:`_Paid` added up, once)."""
    if not isinstance(value, _Paid):
        return value
    if value._sum is None:
        value._sum = arithmetic.add(value.base, value.extra)
    return value._sum


def _plus(arithmetic: Any, received: Any, own: Any, other: Any, total: Any) -> Any:
    """``received`` (of a part whose own value is ``own``) plus ``other``, the rest of a
    ``seq`` whose value is ``total = own + other``: a :class:`_Paid` on ``own`` moves to
    ``total`` without an addition."""
    if isinstance(received, _Paid) and received.base is own:
        return _Paid(total, received.extra)
    return arithmetic.add(_paid(arithmetic, received), other)


def _unpaid(value: Busy) -> bool:
    """Whether receiving costs ``value`` nothing (no hand-off, or it does not touch data)."""
    return value.received is value.time and value.received_work is value.work


def here() -> MachineSemantics:
    """The semantics ``machine`` by name: this computer's cores, no hand-off."""
    return Machine.here().semantics


def cores_of(semantics: Semantics) -> int | None:
    """The cores of a machine semantics, else None."""
    return semantics.machine.cores if isinstance(semantics, MachineSemantics) else None
