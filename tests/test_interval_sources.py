"""What an interval is made of: each source drawn alone (``eval --explain --interval``,
``patternalg.algebra.interval_sources``)."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import numpy as np
import pytest
from helpers import run_cli

import patternalg
from patternalg.algebra.atomic_model import AtomicModel
from patternalg.algebra.interval_sources import MOST_FITS, interval_sources
from patternalg.algebra.intervals import Spread
from patternalg.algebra.uncertainty import Uncertainty
from patternalg.decisions import compare
from patternalg.errors import ArgumentError
from patternalg.evidence import calibrate
from patternalg.library.model_library import ModelLibrary
from patternalg.syntax.symbols import x

REALDATA = Path(__file__).resolve().parents[1] / "benchmarks" / "realdata" / "data7"


def atom(name: str, slope: float, sd: float, noise: float = 0.0) -> AtomicModel:
    """``slope * x`` whose slope has standard deviation ``sd``, its medians moving by ``noise``."""
    return AtomicModel(name, slope * x, uncertainty=Uncertainty((x,), ((sd * sd,),), 10, noise, "bootstrap"))


def half(low: float, high: float, value: float) -> float:
    return (high - low) / 2 / value


def test_independent_sources_add_in_quadrature_to_the_whole():
    lib = {"a": atom("a", 2.0, 0.02, noise=0.03), "b": atom("b", 3.0, 0.01, noise=0.05)}
    spread = Spread.of("seq(a, b)", lib, {"x": 100})
    value = 500.0
    whole = half(*map(float, spread.interval({}, 0.9, 20000)), value)
    alone = {s.name: half(s.low, s.high, value) for s in interval_sources(spread, 0.9, count=20000)}
    assert set(alone) == {"fit a", "fit b", "noise"}
    assert whole == pytest.approx(np.sqrt(sum(v * v for v in alone.values())), rel=0.05)
    # a's slope moves by 0.02 (times x = 100) in 500, b's by 0.01
    assert alone["fit a"] == pytest.approx(1.645 * 0.02 * 100 / 500, rel=0.05)
    assert alone["fit b"] == pytest.approx(1.645 * 0.01 * 100 / 500, rel=0.05)


def test_a_stage_that_does_not_pace_a_pipe_adds_nothing():
    lib = {"heavy": atom("heavy", 1000.0, 10.0), "light": atom("light", 1.0, 0.3)}
    sources = interval_sources(Spread.of("pipe(heavy, light)", lib, {"x": 100}), 0.9)
    widths = {s.name: s.high - s.low for s in sources}
    assert widths["fit light"] == 0.0 and widths["fit heavy"] > 0
    line = patternalg.explain("pipe(heavy, light)", lib, "exact", interval=0.9, x=100).lines()[0]
    assert "light's fit 0 %" in line and "heavy's fit -" in line


def test_the_fits_of_many_atoms_are_drawn_together():
    names = [f"k{i}" for i in range(MOST_FITS + 1)]
    lib = {n: atom(n, 1.0, 0.01) for n in names}
    term = "seq(" * (len(names) - 1) + names[0] + "".join(f", {n})" for n in names[1:])
    assert [s.name for s in interval_sources(Spread.of(term, lib, {"x": 10}), 0.9)] == ["fits"]


def test_compare_draws_the_fits_of_many_atoms_together():
    names = [f"k{i}" for i in range(MOST_FITS + 1)]
    lib = {n: atom(n, 1.0, 0.05) for n in names} | {"other": atom("other", len(names) * 1.01, 1e-6)}
    term = "seq(" * (len(names) - 1) + names[0] + "".join(f", {n})" for n in names[1:])
    found = compare([term, "other"], over="x=10..1000", library=lib, interval=0.9, explain=True)
    assert [(r.winner, r.undecided_by) for r in found.ranges] == [(None, ("fits",))]
    assert "alone, the atoms' fits would leave it so" in "\n".join(found.lines())


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory) -> tuple[ModelLibrary, object]:
    """data7's atoms fitted with their uncertainty and its machine calibrated."""
    out = tmp_path_factory.mktemp("sources") / "models.toml"
    assert run_cli("fit", str(REALDATA / "atoms.txt"), "--out", str(out)).returncode == 0
    machine = calibrate([REALDATA / "atoms.txt", REALDATA / "compositions.txt"]).machine
    return ModelLibrary.load([out]), machine


def test_a_calibrated_machine_adds_its_numbers_and_its_miss(calibrated):
    library, machine = calibrated
    result = patternalg.explain("tpool_2(seq(qsort, inc))", library, machine=machine, interval=0.9, x=1024)
    names = [s.name for s in result.interval_sources()]
    assert names == ["fit inc", "fit qsort", "noise", "numbers", "missed"]
    low, high = result.interval
    for source in result.interval_sources():  # none alone wider than all of them at once
        assert high - low >= 0.95 * (source.high - source.low)
    line = result.lines()[0]
    assert line.startswith("the 90 % interval, each of its sources drawn alone: inc's fit ")
    assert "the machine's numbers" in line and "what the machine's operators miss" in line


