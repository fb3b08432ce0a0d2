"""Score-P / Cube input (the extra ``patternalg[cube]``): folder names, what Extra-P reads from
its own Cube test sets, call paths merged, metrics, scalings, errors, and the message when
pycubexr is missing. Tests that read Cube files are skipped without pycubexr."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import ROOT, run_cli

from patternalg.errors import MeasurementError
from patternalg.measurements import read
from patternalg.measurements.cube import CubeReader, point_of

DATA = ROOT / "tests" / "data" / "extrap"
CUBESET = DATA / "tests" / "data" / "cubeset"
#: Extra-P 4.2.5's reading of the vendored sets (written by benchmarks/bench_cube.py --record)
EXTRAP = json.loads((DATA / "cube_extrap.json").read_text())["sets"]
try:
    import pycubexr  # noqa: F401
except ImportError:
    HAS_PYCUBEXR = False
else:
    HAS_PYCUBEXR = True
needs_pycubexr = pytest.mark.skipif(not HAS_PYCUBEXR, reason="pycubexr is not installed")


def cube_set(tmp_path: Path, folders: dict[str, Path | None]) -> Path:
    """A Cube set: each folder holds a copy of a profile, or an empty ``profile.cubex``."""
    root = tmp_path / "set"
    for folder, profile in folders.items():
        (root / folder).mkdir(parents=True)
        target = root / folder / "profile.cubex"
        shutil.copy(profile, target) if profile else target.touch()
    return root


# --- folder names, as Extra-P's documentation and its test set allowed_formats write them ----
@pytest.mark.parametrize(
    ("folder", "names", "values"),
    [
        ("prefix.p8.n1024.r1", ("p", "n"), (8, 1024)),
        ("mm.x1y1z1", ("x", "y", "z"), (1, 1, 1)),
        ("x10y1z1", ("x", "y", "z"), (10, 1, 1)),
        ("mm.x10y1z1.r1", ("x", "y", "z"), (10, 1, 1)),
        ("mm.x1.1y1.1z1.1", ("x", "y", "z"), (1.1, 1.1, 1.1)),
        ("mm.x20,5.y20,5.z1,5.r1", ("x", "y", "z"), (20.5, 20.5, 1.5)),
        ("mm.x21.5,y21,5,z1.15.r1", ("x", "y", "z"), (21.5, 21.5, 1.15)),
        ("mm.x22.5.y22.5.z1.25.r1", ("x", "y", "z"), (22.5, 22.5, 1.25)),
        ("mm.x25.y25.z1.r12", ("x", "y", "z"), (25, 25, 1)),
        ("example.f3", ("f",), (3,)),
    ],
)
def test_folder_names_give_parameters_and_values(folder: str, names: tuple, values: tuple) -> None:
    assert point_of(folder) == (names, tuple(map(float, values)))


@pytest.mark.parametrize(
    ("folder", "message"),
    [
        ("scorep-20240101_1200_12345", r"'scorep-' is not a parameter name of letters"),
        ("mm.solver", r"folder 'mm.solver' is not named by parameter values \(\[PREFIX.\]NAME"),
        ("mm.x1.2.3", r"x1.2.3 has no number"),
    ],
)
def test_bad_folder_names_say_how_to_name_them(folder: str, message: str) -> None:
    with pytest.raises(MeasurementError, match=message):
        point_of(folder)


# --- the directory: errors found before any Cube file is opened (no pycubexr needed) ------
def test_directory_errors_name_the_directory_and_the_rule(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    (empty / "mm.x1").mkdir(parents=True)
    with pytest.raises(MeasurementError, match=rf"^{empty}: no Cube files \(FOLDER/\*.cubex"):
        read(empty)
    # Extra-P's negative_example2: the parameters in another order
    swapped = cube_set(tmp_path / "a", {"mm.y1x1z1": None, "x10y1z1": None})
    with pytest.raises(
        MeasurementError, match=r"names the parameters x, y, z but folder 'mm.y1x1z1' y, x, z"
    ):
        read(swapped)
    same = cube_set(tmp_path / "b", {"mm.x1.r1": None, "mm.x1.r2": None})
    with pytest.raises(MeasurementError, match=r"every folder has the same parameter values"):
        read(same)
    named = cube_set(tmp_path / "c", {"scorep-20240101_1200": None})
    with pytest.raises(MeasurementError, match=rf"^{named}: folder 'scorep-20240101_1200'"):
        read(named)


def test_a_cube_file_or_a_file_format_for_a_directory_is_refused(tmp_path: Path) -> None:
    profile = CUBESET / "single_parameter" / "mm.x1y1z1.r1" / "profile.cubex"
    with pytest.raises(MeasurementError, match=r"profile.cubex: not a directory: the cube format"):
        read(profile)
    with pytest.raises(MeasurementError, match=r"is a directory; the text format reads a file"):
        read(CUBESET / "single_parameter", "text")
    with pytest.raises(MeasurementError, match=r"is a directory; the extra-p format reads a file"):
        read(CUBESET / "single_parameter", "extra-p")
    named = tmp_path / "m.cubex"  # a format named for a file overrides its suffix
    named.write_text("PARAMETER x\nPOINTS 1 2\nREGION inc\nDATA 1\nDATA 2\n")
    assert [s.kernel for s in read(named, "text")] == ["inc"]


def test_a_scaling_for_a_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.csv"
    path.write_text("x,time\n1,2\n2,4\n")
    with pytest.raises(
        MeasurementError, match=r"m.csv: a scaling \(strong\) applies to a directory"
    ):
        read(path, scaling="strong")


def test_without_pycubexr_the_message_names_the_extra(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "pycubexr", None)
    with pytest.raises(MeasurementError, match=r"needs pycubexr.*pip install 'patternalg\[cube\]'"):
        read(CUBESET / "simple_threaded")


def test_fit_without_pycubexr_is_one_line_and_exit_2() -> None:
    code = (
        "import sys; sys.modules['pycubexr'] = None; from patternalg.cli import main; "
        f"sys.exit(main(['fit', {str(CUBESET / 'simple_threaded')!r}]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "pip install 'patternalg[cube]'" in done.stderr


# --- reading Cube files, against Extra-P 4.2.5 ------------------------------------------------
@needs_pycubexr
@pytest.mark.parametrize(
    ("name", "scaling"),
    [(name, scaling) for name, by_scaling in EXTRAP.items() for scaling in by_scaling],
)
def test_values_are_extrap_s(name: str, scaling: str) -> None:
    extrap = EXTRAP[name][scaling]
    ms = CubeReader.read_path(DATA / name, scaling=scaling)
    assert ms.format == "cube" and ms.value_name == "time" and ms.unit == "s"
    assert list(ms.parameters) == extrap["parameters"]
    assert {s.kernel for s in ms} == {m["kernel"] for m in extrap["measurements"]}
    ours = {
        (s.kernel, tuple(point)): (mean, median)
        for s in ms
        for point, mean, median in zip(
            s.points.tolist(), s.aggregate("mean"), s.aggregate("median"), strict=True
        )
    }
    theirs = {
        (m["kernel"], tuple(m["point"])): (m["mean"], m["median"]) for m in extrap["measurements"]
    }
    assert ours.keys() == theirs.keys()
    for key, values in theirs.items():
        assert ours[key] == pytest.approx(values, rel=1e-12, abs=0), key


@needs_pycubexr
def test_basic_modeler_on_a_cube_set_finds_extrap_s_models() -> None:
    """Extra-P's test asserts 4.95 f for main->foo (weak_threaded); weak scaling halves it
    (two of four threads run foo), strong scaling doubles it (two threads summed)."""
    done = run_cli(
        "fit", str(CUBESET / "simple_threaded"), "--modeler", "basic", "--format", "json"
    )
    assert done.returncode == 0, done.stderr
    ours = {r["kernel"]: r for r in json.loads(done.stdout)}
    for model in EXTRAP["tests/data/cubeset/simple_threaded"]["weak"]["models"]:
        (term,) = model["terms"]
        fitted = ours[model["kernel"]]
        assert (fitted["i"], fitted["j"]) == (term["i"], term["j"]) == ("1", 0)
        assert fitted["coefficient"] == pytest.approx(term["coefficient"], rel=1e-9)
    assert ours["main->foo"]["coefficient"] == pytest.approx(4.95 / 2)
    assert ours["main->foo"]["atom"] == "main_foo"
    strong = run_cli(
        "fit", str(CUBESET / "simple_threaded"), "--scaling", "strong", "--format", "json"
    )
    assert strong.returncode == 0, strong.stderr
    (foo,) = [r for r in json.loads(strong.stdout) if r["kernel"] == "main->foo"]
    assert foo["coefficient"] == pytest.approx(4.95 * 2)


@needs_pycubexr
def test_metric_and_scaling_choose_the_values() -> None:
    visits = CubeReader.read_path(
        CUBESET / "simple_threaded", metric="visits", scaling="weak_threaded"
    )
    by_kernel = {s.kernel: s for s in visits}
    # Extra-P's test: main->foo is visited 8 times and main->zero once on each thread that runs it
    assert by_kernel["main->foo"].aggregate().tolist() == [8.0] * 5
    assert by_kernel["main->zero"].aggregate().tolist() == [1.0] * 5
    assert visits.unit is None  # occurrences are no unit of time
    with pytest.raises(MeasurementError, match=r"no metric 'flops' \(the file has: time, visits\)"):
        read(CUBESET / "simple_threaded", metric="flops")
    with pytest.raises(MeasurementError, match=r"unknown scaling 'weak_threads'"):
        CubeReader.read_path(CUBESET / "simple_threaded", scaling="weak_threads")


@needs_pycubexr
def test_call_paths_some_points_lack_merge_into_their_parent(tmp_path: Path) -> None:
    """A run whose call tree has other children: each point's main then holds the time of
    all its children, that is the inclusive time of main, location by location."""
    from pycubexr import CubexParser

    first = CUBESET / "single_parameter" / "mm.x1y1z1.r1" / "profile.cubex"
    second = CUBESET / "simple_threaded" / "example.f2" / "cube-example2.cubex"
    third = CUBESET / "simple_threaded" / "example.f3" / "cube-example3.cubex"
    root = cube_set(tmp_path, {"run.x1": first, "run.x2.r1": second, "run.x2.r2": third})
    (main,) = read(root)
    inclusive = []
    for profile in (first, second, third):
        with CubexParser(str(profile)) as cube:
            values = cube.get_metric_values(cube.get_metric_by_name("time"))
            inclusive.append(
                values.cnode_values(cube.get_root_cnodes()[0], convert_to_inclusive=True)
            )
    assert main.kernel == "main" and main.points.tolist() == [[1.0], [2.0]]
    assert main.values[0] == pytest.approx(inclusive[0], rel=1e-12)
    assert main.values[1] == pytest.approx(np.concatenate(inclusive[1:]), rel=1e-12)


@needs_pycubexr
def test_a_damaged_cube_file_is_named(tmp_path: Path) -> None:
    good = CUBESET / "single_parameter" / "mm.x1y1z1.r1" / "profile.cubex"
    root = cube_set(tmp_path, {"mm.x1": good, "mm.x2": None})
    (root / "mm.x2" / "profile.cubex").write_bytes(b"not a tar archive")
    with pytest.raises(MeasurementError, match=r"mm.x2/profile.cubex: cannot read the Cube file"):
        read(root)


@needs_pycubexr
def test_a_folder_that_cannot_be_read_is_left_out_with_a_note(tmp_path: Path, monkeypatch) -> None:
    """An unreadable folder was skipped silently (8 points of 9, no note: Path.glob swallows
    PermissionError), an unreadable Cube set said 'no Cube files'; a FIFO named profile.cubex
    blocked fit for ever."""
    import os

    from patternalg.measurements import cube

    good = CUBESET / "single_parameter" / "mm.x1y1z1.r1" / "profile.cubex"
    root = cube_set(tmp_path, {"mm.x1": good, "mm.x2": good, "mm.x3": good, "mm.x4": None})
    shutil.rmtree(root / "mm.x4")
    (root / "mm.x4").mkdir()
    os.mkfifo(root / "mm.x4" / "profile.cubex")
    scandir = os.scandir

    def refusing(path):  # as chmod 000 refuses whoever is not root
        if str(path).endswith(("mm.x3", "denied")):
            raise PermissionError(13, "Permission denied")
        return scandir(path)

    monkeypatch.setattr(cube.os, "scandir", refusing)
    ms = read(root)
    assert [len(s.points) for s in ms] == [2] * len(ms)
    assert ms.notes == (
        f"{root}/mm.x3: cannot be read (Permission denied): its profiles are left out",
        f"{root}/mm.x4/profile.cubex: not a regular file (a pipe, a device or a directory): left out",
    )
    denied = root.rename(tmp_path / "denied")
    with pytest.raises(MeasurementError, match=rf"^{denied}: cannot read the directory: Permission denied$"):
        read(denied)


@needs_pycubexr
def test_two_parameters_and_repetitions_from_folder_names(tmp_path: Path) -> None:
    profile = {
        f: CUBESET / "simple_threaded" / f"example.f{f}" / f"cube-example{f}.cubex"
        for f in (1, 2, 3)
    }
    root = cube_set(
        tmp_path,
        {
            "run.p2.n10.z7.r1": profile[1],
            "run.p2.n10.z7.r2": profile[2],
            "run.p4.n10.z7.r1": profile[3],
            "run.p2.n20.z7.r1": profile[3],
        },
    )
    ms = read(root)
    assert ms.parameters == ("p", "n")  # z is the same everywhere
    (foo,) = [s for s in ms if s.kernel == "main->foo"]
    assert foo.points.tolist() == [[2, 10], [2, 20], [4, 10]]
    # two runs of 4 threads at (2, 10): 8 repetitions, their mean that of f = 1 and f = 2
    assert [len(v) for v in foo.values] == [8, 4, 4]
    assert foo.aggregate().tolist() == pytest.approx([2.475 * 1.5, 2.475 * 3, 2.475 * 3])


def test_the_fit_command_offers_the_reader_s_scalings() -> None:
    from patternalg.commands import fit
    from patternalg.measurements.cube import SCALINGS

    assert fit.SCALINGS == SCALINGS
