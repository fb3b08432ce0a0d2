"""Progress on stderr (issue 16): a bar on a terminal for slow commands, never in a pipe or a
file, never with ``--quiet``; the results on stdout are the same either way."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from patternalg.cli import main
from patternalg.commands import progress as progress_module

ROOT = Path(__file__).resolve().parent.parent


def _measurements(tmp_path: Path, kernels: int = 3) -> str:
    rows = ["kernel,x,time"] + [
        f"k{k},{x},{(k + 1) * x * (1 + 0.01 * (x % 3))}" for k in range(kernels) for x in (1, 2, 4, 8, 16)
    ]
    path = tmp_path / "m.csv"
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def _presca(tmp_path: Path) -> str:
    rows = ["kernel,p,time"] + [
        f"{w},{p},{100 / p + p * (1 + i)}" for i, w in enumerate("ab") for p in (1, 2, 4, 6, 8, 12)
    ]
    path = tmp_path / "p.csv"
    path.write_text("\n".join(rows) + "\n")
    return str(path)


class _Terminal(io.StringIO):
    """stderr as if it were a terminal."""

    def isatty(self) -> bool:
        return True


def _run(args: list[str], monkeypatch, capsys, *, terminal: bool) -> tuple[int, str, str]:
    """``main(args)`` with no delay before a bar; (status, stdout, stderr)."""
    monkeypatch.setattr(progress_module, "DELAY", 0.0)
    fake = _Terminal() if terminal else io.StringIO()
    monkeypatch.setattr(sys, "stderr", fake)
    status = main(args)
    out = re.sub(r"\b\d+\.\d\ds\b", "(time)", capsys.readouterr().out)  # a check's seconds
    return status, out, fake.getvalue()


def _commands(tmp_path: Path) -> list[tuple[list[str], str]]:
    data, presca = _measurements(tmp_path), _presca(tmp_path)
    return [  # (arguments, the bar's label)
        (["fit", data], "fitting"),
        (["fit", data, "--format", "json"], "fitting"),
        (["check", "pipe(A, B) <= seq(A, B)", "--examples", "3", "--seed", "1"], "checking"),
        (["laws", "--examples", "1", "--seed", "1", "--semantics", "exact"], "checking"),
        (["predict", presca, "--upto", "16"], "predicting"),
        (["tune", presca, "--runs", "2", "--seed", "1"], "tuning"),
        (["explore", "pipe(qsort, inc)", "--threads", "4", "--at", "x=1024"], "exploring"),
        (["optimize", "seq(tpool_a(qsort), tpool_b(inc))", "--budget", "a+b<=8", "--at",
          "x=1024"], "optimizing"),  # monotone: a branch and bound
        (["compare", "qsort", "inc", "nop"], "comparing"),
    ]


@pytest.mark.parametrize("index", range(9))
def test_a_bar_on_a_terminal_none_elsewhere_or_with_quiet(index, tmp_path, monkeypatch, capsys):
    args, label = _commands(tmp_path)[index]
    status, out, err = _run(args, monkeypatch, capsys, terminal=True)
    assert label in err and "\r" in err  # tqdm redraws the line in place
    plain_status, plain_out, plain_err = _run(args, monkeypatch, capsys, terminal=False)
    assert (plain_status, plain_out) == (status, out)  # the results do not change
    assert label not in plain_err and "\r" not in plain_err
    quiet_status, quiet_out, quiet_err = _run(["--quiet", *args], monkeypatch, capsys, terminal=True)
    assert (quiet_status, quiet_out) == (status, out)
    assert label not in quiet_err and "\r" not in quiet_err


def test_no_bar_for_quick_work(tmp_path, monkeypatch, capsys):
    """Below the delay (one second) there is no bar, and tqdm is not even imported."""
    monkeypatch.setattr(sys, "stderr", _Terminal())
    monkeypatch.delitem(sys.modules, "tqdm", raising=False)
    assert main(["fit", _measurements(tmp_path)]) == 0
    err = sys.stderr.getvalue()
    assert "fitting" not in err and "\r" not in err and "tqdm" not in sys.modules


def test_quiet_silences_notes_never_errors(tmp_path, capsys):
    models = tmp_path / "m.toml"
    models.write_text('[models.qsort]\nmodel = "x"\n')
    assert main(["eval", "qsort", "--models", str(models)]) == 0
    assert capsys.readouterr().err.startswith("note: ")
    for args in (["-q", "eval"], ["eval", "--quiet"]):
        assert main([*args, "qsort", "--models", str(models)]) == 0
        assert capsys.readouterr() == ("x\n", "")
        assert main([*args, "nosuch", "--models", str(models)]) == 2
        assert "error: " in capsys.readouterr().err


def test_a_real_terminal_sees_the_bar_and_stdout_stays_clean(tmp_path):
    """Through a pseudo-terminal on stderr (stdout a pipe): the bar reaches the terminal,
    stdout holds only the results."""
    data = _measurements(tmp_path, kernels=4)
    code = (
        "import sys; import patternalg.commands.progress as p; p.DELAY = 0.0;"
        "from patternalg.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    leader, follower = pty.openpty()
    # a fresh pty is 0 columns wide, where tqdm draws an empty bar: make it a terminal's 80
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-c", code, "fit", data], stdout=subprocess.PIPE, stderr=follower, env=env,
        timeout=120,
    )
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal is closed once its last writer is gone
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    assert proc.returncode == 0
    assert b"fitting" in shown and b"kernels" in shown
    assert b"fitting" not in proc.stdout and proc.stdout.decode().count("k0:") == 1


def test_compare_reports_every_pair_done():
    """compare called progress(done, pairs) before each pair (0 of 3, 1, 2): its bar never
    reached 3 of 3. It reports after each pair now, the last call all of them."""
    from patternalg.decisions import compare

    calls: list[tuple[int, int]] = []
    compare(["qsort", "inc", "nop"], progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_explore_completes_its_progress_when_it_runs_out_of_designs():
    """A search that rewrote every design before ``expansions`` left its bar at, say, 12 of
    500; its last call now says all it did is done."""
    from patternalg.decisions import explore

    calls: list[tuple[int, int]] = []
    found = explore("pipe(qsort, inc)", threads=4, expansions=500, progress=lambda done, total: calls.append((done, total)))
    assert found.complete and calls[-1][0] == calls[-1][1] < 500
    assert calls[:-1] == [(done, 500) for done in range(1, len(calls))]
