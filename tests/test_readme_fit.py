"""The README's ``fit`` example is what ``fit`` prints (issue 29, finding 14: it left out the
statistics lines): each command of the block is run and its output compared line by line,
numbers to 9 significant digits (the last bits of a least-squares fit may vary by BLAS)."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

from helpers import ROOT, run_cli

NUMBER = re.compile(r"\d+\.\d+(?:e[+-]?\d+)?")


def _fit_block() -> list[tuple[list[str], list[str]]]:
    """The README's console block that starts with ``patternalg fit``: (argv, expected lines)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```console\n(.*?)```", text, re.DOTALL)
    (block,) = [b for b in blocks if b.startswith("$ patternalg fit ")]
    steps: list[tuple[list[str], list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ patternalg "):
            steps.append((shlex.split(line)[2:], []))
        else:
            steps[-1][1].append(line)
    return steps


def _rounded(line: str) -> str:
    return NUMBER.sub(lambda m: f"{float(m.group()):.9g}", line)


def test_the_readme_fit_example_shows_what_fit_prints(tmp_path: Path) -> None:
    steps = _fit_block()
    for argv in (a for a, _ in steps):
        for arg in argv:
            if (ROOT / arg).is_file():  # the data the example reads, at the same path
                (tmp_path / arg).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(ROOT / arg, tmp_path / arg)
    for argv, expected in steps:
        done = run_cli(*argv, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        shown = done.stdout.splitlines() + done.stderr.splitlines()
        assert [_rounded(s) for s in shown] == [_rounded(e) for e in expected]
