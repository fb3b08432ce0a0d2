import random

import pytest


def work(n):
    s = 0
    for i in range(n):
        s += i
    return s

@pytest.mark.parametrize("n", [1000, 2000, 4000, 8000, 16000])
def test_sum(benchmark, n):
    benchmark(work, n)

@pytest.mark.benchmark(group="sorting")
@pytest.mark.parametrize("order", ["sorted", "shuffled"])
@pytest.mark.parametrize("n", [1000, 4000, 16000])
def test_sort(benchmark, n, order):
    data = list(range(n))
    if order == "shuffled":
        random.Random(1).shuffle(data)
    benchmark(sorted, data)

@pytest.mark.benchmark(group="two")
@pytest.mark.parametrize("m", [1, 2, 3])
@pytest.mark.parametrize("n", [500, 1000, 2000])
def test_grid(benchmark, n, m):
    benchmark(work, n*m)

@pytest.mark.parametrize("size", [0.5, 1.5, 2.5], ids=["half","one-and-half","two-and-half"])
def test_ids(benchmark, size):
    benchmark(work, int(size*1000))

def test_plain(benchmark):
    benchmark(work, 100)

@pytest.mark.parametrize("n", [100, 200, 400])
def test_pedantic(benchmark, n):
    benchmark.pedantic(work, args=(n,), rounds=7, iterations=3)
