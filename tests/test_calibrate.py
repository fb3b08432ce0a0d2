"""``calibrate``: a machine's numbers fitted to measured compositions (docs/machine.md)."""

from __future__ import annotations

import json
import math
import os
import threading
from dataclasses import replace
from html import escape as html_escape
from pathlib import Path

import numpy as np
import pytest
import sympy

from patternalg._internal.display import percent_cell
from patternalg.algebra.atomic_model import AtomicModel
from patternalg.algebra.machine import Machine
from patternalg.algebra.machine_numbers import MachineNumbers
from patternalg.cli import main
from patternalg.errors import PatternalgError
from patternalg.evidence.calibration import calibrate, simulated
from patternalg.evidence.calibration_set import CALIBRATION_TERMS, FIVE_TERMS, calibration_terms
from patternalg.evidence.sources import recorded_cores
from patternalg.library.machine_file import read_machine, write_machine
from patternalg.library.model_library import ModelLibrary
from patternalg.measurements import read
from patternalg.syntax.symbols import log2, x

ROOT = Path(__file__).resolve().parent.parent
RUN = ROOT / "benchmarks" / "realdata" / "data7"
SIZES = np.array([4.0, 16.0, 64.0, 256.0, 1024.0, 4096.0, 16384.0, 65536.0])
TRUTH = Machine(2, handoff="300 + 0.5*x", speedups={"qsort": "p/(1 + 0.1*(p - 1))"},
                dispatch="700", wake="2000", turn="6000")  # fmt: skip


def extrap(path: Path, regions: dict[str, np.ndarray], sizes: np.ndarray = SIZES) -> Path:
    """An Extra-P text file: three repetitions per size, around each value by 1e-4."""
    lines = ["PARAMETER x", "POINTS " + " ".join(f"({s:g})" for s in sizes), "METRIC time"]
    for name, values in regions.items():
        lines.append(f"REGION {name}")
        lines += [f"DATA {v * (1 - 1e-4):.17g} {v:.17g} {v * (1 + 1e-4):.17g}" for v in values]
    path.write_text("\n".join(lines) + "\n")
    return path


def synthetic(tmp_path: Path, cores: str | None = "cores: 2", truth: Machine = TRUTH) -> tuple[Path, Path]:
    """Atoms from the built-in models, the calibration compositions under ``truth``
    with a deterministic noise of at most 1e-4 (relative); a machine.txt beside them."""
    exact = Machine(2).semantics  # an atom is its model under any semantics
    noise = 1 + 1e-4 * np.sin(np.arange(len(SIZES)) * 1.7)
    atoms = {a: simulated(a, exact, SIZES) for a in ("nop", "inc", "qsort")}
    terms = {t: simulated(t, truth.semantics, SIZES) * noise for t in CALIBRATION_TERMS}
    if cores is not None:
        (tmp_path / "machine.txt").write_text(f"date: today\n{cores}\n")
    return extrap(tmp_path / "atoms.txt", atoms), extrap(tmp_path / "compositions.txt", terms)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("atoms", ["measured", "models"])
def test_a_known_machine_is_recovered(tmp_path: Path, atoms: str) -> None:
    files = synthetic(tmp_path)
    result = calibrate(files, cores=2, atoms=atoms, speedups=True)
    numbers = {n.name: n for n in result.numbers}
    assert list(numbers) == ["h0", "h1", "d0", "t0", "w0", "c_qsort", "c_inc"]
    assert numbers["h0"].value == pytest.approx(300, abs=30)
    assert numbers["h1"].value == pytest.approx(0.5, abs=0.02)
    assert numbers["d0"].value == pytest.approx(700, abs=20)
    assert numbers["t0"].value == pytest.approx(6000, abs=20)  # tpool_2(nop) takes it, slower than nop
    assert numbers["w0"].value == pytest.approx(2000, abs=20)  # pipe(inc, nop) pays it
    assert "w0" in MachineNumbers.of(result.machine).names  # an interval draws it
    assert numbers["c_qsort"].value == pytest.approx(0.1, abs=0.005)
    assert numbers["c_inc"].value == pytest.approx(0, abs=0.005)  # inc has none
    assert numbers.pop("c_inc").error < 0.005
    assert all(n.error is not None and n.error < 0.2 * n.value for n in numbers.values())
    for r in result.residuals:  # the machine explains the compositions to their noise
        assert max(map(abs, r.machine)) < 1e-3
    pipe = next(r for r in result.residuals if r.term == "pipe(inc, inc)")
    assert max(map(abs, pipe.rules)) > 0.1  # the rules miss the hand-off at small x


def test_without_speedups_only_the_handoff_is_fitted(tmp_path: Path) -> None:
    result = calibrate(synthetic(tmp_path), cores=2, speedups=False)
    assert [n.name for n in result.numbers] == ["h0", "h1", "d0", "t0", "w0"]
    assert not any("at the bound" in n for n in result.notes)  # no number at its bound
    # qsort's speed-up, left out, is a miss of tpool_2(qsort)'s own: the slope inherits it
    assert [n.split(" ± ")[0] for n in result.notes] == ["h1 = 0.4955"]
    assert result.machine.speedups == ()
    assert result.atoms == "measured"  # the atoms were measured at every size


