"""What a calibrated machine's record adds to a composed term's interval beside its numbers
(:mod:`.machine_numbers`): what its operators still miss at each calibrated size, and the
width factor its calibration compositions' misses give the rest of the interval."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

import numpy as np
import sympy

from ..syntax.terms import Atom, Term
from .atom_shares import Shares
from .atomic_model import AtomicModel
from .machine import MachineSemantics
from .semantics import Semantics

__all__ = ["MissedParts", "calibration_growth", "calibration_missed", "calibration_parts", "calibration_width", "spread_at"]


def calibration_missed(term: Term, semantics: Semantics, measured: float) -> tuple[tuple[float, float], ...]:
    """What a calibrated machine's operators still miss at each calibrated size, relative
    (pairs (x, spread)), for a composed term (an atom alone is no composition): the spread of
    the calibration compositions' residuals there, their measurements' own noise taken out
    (the record's ``missed``; a machine file of an older ``calibrate`` records the gross
    spread only: then the term's atoms' noise pooled, ``measured``, is taken out); none without a machine or its record (a machine
    file of an older version records one spread for every size: then that one). Where the
    record has it in parts, a term's own is :func:`calibration_parts`'s."""
    spread = _spread_record(term, semantics)
    if spread is None:
        return ()
    missed = _pairs(spread.get("missed"))  # net of the calibration's own noise (evidence/missed.py)
    if missed:
        return missed
    pairs = list(_pairs(spread.get("sizes")))
    if not pairs and isinstance(spread.get("sd"), int | float):
        pairs = [(1.0, float(spread["sd"]))]
    return tuple((x, math.sqrt(max(0.0, sd * sd - measured * measured))) for x, sd in pairs)


@dataclass(frozen=True)
class MissedParts:
    """A calibrated machine's miss in parts for one composed term: what every composition
    misses (``common``) and what each of the term's atoms does (``atoms``; the atoms the
    calibration did not read together, ``""``, what the whole ``missed`` adds to
    ``common``), each pairs (x, spread), and the term's :class:`~.atom_shares.Shares` that
    weight them."""

    common: tuple[tuple[float, float], ...]
    atoms: tuple[tuple[str, tuple[tuple[float, float], ...]], ...]
    shares: Shares

    def at(self, grid: Mapping[str, Any], where: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        """The term's missed spread at the points of ``grid`` (``where``: their log2(x),
        broadcast to ``shape``): ``sqrt(m0^2 + sum_a share_a^2 m_a^2)``, each part
        :func:`spread_at` its sizes, each share at the point (its counts, its x)."""
        shares = self.shares.at(grid)
        total = spread_at(self.common, where) ** 2
        for name, pairs in self.atoms:
            total = total + (np.broadcast_to(shares[name], shape) * spread_at(pairs, where)) ** 2
        return np.sqrt(np.broadcast_to(total, shape))


def calibration_parts(
    term: Term, semantics: Semantics, library: Mapping[str, AtomicModel], fixed: Mapping[str, sympy.Expr]
) -> MissedParts | None:
    """A calibrated machine's miss in parts for ``term`` (over ``library``, ``fixed``
    bound): the record's ``common`` and ``atoms``
    (:func:`~patternalg.evidence.missed.missed_by_atom`), the atoms the calibration did not
    read one part together (a term of them alone misses the whole ``missed``, as every
    composed term did before the parts: one compilation for them all, however many a
    profile's term has); None without a machine, an atom alone, or a record without them
    (an older ``calibrate``), or with sizes that do not agree."""
    spread = _spread_record(term, semantics)
    if spread is None or not isinstance(semantics, MachineSemantics):
        return None
    missed, common, recorded = _pairs(spread.get("missed")), _pairs(spread.get("common")), spread.get("atoms")
    if not common or not isinstance(recorded, Mapping) or [x for x, _ in missed] != [x for x, _ in common]:
        return None
    by_atom = {str(name): _pairs(pairs) for name, pairs in recorded.items()}
    if any([x for x, _ in pairs] != [x for x, _ in common] for pairs in by_atom.values()):
        return None
    # the atoms the calibration read, each a part; the rest one part together (the sum of
    # their shares: never less than the root of their squares), missing what the
    # compositions missed as a whole beyond what every one of them did
    own = {n.name for n in term.walk() if isinstance(n, Atom)}
    parts: dict[str, set[str]] = {name: {name} for name in sorted(own & set(by_atom))}
    rest = own - set(by_atom)
    by_atom[""] = tuple((x, math.sqrt(max(0.0, v * v - c * c))) for (x, v), (_, c) in zip(missed, common, strict=True))
    plain = MachineSemantics(semantics.machine)  # the numbers at their values
    shares = Shares.of(term, library, plain, fixed, {**parts, **({"": rest} if rest else {})})
    return MissedParts(common, tuple((label, by_atom[label]) for label in shares.labels), shares)


def spread_at(pairs: Sequence[tuple[float, float]], where: np.ndarray) -> np.ndarray:
    """A spread by size (pairs (x, spread), ascending x) at log2(x) ``where``: interpolated in
    log2(x) between the sizes, outside them their median (an end's own figure is the least
    sure: it pools one neighbour, not two).

    >>> spread_at(((1024.0, 0.1), (2048.0, 0.2), (4096.0, 0.6)), np.log2([1024.0, 1448.2, 65536.0])).round(3).tolist()
    [0.1, 0.15, 0.2]
    """
    at = np.log2([p[0] for p in pairs])
    spread = np.array([p[1] for p in pairs])
    inside = np.interp(where, at, spread)
    return np.where((where < at[0]) | (where > at[-1]), float(np.median(spread)), inside)


def calibration_growth(term: Term, semantics: Semantics) -> float:
    """How fast a calibrated machine's missed spread grows per doubling of x beyond the
    calibrated sizes (the record's ``spread.growth``, :mod:`~patternalg.evidence.missed`),
    for a composed term; 0 without a machine, its record or the figure (an older
    ``calibrate``)."""
    spread = _spread_record(term, semantics)
    growth = None if spread is None else spread.get("growth")
    return float(growth) if _positive(growth) else 0.0


def _spread_record(term: Term, semantics: Semantics) -> Mapping[str, Any] | None:
    """A calibrated machine's ``spread`` record, for a composed term (an atom alone is no
    composition); None without a machine or the record."""
    if not isinstance(semantics, MachineSemantics) or isinstance(term, Atom):
        return None
    spread = dict(semantics.machine.calibration).get("spread")
    return spread if isinstance(spread, Mapping) else None


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
