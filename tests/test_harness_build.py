"""``benchmarks/realdata/patterns.cpp``, the harness the committed runs were made with, builds,
passes its self test, and writes files that patternalg reads, fits and calibrates from (a
long check: it compiles C++ and times a few streams)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from patternalg.evidence.calibration import calibrate
from patternalg.forms import PMNF
from patternalg.measurements import read

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "benchmarks" / "realdata" / "patterns.cpp"
RUN_SH = ROOT / "benchmarks" / "realdata" / "run.sh"

pytestmark = [
    pytest.mark.long,
    pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler (g++)"),
]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny run: one repetition of the atoms and the calibration compositions at 4 sizes."""
    where = tmp_path_factory.mktemp("harness")
    binary = where / "patterns"
    subprocess.run(["g++", "-O2", "-std=c++17", "-pthread", "-o", str(binary), str(SOURCE)], check=True)
    terms = ["nop", "inc", "qsort", "pipe(inc, inc)", "pipe(inc, nop)", "seq(inc, inc)", "tpool_2(qsort)",
             "tpool_2(inc)", "tpool_4(inc)"]  # fmt: skip
    done = subprocess.run([str(binary), str(where), "1", "1024", "2048", "4096", "8192", "--", *terms],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    (where / "machine.txt").write_text("cores: 2\n")
    return where


def test_the_harness_writes_every_term_at_every_size(run: Path) -> None:
    atoms, compositions = read(run / "atoms.txt"), read(run / "compositions.txt")
    assert [s.kernel for s in atoms] == ["nop", "inc", "qsort"]
    assert len(compositions.series) == 6
    for s in (*atoms, *compositions):
        assert s.points[:, 0].tolist() == [1024.0, 2048.0, 4096.0, 8192.0]
        assert all(len(v) == 1 and v[0] > 0 for v in s.values)  # ns per data element
    # the window of every term at every size is recorded (run.sh copies it into machine.txt)
    window = dict(line.split(": w = ", 1) for line in (run / "window.txt").read_text().splitlines()[1:])
    assert window["tpool_4(inc)"].startswith("4; 1024: 4096/1024 2048:")
    # a term of nop alone is lengthened until its window lasts a millisecond (4,096 arrays of
    # nop take tens of microseconds); a term that touches its arrays never is
    assert "1024: 4096/1024 (lengthened: up to " in window["nop"]
    assert not any("lengthened" in window[t] for t in ("inc", "qsort", "pipe(inc, nop)", "tpool_2(inc)"))


def test_its_atoms_fit_and_its_compositions_calibrate(run: Path) -> None:
    models = {r.kernel: r.model for r in PMNF.fit_each(read(run / "atoms.txt"))}
    assert sorted(models) == ["inc", "nop", "qsort"]
    machine = calibrate([run / "atoms.txt", run / "compositions.txt"], speedups=False).machine
    assert machine.cores == 2 and np.isfinite(float(machine.dispatch.subs("x", 1024)))


def test_the_calibration_preset_measures_a_pool_of_all_the_cores_beyond_two(tmp_path: Path) -> None:
    # a speed-up fitted on tpool_2(qsort) alone is extrapolated up to the cores; nproc
    # honours OMP_NUM_THREADS, so this is a 4-core machine as run.sh sees it
    env = {**os.environ, "CALIBRATION": "1", "SIZES": "1024 2048 4096", "REPS": "1", "PRIORITY": "0",
           "OMP_NUM_THREADS": "4"}  # fmt: skip
    out = tmp_path / "calibration"
    done = subprocess.run(["sh", str(RUN_SH), str(out)], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert [s.kernel for s in read(out / "compositions.txt")] == [
        "pipe(inc, inc)", "pipe(inc, nop)", "seq(inc, inc)", "tpool_2(qsort)", "tpool_2(inc)", "tpool_2(nop)",
        "tpool_4(qsort)"
    ]  # fmt: skip
    result = calibrate([out / "atoms.txt", out / "compositions.txt"], speedups=True)
    assert result.machine.cores == 4
    assert "tpool_4(qsort)" in dict(result.machine.calibration)["residuals"]