def test_a_committed_run_gives_a_positive_handoff_that_explains_the_pipe() -> None:
    compositions = read(RUN / "compositions.txt")
    compositions = replace(compositions, series=tuple(s for s in compositions if s.kernel in FIVE_TERMS))
    result = calibrate([RUN / "atoms.txt", compositions])
    chosen = calibrate([RUN / "atoms.txt", RUN / "compositions.txt"], terms=FIVE_TERMS)
    assert chosen.machine == result.machine  # --terms picks the same regions
    assert result.machine.cores == 2  # from data7/machine.txt (lscpu's CPU(s))
    h0, h1, d0, w0 = (n.value for n in result.numbers)  # tpool_2(qsort): a dispatch cost
    assert h0 >= 0 and h1 > 0 and d0 >= 0 and w0 >= 0  # pipe(inc, nop): a stage waits
    pipe = next(r for r in result.residuals if r.term == "pipe(inc, inc)")
    assert np.median(np.abs(pipe.machine)) < np.median(np.abs(pipe.rules))
    assert result.machine.calibration  # the record of what it came from
    width = dict(result.machine.calibration)["width"]  # the intervals' factor, from 5 x 9 points
    assert width["points"] == 45 and 0.3 < width["factor"] < 1.5 and width["range"] == [1024.0, 262144.0]
    taken = round(100 * (1 - width["kept"] / 45))
    assert f"width factor {width['factor']:g} (from 45 points, x = 1024 to 262144; the fitted numbers took up {taken} % " in result.text()
    assert width["points"] - 2 * 9 <= width["kept"] <= width["points"] - 9  # pipe(inc, inc) and part of tpool_2(inc)
    frame = result.to_dataframe()
    assert list(frame["term"]) == [r.term for r in result.residuals]
    assert result.to_csv().splitlines()[0].startswith("term,points,rules median")
    html = result._repr_html_()
    assert "<caption>calibrated machine: 2 cores, hand-off" in html
    # a notebook shows what the command prints beside the table: each number with its fit
    below = html.split("</table>", 1)[1]
    assert below.startswith("<pre>fitted to 5 composition(s), 45 points")
    assert all(html_escape(n.text()) in below for n in result.numbers)
    assert f"width factor {width['factor']:g} (from 45 points" in below
    # its errors in percent, as the command prints them; CSV and the DataFrame keep fractions
    worst = result.rows()[0][5]
    assert f"<td>{percent_cell(worst)}</td>" in html and percent_cell(worst).endswith(" %")
    assert f"{worst:.3g}" in result.to_csv() and frame.iloc[0, 5] == worst


def _in_seconds(source: Path, target: Path) -> Path:
    """``source``, an Extra-P text file of times in ns, with its times in seconds."""
    lines = []
    for line in source.read_text().splitlines():
        field, _, rest = line.partition(" ")
        if field == "METRIC":
            line = "METRIC time_s"
        elif field == "DATA":
            line = "DATA " + " ".join(repr(float(v) * 1e-9) for v in rest.split())
        lines.append(line)
    target.write_text("\n".join(lines) + "\n")
    return target


def test_a_run_in_seconds_calibrates_the_machine_it_does_in_nanoseconds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The numbers, their errors and their covariance do not depend on the unit of the
    measurements (hyperfine and pytest-benchmark report seconds): in seconds, each was
    rounded to 0 below 1e-9 (a hand-off's slope of 1.4 ns per unit of x is 1.4e-9 s, its
    standard error and every covariance below it), so no interval drew the numbers."""
    run = RUN.parent / "data8"  # composed from the atoms' fits, as validate predicts: in
    files = [run / "atoms.txt", run / "compositions.txt"]  # seconds, the fit took other steps
    (tmp_path / "machine.txt").write_text((run / "machine.txt").read_text())
    seconds = [_in_seconds(f, tmp_path / f.name) for f in files]
    for atoms, out in ((files[0], "ns.toml"), (seconds[0], "s.toml")):
        assert main(["--quiet", "fit", str(atoms), "--out", str(tmp_path / out)]) == 0
    capsys.readouterr()
    ns = calibrate(files, tmp_path / "ns.toml", terms=FIVE_TERMS, atoms="models")
    s = calibrate(seconds, tmp_path / "s.toml", terms=FIVE_TERMS, atoms="models")
    assert s.machine.unit == "s" and ns.machine.unit == "ns"
    for a, b in zip(ns.numbers, s.numbers, strict=True):
        assert a.name == b.name and math.isclose(b.value * 1e9, a.value, rel_tol=1e-3, abs_tol=1e-9)
        assert math.isclose(b.error * 1e9, a.error, rel_tol=1e-2), (a, b)  # type: ignore[operator]
    record_ns, record_s = dict(ns.machine.calibration), dict(s.machine.calibration)
    assert record_s["covariance"]["names"] == record_ns["covariance"]["names"]
    scales = [1.0 if name.startswith("c_") else 1e9 for name in record_s["covariance"]["names"]]
    expected = np.array(record_ns["covariance"]["matrix"])
    found = np.array(record_s["covariance"]["matrix"]) * np.outer(scales, scales)
    assert np.allclose(found, expected, rtol=1e-2, atol=0.0)
    for name, error in record_ns["errors"].items():
        assert math.isclose(record_s["errors"][name] * (1.0 if name.startswith("c_") else 1e9), error, rel_tol=1e-2)
    # ... and the same interval, drawn the same (the draws factored whatever the unit)
    intervals = []
    for result, models, unit in ((ns, "ns.toml", "ns"), (s, "s.toml", "s")):
        write_machine(result.machine, tmp_path / f"machine_{unit}.toml")
        status, out, _ = cli(capsys, "eval", "pipe(tpool_4(qsort), tpool_2(inc))", "--models", str(tmp_path / models),
                             "--machine", str(tmp_path / f"machine_{unit}.toml"), "--at", "x=65536",
                             "--interval", "0.9", "--format", "json")  # fmt: skip
        assert status == 0, _
        found = json.loads(out)
        assert found["unit"] == unit
        intervals.append(np.array(found["interval"]) * (1e9 if unit == "s" else 1.0))
    assert np.allclose(intervals[0], intervals[1], rtol=1e-6, atol=0.0), intervals


@pytest.mark.parametrize("speedups", [True, "auto"])
def test_the_serial_fractions_are_as_sure_in_seconds_as_in_nanoseconds(tmp_path: Path, speedups: bool | str) -> None:
    """Light atoms (``inc`` 12 ns per unit of x) up to x = 262,144 and 5 % noise: in
    seconds, a hand-off slope's Jacobian column is 10^8 times a serial fraction's, and the
    pseudo-inverse's cut-off (relative to the largest singular value) dropped the
    fractions' directions: ``c_qsort = 0.08371 +- 5.7e-14`` where ns gave ``+- 0.018``, and
    auto's unkept variances 0. Each column is scaled to unit length first now."""
    sizes = 2.0 ** np.arange(10, 19)
    light = ModelLibrary([AtomicModel("nop", sympy.Integer(80), touches_data=False), AtomicModel("inc", 12 * x),
                          AtomicModel("qsort", 60 * x * log2(x))])  # fmt: skip
    atoms = {a: simulated(a, Machine(2).semantics, sizes, light) for a in ("nop", "inc", "qsort")}
    rng = np.random.default_rng(2)
    terms = {t: simulated(t, TRUTH.semantics, sizes, light) * (1 + 0.05 * rng.standard_normal(len(sizes)))
             for t in CALIBRATION_TERMS}  # fmt: skip
    ns = [extrap(tmp_path / "atoms.txt", atoms, sizes), extrap(tmp_path / "compositions.txt", terms, sizes)]
    seconds = [_in_seconds(f, tmp_path / f"s_{f.name}") for f in ns]
    a, b = (calibrate(files, cores=2, speedups=speedups) for files in (ns, seconds))
    scales = {n.name: 1.0 if n.name.startswith("c_") else 1e9 for n in a.numbers}
    for m, n in zip(a.numbers, b.numbers, strict=True):
        # the numbers are kept in 4 digits: the two units' fits may round to neighbours (h0,
        # whose error is ten times its value, was 75.36 ns and 7.535e-08 s with scipy 1.17)
        assert m.name == n.name and math.isclose(n.value * scales[n.name], m.value, rel_tol=1e-3, abs_tol=1e-9)
        assert math.isclose(n.error * scales[n.name], m.error, rel_tol=1e-5), (m, n)  # type: ignore[operator]
    record_ns, record_s = dict(a.machine.calibration)["covariance"], dict(b.machine.calibration)["covariance"]
    names = record_ns["names"]
    assert names == record_s["names"] and {"c_qsort", "c_inc"} <= set(names)
    factors = np.array([1.0 if name.startswith("c_") else 1e9 for name in names])
    expected = np.array(record_ns["matrix"])
    assert np.all(np.diagonal(expected) > 0)
    assert np.allclose(np.array(record_s["matrix"]) * np.outer(factors, factors), expected, rtol=1e-3, atol=0.0)


