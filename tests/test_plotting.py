"""Pictures: each kind writes PNG and SVG, the SVG names what it shows, output is deterministic."""

from __future__ import annotations

import sys

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from patternalg.plotting import (  # noqa: E402
    Crossover,
    Curve,
    PlotError,
    plot_curves,
    plot_designs,
    plot_fit,
    pyplot,
    save_figure,
)

GRID = np.geomspace(1, 1e5, 64)
INC, NOP = 536.185 * GRID, np.full_like(GRID, 5422.97)
CROSS = 5422.97 / 536.185


def _pipe_curves() -> tuple[list[Curve], list[Crossover]]:
    names = tuple("nop" if i < n else "inc" for i, n in zip(INC, NOP, strict=True))
    curves = [Curve("inc", INC), Curve("nop", NOP), Curve("pipe(inc, nop)", np.maximum(INC, NOP), names)]
    return curves, [Crossover(CROSS, 5422.97)]


def _draw(kind: str):  # type: ignore[no-untyped-def]
    if kind == "curves":
        curves, crossovers = _pipe_curves()
        return plot_curves(GRID, curves, crossovers=crossovers, unit="ns")
    if kind == "fit":
        x = np.array([1024.0, 2048, 4096, 8192, 16384])
        reps = [v * np.log2(v) * np.array([4.3, 4.4, 4.5]) for v in x]
        return plot_fit(
            x, reps, lambda t: 4.4 * t * np.log2(t), title="qsort", model_text="4.4*x*log2(x)",
            statistics={"smape": 1.25, "ar2": 0.9991}, extend_to=262144,
        )
    return plot_designs(["tpool_2(seq(qsort, inc))", "pipe(qsort, inc)"], [3e6, 5e6], unit="ns")


@pytest.mark.parametrize("kind", ["curves", "fit", "designs"])
@pytest.mark.parametrize("suffix", ["png", "svg", "pdf"])
def test_each_kind_writes_a_non_empty_file(tmp_path, kind: str, suffix: str) -> None:
    ax = _draw(kind)
    path = save_figure(ax.figure, tmp_path / f"out.{suffix}")
    pyplot().close(ax.figure)
    data = path.read_bytes()
    magic = {"png": b"\x89PNG", "svg": b"<?xml", "pdf": b"%PDF"}[suffix]
    assert data.startswith(magic) and len(data) > 1000
    assert [p.name for p in tmp_path.iterdir()] == [f"out.{suffix}"]  # no temporary left


def test_curve_svg_names_axes_legend_and_marks_the_crossover(tmp_path) -> None:
    ax = _draw("curves")
    svg = save_figure(ax.figure, tmp_path / "c.svg").read_text()
    for text in ("time [ns]", ">x<", "pipe(inc, nop)", "crossover x = 10.114", "pipe(inc, nop): nop"):
        assert text in svg, text
    assert svg.count('id="crossover') == 1


def test_fit_svg_shows_statistics_and_extrapolation(tmp_path) -> None:
    svg = save_figure(_draw("fit").figure, tmp_path / "f.svg").read_text()
    assert "SMAPE 1.25 %" in svg and "R² 0.9991" in svg and "extrapolated" in svg


@pytest.mark.parametrize("suffix", ["svg", "pdf", "png"])
def test_output_is_deterministic(tmp_path, suffix: str) -> None:
    first = save_figure(_draw("curves").figure, tmp_path / f"a.{suffix}").read_bytes()
    second = save_figure(_draw("curves").figure, tmp_path / f"b.{suffix}").read_bytes()
    assert first == second


def test_bad_file_names_are_clear_errors(tmp_path) -> None:
    fig = _draw("designs").figure
    with pytest.raises(PlotError, match="valid: .png, .svg, .pdf"):
        save_figure(fig, tmp_path / "out.jpeg")
    with pytest.raises(PlotError, match="does not exist"):
        save_figure(fig, tmp_path / "nodir" / "out.png")


