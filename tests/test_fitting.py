"""Fitting apart from the family (issue 30): a family holds its maths, parameters and table
format; its fitter holds the fit; the PMNF modelers are one table that both fit paths use."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from patternalg.errors import FitError
from patternalg.forms import FORMS, PMNF, form_class
from patternalg.forms.fitting import Fitter
from patternalg.forms.pmnf import modelers
from patternalg.forms.pmnf.modelers import MODELERS, Modeler

#: what a fit needs beyond a family's maths: the fitter's, never the family's
FITTING_HOOKS = (
    "_fit", "_fit_one", "_fitting", "_prepare", "_positive", "_reports", "_unit", "_source",
    "value_column", "summary", "summary_fields", "series_notes", "_models",
    "_symbol_and_aggregate", "prepare", "reports", "unit", "source", "fit_one", "fit_models",
)  # fmt: skip


@pytest.mark.parametrize("family", sorted(FORMS))
def test_a_family_carries_no_fitting_hooks(family: str) -> None:
    cls = form_class(family)
    carried = [name for name in FITTING_HOOKS if hasattr(cls, name)]
    assert not carried, f"{cls.__name__} carries the fitting hooks {carried}"


@pytest.mark.parametrize("family", sorted(FORMS))
def test_each_fittable_family_binds_a_fitter_of_its_own(family: str) -> None:
    cls = form_class(family)
    if not cls.fittable():
        with pytest.raises(FitError, match=f"form '{family}' cannot be fitted"):
            cls.fitting()
        return
    fitter = cls.fitting()
    assert issubclass(fitter, Fitter) and fitter is not Fitter
    assert fitter.form is cls
    assert fitter.__module__.startswith(f"patternalg.forms.{family}.")


def test_reading_model_files_imports_no_fitter() -> None:
    """A model of every family built from its table, and its closed form: no fitter, no
    fitting module, no scipy is imported."""
    code = (
        "import sys\n"
        "from patternalg.forms import form_class\n"
        "tables = {'pmnf': {'model': '2*x'}, 'amdahl': {'alpha': 0.9, 'tseq': '2*x'},\n"
        "    'memwall': {'f': 0.9, 'k': 0.4, 'm1': 0.01, 'm2': 0.8}, 'expr': {'model': 'x'}}\n"
        "for name, table in tables.items():\n"
        "    form_class(name).from_table(table, 'm').expr\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    loaded = done.stdout.split()
    fitting = [
        m for m in loaded if m == "scipy" or m.split(".")[-1] in ("fit", "fitter", "fitting")
    ]
    assert not fitting, fitting


def _table(tmp_path: Path, columns: str, rows: Sequence[tuple[float, ...]]) -> Path:
    path = tmp_path / "m.csv"
    path.write_text(columns + "\n" + "".join(",".join(map(repr, r)) + "\n" for r in rows))
    return path


@pytest.fixture
def one_and_two_parameters(tmp_path: Path) -> tuple[Path, Path]:
    rng = np.random.default_rng(3)
    noise = lambda: float(rng.uniform(0.95, 1.05))  # noqa: E731
    one = [(x, 3.0 + 0.5 * x * noise()) for x in (4.0, 8.0, 16.0, 32.0, 64.0) for _ in range(3)]
    two = [
        (x, p, 2.0 + x * p * noise())
        for x in (4.0, 8.0, 16.0, 32.0, 64.0)
        for p in (2.0, 4.0, 8.0, 16.0, 32.0)
        for _ in range(3)
    ]
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    return _table(tmp_path / "one", "x,time", one), _table(tmp_path / "two", "x,p,time", two)


def test_one_table_of_modelers_drives_both_fit_paths(
    one_and_two_parameters: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A modeler's entry in ``MODELERS`` is what both the one- and the multi-parameter fit
    use: its aggregation and its selections."""
    one, two = one_and_two_parameters
    basic = {path: PMNF.fit(path, modeler="basic") for path in (one, two)}
    assert {m.statistics["aggregate"] for m in basic.values()} == {MODELERS["basic"].aggregate}
    # "default" made to select as basic does, with another aggregation
    monkeypatch.setitem(
        MODELERS, "default", Modeler("mean", MODELERS["basic"].one, MODELERS["basic"].multi)
    )
    for path, model in basic.items():
        again = PMNF.fit(path, modeler="default")
        assert again.statistics["aggregate"] == "mean"
        assert again.values == model.values
        assert again.statistics["modeler"] == "default"