def test_atoms_measured_at_fewer_sizes_are_composed_from_their_fits_and_it_says_so(tmp_path: Path) -> None:
    """The atoms measured at the four smallest sizes, the compositions at all eight: the
    terms are composed from the atoms' fits, and a note says where they were not measured
    and what the fits saw (the calibration said only "composed from the atoms' models")."""
    atoms, compositions = synthetic(tmp_path)
    exact = Machine(2).semantics
    fewer = extrap(tmp_path / "fewer.txt", {a: simulated(a, exact, SIZES[:4]) for a in ("nop", "inc", "qsort")},
                   SIZES[:4])  # fmt: skip
    result = calibrate([fewer, compositions])
    assert result.atoms == "models"
    assert result.notes[0] == (
        "the atoms were not measured at every size of the compositions (x = 1024, 4096, 16384, ... (4 sizes)): "
        "the terms are composed from the atoms' models, fitted to their regions at x = 4 to 256"
    )
    assert not any("not measured at every size" in n for n in calibrate([atoms, compositions]).notes)


def test_atoms_in_another_unit_than_the_compositions_are_converted(tmp_path: Path) -> None:
    """Atoms measured in ns beside compositions in seconds (two tools, two units) calibrate
    the machine both in seconds give, with a note; composed as they were, 10^9 apart, every
    number came out 0 ('machine: 2 cores'). Compositions in two units are an error."""
    run = RUN.parent / "data8"
    (tmp_path / "machine.txt").write_text((run / "machine.txt").read_text())
    atoms_s = _in_seconds(run / "atoms.txt", tmp_path / "atoms_s.txt")
    compositions_s = _in_seconds(run / "compositions.txt", tmp_path / "compositions_s.txt")
    both = calibrate([atoms_s, compositions_s], terms=FIVE_TERMS)
    mixed = calibrate([run / "atoms.txt", compositions_s], terms=FIVE_TERMS)
    assert [n.value for n in mixed.numbers] == [n.value for n in both.numbers] and mixed.numbers[0].value > 0
    assert "converted to s: " in mixed.notes[0] and "inc (ns)" in mixed.notes[0]
    assert not any(n.startswith("converted") for n in both.notes)
    extra = extrap(tmp_path / "ns.txt", {"pipe(nop, qsort)": SIZES * 9000.0})
    with pytest.raises(PatternalgError, match=r"the compositions are in several units \(ns, s\)"):
        calibrate([atoms_s, compositions_s, extra], terms=[*FIVE_TERMS, "pipe(nop, qsort)"])


def test_the_command_writes_a_machine_file_that_reads_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    atoms, compositions = synthetic(tmp_path)
    out = tmp_path / "machine.toml"
    status, text, err = cli(capsys, "calibrate", str(atoms), str(compositions), "--out", str(out))
    assert status == 0, err
    machine = read_machine(out)
    expected = calibrate([atoms, compositions]).machine
    assert machine == expected
    assert dict(machine.calibration)["numbers"] == dict(expected.calibration)["numbers"]
    # the residuals' spread at each size, what intervals widen by, reads back exactly
    spread = dict(machine.calibration)["spread"]
    assert spread == dict(expected.calibration)["spread"] and len(spread["sizes"]) == len(SIZES)
    assert dict(machine.calibration)["width"] == dict(expected.calibration)["width"]  # the intervals' factor too
    assert machine.dispatch == expected.dispatch and machine.dispatch != 0
    assert dict(machine.calibration)["speedups"] == dict(expected.calibration)["speedups"]
    assert "h0 = " in text and "pipe(inc, inc)" in text and "speed-ups (auto): kept: " in text
    status, text, _ = cli(capsys, "calibrate", str(atoms), str(compositions), "--out", str(out),
                          "--format", "json")  # fmt: skip
    record = json.loads(text)
    # TRUTH's qsort gains less than its threads: auto keeps the speed-ups
    assert [n["name"] for n in record["numbers"]] == ["h0", "h1", "d0", "t0", "w0", "c_qsort", "c_inc"]
    assert record["speedups"]["asked"] == "auto" and record["speedups"]["kept"] is True
    assert {r["term"] for r in record["residuals"]} == set(CALIBRATION_TERMS)


