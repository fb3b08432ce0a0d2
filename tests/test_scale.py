"""The fast paths give what the reference paths give: model files, fits, readers."""

from __future__ import annotations

import json
import re
import textwrap
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tomli_w
from helpers import run_cli
from hypothesis import given
from hypothesis import strategies as st

from patternalg._internal.toml_writer import dumps, table_text
from patternalg.commands.quality import quality_line
from patternalg.forms.pmnf import PMNF
from patternalg.library.model_library import ModelLibrary
from patternalg.measurements import read
from patternalg.measurements.blocks import Irregular, _batch, _Metric, text_blocks

_KEYS = st.text(min_size=0, max_size=8)
_SCALARS = (
    st.text(max_size=12)
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
)
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3), max_leaves=6)
_TABLES = st.recursive(
    st.dictionaries(_KEYS, _VALUES, max_size=4),
    lambda inner: st.dictionaries(_KEYS, inner | _VALUES, max_size=4),
    max_leaves=8,
)


@given(_TABLES)
def test_toml_writer_writes_what_tomli_w_writes(table: dict) -> None:
    assert dumps(table) == tomli_w.dumps(table)


def test_toml_writer_escapes_as_tomli_w() -> None:
    table = {"k y": {'a"\\\n\x01\t\x7fé': "\b\f\r\x1f"}, "models": {"": [[]], "x": []}}
    assert dumps(table) == tomli_w.dumps(table)
    assert tomllib.loads(dumps(table)) == table


# --- the fast path of ``fit`` (regular Extra-P text files, batch by batch) ------------------


def _text_file(path: Path, seed: int, xs: list[float], repetitions: int, **style: Any) -> Path:
    """An Extra-P text file of kernels of every shape (growing, constant, negative, zero,
    two terms of one power), with names that collide as atom names, in the style given
    (comments, CRLF, METRIC)."""
    rng = np.random.default_rng(seed)
    x = np.array(xs)
    extrap = style.get("extrap")  # Extra-P's layout: a POINTS line a point, METRIC per REGION
    points = (
        [f"POINTS ( {v!r} )" for v in xs]
        if extrap
        else ["POINTS " + " ".join(f"( {v!r} )" for v in xs)]
    )
    header = ["# written by a test", "PARAMETER n", *([""] if extrap else []), *points]
    if style.get("metric") and not extrap:
        header.append(f"METRIC {style['metric']}")
    lines = header + [""]
    for k in range(40):
        shape = k % 6
        values = {
            0: 3 + 0.5 * x ** rng.choice([0.5, 1, 1.5, 2]),
            1: np.full_like(x, 7.0),
            2: 2 + x * np.log2(np.maximum(x, 1.0)),
            3: -5 + 0.1 * x,
            4: np.where(x > x[1], 0.0, 1.0),
            5: 30 + 100 * x + 2 * x * np.log2(np.maximum(x, 1.0)) ** 2,
        }[shape]
        names = ["a-b", "a_b", "a b", "k"] + (['q"u\\o', "é ü"] if style.get("odd") else [])
        name = names[k % len(names)]
        lines.append(f"REGION {name}{k // 4 if name == 'k' else ''}.{k}")
        if extrap:
            lines += [f"METRIC {style['metric']}"] + ([f"# formula: {k}"] if k % 3 == 0 else [])
        for value in values:
            reps = value * (1 + 0.05 * rng.standard_normal(repetitions))
            lines.append("DATA " + "  ".join(repr(float(r)) for r in reps))
        if extrap:
            lines.append(" \t" if k % 4 == 1 else "")  # blank, or blanks only
    end = "\r\n" if style.get("crlf") else "\n"
    path.write_text(end.join(lines) + end + ("\n\n" if style.get("trailing") else ""))
    return path


REGULAR = [
    ([4.0, 8, 16, 32, 64, 128, 256, 512, 1024], 5, {}),
    ([1.0, 2, 3, 4, 5, 6, 7, 8, 9], 1, {"metric": "time_ms", "crlf": True}),
    ([0.25, 0.5, 1, 2, 4], 3, {"trailing": True}),
    ([2.0, 4, 8, 16], 2, {"metric": "speedup", "odd": True}),
    ([4.0, 8, 16, 32, 64, 128, 256, 512, 1024], 5, {"extrap": True, "metric": "time"}),
    ([1.0, 2, 3, 4, 5, 6, 7, 8, 9], 2, {"extrap": True, "metric": "elapsed", "crlf": True}),
    ([64.0, 4, 1024, 16, 8, 512, 32, 256, 128], 5, {}),  # a series keeps its points ascending
    ([32.0, 2, 8, 4, 16], 3, {"extrap": True, "metric": "time"}),
]


