"""Which fitted kernels have no uncertainty, and why: the notes ``patternalg fit`` prints of
them and :func:`patternalg.fit` keeps as its library's notes.

>>> tally = Unsure()
>>> tally.add(3, missing=3, once=True)
>>> tally.notes("pmnf", "auto")
['every kernel measured once per point (no repetitions): no uncertainty, no intervals']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: the families whose fits record no uncertainty (docs/fitting.md says why)
NO_UNCERTAINTY = ("presca",)


@dataclass
class Unsure:
    """A tally of the kernels fitted (``count``) and of those without an uncertainty:
    measured once per point (``once``), or with repetitions the data still do not determine
    every parameter's spread from (``undetermined``)."""

    count: int = 0
    once: int = 0
    undetermined: int = 0

    def add(self, kernels: int, *, missing: int, once: bool) -> None:
        """``kernels`` more, ``missing`` of them without an uncertainty (``once``: because
        each point was measured once)."""
        self.count += kernels
        self.once += missing if once else 0
        self.undetermined += 0 if once else missing

    def add_reports(self, reports: Sequence[Any], fitter: Any) -> None:
        """The kernels of ``reports``: a batch fitted together (which knows its repetitions)
        or reports one by one (whose series ``fitter`` asks)."""
        repetitions = getattr(reports, "repetitions", None)
        if repetitions is not None:  # forms.pmnf.batch.Reports
            batch: Any = reports
            uncertainty = batch.fits.uncertainty or [None] * len(reports)
            self.add(len(reports), missing=sum(u is None for u in uncertainty), once=repetitions <= 1)
            return
        for report in reports:
            once = report.series is not None and not fitter.repeated(report.series)
            self.add(1, missing=int(report.fitted.uncertainty is None), once=once)

    def notes(self, form: str, method: str | None) -> list[str]:
        """The notes on the kernels without an uncertainty, and why (none for a family that
        records none, or where ``method``, the option as the fit resolved it, is none)."""
        if form in NO_UNCERTAINTY or method == "none":
            return []

        def some(count: int) -> str:
            return "every kernel" if count == self.count else f"{count} of {self.count} kernels"

        notes = []
        if self.once:
            notes.append(f"{some(self.once)} measured once per point (no repetitions): no uncertainty, no intervals")
        if self.undetermined:
            notes.append(
                f"{some(self.undetermined)} without an uncertainty: the data do not determine "
                "the spread of every parameter"
            )
        return notes
