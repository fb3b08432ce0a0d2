"""Fitting the memory-wall model (paper 003) to measured speedups with Coupled Simulated Annealing.

The energy is the mean squared error between measured and modelled speedups, minimised by
CSA-M (10 annealers, f, m1, m2 in [0, 1], k in [0, 10]); plain Amdahl (f only) is fitted to
the same points, so the MSE gain can be reported as in Table 1 of paper 003.

>>> import numpy as np
>>> p, phi = np.meshgrid(np.arange(1.0, 25.0), np.linspace(1.2, 2.5, 14) / 1.6)
>>> truth = (0.95, 3.0, 0.02, 0.4)
>>> s = speedups(np.array([truth]), p.ravel(), phi.ravel())[0]
>>> fit = fit_memwall(p.ravel(), phi.ravel(), s, iterations=3000, seed=1)
>>> fit.mse < 1e-3, fit.mse < fit.amdahl_mse
(True, True)
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import numpy as np

from ..arith import format_expr
from ..errors import FitError, MeasurementError
from ..library import AtomicModel
from ..measurements import Series, atom_names, read
from ..measurements.checks import require_above, require_columns, require_distinct
from . import FitReport
from .csa import anneal
from .memwall import BOUNDS, build_expr

__all__ = [
    "speedups",
    "amdahl_speedups",
    "fit_amdahl_f",
    "MemwallFit",
    "fit_memwall",
    "to_speedups",
    "fit_file",
]

#: the number of annealers of paper 003, section 4.3
ANNEALERS = 10
#: default iteration budget (paper 003 used 30,000; see --iterations)
ITERATIONS = 10_000
PARAMETERS = ("f", "k", "m1", "m2")


def speedups(params: np.ndarray, p: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """S_p of eq. (15) for each row (f, k, m1, m2) of ``params``: shape (rows, points).

    Written as (1 + k*phi*mu_1) / max((1 + k*phi*mu_p)*((1 - f) + f/p), (1 + k*phi)*mu_p),
    which is eq. (15) with rho = 1 + k*phi expanded, in few array operations.

    >>> speedups(np.array([[1.0, 0.0, 0.0, 0.0]]), np.array([1.0, 4.0]), np.array([2.0, 2.0]))
    array([[1., 4.]])
    """
    f, k, m1, m2 = (params[:, i : i + 1] for i in range(4))
    kphi = k * phi
    mu_p = np.minimum(m1 + m2 * (1.0 / p), 1.0)
    delay = kphi * mu_p
    memory = mu_p + delay  # rho*mu_p
    delay += 1.0  # (1 - mu_p) + rho*mu_p
    delay *= 1.0 - f * (1.0 - 1.0 / p)  # times (1 - f) + f/p
    np.maximum(delay, memory, out=delay)
    mu_1 = np.minimum(m1 + m2, 1.0)
    return np.asarray((1.0 + kphi * mu_1) / delay)


def amdahl_speedups(f: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Amdahl's S_p = 1 / ((1 - f) + f/p) (eq. 5) for each f of the column ``f``."""
    return 1.0 / ((1 - f) + f / p)


@dataclass(frozen=True)
class MemwallFit:
    """Fitted f, k, m1, m2 with their MSE; plain Amdahl's f and MSE on the same points."""

    f: float
    k: float
    m1: float
    m2: float
    mse: float
    amdahl_f: float
    amdahl_mse: float
    seed: int | None
    iterations: int

    @property
    def gain(self) -> float:
        """The accuracy gain over Amdahl in percent, as in Table 1: 100*(1 - mse/amdahl_mse)."""
        return 100.0 * (1.0 - self.mse / self.amdahl_mse) if self.amdahl_mse > 0 else 0.0

    def parameters(self) -> dict[str, float]:
        """``{"f": ..., "k": ..., "m1": ..., "m2": ...}``."""
        return {"f": self.f, "k": self.k, "m1": self.m1, "m2": self.m2}


def fit_memwall(
    p: np.ndarray,
    phi: np.ndarray,
    speedup: np.ndarray,
    *,
    iterations: int = ITERATIONS,
    seed: int | None = 0,
) -> MemwallFit:
    """Fit (f, k, m1, m2) and Amdahl's f to measured speedups by CSA-M, minimising the MSE."""
    p, phi, speedup = (np.asarray(v, dtype=float) for v in (p, phi, speedup))

    def energy(states: np.ndarray) -> np.ndarray:
        return np.mean((speedups(states, p, phi) - speedup) ** 2, axis=1)

    bounds = [BOUNDS[name] for name in PARAMETERS]
    full = anneal(energy, bounds, annealers=ANNEALERS, iterations=iterations, seed=seed)
    amdahl_f, amdahl_mse = fit_amdahl_f(p, speedup)
    f, k, m1, m2 = (float(v) for v in full.x)
    return MemwallFit(f, k, m1, m2, full.energy, amdahl_f, amdahl_mse, seed, iterations)


