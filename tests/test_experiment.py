"""Extra-P's saved experiments (``.extra-p``): read as the files they were made from."""

from __future__ import annotations

import io
import json
import os
import re
import struct
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patternalg.cli import main
from patternalg.errors import MeasurementError
from patternalg.measurements import READERS, Measurements, PathReader, read
from patternalg.measurements.experiment import ExtrapExperimentReader

DATA = Path(__file__).parent / "data"
EXTRAP = DATA / "extrap" / "tests" / "data"
SAVED = DATA / "extrap" / "saved"
ATOMS = Path(__file__).parent.parent / "benchmarks" / "realdata" / "data13" / "atoms.txt"


def by_series(ms: Measurements) -> dict[tuple[str, str], tuple[np.ndarray, list[np.ndarray]]]:
    return {(s.kernel, s.metric): (s.points, list(s.values)) for s in ms}


def test_an_experiment_with_its_values_reads_as_the_text_it_was_made_from() -> None:
    saved, text = read(SAVED / "atoms_values.extra-p"), read(ATOMS)
    assert saved.format == "extra-p" and saved.parameters == text.parameters == ("x",)
    ours, theirs = by_series(saved), by_series(text)
    assert ours.keys() == theirs.keys() == {("nop", "time"), ("inc", "time"), ("qsort", "time")}
    for key, (points, values) in theirs.items():
        assert np.array_equal(ours[key][0], points)
        assert all(np.array_equal(a, b) and len(a) == 20 for a, b in zip(ours[key][1], values, strict=True))
    assert not any("median is its one value" in n for n in saved.notes)


@pytest.mark.parametrize(
    ("saved", "text", "points"),
    [
        (SAVED / "atoms.extra-p", ATOMS, 27),
        (EXTRAP / "experiments" / "two_parameter3.txt.extra-p", EXTRAP / "text" / "two_parameter_3.txt", 100),
        (EXTRAP / "input" / "exp_only_mean_median.extra-p", EXTRAP / "text" / "two_parameter_3.txt", 100),
    ],
    ids=["made-here", "extrap-4.2", "extrap-4.0"],
)
def test_an_experiment_of_statistics_gives_each_point_s_median(saved: Path, text: Path, points: int) -> None:
    ours, theirs = by_series(read(saved)), by_series(read(text))
    assert ours.keys() == theirs.keys()
    for key, (where, values) in theirs.items():
        assert np.array_equal(ours[key][0], where)
        medians = [float(np.median(v)) for v in values]
        assert [v.tolist() for v in ours[key][1]] == [[pytest.approx(m, rel=1e-12)] for m in medians]
    assert f"{points} point(s) saved without their repetitions" in " ".join(read(saved).notes)


def test_fit_and_metric_read_an_experiment(capsys: pytest.CaptureFixture[str]) -> None:
    path = EXTRAP / "experiments" / "two_parameter3.txt.extra-p"
    assert main(["fit", str(path), "--metric", "flops", "--input-format", "extra-p"]) == 0
    out, _ = capsys.readouterr()
    assert re.findall(r"^(\w+):", out, re.M) == ["merge", "sort"] and "y in [1, 5]" in out


