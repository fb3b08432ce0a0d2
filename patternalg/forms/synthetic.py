"""Synthetic measurements shaped like the experiments of papers 002 and 003, for tests,
benchmarks and design documents.

>>> x, p, t = amdahl_measurements(repetitions=1, noise=0.0)
>>> len(t), sorted(set(p.tolist()))
(400, [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 40.0, 47.0])
>>> p, phi = memwall_grid()
>>> len(p)
336
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["PAPER_002_CORES", "MATMUL_TSEQ", "amdahl_measurements", "memwall_grid"]

#: the core allocations measured in paper 002 (47, not 48, to spare the runtime a core)
PAPER_002_CORES = (1, 2, 4, 8, 16, 32, 40, 47)
#: a naive matrix multiplication: T_seq(x) = c*x^3 seconds, 60 ms at x = 400 (paper 002, 3.2)
MATMUL_TSEQ = (0.0, 0.0, 0.0, 0.06 / 400**3)


def amdahl_measurements(
    *,
    alpha: float = 0.985,
    tseq: Sequence[float] = MATMUL_TSEQ,
    sizes: Sequence[float] = tuple(range(50, 2501, 50)),
    cores: Sequence[float] = PAPER_002_CORES,
    repetitions: int = 10,
    noise: float = 0.005,
    seed: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x, p, time) rows: the extended Amdahl model plus Gaussian noise of ``noise`` seconds.

    The default imitates paper 002's matrix multiplication: x from 50 to 2500, the paper's
    core counts, 10 repetitions, about 5 ms of measurement error.
    """
    rng = np.random.default_rng(seed)
    x, p = (a.ravel() for a in np.meshgrid(np.asarray(sizes, float), np.asarray(cores, float)))
    x, p = np.repeat(x, repetitions), np.repeat(p, repetitions)
    exact = np.polynomial.polynomial.polyval(x, np.asarray(tseq)) * (alpha / p + 1 - alpha)
    times = exact + rng.normal(0.0, noise, size=len(x))
    return x, p, np.maximum(times, noise / 10)


def memwall_grid(
    cores: int = 24,
    frequencies: Sequence[float] = tuple(np.linspace(1.2, 2.5, 14)),
    memory_frequency: float = 1.6,
) -> tuple[np.ndarray, np.ndarray]:
    """The (p, phi) grid of paper 003: 1-24 cores x 14 CPU frequencies 1.2-2.5 GHz (336 points).

    phi = F_CPU / F_Mem with a fixed memory frequency (GHz).
    """
    p, f_cpu = np.meshgrid(np.arange(1.0, cores + 1), np.asarray(frequencies, float))
    return p.ravel(), f_cpu.ravel() / memory_frequency
