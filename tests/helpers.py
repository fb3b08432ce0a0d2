"""Shared helpers of the test suite."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_example(name: str) -> ModuleType:
    """Import ``examples/<name>.py`` as a module."""
    path = ROOT / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"examples_{name}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def run_cli(
    *args: str, stdin: str | None = None, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``patternalg ARGS`` in a subprocess, as a user would (``env``: extra variables)."""
    return subprocess.run(
        [sys.executable, "-m", "patternalg.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        timeout=120,
    )


def loads_pint(*argvs: list[str]) -> bool:
    """Whether running the CLI on each of ``argvs``, in a fresh interpreter, imports pint."""
    code = (
        "import sys; from patternalg.cli import main\n"
        f"for argv in {argvs!r}: main(argv)\n"
        "print('pint' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
        env={"PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    return done.stdout.splitlines()[-1] == "True"
