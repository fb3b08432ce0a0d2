"""The report of one fitted kernel: :class:`FitReport`, what ``Form.fit_each`` returns."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from .._internal.caches import Recomputed
from .._internal.display import HtmlTable, brief, ranges_text
from ..algebra.atomic_model import model_table
from .base import Form

__all__ = ["FitReport"]


@dataclass(frozen=True)
class FitReport(Recomputed, HtmlTable):
    """One fitted kernel: the fitted model, its atom name and provenance.

    ``model`` is the library's :class:`~patternalg.algebra.atomic_model.AtomicModel`, ``record`` the
    JSON record; the line a person reads is built by the command from the record and
    the family's ``summary``. ``notes`` say what the fit did with the measurements (times
    that are not positive), ``warnings`` what it left out of them (points the form is not
    defined at). ``series`` holds the measurements it was fitted to (for
    :meth:`plot`); a notebook shows the report as a table.
    """

    fitted: Form
    atom: str
    kernel: str
    metric: str = ""
    unit: str = "ns"
    source: str = ""
    series: Any = field(default=None, repr=False, compare=False)
    notes: tuple[str, ...] = field(default=(), repr=False, compare=False)
    #: what the fit left out of the measurements (a point the form is not defined at)
    warnings: tuple[str, ...] = field(default=(), repr=False, compare=False)

    def __repr__(self) -> str:
        """The atom, its model in a few digits and its family, the fit's SMAPE, on one line."""
        smape = self.fitted.statistics.get("smape")
        said = [f"{self.atom} = {self.fitted.label()} {self.unit}", f"{self.fitted.name} fit of {self.kernel!r}"]
        if isinstance(smape, float):
            said.append(f"SMAPE {smape:.3g} %")
        return brief("FitReport", ", ".join(said))

    def header(self) -> list[str]:
        """Columns of the notebook table."""
        return ["atom", "kernel", "model", "unit", "SMAPE %", "R²", "measured"]

    def column_digits(self, digits: int | None = None) -> dict[int, int | None]:
        """The fit's statistics in 6 significant digits (they measure, not predict)."""
        return {4: 6, 5: 6}

    def rows(self) -> list[list[Any]]:
        """One row: the atom, its model, the fit's SMAPE and (adjusted) R², the domain."""
        stats = self.fitted.statistics
        r2 = stats.get("ar2", stats.get("r2"))
        domain = ranges_text(self.fitted.domain.items())
        return [
            [
                self.atom,
                self.kernel,
                self.fitted.describe(),
                self.unit,
                stats.get("smape"),
                r2,
                domain,
            ]
        ]

    def details(self) -> list[str]:
        """Under the notebook's table: each coefficient with its 90 % interval, as
        ``patternalg fit`` prints it under the model (none without an uncertainty)."""
        intervals = self.fitted.interval_text()
        return [intervals] if intervals else []

    def plot(self, ax: Any = None, *, extend_to: float | None = None) -> Any:
        """The measurements (median, min-max) with the model over them and, dashed, beyond
        to ``extend_to`` (default 16 times the largest measured value); matplotlib axes."""
        from ..plotting.results import plot_fit_report

        return plot_fit_report(self, ax=ax, extend_to=extend_to)

    @functools.cached_property
    def model(self) -> Any:
        """The :class:`~patternalg.algebra.atomic_model.AtomicModel` for the library (built
        once; a copy builds its own)."""
        return self.fitted.atomic_model(self.atom, unit=self.unit, source=self.source)

    def table(self) -> dict[str, Any]:
        """The model-file table of :attr:`model`, without building the closed form when
        the family's own keys hold the model (all but ``expr``)."""
        fitted = self.fitted
        if fitted.name == "expr":
            return self.model.to_toml()  # type: ignore[no-any-return]
        domain = fitted._domain
        return model_table(
            fitted.name,
            fitted._values,
            unit=self.unit,
            source=self.source,
            x_range=dict(domain).get("x"),
            domain=domain,
            fit=fitted._statistics,
            uncertainty=fitted._uncertainty,
        )

    @property
    def record(self) -> dict[str, Any]:
        """The JSON record: kernel, metric, atom, the model's text, parameters, statistics."""
        return {
            "kernel": self.kernel,
            "metric": self.metric,
            "atom": self.atom,
            "model": self.fitted.text(),
            "unit": self.unit,
            **self.fitted.record(),
        }
