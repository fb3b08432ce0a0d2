"""The compositions a machine is calibrated on (docs/machine.md, "Which compositions to
measure"): one list for ``calibrate``'s messages, the tests and the benchmarks.
``benchmarks/realdata/run.sh``'s ``CALIBRATION=1`` preset measures the same, with the atoms
(``tests/test_calibrate.py`` checks that they agree).

>>> calibration_terms(2) == CALIBRATION_TERMS, calibration_terms(16)[-1]
(True, 'tpool_16(qsort)')
"""

from __future__ import annotations

__all__ = ["CALIBRATION_TERMS", "FIVE_TERMS", "calibration_terms"]

#: what every machine is calibrated on: the hand-off (``pipe(inc, inc)``), where it is paid
#: (``pipe(inc, nop)``), the rules' own miss (``seq(inc, inc)``), a pool within the cores
#: (``tpool_2(qsort)``), a pool's dispatch cost (``tpool_2(inc)``) and its turn
#: (``tpool_2(nop)``, a pool of elements nobody touches: its time is the turn alone)
CALIBRATION_TERMS = ("pipe(inc, inc)", "pipe(inc, nop)", "seq(inc, inc)", "tpool_2(qsort)", "tpool_2(inc)",
                     "tpool_2(nop)")

#: the set before the turn joined it: what the runs before ``data9`` measured, and the
#: protocol ``benchmarks/bench_machine.py`` reports as issue 38 states it
FIVE_TERMS = CALIBRATION_TERMS[:5]


def calibration_terms(cores: int) -> tuple[str, ...]:
    """The compositions to calibrate a machine of ``cores`` cores on: on more than 2, a pool
    of them all too, so that a speed-up is measured up to the cores, not extrapolated from
    two threads."""
    return CALIBRATION_TERMS + ((f"tpool_{cores}(qsort)",) if cores > 2 else ())
