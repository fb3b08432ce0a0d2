"""Inputs a fuzzing campaign found crashing, hanging or slipping past the conventions (issue 16):
each is now one line on stderr, exit status 2, quickly."""

from __future__ import annotations

from pathlib import Path

import pytest

from patternalg.cli import main
from patternalg.library import ModelLibrary
from patternalg.errors import ModelFileError
from patternalg.limits import MAX_FILE_NESTING, printable, toml_nesting_problem

CASES = [  # (arguments, a fragment of the one error line)
    (["eval", "tpool_{10^5000}(qsort)"], "10^5000 has about 5e+03 digits (limit: 1000)"),
    (["eval", "qsort", "--at", "x=10^5000"], "10^5000 has about 5e+03 digits (limit: 1000)"),
    (["eval", "tpool_{" + "9" * 5000 + "}(qsort)"], "out of range (at most 1000 digits"),
    (["eval", "qsort", "--at", "x=(10^999)*(10^999)*(10^999)*(10^999)*(10^999)"],
     "an exact number has more than 1000 digits"),
    (["eval", "parsec_canneal[p=0]"], "p must be positive, got 0"),
    (["eval", "parsec_canneal", "--at", "p=0"], "p is a positive symbol; give a value > 0"),
    (["eval", "parsec_canneal", "--at", "phi=-1"], "phi is a positive symbol; give a value > 0"),
    (["eval", "qsort", "--at", "x=nan"], "nan is not a finite number and cannot be a symbol"),
    (["eval", "qsort", "--at", "x=inf"], "inf is not a finite number and cannot be a symbol"),
    (["eval", "tpool_{10^10^10}(qsort)"], "10^10000000000 has about 1e+10 digits"),
    (["eval", "qsort", "--at", "x=10^10^10"], "10^10000000000 has about 1e+10 digits"),
    (["eval", "qsort[p=2^(2^64)]"], "2^(a 20-digit integer) has about 5.55e+18 digits"),
    (["eval", "qsort[p=1e-999999999]"], "out of range"),
    (["eval", "qsort", "--at", "x=1e-999999999"], "out of range"),
    (["check", "seq(A, B) == seq(B, A)", "--examples", "100000000"],
     "--examples must be between 1 and 100,000"),
]


@pytest.mark.parametrize(("args", "fragment"), CASES)
def test_fuzz_findings_are_one_line_errors(args, fragment, capsys) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert fragment in line


MODEL_FILES = [  # (model expression, a fragment of the one error line)
    ("sqrt(-1)", "the model I is not real"),
    ("10^10^10", "10^10000000000 has about 1e+10 digits"),
    ("(x+1)^(10^6)", "exponent 1000000 is larger than 1000"),
    ("log2(x)^(10^10)", "exponent 10000000000 is larger than 1000"),
    ("2^x", None),  # fine in the file; too large only at a point (below)
]


@pytest.mark.parametrize(("model", "fragment"), MODEL_FILES)
def test_model_file_expressions_are_bounded(model, fragment, tmp_path: Path, capsys) -> None:
    path = tmp_path / "m.toml"
    path.write_text(f'[models.k]\nmodel = "{model}"\n')
    status = main(["eval", "k", "--models", str(path)])
    captured = capsys.readouterr()
    if fragment is None:
        assert status == 0 and captured.out == f"{model.replace('^', '**')}\n"
        assert main(["eval", "k", "--models", str(path), "--at", "x=10^10"]) == 2
        (line,) = capsys.readouterr().err.splitlines()
        assert "the value has about 3.01e+09 digits (limit: 1000)" in line
        return
    assert status == 2
    (line,) = captured.err.splitlines()
    assert fragment in line and "m.toml: models.k" in line


def test_deeply_nested_model_files_are_refused_before_tomllib_recurses(tmp_path: Path) -> None:
    deep = "a = " + "[" * 2000 + "]" * 2000 + "\n"
    path = tmp_path / "deep.toml"
    path.write_text(deep)
    with pytest.raises(ModelFileError, match=rf"deep.toml:1: .* deeper than {MAX_FILE_NESTING}"):
        ModelLibrary.from_file(path)
    nested_but_fine = "x = [" * MAX_FILE_NESTING + "]" * MAX_FILE_NESTING
    assert toml_nesting_problem(nested_but_fine) is None
    assert toml_nesting_problem(nested_but_fine.replace("x = ", 'x = "[" #[\n[')) is not None


def test_a_law_with_symbolic_mapreduce_sizes_is_checked(capsys) -> None:
    # used to raise KeyError: d (the per-key size symbol was never drawn)
    status = main(["check", "mapReduce_{1,1}^{d,1}(A, B) >= A", "--examples", "5", "--seed", "1"])
    assert status in (0, 1)
    assert "refuted" in capsys.readouterr().out


def test_check_leaves_no_hypothesis_folder_behind(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    main(["check", "seq(A, B) == seq(B, A)", "--examples", "3", "--seed", "0"])
    assert list(tmp_path.iterdir()) == []


def test_error_excerpts_escape_control_characters_and_elide_long_input(capsys) -> None:
    assert main(["eval", "a\x1b[31mred("]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "\x1b" not in line and "\\x1b[31m" in line
    assert main(["eval", "a" * 100_000]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "a" * 29 + "…" + "a" * 30 in line and len(line) < 200
    assert main(["eval", "seq(" + "b" * 100_000 + ", \x07)"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert len(line) < 300 and "\x07" not in line and "…" in line


def test_printable_is_one_visual_line() -> None:
    shown = printable("x\ny\r\u202ez" + "w" * 500)
    assert "\n" not in shown and "\r" not in shown and "\u202e" not in shown
    assert len(shown) == 60
