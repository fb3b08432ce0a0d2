"""The documentation's ``fit`` examples are what ``fit`` prints (issue 29, finding 14: the
README's left out the statistics lines): each command of every console block that starts
with ``patternalg fit`` (README.md, docs/) is run and its output compared line by line,
numbers to 9 significant digits (the last bits of a least-squares fit may vary by BLAS)."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from helpers import ROOT, run_cli

NUMBER = re.compile(r"\d+\.\d+(?:e[+-]?\d+)?")


def _fit_blocks() -> list[tuple[str, list[tuple[list[str], list[str]]]]]:
    """Every console block that starts with ``patternalg fit``: (where, [(argv, expected)])."""
    found = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        if page.name == "README.md":  # its tour fits what its measure wrote: test_tour.py runs it
            tour = text.index("## A tour\n")
            text = text[:tour] + text[text.index("\n## ", tour + 1) :]
        blocks = re.findall(r"```console\n(.*?)```", text, re.DOTALL)
        for block in (b for b in blocks if b.startswith("$ patternalg fit ")):
            steps: list[tuple[list[str], list[str]]] = []
            for line in block.splitlines():
                if line.startswith("$ patternalg "):
                    steps.append((shlex.split(line)[2:], []))
                else:
                    steps[-1][1].append(line)
            found.append((page.name, steps))
    return found


def _rounded(line: str) -> str:
    return NUMBER.sub(lambda m: f"{float(m.group()):.9g}", line)


@pytest.mark.parametrize(("page", "steps"), _fit_blocks(), ids=lambda v: v if isinstance(v, str) else "")
def test_the_fit_examples_show_what_fit_prints(tmp_path: Path, page, steps) -> None:
    for argv in (a for a, _ in steps):
        for arg in argv:
            if (ROOT / arg).is_file():  # the data the example reads, at the same path
                (tmp_path / arg).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(ROOT / arg, tmp_path / arg)
    for argv, expected in steps:
        done = run_cli(*argv, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        shown = done.stdout.splitlines() + done.stderr.splitlines()
        assert [_rounded(s) for s in shown] == [_rounded(e) for e in expected], page


def test_there_are_fit_examples() -> None:
    assert len(_fit_blocks()) >= 1
