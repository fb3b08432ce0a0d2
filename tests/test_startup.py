"""What ``patternalg eval`` does not import at start-up."""

from __future__ import annotations

import os
import subprocess
import sys

from helpers import ROOT


def _fresh(code: str) -> str:
    """What ``code`` prints in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, cwd=ROOT, check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    return done.stdout.decode()


def test_eval_imports_no_codegen_and_no_difflib() -> None:
    code = (
        "import sys, patternalg.cli\n"
        "patternalg.cli.main(['eval', 'pipe(tpool_4(qsort), inc)'])\n"
        "print(sorted(m for m in ('sympy.codegen', 'difflib', 'sympy.sets.setexpr')"
        " if m in sys.modules))\n"
    )
    assert _fresh(code).splitlines() == ["258.5425*x*log2(x)", "[]"]
