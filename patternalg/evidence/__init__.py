"""Evidence: the models against measurements. ``validate`` (do the composed models predict
what was measured, and do their intervals cover it), ``calibrate`` (a machine's numbers fitted
to measured compositions), and the tables both report: relative errors, residuals, coverage.

It sits between the fits and the decisions: it reads measurements (any format
:func:`patternalg.measurements.read` knows) and models, and evaluates terms with the algebra;
the decisions read no file format.

>>> from patternalg.evidence import validate
>>> validate.__module__
'patternalg.evidence.validation'

Modules: ``validation`` (:func:`validate`), ``validated`` (its result: a series predicted and
measured, the table and summaries), ``coverage`` (intervals of what a measurement would show,
and how many measured values they cover), ``calibration`` (:func:`calibrate`),
``calibrated`` (its result), ``calibration_set`` (the compositions a machine is calibrated on), ``widths`` (the intervals' width factor a calibration
records), ``missed`` (what its operators still miss by size, and how fast that grows beyond
the sizes), ``absorbed`` (what its fitted numbers take up of the compositions' own misses), ``sources`` (measurements and models as evidence takes them, the
cores a record names).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._internal.lazy import lazy_functions

if TYPE_CHECKING:
    from .calibration import calibrate
    from .validation import validate

__all__ = ["validate", "calibrate"]

lazy_functions(__name__, __all__, {"validate": "validation", "calibrate": "calibration"})