@pytest.mark.parametrize("line, cores", [("cores: 3", 3), ("CPU(s):    5", 5)])
def test_cores_come_from_machine_txt(tmp_path: Path, line: str, cores: int) -> None:
    files = synthetic(tmp_path, cores=line)
    assert recorded_cores(map(str, files)) == cores
    assert calibrate(files).machine.cores == cores
    assert calibrate(files, cores=4).machine.cores == 4


def test_cores_from_google_benchmark_context(tmp_path: Path) -> None:
    path = tmp_path / "gb.json"
    path.write_text(json.dumps({"context": {"num_cpus": 16}, "benchmarks": []}))
    assert recorded_cores([str(path)]) == 16
    assert recorded_cores([str(tmp_path / "none.json")]) is None


@pytest.mark.parametrize("suffix", [".txt", ".json"])
def test_cores_from_what_measure_records(tmp_path: Path, suffix: str) -> None:
    """``measure`` records the cores as ``run.sh`` does, so ``calibrate`` needs no ``--cores``."""
    from patternalg.measurements.runner import usable_cores

    out = tmp_path / f"m{suffix}"
    args = ["measure", "true {x}", "--over", "x=1,2", "--repetitions", "1", "--out", str(out)]
    assert main(args) == 0
    assert recorded_cores([str(out)]) == usable_cores()
    atoms, compositions = synthetic(tmp_path, cores=None)
    atoms.write_text("# measured by patternalg measure\n# cores: 3\n" + atoms.read_text())
    assert calibrate([atoms, compositions]).machine.cores == 3


def test_cores_from_what_standard_input_records(tmp_path: Path) -> None:
    """``calibrate -`` reads the ``# cores: N`` the same file gives as a path (the lookup
    skipped a name that is not a file: 'the measurements do not say how many cores')."""
    from helpers import run_cli

    atoms, compositions = synthetic(tmp_path, cores=None)
    both = "# measured by patternalg measure\n# cores: 3\n" + atoms.read_text()
    both += "".join(line + "\n" for line in compositions.read_text().splitlines() if line.split(" ", 1)[0] in ("REGION", "DATA"))
    out = tmp_path / "machine.toml"
    done = run_cli("calibrate", "-", "--out", str(out), stdin=both)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("machine: 3 cores, ") and read_machine(out).cores == 3
    unsaid = run_cli("calibrate", "-", "--out", str(out), stdin=both.replace("# cores: 3\n", ""))
    assert unsaid.returncode == 2 and "do not say how many cores" in unsaid.stderr


def _only(path: Path, keep: tuple[str, ...]) -> Path:
    text = path.read_text().split("REGION ")
    kept = [text[0]] + [r for r in text[1:] if r.split("\n", 1)[0] in keep]
    out = path.with_name(f"only_{len(keep)}_{path.name}")
    out.write_text("REGION ".join(kept))
    return out


@pytest.mark.parametrize(
    "case, wanted",
    [
        ("atoms only", "no composition"),
        ("no atoms", "no atom regions and no models"),
        ("unknown atom", "foo.txt: region pipe(inc, foo): foo is neither measured nor modelled (modelled: inc, nop, "
                         "qsort): measure it as a region of its own, or give the models (models=..., --models)"),
        # a mapReduce's shuffle phase is a model too ('unknown atom shuffle', while `models` lists it)
        ("shuffle", "mr.txt: region mapReduce_{1,2}^{2,x}(inc, inc): shuffle (the model of its mapReduce's shuffle "
                    "phase) is neither measured nor modelled"),
        # each was an error of eval's: no file, no region, options calibrate does not have
        ("free count", "free.txt: region tpool_n(inc): the thread count of tpool_n(...) is n, and calibrate has no "
                       "value for n: the regions are measured over x alone"),
        ("metavariable", "meta.txt: region pipe(inc, A): A is a law's metavariable"),
        ("atom in --terms", "--terms: inc is an atom, not a composition"),
        # one file's two blocks were pooled into one series and fitted as one (h1 four times
        # the truth), where two files' were refused
        # the reader now leaves such a region out (fit fits the others); calibrate refuses it
        ("twice in a file", "twice.txt:13: REGION 'pipe(inc, inc)' under METRIC 'time' is given twice (line 4)"),
        ("twice in two files", "again.txt: region pipe(inc, inc): measured twice (also "),
        ("too few points", "too few points: 1 composition value(s) for 2 numbers"),
        # as many values as numbers leave no residual (the docs said 'fewer' is refused)
        ("as many points", "too few points: 2 composition value(s) for 2 numbers: a fit needs more values than numbers"),
        ("no cores", "--cores N"),
        ("not a term", "not a term"),
        ("bad cores", "expected a whole number of cores from 1 to 1048576"),
        ("unmeasured term", "was not measured"),
        ("annotated atom", "without annotations"),
        ("sizes named n", "(this file's parameters: n; if n is that size, name its column x, in the atoms' file too)"),
        ("energies", "its values (energy_J) are no times: calibrate fits times per data element"),
    ],
)
def test_errors_are_one_line_and_leave_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, wanted: str
) -> None:
    atoms, compositions = synthetic(tmp_path, cores=None if case == "no cores" else "cores: 2")
    files = [str(atoms), str(compositions)]
    extra: list[str] = []
    if case == "atoms only":
        files = [str(atoms)]
    elif case == "no atoms":
        files = [str(compositions)]
    elif case == "unknown atom":
        files.append(str(extrap(tmp_path / "foo.txt", {"pipe(inc, foo)": SIZES * 600.0})))
    elif case in ("shuffle", "free count", "metavariable"):
        name, term = {"shuffle": ("mr", "mapReduce_{1,2}^{2,x}(inc, inc)"), "free count": ("free", "tpool_n(inc)"),
                      "metavariable": ("meta", "pipe(inc, A)")}[case]  # fmt: skip
        files.append(str(extrap(tmp_path / f"{name}.txt", {term: SIZES * 600.0})))
    elif case == "twice in a file":
        files = [str(atoms), str(extrap(tmp_path / "twice.txt", {"pipe(inc, inc)": SIZES * 600.0}))]
        again = (tmp_path / "twice.txt").read_text().split("METRIC time\n")[1]
        (tmp_path / "twice.txt").write_text((tmp_path / "twice.txt").read_text() + again.replace("600", "900"))
    elif case == "twice in two files":
        files.append(str(extrap(tmp_path / "again.txt", {"pipe(inc, inc)": SIZES * 600.0})))
    elif case == "atom in --terms":
        extra = ["--terms", "inc;pipe(inc, inc)"]
    elif case in ("too few points", "as many points"):
        two = SIZES[:1] if case == "too few points" else SIZES[:2]
        files = [str(extrap(tmp_path / "a.txt", {"inc": two * 536.0}, two)),
                 str(extrap(tmp_path / "c.txt", {"pipe(inc, inc)": two * 600.0}, two))]  # fmt: skip
        (tmp_path / "machine.txt").write_text("cores: 2\n")
    elif case == "not a term":
        files.append(str(extrap(tmp_path / "bad.txt", {"pipe(inc": SIZES})))
    elif case == "bad cores":
        extra = ["--cores", "0"]
    elif case == "annotated atom":
        files.append(str(extrap(tmp_path / "ann.txt", {"inc[p=2]": SIZES * 536.0})))
    elif case == "sizes named n":
        table = tmp_path / "n.csv"
        table.write_text("kernel,n,time\n" + "".join(f'"pipe(inc, inc)",{n},{600 * n}\n' for n in SIZES))
        files.append(str(table))
    elif case == "unmeasured term":
        extra = ["--terms", "pipe(inc, inc);tpool_4(qsort)"]
    elif case == "energies":  # read as ns, they met the atoms' fits in no unit at all
        compositions.write_text(compositions.read_text().replace("METRIC time", "METRIC energy_J"))
    out = tmp_path / "machine.toml"
    out.write_text("old\n")
    status, text, err = cli(capsys, "calibrate", *files, "--out", str(out), *extra)
    assert status == 2 and text == ""
    assert err.count("\n") == 1 and wanted in err, err
    assert out.read_text() == "old\n"  # never half-written, never replaced by a failure


