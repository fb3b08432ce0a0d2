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

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ...algebra.uncertainty import Uncertainty
from ...errors import MeasurementError
from ...measurements.checks import require_above, require_distinct
from ...syntax.arith import number_text
from ..base import Form
from ..fitting import Fitter, atom_names_of, measured_atoms, series_of
from .csa import anneal
from .form import BOUNDS, ITERATIONS, Memwall, over_p_phi
from .uncertainty import memwall_uncertainty

__all__ = [
    "speedups",
    "amdahl_speedups",
    "fit_amdahl_f",
    "MemwallFit",
    "fit_memwall",
    "to_speedups",
    "fit_series",
]

#: the number of annealers of paper 003, section 4.3
ANNEALERS = 10
#: the parameters a fit estimates (t1 is given: the fit is of times relative to it)
PARAMETERS = ("f", "k", "m1", "m2")


def speedups(params: np.ndarray, p: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """S_p of eq. (15) for each row (f, k, m1, m2) of ``params``: shape (rows, points).

    Written as (1 + k*phi*mu_1) / max((1 + k*phi*mu_p)*((1 - f) + f/p), (1 + k*phi)*mu_p),
    which is eq. (15) with rho = 1 + k*phi expanded, in few array operations.

    >>> speedups(np.array([[1.0, 0.0, 0.0, 0.0]]), np.array([1.0, 4.0]), np.array([2.0, 2.0]))
    array([[1., 4.]])
    """
    return SpeedupModel(np.asarray(p, dtype=float), np.asarray(phi, dtype=float))(params)


class SpeedupModel:
    """Eq. (15) at fixed points (p, phi), what depends on p alone computed once: the CSA
    calls it 10,000 times on the same points."""

    def __init__(self, p: np.ndarray, phi: np.ndarray) -> None:
        self.phi = phi
        self.inverse = 1.0 / p
        self.parallel = 1.0 - self.inverse  # 1 - 1/p

    def __call__(self, params: np.ndarray) -> np.ndarray:
        """S_p for each row (f, k, m1, m2) of ``params``: shape (rows, points)."""
        f, k, m1, m2 = (params[:, i : i + 1] for i in range(4))
        kphi = k * self.phi
        mu_p = m2 * self.inverse
        mu_p += m1
        np.minimum(mu_p, 1.0, out=mu_p)  # m1 + m2/p, at most 1
        delay = kphi * mu_p
        memory = mu_p + delay  # rho*mu_p
        delay += 1.0  # (1 - mu_p) + rho*mu_p
        serial = f * self.parallel
        np.subtract(1.0, serial, out=serial)  # (1 - f) + f/p
        delay *= serial
        np.maximum(delay, memory, out=delay)
        kphi *= np.minimum(m1 + m2, 1.0)  # k*phi*mu_1
        kphi += 1.0
        kphi /= delay
        return kphi

    def mse(self, params: np.ndarray, speedup: np.ndarray) -> np.ndarray:
        """The mean squared error against ``speedup`` of each row of ``params``."""
        error = self(params)
        error -= speedup
        np.square(error, out=error)
        return error.sum(axis=1) / error.shape[1]


def amdahl_speedups(f: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Amdahl's S_p = 1 / ((1 - f) + f/p) (eq. 5) for each f of the column ``f``."""
    return 1.0 / ((1 - f) + f / p)


#: an MSE of speedups below this is a fit to rounding (root mean square error 1e-10)
EXACT_MSE = 1e-20


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
        """The accuracy gain over Amdahl in percent, as in Table 1: 100*(1 - mse/amdahl_mse);
        0 when Amdahl's law fits to rounding (an MSE below :data:`EXACT_MSE`), where the
        ratio of two rounding errors says nothing.

        >>> MemwallFit(1, 0, 0, 0, 4e-15, 1, 2e-29, 0, 10).gain
        0.0
        >>> MemwallFit(1, 0, 0, 0, 0.5, 1, 2.0, 0, 10).gain
        75.0
        """
        return 100.0 * (1.0 - self.mse / self.amdahl_mse) if self.amdahl_mse > EXACT_MSE else 0.0

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

    model = SpeedupModel(p, phi)

    def energy(states: np.ndarray) -> np.ndarray:
        return model.mse(states, speedup)

    bounds = [BOUNDS[name] for name in PARAMETERS]
    full = anneal(energy, bounds, annealers=ANNEALERS, iterations=iterations, seed=seed)
    amdahl_f, amdahl_mse = fit_amdahl_f(p, speedup)
    f, k, m1, m2 = (float(v) for v in full.x)
    return MemwallFit(f, k, m1, m2, full.energy, amdahl_f, amdahl_mse, seed, iterations)


def fit_amdahl_f(p: np.ndarray, speedup: np.ndarray) -> tuple[float, float]:
    """Amdahl's f in [0, 1] with the least MSE of speedups, and that MSE.

    A grid of 1001 values, then grids of 101 values between the neighbours of the best,
    until they are 1e-12 apart (one parameter needs no annealing, nor scipy; the optimum is
    exact, so the gain over Amdahl is not flattered).

    >>> p = np.array([1.0, 2.0, 4.0, 8.0])
    >>> f, mse = fit_amdahl_f(p, 1 / (0.05 + 0.95 / p))
    >>> round(f, 6), mse < 1e-12
    (0.95, True)
    """

    def mse(f: np.ndarray) -> np.ndarray:
        return np.mean((amdahl_speedups(f[:, None], p) - speedup) ** 2, axis=-1)

    grid = np.linspace(0.0, 1.0, 1001)
    while True:
        errors = mse(grid)
        i = int(np.argmin(errors))
        low, high = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
        if high - low <= 1e-12:
            return float(grid[i]), float(errors[i])
        grid = np.linspace(low, high, 101)


# --- one measured series ----------------------------------------------------------------
def to_speedups(series: Any, times: np.ndarray) -> np.ndarray:
    """Times -> speedups against the 1-core time at the same phi (as paper 003's authors do)."""
    p, phi = series.column("p"), series.column("phi")
    result = np.empty(len(times))
    for ratio in np.unique(phi):
        same = phi == ratio
        single = same & (p == 1)
        if not single.any():
            lines = ", ".join(str(series.lines[i][0]) for i in np.flatnonzero(same)[:8])
            raise MeasurementError(
                f"{series.path}: kernel '{series.kernel}', column 'p': no 1-core time at "
                f"phi = {ratio:g} (rows at lines {lines}) to turn times into speedups"
            )
        result[same] = times[single][0] / times[same]
    return result


def fit_series(
    series: Any, *, iterations: int, seed: int | None, aggregate: str, uncertainty: str = "auto"
) -> tuple[dict[str, Any], dict[str, tuple[float, float]], dict[str, Any], Uncertainty | None]:
    """The model-file values, domain, statistics and uncertainty (the delta method of
    :mod:`.uncertainty`, unless ``uncertainty`` is ``"none"``) of the model fitted to one
    series.

    The series has the parameters ``p`` and ``phi`` (or ``f_cpu`` and ``f_mem``); its
    values are speedups if its metric is ``speedup``, else times; repetitions are
    aggregated by ``aggregate``.
    """
    how = aggregate
    require_above(series, "p", 1.0, strict=False, what="a core count p")
    frequencies = ("phi",) if "phi" in series.parameters else ("f_cpu", "f_mem")
    for column in frequencies:
        require_above(series, column, 0.0, strict=True, what=f"the {column}")
    require_above(series, series.metric, 0.0, strict=True, what=f"the {series.metric}")
    series = over_p_phi(series)
    require_distinct(series, "p", 2, "a speedup model")
    values = series.aggregate(how)
    measured = values if series.metric == "speedup" else to_speedups(series, values)
    p, phi = series.column("p"), series.column("phi")
    fit = fit_memwall(p, phi, measured, iterations=iterations, seed=seed)
    statistics = {
        "mse": fit.mse,
        "amdahl_f": fit.amdahl_f,
        "amdahl_mse": fit.amdahl_mse,
        "gain_percent": fit.gain,
        "points": len(series),
        "seed": fit.seed if fit.seed is not None else -1,
        "iterations": fit.iterations,
    }
    domain = {"p": (float(p.min()), float(p.max())), "phi": (float(phi.min()), float(phi.max()))}
    spread = None
    if uncertainty != "none":
        theta = (fit.f, fit.k, fit.m1, fit.m2)
        spread = memwall_uncertainty(
            theta, p, phi, series.spread_values, how, series.metric == "speedup", SpeedupModel(p, phi)
        )
    return fit.parameters(), domain, statistics, spread


class MemwallFitter(Fitter):
    """The fit of :class:`~.form.Memwall`: one series at a time by :func:`fit_series`, from
    the speedup or the time column; the file must have p, and phi or both frequencies."""

    form = Memwall
    summary: ClassVar[str] = (
        "{atom}: memwall f {f_text}, k {k_text}, m1 {m1_text}, m2 {m2_text}; speedup mse "
        "{mse_text} vs Amdahl (f {amdahl_f_text}) {amdahl_mse_text}, gain {gain_text} % over "
        "{points} points"
    )

    @classmethod
    def summary_fields(cls, record: Mapping[str, Any]) -> dict[str, str]:
        """The parameters (and Amdahl's f) as the closed form prints a coefficient, the
        errors in 4 significant digits, the gain in 3, all by the one printer."""
        shown = {**record["parameters"], "amdahl_f": record["amdahl_f"]}
        return {
            **{f"{name}_text": number_text(value) for name, value in shown.items()},
            "mse_text": number_text(record["mse"], 4),
            "amdahl_mse_text": number_text(record["amdahl_mse"], 4),
            "gain_text": number_text(record["gain_percent"], 3),
        }

    checks_own_values = True  # times and speedups > 0, always

    series_fit = fit_series

    @classmethod
    def repeated(cls, series: Any) -> bool:
        """Frequency pairs of one ratio are one point (:func:`~.form.over_p_phi`)."""
        return super().repeated(over_p_phi(series))

    @classmethod
    def value_column(cls, metric: str | None) -> str | tuple[str, ...]:
        return metric or ("speedup", "time")

    @classmethod
    def prepare(cls, data: Any, options: Mapping[str, Any]) -> None:
        """The columns p, and phi or both frequencies."""
        from ...measurements.checks import require_columns

        require_columns(data, [["p"]])
        require_columns(data, [["phi"], ["f_cpu", "f_mem"]])

    @classmethod
    def notes(cls, data: Any, options: Mapping[str, Any]) -> list[str]:
        """Kernels with no more measured points on more than one core than the model has
        parameters: any of many models fits them exactly, so the fitted one says little (a
        point on one core says nothing of them: the model is 1 there for every parameter)."""
        own = measured_atoms(data)
        series = series_of(own)
        counts = [int(np.count_nonzero(over_p_phi(s).points[:, 0] != 1)) for s in series]
        return [*super().notes(data, options)] + [
            f"{atom}: {n} measured points on more than one core for the {len(PARAMETERS)} parameters "
            f"{', '.join(PARAMETERS)}: the data do not determine the model (measure more (p, phi) "
            "points)"
            for n, atom in zip(counts, atom_names_of(own, series), strict=True)
            if n <= len(PARAMETERS)
        ]

    @classmethod
    def source(cls, series: Any, model: Form, options: Mapping[str, Any]) -> str:
        return (
            f"fit of {series.path}, kernel {series.kernel}: memory-wall speedup model "
            "(paper 003, eq. 15) by CSA-M; time relative to the 1-core time at the same frequency"
        )

    @classmethod
    def unit(cls, series: Any, options: Mapping[str, Any]) -> str:
        return "T1"
