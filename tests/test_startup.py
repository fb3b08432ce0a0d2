"""What each command does not import at start-up: the layering of the heavy libraries
(docs/architecture.md), as data."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from helpers import ROOT, imported

#: the heavy libraries and what alone may import each (docs/architecture.md)
HEAVY = (
    "numpy",  # grids, draws and fits: not a closed form, a value at a point, a derivation
    "pint",  # a unit converted: not the built-in models, all in ns or T1
    "hypothesis",  # a law searched for a counterexample: not explore, which reads the laws
    "scipy",  # a nonlinear fit or a machine calibrated
    "numpy.testing",  # never: lambdify's star import of numpy loaded it (algebra/numpy_code)
)
EVAL = ["eval", "pipe(tpool_4(qsort), inc)"]
INTERVAL = ["eval", "pipe(inc, nop)", "--interval", "0.9", "--at", "x=4"]
#: command lines (run in turn in one fresh interpreter) and the heavy libraries they import
LAYERS = [
    pytest.param([EVAL, ["eval", "pipe(inc, nop)", "--explain", "--at", "x=4"], ["eval", "pipe(inc, inc)", "--cores", "2"], ["models"]],
                 set(), id="eval-at-a-point"),  # numpy was a sixth of eval's cold start (0.51 -> 0.42 s)
    pytest.param([INTERVAL], {"numpy"}, id="eval-interval"),  # draws
    pytest.param([["sweep", "pipe(inc, nop)", "--over", "x=1,4", "--format", "json"],
                  ["sweep", "inc", "--over", "x=1,4", "--unit", "ns", "--format", "json"],
                  ["compare", "pipe(qsort, inc)", "seq(qsort, inc)", "--format", "json"],
                  ["optimize", "pipe(tpool_a(qsort), tpool_b(inc))", "--budget", "a+b<=8", "--at", "x=1e5"]],
                 {"numpy"}, id="decisions"),
    pytest.param([["explore", "pipe(qsort, inc)", "--threads", "2", "--at", "x=8", "--format", "json"]],
                 {"numpy"}, id="explore"),  # hypothesis was 0.14 s of its 0.5 (laws.check is lazy)
    pytest.param([["fit", "benchmarks/realdata/data7/atoms.txt"]], {"numpy"}, id="fit"),  # scipy.special was a quarter of it
    pytest.param([["laws", "--examples", "5", "--seed", "1"]], {"hypothesis"}, id="laws"),  # pint and scipy were: T1's kind
]  # fmt: skip


@pytest.mark.parametrize(("argvs", "heavy"), LAYERS)
def test_each_command_imports_only_the_heavy_libraries_its_work_needs(argvs: list[list[str]], heavy: set[str]) -> None:
    assert imported(HEAVY, *argvs) == heavy


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


def test_the_main_help_and_the_version_import_no_command() -> None:
    """``patternalg --version`` and ``--help`` imported every command's module to build
    options they do not show (sympy and numpy with them: 0.56 s against 0.05 s)."""
    code = (
        "import sys, contextlib, io, patternalg.cli\n"
        "for words in (['--version'], ['--help'], ['evl']):\n"
        "    with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()), "
        "contextlib.redirect_stderr(io.StringIO()):\n"
        "        patternalg.cli.main(words)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sympy', 'numpy') or m.startswith('patternalg.commands.')))\n"
    )
    assert _fresh(code).splitlines() == ["[]"]
