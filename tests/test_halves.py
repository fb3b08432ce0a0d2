"""The error of ``validate`` (and ``calibrate``'s machine) against each half of the repetitions:
whether a miss is the model's or the measurement's (patternalg/measurements/halves.py, patternalg/evidence/halves.py)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from patternalg.cli import main
from patternalg.evidence.calibration import calibrate
from patternalg.evidence.calibration_set import FIVE_TERMS
from patternalg.evidence.validation import validate
from patternalg.measurements import read
from patternalg.measurements.halves import HALVES, halved

#: ``a`` drifts at x = 8 (10 ns in the first half of its repetitions, 30 in the second);
#: ``b`` alternates 10 and 11 ns (the odd and the even repetitions differ, the halves not)
DRIFT = (
    "PARAMETER x\nPOINTS (8) (16)\nMETRIC time\n"
    "REGION a\nDATA 10 10 10 10 30 30 30 30\nDATA 19 19 19 19 19 19 19 19\n"
    "REGION b\nDATA 10 11 10 11 10 11 10 11\nDATA 10 11 10 11 10 11 10 11\n"
)
MODELS = {"a": "16", "b": "16"}


@pytest.fixture
def drift(tmp_path: Path) -> Path:
    path = tmp_path / "drift.txt"
    path.write_text(DRIFT)
    return path


def test_an_error_that_changes_sign_between_halves_does_not_hold(drift: Path) -> None:
    found = validate(drift, MODELS)
    a, b = found.summary()
    # a at 8: the median 20, the model 16: -20 %; against the halves 16/10 - 1 and 16/30 - 1
    assert a["worst"] == pytest.approx(0.2) and a["worst_at"] == {"x": 8.0}
    assert a["worst_in_halves"] == pytest.approx([16 / 30 - 1, 0.6]) and a["worst_holds"] is False
    # b: 16/10.5 - 1 = +52 %, and +45 to +60 % against the even and the odd repetitions
    assert b["worst_in_halves"] == pytest.approx([16 / 11 - 1, 0.6]) and b["worst_holds"] is True
    halves = found.overall()["halves"]
    assert (halves["cells"], halves["hold"]) == (4, 3)
    assert halves["most_moved"] == pytest.approx(0.8) and halves["most_moved_term"] == "a"
    assert halves["most_moved_at"] == {"x": 8.0} and halves["most_moved_file"] == str(drift)
    assert halves["median_moved"] == pytest.approx(16 / 10 - 16 / 10.5)  # b: the odd ones


def test_the_text_names_the_terms_whose_worst_error_changes_sign(drift: Path) -> None:
    text = validate(drift, MODELS).text()
    assert "-46.7% to +60.0%" in text  # a's worst cell, in the table and the summary
    assert "3 of 4 errors keep their sign; they move by a median of 7.6 points, at most 80.0 points (a at x = 8)" in text
    assert "the worst error of a changes sign between halves" in text


def test_the_csv_gives_the_least_and_greatest_error_against_a_half(capsys, drift: Path) -> None:
    models = drift.parent / "m.toml"
    models.write_text('format = 1\n[models.a]\nmodel = "16"\n[models.b]\nmodel = "16"\n')
    assert main(["validate", str(drift), "--models", str(models), "--format", "csv", "--digits", "6"]) == 0
    rows = [line.split(",") for line in capsys.readouterr().out.splitlines()]
    assert rows[0][-2:] == ["halves_low", "halves_high"]
    assert [float(v) for v in rows[1][-2:]] == pytest.approx([16 / 30 - 1, 0.6])


def test_too_few_repetitions_give_no_halves(tmp_path: Path) -> None:
    path = tmp_path / "m.txt"
    path.write_text("PARAMETER x\nPOINTS (8) (16)\nMETRIC time\nREGION a\nDATA 10 10 30\nDATA 19 19 19\n")
    found = validate(path, MODELS)
    assert found.header() == ["term", "x", "predicted", "measured", "error"]
    assert "halves" not in found.overall() and "worst_in_halves" not in found.summary()[0]
    assert "half of the repetitions" not in found.text()


def test_the_halves_take_the_chosen_aggregate(drift: Path) -> None:
    a = validate(drift, MODELS, aggregate="max").summary()[0]
    # the max of each half at 8: 10, 30, 30, 30; at 16 every half's 19
    assert a["worst_in_halves"] == pytest.approx([16 / 30 - 1, 0.6])
    assert a["worst"] == pytest.approx(1 - 16 / 30)


@pytest.mark.parametrize("aggregate", ["median", "mean", "biweight"])
def test_halves_of_values_near_the_largest_double_warn_of_nothing(tmp_path: Path, aggregate: str) -> None:
    path = tmp_path / "m.txt"
    path.write_text("PARAMETER x\nPOINTS (8)\nMETRIC time\nREGION a\nDATA 1e308 1e308 1e308 1e308 0\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        found = validate(path, MODELS, aggregate=aggregate)
        found.text()
    # where a half's aggregate overflows (a mean of two 1e308), no error against it
    assert found.header()[-2:] == ["halves_low", "halves_high"]
    assert all(value in (None, pytest.approx(-1.0)) for value in found.rows()[0][-2:])


def test_the_plot_draws_a_bar_over_what_the_halves_measured(drift: Path) -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    ax = validate(drift, MODELS).plot()
    bars = [c for c in ax.collections if c.get_label() == "measured by a half of the repetitions"]
    assert len(bars) == 1  # a's bars (labelled), then b's
    (segments,) = [c.get_segments() for c in ax.collections if c in bars]
    # a at 8: the halves measured 10 (first), 30 (second) and 20 (odd, even); at 16 19 each
    assert [s.tolist() for s in segments] == [[[10.0, 16.0], [30.0, 16.0]], [[19.0, 16.0], [19.0, 16.0]]]


# --- calibrate: the machine's worst error of each calibration composition ------------------

RUN13 = Path(__file__).resolve().parents[1] / "benchmarks" / "realdata" / "data13"


def test_calibrate_gives_the_machines_worst_error_against_each_half() -> None:
    result = calibrate([RUN13 / "atoms.txt", RUN13 / "compositions.txt"], terms=FIVE_TERMS)
    series = {s.kernel: s for s in read(RUN13 / "compositions.txt")}
    for r in result.residuals:  # by hand: the medians of each half, the machine's prediction
        worst = int(np.argmax(np.abs(r.machine)))
        whole = series[r.term]
        predicted = (1 + r.machine[worst]) * np.median(whole.values[worst])
        against = [predicted / np.median(halved(whole, k).values[worst]) - 1 for k in range(len(HALVES))]
        assert r.machine_worst_halves["in_halves"] == pytest.approx([min(against), max(against)])
        assert r.machine_worst_halves["holds"] == all(np.sign(a) == np.sign(r.machine[worst]) for a in against)
    assert "worst in halves" in result.text()


def test_calibrate_names_a_worst_error_that_changes_sign(tmp_path: Path) -> None:
    atoms, compositions = RUN13 / "atoms.txt", tmp_path / "compositions.txt"
    # pipe(inc, inc) as measured, but its first half of repetitions 40 % slower at every size
    lines = ["PARAMETER x", "POINTS " + " ".join(f"({s:g})" for s in read(atoms).series[0].points[:, 0]), "METRIC time"]
    for s in read(RUN13 / "compositions.txt"):
        if s.kernel in FIVE_TERMS:
            lines.append(f"REGION {s.kernel}")
            for values in s.values:
                if s.kernel == "pipe(inc, inc)":
                    values = np.concatenate([values[: len(values) // 2] * 1.4, values[len(values) // 2 :]])
                lines.append("DATA " + " ".join(f"{v:.17g}" for v in values))
    compositions.write_text("\n".join(lines) + "\n")
    text = calibrate([atoms, compositions]).text()
    assert "the machine's worst error of pipe(inc, inc) changes sign between halves" in text
