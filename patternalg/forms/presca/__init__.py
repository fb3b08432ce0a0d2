"""PreSca: black-box performance functions of a workload in its thread count p.

Dragojević and Guerraoui (paper 004) predict how a workload scales from a handful of
measurements (p, performance) without a model of its internals: a least-squares
polynomial inside the measured range, and beyond it the candidate function of Table 1
chosen by Algorithm 1. One concern per module:

* :mod:`.candidates` -- the candidate functions of Table 1 (Rat12 ... ExpRat);
* :mod:`.fitting` -- fitting one candidate by its relative error;
* :mod:`.interpolation` -- the polynomial inside the measured range;
* :mod:`.algorithm` -- Algorithm 1 (checkpoints, subsets, ShouldUseFunc) and :func:`predict`;
* :mod:`.model` -- the fitted :class:`PerformanceFunction` and its model-file table;
* :mod:`.form` -- :class:`Presca`, the family on the form protocol (tables, repr);
* :mod:`.fit` -- :class:`~.fit.PrescaFitter`, its fit: a prediction per workload, notes;
* :mod:`.workloads` -- reading measured workloads;
* :mod:`.report` -- ``patternalg predict``: the model range by range and the predictions;
* :mod:`.tuning` -- the on-line tuners OPreSca (Algorithm 2) and Binsearch.

>>> import numpy as np
>>> threads = np.arange(1, 13)
>>> ops = 1000 * threads / (1 + 0.04 * threads + 0.002 * threads**2)   # saturating throughput
>>> result = predict(threads, ops, upto=24, higher_is_better=True)
>>> result.function.name, round(float(result.function(np.array([24]))[0]))
('Rat12', 7712)
"""

from __future__ import annotations

from .algorithm import (
    CHECKPOINTS,
    SUBSET_COUNTS,
    X_LIN_NEG,
    X_POW_POS,
    CandidateFit,
    Prediction,
    extrapolate,
    plan,
    predict,
    should_use,
)
from .candidates import CANDIDATES, Candidate, CubicLn, ExpRat, Rational
from .fitting import fit_candidate
from .form import Presca
from .interpolation import MAX_DEGREE, fit_polynomial
from .model import PerformanceFunction, read_table
from .report import PredictionReport, predict_file
from .workloads import Workload, read_measurements, read_performance

__all__ = [
    "SUBSET_COUNTS",
    "CHECKPOINTS",
    "X_POW_POS",
    "X_LIN_NEG",
    "MAX_DEGREE",
    "Candidate",
    "Rational",
    "CubicLn",
    "ExpRat",
    "CANDIDATES",
    "CandidateFit",
    "PerformanceFunction",
    "Prediction",
    "Workload",
    "fit_candidate",
    "fit_polynomial",
    "should_use",
    "plan",
    "extrapolate",
    "predict",
    "read_performance",
    "read_measurements",
    "read_table",
    "Presca",
    "PredictionReport",
    "predict_file",
]
