"""``fit``'s fast path (a regular Extra-P text file streamed in batches) and its reference path
(``read`` then ``fit_each``) print, write and say the same for the same input: the same bytes,
notes, warnings, errors and exit status (issue of the probe at scale)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers import run_cli

import patternalg
import patternalg.commands.fit as fit_command
from patternalg.algebra.machine import Machine
from patternalg.errors import FitError, MeasurementError
from patternalg.forms.pmnf import PMNF
from patternalg.library import ModelLibrary
from patternalg.measurements import read

HEADER = "PARAMETER x\nPOINTS 2 4 8 16\nMETRIC time\n"
ONE = HEADER + "REGION k0\nDATA 2 2.1\nDATA 4 4.1\nDATA 8 8.2\nDATA 16 16.1\n"


def _fit(monkeypatch: pytest.MonkeyPatch, path: Path, *args: str, fast: bool) -> tuple:
    """``fit PATH ARGS --out M.toml`` on one path: its status, stdout, stderr, model file,
    and whether the fast path fitted it."""
    out = path.with_name(f"{path.stem}.{fast}.toml")
    taken = []
    with monkeypatch.context() as patch:
        if fast:
            original = fit_command._fit_batches
            patch.setattr(
                fit_command, "_fit_batches", lambda *a: taken.append(original(*a)) or taken[-1]
            )
        else:
            patch.setattr(fit_command, "_fit_batches", lambda *a: None)
        result = run_cli("fit", str(path), "--out", str(out), *args)
    model = out.read_bytes() if out.exists() else None
    return result.returncode, result.stdout, result.stderr, model, bool(taken and taken[0])


def _same(monkeypatch: pytest.MonkeyPatch, path: Path, *args: str) -> tuple:
    """What both paths give (asserted the same); whether the fast path took the file."""
    fast = _fit(monkeypatch, path, *args, fast=True)
    reference = _fit(monkeypatch, path, *args, fast=False)
    assert fast[:4] == reference[:4]
    return fast


def _kernels(count: int, small: int = 0) -> str:
    """A regular text file of ``count`` kernels, the first ``small`` with every value below 1."""
    lines = [HEADER.rstrip("\n").replace("POINTS 2 4 8 16", "POINTS 2 4 8")]
    for k in range(count):
        scale = 0.01 if k < small else 100.0
        lines.append(f"REGION k{k}")
        lines += [f"DATA {scale * p * 1.01!r} {scale * p * 0.99!r}" for p in (2, 4, 8)]
    return "\n".join(lines) + "\n"


def test_more_than_auto_linear_kernels_say_none_was_recorded_on_both_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above 10,000 kernels the fast path said 'their uncertainty by the linear method'
    (its first batch's count), both paths 'every kernel without an uncertainty: the data do
    not determine ...' (auto chose none), and the fast path 'every value is below 1' from its
    first batch alone (the last kernel's values are about 1,600)."""
    path = tmp_path / "many.txt"
    path.write_text(_kernels(10_001, small=10_000))
    status, _, err, model, fast = _same(monkeypatch, path)
    assert status == 0 and fast and model is not None and b"uncertainty" not in model
    assert "more than 10,000 kernels: no uncertainty recorded" in err
    assert "linear method" not in err and "without an uncertainty" not in err
    assert "below 1" not in err and "the times (time) name no unit" in err


@pytest.mark.parametrize(
    "text",
    [
        ONE.replace("REGION k0", "REGION k0\0"),
        ONE.replace("REGION k0", "# a comment\0\nREGION k0"),
        ONE.replace("PARAMETER x", "PARAMETER x\0"),
        ONE + "REGION k1\nDATA 2 2\0\nDATA 4 4\nDATA 8 8\nDATA 16 16\n",
    ],
)
def test_a_nul_byte_is_refused_on_both_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """The fast path fitted a kernel named 'k0\\u0000'; the reference refuses the file."""
    path = tmp_path / "nul.txt"
    path.write_text(text)
    status, out, err, model, _ = _same(monkeypatch, path)
    assert (status, out, model) == (2, "", None)
    assert f"not a text file (a NUL byte at byte {text.index(chr(0))})" in err


def test_a_parameter_named_like_a_time_is_warned_of_on_both_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ptime.txt"
    path.write_text(ONE.replace("PARAMETER x", "PARAMETER time_s"))
    status, _, err, _, fast = _same(monkeypatch, path, "--quiet")
    assert status == 0 and fast
    assert err.startswith(f"warning: {path}:1: the parameter 'time_s' looks like a time")


