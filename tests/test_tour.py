"""examples/tour.ipynb runs from top to bottom in a fresh kernel; any cell error fails."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_the_tour_runs_and_shows_its_results(monkeypatch) -> None:
    root = str(EXAMPLES.parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    notebook = nbformat.read(EXAMPLES / "tour.ipynb", as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(EXAMPLES)}}
    )
    client.execute()  # raises CellExecutionError on any cell error
    outputs = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs]
    kinds = [sorted(o.get("data", {})) for o in outputs]
    assert sum("text/html" in k for k in kinds) == 4  # fit report, two evaluations, comparison
    assert sum("image/png" in k for k in kinds) == 2  # the fit and the comparison
    text = "".join(o.get("text", "") for o in outputs)
    assert "crossover at x = " in text  # the two designs change places in the range
