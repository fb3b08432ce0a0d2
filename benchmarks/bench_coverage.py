"""Do the intervals cover what is measured? (issue 32, on the committed real runs)

For every run of ``benchmarks/realdata`` the atoms are fitted (``patternalg fit``: the
default modeler, with its bootstrap uncertainty), the machine is calibrated on the four
calibration compositions (``pipe(inc, inc)``, ``pipe(inc, nop)``, ``seq(inc, inc)``,
``tpool_2(qsort)``), and the *other* fourteen compositions are validated with nominal 90 %
intervals (``validate --interval 0.9``): the share of measured medians inside their
interval (the coverage) and the median half-width relative to the prediction, under the
machine and under the rules. Two protocols:

* **all sizes**: atoms fitted and machine calibrated on every size, every size predicted;
* **beyond**: atoms fitted and machine calibrated on the lower five sizes, the upper four
  predicted (up to 16 times beyond the largest fitted size).

Pooled over the runs at the end. Nothing here is tuned to these runs: the intervals come
from the fits' bootstrap, the atoms' measurement noise and the calibration's residuals::

    python benchmarks/bench_coverage.py [--data DIR] [--level 0.9]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_fidelity import RUNS, read_text, write_text  # noqa: E402

from patternalg.cli import main  # noqa: E402
from patternalg.evidence import calibrate, validate  # noqa: E402

CALIBRATION = ("pipe(inc, inc)", "pipe(inc, nop)", "seq(inc, inc)", "tpool_2(qsort)", "tpool_2(inc)")
LOWER = 5  #: sizes of the "beyond" protocol's fit


def _files(run: Path, tmp: Path, protocol: str) -> tuple[Path, Path, Path]:
    """The atoms to fit, the calibration compositions and the compositions to predict."""
    points, atoms = read_text(run / "atoms.txt")
    _, compositions = read_text(run / "compositions.txt")
    low = slice(0, LOWER) if protocol == "beyond" else slice(None)
    high = slice(LOWER, None) if protocol == "beyond" else slice(None)
    fit, cal, test = tmp / f"{protocol}_atoms.txt", tmp / f"{protocol}_cal.txt", tmp / f"{protocol}_test.txt"
    write_text(fit, points[low], {k: v[low] for k, v in atoms.items()})
    write_text(cal, points[low], {k: v[low] for k, v in compositions.items() if k in CALIBRATION})
    write_text(test, points[high], {k: v[high] for k, v in compositions.items() if k not in CALIBRATION})
    return fit, cal, test


def coverage(run: Path, protocol: str, level: float, tmp: Path) -> dict[str, tuple[int, int, float]]:
    """Per semantics (``rules``, ``machine``): (covered, cells, median half-width)."""
    fit, cal, test = _files(run, tmp, protocol)
    models = tmp / f"{run.name}_{protocol}.toml"
    with contextlib.redirect_stdout(io.StringIO()):
        status = main(["--quiet", "fit", str(fit), "--out", str(models)])
    if status != 0:
        raise SystemExit(f"fit {fit} failed")
    machine = calibrate([fit, cal], cores=2).machine
    found = {}
    for name, semantics in (("rules", "exact"), ("machine", machine.semantics)):
        result = validate(test, models, semantics=semantics, interval=level)
        c = result.coverage()
        found[name] = (c["covered"], c["cells"], c["median_half_width"])
    return found


def main_(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, action="append", help="a run directory (default: every one)")
    parser.add_argument("--level", type=float, default=0.9)
    args = parser.parse_args(argv)
    runs = args.data or RUNS
    pooled: dict[tuple[str, str], list[tuple[int, int, float]]] = {}
    print(f"nominal {100 * args.level:g} % intervals: covered / cells (share), median half-width")
    print(f"{'run':8} {'protocol':9} {'rules':28} {'machine':28}")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        for run in runs:
            for protocol in ("all", "beyond"):
                found = coverage(run, protocol, args.level, tmp)
                cells = []
                for semantics in ("rules", "machine"):
                    covered, n, width = found[semantics]
                    pooled.setdefault((protocol, semantics), []).append(found[semantics])
                    cells.append(f"{covered:3}/{n:3} ({covered / n:6.1%}) {width:6.1%}")
                print(f"{run.name:8} {protocol:9} {cells[0]:28} {cells[1]:28}")
    print("pooled:")
    for (protocol, semantics), rows in sorted(pooled.items()):
        covered = sum(r[0] for r in rows)
        n = sum(r[1] for r in rows)
        width = float(np.median([r[2] for r in rows]))
        print(f"  {protocol:7} {semantics:8} {covered}/{n} ({covered / n:.1%}), median half-width {width:.1%}")


if __name__ == "__main__":
    main_()
