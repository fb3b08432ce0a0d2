"""Every file a command writes goes through one check and one writer (issue 29, finding 18):
never over the command's own input, never an empty name, a symbolic link written through
to its target, a device or a pipe never replaced, no temporary file left by a SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from helpers import ROOT

from patternalg._internal.atomic_write import write_text_atomic
from patternalg.cli import main
from patternalg.library.model_library import ModelLibrary

pytest.importorskip("matplotlib")

MEASURED = "x,time\n" + "".join(f"{x},{3 * x + 5}\n" for x in (1, 2, 4, 8, 16, 32))
THREADS = "p,time\n1,100\n2,55\n4,32\n8,21\n16,16\n"

#: each command that writes a file: its arguments with the input IN and the output OUT
WRITERS = {
    "fit": (MEASURED, ["fit", "IN", "--input-format", "csv", "--out", "OUT"]),
    "predict": (THREADS, ["predict", "IN", "--out", "OUT"]),
    "plot": (MEASURED, ["plot", "--fit", "IN", "--input-format", "csv", "-o", "OUT"]),
}


def _run(name: str, data: Path, out: str) -> int:
    _, argv = WRITERS[name]
    return main(["-q", *[str(data) if a == "IN" else out if a == "OUT" else a for a in argv]])


def _input(tmp_path: Path, name: str, suffix: str) -> Path:
    path = tmp_path / f"data{suffix}"
    path.write_text(WRITERS[name][0])
    return path


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_no_command_writes_over_its_input(tmp_path, capsys, name) -> None:
    data = _input(tmp_path, name, ".png" if name == "plot" else ".toml")
    before = data.read_text()
    assert _run(name, data, str(data)) == 2
    assert "it is the input being read" in capsys.readouterr().err
    assert data.read_text() == before


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_no_command_writes_over_the_file_on_its_standard_input(tmp_path, capsys, name) -> None:
    """``fit - --out s.csv < s.csv`` replaced s.csv with the models (rc 0): ``-`` was never
    compared with the output; it is the file redirected to it."""
    data = _input(tmp_path, name, ".png" if name == "plot" else ".toml")
    before = data.read_text()
    saved = os.dup(0)
    try:
        with open(data) as handle:
            os.dup2(handle.fileno(), 0)
        assert _run(name, Path("-"), str(data)) == 2
    finally:
        os.dup2(saved, 0)
        os.close(saved)
    assert "it is the input being read" in capsys.readouterr().err
    assert data.read_text() == before


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_an_empty_output_name_is_an_error(tmp_path, capsys, name) -> None:
    assert _run(name, _input(tmp_path, name, ".csv"), "") == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "''" in line or "(none)" in line


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_a_symbolic_link_is_written_through(tmp_path, name) -> None:
    suffix = ".png" if name == "plot" else ".toml"
    target = tmp_path / f"real{suffix}"
    target.write_text("old\n")
    link = tmp_path / f"link{suffix}"
    link.symlink_to(target.name)
    assert _run(name, _input(tmp_path, name, ".csv"), str(link)) == 0
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_bytes() != b"old\n" and target.stat().st_size > 10


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("name", sorted(WRITERS))
def test_a_pipe_or_a_device_is_never_replaced(tmp_path, capsys, name) -> None:
    suffix = ".png" if name == "plot" else ".toml"
    fifo = tmp_path / f"pipe{suffix}"
    os.mkfifo(fifo)
    link = tmp_path / f"stdout{suffix}"
    link.symlink_to(fifo)  # like /dev/stdout -> /proc/self/fd/1 -> a pipe
    for out in (fifo, link):
        assert _run(name, _input(tmp_path, name, ".csv"), str(out)) == 2
        assert "not a regular file" in capsys.readouterr().err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data.csv", fifo.name, link.name]


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name == "nt", reason="POSIX signals")
def test_a_sigterm_while_writing_leaves_no_temporary_file(tmp_path) -> None:
    """The process ends as SIGTERM ends it, the old file whole, no ``.tmp`` beside it."""
    out = tmp_path / "m.toml"
    out.write_text("old = 1\n")
    script = textwrap.dedent(
        f"""
        import os, signal
        from patternalg._internal.atomic_write import atomic_writer
        with atomic_writer({str(out)!r}) as handle:
            handle.write("new = 1\\n")
            os.kill(os.getpid(), signal.SIGTERM)
            handle.write("never = 1\\n")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == -signal.SIGTERM
    assert out.read_text() == "old = 1\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.toml"]
    before = signal.getsignal(signal.SIGTERM)
    write_text_atomic(out, "new = 1\n")
    assert signal.getsignal(signal.SIGTERM) == before  # the handler is the writer's only while it writes


