"""Output of models: text, LaTeX, JSON objects and the ``--explain`` derivation tree.

>>> from patternalg.syntax.symbols import x, log2
>>> as_text(258.5425 * x * log2(x))
'258.5425*x*log2(x)'
>>> as_latex(258.5425 * x * log2(x))
'258.5425 x \\\\log_{2}{\\\\left(x \\\\right)}'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import sympy

from .._internal.display import ranges_text
from ..errors import EvaluationError
from ..syntax.arith import (
    DEFAULT_DIGITS,
    DOUBLE_DIGITS,
    float_text,
    format_expr,
    format_number,
    in_double_range,
    number_text,
    shown_text,
)
from ..syntax.symbols import symbol
from ..syntax.terms import Atom, MapReduce, Meta, Pipe, Seq, Term, TPool, format_count
from .evaluation import Derivation, Step, noted_winner
from .semantics import Semantics, paced_by

if TYPE_CHECKING:
    from .pointwise import PointStep, PointValue

__all__ = [
    "as_text",
    "as_latex",
    "shown_model",
    "as_number",
    "format_number",
    "with_unit",
    "explain_lines",
    "shown_steps",
    "EXPLAIN_STEPS",
    "as_json",
    "term_label",
]


def as_text(expr: sympy.Expr, digits: int | None = None) -> str:
    """sympy's text form, with floats in their shortest exact decimal (or in ``digits``
    significant digits)."""
    return format_expr(expr, digits)


def shown_model(expr: sympy.Expr, digits: int | None = None) -> str:
    """A closed form as a person reads it: every coefficient in at most ``digits``
    significant digits (:data:`DEFAULT_DIGITS` without), so that one computed from the
    atoms' shows no float noise, and a whole number no ``.0``; JSON's ``model`` (and
    :func:`as_text`) keep every digit.

    >>> from patternalg.syntax.symbols import symbol, x
    >>> d = symbol("d")
    >>> as_text(sympy.Float(536.185) * 10 * d), shown_model(sympy.Float(536.185) * 10 * d)
    ('5361.849999999999*d', '5361.85*d')
    >>> shown_model(sympy.Float(1.012655257936508) * x, 16), shown_model(sympy.Float(2.0) * x)
    ('1.012655257936508*x', '2*x')
    """
    return shown_text(format_expr(expr), digits)


def as_latex(expr: sympy.Expr) -> str:
    """LaTeX for papers and notebooks: the same as a notebook shows (``sympy.latex``)."""
    return sympy.latex(expr)


def exact_number(expr: sympy.Expr) -> sympy.Float | None:
    """The value of an expression without free symbols in 17 significant digits, also
    where a double has no room for it; None if it has free symbols.

    >>> exact_number(3 * sympy.Integer(10) ** -400), exact_number(sympy.Symbol("x"))
    (3.0000000000000000e-400, None)
    """
    if expr.free_symbols:
        return None
    value = sympy.N(expr, DOUBLE_DIGITS)
    if not (value.is_real and value.is_finite):
        raise EvaluationError(f"the model has no finite real value there: {format_expr(expr)}")
    return sympy.Float(value, DOUBLE_DIGITS)


def as_number(expr: sympy.Expr) -> float | None:
    """The value of an expression without free symbols as a double; None if it has free
    symbols or a double has no room for it (:func:`value_text` prints it then).

    >>> as_number(sympy.Integer(3) / 4), as_number(sympy.Float("1e-400"))
    (0.75, None)
    """
    value = exact_number(expr)
    return float(value) if value is not None and in_double_range(value) else None


def value_text(expr: sympy.Expr, digits: int | None = None) -> str | None:
    """The value of an expression without free symbols in ``digits`` significant digits
    (:func:`number_text`: a whole number without ``.0``), from the exact value where a double has no room for it (not
    0.0 or an error); None if it has free symbols.

    >>> value_text(sympy.Integer(3) / 4), value_text(-sympy.Float("1.374175e-394"), 4)
    ('0.75', '-1.374e-394')
    """
    value = exact_number(expr)
    if value is None:
        return None
    if in_double_range(value):
        return number_text(float(value), digits)
    return float_text(value, digits or DEFAULT_DIGITS)


def with_unit(expr: sympy.Expr, unit: str, digits: int | None = None) -> str:
    """A number with its unit (``5422.97 ns``); a model with free symbols stays bare
    (:func:`shown_model`), each in ``digits`` significant digits.

    >>> from patternalg.syntax.symbols import x, log2
    >>> with_unit(4136680 * log2(sympy.Integer(16000)), "ns"), with_unit(2.5 * x, "ns")
    ('57771980.534676 ns', '2.5*x')
    """
    value = value_text(expr, digits)
    return shown_model(expr, digits) if value is None else f"{value} {unit}"


def term_label(term: Term) -> str:
    """A sub-term's operator (``seq``, ``tpool_4``) or an atom's name, for derivations."""
    if isinstance(term, Atom | Meta):
        return str(term)
    if isinstance(term, Seq):
        return "seq"
    if isinstance(term, Pipe):
        return "pipe"
    if isinstance(term, TPool):
        return f"tpool_{format_count(term.count)}"
    if isinstance(term, MapReduce):
        return term.head()
    return type(term).__name__  # pragma: no cover


def _short(term: Term | str, limit: int = 40) -> str:
    if isinstance(term, Atom | Meta | str):  # a string: the cores
        return str(term)
    text = term_label(term) + "(...)"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _range_note(model: Any, bindings: Mapping[sympy.Symbol, sympy.Expr]) -> str:
    """Where ``model`` was fitted, every symbol of its domain, and which bound values lie
    outside it.

    >>> from patternalg.algebra.atomic_model import AtomicModel
    >>> from patternalg.syntax.symbols import p, x
    >>> m = AtomicModel("k", x * p, domain=(("p", (2.0, 32.0)), ("x", (4.0, 64.0))))
    >>> _range_note(m, {x: sympy.Integer(10), p: sympy.Integer(64)})
    'fitted on p in [2, 32], x in [4, 64]; p = 64 is an extrapolation'
    """
    ranges = getattr(model, "ranges", {})
    if not ranges:
        return ""
    shown = ranges_text(ranges.items())
    outside = []
    for name, (low, high) in ranges.items():
        value = bindings.get(symbol(name))
        if value is not None and value.is_number and not low <= float(value) <= high:
            outside.append(f"{name} = {number_text(float(value))}")
    verb = "is an extrapolation" if len(outside) == 1 else "are extrapolations"
    return f"fitted on {shown}" + (f"; {' and '.join(outside)} {verb}" if outside else "")


#: sub-terms an ``--explain`` derivation lists before it elides its middle: printing each
#: value takes sympy milliseconds, and nobody reads 10,000 levels
EXPLAIN_STEPS = 200


def shown_steps(count: int, limit: int | None = EXPLAIN_STEPS) -> tuple[range, range]:
    """Which of ``count`` steps a derivation shows: of a longer one than ``limit``, the first
    ``limit // 2`` and the last ones (the second range empty when all are shown).

    >>> shown_steps(5, 10), shown_steps(10_000, 200)
    ((range(0, 5), range(0, 0)), (range(0, 100), range(9900, 10000)))
    """
    if limit is None or count <= limit:
        return range(count), range(0)
    head = limit // 2
    return range(head), range(count - (limit - head), count)


def step_notes(
    derivation: Derivation,
    step: Step,
    here: PointStep | None,
    point: PointValue | None = None,
    bindings: Mapping[sympy.Symbol, sympy.Expr] | None = None,
) -> list[str]:
    """What ``eval --explain`` says beside one step of ``derivation`` (``here``: its value
    at ``point``, or None): a pipe's bottleneck at the point and asymptotically, a
    sub-term's note, an atom's source and fitted range."""
    notes = []
    if here is not None and isinstance(step.term, Pipe) and here.winner is not None:
        notes.append(f"bottleneck at the point: {_short(paced_by(step.term, here.winner))}")
    winner = noted_winner(step.note) if isinstance(step.term, Pipe) else None
    if winner is not None:
        label = f"{point.semantics.value} bottleneck" if point is not None else "bottleneck"
        notes.append(f"{label}: {_short(paced_by(step.term, winner))}")
    elif step.note and not isinstance(step.term, Atom):
        notes.append(step.note)
    if here is not None and point is not None and isinstance(step.term, TPool) and _at_turn(here.value, point):
        notes.append("at the machine's turn: its threads take turns at one queue")
    if isinstance(step.term, Atom):
        model = derivation.atoms[step.term.name]
        notes.append(f"source: {model.source or 'user model'}")
        range_note = _range_note(model, bindings or {})
        if range_note:
            notes.append(range_note)
    return notes


def _at_turn(value: sympy.Expr, point: PointValue) -> bool:
    """Whether a pool's ``value`` at ``point`` is its machine's turn there (the pool takes
    no less, whatever its body)."""
    from .machine import MachineSemantics

    semantics = point.semantics
    if not isinstance(semantics, MachineSemantics) or semantics.machine.turn == 0:
        return False
    turn = semantics.machine.turn.xreplace({symbol(k): v for k, v in point.bindings})
    if not (value.is_number and turn.is_number):
        return False
    return abs(float(value) - float(turn)) <= 1e-9 * abs(float(turn))


def explain_lines(
    derivation: Derivation,
    bindings: Mapping[sympy.Symbol, sympy.Expr] | None = None,
    point: PointValue | None = None,
    unit: str = "ns",
    digits: int | None = None,
    limit: int | None = EXPLAIN_STEPS,
) -> list[str]:
    """The derivation as an indented tree: each sub-term, its model, bottlenecks and sources.

    With ``point`` every line also shows the sub-term's value there, and each pipe the
    stage that is its bottleneck at the point. Every value is followed by ``unit``, the
    unit the derivation's atoms are in, and shows ``digits`` significant digits (as the
    evaluation's own value does: :func:`value_digits`). A derivation of more than ``limit``
    sub-terms shows the first and the last ``limit // 2`` and says how many are left out
    between them (``limit=None``: every one).
    """
    bindings = bindings or {}
    lines = []
    at_point = point.steps if point is not None else (None,) * len(derivation.steps)
    head, tail = shown_steps(len(derivation.steps), limit)
    for index in (*head, *tail):
        step, here = derivation.steps[index], at_point[index]
        if tail and index == tail[0]:
            hidden = tail[0] - len(head)
            lines.append(f"{'  ' * min(step.depth, 40)}... {hidden:,} more sub-terms ...")
        indent = "  " * min(step.depth, 40)
        line = f"{indent}{term_label(step.term)}  =  {with_unit(step.model, unit, digits)}"
        if here is not None and here.value != step.model:
            line += f"  ->  {with_unit(here.value, unit, digits)} at the point"
        notes = step_notes(derivation, step, here, point, bindings)
        if notes:
            line += "    [" + "; ".join(notes) + "]"
        lines.append(line)
    shuffles = [
        name
        for name, model in derivation.atoms.items()
        if not any(isinstance(s.term, Atom) and s.term.name == name for s in derivation.steps)
    ]
    for name in shuffles:
        model = derivation.atoms[name]
        lines.append(
            f"{name}  =  {with_unit(model.expr, unit, digits)}    [source: {model.source or 'user model'}]"
        )
    return lines


def as_json(
    term: Term,
    expr: sympy.Expr,
    semantics: Semantics,
    value: float | None,
    notes: list[str],
    latex: str | None = None,
) -> dict[str, Any]:
    """The JSON object of ``patternalg eval --format json`` (``latex``: the model's LaTeX as
    ``--format latex`` prints it, default sympy's)."""
    return {
        "term": str(term),
        "model": as_text(expr),
        "latex": as_latex(expr) if latex is None else latex,
        "free_symbols": sorted(s.name for s in expr.free_symbols),
        "semantics": semantics.value,
        "value": value,
        "notes": notes,
    }