def test_choose_hands_rows_with_values_not_above_zero_to_the_fallback() -> None:
    x = np.array([4.0, 8.0, 16.0, 32.0, 64.0])
    y = np.stack([3.0 + 0.5 * x, 0.5 * x - 3.0])  # the second row has a value <= 0
    chosen, rows, others, used = modelers.choose("default", "one", x, y)
    assert rows.tolist() == [1] and others is not None and len(others.index) == 1
    assert used.tolist() == ["default", f"{modelers.FALLBACK} (values <= 0)"]
    assert modelers.choose("basic", "one", x, y)[1].tolist() == []


#: an atom measured beside two compositions of it, as ``measure --region`` writes them
WITH_COMPOSITIONS = """PARAMETER x
POINTS 1024 2048 4096 8192
METRIC time
REGION scale
DATA 1030 1020 1040
DATA 2050 2060 2040
DATA 4100 4090 4110
DATA 8200 8190 8210
REGION pipe(scale, scale)
DATA 1240 1230 1250
DATA 2460 2470 2450
DATA 4920 4910 4930
DATA 9840 9830 9850
REGION tpool_2(scale)
DATA 520 510 530
DATA 1030 1020 1040
DATA 2050 2040 2060
DATA 4100 4090 4110
"""


def test_fit_leaves_measured_compositions_out_and_says_so(tmp_path: Path, capsys) -> None:
    from patternalg.cli import main
    from patternalg.library import ModelLibrary
    from patternalg.measurements import read

    data = tmp_path / "m.txt"
    data.write_text(WITH_COMPOSITIONS)
    assert main(["fit", str(data), "--out", str(tmp_path / "m.toml"), "--uncertainty", "none"]) == 0
    out, err = capsys.readouterr()
    assert [line.split(":")[0] for line in out.splitlines() if not line.startswith(" ")] == ["scale"]
    assert (
        f"note: 2 region(s) of {data} named by a composition (pipe(scale, scale), tpool_2(scale)) "
        "not fitted: fit models atoms; validate or calibrate read measured compositions"
    ) in err
    assert sorted(ModelLibrary.from_file(tmp_path / "m.toml")) == ["scale"]
    measured = read(data)
    assert measured.compositions() == ("pipe(scale, scale)", "tpool_2(scale)")
    assert [r.atom for r in PMNF.fit_each(measured, uncertainty="none")] == ["scale"]
    only = tmp_path / "c.txt"
    only.write_text(WITH_COMPOSITIONS.replace("REGION scale\n", "REGION seq(scale, scale)\n"))
    assert main(["fit", str(only)]) == 2
    assert "every region is named by a composition" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["s.csv", "s.txt"])
