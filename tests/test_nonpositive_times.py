"""Times that are not positive follow one rule, per series, and never stop the other
kernels (issue 29, findings 3, 17 and 19): a 0 among positive repetitions is dropped, a
point of zeros is fitted as measured, a series of zeros is the constant 0; each noted with
its file and line, in one and in two parameters, on the fast path as on the reference."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
from helpers import ROOT, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patternalg.forms.pmnf import PMNF
from patternalg.measurements import read

RELEARN = ROOT / "tests/data/extrap/tests/data/text/mpa/relearn_data.txt"
SILENT = "Update #synaptic elements + del synapses"  # every DATA line of it is "0 0"


def _regions(text: str) -> list[str]:
    return [
        line.split(None, 1)[1].strip() for line in text.splitlines() if line.startswith("REGION")
    ]


def _region_line(text: str, name: str) -> int:
    """The line number of REGION ``name``."""
    return next(
        number
        for number, line in enumerate(text.splitlines(), start=1)
        if line.startswith("REGION") and line.split(None, 1)[1].strip() == name
    )


def test_a_real_file_with_a_silent_region_fits_every_region_and_notes_it() -> None:
    """RELeARN's 14 regions (Extra-P's test data, two parameters): 13 measured, one all 0."""
    text = RELEARN.read_text()
    line = _region_line(text, SILENT) + 1  # its first DATA line
    result = run_cli("fit", str(RELEARN), "--format", "json")
    assert result.returncode == 0, result.stderr
    records = json.loads(result.stdout)
    assert [r["kernel"] for r in records] == [name.strip() for name in _regions(text)]
    assert len(records) == 14
    (silent,) = [r for r in records if r["kernel"] == SILENT]
    assert silent["model"] == "0.0" and silent["terms"] == []
    assert all(float(r["constant"]) != 0 or r["terms"] for r in records if r is not silent)
    notes = [n for n in result.stderr.splitlines() if n.startswith("note:") and "kernel" in n]
    assert notes == [
        f"note: {RELEARN}:{line}: kernel '{SILENT}', metric 'time': every time is 0 "
        "(a code path that did not run): fitted as measured, the constant 0"
    ]
    # --allow-nonpositive changes how that kernel is fitted only (here: not at all)
    allowed = run_cli("fit", str(RELEARN), "--format", "json", "--allow-nonpositive")
    assert allowed.returncode == 0 and json.loads(allowed.stdout) == records
    assert "50 such value(s)" in allowed.stderr


def _without(text: str, region: str, drop: set[tuple[int, int]], zero: bool) -> str:
    """``text`` with repetitions ``(point, repetition)`` of ``region`` set to 0 (``zero``) or
    removed."""
    lines, current, point = [], "", -1
    for line in text.splitlines():
        if line.startswith("REGION"):
            current, point = line.split(None, 1)[1].strip(), -1
        elif line.startswith("DATA") and current == region:
            point += 1
            words = line.split()[1:]
            words = [
                ("0" if zero else "") if (point, r) in drop else w for r, w in enumerate(words)
            ]
            line = "DATA " + " ".join(w for w in words if w)
        lines.append(line)
    return "\n".join(lines) + "\n"


def test_zero_repetitions_among_positive_ones_are_dropped_in_two_parameters(
    tmp_path: Path,
) -> None:
    text = RELEARN.read_text()
    drop = {(0, 1), (7, 0), (8, 1)}
    zeros, removed = tmp_path / "zeros.txt", tmp_path / "removed.txt"
    zeros.write_text(_without(text, "Initialization", drop, zero=True))
    removed.write_text(_without(text, "Initialization", drop, zero=False))
    with_zeros = run_cli("fit", str(zeros), "--format", "json")
    assert with_zeros.returncode == 0, with_zeros.stderr
    expected = run_cli("fit", str(removed), "--format", "json")
    assert json.loads(with_zeros.stdout) == [
        {**r, "file": str(zeros)} if "file" in r else r for r in json.loads(expected.stdout)
    ]
    first = _region_line(text, "Initialization") + 1  # point 0's DATA line
    assert (
        f"note: {zeros}:{first}: kernel 'Initialization', metric 'time': 3 times of 0 among "
        "positive repetitions dropped (--allow-nonpositive keeps them)"
    ) in with_zeros.stderr.splitlines()


def _file(values: np.ndarray, names: list[str], two: bool) -> str:
    """An Extra-P text file of kernels ``names``: ``values[k, i, r]`` at the i-th point."""
    header = ["PARAMETER x", "PARAMETER p"] if two else ["PARAMETER x"]
    xs = [4, 8, 16, 32, 64]
    points = [(x, p) for x in xs for p in (2, 4, 8, 16, 32)] if two else [(x,) for x in xs]
    lines = [*header, "POINTS " + " ".join("( " + " ".join(map(str, pt)) + " )" for pt in points)]
    lines.append("METRIC time")
    for name, kernel in zip(names, values, strict=True):
        lines.append(f"REGION {name}")
        lines += ["DATA " + " ".join(repr(float(v)) for v in point) for point in kernel]
    return "\n".join(lines) + "\n"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    two=st.booleans(),
    repetitions=st.integers(1, 3),
    seed=st.integers(0, 2**32 - 1),
    kinds=st.lists(st.sampled_from(["clean", "some", "point", "all"]), min_size=1, max_size=4),
)
def test_one_rule_for_zero_times_per_series(
    tmp_path_factory, two: bool, repetitions: int, seed: int, kinds: list[str]
) -> None:
    """Whatever the zeros of one kernel, the other kernels get the models they get without
    them, and the kernel with zeros gets one note naming it and the line of its first 0:
    dropped among positive repetitions (the model of the file without them), fitted as
    measured where a point has no other value, the constant 0 where all are 0."""
    rng = np.random.default_rng(seed)
    npoints = 25 if two else 5
    names = [f"k{k}" for k in range(len(kinds))]
    base = 1 + rng.random((len(kinds), npoints, 1)) * np.arange(1, npoints + 1)[:, None]
    clean = base * (1 + 0.05 * rng.random((len(kinds), npoints, repetitions)))
    values = clean.copy()
    for k, kind in enumerate(kinds):
        if kind == "some" and repetitions > 1:
            values[k, rng.integers(npoints), rng.integers(repetitions)] = 0
        elif kind in ("point", "some"):
            values[k, rng.integers(npoints), :] = 0
        elif kind == "all":
            values[k] = 0
    folder = tmp_path_factory.mktemp("zeros")
    path = folder / "m.txt"
    path.write_text(_file(values, names, two))
    reports = PMNF.fit_each(read(str(path)))
    assert [r.kernel for r in reports] == names
    header = 4 if two else 3
    for k, (report, kind) in enumerate(zip(reports, kinds, strict=True)):
        zero = np.argwhere(values[k] == 0)
        if not len(zero):
            assert report.notes == ()
            continue
        point, repetition = zero[0]
        # the line of the first 0: header, then REGION and one DATA line a point per kernel
        line = header + 1 + k * (npoints + 1) + 1 + point
        (note,) = report.notes
        assert note.startswith(f"{path}:{line}: kernel 'k{k}', metric 'time': "), note
        if kind == "all":
            assert report.fitted.text() == "0.0" and "constant 0" in note
            continue
        at_points = (values[k] == 0).all(axis=1)
        among = int((values[k][~at_points] == 0).sum())
        assert ("dropped" in note) == (among > 0) and ("fitted as measured" in note) == bool(
            at_points.any()
        )
        # the same model as the file where those repetitions are not there at all
        kept = [
            point_values[point_values != 0] if (point_values != 0).any() else point_values
            for point_values in values[k]
        ]
        lines = _file(values[[k]], [f"k{k}"], two).splitlines()
        start = header + 1  # the index of the first DATA line
        for i, point_values in enumerate(kept):
            lines[start + i] = "DATA " + " ".join(repr(float(v)) for v in point_values)
        alone = folder / f"k{k}.txt"
        alone.write_text("\n".join(lines) + "\n")
        (reference,) = PMNF.fit_each(read(str(alone)))
        assert _rounded(report.fitted.text()) == _rounded(reference.fitted.text())
    others = [i for i, kind in enumerate(kinds) if not (values[i] == 0).any()]
    if others:
        path.write_text(_file(clean[others], [names[i] for i in others], two))
        expected = PMNF.fit_each(read(str(path)))
        assert [_rounded(reports[i].fitted.text()) for i in others] == [
            _rounded(r.fitted.text()) for r in expected
        ]


def _rounded(model: str) -> str:
    """``model`` with its constants to 9 digits (kernels fitted in another batch, or with
    as many repetitions everywhere, may differ in the last bits)."""
    return re.sub(r"\d+\.\d+(e[-+]?\d+)?", lambda m: f"{float(m.group()):.9g}", model)


def test_a_zero_is_noted_alike_with_one_or_two_repetitions_on_the_fast_path(tmp_path: Path):
    """The regular layout (``fit``'s fast path) fitted a 0 silently with one repetition a
    point, and refused the file with two: one rule now, said in a note."""
    for repetitions in (1, 2):
        data = "".join(f"DATA {' '.join([str(v)] * repetitions)}\n" for v in (4, 0, 16, 32, 64))
        path = tmp_path / f"r{repetitions}.txt"
        path.write_text(
            "PARAMETER x\nPOINTS ( 4 ) ( 8 ) ( 16 ) ( 32 ) ( 64 )\nMETRIC time\n"
            f"REGION a\n{data}REGION b\n{data.replace(' 0', ' 8')}"
        )
        result = run_cli("fit", str(path))
        assert result.returncode == 0, result.stderr
        assert re.search(
            rf"^note: {re.escape(str(path))}:6: kernel 'a', metric 'time': 1 of 5 points "
            r"measured 0 .*fitted as measured$",
            result.stderr,
            re.M,
        ), result.stderr
        assert result.stdout.count("\n  SMAPE") == 2
