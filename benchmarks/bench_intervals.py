"""What an interval costs (issue 32): ratios against the point answer, in the same run.

* ``eval --at x=... --interval 0.9`` of a 20-atom term against ``eval --at x=...`` (whole
  commands, wall time, median of several runs each, interleaved): target within 2x;
* ``sweep --interval`` over 1,000 points with 1,000 draws (in-process CPU time of the
  interval, beside the plain sweep): target under a second;
* a 10,000-deep ``seq`` on data7's calibrated machine (whose numbers and miss the draws
  carry): ``eval --interval`` and ``compare --interval`` against the same commands without
  it (whole commands, wall time, ``--deep-runs`` each). No target: the interval's own cost
  on a term as deep as a profile's; with --interval they took 7.9 s and 64 s on 2026-12-02
  before the machine semantics added a received time only where a stage receives.

Atoms with a fitted uncertainty: ``benchmarks/realdata/data7/atoms.txt`` fitted by ``patternalg
fit``::

    python benchmarks/bench_intervals.py [--runs 7]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from patternalg.cli import main  # noqa: E402
from patternalg.decisions import sweep  # noqa: E402
from patternalg.library.model_library import ModelLibrary  # noqa: E402

#: 20 atoms: pipes, pools and seqs of the three measured kernels
TERM = (
    "pipe(seq(qsort, inc), pipe(tpool_2(seq(inc, nop)), pipe(seq(qsort, seq(inc, inc)), "
    "pipe(tpool_4(seq(qsort, nop)), pipe(seq(inc, seq(qsort, nop)), pipe(seq(nop, inc), "
    "seq(qsort, seq(inc, seq(nop, seq(qsort, seq(inc, seq(nop, qsort))))))))))))"
)


def wall(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - started


def main_(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--deep-runs", type=int, default=1, help="runs of each deep-term command (0: none)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        models = Path(name) / "models.toml"
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main(["fit", str(HERE / "realdata" / "data7" / "atoms.txt"), "--out", str(models)])
        atoms = sum(1 for part in TERM.replace("(", " ").replace(")", " ").replace(",", " ").split()
                    if part in ("qsort", "inc", "nop"))
        base = [sys.executable, "-m", "patternalg.cli", "eval", TERM, "--models", str(models), "--at", "x=65536"]
        point, sure = [], []
        for _ in range(args.runs):  # interleaved: the machine's load hits both alike
            point.append(wall(base))
            sure.append(wall([*base, "--interval", "0.9"]))
        ratio = statistics.median(sure) / statistics.median(point)
        print(f"eval of a {atoms}-atom term: --at {statistics.median(point):.3f} s, --interval "
              f"{statistics.median(sure):.3f} s (median of {args.runs}): {ratio:.2f}x (target: within 2x)")

        library = ModelLibrary.load([models])
        grid = "x=1024..1e6:1000:log"
        started = time.process_time()
        sweep([TERM], grid, library=library)
        plain = time.process_time() - started
        started = time.process_time()
        sweep([TERM], grid, library=library, interval=0.9)
        drawn = time.process_time() - started
        print(f"sweep of it over 1,000 points: {plain:.3f} s CPU; with 1,000 draws --interval: "
              f"{drawn:.3f} s CPU (target: under 1 s), {drawn / plain:.1f}x the plain sweep")
        if args.deep_runs > 0:
            deep_terms(Path(name), models, args.deep_runs)


def deep_terms(folder: Path, models: Path, runs: int) -> None:
    """``eval`` and ``compare`` of a 10,000-deep ``seq`` on data7's calibrated machine, with
    and without ``--interval``."""
    run = HERE / "realdata" / "data7"
    machine, term = folder / "machine.toml", folder / "deep.term"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(["calibrate", str(run / "atoms.txt"), str(run / "compositions.txt"), "--models", str(models),
              "--out", str(machine)])  # fmt: skip
    text = "qsort"
    for i in range(10_000):
        text = f"seq({text}, inc)" if i % 2 else f"seq(inc, {text})"
    term.write_text(text)
    common = ["--models", str(models), "--machine", str(machine)]
    commands = {
        "eval": ["eval", f"@{term}", "--at", "x=4096", *common],
        "compare": ["compare", f"@{term}", "qsort", "--over", "x=1024..65536", *common],
    }
    for name, command in commands.items():
        base = [sys.executable, "-m", "patternalg.cli", *command]
        plain = statistics.median(wall(base) for _ in range(runs))
        sure = statistics.median(wall([*base, "--interval", "0.9"]) for _ in range(runs))
        print(f"{name} of a 10,000-deep seq on a calibrated machine: {plain:.2f} s; --interval {sure:.2f} s "
              f"({sure / plain:.1f}x; median of {runs})")


if __name__ == "__main__":
    main_()
