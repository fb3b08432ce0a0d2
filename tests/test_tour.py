"""The tours run from top to bottom: the README's (its shown outputs are what the commands
print from the committed measurements, ``examples/tour/measured.txt``; the whole tour,
measuring included, is a ``long`` check) and ``examples/tour.ipynb`` in a fresh kernel."""

from __future__ import annotations

import os
import re
import shlex
import shutil
from pathlib import Path

import pytest
from helpers import ROOT

from patternalg.cli import main

EXAMPLES = ROOT / "examples"
#: what the fast run leaves to the long one: the measurement itself, the laws (seconds of
#: proofs and searches) and the picture (matplotlib)
SLOW = ("measure", "laws", "plot")


def tour_steps() -> list[tuple[list[str], list[str]]]:
    """The README tour's commands in order, each with the output it shows (``...``: lines
    left out); a command's lines ending in a backslash continue it."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## A tour\n") :]
    section = section[: section.index("\n## ", 1)]
    steps: list[tuple[list[str], list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", section, re.DOTALL):
        command = ""
        for line in block.splitlines():
            if command:  # a continued command
                command += " " + line.strip()
            elif line.startswith("$ "):
                command = line[2:]
            else:
                steps[-1][1].append(line)
                continue
            if command.endswith("\\"):
                command = command[:-1]
                continue
            steps.append((shlex.split(command, comments=True), []))
            command = ""
    return steps


def _shows(shown: list[str], expected: list[str]) -> bool:
    """Whether ``shown`` is ``expected``, a ``...`` line standing for any lines."""
    pattern = "\n".join(".*?" if line == "..." else re.escape(line) for line in expected)
    return re.fullmatch(pattern, "\n".join(shown), re.DOTALL) is not None


def _run_tour(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, *, whole: bool) -> list[str]:
    """Run the README tour in a copy of ``examples/tour``; the commands it ran."""
    ran = []
    for argv, expected in tour_steps():
        if argv[0] == "cd":
            assert argv[1] == "examples/tour"
            shutil.copytree(EXAMPLES / "tour", tmp_path / "tour", ignore=shutil.ignore_patterns("__pycache__"))
            monkeypatch.chdir(tmp_path / "tour")
            continue
        assert argv[0] == "patternalg", argv
        if not whole and argv[1] in SLOW:
            if argv[1] == "measure":  # the committed run instead
                shutil.copy("measured.txt", "m.txt")
            continue
        status = main(argv[1:])
        out, err = capsys.readouterr()
        assert status == 0, (argv, err)
        shown = out.splitlines() + err.splitlines()
        if not whole or argv[1] == "measure":  # fresh measurements show other numbers
            assert _shows(shown, expected), (argv, shown)
        ran.append(argv[1])
    return ran


def test_the_readme_tour_shows_what_its_commands_print(tmp_path: Path, monkeypatch, capsys) -> None:
    ran = _run_tour(tmp_path, monkeypatch, capsys, whole=False)
    assert ran[:2] == ["fit", "eval"] and {"validate", "compare", "optimize", "check"} <= set(ran)
    assert Path("m.toml").is_file()  # the models the story made


@pytest.mark.long
def test_the_whole_readme_tour_runs_measuring_included(tmp_path: Path, monkeypatch, capsys) -> None:
    pytest.importorskip("matplotlib")
    ran = _run_tour(tmp_path, monkeypatch, capsys, whole=True)
    assert ran[0] == "measure" and set(SLOW) <= set(ran)
    assert Path("compare.png").stat().st_size > 0


@pytest.mark.long  # notebook execution (tests/README.md)
def test_the_notebook_tour_runs_and_shows_its_results(monkeypatch) -> None:
    """examples/tour.ipynb runs from top to bottom in a fresh kernel; any cell error fails."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("matplotlib")
    root = str(EXAMPLES.parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    notebook = nbformat.read(EXAMPLES / "tour.ipynb", as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(EXAMPLES)}}
    )
    client.execute()  # raises CellExecutionError on any cell error
    outputs = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs]
    kinds = [sorted(o.get("data", {})) for o in outputs]
    assert sum("text/html" in k for k in kinds) == 5  # the measurements, the fitted library, two evaluations, comparison
    assert sum("image/png" in k for k in kinds) == 2  # the fit and the comparison
    text = "".join(o.get("text", "") for o in outputs)
    assert "crossover at x = " in text  # the two designs change places in the range
