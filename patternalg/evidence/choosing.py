"""Whether a calibrated machine keeps its atoms' speed-ups: by how well each machine, without
them and with them, predicts the calibration sizes it did not see.

Each calibration size is left out in turn: both machines are fitted to the other sizes
(:func:`~patternalg.evidence.batched.fit_each`, every left-out fit side by side) and
predict the compositions at the size left out. Beyond :data:`MAX_FOLDS` sizes (a dense
scan), the sizes are dealt into that many folds, every ``MAX_FOLDS``-th size in one, and a
fold is left out at a time: a fit per size would evaluate every point once per size (3,000
sizes of two compositions took 300 s and 4.5 GB). The speed-ups are kept only where they
predict better by more than the standard error of that difference over the sizes (the
"one standard error" rule of cross-validation: a difference within the noise of the
held-out errors is a tie, and a tie keeps the simpler machine), and never from fewer than
:data:`MIN_SIZES` sizes. On ``benchmarks/realdata/data9`` (a busy machine, where
``tpool_2(inc)`` gains only 1.2 to 1.4 on 2 threads) a constant dispatch cost cannot
follow the pool's excess growing with x, and the speed-ups predict the sizes left out
better; on the quiet runs they do not (``docs/machine.md``).

>>> found = HeldOut(3, (0.05, 0.06, 0.07), (0.02, 0.03, 0.02))
>>> found.keeps(), round(found.without, 3), round(found.with_speedups, 3)
(True, 0.06, 0.023)
>>> HeldOut(3, (0.05, 0.06, 0.07), (0.04, 0.07, 0.06)).keeps()
False
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import EvaluationError
from .batched import Batch, fit_each

__all__ = ["HeldOut", "MAX_FOLDS", "MIN_SIZES", "choice_line", "choice_record", "held_out", "no_choice", "speedup_mode"]

#: the fewest calibration sizes the machines are compared on (leaving one out of two fits
#: the other's numbers to one size, and one difference has no spread to judge it by)
MIN_SIZES = 3
#: the most folds the sizes are left out in (one size each up to this many sizes)
MAX_FOLDS = 20
#: a gain below this share of the held-out error is the fits' rounding, a tie (speed-ups
#: fitted to 0, ``S(p) = p``, were kept for a gain of 1e-8 on errors of 0.36)
ROUNDING = 1e-6


def speedup_mode(value: Any) -> str:
    """``"auto"``, ``"yes"`` or ``"no"`` for what ``calibrate(speedups=...)`` was given.

    >>> speedup_mode(True), speedup_mode("auto")
    ('yes', 'auto')
    """
    if value == "auto" and isinstance(value, str):
        return "auto"
    if isinstance(value, bool):
        return "yes" if value else "no"
    raise EvaluationError(f"speedups is 'auto', True or False, not {value!r:.40}")


@dataclass(frozen=True)
class HeldOut:
    """Per fold of the calibration sizes left out (a size each, up to :data:`MAX_FOLDS`
    sizes), the mean |relative error| of the compositions there under the machine fitted
    to the other sizes: ``without_folds`` without speed-ups, ``with_folds`` with them;
    ``sizes`` how many sizes there are."""

    sizes: int
    without_folds: tuple[float, ...]
    with_folds: tuple[float, ...]

    @property
    def without(self) -> float:
        """The mean over the folds without speed-ups."""
        return float(np.mean(self.without_folds))

    @property
    def with_speedups(self) -> float:
        """The mean over the folds with speed-ups."""
        return float(np.mean(self.with_folds))

    @property
    def error(self) -> float:
        """The standard error of the mean difference (without - with) over the folds."""
        gain = np.subtract(self.without_folds, self.with_folds)
        return float(np.std(gain, ddof=1) / math.sqrt(len(gain)))

    def keeps(self) -> bool:
        """Whether the speed-ups predict the sizes left out better by more than
        :attr:`error` and more than the fits' rounding (and there are at least
        :data:`MIN_SIZES` folds).

        >>> HeldOut(3, (0.3564, 0.3564, 0.3564), (0.3564 - 1e-8, 0.3564 - 2e-8, 0.3564)).keeps()
        False
        """
        if len(self.without_folds) < MIN_SIZES:
            return False
        return self.without - self.with_speedups > max(self.error, ROUNDING * self.without)

    def record(self) -> dict[str, Any]:
        """The calibration record's part: the means, the standard error, the sizes (and
        the folds, where they are fewer)."""
        folds = len(self.without_folds)
        return {"without": _rounded(self.without), "with": _rounded(self.with_speedups),
                "error": _rounded(self.error), "sizes": self.sizes,
                **({"folds": folds} if folds < self.sizes else {})}  # fmt: skip


def _rounded(value: float) -> float:
    return float(f"{value:.4g}")


def held_out(without: Batch, without_theta: np.ndarray, richer: Batch, richer_theta: np.ndarray,
             sizes: np.ndarray) -> HeldOut | None:  # fmt: skip
    """Both machines' held-out errors (their fits to every size, ``*_theta``, are where
    each left-out fit starts); ``sizes`` the size of each point, in the batches' order.
    None with fewer than :data:`MIN_SIZES` sizes, or where leaving one out leaves fewer
    points than numbers to fit."""
    distinct, at = np.unique(sizes, return_inverse=True)
    folds = min(len(distinct), MAX_FOLDS)
    masks = (at % folds)[None, :] != np.arange(folds)[:, None]  # a fit per fold: the other points
    if len(distinct) < MIN_SIZES or masks.sum(axis=1).min() <= len(richer.names):
        return None
    found = []
    for batch, theta in ((without, without_theta), (richer, richer_theta)):
        thetas = fit_each(batch, np.tile(theta, (folds, 1)), masks)
        errors = np.abs(batch.errors(thetas))
        found.append(tuple(float(np.mean(errors[i, ~masks[i]])) for i in range(folds)))
    return HeldOut(len(distinct), found[0], found[1])


def choice_line(record: dict[str, Any]) -> str:
    """The line ``calibrate`` prints for the record's ``speedups`` part.

    >>> choice_line({"asked": "auto", "kept": True, "without": 0.052, "with": 0.031, "error": 0.004, "sizes": 9})
    'speed-ups (auto): kept: leaving each of the 9 calibration sizes out of the fit, they predict it better (mean |error| 3.1 % with them, 5.2 % without; standard error of the difference 0.4 points)'
    >>> choice_line({"asked": "auto", "kept": False, "without": 0.05, "with": 0.05, "error": 0.001, "sizes": 3000, "folds": 20})[:96]
    'speed-ups (auto): none: leaving each of 20 folds of the 3000 calibration sizes (every 20th size)'
    """
    asked, kept = record["asked"], record["kept"]
    if asked != "auto":
        return f"speed-ups: {'fitted' if kept else 'none'} (asked: {asked})"
    if "why" in record:
        return f"speed-ups (auto): none: {record['why']}"
    folds = record.get("folds")
    left = (f"each of {folds} folds of the {record['sizes']} calibration sizes (every {folds}th size)"
            if folds else f"each of the {record['sizes']} calibration sizes")  # fmt: skip
    return (
        f"speed-ups (auto): {'kept' if kept else 'none'}: leaving {left} out of the fit, "
        f"they predict it {'better' if kept else 'no better'} "
        f"(mean |error| {100 * record['with']:.1f} % with them, {100 * record['without']:.1f} % "
        f"without; standard error of the difference {100 * record['error']:.1f} points)"
    )


def no_choice(why: str) -> dict[str, Any]:
    """The record of ``auto`` where there is nothing to compare (``why``)."""
    return {"asked": "auto", "kept": False, "why": why}


def choice_record(mode: str, kept: bool, found: HeldOut | None = None) -> dict[str, Any]:
    """The calibration record's ``speedups`` part: what was asked, what was kept and, for
    ``auto``, the held-out errors it was chosen by."""
    return {"asked": mode, "kept": kept, **(found.record() if found is not None else {})}

