"""What an interval is made of: each of its sources drawn alone (`eval --explain --interval`).

An interval at a point draws several independent sources at once (intervals.py): each
atom's fit (its coefficients and its own error), a measurement's noise, and on a
calibrated machine its numbers and what its operators miss. Drawn alone, each source gives
the interval it would make by itself, with the same draws as among all of them, so that a
user who sees a wide interval can tell whether an atom's fit or the machine's calibration
made it. The sources are independent, so their widths add roughly in quadrature, not
linearly: the largest one alone is close to the whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .intervals import DRAWS, OTHER_SOURCES, Spread

__all__ = ["IntervalSource", "interval_sources", "source_groups", "source_name", "sources_line", "MOST_FITS"]

#: the most atoms whose fits are drawn one by one; beyond them their fits are drawn together
MOST_FITS = 12


class IntervalSource(NamedTuple):
    """One source of an interval drawn alone: its name, as :func:`sources_line` writes it,
    and the interval's ends, in the value's unit."""

    name: str
    low: float
    high: float


def interval_sources(spread: Spread, level: float, seed: int = 0, count: int = DRAWS) -> tuple[IntervalSource, ...]:
    """The interval ``spread`` draws at its point (every symbol bound), at ``level``, of each
    of its sources alone, in the order of :attr:`~.intervals.Spread.sources`; the fits of
    more than :data:`MOST_FITS` atoms together as one source, ``fits``.

    >>> from patternalg.algebra.atomic_model import AtomicModel
    >>> from patternalg.algebra.uncertainty import Uncertainty
    >>> from patternalg.syntax.symbols import x
    >>> wide = Uncertainty((x,), ((1e-4,),), 10, 0.0, "bootstrap")
    >>> narrow = Uncertainty((x,), ((1e-6,),), 10, 0.0, "bootstrap")
    >>> lib = {"a": AtomicModel("a", 2 * x, uncertainty=wide), "b": AtomicModel("b", 2 * x, uncertainty=narrow)}
    >>> spread = Spread.of("seq(a, b)", lib, {"x": 100})
    >>> [(s.name, round(s.low), round(s.high)) for s in interval_sources(spread, 0.9)]  # 400 +- 1.645 * 100 * 0.01, 0.001
    [('fit a', 398, 402), ('fit b', 400, 400)]
    """
    found = []
    for name, only in source_groups(spread.sources):
        low, high = spread.interval({}, level, count, seed, only=only)
        found.append(IntervalSource(name, float(low), float(high)))
    return tuple(found)


def source_groups(sources: Iterable[str]) -> list[tuple[str, frozenset[str]]]:
    """``sources`` (of one or several spreads) as each is drawn alone: the atoms' fits by
    name, then a measurement's noise, the machine's numbers and its miss; the fits of more
    than :data:`MOST_FITS` atoms as one, ``fits``.

    >>> source_groups(["missed", "fit qsort", "fit inc", "fit qsort"])
    [('fit inc', frozenset({'fit inc'})), ('fit qsort', frozenset({'fit qsort'})), ('missed', frozenset({'missed'}))]
    """
    found = set(sources)
    fits = sorted(k for k in found if k not in OTHER_SOURCES)
    groups = [("fits", frozenset(fits))] if len(fits) > MOST_FITS else [(k, frozenset({k})) for k in fits]
    return groups + [(k, frozenset({k})) for k in OTHER_SOURCES if k in found]


#: how :func:`sources_line` writes each kind of source
_NAMES = {
    "fits": "the atoms' fits",
    "noise": "a measurement's noise",
    "numbers": "the machine's numbers",
    "missed": "what the machine's operators miss",
}


def source_name(key: str) -> str:
    """How a line names a source (:attr:`~.intervals.Spread.sources`, or ``fits``).

    >>> source_name("fit qsort"), source_name("missed")
    ("qsort's fit", "what the machine's operators miss")
    """
    return _NAMES.get(key) or f"{key.removeprefix('fit ')}'s fit"


def sources_line(sources: Sequence[IntervalSource], value: float, level: float, unit: str) -> str:
    """The line ``eval --explain`` prints of an interval's sources: each one's ends relative
    to ``value`` (in ``unit`` where the value is 0).

    >>> print(sources_line([IntervalSource("fit qsort", 95.0, 106.0), IntervalSource("noise", 99.0, 101.0)], 100.0, 0.9, "ns"))
    the 90 % interval, each of its sources drawn alone: qsort's fit -5.0 % / +6.0 %, a measurement's noise -1.0 % / +1.0 %
    >>> print(sources_line([IntervalSource("fit inc", 100.0, 100.0)], 100.0, 0.9, "ns"))
    the 90 % interval, each of its sources drawn alone: inc's fit 0 %
    >>> print(sources_line([IntervalSource("missed", -1.0, 2.0)], 0.0, 0.5, "ns"))
    the 50 % interval, each of its sources drawn alone: what the machine's operators miss -1 / +2 ns
    """
    parts = []
    for source in sources:
        name = source_name(source.name)
        if max(abs(source.low - value), abs(source.high - value)) <= 1e-9 * abs(value):  # it reaches no draw
            parts.append(f"{name} 0 %")
        elif value:
            ends = (_percent(100 * (end - value) / abs(value)) for end in (source.low, source.high))
            parts.append(f"{name} {' % / '.join(ends)} %")
        else:
            ends = (f"{end - value:+.3g}" for end in (source.low, source.high))
            parts.append(f"{name} {' / '.join(ends)} {unit}")
    return f"the {100 * level:g} % interval, each of its sources drawn alone: " + ", ".join(parts)


def _percent(change: float) -> str:
    """A change in percent, signed, to a tenth (``-0.0`` is ``0.0``)."""
    text = f"{change:+.1f}"
    return "0.0" if text in ("+0.0", "-0.0") else text
