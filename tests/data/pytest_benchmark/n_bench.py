import pytest


def work(n):
    s = 0
    for i in range(int(n)):
        s += i
    return s


@pytest.mark.parametrize("n", [1000, 2000, 4000], ids=lambda v: f"n={v}")
def test_eq(benchmark, n):
    benchmark(work, n)


@pytest.mark.parametrize("n", [1000, 2000, 4000], ids=lambda v: f"n{v}")
def test_cat(benchmark, n):
    benchmark(work, n)


@pytest.mark.parametrize("n", [1000, 2000, 4000], ids=lambda v: f"size_{v}")
def test_us(benchmark, n):
    benchmark(work, n)
