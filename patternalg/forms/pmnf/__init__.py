"""Extra-P's performance model normal form as a family: ``c0 + c1 * x^i * log2(x)^j``.

* :mod:`.form`: the :class:`PMNF` family (model file, options, the fitted model);
* :mod:`.fitter`: :class:`~.fitter.PMNFFitter`, its fit (models, reports, notes);
* :mod:`.modelers`: the one table of modelers (aggregation, one- and multi-parameter);
* :mod:`.fit`: many kernels fitted at once, with their statistics;
* :mod:`.basic`: Extra-P 4.2.5's Basic modeler; :mod:`.default`: ours.
* :mod:`.stream`: regular Extra-P text files fitted batch by batch (the fast path of ``fit``).
"""

from .form import PMNF
from .modelers import MODELERS

__all__ = ["PMNF", "MODELERS"]
