"""The extended Amdahl model (paper 002) as a family.

* :mod:`.form`: the :class:`Amdahl` family (closed form, parameters, options);
* :mod:`.fit`: T_seq and alpha from measurements (alpha aggregation, joint least squares),
  its :class:`~.fit.AmdahlFitter`;
* :mod:`.online`: the on-line estimator in constant space (paper 002, section 3.4).
"""

from .form import ALPHA_METHODS, Amdahl, amdahl_expr, serial_fraction

__all__ = ["Amdahl", "ALPHA_METHODS", "amdahl_expr", "serial_fraction"]