def test_an_input_whose_name_is_not_utf8_is_recorded_by_its_bytes(tmp_path: Path) -> None:
    """fit of a file named b'n\\xffame.txt' --out ok.toml failed: 'cannot write ok.toml: the
    text is not valid UTF-8 (a lone surrogate)', from the name recorded as the source."""
    data = tmp_path / os.fsdecode(b"n\xffame.txt")
    data.write_text("PARAMETER x\nPOINTS 1 2 4 8 16\nREGION k\nMETRIC time\n" + "".join(f"DATA {3 * v} {3 * v + 0.1}\n" for v in (1, 2, 4, 8, 16)))
    out = tmp_path / "ok.toml"
    assert main(["fit", str(data), "--out", str(out), "-q"]) == 0
    assert "n\\\\xffame.txt" in out.read_text(encoding="utf-8")
    assert ModelLibrary.from_file(out)["k"].source.endswith("n\\xffame.txt, kernel 'k', metric 'time'")


def test_json_output_writes_a_non_utf8_name_as_the_model_file_does(tmp_path: Path, capsys) -> None:
    """validate --format json wrote "bad\\udcff.csv" (a lone surrogate, which strict JSON
    readers refuse) where the model file writes bad\\xff.csv."""
    data = tmp_path / os.fsdecode(b"bad\xff.csv")
    data.write_text(MEASURED)
    models = tmp_path / "m.toml"
    assert main(["-q", "fit", str(data), "--out", str(models)]) == 0
    capsys.readouterr()
    assert main(["-q", "validate", str(data), "--models", str(models), "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert "\\udc" not in out and "bad\\\\xff.csv" in out
    assert json.loads(out)["files"] == [str(data.parent / "bad\\xff.csv")]


def test_an_error_names_a_non_utf8_file_as_its_bytes(tmp_path: Path, capsys) -> None:
    """stderr named a\\udcffb.csv (Python's lone surrogate for the byte) where the model
    file and JSON write a\\xffb.csv: one spelling of the byte everywhere."""
    data = tmp_path / os.fsdecode(b"a\xffb.csv")
    data.write_text("x,time\n1,2\n")
    assert main(["fit", str(data)]) == 2
    err = capsys.readouterr().err
    assert "\\udc" not in err and "a\\xffb.csv:2:" in err and err.count("\n") == 1


def test_a_legal_long_output_name_is_written(tmp_path: Path) -> None:
    """Names of 242-255 bytes were refused ('File name too long'): the temporary file beside
    them added 14 characters to the name, and measure's journal 8."""
    data = _input(tmp_path, "fit", ".csv")
    for name in ("c" * 255, "é" * 127):  # 255 and 254 bytes
        out = tmp_path / name
        assert main(["-q", "fit", str(data), "--input-format", "csv", "--out", str(out)]) == 0
        assert out.read_text().startswith("format = 1")
        out.unlink()
        command = f"{sys.executable} -c pass {{x}}"
        assert main(["-q", "measure", "--over", "x=1,2", "--warmup", "0", "--out", str(out), command]) == 0
        assert out.read_text().startswith("# measured by patternalg measure")
        assert sorted(tmp_path.iterdir()) == sorted([data, out])
        out.unlink()
