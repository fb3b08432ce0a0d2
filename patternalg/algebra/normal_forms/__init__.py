"""Extra-P's performance model normal form (PMNF), in one home.

* :mod:`.blocks`: the building blocks ``x^i * log2(x)^j`` (one list for the fitter, the
  algebra and the strategies);
* :mod:`.normal_form`: :class:`~.normal_form.NormalForm` (a sum of such terms) and the
  order of models as x grows;
* :mod:`.render`: a fitted model as sympy, as the grammar's text, as Extra-P's hypothesis.
"""
