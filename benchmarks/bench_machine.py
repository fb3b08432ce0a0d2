"""Does a calibrated machine predict the compositions it was not calibrated on? (real data)

For every committed run of ``benchmarks/realdata/data*`` it calibrates a machine
(``patternalg.evidence.calibration.calibrate``) on the run's ``atoms.txt`` and the four
calibration compositions of its ``compositions.txt`` (``pipe(inc, inc)``, ``pipe(inc, nop)``,
``seq(inc, inc)``, ``tpool_2(qsort)``), then predicts every OTHER composition at the largest
size under the machine and under the rules (``exact``), and compares with the measured median:
error = (predicted - measured) / measured. A prediction composes the atoms as measured at that
size (the medians: what the rules and the machine decide, with no fit of the atoms in between)
or, with ``--fitted``, the atoms' PMNF models fitted to the run's ``atoms.txt``.

It prints, per run, the worst and the median |error| under the rules, under the machine
calibrated on that run, and under the machine whose numbers are the median of the OTHER runs'
(leave-one-run-out: a pooled number never sees the run it predicts), then the same pooled
over every composition of every run, and once more without ``tpool_2(inc)`` (two threads
streaming memory: what no number of the machine is about). ``--variants`` compares the ways to calibrate: the
terms composed from the atoms' measured medians or their models (``atoms``), with or without
per-atom speed-ups (``speedups``)::

    python benchmarks/bench_machine.py [--fitted] [--variants] [--data DIR ...]
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import sympy

from patternalg.algebra.arrays import compile_term
from patternalg.algebra.atomic_model import AtomicModel
from patternalg.algebra.machine import Machine
from patternalg.evidence.calibration import Calibration, calibrate
from patternalg.forms import PMNF
from patternalg.library.model_library import ModelLibrary
from patternalg.measurements import Measurements, read
from patternalg.syntax.parser import parse

HERE = Path(__file__).resolve().parent
RUNS = sorted(p.parent for p in (HERE / "realdata").glob("*/atoms.txt"))
#: the composition no number of the machine is about (co-running memory-bound threads)
APART = "tpool_2(inc)"
CALIBRATION = ("pipe(inc, inc)", "pipe(inc, nop)", "seq(inc, inc)", "tpool_2(qsort)", "tpool_2(inc)")
VARIANTS = {
    "measured atoms": {"atoms": "measured"},
    "measured atoms, speed-ups": {"atoms": "measured", "speedups": True},
    "atom models": {"atoms": "models"},
    "atom models, speed-ups": {"atoms": "models", "speedups": True},
}


def only(data: Measurements, keep: Any) -> Measurements:
    """``data`` with the regions for which ``keep(name)`` holds."""
    return replace(data, series=tuple(s for s in data if keep(s.kernel)))


def calibrated(run: Path, **options: Any) -> Calibration:
    """The machine calibrated on the run's atoms and calibration compositions."""
    return calibrate([run / "atoms.txt", run / "compositions.txt"], terms=CALIBRATION, **options)


def atoms_at_largest(run: Path) -> ModelLibrary:
    """Each atom as the constant of its measured median at the largest size (nop touches no
    data, as the built-in model file says)."""
    builtin = ModelLibrary.builtin()
    models = []
    for s in read(run / "atoms.txt"):
        largest = int(np.argmax(s.points[:, 0]))
        touches = builtin[s.kernel].touches_data if s.kernel in builtin else True
        value = sympy.Float(float(np.median(s.values[largest])))
        models.append(AtomicModel(s.kernel, value, touches_data=touches))
    return ModelLibrary(models)


def fitted_atoms(run: Path) -> ModelLibrary:
    """The atoms' PMNF models (``patternalg fit``'s default), nop touching no data."""
    builtin = ModelLibrary.builtin()
    return ModelLibrary(
        replace(r.model, touches_data=builtin[r.atom].touches_data if r.atom in builtin else True)
        for r in PMNF.fit_each(read(run / "atoms.txt"))
    )


