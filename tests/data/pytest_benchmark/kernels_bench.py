"""Tiny pytest-benchmark kernels for patternalg's reader tests (see README.md)."""

import random

import pytest

SIZES = [round(64 * 2 ** (k / 2)) for k in range(11)]  # 64 .. 2048: in cache


def data(n):
    rng = random.Random(42)
    return [rng.random() for _ in range(n)]


@pytest.mark.parametrize("n", SIZES)
def test_sort(benchmark, n):
    values = data(n)
    benchmark.pedantic(sorted, args=(values,), rounds=15, iterations=10, warmup_rounds=1)


@pytest.mark.parametrize("order", ["shuffled", "sorted"])
@pytest.mark.parametrize("n", SIZES)
def test_pass(benchmark, n, order):
    values = data(n) if order == "shuffled" else sorted(data(n))
    benchmark.pedantic(sum, args=(values,), rounds=15, iterations=10, warmup_rounds=1)