def test_noise_free_errors_are_not_said_to_change_sign(tmp_path: Path) -> None:
    """Four equal repetitions of the truth: the machine's worst error is 0 against every
    half, which keeps no sign; the text said it 'changes sign between halves ... within what
    the measurement itself moves' of compositions that nothing moved and nothing missed."""
    def equal_repetitions(path: Path, regions: dict[str, np.ndarray]) -> Path:
        lines = ["PARAMETER x", "POINTS " + " ".join(f"({s:g})" for s in SIZES), "METRIC time"]
        for name, values in regions.items():
            lines += [f"REGION {name}", *("DATA " + " ".join([f"{v:.17g}"] * 4) for v in values)]
        path.write_text("\n".join(lines) + "\n")
        return path

    exact = Machine(2).semantics
    atoms = equal_repetitions(tmp_path / "a.txt", {a: simulated(a, exact, SIZES) for a in ("nop", "inc", "qsort")})
    terms = {t: simulated(t, TRUTH.semantics, SIZES) for t in CALIBRATION_TERMS}
    result = calibrate([atoms, equal_repetitions(tmp_path / "c.txt", terms)], cores=2)
    seq = next(r for r in result.residuals if r.term == "seq(inc, inc)")
    assert seq.machine_worst_halves == {"in_halves": [0.0, 0.0], "holds": False} and not seq.within_noise
    assert "changes sign" not in result.text()


def test_the_output_is_not_an_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    atoms, compositions = synthetic(tmp_path)
    before = atoms.read_text()
    status, _, err = cli(capsys, "calibrate", str(atoms), str(compositions), "--out", str(atoms))
    assert status == 2 and "input" in err
    assert atoms.read_text() == before


def test_a_number_at_its_bound_is_noted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exact = Machine(2).semantics
    atoms = {a: simulated(a, exact, SIZES) for a in ("nop", "inc", "qsort")}
    slower = {"pipe(inc, inc)": simulated("inc", exact, SIZES) * 0.9}  # faster than inc alone
    files = [str(extrap(tmp_path / "a.txt", atoms)), str(extrap(tmp_path / "c.txt", slower))]
    status, text, err = cli(capsys, "calibrate", *files, "--cores", "2", "--out", str(tmp_path / "m.toml"))
    assert status == 0
    assert "h0 = 0 " in text and "h1 = 0 " in text
    assert err.count("note: h") == 2 and "at the bound of the fit" in err
    assert read_machine(tmp_path / "m.toml").handoff == 0


def test_a_cost_no_calibration_composition_measures_is_none_and_noted(tmp_path: Path) -> None:
    # pools alone: no composition moves the hand-off, whose slope kept the fit's first
    # guess (h1 = 0.9982: a pipe(inc, inc) 1 us slower per element at x = 1,024) until it
    # was set to 0; pipes alone: no dispatch cost to fit
    pools = calibrate(synthetic(tmp_path), cores=2, terms=["tpool_2(qsort)", "tpool_2(inc)"])
    numbers = {n.name: n for n in pools.numbers}
    assert numbers["h0"].value == numbers["h1"].value == 0 and numbers["h1"].error is None
    assert pools.machine.handoff == 0
    assert [n for n in pools.notes if "hand-off" in n] == [
        "no calibration composition pays a hand-off (a pipe whose stages both touch the data, such as "
        "pipe(inc, inc)): the machine has none, and predicts every pipe without one"
    ]
    # the hand-off is unmeasured, not at a bound; c_inc (0 in the truth) may be at its bound
    assert not any(n.startswith(("h0", "h1")) or "pool of 2 or more" in n for n in pools.notes)
    pipes = calibrate(synthetic(tmp_path), cores=2, terms=["pipe(inc, inc)", "seq(inc, inc)"])
    assert pipes.machine.dispatch == 0 and [n for n in pipes.notes if "pool" in n] == [
        "no calibration composition is a pool of 2 or more threads: the machine has no dispatch cost, and "
        "predicts every pool without one (a pool of a light atom, such as tpool_2(inc), measures it)"
    ]
    assert not any("hand-off" in n for n in pipes.notes)
    full = calibrate(synthetic(tmp_path), cores=2).notes  # the calibration set measures both
    assert not any("hand-off" in n or "pool of 2 or more" in n for n in full)