def test_a_notebook_shows_them_under_the_table():
    lib = {"a": atom("a", 2.0, 0.02, noise=0.02), "b": atom("b", 3.0, 0.01)}
    html = patternalg.explain("seq(a, b)", lib, "exact", interval=0.9, x=100)._repr_html_()
    assert "each of its sources drawn alone: a&#x27;s fit" in html
    assert "drawn alone" not in patternalg.explain("seq(a, b)", lib, "exact", x=100)._repr_html_()


def test_sources_survive_a_copy_and_a_pickle(calibrated):
    library, machine = calibrated
    result = patternalg.explain("pipe(qsort, inc)", library, machine=machine, interval=0.9, x=65536)
    for other in (copy.deepcopy(result), pickle.loads(pickle.dumps(result))):
        assert other.interval_sources() == result.interval_sources()


def test_eval_explain_prints_them_in_text_and_json(tmp_path):
    models = tmp_path / "m.toml"
    models.write_text(ModelLibrary([atom("a", 2.0, 0.02), atom("b", 3.0, 0.01)]).to_toml())
    args = ("eval", "seq(a, b)", "--models", str(models), "--at", "x=100", "--interval", "0.9", "--explain")
    text = run_cli(*args)
    assert text.returncode == 0
    line = text.stdout.splitlines()[1]
    assert line.startswith("the 90 % interval, each of its sources drawn alone: a's fit -") and "b's fit" in line
    data = json.loads(run_cli(*args, "--format", "json").stdout)
    assert [s["name"] for s in data["interval_sources"]] == ["fit a", "fit b"]
    assert all(s["low"] < data["value"] < s["high"] for s in data["interval_sources"])
    plain = run_cli("eval", "seq(a, b)", "--models", str(models), "--at", "x=100", "--explain")
    assert "drawn alone" not in plain.stdout
    assert "interval_sources" not in json.loads(run_cli("eval", "seq(a, b)", "--models", str(models), "--at",
                                                        "x=100", "--explain", "--format", "json").stdout)  # fmt: skip


# --- compare --explain: what keeps a stretch undecided ----------------------------------------
def test_compare_names_the_source_that_alone_keeps_a_stretch_undecided():
    # 1 % apart: a's medians move by 10 % (more repetitions would tell), b's fit is exact
    noisy = {"a": atom("a", 2.0, 1e-6, noise=0.1), "b": atom("b", 2.02, 1e-6)}
    found = compare(["a", "b"], over="x=10..1000", library=noisy, interval=0.9, explain=True)
    assert [(r.winner, r.undecided_by) for r in found.ranges] == [(None, ("noise",))]
    # the same gap, the slope of a known to 1 %: its fit, not the measurement, keeps it so
    loose = {"a": atom("a", 2.0, 0.02), "b": atom("b", 2.02, 1e-6)}
    found = compare(["a", "b"], over="x=10..1000", library=loose, interval=0.9, explain=True)
    assert [(r.winner, r.undecided_by) for r in found.ranges] == [(None, ("fit a",))]
    assert "alone, a's fit would leave it so" in "\n".join(found.lines())
    # decided stretches say nothing, and without explain nobody asks
    apart = {"a": atom("a", 2.0, 1e-6, noise=0.01), "b": atom("b", 3.0, 1e-6)}
    decided = compare(["a", "b"], over="x=10..1000", library=apart, interval=0.9, explain=True)
    assert [(r.winner, r.undecided_by) for r in decided.ranges] == [("a", None)]
    plain = compare(["a", "b"], over="x=10..1000", library=noisy, interval=0.9)
    assert plain.ranges[0].undecided_by is None and "undecided_by" not in plain.to_json()["ranges"][0]


def test_compare_explain_from_the_command_line(tmp_path):
    models = tmp_path / "m.toml"
    models.write_text(ModelLibrary([atom("a", 2.0, 1e-6, noise=0.1), atom("b", 2.02, 1e-6)]).to_toml())
    args = ("compare", "a", "b", "--over", "x=10..1000", "--models", str(models), "--interval", "0.9", "--explain")
    text = run_cli(*args)
    assert text.returncode == 0 and "alone, a measurement's noise would leave it so" in text.stdout
    data = json.loads(run_cli(*args, "--format", "json").stdout)
    assert data["ranges"][0]["undecided_by"] == ["noise"]
    alone = run_cli("compare", "a", "b", "--over", "x=10..1000", "--models", str(models), "--explain")
    assert alone.returncode == 0 and "note: --explain says what keeps a stretch undecided: it needs --interval 0.9" in alone.stderr
    with pytest.raises(ArgumentError, match="explain"):
        compare(["a", "b"], library={"a": atom("a", 2.0, 0.01), "b": atom("b", 2.0, 0.01)},
                                     interval=0.9, explain="yes")  # fmt: skip
