"""The command line, run as a user runs it."""

from __future__ import annotations

import json
import math

import pytest
from helpers import run_cli

from patternalg.cli import main


def test_eval_prints_the_closed_form():
    result = run_cli("eval", "pipe(tpool_4(qsort), inc)")
    assert result.returncode == 0
    assert result.stdout == "258.5425*x*log2(x)\n"


def test_eval_at_binds_and_prints_the_number_and_its_unit():
    result = run_cli("eval", "pipe(tpool_4(qsort), inc)", "--at", "x=1024")
    assert result.stdout.splitlines()[0] == "2647475.2 ns"


def test_eval_reads_stdin_and_files(tmp_path):
    assert run_cli("eval", "-", stdin="seq(inc, # comment\n nop)").stdout == "536.185*x + 5422.97\n"
    term = tmp_path / "design.term"
    term.write_text("tpool_n(qsort)\n")
    assert run_cli("eval", f"@{term}").stdout == "1034.17*x*log2(x)/n\n"


def test_eval_json_has_the_documented_keys():
    result = run_cli("eval", "tpool_n(qsort)", "--format", "json", "--at", "n=2")
    data = json.loads(result.stdout)
    assert data["term"] == "tpool_n(qsort)"
    assert data["model"] == "517.085*x*log2(x)"
    assert data["free_symbols"] == ["x"]
    assert data["semantics"] == "asymptotic" and data["value"] is None
    assert "log_{2}" in data["latex"]
    bound = json.loads(
        run_cli(
            "eval", "tpool_n(qsort)", "--format", "json", "--at", "n=2", "--at", "x=1024"
        ).stdout
    )
    assert bound["value"] == pytest.approx(517.085 * 1024 * 10)


def test_eval_exact_semantics_and_latex():
    assert (
        run_cli("eval", "pipe(inc, nop)", "--semantics", "exact").stdout
        == "max(5422.97, 536.185*x)\n"
    )
    assert (
        run_cli("eval", "qsort", "--format", "latex").stdout.strip()
        == r"1034.17 x \log_{2}{\left(x \right)} \; \mathrm{ns}"
    )


def test_eval_explain_shows_bottlenecks_and_sources():
    out = run_cli("eval", "pipe(tpool_4(qsort), inc)", "--explain").stdout
    lines = out.splitlines()
    assert lines[0] == "258.5425*x*log2(x)"
    assert lines[1].startswith("pipe  =  258.5425*x*log2(x)    [bottleneck: tpool_4(...)]")
    assert lines[3].startswith("    qsort  =  1034.17*x*log2(x)    [source: paper 001")
    assert "bottleneck: tpool_4(...)" in out
    assert "source: paper 001, Table 1, row 3" in out


def test_undecidable_pipe_says_so():
    result = run_cli("eval", "pipe(tpool_n(qsort), tpool_m(qsort))")
    assert result.stdout.startswith("max(")
    assert "could not be ordered asymptotically" in result.stderr


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["eval", "pipe(qsort,, inc)"], "syntax error"),
        (["eval", "pipe(qsrot, inc)"], "did you mean qsort?"),
        (["eval", "tpool_0(qsort)"], "positive integer, got 0"),
        (["eval", "tpool_-2(qsort)"], "syntax error"),
        (["eval", "tpool_n(qsort)", "--at", "n=0"], "must be a positive integer"),
        (["eval", "tpool_n(qsort)", "--at", "nn=4"], "the term has no symbol nn"),
        (["eval", "tpool_n(qsort)", "--at", "n"], "expected SYMBOL=VALUE"),
        (["eval", "qsort", "--models", "/does/not/exist.toml"], "cannot read model file"),
        (["eval", "tpool_{__import__('os').system('id')}(qsort)"], "syntax error"),
        (["eval", "@/does/not/exist"], "cannot read the term"),
        (["eval", "qsort", "--semantics", "fastest"], "invalid choice"),
        # a grid is of doubles: 1e-400 was the value 0 and a note that x = 0.0
        (["sweep", "qsort", "--over", "x=1e-400,1"], "'1e-400' is out of range"),
        (["sweep", "qsort", "--over", "x=1e-310..1:3"], "'1e-310' is out of range"),
        # a superscript is a digit to str.isdigit, not to int(): a ValueError's traceback (fuzz seed 148)
        (["sweep", "qsort", "--over", "x=2..10:3\u00b9"], "is neither a number of points nor lin/log"),
        (["eval", "tpool_2(qsort)", "--cores", "\u00b2"], "expected a whole number of cores"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, fragment):
    result = run_cli(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0]
    assert "Traceback" not in result.stderr


