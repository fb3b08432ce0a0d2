"""``models`` of a large model file costs what reading it costs (issue 29, finding 20: 100,000
atoms took 22 s, every model parsed twice and printed by sympy in text mode too)."""

from __future__ import annotations

from pathlib import Path

import pytest

import patternalg.syntax.parser
from patternalg.cli import main


def _model_file(path: Path, atoms: int) -> Path:
    parts = ["format = 1\n"]
    for k in range(atoms):
        parts.append(
            f'\n[models.k{k}]\nform = "pmnf"\nmodel = "{k + 0.5}*x**(4/3)*log2(x) + {k + 2}"\n'
            f'unit = "ns"\nx_range = [4.0, 64.0]\n\n[models.k{k}.fit]\nsmape = 1.5\npoints = 5\n'
        )
    path.write_text("".join(parts))
    return path


@pytest.mark.parametrize("output", ["text", "json"])
def test_models_parses_each_model_of_a_file_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], output: str
) -> None:
    path = _model_file(tmp_path / "many.toml", 40)
    parsed: list[str] = []
    original = patternalg.syntax.parser.parse_arithmetic

    def counting(text: str, *args: object, **kwargs: object) -> object:
        parsed.append(text)
        return original(text, *args, **kwargs)

    monkeypatch.setattr(patternalg.syntax.parser, "parse_arithmetic", counting)
    assert main(["models", "k*", "--no-builtin", "--models", str(path), "--format", output]) == 0
    listing = capsys.readouterr().out
    assert sorted(parsed) == sorted(f"{k + 0.5}*x**(4/3)*log2(x) + {k + 2}" for k in range(40))
    assert all(f"k{k}" in listing for k in range(40))
    if output == "text":
        assert f"{39.5}*x**(4/3)*log2(x) + 41" in listing  # the model as its file states it


def test_a_model_file_given_as_a_pattern_is_pointed_to_models(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _model_file(tmp_path / "mine.toml", 2)
    assert main(["models", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("patternalg models: error: no model matches '") and err.count("\n") == 1
    assert "mine.toml', a file's name: list the models of a file with --models " in err
    assert main(["models", "k*", "--models", str(path)]) == 0