#: every case under the default options; under the others two cases in the README's test
#: command and every case in the long checks (a second each: the suite stays within minutes)
_FAST_CASES = [
    pytest.param(options, case, marks=() if not options or case < 2 else pytest.mark.long)
    for options in ({}, {"modeler": "basic"}, {"aggregate": "max", "param": ["n=p"]})
    for case in range(len(REGULAR))
]


@pytest.mark.parametrize(("options", "case"), _FAST_CASES)
def test_fast_fit_gives_the_reference_models(tmp_path: Path, case: int, options: dict) -> None:
    xs, repetitions, style = REGULAR[case]
    path = str(_text_file(tmp_path / "m.txt", case, xs, repetitions, **style))
    blocks = list(text_blocks(path, batch=7))
    reference = read(path)
    series = [s for block in blocks for s in block.series()]
    assert [(s.kernel, s.metric, s.lines) for s in series] == [
        (s.kernel, s.metric, s.lines) for s in reference
    ]
    assert all(
        np.array_equal(a.points, b.points) and np.array_equal(a.values, b.values)
        for a, b in zip(series, reference, strict=True)
    )
    # the kernels of shapes 3 and 4 have times <= 0: both paths fit them as measured
    asis = {"allow_nonpositive": True, **options}
    fast = [r for _, batch in PMNF.fit_batches(path, batch=7, **asis) for r in batch]
    slow = PMNF.fit_each(reference, **asis)
    assert [r.record for r in fast] == [r.record for r in slow]
    assert [(r.atom, r.table()) for r in fast] == [(r.atom, r.model.to_toml()) for r in slow]
    assert len({r.atom for r in fast}) == 40


def test_the_fast_path_decides_auto_on_a_count_of_kernels_it_did_not_hold(tmp_path: Path) -> None:
    """``auto`` is the bootstrap up to 200 kernels, linear up to 10,000: the fast path read up
    to 10,000 kernels ahead to count them, holding their values. It reads 201 now, then
    counts the file's REGION lines; the reports are the reference path's."""
    rng = np.random.default_rng(5)
    x = np.array([2.0, 4.0, 8.0, 16.0, 32.0])
    lines = ["PARAMETER x", "POINTS " + " ".join(f"({v:g})" for v in x)]
    for k in range(230):
        mean = (k + 1) * x * np.log2(x) + 50
        lines.append(f"REGION k{k}")
        lines += [f"DATA {m * (1 + 0.01 * rng.standard_normal()):.6g} {m:.6g}" for m in mean]
    path = tmp_path / "m.txt"
    path.write_text("\n".join(lines) + "\n")
    fast = [r for _, batch in PMNF.fit_batches(str(path), batch=50) for r in batch]
    slow = PMNF.fit_each(read(str(path)))
    assert len(fast) == 230 and {r.record["uncertainty"]["method"] for r in fast} == {"linear"}
    assert [r.record for r in fast] == [r.record for r in slow]


@pytest.mark.parametrize("case", range(len(REGULAR)))
@pytest.mark.parametrize(
    "options", [{}, {"modeler": "basic"}, {"aggregate": "max", "param": ["n=p"], "unit": "s"}]
)
def test_batch_text_is_the_text_of_its_reports(tmp_path: Path, case: int, options: dict) -> None:
    """What ``fit`` prints and writes for a whole batch at once is what it would build from
    each report: summary lines, JSON records, model-file tables."""
    xs, repetitions, style = REGULAR[case]
    if style.get("metric") == "time_ms":
        options = {key: value for key, value in options.items() if key != "unit"}
    path = str(_text_file(tmp_path / "m.txt", case, xs, repetitions, **style))
    for _, reports in PMNF.fit_batches(path, batch=7, allow_nonpositive=True, **options):
        summaries, tables = reports.bulk_text(json_records=False, model_file=True)
        records, nothing = reports.bulk_text(json_records=True, model_file=False)
        assert summaries == "".join(
            f"{PMNF.fitting().summary_line(r.record)}  [{r.unit}]\n"
            f"  {quality_line(r.model)}\n"
            f"{_intervals(r)}"
            for r in reports
        )
        assert tables == "".join(table_text(r.table(), "models", r.atom) for r in reports)
        assert records == ",\n".join(
            textwrap.indent(json.dumps(r.record, indent=2, allow_nan=False), "  ") for r in reports
        )
        assert nothing == ""


@pytest.mark.parametrize("case", range(len(REGULAR)))
def test_blocks_do_not_depend_on_where_the_file_is_cut(tmp_path: Path, case: int) -> None:
    """The file is read in chunks of bytes: a chunk may end anywhere (inside a number, a
    UTF-8 character, between CR and LF)."""
    xs, repetitions, style = REGULAR[case]
    path = _text_file(tmp_path / "m.txt", case, xs, repetitions, **style)
    whole = list(text_blocks(path, batch=7))
    for chunk in (1, 2, 3, 7, 64, 1000):
        cut = list(text_blocks(path, batch=7, chunk=chunk))
        assert [(b.kernels, b.lines.tolist()) for b in cut] == [
            (b.kernels, b.lines.tolist()) for b in whole
        ]
        assert all(np.array_equal(a.values, b.values) for a, b in zip(cut, whole, strict=True))