def test_debug_shows_the_traceback():
    result = run_cli("--debug", "eval", "pipe(qsrot, inc)")
    assert result.returncode == 2 and "Traceback" in result.stderr  # bad input: 2, as without it
    assert result.stderr.splitlines()[-1].startswith("patternalg eval: error: unknown atom 'qsrot'")


def test_models_lists_the_library(tmp_path):
    out = run_cli("models").stdout
    assert "qsort" in out and "1034.17*x*log2(x)" in out and "Table 1, row 3" in out
    extra = tmp_path / "m.toml"
    extra.write_text('[models.sortx]\nmodel = "2*x"\nsource = "mine"\n')
    rows = json.loads(
        run_cli("models", "--no-builtin", "--models", str(extra), "--format", "json").stdout
    )
    assert rows == [
        {"name": "sortx", "form": "expr", "model": "2*x", "unit": "ns", "source": "mine"}
    ]


def test_absurd_counts_keep_their_magnitude():
    # 1034.17 / 10^999 is far below double range; it must not print as 0.0
    assert run_cli("eval", "tpool_{10^999}(qsort)").stdout.startswith("1.03417e-996")
    # 10^1000 has 1,001 digits: printed, the term did not read back
    assert "more than 1000 digits" in run_cli("eval", "tpool_{10^1000}(qsort)").stderr


def test_a_value_beyond_a_double_is_printed_exactly_not_as_0_or_an_error():
    tiny = run_cli("eval", "qsort", "--at", "x=1e-400")  # was "-0.0 ns", with no note of its sign
    assert tiny.returncode == 0 and tiny.stdout == "-1.37417535115587e-394 ns\n"
    assert "the value -1.37417535115587e-394 ns is negative" in tiny.stderr
    huge = run_cli("eval", "qsort", "--at", "x=1e307")  # was "no finite real value there"
    assert huge.returncode == 0 and huge.stdout == "1.05467958201213e+313 ns\n"
    data = json.loads(run_cli("eval", "qsort", "--at", "x=1e307", "--format", "json").stdout)
    assert data["value"] is None and data["model"] == "1.0546795820121268e+313"
    in_range = json.loads(run_cli("eval", "qsort", "--at", "x=1e300", "--format", "json").stdout)
    assert in_range["value"] == pytest.approx(1034.17e300 * 300 * math.log2(10), rel=1e-12)


def test_the_main_help_lists_every_command_however_a_command_follows():
    """A sub-command after silent options gets its parser alone; wherever the main parser
    speaks (its help, --version, its errors) it still knows every sub-command."""
    from patternalg.cli import COMMANDS

    for words in (["--help"], ["-q", "--help", "eval"], ["--help", "fit"]):
        listed = run_cli(*words)
        assert listed.returncode == 0
        assert all(f"    {name}" in listed.stdout for name in COMMANDS), words
    assert run_cli("-q", "--debug", "eval", "qsort").stdout == "1034.17*x*log2(x)\n"
    wrong = run_cli("-q", "evall", "qsort")
    assert wrong.returncode == 2 and "invalid choice: 'evall'" in wrong.stderr
    assert "choose from 'eval', 'models'" in wrong.stderr
    assert wrong.stderr.endswith("; did you mean 'eval'? (see patternalg --help)\n")


def test_help_where_a_command_goes_is_the_help_of_what_follows_it():
    main_help, fit_help = run_cli("help"), run_cli("-q", "help", "fit")
    assert main_help.returncode == 0 and main_help.stdout == run_cli("--help").stdout
    assert fit_help.returncode == 0 and fit_help.stdout.startswith("usage: patternalg fit ")
    unknown = run_cli("help", "fitt")
    assert unknown.returncode == 2 and "invalid choice: 'fitt'" in unknown.stderr and "did you mean 'fit'?" in unknown.stderr
    assert "unknown atom 'help'" in run_cli("eval", "help").stderr  # a term named help is a term


