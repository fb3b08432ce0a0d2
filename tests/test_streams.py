"""The standard streams as a command finds them: closed (``<&-``, ``>&-``, ``2>&-``) or
ASCII-only (``PYTHONIOENCODING=ascii``). Each was a traceback or a silent exit 1 before
(``'NoneType' object has no attribute 'isatty'`` / ``'write'`` / ``'buffer'``,
``UnicodeEncodeError`` on the ``²`` of "R²")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, run_cli

from patternalg.cli import main

MEASURED = "x,time\n" + "".join(f"{x},{3 * x + 5 + x % 3}\n" for x in (1, 2, 4, 8, 16, 32, 64))


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "m.csv"
    path.write_text(MEASURED)
    return path


def test_a_closed_stderr_runs_the_command_as_ever(data, monkeypatch, capsys) -> None:
    """fit exited 1 with nothing printed and no file written (progress asked stderr isatty)."""
    monkeypatch.setattr(sys, "stderr", None)
    out = data.with_name("o.toml")
    assert main(["fit", str(data), "--out", str(out)]) == 0
    assert out.read_text().startswith("format = 1") and "*x + " in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["eval", "qsort", "--format", "json"], ["models"]])
def test_a_closed_stdout_where_output_is_due_is_one_error(argv, monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdout", None)
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.endswith("error: standard output is closed (>&-): the output has nowhere to go; "
                         "give the command a standard output (a file, a pipe or /dev/null)")


@pytest.mark.parametrize(("argv", "what"), [(["fit", "-"], "measurements"), (["eval", "-"], "the term")])
def test_a_closed_stdin_read_is_one_error(argv, what, monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert f"cannot read {what}" in line and line.endswith("standard input is closed (<&-)")


@pytest.mark.skipif(os.name != "posix", reason="a POSIX shell closes the descriptors")
def test_closed_descriptors_in_a_process(data) -> None:
    """With stdin and stderr closed, fit writes its file and prints its models."""
    out = data.with_name("o.toml")
    done = subprocess.run(
        ["sh", "-c", 'exec "$@" <&- 2>&-', "sh", sys.executable, "-m", "patternalg.cli",
         "fit", str(data), "--out", str(out)],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0 and "*x + " in done.stdout
    assert out.read_text().startswith("format = 1")


def test_an_ascii_stdout_spells_r_squared_in_ascii(data) -> None:
    done = run_cli("fit", str(data), "-q", env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0 and done.stderr == ""
    assert "adjusted R^2 " in done.stdout and "R²" not in done.stdout