@pytest.mark.parametrize("case", range(len(REGULAR)))
def test_a_part_is_cut_by_its_bytes_too_and_reads_the_same_series(tmp_path: Path, case: int) -> None:
    """Kernels of many repetitions were read 10,000 at a time whatever their bytes (a file of
    500 kernels of 2,000 repetitions a point took 1 GB): a part ends at the kernel where
    its text passes ``most`` bytes, and the series are those of the reference reader."""
    xs, repetitions, style = REGULAR[case]
    path = _text_file(tmp_path / "m.txt", case, xs, repetitions, **style)
    whole = list(text_blocks(path, batch=7))
    small = list(text_blocks(path, batch=7, most=300, chunk=64))
    assert len(small) > len(whole) and all(len(b.kernels) <= 7 for b in small)
    series = [s for block in small for s in block.series()]
    assert [(s.kernel, s.lines) for s in series] == [(s.kernel, s.lines) for s in read(str(path))]
    assert all(np.array_equal(a.values, b.values) for a, b in zip(series, read(str(path)), strict=True))


@pytest.mark.parametrize("number", ["1_0", "١", "0x10", "1e", "--1", "1.2.3", "inf", "1e999"])
def test_numbers_float_does_not_read_as_the_fast_path_does_are_irregular(
    tmp_path: Path, number: str
) -> None:
    """The fast path reads a number only as ``float`` does, or not at all."""
    path = _text_file(tmp_path / "m.txt", 0, *REGULAR[0][:2])
    path.write_text(path.read_text().replace("DATA ", f"DATA {number} ", 1), encoding="utf-8")
    with pytest.raises(Irregular):
        list(text_blocks(path, batch=7))


@given(
    st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=5),
    st.sampled_from(["{!r}", "{:.17e}", "{:.25g}", "{:.3f}", "{:+.20f}", "{:.0f}."]),
)
def test_the_fast_path_reads_numbers_as_float_does(values: list[float], style: str) -> None:
    texts = [style.format(v) for v in values]
    line = ("DATA " + " ".join(texts)).encode()
    lines = [b"REGION k", line, line, line]
    kinds = np.frombuffer(bytes(line[0] for line in lines), dtype=np.uint8)
    kernels, read, _ = _batch(lines, kinds, 3, set(), _Metric(""))
    assert read[0].tolist() == [[float(t) for t in texts]] * 3


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t.replace("REGION a_b.1\n", "REGION a-b.0\n"),  # a region named twice
        lambda t: t.replace("REGION a_b.1\n", "METRIC bytes\nREGION a_b.1\n"),  # a 2nd metric
        lambda t: t.replace("DATA ", "DATA nan ", 1),  # not a measurement
        lambda t: t.replace("DATA ", "DATA 1 ", 1),  # one more repetition on one line
        lambda t: t.replace("DATA ", "DATA\t", 1),  # a tab after DATA
        lambda t: t.replace("DATA ", "DATA 1_0 ", 1),  # float() reads it, the fast path not
        lambda t: t.replace("\n", "\r", 5),  # a lone CR ends a line
        lambda t: t[:-300] + t[-300:].replace("\n", "\r", 1),  # also after the header
        lambda t: t.replace("DATA ", "DATA 1\x0b", 1),  # so does a vertical tab
        lambda t: "METRIC a\n" + t.replace("REGION a_b.1\n", "REGION a_b.1\x0c\n"),
    ],
)
def test_irregular_files_take_the_reference_path(tmp_path: Path, change: Callable) -> None:
    path = _text_file(tmp_path / "m.txt", 0, *REGULAR[0][:2])
    path.write_text(change(path.read_text()))
    with pytest.raises(Irregular):
        list(text_blocks(path, batch=7))


def _intervals(report: Any) -> str:
    """The line of ``fit``'s text with the coefficients' intervals, if the fit has them."""
    intervals = report.fitted.interval_text()
    return f"  {intervals}\n" if intervals else ""