@pytest.mark.parametrize(
    "args, line",
    [
        (
            ["fit", "x.txt", "--modeller", "basic"],
            "patternalg fit: error: unrecognized arguments: --modeller basic; did you mean "
            "--modeler? (see patternalg fit --help)",
        ),
        (
            ["eval", "qsort", "--fomrat=json"],
            "patternalg eval: error: unrecognized arguments: --fomrat=json; did you mean "
            "--format? (see patternalg eval --help)",
        ),
        (
            ["eval", "qsort", "inc"],
            "patternalg eval: error: unrecognized arguments: inc (see patternalg eval --help)",
        ),
        (
            ["predict", "t.csv", "--modeler", "basic"],  # no flag of predict's is close
            "patternalg predict: error: unrecognized arguments: --modeler basic "
            "(see patternalg predict --help)",
        ),
        (
            ["fit", "t.csv", "--form", "presca", "--lower-is-better"],  # predict's spelling
            "patternalg fit: error: unrecognized arguments: --lower-is-better; did you mean "
            "--better lower? (see patternalg fit --help)",
        ),
    ],
)
def test_a_word_the_command_does_not_take_is_its_error_with_the_closest_flag(args, line):
    """The command says so, not the main parser, and names the flag probably meant."""
    result = run_cli(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == line + "\n"


def test_a_recursion_error_anywhere_is_one_line_and_exit_2(monkeypatch):
    # the last guard: a sympy algorithm that recurses on an expression's depth somewhere the
    # closed-form fold does not catch it
    import patternalg.commands.eval as eval_command

    def too_deep(args):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(eval_command, "run", too_deep)
    done = run_cli("eval", "qsort")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "nests too deeply" in done.stderr


@pytest.mark.parametrize(
    "args",
    [["eval", "@red\u01ceuc\ud800e_p", "--format", "latex"], ["fit", "a\udfffb.txt"],
     ["eval", "inc", "--models", "m\ud800.toml"]],  # fmt: skip
)
def test_a_lone_surrogate_in_an_argument_is_one_line_and_exit_2(args, capsys):
    """``eval @red\u01ceuc\ud800e_p`` was a UnicodeEncodeError's traceback (fuzz_campaign seed
    151): no file name can hold a lone surrogate. A shell never passes one (undecodable
    bytes come as the escapes ``os`` encodes back), main([...]) from Python can."""
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert f"patternalg {args[0]}: error: the argument " in err and ", a lone surrogate, which no file name" in err


@pytest.mark.parametrize(
    "args",
    [["fit", "a\x00b.txt"], ["eval", "@term\x00.txt"], ["eval", "inc", "--models", "m\x00.toml"],
     ["plot", "inc", "-o", "a\x00b.png"]],  # fmt: skip
)
def test_a_nul_character_in_an_argument_is_one_line_and_exit_2(args, capsys):
    # never from a shell (argv holds C strings), but main([...]) from Python: the file
    # functions refuse such a path with a ValueError, which was a traceback (fuzz_campaign
    # seed 27, eval @FILE)
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert f"patternalg {args[0]}: error: the argument " in err and "holds a NUL character" in err


@pytest.mark.parametrize(
    "args",
    [
        ["compare", "tpool_4(qsort)", "inc", "--cores", "2"],
        ["sweep", "tpool_4(qsort)", "--over", "x=1..8:4", "--cores", "2"],
        ["optimize", "tpool_n(qsort)", "--budget", "n<=4", "--at", "x=1024", "--cores", "2"],
    ],
    ids=lambda a: a[0],
)
def test_quiet_decisions_print_no_notes(args):
    """``-q``: no notes on stderr (the decision commands printed theirs all the same)."""
    loud, quiet = run_cli(*args), run_cli(*args, "-q")
    assert loud.returncode == quiet.returncode == 0 and loud.stdout == quiet.stdout
    assert "note: machine semantics: 2 cores" in loud.stderr and quiet.stderr == ""


def test_standard_input_named_twice_is_refused() -> None:
    """validate - --models - read the measurements, then an empty model file: 'no
    [models.NAME] tables found', which named no real fault."""
    result = run_cli("validate", "-", "--models", "-", stdin="PARAMETER x\n")
    assert result.returncode == 2
    assert result.stderr == (
        "patternalg validate: error: standard input (-) is named 2 times; it can be read once: "
        "give the other inputs as files\n"
    )


def test_a_byte_order_mark_reads_in_every_text_input_as_in_measurements(tmp_path) -> None:
    """An editor's UTF-8 byte-order mark was read in measurement files but refused in a
    model file ('not valid TOML'), a machine file, a term file and a term on stdin."""
    bom = "\ufeff"
    models = tmp_path / "m.toml"
    models.write_text(bom + 'format = 1\n\n[models.k]\nform = "pmnf"\nmodel = "2*x"\nunit = "ns"\n', encoding="utf-8")
    machine = tmp_path / "machine.toml"
    machine.write_text(bom + "format = 1\n\n[machine]\ncores = 2\n", encoding="utf-8")
    term = tmp_path / "t.term"
    term.write_text(bom + "pipe(k, k)\n", encoding="utf-8")
    found = run_cli("eval", f"@{term}", "--models", str(models), "--machine", str(machine), "--at", "x=3", "-q")
    assert (found.returncode, found.stdout) == (0, "6 ns\n"), found.stderr
    piped = run_cli("eval", "-", "--models", str(models), "--at", "x=3", "-q", stdin=bom + "seq(k, k)\n")
    assert (piped.returncode, piped.stdout) == (0, "12 ns\n"), piped.stderr


def test_utf16_text_is_named_as_such(tmp_path) -> None:
    """A UTF-16 CSV was refused as 'not a text file (a NUL byte at byte 3)'."""
    path = tmp_path / "m.csv"
    path.write_text("x,time\n1,2\n2,4\n3,6\n", encoding="utf-16")
    found = run_cli("fit", str(path))
    assert found.returncode == 2 and found.stderr.endswith("UTF-16 text (its byte-order mark): save it as UTF-8\n")


def test_latin1_text_is_named_with_its_line_and_byte(tmp_path) -> None:
    """A Latin-1 CSV gave the codec's message, a byte offset in the file ("position 13")."""
    path = tmp_path / "lat.csv"
    path.write_bytes(b"x,time\n1024,5\xe9\n")
    found = run_cli("fit", str(path))
    assert (found.returncode, found.stderr) == (2, (
        f"patternalg fit: error: {path}: cannot read measurements: not UTF-8 text (byte 0xe9 on line 2, column 7): "
        "save it as UTF-8\n"
    ))


@pytest.mark.parametrize(
    "command",
    [
        ["eval", "qsort", "--at", "x=10"],
        ["sweep", "qsort", "--over", "x=1,10"],
        ["compare", "inc", "nop"],
        ["optimize", "tpool_a(qsort)", "--budget", "a<=4", "--at", "x=10"],
    ],
)
def test_json_says_the_machine_and_the_model_files_it_was_computed_with(tmp_path, command) -> None:
    """The notes the options give (the machine, a model file replacing a built-in) were on
    stderr only: the JSON said "semantics": "machine" and not which (probe Q)."""
    models = tmp_path / "m.toml"
    models.write_text('format = 1\n[models.qsort]\nmodel = "2*x"\nunit = "ns"\n')
    result = run_cli(*command, "--cores", "2", "--models", str(models), "--format", "json")
    assert result.returncode == 0, result.stderr
    notes = json.loads(result.stdout)["notes"]
    assert "machine semantics: 2 cores" in notes
    assert f"{models} replaces the built-in model(s) qsort" in notes
    assert len(notes) == len(set(notes))


@pytest.mark.parametrize(
    ("value", "said"),
    [("nan", "--at p=nan: line 1, column 1: nan is not a finite number"), ("1+", "--at p=1+: line 1, column 3: syntax error")],
)
def test_an_at_value_that_does_not_parse_is_quoted_in_its_error(value, said) -> None:
    """``--at p=nan`` said ``--at p=: ...``, as if no value had been given (probe S)."""
    result = run_cli("eval", "parsec_dedup", "--at", f"p={value}")
    assert result.returncode == 2 and result.stderr.startswith(f"patternalg eval: error: {said}"), result.stderr
