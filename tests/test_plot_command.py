"""``patternalg plot``: each kind writes PNG and SVG naming what it shows; bad input is one
line and exit 2; without matplotlib, exit 2 with the install hint."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from patternalg.cli import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ATOMS = str(ROOT / "benchmarks" / "realdata" / "data" / "atoms.txt")

KINDS = {
    "curves": ["pipe(inc, nop)", "seq(inc, nop)", "--over", "x=1..1e5"],
    "fit": ["--fit", ATOMS],
    "atoms": ["--atoms", "qsort,inc", "--over", "x=1..1e6"],
    "optimize": [
        "--optimize",
        "pipe(tpool_a(qsort), tpool_b(inc))",
        "--budget",
        "a+b<=16",
        "--at",
        "x=1e6",
    ],
    "explore": ["--explore", "pipe(qsort, inc)", "--threads", "4", "--at", "x=1e6", "--top", "3"],
}


def _plot(tmp_path: Path, kind: str, suffix: str) -> Path:
    out = tmp_path / f"{kind}.{suffix}"
    assert main(["plot", *KINDS[kind], "-o", str(out)]) == 0
    return out


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_writes_png_and_svg(tmp_path, kind: str) -> None:
    png, svg = _plot(tmp_path, kind, "png"), _plot(tmp_path, kind, "svg")
    assert png.read_bytes().startswith(b"\x89PNG") and png.stat().st_size > 5000
    assert svg.read_text().startswith("<?xml")


def test_curves_name_axes_legend_and_mark_the_crossover(tmp_path) -> None:
    svg = _plot(tmp_path, "curves", "svg").read_text()
    # inc = 536.185 x, nop = 5422.97: the pipe and the sum cross nowhere, but the pipe's
    # bottleneck changes where inc = nop, x = 10.114; seq(inc, nop) always loses
    shown = (
        "time [ns]",
        ">x<",
        "seq(inc, nop)",
        "nop bottleneck",
        "pipe(inc, nop): inc bottleneck",
    )
    assert [t for t in shown if t not in svg] == []
    assert 'id="crossover' not in svg


def test_a_crossover_is_marked(tmp_path) -> None:
    out = tmp_path / "c.svg"
    assert main(["plot", "inc", "nop", "--over", "x=1..1e3", "-o", str(out)]) == 0
    svg = out.read_text()
    assert svg.count('id="crossover') == 1 and "crossover x = 10.114" in svg


def test_fit_panels_show_each_kernel_with_statistics(tmp_path) -> None:
    svg = _plot(tmp_path, "fit", "svg").read_text()
    # the default modeler aggregates by the biweight mean: the legend names it (issue 29)
    shown = ("nop", "inc", "qsort", "SMAPE", "R²", "extrapolated", "measured (biweight, min-max)")
    assert [t for t in shown if t not in svg] == []


def test_fit_of_one_kernel(tmp_path) -> None:
    out = tmp_path / "q.svg"
    assert main(["plot", "--fit", ATOMS, "--kernel", "qsort", "-o", str(out)]) == 0
    svg = out.read_text()
    assert ">qsort<" in svg and ">inc<" not in svg


def test_fit_of_a_table_over_n_with_a_repetitions_number(tmp_path) -> None:
    # the model is in the file's own n (it once asked for an input n it was never given),
    # and the rep column numbers repetitions, not a second parameter
    table = tmp_path / "sort.csv"
    rows = [f"{n},{r},{n * (1 + 0.01 * r)}" for n in (8, 16, 32, 64, 128) for r in (1, 2, 3)]
    table.write_text("n,rep,time_us\n" + "\n".join(rows) + "\n")
    out = tmp_path / "n.svg"
    assert main(["plot", "--fit", str(table), "-o", str(out)]) == 0
    svg = out.read_text()
    assert ">n<" in svg and "time [us]" in svg
    # its models drawn without --over: over n's measured range, not "no term has a symbol x"
    models = tmp_path / "m.toml"
    assert main(["fit", str(table), "--out", str(models), "--quiet"]) == 0
    assert main(["plot", "--atoms", "sort", "--models", str(models), "-o", str(tmp_path / "a.svg")]) == 0
    assert ">n<" in (tmp_path / "a.svg").read_text()
    # a harness's file over n as well (hyperfine's {n}: every plot of one failed)
    sort = ROOT / "tests" / "data" / "hyperfine" / "hf_sort.json"
    assert main(["plot", "--fit", str(sort), "-o", str(tmp_path / "hf.svg")]) == 0
    assert ">n<" in (tmp_path / "hf.svg").read_text()


def test_bars_name_the_designs(tmp_path) -> None:
    svg = _plot(tmp_path, "optimize", "svg").read_text()
    assert "a=15, b=1" in svg and "even split: a=8, b=8" in svg and "time [ns]" in svg
    svg = _plot(tmp_path, "explore", "svg").read_text()
    assert "designs within 4 threads" in svg


def test_explore_bars_take_the_machine_s_cores_as_the_thread_budget(tmp_path) -> None:
    """explore's --threads defaults to --cores' (or --machine's) cores; plot --explore
    demanded --threads all the same."""
    out = tmp_path / "e.svg"
    args = ["--explore", "pipe(qsort, inc)", "--at", "x=1e6", "--top", "3"]
    assert main(["plot", *args, "--cores", "4", "-o", str(out)]) == 0
    assert "designs within 4 threads" in out.read_text()


def test_top_counts_the_designs_drawn_the_best_among_them(tmp_path) -> None:
    """``plot --optimize --top 3`` drew the best, 3 runners-up and the even split (5 bars)
    where ``plot --explore --top 3`` drew 3: now 3 designs in both, the even split one more."""
    out = tmp_path / "o.svg"
    assert main(["plot", *KINDS["optimize"], "--top", "3", "-o", str(out)]) == 0
    labels = re.findall(r">((?:even split: )?a=\d+, b=\d+)<", out.read_text())
    assert len(labels) == 4 and labels[-1] == "even split: a=8, b=8"
    explored = _plot(tmp_path, "explore", "svg").read_text()
    assert len(re.findall(r">(\w+\([^<]*\))<", explored)) == 3


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["inc", "--fit", ATOMS], "TERM and --fit: give terms, or one of"),
        ([], "nothing to draw"),
        (["--fit", ATOMS, "--kernel", "qsrt"], "no kernel 'qsrt' (kernels: nop, inc, qsort)"),
        (["inc", "--over", "x=1..10", "--over", "n=1..4"], "a plot sweeps one symbol"),
        (["--atoms", "qsrot"], "did you mean qsort?"),
        (["--explore", "pipe(qsort, inc)"], "explore needs a thread budget (--threads N, or a machine: --cores N)"),
        (["--explore", "pipe(qsort, inc)", "--threads", "4"], "no values to draw"),
        # a negative, zero or non-finite bound drew nothing beyond the range, and said nothing
        (["--fit", ATOMS, "--extend-to", "-5"], "--extend-to must be a finite number above 0"),
        (["--fit", ATOMS, "--extend-to", "nan"], "--extend-to must be a finite number above 0"),
        (["--fit", ATOMS, "--extend-to", "inf"], "--extend-to must be a finite number above 0"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, argv, message) -> None:
    out = tmp_path / "out.png"
    assert main(["plot", *argv, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_bad_suffix_is_one_line_and_exit_2(tmp_path, capsys) -> None:
    assert main(["plot", "inc", "-o", str(tmp_path / "out.jpg")]) == 2
    assert "valid: .png, .svg, .pdf" in capsys.readouterr().err


def test_without_matplotlib_exit_2_with_the_install_hint(tmp_path) -> None:
    code = (
        "import sys; sys.modules['matplotlib'] = None; "
        "from patternalg.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    out = tmp_path / "out.png"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code, "plot", "inc", "-o", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 2
    assert "pip install 'patternalg[plot]'" in done.stderr
    assert "Traceback" not in done.stderr and not out.exists()


def test_other_commands_do_not_import_matplotlib() -> None:
    code = (
        "import sys; from patternalg.cli import main; main(['eval', 'inc']); "
        "main(['compare', 'inc', 'nop']); print('matplotlib' in sys.modules)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.stdout.strip().splitlines()[-1] == "False"


def test_fitted_library_models_show_their_measured_range(tmp_path) -> None:
    models, out = tmp_path / "m.toml", tmp_path / "m.svg"
    assert main(["fit", ATOMS, "--out", str(models)]) == 0
    argv = ["plot", "--models", str(models), "--atoms", "qsort,inc", "--over", "x=100..1e7"]
    assert main([*argv, "-o", str(out)]) == 0
    svg = out.read_text()
    assert svg.count("measured range") == 2 and ">qsort<" in svg and ">inc<" in svg


PRESCA_TABLE = "p,time\n1,10\n2,5.6\n3,4.1\n4,3.2\n5,2.7\n6,2.4\n"


def test_fit_takes_the_options_of_fit(tmp_path) -> None:
    """``plot --fit`` draws the fit ``fit`` makes with the same options (it took none)."""
    from patternalg.forms.pmnf import PMNF
    from patternalg.measurements import read

    out = tmp_path / "basic.svg"
    argv = ["plot", "--fit", ATOMS, "--kernel", "qsort", "--modeler", "basic", "-o", str(out)]
    assert main(argv) == 0
    qsort = read(ATOMS).select(kernel="qsort")
    basic = PMNF.fit_each(qsort, modeler="basic")[0].fitted.label()
    default = PMNF.fit_each(qsort)[0].fitted.label()
    svg = out.read_text()
    assert basic != default and basic in svg and default not in svg


def test_a_presca_fit_is_labelled_by_its_functions_not_a_piecewise(tmp_path) -> None:
    """The legend held the 276-character Piecewise, which squeezed the axes to nothing."""
    table, out = tmp_path / "w.csv", tmp_path / "w.svg"
    table.write_text(PRESCA_TABLE)
    argv = ["plot", "--fit", str(table), "--form", "presca", "--upto", "20", "-o", str(out)]
    assert main(argv) == 0
    svg = out.read_text()
    assert "1 &lt;= p &lt;= 6: 1/poly4; p &gt; 6: Rat12" in svg and "Piecewise" not in svg
    models, drawn = tmp_path / "m.toml", tmp_path / "m.svg"
    assert main(["fit", str(table), "--form", "presca", "--out", str(models)]) == 0
    argv = ["plot", "--models", str(models), "--atoms", "w", "--over", "p=1..64"]
    assert main([*argv, "-o", str(drawn)]) == 0
    assert "p &gt; 6: Rat12" in drawn.read_text()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--form", "presca", "--modeler", "basic"],
            "--modeler is not an option of --form presca (its options: --param, --upto, "
            "--checkpoints, --interpolate, --better, --unit)",
        ),
        (["--form", "presca", "--upto", "5000000"], "--upto 5000000: must be between 1 and"),
    ],
)
def test_fit_options_of_another_form_or_out_of_range_are_refused(
    tmp_path, capsys, argv, message
) -> None:
    table, out = tmp_path / "w.csv", tmp_path / "out" / "w.png"
    table.write_text(PRESCA_TABLE)
    out.parent.mkdir()
    assert main(["plot", "--fit", str(table), *argv, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert list(out.parent.iterdir()) == []


@pytest.mark.long  # matplotlib builds its font cache anew: seconds
def test_a_home_without_a_configuration_directory_adds_no_lines(tmp_path) -> None:
    """With HOME and the XDG directories unwritable, matplotlib's two long lines about the
    temporary configuration directory it makes reached stderr, also with -q."""
    env = {**os.environ, "HOME": str(tmp_path / "none"), "XDG_CONFIG_HOME": "/proc/none", "XDG_CACHE_HOME": "/proc/none"}
    env.pop("MPLCONFIGDIR", None)
    out = tmp_path / "p.png"
    done = subprocess.run(
        [sys.executable, "-m", "patternalg.cli", "-q", "plot", "qsort", "-o", str(out)],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "") and out.stat().st_size > 0


def test_atoms_of_units_that_do_not_convert_are_drawn_side_by_side(tmp_path, capsys) -> None:
    """``plot --atoms`` of a time and a throughput failed with 'cannot compose', though its
    panels compose nothing; each panel is now in its atom's own unit. A unit asked with
    --unit that one of them cannot take is still refused."""
    models = tmp_path / "m.toml"
    models.write_text('[models.rate]\nmodel = "40 - x"\nunit = "dimensionless"\n')
    out = tmp_path / "a.svg"
    assert main(["plot", "--atoms", "inc,rate", "--models", str(models), "--over", "x=1..100", "-o", str(out)]) == 0
    svg = out.read_text()
    assert "time [ns]" in svg and "value [dimensionless]" in svg
    # rate goes below 0, which no throughput is: the note says so without calling it a time
    assert "rate: values down to -60 dimensionless are negative: no measured amount can be" in capsys.readouterr().err
    refused = tmp_path / "b.svg"
    assert main(["plot", "--atoms", "inc,rate", "--models", str(models), "--unit", "us", "-o", str(refused)]) == 2
    assert not refused.exists()