def test_models_given_decide_touching_and_the_basis(tmp_path: Path) -> None:
    atoms, compositions = synthetic(tmp_path)

    builtin = ModelLibrary.builtin()
    result = calibrate([compositions], builtin, atoms="models")
    assert result.atoms == "models"
    assert result.numbers[0].value == pytest.approx(300, abs=30)
    with pytest.raises(PatternalgError, match="region pipe.inc, inc.: inc is neither measured nor modelled .measured: none."):
        calibrate([compositions], builtin, atoms="measured")
    assert math.isfinite(result.numbers[1].value)


def test_the_benchmark_finds_the_core_bound_where_the_rules_miss() -> None:
    """bench_machine's protocol on one committed run: the machine calibrated on the five
    calibration compositions predicts the others, tpool_4(qsort) among them, better."""
    from helpers import load_module

    bench = load_module("benchmarks", "bench_machine")
    run = bench.Run.read(RUN)
    library = bench.measured_atoms(run.atoms)
    machine = run.machine(None)
    rules, ours = run.errors("exact", library, None), run.errors(machine.semantics, library, None)
    assert set(rules) == set(ours) and not set(rules) & set(CALIBRATION_TERMS)
    assert np.all(rules["tpool_4(qsort)"][1] < -0.4) and np.all(np.abs(ours["tpool_4(qsort)"][1]) < 0.1)
    every = [np.abs(np.concatenate([e[1] for e in found.values()])) for found in (ours, rules)]
    assert np.median(every[0]) <= np.median(every[1])


# --- speed-ups: auto keeps them only where they predict the sizes left out better ----------
DATA9 = ROOT / "tests" / "data" / "realdata" / "data9"  # benchmarks/realdata/data9, 5 compositions


def test_a_constant_dispatch_and_perfect_speedups_keep_no_speedup(tmp_path: Path) -> None:
    truth = Machine(2, handoff="300 + 0.5*x", dispatch="700")
    result = calibrate(synthetic(tmp_path, truth=truth), cores=2)
    numbers = {n.name: n.value for n in result.numbers}
    # tpool_2(nop) is faster than nop here: no turn shows, and none is fitted
    assert list(numbers) == ["h0", "h1", "d0", "w0"] and result.machine.speedups == ()
    assert numbers["d0"] == pytest.approx(700, abs=20)
    assert numbers["w0"] == pytest.approx(0, abs=20)  # pipe(inc, nop) is inc: no wake
    choice = dict(result.machine.calibration)["speedups"]
    assert choice["asked"] == "auto" and choice["kept"] is False and choice["sizes"] == len(SIZES)
    assert choice["with"] < 1e-3 and choice["without"] < 1e-3  # both predict to the noise
    assert "speed-ups (auto): none: leaving each of the 8 calibration sizes out" in result.text()


def test_a_dense_scan_is_left_out_in_folds_not_a_fit_per_size() -> None:
    """3,000 sizes of two compositions took 300 s and 4.5 GB (a fit per size left out, each
    evaluated at every point); 20,000 were killed. Dealt into 20 folds, they take seconds."""
    truth = Machine(2, handoff="300 + 0.5*x", dispatch="700", speedups={"inc": "p/(1 + 0.05*(p - 1))"})
    sizes = np.geomspace(1000, 1e6, 2000)
    rng = np.random.default_rng(3)
    data = {t: (sizes, simulated(t, truth.semantics, sizes) * np.exp(rng.normal(0, 0.01, len(sizes))))
            for t in ("pipe(inc, inc)", "tpool_2(inc)")}  # fmt: skip
    result = calibrate(data, ModelLibrary.builtin(), cores=2, atoms="models")
    choice = dict(result.machine.calibration)["speedups"]
    assert choice["sizes"] == 2000 and choice["folds"] == 20 and choice["kept"] is True
    assert "leaving each of 20 folds of the 2000 calibration sizes (every 20th size) out" in result.text()


def test_a_real_speedup_is_kept_and_recovered(tmp_path: Path) -> None:
    truth = Machine(2, handoff="300 + 0.5*x", dispatch="400",
                    speedups={"qsort": "p/(1 + 0.1*(p - 1))", "inc": "p/(1 + 0.3*(p - 1))"})  # fmt: skip
    result = calibrate(synthetic(tmp_path, truth=truth), cores=2)
    numbers = {n.name: n.value for n in result.numbers}
    assert numbers["c_qsort"] == pytest.approx(0.1, abs=0.005)
    assert numbers["c_inc"] == pytest.approx(0.3, abs=0.01)
    assert numbers["d0"] == pytest.approx(400, abs=20)
    choice = dict(result.machine.calibration)["speedups"]
    assert choice["kept"] is True and choice["with"] < 1e-3 < choice["without"] - choice["error"]
    # without them, the dispatch cost takes up what the pools lose, and misses it (by less
    # than the pools alone would: tpool_2(nop), which pays it whole, holds it)
    plain = {n.name: n.value for n in calibrate(synthetic(tmp_path, truth=truth), cores=2, speedups=False).numbers}
    assert abs(plain["d0"] - 400) > 50


def test_on_the_busy_data9_auto_keeps_the_speedups_and_the_dispatch_falls() -> None:
    files = [DATA9 / "atoms.txt", DATA9 / "calibration.txt"]
    result = calibrate(files)
    numbers = {n.name: n.value for n in result.numbers}
    assert {"c_qsort", "c_inc"} <= set(numbers) and numbers["c_inc"] > 0.1  # inc gains < 2 on 2 threads
    assert numbers["d0"] < 1000
    choice = dict(result.machine.calibration)["speedups"]
    assert choice["kept"] is True and choice["without"] - choice["with"] > choice["error"]
    plain = calibrate(files, speedups=False)  # a constant dispatch cost takes up the pool's loss
    assert {n.name: n.value for n in plain.numbers}["d0"] > 2000


