"""Domains (extrapolation, x below 1, negative values), inputs checked against intent, and
fit quality shown per kernel: each bug of issue 11 pinned with its right answer and message."""

from __future__ import annotations

import json

import pytest
from helpers import run_cli

from patternalg.library.model_library import ModelLibrary
from patternalg.syntax.arith import number_text


@pytest.fixture
def sort_ms(tmp_path):
    """A sort measured in ms (column time_ms) on x = 1000..32000, 2.5 ms per 1000 elements."""
    path = tmp_path / "sort.csv"  # the atom is named after the file
    rows = "".join(f"{x},{x * 0.0025:g}\n" for x in (1000, 2000, 4000, 8000, 16000, 32000))
    path.write_text("x,time_ms\n" + rows)
    return path


def test_fit_reads_the_unit_from_the_column_name_and_shows_fit_quality(sort_ms, tmp_path):
    out = tmp_path / "m.toml"
    result = run_cli("fit", str(sort_ms), "--out", str(out))
    assert result.returncode == 0
    first, second = result.stdout.splitlines()[:2]
    assert first.startswith("sort: 0.0025*x") and first.endswith("[ms]")
    assert second.startswith("  SMAPE 0.00%, adjusted R² 1.0000, RSS ")
    assert second.endswith("x in [1000, 32000], 6 points")
    model = ModelLibrary.from_file(out)["sort"]
    assert model.unit == "ms" and model.ranges == {"x": (1000.0, 32000.0)}


@pytest.mark.parametrize(
    ("column", "unit"), [("time_ms", "ms"), ("runtime[s]", "s"), ("t (us)", "us"), ("time", "ns")]
)
def test_fit_reads_every_spelling_of_a_unit_in_the_column_name(tmp_path, column, unit):
    path, out = tmp_path / "m.csv", tmp_path / "m.toml"
    path.write_text(f"x,{column}\n" + "".join(f"{x},{3 * x}\n" for x in (1, 2, 4, 8, 16)))
    assert run_cli("fit", str(path), "--out", str(out)).returncode == 0
    assert ModelLibrary.from_file(out)["m"].unit == unit


def test_fit_unit_is_checked(sort_ms, tmp_path):
    bad = run_cli("fit", str(sort_ms), "--unit", "s")
    assert bad.returncode == 2
    assert "--unit s contradicts the value column's unit ms" in bad.stderr
    plain = tmp_path / "t.csv"
    plain.write_text(sort_ms.read_text().replace("time_ms", "time"))
    furlongs = run_cli("fit", str(plain), "--unit", "furlongs")
    assert furlongs.returncode == 2 and furlongs.stderr == (
        "patternalg fit: error: --unit furlongs: a length, not a time (valid: ns, us, ms, s, min)\n"
    )


def test_fitted_ms_composes_with_ns_and_notes_extrapolation(sort_ms, tmp_path):
    out = tmp_path / "m.toml"
    run_cli("fit", str(sort_ms), "--out", str(out))
    inside = run_cli("eval", "seq(sort, inc)", "--models", str(out), "--at", "x=2000")
    assert inside.stdout == f"{number_text(2000 * 2.5e3 + 2000 * 536.185)} ns\n"  # 6072370 ns
    assert "extrapolated" not in inside.stderr
    outside = run_cli(
        "eval", "seq(sort, inc)", "--models", str(out), "--at", "x=100000", "--format", "json"
    )
    data = json.loads(outside.stdout)
    assert data["extrapolated"] == {"x": [1000.0, 32000.0]} and data["unit"] == "ns"
    assert any("x = 100000 is outside the measured range of sort" in n for n in data["notes"])


def test_extrapolation_in_an_annotated_symbol(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text('[models.k]\nmodel = "x / p"\ndomain = {x = [1, 1000], p = [1, 8]}\n')
    result = run_cli("eval", "k[p=16]", "--models", str(path), "--at", "x=10", "--format", "json")
    assert json.loads(result.stdout)["extrapolated"] == {"p": [1.0, 8.0]}


def test_x_below_one_and_negative_times_are_reported():
    # qsort = 1034.17*x*log2(x) is negative for x < 1: the bug printed it as if fine
    result = run_cli("eval", "qsort", "--at", "x=0.5")
    assert result.stdout == "-517.085 ns\n"
    assert "note: x = 0.5 is below 1" in result.stderr
    assert "note: the value -517.085 ns is negative" in result.stderr
    assert "note:" not in run_cli("eval", "qsort", "--at", "x=2").stderr


def test_an_unused_parameter_column_is_an_error_naming_the_form_that_uses_it(tmp_path):
    path = tmp_path / "xp.csv"
    rows = "".join(f"{x},{p},{x / p}\n" for x in (1000, 2000, 4000, 8000, 16000) for p in (1, 2))
    path.write_text("x,p,time\n" + rows)
    result = run_cli("fit", str(path), "--form", "presca")  # presca: threads only, x unused
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(
        f"patternalg fit: error: {path}:1: column 'x' is not used by --form presca (it fits p); "
        "--form amdahl fits x and p"
    )
    assert run_cli("fit", str(path), "--form", "amdahl").returncode == 0


def test_nonpositive_times_are_an_error_with_their_line(tmp_path):
    path = tmp_path / "neg.csv"
    path.write_text("x,time\n1000,5\n2000,-10\n4000,20\n8000,40\n16000,0\n")
    result = run_cli("fit", str(path))
    assert result.returncode == 2
    assert f"{path}:3: kernel" in result.stderr and "the time -10 is not positive" in result.stderr
    allowed = run_cli("fit", str(path), "--allow-nonpositive")
    assert allowed.returncode == 0
    assert "note:" in allowed.stderr and "2 such value(s)" in allowed.stderr


def test_columns_named_against_their_role_get_a_warning(tmp_path):
    path = tmp_path / "swapped.csv"
    path.write_text("time_total,size\n5,1000\n10,2000\n20,4000\n40,8000\n80,16000\n")
    result = run_cli("fit", str(path))
    assert "warning: " in result.stderr
    assert "the value column 'size' looks like a size" in result.stderr
    assert "the parameter 'time_total' looks like a time" in result.stderr


def test_models_takes_glob_patterns_and_shows_statistics():
    result = run_cli("models", "parsec_b*", "--format", "json")
    rows = json.loads(result.stdout)
    assert [r["name"] for r in rows] == ["parsec_blackscholes", "parsec_bodytrack"]
    assert rows[0]["statistics"]["mse"] == pytest.approx(0.0021)
    text = run_cli("models", "parsec_blackscholes").stdout.splitlines()
    assert text[1].strip() == "MSE 0.0021 T1², 322 points"
    missing = run_cli("models", "parsek_*")
    assert missing.returncode == 2 and "no model matches 'parsek_*'" in missing.stderr
    nothing = run_cli("models", "zz*")
    assert nothing.stderr.strip() == (
        "patternalg models: error: no model matches 'zz*'; "
        "`patternalg models` without a pattern lists them all"
    )


def test_atoms_extrapolated_alike_share_one_note():
    # a profile's term evaluated at a new p leaves the range of every node's model at once
    from patternalg.algebra.domains import MAX_NAMED, Extrapolation, extrapolation_notes

    found = [Extrapolation(f"k{i}", "p", 343.0, 27.0, 216.0) for i in range(29)]
    (note,) = extrapolation_notes([*found, found[0]])
    named = ", ".join(f"k{i}" for i in range(MAX_NAMED))
    assert note == f"p = 343 is outside the measured range of {named} and {29 - MAX_NAMED} more atoms (p in [27, 216]): extrapolated"