@pytest.mark.parametrize("metric", ["", "METRIC\n"])
def test_a_file_without_a_metric_names_its_value_on_both_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, metric: str
) -> None:
    path = tmp_path / "nometric.txt"
    path.write_text(ONE.replace("METRIC time\n", metric))
    status, _, err, _, fast = _same(monkeypatch, path)
    assert status == 0 and fast and f"{path}: the times (value) name no unit" in err
    assert _same(monkeypatch, path, "--format", "json")[0] == 0  # the record's metric: ""


@pytest.mark.parametrize("declared", ["x", "X"])
def test_parameters_naming_the_files_own_keep_the_fast_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, declared: str
) -> None:
    path = tmp_path / "m.txt"
    path.write_text(_kernels(3))
    assert _same(monkeypatch, path, "--parameters", declared)[4]
    assert not _same(monkeypatch, path, "--parameters", "x,rep")[4]


def test_a_file_name_that_is_not_utf8_is_the_same_json_on_both_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fast path printed the name's byte as a lone surrogate, which JSON readers refuse."""
    path = Path(os.fsdecode(bytes(tmp_path) + b"/bad\xff.txt"))
    try:
        path.write_text(ONE.replace("METRIC time", "METRIC time_s"))  # no note naming the file
    except (OSError, UnicodeEncodeError):
        pytest.skip("the file system takes no such name")
    status, out, _, _, fast = _same(monkeypatch, path, "--format", "json")
    assert status == 0 and fast
    assert json.loads(out.encode())[0]["file"].endswith("bad\\xff.txt")


@pytest.mark.parametrize(
    "options",
    [
        {"modeler": "bogus"},
        {"uncertainty": "lineer"},
        {"aggregate": "avg"},
        {"param": ("y=z",)},
        {"bogus": 1},
    ],
)
def test_fit_batches_raises_fit_eachs_errors_for_bad_options(tmp_path: Path, options: dict) -> None:
    """It raised a bare Irregular('') for each."""
    path = tmp_path / "m.txt"
    path.write_text(ONE)
    with pytest.raises(FitError) as each:
        PMNF.fit_each(read(path), **options)
    with pytest.raises(FitError) as batches:
        list(PMNF.fit_batches(str(path), **options))
    assert str(batches.value) == str(each.value)


@pytest.mark.parametrize(
    "name, text",
    [
        ("m.csv", "kernel,x,time\nk,2,2\nk,4,4\nk,8,8\n"),
        ("twice.txt", ONE + ONE[len(HEADER) :]),
        ("nan.txt", ONE.replace("DATA 2 2.1", "DATA 2 nan")),
        ("header.txt", HEADER),
    ],
)
def test_fit_batches_refuses_a_file_it_does_not_fit_with_a_measurement_error(
    tmp_path: Path, name: str, text: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(MeasurementError, match="fit this one with PMNF.fit_each"):
        list(PMNF.fit_batches(str(path)))


def test_a_fitted_nop_says_it_passes_its_data_untouched_on_both_paths_and_in_the_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``nop``, as patterns.cpp measures it, is the built-in ``nop``: its fit says
    ``touches_data = false`` (both paths alike, and ``patternalg.fit``), so a pipeline stage
    of it pays no hand-off with ``--models`` as without. Before, the fitted ``nop`` paid the
    hand-off: ``pipe(tpool_2(nop), nop)`` on data23's machine was 1,173 ns with the fitted
    models where the built-in gives 294."""
    path = tmp_path / "atoms.txt"
    path.write_text(HEADER + "REGION nop\nDATA 40 41\nDATA 40 39\nDATA 41 40\nDATA 40 40\n"
                    "REGION inc\nDATA 8 8.1\nDATA 16 16.2\nDATA 32 31.9\nDATA 64 64.1\n")  # fmt: skip
    status, _, stderr, model, fast = _same(monkeypatch, path)
    assert status == 0 and fast and model is not None
    assert "nop: touches_data = false, as the built-in nop's" in stderr and "inc: touches" not in stderr
    library = ModelLibrary.from_file(path.with_name("atoms.True.toml"))
    assert library["nop"].touches_data is False and library["inc"].touches_data is True
    assert library["nop"].to_toml()["touches_data"] is False  # it writes what it read
    fitted = patternalg.fit(str(path))
    assert fitted["nop"].touches_data is False and fitted["inc"].touches_data is True
    assert any("nop: touches_data = false" in note for note in fitted.notes)
    handoff = Machine(2, handoff=1000)
    for lib in (library, fitted):  # the stage of nop receives without paying: inc's time bounds it
        value = float(patternalg.model("pipe(inc, nop)", library=lib, machine=handoff, x=16))
        assert value == pytest.approx(float(patternalg.model("inc", library=lib, x=16)), rel=1e-9)  # not nop's 40 + 1000
