"""What a calibrated machine's operators miss, the calibration's own noise taken out
(``patternalg.evidence.missed``, docs/uncertainty.md)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from patternalg.algebra.machine import Machine
from patternalg.evidence.calibrated import Calibration
from patternalg.evidence.calibration import calibrate, simulated
from patternalg.evidence.calibration_set import FIVE_TERMS
from patternalg.evidence.missed import missed_by_size, residual_noise
from patternalg.library.model_library import ModelLibrary
from patternalg.syntax.parser import parse

SIZES = 2.0 ** np.arange(10, 19)
TRUTH = Machine(2, handoff="300 + 0.5*x", dispatch="700")


def noisy_file(path: Path, regions: dict[str, np.ndarray], noise: float, seed: int, reps: int = 10) -> Path:
    """An Extra-P text file: ``reps`` repetitions per size, each value times 1 + noise * N(0, 1)."""
    rng = np.random.default_rng(seed)
    lines = ["PARAMETER x", "POINTS " + " ".join(f"({s:g})" for s in SIZES), "METRIC time"]
    for name, values in regions.items():
        lines.append(f"REGION {name}")
        lines += [
            "DATA " + " ".join(f"{v * (1 + noise * e):.17g}" for e in rng.standard_normal(reps)) for v in values
        ]
    path.write_text("\n".join(lines) + "\n")
    return path


def calibration_of(tmp_path: Path, noise: float, miss: float = 0.0, seed: int = 1, drift: float = 0.0) -> Calibration:
    """The calibration on data from :data:`TRUTH` with ``noise`` per repetition, the
    compositions measured ``miss`` off by turns (+, -) at every size, and drifting by
    ``drift`` per doubling of x (up and down by turns)."""
    exact = Machine(2).semantics
    atoms = {a: simulated(a, exact, SIZES) for a in ("nop", "inc", "qsort")}
    turns = 1 + miss * (-1.0) ** np.arange(len(SIZES))
    terms = {t: simulated(t, TRUTH.semantics, SIZES) * np.roll(turns, i) * (1 + (-1) ** i * drift * (np.log2(SIZES) - 14))
             for i, t in enumerate(FIVE_TERMS)}  # fmt: skip
    files = [noisy_file(tmp_path / "atoms.txt", atoms, noise, seed),
             noisy_file(tmp_path / "compositions.txt", terms, noise, seed + 1)]  # fmt: skip
    return calibrate(files, cores=2)


def record_of(tmp_path: Path, noise: float, miss: float = 0.0, seed: int = 1, drift: float = 0.0) -> dict:
    """The spread record of :func:`calibration_of`."""
    return dict(dict(calibration_of(tmp_path, noise, miss, seed, drift).machine.calibration)["spread"])


def test_noise_alone_is_taken_out_of_the_spread(tmp_path: Path) -> None:
    spread = record_of(tmp_path, noise=0.1)
    gross = np.median([v for _, v in spread["sizes"]])
    net = np.median([v for _, v in spread["missed"]])
    assert gross > 0.03  # ten repetitions of 10 % noise: medians some 4 % off, twice over
    assert net < gross / 2


def test_a_miss_the_noise_does_not_explain_stays(tmp_path: Path) -> None:
    spread = record_of(tmp_path, noise=0.01, miss=0.15)
    gross = np.array([v for _, v in spread["sizes"]])
    net = np.array([v for _, v in spread["missed"]])
    assert np.all(gross > 0.1) and np.all(net > 0.9 * gross)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_drift_in_x_the_compositions_share_is_recorded_as_growth_and_noise_is_not(tmp_path: Path, seed: int) -> None:
    # each composition drifts 2 % per doubling, up or down: the calibrated sizes see it
    # within them, a prediction 4 doublings beyond meets 8 % more of it
    drifting = record_of(tmp_path, noise=0.01, seed=seed, drift=0.02)
    assert 0.01 < drifting["growth"] < 0.04
    # the same noise and ten times as much without a drift: no growth to speak of
    assert record_of(tmp_path, noise=0.01, seed=seed)["growth"] < 0.003
    assert record_of(tmp_path, noise=0.1, seed=seed)["growth"] < 0.01


def test_calibrate_says_how_fast_intervals_widen_beyond_its_sizes_where_the_compositions_drift(tmp_path: Path) -> None:
    said = "\n".join(calibration_of(tmp_path, noise=0.01, drift=0.02).lines())
    assert re.search(r"widen by 2\.\d+ % per doubling of x outside x = 1024 to 262144", said)
    assert "per doubling" not in "\n".join(calibration_of(tmp_path, noise=0.01).lines())


def test_an_atoms_noise_counts_as_much_as_the_term_follows_it() -> None:
    library = ModelLibrary.builtin()
    semantics = Machine(2).semantics
    sizes = np.array([1024.0])
    zero = np.zeros(1)
    inc = {"inc": {1024.0: 0.1}}
    # seq(inc, inc) is twice inc: it follows inc's noise one to one; pipe(inc, nop) is inc
    assert residual_noise(parse("seq(inc, inc)"), sizes, zero, library, semantics, inc)[0] == pytest.approx(0.1)
    assert residual_noise(parse("pipe(inc, nop)"), sizes, zero, library, semantics, inc)[0] == pytest.approx(0.1)
    # nop's noise, however large, hardly moves a pipe that inc decides
    nop = {"nop": {1024.0: 0.5}}
    assert residual_noise(parse("pipe(inc, nop)"), sizes, zero, library, semantics, nop)[0] < 1e-6
    # the composition's own noise adds in quadrature
    both = residual_noise(parse("seq(inc, inc)"), sizes, np.array([0.1]), library, semantics, inc)[0]
    assert both == pytest.approx(0.1 * np.sqrt(2))


def light_miss_calibration(tmp_path: Path) -> Calibration:
    """A calibration whose compositions of ``inc`` miss 15 % by turns at every size and
    whose one composition of ``qsort`` misses nothing (1 % noise per repetition)."""
    exact = Machine(2).semantics
    atoms = {a: simulated(a, exact, SIZES) for a in ("nop", "inc", "qsort")}
    turns = 1 + 0.15 * (-1.0) ** np.arange(len(SIZES))
    terms = {t: simulated(t, TRUTH.semantics, SIZES) * (1 if "qsort" in t else np.roll(turns, i))
             for i, t in enumerate(FIVE_TERMS)}  # fmt: skip
    files = [noisy_file(tmp_path / "atoms.txt", atoms, 0.01, 1),
             noisy_file(tmp_path / "compositions.txt", terms, 0.01, 2)]  # fmt: skip
    return calibrate(files, cores=2)


def test_the_miss_is_read_in_parts_and_a_term_gets_its_own_atoms_share(tmp_path: Path) -> None:
    from dataclasses import replace

    from patternalg.algebra.intervals import Spread

    machine = light_miss_calibration(tmp_path).machine
    spread = dict(machine.calibration)["spread"]
    inc, qsort, whole = (np.median([v for _, v in pairs]) for pairs in (*spread["atoms"].values(), spread["missed"]))
    # the compositions of inc miss; qsort's does not, but one composition at three sizes
    # counts three points against the whole miss's one: qsort's is half the whole
    assert list(spread["atoms"]) == ["inc", "qsort"]  # nop carries no composition: not read
    assert inc > 0.75 * whole and 0.4 * whole < qsort < 0.55 * whole
    library = ModelLibrary.builtin()

    sizes = np.array(dict(machine.calibration)["spread"]["sizes"])[:, 0]

    def missed(term: str, on: Machine = machine) -> float:
        spread = Spread.of(term, library, {}, semantics=on.semantics)
        return float(np.median(spread.missed_at(sizes, sizes.shape, {"x": sizes})))

    # a pool of qsort is told qsort's miss, a pool of inc inc's, a seq of two incs inc's too
    assert missed("tpool_1(qsort)") < 0.7 * missed("tpool_1(inc)")
    assert missed("seq(inc, inc)") == pytest.approx(missed("tpool_1(inc)"), rel=1e-3)
    assert missed("tpool_1(inc)") > 0.1
    # without the parts (a machine file of an older calibrate) every term gets the whole miss
    whole = dict(spread)
    del whole["atoms"], whole["common"]
    record = tuple((k, whole if k == "spread" else v) for k, v in machine.calibration)
    older = replace(machine, calibration=record)
    assert missed("tpool_1(qsort)", older) == pytest.approx(missed("tpool_1(inc)", older))
    assert missed("tpool_1(qsort)") < 0.6 * missed("tpool_1(qsort)", older)


def test_a_design_gets_its_own_miss_wherever_its_counts_are_given(tmp_path: Path) -> None:
    from patternalg.algebra.intervals import Spread

    machine = light_miss_calibration(tmp_path).machine
    library = ModelLibrary.builtin()
    sizes = np.array([1024.0, 8192.0, 1e6])
    # eval "tpool_2(qsort)", a sweep over n of tpool_n(qsort), optimize of tpool_a(qsort):
    # one design, one missed spread (within and beyond the calibrated sizes)
    fixed = Spread.of("tpool_2(qsort)", library, {}, semantics=machine.semantics)
    free = Spread.of("tpool_n(qsort)", library, {}, semantics=machine.semantics)
    at = fixed.missed_at(sizes, sizes.shape, {"x": sizes})
    assert np.allclose(free.missed_at(sizes, sizes.shape, {"x": sizes, "n": np.full(3, 2.0)}), at)
    # and a pool of qsort is told qsort's miss, not the light compositions' of inc
    inc = Spread.of("tpool_n(inc)", library, {}, semantics=machine.semantics)
    assert np.all(at < 0.8 * inc.missed_at(sizes, sizes.shape, {"x": sizes, "n": np.full(3, 2.0)}))


def test_atoms_the_calibration_did_not_read_miss_the_whole_together(tmp_path: Path) -> None:
    import patternalg
    from patternalg.algebra.intervals import Spread

    machine = light_miss_calibration(tmp_path).machine
    spread = dict(machine.calibration)["spread"]
    sizes = np.array([x for x, _ in spread["missed"]])
    whole = np.array([v for _, v in spread["missed"]])
    builtin = ModelLibrary.builtin()
    names = [f"k{i}" for i in range(200)]  # a profile's term: many atoms nobody calibrated
    library = builtin.merged([patternalg.AtomicModel(n, builtin["qsort"].expr) for n in names])
    alone = Spread.of("tpool_1(k0)", library, {}, semantics=machine.semantics)
    assert np.allclose(alone.missed_at(sizes, sizes.shape, {"x": sizes}), whole, atol=1e-6)
    many = Spread.of("seq(" + ", ".join(names) + ")", library, {}, semantics=machine.semantics)
    assert many.parts.shares.labels == ("",)  # one compilation for them all
    assert np.allclose(many.missed_at(sizes, sizes.shape, {"x": sizes}), whole, atol=1e-6)
    # beside a calibrated atom, each part by its share
    mixed = Spread.of("seq(k0, inc)", library, {}, semantics=machine.semantics)
    assert mixed.parts.shares.labels == ("inc", "")


def test_a_least_squares_fit_out_of_iterations_leaves_the_whole_miss_in_common(monkeypatch: pytest.MonkeyPatch) -> None:
    import scipy.optimize

    from patternalg.evidence.missed import missed_by_atom

    def out_of_iterations(*args: object, **kwargs: object) -> None:
        raise RuntimeError("Maximum number of iterations reached.")

    monkeypatch.setattr(scipy.optimize, "nnls", out_of_iterations)
    sizes = np.repeat([1.0, 2.0], 4)
    residuals = np.tile([0.1, -0.1, 0.1, -0.1], 2)
    common, atoms = missed_by_atom(sizes, residuals, np.zeros(8), {"a": np.ones(8)})
    assert [v for _, v in common] == pytest.approx([0.14826, 0.14826]) and atoms["a"][0][1] == pytest.approx(0.14826 / np.sqrt(9))


def test_the_spread_by_size_takes_its_neighbours() -> None:
    sizes = np.array([1.0, 2.0, 4.0, 8.0])
    residuals = np.array([0.0, 0.0, 0.0, 0.3])
    found = dict(missed_by_size(sizes, residuals, np.zeros(4)))
    assert found[1.0] == 0.0 and found[2.0] == 0.0  # 8 is no neighbour of 1 or 2
    assert found[8.0] == pytest.approx(1.4826 * 0.15)  # its own 0.3 and 4's 0


@pytest.mark.parametrize(
    "record, key",
    [
        ("[machine.calibration.spread]\nmissed = [[-1.0, 0.5]]", "spread.missed"),
        ("[machine.calibration.spread]\nmissed = [[16.0, -0.5]]", "spread.missed"),
        ("[machine.calibration.spread]\nsizes = [[16.0, nan]]", "spread.sizes"),
        ("[machine.calibration.spread]\nmissed = [[16.0, 1e308]]", "spread.missed"),
        ("[machine.calibration.spread]\nmissed = 'wide'", "spread.missed"),
        ("[machine.calibration.spread]\nsd = inf", "spread.sd"),
        ("[machine.calibration.spread]\ngrowth = -0.1", "spread.growth"),
        ("[machine.calibration.spread]\ncommon = [[16.0, -0.5]]", "spread.common"),
        ("[machine.calibration.spread]\natoms = 'inc'", "spread.atoms"),
        ("[machine.calibration.spread.atoms]\ninc = [[16.0, nan]]", "spread.atoms.inc"),
        ("[machine.calibration.width]\nfactor = -1", "width.factor"),
        ("[machine.calibration.width]\nrange = [4096.0, 1024.0]", "width.range"),
    ],
)
def test_a_machine_files_record_that_intervals_read_is_checked(record: str, key: str) -> None:
    from patternalg.errors import ModelFileError
    from patternalg.library.machine_file import machine_from_text

    text = f'format = 1\n[machine]\ncores = 2\nhandoff = "300"\n{record}\n'
    with pytest.raises(ModelFileError, match=rf"machine\.calibration\.{key}"):
        machine_from_text(text)


def test_a_calibration_that_misses_by_a_million_times_writes_a_file_that_reads_back(tmp_path: Path) -> None:
    from patternalg.library.machine_file import MAX_SPREAD, read_machine, write_machine

    exact = Machine(2).semantics
    atoms = {a: simulated(a, exact, SIZES) for a in ("nop", "inc", "qsort")}
    terms = {t: simulated(t, TRUTH.semantics, SIZES) * 1e-7 for t in FIVE_TERMS}  # 10 million times faster
    files = [noisy_file(tmp_path / "atoms.txt", atoms, 0.01, 1), noisy_file(tmp_path / "c.txt", terms, 0.01, 2)]
    machine = calibrate(files, cores=2).machine
    write_machine(machine, tmp_path / "m.toml")
    spread = dict(read_machine(tmp_path / "m.toml").calibration)["spread"]
    assert max(v for _, v in spread["sizes"]) == MAX_SPREAD


def test_a_pool_at_the_turn_misses_by_the_turn_not_by_the_operators() -> None:
    """data17 measured tpool_2(nop) in streams too short for a steady state (211 to 902 ns
    from size to size, nop 62 to 116): calibrated with it, the turn takes it (t0 = 333 +- 53
    ns, drawn with intervals), and its misses widen no other term: they were read as what
    every composition misses (25 % at x = 1,024; from fitted atoms every interval of the
    run went from about 15 to 30 % wide)."""
    from patternalg.evidence.calibration_set import CALIBRATION_TERMS

    run = Path(__file__).resolve().parents[1] / "benchmarks" / "realdata" / "data17"
    files = [run / "atoms.txt", run / "compositions.txt"]
    five, six = (calibrate(files, terms=terms) for terms in (FIVE_TERMS, CALIBRATION_TERMS))
    turn = next(n for n in six.numbers if n.name == "t0")
    assert 250 < turn.value < 450 and turn.error is not None and turn.error > 20
    spreads = [dict(dict(c.machine.calibration)["spread"]) for c in (five, six)]
    assert spreads[1]["common"] == spreads[0]["common"] and spreads[1]["atoms"] == spreads[0]["atoms"]
    assert spreads[1]["growth"] == spreads[0]["growth"]