def test_too_few_sizes_or_no_pool_keep_the_simpler_machine(tmp_path: Path) -> None:

    exact = Machine(2).semantics
    two = SIZES[-2:]
    atoms = {a: simulated(a, exact, two) for a in ("inc", "qsort")}
    terms = {t: simulated(t, TRUTH.semantics, two) for t in ("pipe(inc, inc)", "tpool_2(qsort)", "tpool_2(inc)")}
    files = [extrap(tmp_path / "a.txt", atoms, two), extrap(tmp_path / "c.txt", terms, two)]
    result = calibrate(files, ModelLibrary.builtin(), cores=2)  # models: no fit of 2 sizes for the widths
    assert result.machine.speedups == ()
    assert "too few sizes to leave one out (2; at least 3" in dict(result.machine.calibration)["speedups"]["why"]
    pipes = calibrate(synthetic(tmp_path), cores=2, terms=["pipe(inc, inc)", "seq(inc, inc)"])
    assert "none: no tpool_k(atom) calibration composition" in pipes.text()
    assert "speed-ups: fitted (asked: yes)" in calibrate(synthetic(tmp_path), cores=2, speedups=True).text()
    with pytest.raises(PatternalgError, match="speedups is 'auto', True or False, not 'yes'"):
        calibrate(synthetic(tmp_path), cores=2, speedups="yes")


def test_the_batch_is_the_machine_semantics() -> None:
    """The fits evaluate many machines in one fold: the same values as one machine at a time."""
    from patternalg.evidence.calibration import _composing
    from patternalg.evidence.calibration_fit import Problem
    from patternalg.evidence.calibration_regions import read_regions
    from patternalg.syntax.terms import Atom

    regions, _, _ = read_regions([RUN / "atoms.txt", RUN / "compositions.txt"])
    atoms = [r for r in regions if isinstance(r.term, Atom)]
    compositions = [r for r in regions if not isinstance(r.term, Atom)]
    _, library, _ = _composing(compositions, atoms, None, None)
    problem = Problem(compositions, library, 2, "ns", ["qsort", "inc"])
    assert problem.names == ["h0", "h1", "d0", "w0", "c_qsort", "c_inc"]
    thetas = np.random.default_rng(1).uniform([0, 0, 0, 0, 0, 0], [3000, 3, 2000, 20000, 1, 1], (3, 6))
    found = problem.batch.errors(thetas)
    for theta, row in zip(thetas, found, strict=True):
        one = np.concatenate(problem.errors(problem.machine(theta).semantics))
        np.testing.assert_allclose(row, one, rtol=1e-12)


def test_a_slope_a_number_follows_is_kept_in_part_one_no_number_reaches_whole() -> None:
    """Each calibration composition's kept share of a slope in log2(x) (the missed spread's
    growth counts slopes by it): the hand-off h0 + h1*x takes up most of a pipe of two
    stages that touch the data, the dispatch cost a part of a light pool's, and nothing
    reaches seq(inc, inc) or pipe(inc, nop) (nop touches no data: no hand-off)."""
    from patternalg.evidence.calibration import _composing
    from patternalg.evidence.calibration_fit import Problem, fit_numbers
    from patternalg.evidence.calibration_regions import read_regions
    from patternalg.syntax.terms import Atom

    regions, _, _ = read_regions([RUN / "atoms.txt", RUN / "compositions.txt"])
    atoms = [r for r in regions if isinstance(r.term, Atom)]
    compositions = [r for r in regions if str(r.term) in CALIBRATION_TERMS]
    _, library, _ = _composing(compositions, atoms, None, None)
    fitted = fit_numbers(Problem(compositions, library, 2, "ns", []))
    kept = {str(r.term): float(k) for r, k in zip(compositions, fitted.slopes, strict=True)}
    assert kept["seq(inc, inc)"] == pytest.approx(1.0) and kept["pipe(inc, nop)"] == pytest.approx(1.0)
    assert kept["pipe(inc, inc)"] < 0.4 and 0.3 < kept["tpool_2(inc)"] < 0.8


@pytest.mark.parametrize("given, kept", [([], True), (["--speedups"], True), (["--speedups", "no"], False)])
def test_the_speedups_option(tmp_path: Path, capsys: pytest.CaptureFixture[str], given: list[str], kept: bool) -> None:
    atoms, compositions = synthetic(tmp_path)
    out = tmp_path / "m.toml"
    status, text, err = cli(capsys, "calibrate", str(atoms), str(compositions), *given, "--out", str(out))
    assert status == 0, err
    assert bool(read_machine(out).speedups) is kept
    assert sum(line.startswith("speed-ups") for line in text.splitlines()) == 1
    with pytest.raises(SystemExit) as exit:  # argparse's own one line
        main(["calibrate", str(atoms), str(compositions), "--speedups", "maybe", "--out", str(out)])
    text, err = capsys.readouterr()
    assert exit.value.code == 2 and text == "" and err.count("\n") == 1 and "invalid choice: 'maybe'" in err


