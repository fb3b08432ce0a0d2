"""A run of a machine whose numbers are known, as ``realdata/run.sh`` writes one (synthetic).

The committed runs are of 2-core machines, where no composition runs more threads than the
calibration's ``tpool_2``; a 16-core machine predicts ``tpool_8`` and ``tpool_16`` from a
speed-up fitted at two threads. This writes such a run: the atoms (``qsort``, ``inc``,
``nop``), the five calibration compositions and twelve others (``--terms wide``: pools of 4, 8
and 16 threads among them; ``--terms run.sh``: the 16 others ``run.sh`` measures by default,
pools of at most 4 threads, as on the 16-core machine of issue 38) under a machine of ``--cores`` cores with a hand-off, a dispatch cost and
speed-ups, each composition off by a smooth miss no model has (``--miss``: a level and a
slope in log2(x), each drawn with that standard deviation; ``--light-miss`` times it for a
composition without ``qsort``: on the real runs the light compositions miss 3 to 10 times
more, relative to their time, than the heavy ones), every value drawn ``--reps``
times with lognormal noise (``--noise``, 3 % for ``qsort`` terms; 8/3 of it, 8 %, for the light
ones)::

    python benchmarks/simulate_run.py OUTDIR [--seed 1] [--cores 16] [--reps 5] [--miss 0.03]
                                             [--noise 0.03] [--dispatch 500] [--serial 0.05,0.3]
                                             [--terms wide|run.sh] [--light-miss 1]
    python benchmarks/bench_coverage.py --data OUTDIR --semantics machine

It writes ``OUTDIR/atoms.txt``, ``OUTDIR/compositions.txt`` and ``OUTDIR/machine.txt``
(``cores: N``). Nothing in ``patternalg`` reads these numbers: the benchmarks fit and
calibrate on the files as on a real run.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np
import sympy

from patternalg.algebra.atomic_model import AtomicModel
from patternalg.algebra.machine import Machine
from patternalg.evidence.calibration import simulated
from patternalg.evidence.calibration_set import CALIBRATION_TERMS
from patternalg.library.model_library import ModelLibrary
from patternalg.syntax.symbols import p, x

ATOMS = ("nop", "inc", "qsort")
OTHERS = (
    "seq(qsort, inc)", "seq(inc, qsort)", "pipe(qsort, inc)", "pipe(inc, qsort)", "tpool_4(qsort)",
    "tpool_8(qsort)", "tpool_16(qsort)", "tpool_4(inc)", "tpool_8(inc)", "pipe(tpool_8(qsort), tpool_8(inc))",
    "tpool_4(seq(qsort, inc))", "pipe(pipe(qsort, inc), nop)",
)  # fmt: skip
SIZES = 2.0 ** np.arange(10, 19)
RUN_SH = Path(__file__).parent / "realdata" / "run.sh"


def run_sh_terms(script: Path = RUN_SH) -> tuple[str, ...]:
    """The compositions ``run.sh`` measures by default (its ``TERMS``, not the calibration
    preset's), less the atoms and the calibration compositions: read from the script, so
    that the two do not drift apart."""
    defaults = re.findall(r'terms=\$\{TERMS:-"([^"]*)"\}', script.read_text())
    listed = next(d for d in defaults if "$" not in d)  # the preset's adds $widest
    terms = [t.strip() for t in listed.replace("\\\n", "").split(";") if t.strip()]
    return tuple(t for t in terms if t not in ATOMS and t not in CALIBRATION_TERMS)


def truth(cores: int, dispatch: float = 500.0, serial: tuple[float, float] = (0.05, 0.3)) -> tuple[ModelLibrary, Machine]:
    """The atoms (ns per element: a sort's cost per element drifting with the size) and the
    machine the run is of."""
    log = sympy.log(x, 2)
    atoms = ModelLibrary([
        AtomicModel("qsort", 20 * x + sympy.Float(3.2) * x * log + 5000),
        AtomicModel("inc", 8 * x + 300),
        AtomicModel("nop", sympy.Integer(80), touches_data=False),
    ])  # fmt: skip
    speedups = {a: p / (1 + sympy.Float(c) * (p - 1)) for a, c in zip(("qsort", "inc"), serial, strict=True)}
    return atoms, Machine(cores, handoff=500 + sympy.Float(0.5) * x, dispatch=sympy.Float(dispatch), speedups=speedups)


def rows(term: str, atoms: ModelLibrary, machine: Machine, rng: np.random.Generator, reps: int,
         miss: float, noise: float, light_miss: float = 1.0) -> list[np.ndarray]:  # fmt: skip
    """The repetitions of ``term`` at each size (a light term, without ``qsort``, misses
    ``light_miss`` times as much)."""
    values = np.broadcast_to(simulated(term, machine.semantics, SIZES, atoms), SIZES.shape)
    if term not in ATOMS:  # the operators' own miss, smooth in log2(x)
        level, slope = rng.normal(0.0, miss if "qsort" in term else miss * light_miss, 2)
        values = values * (1 + level + slope * (np.log2(SIZES) - 14) / 4)
    spread = noise if "qsort" in term else noise * 8 / 3  # light terms are noisier
    return [v * np.exp(rng.normal(0.0, spread, reps)) for v in values]


def write(path: Path, terms: tuple[str, ...], data: dict[str, list[np.ndarray]]) -> None:
    lines = ["PARAMETER x", "POINTS " + " ".join(f"({int(s)})" for s in SIZES), "METRIC time"]
    for term in terms:
        lines.append(f"REGION {term}")
        lines += ["DATA " + " ".join(f"{v:.1f}" for v in row) for row in data[term]]
    path.write_text("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cores", type=int, default=16)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--miss", type=float, default=0.03, help="sd of the operators' miss (level and slope)")
    parser.add_argument("--light-miss", type=float, default=1.0,
                        help="a light composition's (without qsort) miss, as a multiple of --miss")
    parser.add_argument("--noise", type=float, default=0.03, help="sd of a qsort term's repetitions (light: 8/3 of it)")
    parser.add_argument("--dispatch", type=float, default=500.0, help="the pool's dispatch cost, ns per element")
    parser.add_argument("--terms", choices=("wide", "run.sh"), default="wide",
                        help="the compositions validated: pools of up to 16 threads, or run.sh's (up to 4)")
    parser.add_argument("--serial", default="0.05,0.3", help="the serial fractions of qsort and inc: S(p) = p/(1 + c*(p - 1))")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    serial = tuple(float(c) for c in args.serial.split(","))
    if len(serial) != 2:
        parser.error("--serial: two serial fractions, qsort's and inc's, e.g. 0.05,0.3")
    atoms, machine = truth(args.cores, args.dispatch, serial)  # type: ignore[arg-type]
    others = OTHERS if args.terms == "wide" else run_sh_terms()
    data = {t: rows(t, atoms, machine, rng, args.reps, args.miss, args.noise, args.light_miss)
            for t in (*ATOMS, *CALIBRATION_TERMS, *others)}  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    write(args.out / "atoms.txt", ATOMS, data)
    write(args.out / "compositions.txt", CALIBRATION_TERMS + others, data)
    (args.out / "machine.txt").write_text(f"cores: {args.cores}\nsource: benchmarks/simulate_run.py --seed {args.seed}\n")


if __name__ == "__main__":
    main()