def test_missing_matplotlib_names_the_extra(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(PlotError, match=r"pip install 'patternalg\[plot\]'"):
        pyplot()


def test_a_picture_gets_the_usual_file_mode(tmp_path) -> None:
    import os

    umask = os.umask(0o022)
    try:
        path = save_figure(_draw("designs").figure, tmp_path / "out.png")
    finally:
        os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o644


def test_each_metric_of_a_fit_names_its_own_axis(tmp_path) -> None:
    """A file of several metrics: each panel's y axis says what it shows, in its unit."""
    from patternalg.forms import PMNF
    from patternalg.measurements import read
    from patternalg.plotting.results import plot_fit_reports

    path = tmp_path / "m.csv"
    path.write_text("x,time_ms,energy\n1,2,9\n2,4,12\n4,8,15\n8,16,18\n")
    figure = plot_fit_reports(PMNF.fit_each(read(path)))
    assert [ax.get_ylabel() for ax in figure.axes] == ["time [ms]", "energy [dimensionless]"]
    pyplot().close(figure)


def test_a_summary_s_points_are_drawn_with_their_stated_spread() -> None:
    from patternalg.measurements import Stated

    x = np.array([1024.0, 2048, 4096])
    ax = plot_fit(x, [np.array([10.0]), np.array([21.0]), np.array([40.0, 44.0, 48.0])], lambda t: t / 100,
                  title="k", stated=[Stated(2.0, 10), Stated(30.0, 10), None])  # fmt: skip
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "summarised (± its stated std)" in labels and "measured (median, min-max)" in labels
    bars = {c.get_label(): c for c in ax.containers}["summarised (± its stated std)"]
    segments = bars.lines[2][0].get_segments()
    assert [tuple(np.round(s[:, 1], 6)) for s in segments] == [(8.0, 12.0), (0.0, 51.0)]  # 21 - 30 is cut at 0
    pyplot().close(ax.figure)


def test_a_curve_equal_to_one_drawn_before_is_dashed_and_named_so() -> None:
    """pipe(inc, inc) and tpool_2(seq(inc, inc)) are one line under the paper: the second
    hid the first, and the legend named both as if both showed."""
    ax = plot_curves(GRID, [Curve("pipe(inc, inc)", INC), Curve("tpool_2(seq(inc, inc))", INC * (1 + 1e-15)),
                            Curve("nop", NOP)])  # fmt: skip
    lines = [line for line in ax.get_lines() if not line.get_label().startswith("_")]
    assert [line.get_label() for line in lines] == [
        "pipe(inc, inc)", "tpool_2(seq(inc, inc)) (same as pipe(inc, inc))", "nop"
    ]
    assert [line.get_linestyle() for line in lines] == ["-", "--", "-"]
    pyplot().close("all")


def test_a_presca_fit_is_drawn_over_its_means_up_to_its_target_range(tmp_path) -> None:
    """PreSca fits the mean of repeated runs: the markers were at the medians (the
    plot's default), away from the curve; and the curve ran on to 16 times the largest
    count, far beyond the range 1..upto PreSca checked (negative near p = 150)."""
    from patternalg.forms import Presca
    from patternalg.measurements import read
    from patternalg.plotting.results import plot_fit_reports

    path = tmp_path / "rep.csv"
    path.write_text("p,time\n" + "".join(f"{p},{t}\n{p},{t}\n{p},{t + 60}\n" for p, t in
                                         [(1, 100), (2, 52), (4, 27), (8, 15), (16, 10)]))  # fmt: skip
    for upto, drawn_to in [(None, 32.0), (20, 20.0)]:
        (ax,) = plot_fit_reports(Presca.fit_each(read(path), upto=upto)).axes
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert "measured (mean, min-max)" in labels
        markers = {c.get_label(): c for c in ax.containers}["measured (mean, min-max)"]
        assert markers.lines[0].get_ydata()[0] == pytest.approx(120.0)  # (100 + 100 + 160) / 3
        assert max(max(line.get_xdata()) for line in ax.get_lines()) == pytest.approx(drawn_to)
        pyplot().close(ax.figure)