def errors(run: Path, machine: Machine | None, fitted: bool) -> dict[str, float]:
    """The error of every other composition at the largest size, under ``machine`` (None:
    the rules)."""
    library = fitted_atoms(run) if fitted else atoms_at_largest(run)
    semantics = "exact" if machine is None else machine.semantics
    found = {}
    for s in only(read(run / "compositions.txt"), lambda name: name not in CALIBRATION):
        largest = int(np.argmax(s.points[:, 0]))
        size = np.array([s.points[largest, 0]])
        value = compile_term(parse(s.kernel), library, {}, semantics=semantics).values({"x": size})
        found[s.kernel] = float(value[0] / np.median(s.values[largest]) - 1)
    return found


def pooled_machine(calibrations: list[Calibration]) -> Machine:
    """The machine whose every number is the median of the calibrations' (same numbers)."""
    numbers = [{n.name: n.value for n in c.numbers} for c in calibrations]
    median = {k: float(np.median([n[k] for n in numbers])) for k in numbers[0]}
    speedups = {
        k[2:]: f"p/(1 + {v!r}*(p - 1))" for k, v in median.items() if k.startswith("c_")
    }
    handoff = f"{median['h0']!r} + {median['h1']!r}*x"
    return Machine(calibrations[0].machine.cores, handoff=handoff, speedups=speedups)


def summary(values: list[float]) -> str:
    """``worst / median`` |error| in %."""
    a = np.abs(np.array(values))
    return f"{100 * a.max():5.1f} / {100 * np.median(a):4.1f}"


def report(runs: list[Path], options: dict[str, Any], fitted: bool) -> dict[str, list[float]]:
    """The table of one way to calibrate; the pooled errors by column."""
    calibrations = {run: calibrated(run, **options) for run in runs}
    columns: dict[str, list[float]] = {"rules": [], "machine": [], "leave-one-run-out": []}
    apart: dict[str, list[float]] = {key: [] for key in columns}
    print(f"{'run':8} {'h0 [ns]':>8} {'h1':>6}  {'rules':>13}  {'machine':>13}  {'left out':>13}")
    for run in runs:
        others = [calibrations[r] for r in runs if r != run]
        each = {
            "rules": errors(run, None, fitted),
            "machine": errors(run, calibrations[run].machine, fitted),
            "leave-one-run-out": errors(run, pooled_machine(others), fitted) if others else {},
        }
        for key, found in each.items():
            columns[key] += found.values()
            apart[key] += (e for t, e in found.items() if t != APART)
        numbers = {n.name: n.value for n in calibrations[run].numbers}
        cells = [summary(list(v.values())) if v else "" for v in each.values()]
        print(f"{run.name:8} {numbers['h0']:8.0f} {numbers['h1']:6.3f}  "
              + "  ".join(f"{c:>13}" for c in cells))  # fmt: skip
    print(f"{'pooled':8} {'':8} {'':6}  " + "  ".join(
        f"{summary(v):>13}" if v else "" for v in columns.values()))  # fmt: skip
    print(f"{'pooled, no ' + APART:24}  " + "  ".join(
        f"{summary(v):>13}" if v else "" for v in apart.values()))  # fmt: skip
    return columns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", action="append", type=Path, help="a run (default: every one)")
    parser.add_argument("--fitted", action="store_true", help="predict from the fitted atoms")
    parser.add_argument("--variants", action="store_true", help="compare the ways to calibrate")
    args = parser.parse_args()
    runs = args.data or RUNS
    source = "fitted atom models" if args.fitted else "measured atoms at the largest size"
    print(f"the other compositions at the largest size, predicted from the {source}:")
    print("|error| worst / median in %; machine: calibrated on the run itself; left out: "
          "the median numbers of the other runs\n")  # fmt: skip
    for name, options in (VARIANTS if args.variants else {"measured atoms": {}}).items():
        print(f"calibrated on {name}:")
        report(runs, options, args.fitted)
        print()


if __name__ == "__main__":
    main()
