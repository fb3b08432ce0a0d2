"""Every command that reads measurements warns of a series its reader left out (a value that
is no number): ``validate``, ``plot --validate`` and ``tune`` dropped it without a word, while
``fit`` and ``predict`` said so. One warning line each (shown with ``-q``), the rest done,
exit status 0."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run_cli

VALIDATED = "kernel,x,time\nqsort,1024,50000\nqsort,2048,110000\ninc,1024,abc\ninc,2048,3000\n"
TUNED = "kernel,p,time\na,1,10\na,2,6\na,4,4\na,8,3\nb,1,10\nb,2,abc\nb,4,4\nb,8,3\n"


def _warned(tmp_path: Path, text: str, line: int, kernel: str, args: list[str], rest: str) -> None:
    path = tmp_path / "m.csv"
    path.write_text(text)
    done = run_cli(*[str(path) if a == "FILE" else a for a in args], "-q")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        f"warning: {path}:{line}: kernel '{kernel}', metric 'time': column 'time': 'abc' is not a "
        f"number (left out; {rest})"
    ]


def test_validate_warns_of_a_series_left_out(tmp_path: Path) -> None:
    _warned(tmp_path, VALIDATED, 4, "inc", ["validate", "FILE"], "the other series are validated")


def test_plot_validate_warns_of_a_series_left_out(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    args = ["plot", "--validate", "FILE", "-o", str(tmp_path / "v.svg")]
    _warned(tmp_path, VALIDATED, 4, "inc", args, "the other kernels are drawn")


def test_tune_warns_of_a_workload_left_out(tmp_path: Path) -> None:
    _warned(tmp_path, TUNED, 7, "b", ["tune", "FILE"], "the other workloads are tuned")


def test_fit_and_predict_say_it_alike(tmp_path: Path) -> None:
    _warned(tmp_path, TUNED, 7, "b", ["fit", "FILE", "--form", "amdahl"], "the other kernels are fitted")
    _warned(tmp_path, TUNED, 7, "b", ["predict", "FILE"], "the other workloads are predicted")


def test_validate_from_python_raises_or_hands_a_series_left_out(tmp_path: Path) -> None:
    """From Python, ``validate(path, ...)`` dropped the series without a word; it raises the
    error now, as ``Form.fit_each`` does, or hands it to ``on_error`` and validates the rest."""
    from patternalg.errors import MeasurementError
    from patternalg.evidence import validate

    path = tmp_path / "m.csv"
    path.write_text(VALIDATED)
    with pytest.raises(MeasurementError, match=r"m\.csv:4: kernel 'inc', metric 'time': column 'time': 'abc' is not a number"):
        validate(str(path), None)
    failed: list[MeasurementError] = []
    result = validate(str(path), None, on_error=failed.append)
    assert result.terms == ("qsort",) and [str(e).split(": ", 1)[0] for e in failed] == [f"{path}:4"]
