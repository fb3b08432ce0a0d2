"""The compositions a machine is calibrated on (docs/machine.md, "Which compositions to
measure"): one list for ``calibrate``'s messages, the tests and the benchmarks.
``benchmarks/realdata/run.sh``'s ``CALIBRATION=1`` preset measures the same, with the atoms
(``tests/test_calibrate.py`` checks that they agree).

>>> calibration_terms(2) == CALIBRATION_TERMS, calibration_terms(16)[-1]
(True, 'tpool_16(qsort)')
"""

from __future__ import annotations

__all__ = ["CALIBRATION_TERMS", "calibration_terms"]

#: what every machine is calibrated on: the hand-off (``pipe(inc, inc)``), where it is paid
#: (``pipe(inc, nop)``), the rules' own miss (``seq(inc, inc)``), a pool within the cores
#: (``tpool_2(qsort)``) and a pool's dispatch cost (``tpool_2(inc)``)
CALIBRATION_TERMS = ("pipe(inc, inc)", "pipe(inc, nop)", "seq(inc, inc)", "tpool_2(qsort)", "tpool_2(inc)")


def calibration_terms(cores: int) -> tuple[str, ...]:
    """The compositions to calibrate a machine of ``cores`` cores on: on more than 2, a pool
    of them all too, so that a speed-up is measured up to the cores, not extrapolated from
    two threads."""
    return CALIBRATION_TERMS + ((f"tpool_{cores}(qsort)",) if cores > 2 else ())