def test_fit_command_prints_and_writes_what_the_reference_does(tmp_path: Path) -> None:
    path = _text_file(tmp_path / "m.txt", 3, *REGULAR[0][:2])
    reports = PMNF.fit_each(read(path), allow_nonpositive=True)  # it has times <= 0
    ModelLibrary([r.model for r in reports]).save(tmp_path / "reference.toml")
    text = run_cli("fit", str(path), "--allow-nonpositive", "--out", str(tmp_path / "fast.toml"))
    assert text.returncode == 0, text.stderr
    assert text.stdout == "".join(
        f"{PMNF.fitting().summary_line(r.record)}  [{r.model.unit}]\n"
        f"  {quality_line(r.model)}\n{_intervals(r)}"
        for r in reports
    )
    assert (tmp_path / "fast.toml").read_bytes() == (tmp_path / "reference.toml").read_bytes()
    as_json = run_cli("fit", str(path), "--allow-nonpositive", "--format", "json")
    assert as_json.stdout == json.dumps([r.record for r in reports], indent=2) + "\n"
    assert "note: parameter" not in as_json.stderr  # the models are in n, the file's own name


def test_fit_command_on_a_bad_file_writes_nothing(tmp_path: Path) -> None:
    """A region short of DATA lines is left out, the others fitted (it refused the whole file
    before); a file of nothing else is an error, and nothing is written."""
    path = _text_file(tmp_path / "m.txt", 4, *REGULAR[0][:2])
    path.write_text(path.read_text() + "REGION late\nDATA 1\n")  # one DATA line for 9 points
    result = run_cli("fit", str(path), "--out", str(tmp_path / "m.toml"))
    assert result.returncode == 0 and result.stdout
    assert "REGION 'late' has 1 DATA lines but POINTS lists 9 points (left out;" in result.stderr
    assert "late" not in (tmp_path / "m.toml").read_text()
    path.write_text("PARAMETER n\nPOINTS 1 2 3\nREGION late\nDATA 1\n")
    (tmp_path / "m.toml").unlink()
    result = run_cli("fit", str(path), "--out", str(tmp_path / "m.toml"))
    assert result.returncode == 2 and result.stdout == ""
    assert "REGION 'late' has 1 DATA lines but POINTS lists 3 points" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.txt"]


# --- Extra-P's own layout (issue 29, finding 4) ---------------------------------------------

EXTRAP_TEXT = Path(__file__).parent / "data" / "extrap" / "tests" / "data" / "text"


def _copies(text: str, count: int) -> str:
    """``text`` (an Extra-P text file) with its REGION blocks repeated ``count`` times, the
    regions of copy ``i`` renamed ``name_i``: many kernels in the file's own layout."""
    start = text.index("\nREGION ") + 1
    body = text[start:].rstrip("\n") + "\n\n"
    renamed = [
        re.sub(r"^REGION (.*?)\s*$", rf"REGION \1_{i}", body, flags=re.M) for i in range(count)
    ]
    return text[:start] + "".join(renamed)


@pytest.mark.parametrize("name", ["one_parameter_1.txt", "one_parameter_2.txt"])
@pytest.mark.parametrize("count", [1, 30])
def test_extrap_files_in_their_own_layout_take_the_fast_path(
    tmp_path: Path, name: str, count: int
) -> None:
    """Extra-P's test files (blank lines between blocks, one POINTS line a point, METRIC
    after each REGION or once before them) are read by the fast path, as ``read`` reads them."""
    path = tmp_path / name
    path.write_text(_copies((EXTRAP_TEXT / name).read_text(), count))
    series = [s for block in text_blocks(path, batch=7) for s in block.series()]
    reference = read(path)
    assert len(series) == len(reference) >= count
    assert [(s.kernel, s.metric, s.unit, s.lines) for s in series] == [
        (s.kernel, s.metric, s.unit, s.lines) for s in reference
    ]
    assert all(
        np.array_equal(a.points, b.points) and np.array_equal(a.values, b.values)
        for a, b in zip(series, reference, strict=True)
    )
    fast = [r for _, batch in PMNF.fit_batches(str(path), batch=7) for r in batch]
    assert [r.record for r in fast] == [r.record for r in PMNF.fit_each(reference)]


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t.replace("METRIC time\n", "METRIC flops\n", 1),  # a second metric
        lambda t: "METRIC flops\n".join(t.rsplit("METRIC time\n", 1)),  # the last one another
        lambda t: t.replace("\nDATA ", "\nMETRIC time\nDATA ", 2),  # among a block's DATA
        lambda t: t.replace("\nDATA ", "\n DATA ", 1),  # indented
        lambda t: t.replace("\n\nREGION a_b.1", "\n \x0c\nREGION a_b.1"),  # a line end in a blank
        lambda t: t.replace("# formula", "#\x1c formula", 1),  # a line end in a comment
        lambda t: t.replace("\nDATA ", "\nREGION k\nDATA ", 1),  # a region without DATA
    ],
)
def test_irregular_files_in_extrap_layout_take_the_reference_path(
    tmp_path: Path, change: Callable
) -> None:
    path = _text_file(tmp_path / "m.txt", 0, *REGULAR[4][:2], **REGULAR[4][2])
    path.write_text(change(path.read_text()))
    with pytest.raises(Irregular):
        list(text_blocks(path, batch=7))
