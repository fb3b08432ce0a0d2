"""The CSV reader's column-wise path gives what its row-by-row reference gives.

``CsvReader.read`` reads a plain body column by column (``measurements/csv_columns.py``)
and any other row by row. Each CSV text here is read both ways (the reference by making
the column-wise path decline, as it declines anything irregular): the same measurements
(series, points, values in file order and bit for bit, lines, units, notes) or the same
error at the same line. The texts are every string in the tests that looks like a table,
the CSV files of the repository, and tables hypothesis writes, plain and not.
"""

from __future__ import annotations

import ast
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patternalg.errors import MeasurementError
from patternalg.measurements import csv as csv_module
from patternalg.measurements.csv import CsvReader
from patternalg.measurements.csv_columns import Irregular
from patternalg.measurements.model import Measurements
from patternalg.measurements.readers import sniff

ROOT = Path(__file__).resolve().parent.parent


def _facts(ms: Measurements) -> tuple:
    """Everything ``ms`` holds, floats as their hex (-0.0 is not 0.0)."""
    hexes = lambda values: [float(v).hex() for v in np.asarray(values).ravel().tolist()]  # noqa: E731
    series = [
        (s.kernel, s.metric, s.parameters, s.points.shape, hexes(s.points), [hexes(v) for v in s.values],
         [v.dtype.str for v in s.values], s.lines, s.path, s.unit, s.stated)
        for s in ms.series
    ]  # fmt: skip
    return (ms.path, ms.format, ms.parameters, ms.value_name, ms.unit, ms.columns, ms.line, ms.notes, series)


def _outcome(path: str, text: str, **options: object) -> tuple:
    """The facts of the measurements read, or the error's text."""
    try:
        return ("read", _facts(CsvReader.read(path, text, **options)))  # type: ignore[arg-type]
    except MeasurementError as exc:
        return ("error", str(exc))


def _declined(*_: object) -> None:
    raise Irregular


def _both(monkeypatch: pytest.MonkeyPatch, path: str, text: str, **options: object) -> tuple[tuple, bool]:
    """The outcome of each path, and whether the column-wise path read the text itself."""
    taken = []
    by_columns = csv_module._by_columns

    def spy(*args: object):
        collector = by_columns(*args)  # type: ignore[arg-type]
        taken.append(True)
        return collector

    with monkeypatch.context() as m:
        m.setattr(csv_module, "_by_columns", spy)
        fast = _outcome(path, text, **options)
    with monkeypatch.context() as m:
        m.setattr(csv_module, "_by_columns", _declined)
        reference = _outcome(path, text, **options)
    assert fast == reference, text[:300]
    return fast, bool(taken)


