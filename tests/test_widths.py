"""Calibrated widths (docs/uncertainty.md, "Calibrated widths"): the calibration compositions'
normalised scores scale the intervals of composed terms on the machine, within the sizes seen."""

from __future__ import annotations

import numpy as np
import pytest

from patternalg.algebra.atomic_model import AtomicModel
from patternalg.algebra.intervals import Spread, z_of
from patternalg.algebra.machine import Machine
from patternalg.algebra.uncertainty import Uncertainty
from patternalg.evidence.coverage import measured_interval
from patternalg.evidence.widths import scores, width_record
from patternalg.library.machine_file import machine_from_text, machine_text
from patternalg.syntax.parser import parse
from patternalg.syntax.symbols import x

SIZES = np.array([2.0**k for k in range(6, 15)])
LIB = {n: AtomicModel(n, s * x, uncertainty=Uncertainty((x,), ((0.05**2,),), 10, 0.0, "bootstrap"))
       for n, s in (("a", 2.0), ("b", 3.0))}  # fmt: skip
TERMS = ("seq(a, b)", "seq(a, a)", "seq(b, b)")


def measured(miss: float) -> list[tuple]:
    """The calibration compositions measured ``miss`` (relative) off their models, the sign
    and size varying from point to point (deterministic)."""
    wobble = np.sin(np.arange(len(SIZES)) * 2.3 + 0.4)
    return [(parse(t), SIZES, (5.0 if "a, b" in t else 4.0 if "a, a" in t else 6.0) * SIZES * (1 + miss * wobble))
            for t in TERMS]  # fmt: skip


def half_width(machine: Machine, term: str, at: float) -> float:
    spread = Spread.of(term, LIB, {}, semantics=machine.semantics)
    low, high = spread.interval({"x": np.array([at])}, 0.9, count=4000)
    return float(high[0] - low[0]) / 2


@pytest.mark.parametrize("miss", [0.01, 0.3])
def test_the_factor_narrows_intervals_too_wide_and_widens_those_too_narrow(miss: float) -> None:
    plain = Machine(2)
    record = width_record(measured(miss), LIB, plain.semantics)
    assert record is not None and record["points"] == 3 * len(SIZES)
    assert record["range"] == [SIZES[0], SIZES[-1]]
    # the nominal relative half-width of seq(a, b) is about 1.645 * 0.05 / sqrt(2) = 6 %:
    # misses of up to 1 % are well inside it (narrow), of up to 30 % outside it (widen)
    assert (record["factor"] < 0.5) if miss < 0.1 else (record["factor"] > 1.5)
    machine = Machine(2, calibration=(("width", record),))
    before, after = half_width(plain, "seq(a, b)", 1000.0), half_width(machine, "seq(a, b)", 1000.0)
    assert after == pytest.approx(record["factor"] * before, rel=1e-6)
    # beyond the sizes seen an interval widens with the factor, never narrows
    far = SIZES[-1] * 8
    expected = max(1.0, record["factor"]) * half_width(plain, "seq(a, b)", far)
    assert half_width(machine, "seq(a, b)", far) == pytest.approx(expected, rel=1e-6)
    # an atom alone is no composition: its interval is its own
    assert half_width(machine, "a", 1000.0) == pytest.approx(half_width(plain, "a", 1000.0), rel=1e-9)
    # scaled, the calibration compositions' median score is what it is for right intervals
    found = []
    for term, at, values in measured(miss):
        low, high, _ = measured_interval(term, LIB, machine.semantics, {"x": at}, len(at), 0.9, 0)
        predicted = float(str(term).count("a")) * 2 * at + float(str(term).count("b")) * 3 * at
        found.append(scores(values, predicted, low, high))
    assert float(np.median(np.concatenate(found))) == pytest.approx(z_of(0.5) / z_of(0.9), rel=0.05)


def test_the_width_record_reads_back_from_a_machine_file() -> None:
    record = {"level": 0.9, "factor": 0.6124, "points": 45, "range": [1024.0, 262144.0]}
    machine = Machine(2, handoff="300 + 0.5*x", calibration=(("width", record),))
    again = machine_from_text(machine_text(machine))
    assert dict(again.calibration)["width"] == record
    spread = Spread.of("seq(a, b)", LIB, {}, semantics=again.semantics)
    assert spread.width == (0.6124, 1024.0, 262144.0)


def test_without_models_carrying_an_uncertainty_there_is_no_width() -> None:
    bare = {n: AtomicModel(n, m.expr) for n, m in LIB.items()}
    assert width_record(measured(0.1), bare, Machine(2).semantics) is None


def test_a_term_fixed_at_a_size_is_scaled_there() -> None:
    record = {"level": 0.9, "factor": 0.5, "points": 27, "range": [64.0, 16384.0]}
    machine = Machine(2, calibration=(("width", record),))

    def fixed_at(semantics, at: float) -> float:
        low, high = Spread.of("seq(a, b)", LIB, {"x": at}, semantics=semantics).interval({}, 0.9, count=4000)
        return float(high - low)

    assert fixed_at(machine.semantics, 1000.0) == pytest.approx(0.5 * fixed_at(Machine(2).semantics, 1000.0), rel=1e-6)
    assert fixed_at(machine.semantics, 1e6) == pytest.approx(fixed_at(Machine(2).semantics, 1e6), rel=1e-6)
