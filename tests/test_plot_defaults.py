"""``plot`` without ``--over`` (issue 29, finding 14): x over the atoms' measured range, else
2..2^20 (not from 1, where log2(x) is 0 and the curve fell to the axis), said in a note."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import patternalg.plotting  # noqa: E402
from patternalg.cli import main  # noqa: E402


def _drawn(monkeypatch, tmp_path, *args: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """The (x, y) data of every line ``plot ARGS`` draws."""
    figures = []
    monkeypatch.setattr(patternalg.plotting, "save_figure", lambda f, _: figures.append(f))
    assert main(["plot", *args, "-o", str(tmp_path / "f.png")]) == 0
    (figure,) = figures
    return [(np.asarray(line.get_xdata()), np.asarray(line.get_ydata()))
            for ax in figure.axes for line in ax.get_lines() if len(line.get_xdata()) > 2]


@pytest.mark.parametrize("args", [["tpool_4(qsort)"], ["--atoms", "qsort,inc"]])
def test_without_over_the_curve_shows_the_scaling_not_log2_of_1(
    monkeypatch, tmp_path, capsys, args
) -> None:
    lines = _drawn(monkeypatch, tmp_path, *args)
    assert lines and all(x.min() >= 2 and np.all(y > 0) for x, y in lines)
    assert "no --over: drawing x = 2..2^20" in capsys.readouterr().err


def test_without_over_the_measured_range_is_drawn(monkeypatch, tmp_path, capsys) -> None:
    models = tmp_path / "k.toml"
    models.write_text('[models.k]\nmodel = "2*x*log2(x)"\nx_range = [16, 4096]\n')
    lines = _drawn(monkeypatch, tmp_path, "k", "qsort", "--models", str(models))
    assert all((x.min(), x.max()) == (16, 4096) for x, _ in lines)
    err = capsys.readouterr().err
    # whole numbers without ".0", as every table prints them (it said x = 16.0..4096.0)
    assert "no --over: drawing x = 16..4096 (the atoms' measured range)" in err
