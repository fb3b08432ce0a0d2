"""Ctrl-C while the command line is still loading (sympy takes a second to import) is said
as a Ctrl-C later is: one line, status 130, no traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

#: how each way of starting patternalg runs it: ``python -m patternalg``, and the console
#: script pyproject.toml declares (``patternalg = "patternalg.cli:main"``), as pip writes it
STARTS = {
    "python -m patternalg": ["-m", "patternalg"],
    "the patternalg script": ["-c", "import sys; from patternalg.cli import main; sys.exit(main())"],
}


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
@pytest.mark.parametrize("start", STARTS.values(), ids=STARTS.keys())
def test_ctrl_c_while_sympy_imports_is_one_line_and_status_130(start: list[str]) -> None:
    """The signal is sent once the process reports (``-X importtime``, on stderr) that it
    has imported a first module of sympy: from then on it is importing, or reading the
    standard input no one writes to, until the signal ends it; no timing decides."""
    reading, writing = os.pipe()  # kept open: the command waits on it for ever
    process = subprocess.Popen(
        [sys.executable, "-X", "importtime", *start, "fit", "-"],
        stdin=reading,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    os.close(reading)
    try:
        assert process.stderr is not None and process.stdout is not None
        seen = []
        for line in process.stderr:
            seen.append(line)
            if line.startswith("import time:") and line.rsplit("|", 1)[-1].strip().startswith("sympy"):
                break
        else:
            pytest.fail(f"the process ended before it imported sympy: {''.join(seen)[-500:]}")
        process.send_signal(signal.SIGINT)
        rest = process.stderr.read()
        status = process.wait(timeout=120)
    finally:
        os.close(writing)
        if process.poll() is None:
            process.kill()
            process.wait()
    said = [line for line in rest.splitlines() if not line.startswith("import time:")]
    assert (status, said) == (130, ["patternalg: interrupted"])
    assert process.stdout.read() == ""


def test_the_command_line_starts_without_sympy() -> None:
    """What makes the above hold: until ``main`` runs, nothing imports sympy (``patternalg``
    loads its functions on first use), so a Ctrl-C while sympy loads is ``main``'s to say."""
    code = "import sys, patternalg.cli; print(sorted(m for m in sys.modules if m.split('.')[0] in ('sympy', 'numpy')))"
    started = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert started.stdout == "[]\n"
