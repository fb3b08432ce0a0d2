"""The fit options families share, declared once: ``unit``, ``aggregate`` and
``uncertainty`` (with how ``auto`` resolves for a fit of many kernels).
"""

from __future__ import annotations

from .._internal.options import Option
from .._internal.surface import flag

__all__ = [
    "AGGREGATIONS",
    "aggregate_option",
    "unit_option",
    "uncertainty_option",
    "uncertainty_method",
    "auto_uncertainty",
    "UNCERTAINTY_METHODS",
    "AUTO_BOOTSTRAP",
    "AUTO_BOOTSTRAP_POINTS",
    "AUTO_BOOTSTRAP_VALUES",
    "AUTO_LINEAR",
]

#: the choices of an ``aggregate`` option (the values of ``measurements.Aggregation``)
AGGREGATIONS = ("mean", "median", "biweight", "min", "max")


def unit_option() -> Option:
    """The ``unit`` option of families whose models are in the measured values' unit."""
    return Option(
        "unit",
        None,
        "unit of the measured values, e.g. us, ms, s",
        default_text="the value column's, as in time_ms or runtime[s]; else ns for a time",
    )


#: how a fit finds its uncertainty (docs/fitting.md, "Uncertainty")
UNCERTAINTY_METHODS = ("auto", "bootstrap", "linear", "none")
#: the most kernels of one fit that ``auto`` resamples (beyond: ``linear``; the bootstrap
#: costs some 3 ms a kernel, thirty times the fit's own: docs/fitting.md)
AUTO_BOOTSTRAP = 200
#: the most points (all kernels' together) that ``auto`` resamples (beyond: ``linear``; the
#: bootstrap's cost grows with the points: one hyperfine scan of 100,000 values)
AUTO_BOOTSTRAP_POINTS = 10_000
#: the most repetitions (all points' together) that ``auto`` resamples (beyond: ``linear``;
#: each resampling aggregates every repetition again: 1,000 repetitions at each of 889
#: points spent 20 of a fit's 31 s and 1.8 GB there)
AUTO_BOOTSTRAP_VALUES = 200_000
#: the most kernels of one fit whose uncertainty ``auto`` records at all (beyond: none, so
#: a file of 100,000 kernels fits in the time it did: docs/scaling.md)
AUTO_LINEAR = 10_000


def uncertainty_option() -> Option:
    """The ``uncertainty`` option of the families that record how sure their fit is."""
    return Option(
        "uncertainty",
        "auto",
        "how the uncertainty of the coefficients is found: bootstrap (resample the "
        "repetitions, choose and fit again), linear (closed form, fast), none; auto: bootstrap "
        f"for up to {AUTO_BOOTSTRAP:,} kernels (and {AUTO_BOOTSTRAP_POINTS:,} points, "
        f"{AUTO_BOOTSTRAP_VALUES:,} repetitions), linear "
        f"up to {AUTO_LINEAR:,} kernels, none for more",
        choices=UNCERTAINTY_METHODS,
    )


def uncertainty_method(asked: str, kernels: int, points: int = 0, values: int = 0) -> str:
    """The method of ``uncertainty`` for a fit of ``kernels`` kernels of ``points`` points
    and ``values`` repetitions in all: ``auto`` resolved.

    >>> uncertainty_method("auto", 10), uncertainty_method("auto", 5000), uncertainty_method("none", 1)
    ('bootstrap', 'linear', 'none')
    >>> uncertainty_method("auto", 20000), uncertainty_method("linear", 20000)
    ('none', 'linear')
    >>> uncertainty_method("auto", 1, points=100_000), uncertainty_method("auto", 1, 900, values=900_000)
    ('linear', 'linear')
    """
    return asked if asked != "auto" else auto_uncertainty(kernels, points, values)[0]


def auto_uncertainty(kernels: int, points: int = 0, values: int = 0) -> tuple[str, str | None]:
    """``auto``'s method for such a fit, and why where it is not the bootstrap (a note).

    >>> auto_uncertainty(20000)[0], auto_uncertainty(300)[1][:46], auto_uncertainty(10)
    ('none', 'more than 200 kernels: their uncertainty by th', ('bootstrap', None))
    """
    if kernels > AUTO_LINEAR:
        return "none", (
            f"more than {AUTO_LINEAR:,} kernels: no uncertainty recorded ({flag('uncertainty', 'linear')} "
            "records it, about twice the fit's time)"
        )
    if kernels > AUTO_BOOTSTRAP:
        why = (
            f"more than {AUTO_BOOTSTRAP:,} kernels: their uncertainty by the linear method "
            f"({flag('uncertainty', 'bootstrap')} resamples each, some 3 ms a kernel)"
        )
    elif points > AUTO_BOOTSTRAP_POINTS:
        why = (
            f"more than {AUTO_BOOTSTRAP_POINTS:,} points: the uncertainty by the linear "
            f"method ({flag('uncertainty', 'bootstrap')} resamples every point, 200 times)"
        )
    elif values > AUTO_BOOTSTRAP_VALUES:
        why = (
            f"more than {AUTO_BOOTSTRAP_VALUES:,} repetitions: the uncertainty by the "
            f"linear method ({flag('uncertainty', 'bootstrap')} resamples them all, 200 times)"
        )
    else:
        return "bootstrap", None
    return "linear", why


def aggregate_option(default: str | None, default_text: str | None = None) -> Option:
    """The ``aggregate`` option every fitter of repeated measurements declares."""
    return Option(
        "aggregate",
        default,
        "how the repetitions of a point are combined",
        choices=AGGREGATIONS,
        default_text=default_text,
    )
