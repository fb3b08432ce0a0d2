"""What a calibrated machine's record adds to a composed term's interval beside its numbers
(:mod:`.machine_numbers`): what its operators still miss at each calibrated size, and the
width factor its calibration compositions' misses give the rest of the interval."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, TypeGuard

import numpy as np
import sympy

from ..syntax.terms import Atom, Term
from .atom_shares import atom_shares
from .atomic_model import AtomicModel
from .machine import MachineSemantics
from .semantics import Semantics
from .term_symbols import term_symbols

__all__ = ["calibration_growth", "calibration_missed", "calibration_width"]


def calibration_missed(
    term: Term,
    semantics: Semantics,
    measured: float,
    library: Mapping[str, AtomicModel] | None = None,
    fixed: Mapping[str, sympy.Expr] | None = None,
) -> tuple[tuple[float, float], ...]:
    """What a calibrated machine's operators still miss at each calibrated size, relative
    (pairs (x, spread)), for a composed term (an atom alone is no composition).

    Where the record has the miss in parts (``common`` and ``atoms``,
    :func:`~patternalg.evidence.missed.missed_by_atom`) and ``term`` is a number at x once
    ``fixed`` is bound, the term's own: ``sqrt(m0^2 + sum_a share_a^2 m_a^2)`` with its
    atoms' shares of it (:func:`~.atom_shares.atom_shares`, over ``library``) and, for an
    atom the calibration did not see, the whole miss (``missed``) as its own. Otherwise the
    spread of the calibration compositions' residuals there, their measurements' own noise
    taken out (the record's ``missed``; a machine file of an older ``calibrate`` records
    the gross spread only: then the term's atoms' noise pooled, ``measured``, is taken
    out; older still, one spread for every size: then that one); none without a machine or
    its record."""
    if not isinstance(semantics, MachineSemantics) or isinstance(term, Atom):
        return ()
    spread = dict(semantics.machine.calibration).get("spread")
    if not isinstance(spread, Mapping):
        return ()
    missed = _pairs(spread.get("missed"))  # net of the calibration's own noise (evidence/missed.py)
    parts = _in_parts(term, semantics, spread, missed, library, fixed) if library is not None else None
    if parts:
        return parts
    if missed:
        return missed
    pairs = list(_pairs(spread.get("sizes")))
    if not pairs and isinstance(spread.get("sd"), int | float):
        pairs = [(1.0, float(spread["sd"]))]
    return tuple((x, math.sqrt(max(0.0, sd * sd - measured * measured))) for x, sd in pairs)


def _in_parts(
    term: Term,
    semantics: MachineSemantics,
    spread: Mapping[str, Any],
    missed: tuple[tuple[float, float], ...],
    library: Mapping[str, AtomicModel],
    fixed: Mapping[str, sympy.Expr] | None,
) -> tuple[tuple[float, float], ...] | None:
    """``term``'s own missed spread at the calibrated sizes from the record's parts; None
    without them, or where the term is not a number at x alone (a count left free)."""
    common, atoms = _pairs(spread.get("common")), spread.get("atoms")
    if not common or not isinstance(atoms, Mapping) or len(missed) != len(common):
        return None
    by_atom = {name: _pairs(pairs) for name, pairs in atoms.items()}
    if any(len(pairs) != len(common) for pairs in by_atom.values()):
        return None
    bound = {k: v for k, v in (fixed or {}).items() if k != "x"}
    plain = MachineSemantics(semantics.machine)  # the numbers at their values
    if term_symbols(term, library, plain).bindable - set(bound) - {"x"}:
        return None
    sizes = np.array([x for x, _ in common])
    total = np.array([v for _, v in common]) ** 2
    whole = np.array([v for _, v in missed])
    for name, share in atom_shares(term, library, plain, sizes, bound).items():
        own = np.array([v for _, v in by_atom[name]]) if name in by_atom else whole
        total = total + (share * own) ** 2
    return tuple((float(x), float(v)) for x, v in zip(sizes, np.sqrt(total), strict=True))


def calibration_growth(term: Term, semantics: Semantics) -> float:
    """How fast a calibrated machine's missed spread grows per doubling of x beyond the
    calibrated sizes (the record's ``spread.growth``, :mod:`~patternalg.evidence.missed`),
    for a composed term; 0 without a machine, its record or the figure (an older
    ``calibrate``)."""
    if not isinstance(semantics, MachineSemantics) or isinstance(term, Atom):
        return 0.0
    spread = dict(semantics.machine.calibration).get("spread")
    growth = spread.get("growth") if isinstance(spread, Mapping) else None
    return float(growth) if _positive(growth) else 0.0


def _pairs(value: Any) -> tuple[tuple[float, float], ...]:
    """A record's ``[[x, spread], ...]`` as pairs of floats; () unless it is one (a machine
    file's record is for people and intervals: a malformed one widens nothing).

    >>> _pairs([[16, 0.1], [32.0, 0.2]]), _pairs([["a", 1]]), _pairs("no")
    (((16.0, 0.1), (32.0, 0.2)), (), ())
    """
    if not isinstance(value, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(v, int | float) and not isinstance(v, bool) for v in p)
        for p in value
    ):
        return ()
    return tuple((float(a), float(b)) for a, b in value)


def calibration_width(term: Term, semantics: Semantics) -> tuple[float, float, float, float]:
    """A calibrated machine's width factor for a composed term (an atom alone is no
    composition), the range of sizes it was seen at and the factor beyond them: the
    record's ``width`` (:mod:`~patternalg.evidence.widths`; a record of an older
    ``calibrate``, without ``beyond``, widens by its one factor there); (1, 0, inf, 1)
    without a machine or its record."""
    width = dict(semantics.machine.calibration).get("width") if isinstance(semantics, MachineSemantics) else None
    if isinstance(term, Atom) or not isinstance(width, Mapping):
        return (1.0, 0.0, math.inf, 1.0)
    factor, seen, beyond = width.get("factor"), width.get("range"), width.get("beyond")
    if not _positive(factor):
        return (1.0, 0.0, math.inf, 1.0)
    beyond = float(beyond) if _positive(beyond) else float(factor)
    if isinstance(seen, list) and len(seen) == 2 and all(isinstance(v, int | float) for v in seen):
        return (float(factor), float(seen[0]), float(seen[1]), beyond)
    return (float(factor), 0.0, math.inf, beyond)


def _positive(value: Any) -> TypeGuard[int | float]:
    """Whether ``value`` is a finite number above 0 (a factor a record may give)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and value > 0
