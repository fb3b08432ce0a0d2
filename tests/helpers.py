"""Shared helpers of the test suite."""

from __future__ import annotations

import ast
import importlib.util
import io
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def load_module(folder: str, name: str) -> ModuleType:
    """Import ``<folder>/<name>.py`` of the repository (``examples``, ``benchmarks``)."""
    path = ROOT / folder / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"{folder}_{name}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def three_level_runs(folder: Path) -> list[str]:
    """Caliper JSON runs in ``folder`` of main, main/b and main/b/c, exclusive times 1, 2 and 4 n
    (n = 1, 2, 4, 8; of the root's inclusive 7 n: 1/7, 6/7 and 4/7)."""
    runs = []
    for n in (1, 2, 4, 8):
        path = folder / f"run_n{n}.json"
        records = [{"path": ["main"], "time": 1.0 * n}, {"path": ["main", "b"], "time": 2.0 * n},
                   {"path": ["main", "b", "c"], "time": 4.0 * n}]  # fmt: skip
        path.write_text(json.dumps({"records": records, "globals": {"n": n}}))
        runs.append(str(path))
    return runs


def load_example(name: str) -> ModuleType:
    """Import ``examples/<name>.py`` as a module."""
    return load_module("examples", name)


def run_cli(
    *args: str,
    stdin: str | None = None,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    process: bool = False,
) -> subprocess.CompletedProcess[str]:
    """Run ``patternalg ARGS`` as a user would and return what the process would: its exit
    status, stdout and stderr. In this interpreter by default (``cli.main`` with its own
    stdin, stdout, stderr and working directory: no second of start-up per call); in a
    subprocess with ``process=True`` or extra environment variables (``env``)."""
    if process or env:
        return subprocess.run(
            [sys.executable, "-m", "patternalg.cli", *args],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=cwd or ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
            timeout=120,
        )
    return _in_process(list(args), stdin, cwd or ROOT)


def _in_process(args: list[str], stdin: str | None, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``cli.main(args)`` with its streams and working directory swapped in, as a process
    would see them: a traceback (which a process would print, exiting 1) is kept in stderr."""
    import traceback

    from patternalg.cli import main

    streams = [io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="") for _ in range(2)]
    source = io.TextIOWrapper(io.BytesIO((stdin or "").encode()), encoding="utf-8")
    saved = sys.stdin, sys.stdout, sys.stderr, os.getcwd()
    sys.stdin, sys.stdout, sys.stderr = source, *streams
    try:
        os.chdir(cwd)
        try:
            status = main(args)
        except SystemExit as exc:  # argparse's errors and --help
            status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except Exception:  # noqa: BLE001 - what a process would print before exiting 1
            traceback.print_exc()
            status = 1
    finally:
        sys.stdin, sys.stdout, sys.stderr, cwd_before = saved
        os.chdir(cwd_before)
    out, err = (_text(stream) for stream in streams)
    return subprocess.CompletedProcess(["patternalg", *args], status, out, err)


def _text(stream: io.TextIOWrapper) -> str:
    stream.flush()
    return stream.buffer.getvalue().decode("utf-8", errors="replace")  # type: ignore[attr-defined]


def loads_pint(*argvs: list[str]) -> bool:
    """Whether running the CLI on each of ``argvs``, in a fresh interpreter, imports pint."""
    return loads("pint", *argvs)


def loads(module: str, *argvs: list[str]) -> bool:
    """Whether running the CLI on each of ``argvs``, in a fresh interpreter, imports ``module``."""
    return module in imported([module], *argvs)


def imported(modules: Sequence[str], *argvs: list[str]) -> set[str]:
    """Which of ``modules`` running the CLI on each of ``argvs`` in turn, in one fresh
    interpreter, imports."""
    code = (
        "import sys; from patternalg.cli import main\n"
        f"for argv in {argvs!r}: main(argv)\n"
        f"print([m for m in {list(modules)!r} if m in sys.modules])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
        env={"PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return set(ast.literal_eval(done.stdout.splitlines()[-1]))


#: one series: kernel, metric, the parameter's value at each point, the repetitions there
SeriesData = tuple[str, str, Sequence[float], Sequence[Sequence[float]]]


def measurement_texts(name: str, series: Sequence[SeriesData]) -> dict[str, tuple[str, str]]:
    """Single-parameter measurements in every text format we read: format -> (file, text).

    Every series has the same points (Extra-P's text format lists them once).
    """
    text = [f"PARAMETER {name}", "POINTS " + " ".join(f"({float(p)!r})" for p in series[0][2])]
    jsonl, talpas, csv = [], [], [f"kernel,metric,{name},value"]
    tree: dict = {"parameters": [name], "measurements": {}}
    for kernel, metric, points, repetitions in series:
        text += [f"REGION {kernel}", f"METRIC {metric}"]
        entries = tree["measurements"].setdefault(kernel, {}).setdefault(metric, [])
        for point, values in zip(points, repetitions, strict=True):
            text.append("DATA " + " ".join(repr(float(v)) for v in values))
            entries.append({"point": [float(point)], "values": [float(v) for v in values]})
            for v in values:
                obj = {"callpath": kernel, "metric": metric, "value": float(v)}
                jsonl.append(json.dumps({"params": {name: float(point)}, **obj}))
                talpas.append(
                    json.dumps({"parameters": {name: float(point)}, **obj}).replace(",", ";")
                )
                csv.append(f"{kernel},{metric},{float(point)!r},{float(v)!r}")
    return {
        "text": ("m.txt", "\n".join(text) + "\n"),
        "json": ("m.json", json.dumps(tree)),
        "jsonl": ("m.jsonl", "\n".join(jsonl) + "\n"),
        "talpas": ("m.talpas", "\n".join(talpas) + "\n"),
        "csv": ("m.csv", "\n".join(csv) + "\n"),
    }


def compound_expressions(children: Any) -> Any:
    """A hypothesis strategy of two ``children`` joined by +, -, *, /, Min or Max (for
    ``st.recursive``: random count expressions, random coefficients); never a division by 0
    (``Min`` of the ``zoo`` it gives raises while drawing)."""
    import sympy
    from hypothesis import strategies as st

    pairs = st.tuples(children, children)
    return st.one_of(
        pairs.map(lambda ab: ab[0] + ab[1]),
        pairs.map(lambda ab: ab[0] - ab[1]),
        pairs.map(lambda ab: ab[0] * ab[1]),
        pairs.filter(lambda ab: ab[1] != 0).map(lambda ab: ab[0] / ab[1]),
        pairs.map(lambda ab: sympy.Min(*ab)),
        pairs.map(lambda ab: sympy.Max(*ab)),
    )