def fit_amdahl_f(p: np.ndarray, speedup: np.ndarray) -> tuple[float, float]:
    """Amdahl's f in [0, 1] with the least MSE of speedups, and that MSE.

    A grid of 1001 values, refined by bounded Brent search around the best (one parameter
    needs no annealing; the optimum is exact, so the gain over Amdahl is not flattered).

    >>> p = np.array([1.0, 2.0, 4.0, 8.0])
    >>> f, mse = fit_amdahl_f(p, 1 / (0.05 + 0.95 / p))
    >>> round(f, 6), mse < 1e-12
    (0.95, True)
    """
    from scipy.optimize import minimize_scalar

    def mse(f: np.ndarray) -> np.ndarray:
        return np.mean((amdahl_speedups(f, p) - speedup) ** 2, axis=-1)

    grid = np.linspace(0.0, 1.0, 1001)
    i = int(np.argmin(mse(grid[:, None])))
    low, high = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    result = minimize_scalar(
        lambda f: float(mse(np.array([f]))),
        bounds=(low, high),
        method="bounded",
        options={"xatol": 1e-12},
    )
    best = (float(result.x), float(result.fun))
    edge = (float(grid[i]), float(mse(grid[i : i + 1])))
    return min(best, edge, key=lambda pair: pair[1])


# --- the fit command ------------------------------------------------------------------------
def to_speedups(points: Series, times: np.ndarray) -> np.ndarray:
    """Times -> speedups against the 1-core time at the same phi (as paper 003's authors do)."""
    p, phi = points.column("p"), points.column("phi")
    result = np.empty(len(points))
    for ratio in np.unique(phi):
        same = phi == ratio
        single = same & (p == 1)
        if not single.any():
            lines = ", ".join(str(points.lines[i][0]) for i in np.flatnonzero(same)[:8])
            raise MeasurementError(
                f"{points.path}: kernel '{points.kernel}', column 'p': no 1-core time at "
                f"phi = {ratio:g} (rows at lines {lines}) to turn times into speedups"
            )
        result[same] = times[single][0] / times[same]
    return result


def _read(path: str, args: argparse.Namespace) -> tuple[list[tuple[Series, np.ndarray]], str]:
    """The points of each kernel over p and phi, its aggregated values; the value's kind."""
    metric = getattr(args, "metric", None)
    how = getattr(args, "aggregate", None) or "median"
    ms = read(
        path,
        getattr(args, "input_format", None),
        value=metric or ("speedup", "time"),
    )
    require_columns(ms, [["p"]])
    frequency = require_columns(ms, [["phi"], ["f_cpu", "f_mem"]])
    for s in ms:
        require_above(s, "p", 1.0, strict=False, what="a core count p")
    for column in (*frequency, ms.value_name):
        for s in ms:
            require_above(s, column, 0.0, strict=True, what=f"the {column}")
    kind = "speedup" if ms.value_name == "speedup" else "time"
    kernels = []
    for s in ms:
        if "phi" not in frequency:
            s = s.with_column("phi", s.column("f_cpu") / s.column("f_mem"))
        points = s.over(["p", "phi"])
        kernels.append((points, points.aggregate(how)))
    return kernels, kind


def _report(points: Series, name: str, fit: MemwallFit) -> FitReport:
    spec = tuple(fit.parameters().items())
    expr = build_expr(dict(spec), f"fit of {points.path}")
    stats = (
        ("mse", fit.mse),
        ("amdahl_f", fit.amdahl_f),
        ("amdahl_mse", fit.amdahl_mse),
        ("gain_percent", fit.gain),
        ("points", len(points)),
        ("seed", fit.seed if fit.seed is not None else -1),
        ("iterations", fit.iterations),
    )
    model = AtomicModel(
        name=name,
        expr=expr,
        unit="T1",
        source=f"fit of {points.path}, kernel {points.kernel}: memory-wall speedup model "
        "(paper 003, eq. 15) by CSA-M; time relative to the 1-core time at the same frequency",
        form="memwall",
        spec=spec,
        fit=stats,
    )
    record = {
        "kernel": points.kernel,
        "atom": name,
        "form": "memwall",
        "model": format_expr(expr),
        "parameters": fit.parameters(),
        "mse": fit.mse,
        "amdahl_f": fit.amdahl_f,
        "amdahl_mse": fit.amdahl_mse,
        "gain_percent": fit.gain,
        "points": len(points),
        "seed": fit.seed,
        "iterations": fit.iterations,
    }
    values = ", ".join(f"{k} {v:.4f}" for k, v in fit.parameters().items())
    summary = (
        f"{name}: memwall {values}; speedup mse {fit.mse:.4g} vs Amdahl (f {fit.amdahl_f:.4f}) "
        f"{fit.amdahl_mse:.4g}, gain {fit.gain:.2f} % over {len(points)} points"
    )
    return FitReport(model=model, summary=summary, record=record)


def fit_file(path: str, args: argparse.Namespace) -> list[FitReport]:
    """``patternalg fit FILE --form memwall [--seed S] [--iterations N]``: one model per kernel.

    Columns ``p``, ``phi`` (or ``f_cpu`` and ``f_mem``) and ``speedup`` or ``time`` (or the
    ``--metric`` column, read as times); repetitions are aggregated by median.
    """
    seed = getattr(args, "seed", None)
    seed = 0 if seed is None else seed
    iterations = getattr(args, "iterations", None)
    iterations = ITERATIONS if iterations is None else iterations
    if iterations < 1:
        raise FitError(f"--iterations {iterations}: the annealing needs at least 1 iteration")
    kernels, kind = _read(path, args)
    reports = []
    for (points, value), name in zip(
        kernels, atom_names(p.kernel for p, _ in kernels), strict=True
    ):
        require_distinct(points, "p", 2, "a speedup model")
        measured = to_speedups(points, value) if kind == "time" else value
        fit = fit_memwall(
            points.column("p"), points.column("phi"), measured, iterations=iterations, seed=seed
        )
        reports.append(_report(points, name, fit))
    return reports
