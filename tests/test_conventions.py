"""The command-line conventions a new user expects (issue 16)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import patternalg
from patternalg.cli import main


def test_version(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"patternalg {patternalg.__version__}\n"


def test_explain_goes_inside_the_json(capsys) -> None:
    assert main(["eval", "pipe(tpool_4(qsort), inc)", "--format", "json", "--explain"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert captured.err == ""
    assert data["explain"][0].startswith("pipe  =  258.5425*x*log2(x)")
    assert any("qsort" in line for line in data["explain"][1:])


def test_check_takes_a_builtin_law_by_id(capsys) -> None:
    assert main(["check", "seq_comm", "--seed", "0", "--examples", "3"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].split()[:2] == ["seq_comm", "seq(A,"]
    assert main(["check", "seq_com"]) == 2
    assert "unknown law id 'seq_com'; did you mean 'seq_comm', 'seq_assoc', 'pipe_comm'? (valid: pipe_assoc" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("term", "hint"),
    [
        ("tpool4(qsort)", "did you mean tpool_4(T)?"),
        ("Pipe(qsort, inc)", "did you mean pipe(T, T, ...)?"),
        ("pipeline(qsort, inc)", "did you mean pipe(T, T, ...)?"),
        ("mapReduce(qsort, inc)", "did you mean mapReduce_{m,n}^{d,k}(map, reduce)?"),
        ("SEQ(qsort, inc)", "did you mean seq(T, T, ...)?"),
    ],
)
def test_did_you_mean_for_pattern_names(term: str, hint: str, capsys) -> None:
    assert main(["eval", term]) == 2
    assert hint in capsys.readouterr().err


def test_a_model_file_replacing_a_builtin_gets_a_note(tmp_path: Path, capsys) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('[models.qsort]\nmodel = "2*x"\n[models.fresh]\nmodel = "x"\n')
    assert main(["eval", "seq(qsort, fresh)", "--models", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "3*x\n"
    assert captured.err == f"note: {path} replaces the built-in model(s) qsort\n"


def test_a_search_verdict_says_it_is_a_search(capsys) -> None:
    # the law is false, but the search may miss it: it must not claim the law holds
    law = "pipe(tpool_n(A), B) <= pipe(A, B)"
    main(["check", law, "--seed", "0", "--examples", "5", "--semantics", "asymptotic"])
    out = capsys.readouterr().out
    row = out.splitlines()[1]
    assert "no counterexample in " in row or "refuted" in row
    assert " holds " not in row and "(seed 0," in out


def test_values_print_without_float_noise_and_digits_rounds(capsys) -> None:
    assert main(["eval", "inc", "--at", "x=100"]) == 0
    assert capsys.readouterr().out == "53618.5 ns\n"  # 536.185 * 100 is 53618.49999999999 in floats
    assert main(["eval", "pipe(tpool_4(qsort), inc)", "--at", "x=1024", "--digits", "3"]) == 0
    assert capsys.readouterr().out == "2650000 ns\n"  # a whole number without .0
    assert main(["eval", "inc", "--at", "x=1000"]) == 0
    assert capsys.readouterr().out == "536185 ns\n"  # issue 40: was 536185.0 ns
    with pytest.raises(SystemExit) as stop:  # argparse: a usage error, one line, status 2
        main(["eval", "inc", "--at", "x=100", "--digits", "0"])
    assert stop.value.code == 2