def test_a_format_read_from_its_path_is_asked_before_any_text_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The registry's contract for binary and directory formats: a PathReader in READERS
    claims its paths, and read() reads them through it (with the metric asked for)."""
    saved = SAVED / "atoms_values.extra-p"

    class Renamed(PathReader):  # an experiment under another suffix
        name, suffixes = "renamed", (".renamed",)

        @classmethod
        def claims(cls, path: str | Path, format: str | None) -> bool:
            return format == cls.name or (not format and str(path).endswith(cls.suffixes))

        @classmethod
        def read_path(cls, path: str | Path, *, metric: str | None = None, scaling: str | None = None) -> Measurements:
            return ExtrapExperimentReader.read_path(saved, metric=metric)

    monkeypatch.setitem(READERS, Renamed.name, Renamed)
    binary = tmp_path / "e.renamed"
    binary.write_bytes(b"\x00\xff not text")
    assert by_series(read(binary)).keys() == by_series(read(saved)).keys()
    with pytest.raises(MeasurementError, match=r"a scaling \(weak\) applies to a directory"):
        read(binary, scaling="weak")
    assert [s.metric for s in read(binary, "renamed", metric="time")] == ["time"] * len(read(saved))


def archive(tmp_path: Path, members: dict[str, bytes], name: str = "e.extra-p") -> Path:
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as z:
        for member, data in members.items():
            z.writestr(member, data)
    return path


def experiment(values: object = None) -> bytes:
    entry = {"coordinate": [8.0], "median": 2.0, "mean": 2.0, "values": values}
    return json.dumps({"parameters": ["x"], "measurements": {"k": {"time": [entry]}}}).encode()


def value_files(*arrays: np.ndarray, pickled: bool = False) -> dict[str, bytes]:
    vals, offsets = io.BytesIO(), []
    vals.write(b"Extra-P VALUES\0\0")
    for array in arrays:
        offsets.append(vals.tell())
        np.lib.format.write_array(vals, array, allow_pickle=pickled)
    index = b"Extra-P INDEX\0\0\0" + struct.pack("<Q", len(offsets)) + struct.pack(f"<{len(offsets)}Q", *offsets)
    return {"values/0.vals": vals.getvalue(), "values/0.indx": index}


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ({"other.json": b"{}"}, r"no experiment.json in the archive \(an Extra-P experiment holds one\)"),
        ({"experiment.json": b"[1"}, r"experiment.json|not valid JSON"),
        ({"experiment.json": experiment([0, 5]), **value_files(np.array([1.0]))},
         r"value index 5 beyond the 1 of values/0.indx"),
        ({"experiment.json": experiment([0, 0]), **value_files(np.array([{"a": 1}], dtype=object), pickled=True)},
         r"values/0.vals: expected 1 numbers at byte 16, found object"),
        ({"experiment.json": experiment("x")}, r"expected \[chunk, index\] of the kept values, got 'x'"),
        ({"experiment.json": experiment([1, 0])}, r"no values/1.indx in the archive"),
    ],
)  # fmt: skip
def test_a_damaged_experiment_is_one_line(
    members: dict[str, bytes], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = archive(tmp_path, members)
    assert main(["fit", str(path)]) == 2
    out, err = capsys.readouterr()
    assert not out and err.count("\n") == 1 and re.search(message, err), err


def test_kept_values_are_read_as_numbers_and_a_declared_shape_is_bounded(tmp_path: Path) -> None:
    files = value_files(np.array([1.5, 2.5, 3.5]))
    ms = read(archive(tmp_path, {"experiment.json": experiment([0, 0]), **files}))
    assert ms.series[0].values[0].tolist() == [1.5, 2.5, 3.5]
    huge = files["values/0.vals"].replace(b"(3,)", b"(10000000000,)")  # 3 values, 1e10 declared
    with pytest.raises(MeasurementError, match=r"expected 10000000000 numbers at byte 16, found float64 in \d+ bytes"):
        read(archive(tmp_path, {"experiment.json": experiment([0, 0]), "values/0.vals": huge,
                                "values/0.indx": files["values/0.indx"]}, "huge.extra-p"))  # fmt: skip


def test_an_extrap_3_experiment_says_how_extrap_4_converts_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fit", str(EXTRAP / "input" / "experiment_3")]) == 2
    out, err = capsys.readouterr()
    assert not out and err.count("\n") == 1
    assert "an experiment of Extra-P 3 (binary)" in err and "extrap --extra-p-3 " in err


def test_not_an_archive_or_not_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "t.extra-p"
    text.write_text("PARAMETER x\n")
    with pytest.raises(MeasurementError, match=r"t.extra-p: cannot read an Extra-P experiment .*File is not a zip file"):
        read(text)
    # fit's fast path for text files reads what read() reads: an archive, unless told otherwise
    text.write_text(ATOMS.read_text())
    assert main(["fit", str(text)]) == 2
    assert "t.extra-p: cannot read an Extra-P experiment" in capsys.readouterr().err
    assert main(["fit", str(text), "--input-format", "text"]) == 0
    assert re.findall(r"^(\w+):", capsys.readouterr().out, re.M) == ["nop", "inc", "qsort"]
    if hasattr(os, "mkfifo"):  # a FIFO named .extra-p is refused, not opened (no writer: it would block)
        os.mkfifo(tmp_path / "f.extra-p")
        with pytest.raises(MeasurementError, match=r"read from a file \(a ZIP archive\) or standard input, not a stream"):
            read(tmp_path / "f.extra-p")


def test_an_experiment_on_standard_input_is_read_when_named(monkeypatch: pytest.MonkeyPatch) -> None:
    saved = SAVED / "atoms_values.extra-p"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(saved.read_bytes())))
    assert by_series(read("-", "extra-p")).keys() == by_series(read(saved)).keys()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(saved.read_bytes())))
    with pytest.raises(MeasurementError, match=r"^<stdin>: .*NUL byte.*: an Extra-P experiment there is read with format=extra-p$"):
        read("-")
    monkeypatch.setattr("sys.stdin", io.StringIO("PK"))  # a text stream: no bytes to open
    with pytest.raises(MeasurementError, match=r"^<stdin>: an Extra-P experiment is a ZIP archive: standard input gives text$"):
        read("-", "extra-p")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cut=st.integers(0, 10561), flip=st.integers(0, 10561), byte=st.integers(0, 255))
def test_any_cut_or_changed_byte_is_read_or_one_error(cut: int, flip: int, byte: int) -> None:
    data = bytearray((SAVED / "atoms_values.extra-p").read_bytes())
    data[flip % len(data)] = byte
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"pa-{os.getpid()}-{cut}-{flip}.extra-p"
    path.write_bytes(bytes(data[: max(cut, 1)]))
    try:
        read(path)
    except MeasurementError as error:
        assert str(error).startswith(str(path)) and "\n" not in str(error)
    finally:
        path.unlink()


# --- Extra-P's legacy JSON (ids), checked against Extra-P's own reading of it --------------


def repetitions(ms: Measurements) -> dict[tuple[str, str], tuple[list[list[float]], list[list[float]]]]:
    return {(s.kernel, s.metric): (s.points.tolist(), [sorted(v.tolist()) for v in s.values]) for s in ms}


@pytest.mark.parametrize("n", [1, 4, 5])
def test_legacy_json_reads_as_extrap_reads_it(n: int) -> None:
    legacy, theirs = read(EXTRAP / "json" / f"input_{n}.JSON"), read(SAVED / f"legacy_input_{n}.extra-p")
    assert legacy.format == "json" and legacy.parameters == theirs.parameters
    assert repetitions(legacy) == repetitions(theirs) and len(repetitions(legacy)) == {1: 1, 4: 4, 5: 1}[n]


def test_legacy_json_ids_name_entries_and_a_coordinate_may_have_no_values(tmp_path: Path) -> None:
    # Extra-P refuses input_11 (4 measurements for 5 coordinates); a point is only where values are
    (series,) = read(EXTRAP / "json" / "input_11.JSON")
    assert series.points[:, 0].tolist() == [4.0, 8.0, 16.0, 32.0]
    doc = json.loads((EXTRAP / "json" / "input_1.JSON").read_text())
    doc["measurements"][3]["callpath_id"] = 7
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(MeasurementError, match=r"bad.json: measurements\[3\].callpath_id: 'callpath_id' 7 names no entry of its list"):
        read(path)


def test_extrap_s_own_models_are_notes_beside_ours() -> None:
    notes = read(EXTRAP / "experiments" / "two_parameter3.txt.extra-p").notes
    assert (
        "Extra-P's own model of merge (time), 'Default Model': "
        "1.374 + 6.698*log2(y) + 0.04384*x**(3/2)*log2(x)**2*log2(y)"
    ) in notes
    kept = read(SAVED / "atoms_values.extra-p").notes  # made by Extra-P 4.2.5's default modeler
    assert "Extra-P's own model of qsort (time), 'New model': 51140 + 4.499*x*log2(x)" in kept


def test_many_own_models_are_counted_after_the_first_few() -> None:
    from patternalg.measurements.experiment import MAX_OWN_MODELS, own_models

    model = {"hypothesis": {"function": {"constant_coefficient": 1.0, "compound_terms": []}}}
    odd = {"hypothesis": {"function": {"$type": "SegmentedFunction"}}}
    models = {f"k{i}": {"time": model} for i in range(MAX_OWN_MODELS + 3)} | {"s": {"time": odd}}
    notes = own_models({"modelers": [{"name": "m", "models": models}]}, ("x",))
    assert len(notes) == MAX_OWN_MODELS + 1 and notes[0] == "Extra-P's own model of k0 (time), 'm': 1"
    assert notes[-1].startswith("4 more of Extra-P's own models")
