"""The chi-square distribution of whole degrees of freedom against scipy's."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import chdtr, chdtri

from patternalg._internal.chi_square import chi2_cdf, chi2_upper_quantile

DEGREES = [*range(1, 41), 99, 100, 1000]


@pytest.mark.parametrize("k", DEGREES)
def test_the_distribution_function_is_scipys(k: int) -> None:
    for x in np.geomspace(1e-6, 5000.0, 60):
        assert chi2_cdf(k, float(x)) == pytest.approx(float(chdtr(k, x)), abs=1e-12)
    assert chi2_cdf(k, 0.0) == 0.0 and chi2_cdf(k, float("inf")) == 1.0


@pytest.mark.parametrize("k", DEGREES)
def test_the_upper_quantile_is_scipys_and_inverts_the_distribution_function(k: int) -> None:
    for p in (1e-9, 0.01, 0.025, 0.1, 0.5, 0.9, 0.975):
        x = chi2_upper_quantile(k, p)
        assert x == pytest.approx(float(chdtri(k, p)), rel=1e-12)
        assert 1.0 - chi2_cdf(k, x) == pytest.approx(p, rel=1e-9)


@pytest.mark.parametrize(("k", "p"), [(0, 0.5), (1.5, 0.5), (True, 0.5), (2, 0.0), (2, 1.0), (2, float("nan"))])
def test_a_degree_or_a_probability_out_of_range_is_refused(k: object, p: float) -> None:
    with pytest.raises(ValueError, match="expected"):
        chi2_upper_quantile(k, p)  # type: ignore[arg-type]