def test_times_without_a_unit_are_read_as_ns_with_a_note(tmp_path: Path, capsys, name: str) -> None:
    """issue 40: a CSV's ``time`` in seconds (or an Extra-P file's) was labelled ns silently."""
    from patternalg.cli import main

    seconds = [0.0012, 0.0025, 0.0049, 0.011]
    data = tmp_path / name
    if name.endswith(".csv"):
        data.write_text("size,time\n" + "".join(f"{1000 * 2**i},{t}\n" for i, t in enumerate(seconds)))
    else:
        data.write_text("PARAMETER x\nPOINTS 1000 2000 4000 8000\nMETRIC time\nREGION s\n"
                        + "".join(f"DATA {t} {t}\n" for t in seconds))  # fmt: skip
    assert main(["fit", str(data), "--uncertainty", "none"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0].endswith("[ns]")
    assert (
        f"note: {data}: the times (time) name no unit: read as ns, but every value is below 1 "
        "(at most 0.011): if they are seconds, fit --unit s (or name the column time_s)\n"
    ) in err
    assert main(["fit", str(data), "--uncertainty", "none", "--unit", "s"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0].endswith("[s]") and "name no unit" not in err
    data.write_text(data.read_text().replace("time", "time_s"))
    assert main(["fit", str(data), "--uncertainty", "none"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0].endswith("[s]") and "name no unit" not in err


def test_the_unit_note_of_a_file_without_a_metric_names_its_value(tmp_path, capsys):
    """An Extra-P file without METRIC had a note of 'the times () name no unit' on the fast
    path; the reference path names the measured value as it reads it: value."""
    from patternalg.cli import main

    data = tmp_path / "nometric.txt"
    data.write_text("PARAMETER n\nPOINTS (4) (8) (16) (32) (64)\nREGION k\n"
                    + "".join(f"DATA {3 * n} {3 * n + 1}\n" for n in (4, 8, 16, 32, 64)))  # fmt: skip
    assert main(["fit", str(data), "--uncertainty", "none"]) == 0
    err = capsys.readouterr().err
    assert f"note: {data}: the times (value) name no unit: read as ns (--unit s" in err


@pytest.mark.parametrize("header", ["p,time", "x,p,time"])
def test_a_time_that_falls_with_the_cores_is_named_with_the_form_that_fits_it(tmp_path: Path, capsys, header) -> None:
    """Strong scaling, T(x)/p: PMNF's terms only grow, so it fitted a constant (89 % SMAPE) or
    a model of x alone (53 %) without a word of why."""
    from patternalg.cli import main

    sizes = [1000, 2000, 4000, 8000] if header.startswith("x") else [None]
    rows = [f"{'' if x is None else f'{x},'}{p},{(3 * (x or 4000) / p + 50 * p + 200) * (1 + 0.01 * (r - 1)):.3f}"
            for x in sizes for p in (1, 2, 4, 8) for r in range(3)]  # fmt: skip
    table = tmp_path / "solve.csv"
    table.write_text("\n".join([header, *rows]) + "\n")
    assert main(["fit", str(table)]) == 0
    err = capsys.readouterr().err
    assert "note: solve falls as p grows (at the largest p 0.1" in err
    assert "if p counts cores, --form amdahl models a time that falls with them" in err
    assert main(["fit", str(table), "--form", "amdahl"]) == 0
    assert "falls as" not in capsys.readouterr().err  # Amdahl's form follows it


def test_a_dense_line_that_falls_is_named_through_its_noise(tmp_path: Path) -> None:
    """60 cores counts of 3n/p + 50 log2(p), 2 % noise: between neighbours the fall is below
    the noise (60 % of the steps fall), over eight even steps it is not; a flat line of the
    same noise gets no note."""
    from patternalg.forms.pmnf.falling import falling_notes
    from patternalg.measurements import read

    rng = np.random.default_rng(5)
    p = np.arange(1, 61) * 2.0
    noise = 1 + 0.02 * rng.standard_normal((2, 60))
    falling, flat = (3 * 6000 / p + 50 * np.log2(p) + 10) * noise[0], 500.0 * noise[1]
    assert np.mean(np.diff(falling) < 0) < 0.75  # neighbour by neighbour: no steady fall
    text = "PARAMETER p\nPOINTS " + " ".join(f"{v:g}" for v in p) + "\n"
    for name, values in (("solve", falling), ("flat", flat)):
        text += f"REGION {name}\n" + "".join(f"DATA {v:.6g}\n" for v in values)
    (tmp_path / "scaling.txt").write_text(text)
    (note,) = falling_notes(read(str(tmp_path / "scaling.txt")))
    assert note.startswith("solve falls as p grows (at the largest p 0.")
