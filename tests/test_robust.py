"""The biweight location, ``fit --modeler default``'s aggregation of repetitions: nearly as
efficient as the mean on normal noise, and as unmoved as the median by a disturbed run."""

from __future__ import annotations

import numpy as np
import pytest

from patternalg.measurements.model import Aggregation
from patternalg.measurements.robust import biweight_location

SAMPLES = np.random.default_rng(0).standard_normal((20_000, 5))  # 5 repetitions, as bench_fit


def test_on_normal_noise_it_is_nearly_as_efficient_as_the_mean() -> None:
    of_mean = SAMPLES.mean(1).var()
    efficiency = of_mean / biweight_location(SAMPLES).var()
    assert 0.78 < efficiency < 1.0
    assert efficiency > of_mean / np.median(SAMPLES, 1).var() + 0.1  # the median: 0.70


def test_a_disturbed_repetition_moves_it_less_than_the_median() -> None:
    disturbed = SAMPLES.copy()
    disturbed[:, 4] += 20.0  # one run of five far slower
    clean = SAMPLES[:, :4].mean(1)
    assert np.abs(disturbed.mean(1) - clean).mean() == pytest.approx(4.0, rel=0.01)
    moved = np.abs(biweight_location(disturbed) - clean).mean()
    assert moved < np.abs(np.median(disturbed, 1) - clean).mean() and moved < 0.1


def test_equal_values_give_the_median_and_it_is_equivariant() -> None:
    assert biweight_location(np.array([3.0, 3.0, 3.0, 9.0])).tolist() == 3.0
    row = SAMPLES[:50]
    scaled = biweight_location(2.5 * row + 100.0)
    assert np.allclose(scaled, 2.5 * biweight_location(row) + 100.0, rtol=0, atol=1e-9)


def test_it_reduces_along_an_axis_and_as_an_aggregation() -> None:
    cube = np.moveaxis(SAMPLES[:12].reshape(3, 4, 5), 2, 1)  # (3, 5, 4): repetitions in axis 1
    expected = biweight_location(SAMPLES[:12]).reshape(3, 4)
    assert np.array_equal(biweight_location(cube, axis=1), expected)
    assert np.array_equal(Aggregation("biweight").reduce(cube, axis=1), expected)
    assert float(Aggregation("biweight").reduce(SAMPLES[0])) == float(biweight_location(SAMPLES[0]))


def test_a_point_s_biweight_does_not_depend_on_the_points_beside_it() -> None:
    """Each row settles on its own: batched with others (a file's kernels, a bootstrap's
    draws) it is what it is alone, to the last bit (494 of 2,000 rows moved when every row
    iterated until all had settled)."""
    rows = np.random.default_rng(0).normal(10.0, 1.0, size=(2000, 7))
    alone = np.array([biweight_location(row) for row in rows])
    assert np.array_equal(biweight_location(rows), alone)
    assert np.array_equal(biweight_location(rows.T, axis=0), alone)
    assert np.array_equal(biweight_location(rows.reshape(40, 50, 7)), alone.reshape(40, 50))
