"""Pictures of many kernels, of aggregates other than the median, of deep terms (issue 29,
findings 14, 17 and 20)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from helpers import run_cli

from patternalg.forms.pmnf import PMNF
from patternalg.measurements import read
from patternalg.measurements.model import Aggregation

pytest.importorskip("matplotlib")

from patternalg.plotting.backend import MAX_PANELS, PlotError, new_axes  # noqa: E402


def _kernels(path: Path, count: int, repetitions: int = 3) -> Path:
    """An Extra-P text file of ``count`` kernels ``k0``, ``k1``, ... growing like x."""
    rng = np.random.default_rng(7)
    xs = [4, 8, 16, 32, 64]
    lines = ["PARAMETER x", "POINTS " + " ".join(f"( {x} )" for x in xs), "METRIC time"]
    for k in range(count):
        lines.append(f"REGION k{k}")
        for x in xs:
            reps = (k + 1) * x * (1 + 0.2 * rng.standard_normal(repetitions)) + 100
            lines.append("DATA " + " ".join(repr(float(v)) for v in reps))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_figure_holds_a_bounded_number_of_panels() -> None:
    """matplotlib's layout takes seconds a panel: 200 kernels took minutes, 20,000 hours."""
    fig, axes = new_axes(MAX_PANELS)
    assert len(axes) == MAX_PANELS
    fig.clf()
    with pytest.raises(PlotError, match=f"at most {MAX_PANELS}"):
        new_axes(MAX_PANELS + 1)


@pytest.mark.long  # draws a figure of many kernels
def test_plot_fit_of_many_kernels_draws_the_first_and_says_so(tmp_path: Path) -> None:
    path = _kernels(tmp_path / "many.txt", MAX_PANELS + 3)
    result = run_cli("plot", "--fit", str(path), "-o", str(tmp_path / "many.png"))
    assert result.returncode == 0, result.stderr
    assert (
        f"note: {path}: {MAX_PANELS + 3} kernels; drawing the first {MAX_PANELS} "
        "(--kernel NAME draws another)"
    ) in result.stderr.splitlines()
    assert (tmp_path / "many.png").stat().st_size > 5000
    last = f"k{MAX_PANELS + 2}"
    one = run_cli("plot", "--fit", str(path), "--kernel", last, "-o", str(tmp_path / "one.png"))
    assert one.returncode == 0 and "drawing the first" not in one.stderr


@pytest.mark.parametrize("how", [a.value for a in Aggregation])
def test_the_fit_plot_draws_and_names_the_aggregate_the_fit_used(tmp_path: Path, how: str):
    (report,) = PMNF.fit_each(read(str(_kernels(tmp_path / "one.txt", 1, 5))), aggregate=how)
    ax = report.plot()
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert f"measured ({how}, min-max)" in legend
    assert not any("median" in text for text in legend) or how == "median"
    markers = ax.containers[0].lines[0].get_ydata()  # the errorbar's points
    assert np.allclose(markers, report.series.aggregate(how))


def test_plot_of_a_deep_term_prints_no_matplotlib_warning(tmp_path: Path) -> None:
    term = "seq(qsort, " * 200 + "inc" + ")" * 200
    result = run_cli("plot", term, "-o", str(tmp_path / "deep.png"))
    assert result.returncode == 0, result.stderr
    assert "Warning" not in result.stderr
    assert all(line.startswith("note: ") for line in result.stderr.splitlines())
    assert (tmp_path / "deep.png").stat().st_size > 5000


def test_curves_that_leave_a_double_are_drawn_where_they_have_values() -> None:
    """qsort overflows a double from x of about 1.7e302: matplotlib's margins around values
    near 1.8e308 overflowed and it drew an empty axis of 1 to 10, with a stretch shaded as the
    'None bottleneck'; now those values are gaps and the rest is drawn."""
    from patternalg.decisions import sweep
    from patternalg.plotting.results import plot_sweep

    table = sweep(["pipe(qsort, inc)"], over="x=1e290..1e308:40:log")
    ax = plot_sweep(table)
    low, high = ax.get_ylim()
    assert 1e290 < low < high < 1e301
    assert not any("None" in text.get_text() for text in ax.get_legend().get_texts())
    ax.figure.clf()


@pytest.mark.parametrize(("term", "top"), [("nop", "1e285"), ("inc", "1e300"), ("nop", "1.7e308")])
def test_a_log_axis_reaching_a_double_s_largest_is_drawn(tmp_path: Path, term: str, top: str) -> None:
    """Beyond about 1e270 matplotlib's log ticks ran to infinity (an OverflowError on drawing,
    no file), and from about 1e300 its margins overflowed: an axis of 1 to 10, no curve."""
    from patternalg.decisions import sweep

    result = run_cli("plot", term, "--over", f"x=1..{top}", "-o", str(tmp_path / "a.png"))
    assert (result.returncode, result.stderr) == (0, "") and (tmp_path / "a.png").stat().st_size > 5000
    table = sweep([term], f"x=1..{top}:20:log")
    with np.errstate(all="raise"):
        ax = table.plot()
        ax.figure.canvas.draw()
    drawn = table.values[0][np.abs(table.values[0]) <= 1e300]  # beyond it: a gap in the curve
    low, high = ax.get_xlim()
    assert low < 1 and high > table.axes[0].values[len(drawn) - 1]
    assert ax.get_ylim()[0] < drawn.min() <= drawn.max() < ax.get_ylim()[1]
    import matplotlib.pyplot as plt

    plt.close(ax.figure)


def test_each_grid_point_lies_in_its_own_bottleneck_s_shading() -> None:
    """A new stretch began at the last point of the one before: over x = 1, 9, 11, 20 the
    picture shaded inc from 9, where nop is the bottleneck (second probe, 2026-11-30)."""
    import numpy as np

    from patternalg.plotting.curves import bottleneck_stretches

    grid, names = np.array([1.0, 9.0, 11.0, 20.0]), ["nop", "nop", "inc", "inc"]
    stretches = bottleneck_stretches(grid, names)
    for x, name in zip(grid, names, strict=True):
        assert [n for low, high, n in stretches if low <= x <= high] == [name]
