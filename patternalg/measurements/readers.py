"""The registry of readers, format sniffing, and :func:`read`.

>>> sniff("m.txt", "# comment\\nPARAMETER p\\n"), sniff("m", '{"params": {"x": 1}}\\n')
('text', 'jsonl')
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from .._internal.reading import text_lines
from .._internal.surface import flag
from ..arguments import as_column_choice, as_path, no_frame, optional_texts
from ..errors import Location, MeasurementError
from .base import STDIN, DirectoryReader, PathReader, Reader, ValueChoice, read_source
from .csv import CsvReader
from .cube import CubeReader
from .experiment import ExtrapExperimentReader
from .gbench import GoogleBenchmarkReader
from .gbench_text import GoogleBenchmarkConsoleReader, GoogleBenchmarkCsvReader
from .harness import declaring
from .hyperfine import HyperfineCsvReader, HyperfineReader
from .json import JsonLinesReader, JsonReader, TalpasReader
from .model import Measurements
from .parameters import declared_parameters, settled
from .pytest_benchmark import PytestBenchmarkReader
from .pytest_benchmark_text import PytestBenchmarkConsoleReader, PytestBenchmarkCsvReader
from .text import TextReader

__all__ = ["READERS", "sniff", "read", "from_text", "path_reader"]

#: format name -> reader class, in the order formats are sniffed (CSV, the fallback, last)
READERS: dict[str, type[Reader]] = {
    cls.name: cls
    for cls in (
        PytestBenchmarkReader,
        PytestBenchmarkCsvReader,
        PytestBenchmarkConsoleReader,
        GoogleBenchmarkReader,
        GoogleBenchmarkCsvReader,
        GoogleBenchmarkConsoleReader,
        HyperfineReader,
        HyperfineCsvReader,
        TalpasReader,
        JsonLinesReader,
        JsonReader,
        TextReader,
        CubeReader,
        ExtrapExperimentReader,
        CsvReader,
    )
}


#: what reads hyperfine's runs, named where one of its other outputs is given
_HYPERFINE_READ = "which holds no runs and is not read: hyperfine's --export-json (every run) or --export-csv is"

#: what a source that holds no measurements may be, by its first line (a pattern), and
#: what to do with it (``{models}``: the option that takes a model file, as the caller spells it)
NOT_MEASUREMENTS = (
    (re.compile(r"\[\[?\s*models\b|format\s*=\s*\d"), "is a model file: use {models}"),
    (re.compile(r"\[cols=|\|==="), f"is an AsciiDoc table (hyperfine --export-asciidoc), {_HYPERFINE_READ}"),
    (
        re.compile(r"\|\s*Command\s*\|\s*Mean\b"),
        f"is a Markdown or Org table (hyperfine --export-markdown, --export-orgmode), {_HYPERFINE_READ}",
    ),
    (re.compile(r"Benchmark\s+#?\d+:"), f"is hyperfine's terminal output, {_HYPERFINE_READ}"),
    (
        re.compile(r"\|"),
        "is a Markdown table, which is not read: write it as CSV, a header naming the columns "
        "(x,time) and a row of numbers per measurement",
    ),
    (
        re.compile(r"Callpath:\s"),
        "is Extra-P's printed output (its models; each point's mean and median in three digits), "
        "which is not read: give Extra-P's input file, or an experiment it saved "
        "(extrap ... --save-experiment e.extra-p)",
    ),
)


def sniff(path: str | Path, text: str) -> str:
    """The format of a source, read from its content: its first line that is not blank or a
    ``#`` comment. The file's suffix only chooses among the formats whose first lines look
    alike (a TaLPas file and a JSON Lines file both start with an object); CSV is what
    nothing else claims. A recognisable file that holds no measurements (a model file) is
    a :class:`~patternalg.errors.MeasurementError` saying what it is.

    >>> sniff("m.csv", "PARAMETER p\\nPOINTS 1 2\\n"), sniff("m.txt", "p,time\\n1,2\\n")
    ('text', 'csv')
    >>> sniff("qsort.csv", "format = 1\\n[models.qsort]\\n")
    Traceback (most recent call last):
    ...
    patternalg.errors.MeasurementError: qsort.csv: is a model file: use models=FILE
    """
    suffix = Path(str(path)).suffix.lower()
    first = next(
        (s for s in (line.strip() for _, line in text_lines(text)) if s and not s.startswith("#")),
        "",
    )
    for pattern, says in NOT_MEASUREMENTS:
        if pattern.match(first):
            raise MeasurementError(says.replace("{models}", flag("models", "FILE")), location=Location(str(path) or STDIN))
    claimed = [
        name
        for name, reader in READERS.items()
        if reader is not CsvReader and first and reader.sniff_text(first, text)
    ]
    if not first:  # nothing to read the format from: the suffix says it
        claimed = [name for name, reader in READERS.items() if suffix in reader.suffixes]
    by_suffix = [name for name in claimed if suffix in READERS[name].suffixes]
    return (by_suffix or claimed or [CsvReader.name])[0]


def read(
    path: str | Path,
    format: str | None = None,
    *,
    metric: str | None = None,
    value: ValueChoice = None,
    scaling: str | None = None,
    parameters: str | Sequence[str] | None = None,
) -> Measurements:
    """Read measurements from a file, or from standard input for ``-``.

    ``format`` is a key of :data:`READERS` (default: sniffed); ``metric`` keeps only that
    metric (in a CSV file without a ``metric`` column: the value column of that name);
    ``value`` names a CSV file's value column (or several names, the first present wins),
    or is a function choosing it from the numeric columns. ``scaling`` says how a directory
    of Cube profiles turns processes and threads into repetitions (:class:`CubeReader`).
    ``parameters`` declares the parameters the points are over (``"n,p"``); by default
    every one the source has but a repetition's number or a row's time
    (:func:`~patternalg.measurements.parameters.settled`).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "m.csv")
    >>> _ = open(path, "w").write("kernel,size,runtime[s]\\nsort,8,1.5\\nsort,16,3.5\\ninc,8,0.5\\n")
    >>> ms = read(path)
    >>> [s.kernel for s in ms], ms.parameters, ms.value_name, ms.unit
    (['sort', 'inc'], ('size',), 'runtime[s]', 's')
    >>> ms.select(kernel="sort").series[0].aggregate().tolist()
    [1.5, 3.5]
    """
    no_frame(path, "path")
    path, value = as_path(path, "path"), as_column_choice(value)
    format, metric, scaling = optional_texts(format=format, metric=metric, scaling=scaling)
    reader = path_reader(path, format)
    if scaling is not None and (reader is None or not reader.scalings):
        raise MeasurementError(
            f"a scaling ({scaling}) applies to a directory of Cube profiles, not to a file",
            location=Location(str(path)),
        )
    declared = declared_parameters(parameters)
    if reader is not None:
        return settled(reader.read_path(path, metric=metric, scaling=scaling), declared)
    name, text = read_source(path)
    return from_text(name, text, format, metric=metric, value=value, parameters=declared)


def from_text(
    name: str,
    text: str,
    format: str | None = None,
    *,
    metric: str | None = None,
    value: ValueChoice = None,
    parameters: str | Sequence[str] | None = None,
) -> Measurements:
    """:func:`read` of a source's ``text`` already read (``name``: its path, or
    ``<stdin>``), for a caller that also reads what the text says of itself (``calibrate``:
    the ``# cores: N`` at the head of standard input).

    >>> from_text("<stdin>", "kernel,x,time\\nsort,8,1.5\\n").series[0].kernel
    'sort'
    """
    if not text.strip():
        raise MeasurementError("the file is empty", location=Location(name))
    fmt = format or sniff("" if name == STDIN else name, text)
    chosen = READERS.get(fmt)
    if chosen is None:
        raise MeasurementError(
            f"unknown format '{fmt}' (valid: {', '.join(READERS)})", location=Location(name)
        )
    declared = declared_parameters(parameters)
    if chosen is CsvReader:  # a table leaves out the columns not declared, whatever they hold
        result = CsvReader.read(name, text, metric=metric, value=value, parameters=declared)
    else:
        with declaring(declared):
            result = chosen.read(name, text, metric=metric, value=value)
    return settled(result.select(metric=metric) if metric else result, declared)


def path_reader(path: str | Path, format: str | None) -> type[PathReader] | None:
    """The format that reads ``path`` from the path itself (a directory, a binary file),
    if one claims it; an error for a directory that ``format`` says is a file."""
    readers = [r for r in READERS.values() if issubclass(r, PathReader)]
    directories = [r.name for r in readers if issubclass(r, DirectoryReader)]
    if format and format not in directories and str(path) != "-" and os.path.isdir(path):
        raise MeasurementError(
            f"is a directory; the {format} format reads a file "
            f"(formats that read a directory: {', '.join(directories)})",
            location=Location(str(path)),
        )
    return next((r for r in readers if r.claims(path, format)), None)
