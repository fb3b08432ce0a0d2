"""The package type-checks (mypy, as configured in pyproject.toml).

A helper added under a name the module already used, with another signature, passed ruff and
every test but one command; mypy names it at once ("already defined")."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.long  # mypy over the package: some 20 s
def test_the_package_type_checks(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")  # the `long` extra (`.ci/run` installs it)
    # the cache in this test's own directory: nothing read from a place others can write
    config = ["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(tmp_path)]
    out, err, status = api.run([*config, str(ROOT / "patternalg")])
    assert status == 0, out + err
    assert out.startswith("Success: no issues found")
