"""A measurement file is read by what it holds, not by its name (issue 29, findings 12, 17, 20).

Real files: Extra-P's own test data, vendored under ``tests/data/extrap``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from patternalg.cli import main
from patternalg.measurements import read

EXTRAP = Path(__file__).parent / "data" / "extrap" / "tests" / "data"
TEXT = EXTRAP / "text" / "one_parameter_1.txt"
JSONL = EXTRAP / "jsonlines" / "input_1.jsonl"


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("source", [TEXT, JSONL, EXTRAP / "talpas" / "talpas_1.txt"])
@pytest.mark.parametrize("suffix", [".csv", ".txt", ".jsonl", ""])
def test_the_content_decides_the_format_whatever_the_name(
    tmp_path: Path, source: Path, suffix: str
) -> None:
    renamed = tmp_path / f"data{suffix}"
    shutil.copy(source, renamed)
    ms, reference = read(renamed), read(source)
    assert ms.format == reference.format
    assert [(s.kernel, s.metric, s.points.tolist()) for s in ms] == [
        (s.kernel, s.metric, s.points.tolist()) for s in reference
    ]


def test_fit_of_an_extrap_text_file_named_csv_fits_it(tmp_path: Path, capsys) -> None:
    renamed = tmp_path / "one_parameter_1.csv"
    shutil.copy(TEXT, renamed)
    status, out, err = _cli(capsys, "fit", str(renamed))
    assert status == 0, err
    assert out == _cli(capsys, "fit", str(TEXT))[1]


@pytest.mark.parametrize("command", [["fit"], ["predict", "--upto", "60"], ["plot", "--fit"]])
def test_a_model_file_given_as_measurements_says_what_it_is(
    tmp_path: Path, capsys, command: list[str]
) -> None:
    models = tmp_path / "m.toml"
    assert _cli(capsys, "fit", str(TEXT), "--out", str(models))[0] == 0
    for name in ("m.toml", "m.csv", "m.txt"):
        path = tmp_path / name
        if path != models:
            shutil.copy(models, path)
        extra = ["-o", str(tmp_path / "p.png")] if command[0] == "plot" else []
        status, out, err = _cli(capsys, *command, str(path), *extra)
        assert (status, out) == (2, "")
        assert err.splitlines() == [
            f"patternalg {command[0]}: error: {path}: is a model file: use --models FILE"
        ]


STRONG = EXTRAP / "text" / "strong_scaling" / "one_parameter_6.txt"


@pytest.mark.parametrize("layout", ["text", "jsonl"])
def test_predict_reads_what_fit_reads(tmp_path: Path, capsys, layout: str) -> None:
    """``predict`` of Extra-P's strong-scaling measurements, as its text file or as JSON
    Lines, predicts what it predicts from the same measurements written as CSV."""
    ms = read(STRONG)
    rows, lines = ["kernel,p,time"], []
    for s in ms:
        for point, values in zip(s.points[:, 0].tolist(), s.values, strict=True):
            rows += [f"{s.kernel},{point:g},{v!r}" for v in values.tolist()]
            lines += [
                json.dumps(
                    {"params": {"p": point}, "callpath": s.kernel, "metric": "time", "value": v}
                )
                for v in values.tolist()
            ]
    as_csv, as_jsonl = tmp_path / "same.csv", tmp_path / "same.data"
    as_csv.write_text("\n".join(rows) + "\n")
    as_jsonl.write_text("\n".join(lines) + "\n")
    source = STRONG if layout == "text" else as_jsonl
    options = ["--upto", "16", "--lower-is-better", "--format", "json"]
    status, out, err = _cli(capsys, "predict", str(source), *options)
    assert status == 0, err
    assert json.loads(out) == json.loads(_cli(capsys, "predict", str(as_csv), *options)[1])