def _tables_in_tests() -> list[str]:
    """Every string constant of the tests with a header and a row separated by a comma,
    semicolon or tab."""
    found = []
    for test in sorted((ROOT / "tests").glob("test_*.py")):
        for node in ast.walk(ast.parse(test.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                lines = node.value.strip().splitlines()
                if len(lines) >= 2 and any(d in lines[0] for d in ",;\t"):
                    found.append(node.value)
    return sorted(set(found))


def test_every_table_of_the_tests_reads_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    tables = _tables_in_tests()
    fast = sum(_both(monkeypatch, "m.csv", text)[1] for text in tables)
    assert len(tables) > 100 and fast > 20, (len(tables), fast)  # both paths were compared


def test_every_csv_file_of_the_repository_reads_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted(p for d in ("tests", "examples", "benchmarks", "docs") for p in (ROOT / d).rglob("*.[ct]sv"))
    assert files
    for path in files:
        _both(monkeypatch, str(path), path.read_text(encoding="utf-8-sig"))


def test_a_plain_table_takes_the_column_wise_path(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "kernel,x,time_s\n" + "".join(f"k{i % 3},{8 << (i % 5)},{1 + i / 7}\n" for i in range(200))
    (kind, facts), fast = _both(monkeypatch, "m.csv", text)
    assert fast and kind == "read"
    assert [(s[0], s[7][0][:2]) for s in facts[-1]] == [("k0", (2, 17)), ("k1", (12, 27)), ("k2", (7, 22))]


# cells a table's rows are written from: numbers in many spellings, and some that are not
_NUMBERS = ["1", "2", "8", " 8 ", "16", "2.5", "-0.0", "0.0", "0", "1e3", "1E-7", "+.5", "3.", "1_0", "0x10",
            "nan", "inf", "-Infinity", "1e999", "", " ", "1,5", "abc", "2026-11-29"]  # fmt: skip
_NAMES = ["a", "b", " a", "a ", "sort", "", " ", "k#1", "é", "x y", '"q"', "a\tb"]
_HEADERS = [
    ("kernel", "x", "time"),
    ("x", "time"),
    ("kernel", "n", "p", "time_ms"),
    ("kernel", "metric", "x", "value"),
    ("Size (elements)", "Time [us]"),
    ("kernel", "x", "time", "energy"),
    ("x", "rep", "time"),
    ("kernel", "date", "x", "time"),
    ("n", "time_mean", "time_std", "runs"),
    ("kernel", "x", "time [µs]"),
    ("x", "host", "time"),
]


@st.composite
def tables(draw: st.DrawFn) -> str:
    """A CSV table: a header of one of the shapes above, rows of cells drawn mostly from
    few numbers and names (so that points repeat), and sometimes a blank or comment line,
    CR LF, a row of the wrong width."""
    header = draw(st.sampled_from(_HEADERS))
    sep = draw(st.sampled_from([",", ";", "\t"]))
    plain = draw(st.booleans())
    numbers = st.sampled_from(_NUMBERS[:9] if plain else _NUMBERS)
    names = st.sampled_from(_NAMES[:5] if plain else _NAMES)
    lines = [draw(st.sampled_from(["", "# made by hand"])) for _ in range(draw(st.integers(0, 1)))]
    lines.append(sep.join(header))
    for _ in range(draw(st.integers(0, 30))):
        row = [draw(names if h in ("kernel", "metric", "host") else numbers) for h in header]
        if not plain and draw(st.integers(0, 9)) == 0:
            row = row[: draw(st.integers(1, len(row)))] + [draw(numbers)] * draw(st.integers(0, 1))
        line = sep.join(row)
        if not plain and draw(st.integers(0, 9)) == 0:
            line = draw(st.sampled_from(["", "   ", "# a comment", "  # indented", "\x0c", line + "\r"]))
        lines.append(line)
    end = draw(st.sampled_from(["\n", "\r\n"])) if not plain else "\n"
    return end.join(lines) + draw(st.sampled_from([end, ""]))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=tables(), name=st.sampled_from(["m.csv", "<stdin>", "qsort.csv"]),
       options=st.sampled_from([{}, {"metric": "time"}, {"value": "energy"}, {"parameters": "x"}]))  # fmt: skip
def test_generated_tables_read_alike(monkeypatch: pytest.MonkeyPatch, text: str, name: str, options: dict) -> None:
    _both(monkeypatch, name, text, **options)


def test_a_column_the_declaration_leaves_out_is_not_read_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """A column of names the declared parameters do not name is left out unread: the
    column-wise path keeps the table, and both read it over ``x`` alone."""
    text = "x,host,time\n" + "".join(f"{8 << (i % 5)},node{i % 3},{1 + i}\n" for i in range(30))
    (kind, facts), fast = _both(monkeypatch, "m.csv", text, parameters="x")
    assert fast and kind == "read" and facts[2] == ("x",) and [len(v) for v in facts[-1][0][5]] == [6] * 5


def test_a_chunk_cut_between_rows_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows read a few bytes at a time: every line and point where it was."""
    text = "# runs\nkernel;x;time\r\n" + "".join(f"k{i % 4};{i % 3};{i}.5\r\n" for i in range(50)) + "\nk9;1;2"
    columns = csv_module.columns
    monkeypatch.setattr(csv_module, "columns", lambda *a, **k: columns(*a, **k, chunk=7))
    (kind, facts), fast = _both(monkeypatch, "m.csv", text)
    assert fast and facts[-1][-1][:2] == ("k9", "time") and facts[-1][-1][7] == ((54,),)


def test_a_large_table_is_read_in_memory_a_small_multiple_of_its_size() -> None:
    """7 MB of rows: recognised as CSV without a list of its lines (that was 3x the text),
    read at a peak of 3.3x the text above what was there (the reference: 27x), most of it
    what the measurements keep (each repetition's line a Python int in a tuple: 2.2x)."""
    text = "kernel,x,time_s\n" + "".join(f"k{i % 3},{1000 << (i % 5)},{(i % 97) * 1e-6:.12f}\n" for i in range(300_000))
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        assert sniff("big.csv", text) == "csv"
        sniffing = tracemalloc.get_traced_memory()[1] - before
        tracemalloc.reset_peak()
        ms = CsvReader.read("big.csv", text)
        reading = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert [len(s.values[0]) for s in ms] == [20_000] * 3
    assert sniffing < 0.1 * len(text) and reading < 6 * len(text), (sniffing / len(text), reading / len(text))


@pytest.mark.parametrize("cell", ["a" * 200_000, '"' + "a" * 200_000 + '"'])
def test_a_cell_beyond_the_limit_of_a_cell_is_an_error_with_its_line(cell: str) -> None:
    """It was csv's own error, with a traceback."""
    with pytest.raises(MeasurementError, match=r"^m.csv:3: a cell longer than 131,072 characters"):
        CsvReader.read("m.csv", f"x,time\n1,2\n2,{cell}\n")