def test_terms_listed_with_commas_are_told_the_separator(tmp_path, capsys) -> None:
    """A comma is inside a term's brackets and between terms alike: the error pointed at the
    first comma between two terms as a syntax error of the first."""
    run = Path(__file__).resolve().parents[1] / "benchmarks" / "realdata" / "data14"
    out = tmp_path / "m.toml"
    args = ["calibrate", str(run / "atoms.txt"), str(run / "compositions.txt"), "--out", str(out)]
    assert main([*args, "--terms", "pipe(inc, inc),tpool_2(qsort)"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--terms: terms are separated by ';', not ',' (pipe(inc, inc);tpool_2(qsort))" in err
    assert not out.exists()


def test_the_harness_preset_measures_the_calibration_set() -> None:
    # run.sh is shell (it needs nothing but g++): its CALIBRATION=1 preset is checked here
    # against the one list calibrate's messages, the tests and the benchmarks use
    script = (ROOT / "benchmarks" / "realdata" / "run.sh").read_text()
    preset = next(line for line in script.splitlines() if 'terms=${TERMS:-"nop;inc;qsort;' in line and "widest" in line)
    assert f'"nop;inc;qsort;{";".join(CALIBRATION_TERMS)}$widest"' in preset
    assert 'widest=";tpool_$cores(qsort)"' in script  # calibration_terms(cores) on more than 2
    assert calibration_terms(16) == (*CALIBRATION_TERMS, "tpool_16(qsort)")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_named_machine_txt_beside_the_measurements_is_not_read(tmp_path) -> None:
    """A FIFO named machine.txt beside the measurements blocked calibrate for ever, waiting
    for a writer; only the file the user names is read as a pipe."""
    data = tmp_path / "m.txt"
    data.write_text("PARAMETER x\nPOINTS 1 2\nREGION k\nMETRIC time\nDATA 1\nDATA 2\n")
    os.mkfifo(tmp_path / "machine.txt")
    found: list[int | None] = []
    reading = threading.Thread(target=lambda: found.append(recorded_cores([str(data)])), daemon=True)
    reading.start()
    reading.join(timeout=30)
    assert found == [None]  # not left waiting for a writer


def test_a_calibration_plots_each_composition_under_the_machine_and_the_rules(tmp_path: Path) -> None:
    """Every result drew itself but the calibration: each composition's relative error over
    x, the machine's solid and the rules' dashed, in percent."""
    pytest.importorskip("matplotlib")
    result = calibrate(synthetic(tmp_path), cores=2, speedups=True)
    ax = result.plot()
    drawn = {line.get_label(): line for line in ax.get_lines()}
    assert set(CALIBRATION_TERMS) <= set(drawn) and ax.get_xscale() == "log"
    pipe = next(r for r in result.residuals if r.term == "pipe(inc, inc)")
    assert np.allclose(drawn["pipe(inc, inc)"].get_ydata(), 100 * np.asarray(pipe.machine))
    dashed = [line for line in ax.get_lines() if line.get_linestyle() == "--" and len(line.get_xdata())]
    assert any(np.allclose(line.get_ydata(), 100 * np.asarray(pipe.rules)) for line in dashed)
    assert "%" in ax.get_ylabel()


def test_numbers_the_compositions_hardly_determine_are_named_once(tmp_path: Path) -> None:
    """On data12 (5 repetitions) the five compositions give d0 = 953.5 +- 650 (610 before the
    wake) and h0 = 1727 +- 1000: the errors were printed, but nothing said that a prediction leaning on them is
    as unsure. One note names them; a machine known to 1e-4 has none."""
    run = ROOT / "benchmarks" / "realdata" / "data12"
    five = tmp_path / "five.txt"
    kept, keep = [], True
    for line in (run / "compositions.txt").read_text().splitlines():
        if line.startswith("REGION"):
            keep = line[len("REGION "):] in FIVE_TERMS
        if keep or not line.startswith(("REGION", "DATA")):
            kept.append(line)
    five.write_text("\n".join(kept) + "\n")
    notes = calibrate([run / "atoms.txt", five], cores=2).notes
    unsure = [n for n in notes if "determine them to ±50 % or worse" in n]
    assert len(unsure) == 1 and unsure[0].startswith("h0 = ") and "d0 = 953.5 ± 650" in unsure[0], notes
    assert "w0 = 1070 ± 1100" in unsure[0]  # its observer woke a thread per array: no wake to tell
    assert not any("or worse" in n for n in calibrate(synthetic(tmp_path), cores=2, speedups=True).notes)


# --- the turn: a pool's least time per element -----------------------------------------------
PROBE = ROOT / "benchmarks" / "realdata" / "probes" / "small_pools_epyc"


def test_the_turn_calibrated_on_one_run_predicts_the_light_pools_of_another() -> None:
    """data23 calibrated on the default set (``tpool_2(nop)`` at x >= 1,024 among them) has a
    turn of about 167 ns; it predicts the probe ``small_pools_epyc`` (another run on the same
    EPYC, x = 8 to 1,024, from the probe's own atoms) where the five compositions, which
    cannot measure a turn, have none: ``tpool_2(nop)`` 87 to 90 % too fast, ``tpool_2(inc)``
    of arrays of 8 ints 83 %."""
    from patternalg.algebra.arrays import compile_term
    from patternalg.syntax.parser import parse

    run = ROOT / "benchmarks" / "realdata" / "data23"
    files = [run / "atoms.txt", run / "compositions.txt"]
    default, five = (calibrate(files, terms=terms).machine for terms in (CALIBRATION_TERMS, FIVE_TERMS))
    assert five.turn == 0 and float(default.turn) == pytest.approx(167, abs=10)
    assert "no calibration composition is a pool no faster than its atom alone" in " ".join(
        calibrate(files, terms=FIVE_TERMS).notes)
    atoms = {s.kernel: s for s in read(PROBE / "atoms.txt")}
    measured = {s.kernel: s for s in read(PROBE / "compositions.txt")}
    sizes = atoms["nop"].points[:, 0]

    def errors(term: str, machine: Machine) -> np.ndarray:
        found = []
        for i, size in enumerate(sizes):  # each size from the probe's atom medians there
            library = ModelLibrary([AtomicModel("nop", sympy.Float(np.median(atoms["nop"].values[i])), touches_data=False),
                                    AtomicModel("inc", sympy.Float(np.median(atoms["inc"].values[i])))])  # fmt: skip
            value = compile_term(parse(term), library, {}, semantics=machine.semantics).values({"x": np.array([size])})[0]
            found.append(value / np.median(measured[term].values[i]) - 1)
        return np.array(found)

    assert np.all(np.abs(errors("tpool_2(nop)", default)) < 0.15)
    assert np.all(errors("tpool_2(nop)", five) < -0.8)
    light = errors("tpool_2(inc)", default)[0], errors("tpool_2(inc)", five)[0]  # x = 8
    assert -0.4 < light[0] < -0.25 and light[1] < -0.8  # closer, and still short: see docs/machine.md
