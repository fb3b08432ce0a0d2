"""The memory-wall speedup model (paper 003) as a family.

* :mod:`.form`: the :class:`Memwall` family (closed form of eq. (15), parameters, options);
* :mod:`.fit`: the fit to measured speedups (and plain Amdahl's, for the gain), its
  :class:`~.fit.MemwallFitter`;
* :mod:`.csa`: Coupled Simulated Annealing (CSA-M), the fitter of paper 003.
"""

from .form import BOUNDS, Memwall, memwall_expr, speedup_expr

__all__ = ["Memwall", "BOUNDS", "memwall_expr", "speedup_expr"]
