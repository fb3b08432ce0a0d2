"""Names: kernel -> atom name (one rule for every form), and what a column's name says.

>>> atom_name("2d fft"), atom_name("Kmeans-Low"), atom_name("seq"), atom_name("tpool_4")
('k_2d_fft', 'kmeans_Low', 'k_seq', 'k_tpool_4')
>>> split_unit("time_ms"), split_unit("runtime[s]"), split_unit("t (us)"), split_unit("bytes")
(('time', 'ms'), ('runtime', 's'), ('t', 'us'), ('bytes', None))
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .._internal.surface import flag
from ..algebra.atomic_model import valid_atom_name
from ..algebra.units import DEFAULT_UNIT, check_time_unit, check_unit, dimension
from ..errors import UnitError
from ..syntax.terms import RESERVED_PREFIXES, RESERVED_WORDS

__all__ = [
    "atom_name",
    "is_composition",
    "atom_names",
    "split_unit",
    "is_value_name",
    "quantity",
    "is_time_unit",
    "is_time_metric",
    "is_time_series",
    "measured_unit",
    "NON_TIME_WORDS",
    "parameter_name",
    "VALUE_NAMES",
    "TIME_NAMES",
    "summary_columns",
    "SummaryColumns",
    "bookkeeping",
]

#: column names (without a unit) that hold measured times
TIME_NAMES = frozenset({
    "time", "runtime", "t", "duration", "elapsed", "walltime", "wall_time", "real_time", "cpu_time", "user_time",
    "system_time",
})  # fmt: skip
#: column names (without a unit) that hold measured values, never parameters
VALUE_NAMES = TIME_NAMES | {
    "value", "speedup", "throughput", "ops", "bytes", "flops", "energy", "performance",
}  # fmt: skip
#: words that say a metric counts or measures something other than time (Score-P's visits,
#: hardware counters, bytes, energy, a speed-up, a rate such as Google Benchmark's
#: ``items_per_second``): its values get no unit of time
NON_TIME_WORDS = frozenset(
    {
        "visits", "visit", "calls", "count", "counts", "occurrences", "bytes", "byte", "flops",
        "flop", "ops", "instructions", "ins", "cycles", "cyc", "misses", "energy", "power",
        "joules", "watts", "messages", "requests", "papi", "speedup", "efficiency",
        "throughput", "performance", "rate", "bandwidth", "items", "iterations", "memory",
        "mem", "heap", "rss",
    }
)  # fmt: skip
#: how a column's name spells a size in bytes, in lower case (``mem_MB``, ``rss[kb]``): pint
#: reads ``kb`` and ``mb`` as kilo- and millibarn, never what such a name means
_SIZE_UNITS = {
    "kb": "kB", "mb": "MB", "gb": "GB", "tb": "TB", "kib": "KiB", "mib": "MiB", "gib": "GiB",
    "tib": "TiB",
}  # fmt: skip
#: how a column's name spells each unit of time (``time_usec``, ``runtime[msec]``): one table
#: for a suffix and a bracket, in lower case, the micro sign and the Greek mu alike
_TIME_SPELLINGS = {
    "ns": ("ns", "nsec", "nanosecond"),
    "us": ("us", "µs", "μs", "usec", "µsec", "μsec", "microsecond"),
    "ms": ("ms", "msec", "millisecond"),
    "s": ("s", "sec", "second"),
    "min": ("min", "minute"),
}
_TIME_UNITS = {
    written: unit
    for unit, spellings in _TIME_SPELLINGS.items()
    for spelling in spellings
    for written in {spelling, spelling if spelling.endswith("s") else f"{spelling}s"}
}
#: the units a suffix or a bracket may spell otherwise than pint: times and sizes
_SPELLED = {**_TIME_UNITS, **_SIZE_UNITS}
#: the names that are a unit of time alone (``seconds``, ``ms``): a column so named holds
#: times in it; not ``min``, which names a minimum as often (a summary's ``min`` column)
_UNIT_NAMES = {name: unit for name, unit in _TIME_UNITS.items() if unit != "min" or name.startswith("minute")}
_BRACKETED = re.compile(r"(?P<base>.*?)\s*[\[(]\s*(?P<unit>[^\[\]()]+?)\s*[\])]")
_SUFFIXED = re.compile(r"(?P<base>.+?)_(?P<unit>[^\W\d_]+)")
#: a name's end that makes a suffix what a rate is per, not its unit (``items_per_second``)
_PER = re.compile(r"(?:^|_)per$", re.IGNORECASE)
_INVALID = re.compile(r"[^A-Za-z0-9_]+")
_LEADING_CAPITALS = re.compile(r"[A-Z]+")
#: a rate: something per unit of time (``items_per_second``, ``ops/s``), no time itself
_RATE = re.compile(r"(?:\bper[^a-z]*|/\s*)(?:seconds?|[mun]?secs?|s|ms|us|µs|μs|ns|minutes?|min|hours?)\b")
#: lines of names that are atom names already (no reserved word or prefix checked)
_ATOMS = re.compile(r"[a-z](?:[A-Za-z0-9_]*[A-Za-z0-9])?(?:\n[a-z](?:[A-Za-z0-9_]*[A-Za-z0-9])?)*")
_RESERVED_START = re.compile("^(?:" + "|".join(map(re.escape, RESERVED_PREFIXES)) + ")", re.M)


#: letters that lose no accent in Unicode's decomposition, as they are written in ASCII
_LETTERS = str.maketrans({
    "ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O",
    "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th",
    "ı": "i",
})  # fmt: skip


def ascii_letters(text: str) -> str:
    """``text`` with its Latin letters written in ASCII (an atom's name is ASCII: the
    grammar's ``NAME``): accents dropped, ``ß`` as ``ss``; other characters kept.

    >>> ascii_letters("größe"), ascii_letters("grüße"), ascii_letters("Ærø"), ascii_letters("π")
    ('grosse', 'grusse', 'AEro', 'π')
    """
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text.translate(_LETTERS))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def atom_name(kernel: str) -> str:
    """THE atom name of a kernel, the same under every ``--form``.

    Latin letters are written in ASCII (:func:`ascii_letters`: ``größe`` is ``grosse``);
    runs of other characters than ASCII letters, digits and ``_`` become ``_`` (trimmed at the
    ends), the first word is lowercased as camelCase lowers it (a leading acronym whole:
    Google Benchmark's ``BM_sort`` is ``bm_sort``, ``HTTPServer`` is ``httpServer``); a
    name that is still not a valid atom (it starts with a digit, or is a reserved word or
    prefix such as ``seq`` or ``tpool_``) gets the prefix ``k_``; a name with nothing left
    is ``kernel``.

    >>> atom_name("parsec-blackscholes"), atom_name("Sort"), atom_name("main->solve()")
    ('parsec_blackscholes', 'sort', 'main_solve')
    >>> atom_name("BM_sort"), atom_name("MPI_Allreduce"), atom_name("HTTPServer"), atom_name("FFT")
    ('bm_sort', 'mpi_Allreduce', 'httpServer', 'fft')
    >>> atom_name("<root>"), atom_name("---")
    ('root', 'kernel')
    """
    name = _INVALID.sub("_", ascii_letters(kernel)).strip("_")
    capitals = _LEADING_CAPITALS.match(name)
    if capitals:
        end = capitals.end()
        if end > 1 and name[end : end + 1].islower():  # HTTPServer: the S begins a word
            end -= 1
        name = name[:end].lower() + name[end:]
    if not name:
        return "kernel"
    return name if valid_atom_name(name) else f"k_{name}"


def is_composition(kernel: str) -> bool:
    """Whether a kernel is named by a term composed of atoms (``pipe(a, b)``, as
    ``measure --region`` and ``run.sh`` name the compositions they measure): what
    ``validate`` and ``calibrate`` read, not an atom to fit.

    >>> is_composition("pipe(sort, scale)"), is_composition("tpool_2(qsort)")
    (True, True)
    >>> is_composition("sort"), is_composition("main->solve()"), is_composition("k[p=8]")
    (False, False, False)
    """
    if "(" not in kernel:
        return False
    from ..errors import ParseError
    from ..syntax.parser import parse
    from ..syntax.terms import Atom

    try:
        return not isinstance(parse(kernel), Atom)
    except ParseError:
        return False


def atom_names(kernels: Iterable[str], used: set[str] | None = None) -> list[str]:
    """:func:`atom_name` of each kernel, made distinct with ``_2``, ``_3``, ...

    ``used`` holds the names given so far (to name the kernels of a file batch by batch);
    the new names are added to it.

    >>> atom_names(["a_b", "a-b", "a b"])
    ['a_b', 'a_b_2', 'a_b_3']
    """
    kernels = list(kernels)
    used = set() if used is None else used
    if _already_atoms(kernels) and used.isdisjoint(kernels) and len(set(kernels)) == len(kernels):
        used.update(kernels)  # each its own atom name (checked for all at once)
        return kernels
    names: list[str] = []
    for kernel in kernels:
        base = atom_name(kernel)
        name, count = base, 1
        while name in used:
            count += 1
            name = f"{base}_{count}"
        used.add(name)
        names.append(name)
    return names


def _already_atoms(kernels: list[str]) -> bool:
    """Whether :func:`atom_name` of each kernel is the kernel's name itself.

    >>> _already_atoms(["sort", "k_2", "fftW3"]), _already_atoms(["sort", "seq"])
    (True, False)
    """
    text = "\n".join(kernels)
    return (
        _ATOMS.fullmatch(text) is not None
        and RESERVED_WORDS.isdisjoint(kernels)
        and _RESERVED_START.search(text) is None
    )


def split_unit(column: str) -> tuple[str, str | None]:
    """A column name without its unit, and the unit (``time_ms``, ``runtime[s]``, ``t (us)``).

    A unit of time is read the same way in either spelling (``time_msec`` and
    ``time[msec]`` are ms, ``time_μs`` and ``time[µs]`` us); a ``_suffix`` counts as a
    unit only if it is one (``bytes_total`` keeps its name) and not what a rate is per
    (``items_per_second``), while a bracketed unit of another kind is taken as written. A
    size is read as bytes in either spelling (``mem_MB``, ``rss[kb]``: kB, not pint's
    kilobarn).
    A name that is a unit of time alone (``seconds``, ``ms``, ``usec``; not ``min``, also
    a minimum) is a time in that unit. ``time`` says nothing: its unit is None.

    >>> split_unit("time_μs"), split_unit("time[µs]"), split_unit("time_nsec"), split_unit("Energy (J)")
    (('time', 'us'), ('time', 'us'), ('time', 'ns'), ('Energy', 'J'))
    >>> split_unit("items_per_second"), split_unit("mem_MB"), split_unit("rss [kb]")
    (('items_per_second', None), ('mem', 'MB'), ('rss', 'kB'))
    >>> split_unit("seconds"), split_unit("ms"), split_unit("μs"), split_unit("time"), split_unit("min")
    (('seconds', 's'), ('ms', 'ms'), ('μs', 'us'), ('time', None), ('min', None))
    """
    text = column.strip()
    match = _BRACKETED.fullmatch(text)
    if match and match["base"]:
        unit = match["unit"]
        return match["base"], _SPELLED.get(unit.lower(), unit)
    match = _SUFFIXED.fullmatch(text)
    if match and match["unit"].lower() in _SPELLED and not _PER.search(match["base"]):
        return match["base"], _SPELLED[match["unit"].lower()]
    return text, _UNIT_NAMES.get(text.lower())


def is_time_metric(metric: str) -> bool:
    """Whether a metric holds times (ns unless its name says a unit): not if a word of its
    name is one of :data:`NON_TIME_WORDS` and none a time; a name that says nothing
    (Extra-P's ``metr``, none at all) is a time.

    >>> [is_time_metric(m) for m in ("time", "visits", "bytes_sent", "PAPI_TOT_INS", "metr", "")]
    [True, False, False, False, True, True]
    >>> is_time_metric("time per visit [us]"), is_time_metric("Energy (J)")
    (True, False)
    >>> is_time_metric("items_per_second"), is_time_metric("ops/s"), is_time_metric("ns_per_op")
    (False, False, True)
    """
    name = quantity(metric)
    if _RATE.search(name):
        return False
    words = set(re.split(r"[^a-z]+", name))
    return not words & NON_TIME_WORDS or bool(words & TIME_NAMES)


def is_time_series(metric: str, unit: str | None) -> bool:
    """Whether the values of ``metric`` that a reader gave ``unit`` (None: it states none)
    are times: a unit stated decides (a unit of time, or not: ``traffic[bytes]``, and
    dimensionless, as Google Benchmark's user counters are, whatever their name); without
    one, or with one pint does not know, the name does (:func:`is_time_metric`).

    >>> is_time_series("elems", None), is_time_series("elems", "dimensionless")
    (True, False)
    >>> is_time_series("memory", "kB"), is_time_series("traffic", "bytes"), is_time_series("t", "h")
    (False, False, True)
    """
    if unit is None or is_time_unit(unit):
        return unit is not None or is_time_metric(metric)
    try:
        return dimension(unit) == "time"
    except UnitError:  # no unit: the name decides, and the unit's check says what is wrong
        return is_time_metric(metric)


def is_time_unit(unit: str | None) -> bool:
    """Whether ``unit`` (as :func:`split_unit` gives it) is a unit of time.

    >>> is_time_unit("ms"), is_time_unit("elements"), is_time_unit(None)
    (True, False, False)
    """
    return unit in _TIME_UNITS.values()


def parameter_name(column: str) -> str:
    """A parameter column's name without what brackets or parentheses add to it (a unit, a
    remark): ``Size (elements)`` is the parameter ``Size``.

    >>> parameter_name("size (elements)"), parameter_name("p [threads]"), parameter_name("n_s")
    ('size', 'p', 'n_s')
    """
    match = _BRACKETED.fullmatch(column.strip())
    return match["base"] if match and match["base"] else column.strip()


#: columns that number a point's repetitions, one row each: not a parameter of the point
REPETITION_INDEX = frozenset({"rep", "repetition", "repeat", "run", "iteration", "iter", "trial"})
#: columns that say when a row was measured: not a parameter either
CLOCK_READINGS = frozenset({"timestamp", "date", "datetime"})


def bookkeeping(column: str) -> str | None:
    """What a column keeps that is no parameter of a point (None: nothing of the kind): the
    number of a repetition (``rep``, ``run``, ``iteration``, ...) or when a row was measured
    (``timestamp``, ``date``), by its name.

    >>> bookkeeping("rep"), bookkeeping("Iteration"), bookkeeping("timestamp [s]"), bookkeeping("size")
    ('numbers the repetitions', 'numbers the repetitions', 'says when each row was measured', None)
    """
    name = parameter_name(column).lower()
    if name in REPETITION_INDEX:
        return "numbers the repetitions"
    return "says when each row was measured" if name in CLOCK_READINGS else None


def quantity(column: str) -> str:
    """What a column or metric holds, by its name without the unit, in lower case.

    >>> quantity("Time_ms"), quantity("runtime[s]"), quantity(" speedup ")
    ('time', 'runtime', 'speedup')
    """
    return split_unit(column)[0].lower()


def is_value_name(column: str) -> bool:
    """Whether a column's name says it holds measured values (``time``, ``runtime[s]``, ...,
    or a unit of time alone of more than one letter: ``seconds``, ``ms``, ``usec``; ``s``
    names a size as often).

    >>> is_value_name("Time_ms"), is_value_name("size"), is_value_name("p")
    (True, False, False)
    >>> is_value_name("seconds"), is_value_name("ms"), is_value_name("s"), is_value_name("min")
    (True, True, False, False)
    """
    name = column.strip().lower()
    return quantity(column) in VALUE_NAMES or (len(name) > 1 and name in _UNIT_NAMES)


def measured_unit(
    metric: str, column_unit: str | None = None, option: str | None = None, where: str = ""
) -> str:
    """The unit of fitted values: ``--unit`` (``option``) or the column's (``time_ms``).

    A time metric must be in a unit of time (ns if nothing says); a metric whose name says
    it is not a time (speedup, visits, bytes, ...:
    :func:`patternalg.measurements.names.is_time_metric`) is dimensionless unless a unit is
    given. ``--unit`` may not contradict the column's name.

    >>> measured_unit("time"), measured_unit("time", "ms"), measured_unit("visits")
    ('ns', 'ms', 'dimensionless')
    >>> measured_unit("time", "ms", "s", "m.csv")
    Traceback (most recent call last):
    ...
    patternalg.errors.UnitError: m.csv: unit=s contradicts the value column's unit ms (drop unit=, or rename the column)
    >>> measured_unit("time", None, "furlongs")
    Traceback (most recent call last):
    ...
    patternalg.errors.UnitError: unit=furlongs: a length, not a time (valid: ns, us, ms, s, min)
    >>> measured_unit("time", "s", "furlongs")
    Traceback (most recent call last):
    ...
    patternalg.errors.UnitError: unit=furlongs: a length, not a time (valid: ns, us, ms, s, min)
    """
    prefix = f"{where}: " if where else ""
    is_time = is_time_series(metric, column_unit)

    def checked(unit: str, what: str) -> str:
        return check_time_unit(unit, what) if is_time else check_unit(unit, what)

    if option is not None:
        option = check_time_unit(option, "unit", option=True) if is_time else check_unit(option, f"{prefix}{flag('unit')}")
        if column_unit not in (None, "dimensionless") and option != column_unit:
            raise UnitError(
                f"{prefix}{flag('unit', option)} contradicts the value column's unit {column_unit} "
                f"(drop {flag('unit')}, or rename the column)"
            )
        return option
    if column_unit is None:
        return DEFAULT_UNIT if is_time else "dimensionless"
    return checked(column_unit, f"{prefix}column '{metric}' unit" if is_time else f"{prefix}unit")


#: a summary's statistics, by the suffix after its value's name: the value (the first present),
#: its spread, and the count of repetitions (also a column of its own, named as in BARE_COUNT)
CENTRAL, SPREAD, COUNT = ("mean", "median"), ("std", "stddev", "sd"), ("count", "n", "runs", "reps")
BARE_COUNT = ("count", "runs", "reps", "repetitions", "samples")


class SummaryColumns(NamedTuple):
    """The columns of one value's summary: its metric (the value's name), its spread
    column, and the column of its count of repetitions (None: none)."""

    metric: str
    spread: str
    repetitions: str | None


def summary_columns(numeric: Sequence[str]) -> dict[str, SummaryColumns]:
    """Per value column of a table of summaries, its :class:`SummaryColumns`: ``time_mean``
    beside ``time_std``.

    >>> summary_columns(("x", "time_mean", "time_median", "time_std", "count"))
    {'time_mean': SummaryColumns(metric='time', spread='time_std', repetitions='count')}
    >>> summary_columns(("x", "time_mean")), summary_columns(("x", "size_mean", "size_std"))
    ({}, {})
    """
    found: dict[str, SummaryColumns] = {}
    bases = {c.rpartition("_")[0] for c in numeric if c.rpartition("_")[2] in CENTRAL}
    for base in sorted(b for b in bases if b and is_value_name(b)):
        central = next(f"{base}_{c}" for c in CENTRAL if f"{base}_{c}" in numeric)
        spread = next((f"{base}_{s}" for s in SPREAD if f"{base}_{s}" in numeric), None)
        if spread is not None:
            count = next((f"{base}_{c}" for c in COUNT if f"{base}_{c}" in numeric), None)
            found[central] = SummaryColumns(base, spread, count or next((c for c in BARE_COUNT if c in numeric), None))
    bare = [next((c for c in group if c in numeric), None) for group in (CENTRAL, SPREAD)]
    named = any(is_value_name(c) for c in numeric)
    if not found and not named and bare[0] and bare[1]:  # one value's statistics: agg(["mean", "std", "count"])
        found[bare[0]] = SummaryColumns("value", bare[1], next((c for c in BARE_COUNT if c in numeric), None))
    return found
