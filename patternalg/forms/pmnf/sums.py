"""Sums and maxima over the first axis (the points) of the selections' arrays, with the
same bits whatever the number of kernels beside them: a batch of 7 kernels and one of
10,000 give each kernel the same fit (``tests/test_scale.py`` compares them).
"""

from __future__ import annotations

import numpy as np

__all__ = ["max_first", "sum_first"]


def sum_first(a: np.ndarray) -> np.ndarray:
    """``np.moveaxis(a, 0, -1).sum(-1)`` to the last bit: the sum over the first axis (the
    points) in numpy's pairwise order for a contiguous last axis (eight partial sums, then
    the rest in turn), added a whole slice at a time: faster when the axis is short, and
    fastest when the points are the outer axis (``tests/test_pmnf.py`` compares the bits).

    >>> a = np.random.default_rng(0).standard_normal((3, 4, 9))
    >>> bool((sum_first(np.moveaxis(a, -1, 0)) == a.sum(-1)).all())
    True
    """
    n = a.shape[0]
    if n > 128 or n == 0:
        return np.ascontiguousarray(np.moveaxis(a, 0, -1)).sum(-1)
    if n < 8:
        total = a[0]
        for i in range(1, n):
            total = total + a[i]
        return 0.0 + total
    partial = [a[j] for j in range(8)]
    done = n - n % 8
    for start in range(8, done, 8):
        partial = [partial[j] + a[start + j] for j in range(8)]
    total = ((partial[0] + partial[1]) + (partial[2] + partial[3])) + (
        (partial[4] + partial[5]) + (partial[6] + partial[7])
    )
    for i in range(done, n):
        total = total + a[i]
    return 0.0 + total


def max_first(a: np.ndarray) -> np.ndarray:
    """The maximum over the first axis (exact in any order), a slice at a time.

    >>> max_first(np.array([[1.0, np.nan], [5.0, 0.0], [2.0, 1.0]])).tolist()
    [5.0, nan]
    """
    if a.shape[0] > 128 or a.shape[0] == 0:
        return a.max(0)
    result = a[0]
    for i in range(1, a.shape[0]):
        result = np.maximum(result, a[i])
    return result
