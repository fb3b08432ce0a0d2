"""Values that fall as a parameter grows, which PMNF's growing terms cannot follow.

Every PMNF term ``x^i * log2(x)^j`` (``i, j >= 0``) grows with its parameter, so a time that
falls as the cores grow (strong scaling: ``T(n) / p``) is fitted as a constant or as a model
of the other parameters alone, with a large error and no word of why. :func:`falling_notes`
says so, and names the form that models such a fall (Amdahl's, in the cores ``p``).

>>> import os, tempfile
>>> from patternalg.measurements import read
>>> path = os.path.join(tempfile.mkdtemp(), "solve.csv")
>>> _ = open(path, "w").write("p,time\\n1,1000\\n2,520\\n4,270\\n8,140\\n")
>>> print(falling_notes(read(path))[0])
solve falls as p grows (at the largest p 0.14 times its value at the smallest): PMNF's terms grow with every parameter and cannot follow a fall; if p counts cores, patternalg.forms.Amdahl models a time that falls with them
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from ..._internal.surface import either
from ...measurements.blocks import HEAD

__all__ = ["falling_notes"]

#: the most kernels looked at (a file of 100,000: its first ones tell; 0.1 ms each); a file
#: streamed in blocks keeps as many in its summary
_LOOKED_AT = HEAD
#: a fall worth a note: the value at a parameter's largest value below this share of its
#: value at the smallest (noise moves a median by a few percent, not by a fifth)
_FALL = 0.8
#: the share of a line's steps that must fall for the line to fall
_STEADY = 0.75
#: the steps a line's fall is judged by, at most (its values evenly chosen)
_STEPS = 8
#: kernels named in a note before the rest are counted
_NAMED = 3


def falling_notes(data: Any) -> list[str]:
    """One note per parameter along which some kernels' values fall (by the median over
    the lines along it, the other parameters fixed), naming the first of them."""
    found: dict[str, list[tuple[str, float]]] = {}
    several = False  #: whether the kernels have lines along each parameter (two parameters or more)
    for kernel, parameters, points, values in _medians(data):
        several = len(parameters) > 1
        for column, name in enumerate(parameters):
            ratio = _fall(points, values, column)
            if ratio is not None and ratio < _FALL:
                found.setdefault(name, []).append((kernel, ratio))
    notes = []
    for name, kernels in found.items():
        one = len(kernels) == 1
        shown = ", ".join(kernel for kernel, _ in kernels[:_NAMED])
        shown += f" and {len(kernels) - _NAMED} more" if len(kernels) > _NAMED else ""
        ratio = kernels[0][1] if one else float(np.median([r for _, r in kernels]))
        lines = f", the median over {'its' if one else 'their'} lines along {name}" if several else ""
        notes.append(
            f"{shown} {'falls' if one else 'fall'} as {name} grows (at the largest {name} "
            f"{ratio:.2g} times {'its' if one else 'their'} value at the smallest{lines}): PMNF's "
            f"terms grow with every parameter and cannot follow a fall; if {name} counts cores, "
            f"{either('--form amdahl', 'patternalg.forms.Amdahl')} models a time that falls with them"
        )
    return notes


def _medians(data: Any) -> Iterator[tuple[str, tuple[str, ...], np.ndarray, np.ndarray]]:
    """The first kernels of ``data`` (measurements, or the summary of a file read in blocks,
    ``measurements.blocks.Summary``): each one's name, parameters, points and median per point."""
    if isinstance(getattr(data, "values", None), np.ndarray):  # (kernels, points, repetitions)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a point without a value: NaN
            medians = np.nanmedian(data.values[:_LOOKED_AT], axis=2)
        for kernel, values in zip(data.kernels, medians, strict=False):
            yield kernel, data.parameters, data.points, values
        return
    if not isinstance(data, Iterable):  # no kernels to look at (a summary of a file's)
        return
    for k, series in enumerate(data):
        if k == _LOOKED_AT:
            return
        yield series.kernel, series.parameters, series.points, series.aggregate("median")


def _fall(points: np.ndarray, values: np.ndarray, column: int) -> float | None:
    """The median, over the lines along ``column`` (the other parameters fixed), of the value
    at the line's largest ``column`` over its value at the smallest, where the line falls at
    :data:`_STEADY` of its steps (else 1: noise that ends lower is no fall); None without a
    line of two values of it, or with a value that is no positive number."""
    others = np.delete(points, column, axis=1)
    lines: dict[bytes, list[int]] = {}
    for i, row in enumerate(others):
        lines.setdefault(row.tobytes(), []).append(i)
    ratios = []
    for members in lines.values():
        order = np.argsort(points[members, column], kind="stable")
        along = values[np.asarray(members)[order]]
        if np.unique(points[members, column]).size < 2:
            continue
        if not (np.all(np.isfinite(along)) and along[0] > 0 and np.all(along >= 0)):
            return None
        # the steps between a few values evenly along the line: between a dense line's
        # neighbours the fall is smaller than the noise (60 values of 3n/p: 60 % of steps)
        coarse = along[np.unique(np.linspace(0, along.size - 1, _STEPS + 1).round().astype(int))]
        steady = np.mean(np.diff(coarse) < 0) >= _STEADY
        ratios.append(along[-1] / along[0] if steady else 1.0)
    return float(np.median(ratios)) if ratios else None
