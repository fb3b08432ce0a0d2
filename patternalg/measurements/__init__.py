"""One measurement model and its readers.

:func:`read` turns a file (or ``-``, standard input) in any format of :data:`READERS`
(CSV, Extra-P text, JSON, JSON Lines, TaLPas, a saved Extra-P experiment, the reports of
Google Benchmark, hyperfine and pytest-benchmark; a directory of Score-P/Cube profiles with
the extra ``patternalg[cube]``, :class:`CubeReader`) into :class:`Measurements`: named
parameters, and per kernel x metric a :class:`Series` holding the repetitions at each
point with the source line of every value. :class:`Aggregation` combines repetitions;
:func:`atom_name` is the one rule from kernel names to atom names. Every malformed input
is a :class:`~patternalg.errors.MeasurementError` naming the file, the line (or key) and
the reason.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "m.csv")
>>> _ = open(path, "w").write("kernel,x,time\\nsort,8,1.5\\nsort,16,3.5\\ninc,8,0.5\\n")
>>> ms = read(path)
>>> [(s.kernel, s.atom, s.column("x").tolist()) for s in ms]
[('sort', 'sort', [8.0, 16.0]), ('inc', 'inc', [8.0])]
"""

from .base import DirectoryReader, PathReader, Reader
from .cube import CubeReader
from .model import Aggregation, Measurements, Series, Stated
from .names import atom_name, atom_names, is_value_name, split_unit
from .readers import READERS, read, sniff

__all__ = [
    "Aggregation",
    "Series",
    "Stated",
    "Measurements",
    "atom_name",
    "atom_names",
    "split_unit",
    "is_value_name",
    "Reader",
    "PathReader",
    "DirectoryReader",
    "CubeReader",
    "READERS",
    "read",
    "sniff",
]
