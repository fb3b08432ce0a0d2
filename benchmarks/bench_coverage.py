"""Do the intervals cover what is measured? (issues 32 and 38, on the committed real runs)

For every run of ``benchmarks/realdata`` the atoms are fitted (``patternalg fit``: the
default modeler, with its bootstrap uncertainty and held-out errors), the machine is
calibrated on the five calibration compositions (``pipe(inc, inc)``, ``pipe(inc, nop)``,
``seq(inc, inc)``, ``tpool_2(qsort)``, ``tpool_2(inc)``), and the *other* compositions are
validated with nominal 90 % intervals (``validate --interval 0.9``) under the machine and
under the rules. Two protocols:

* **all sizes**: atoms fitted and machine calibrated on every size, every size predicted;
* **beyond**: atoms fitted and machine calibrated on x <= 16,384, the larger sizes predicted
  (up to 16 times beyond the largest fitted size).

Per run and pooled it prints the coverage (the share of measured medians inside their
interval) and the median half-width relative to the prediction; then, pooled over the runs,
the coverage at each size and of each term (a term covered 0/16 shows at a glance). Nothing
here is tuned to these runs: the intervals come from the fits' bootstrap and held-out
errors, the atoms' measurement noise and the calibration's residuals, scaled by the width
factor the calibration compositions give (``--widths none``: unscaled; ``left-out``: the
median of the other runs' factors, a machine nobody tuned the widths for)::

    python benchmarks/bench_coverage.py [--data DIR ...] [--level 0.9] [--semantics machine|rules]
                                        [--uncertainty auto|bootstrap|linear] [--widths own|none|left-out]
                                        [--cores N] [--calibration five|default|cores]

Each run's machine has as many cores as its ``machine.txt`` says (``--cores N`` for runs
without one, such as another tool's measurements). ``--calibration default`` calibrates on the
five and ``tpool_2(nop)`` (the turn), ``--calibration cores`` on what
``run.sh``'s ``CALIBRATION=1`` measures on those cores (``calibration_terms``: on more than 2,
a pool of every core too), and predicts the rest.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_fidelity import RUNS, metric_of, read_text, write_text  # noqa: E402
from bench_machine import SETS, calibrating, calibration_set, cores_of, machine_name  # noqa: E402

from patternalg.algebra.machine import Machine  # noqa: E402
from patternalg.cli import main  # noqa: E402
from patternalg.evidence import calibrate, validate  # noqa: E402
from patternalg.evidence.calibration_set import FIVE_TERMS  # noqa: E402
from patternalg.evidence.coverage import covered, half_width  # noqa: E402

UPTO = 16384.0  #: the "beyond" protocol fits and calibrates on x <= UPTO
TARGET = (0.80, 0.97)  #: the issue's coverage of 90 % intervals


def _files(run: Path, tmp: Path, protocol: str, terms: tuple[str, ...] = FIVE_TERMS) -> tuple[Path, Path, Path]:
    """The atoms to fit, the calibration compositions (``terms``) and the compositions to
    predict."""
    fit, cal, test = (tmp / f"{run.name}_{protocol}_{len(terms)}_{k}.txt" for k in ("atoms", "cal", "test"))
    points, atoms = read_text(run / "atoms.txt")
    lower = [i for i, p in enumerate(points) if protocol != "beyond" or p <= UPTO]
    write_text(fit, pick(points, lower), {k: pick(v, lower) for k, v in atoms.items()}, metric_of(run / "atoms.txt"))
    # the compositions at their own sizes (a run may measure them at fewer than the atoms)
    points, compositions = read_text(run / "compositions.txt")
    metric = metric_of(run / "compositions.txt")
    lower = [i for i, p in enumerate(points) if protocol != "beyond" or p <= UPTO]
    upper = [i for i, p in enumerate(points) if protocol != "beyond" or p > UPTO]
    write_text(cal, pick(points, lower), {k: pick(v, lower) for k, v in compositions.items() if calibrating(k, terms)}, metric)
    write_text(test, pick(points, upper), {k: pick(v, upper) for k, v in compositions.items() if not calibrating(k, terms)}, metric)
    return fit, cal, test


def pick(rows: list[Any], keep: list[int]) -> list[Any]:
    """The rows ``keep`` names."""
    return [rows[i] for i in keep]


def machine_of(run: Path, protocol: str, tmp: Path, uncertainty: str = "auto",
               cores: int | None = None, terms: tuple[str, ...] = FIVE_TERMS) -> tuple[Machine, Path]:  # fmt: skip
    """The run's atoms fitted (the model file) and its machine calibrated, per protocol, on
    ``cores`` (None: as many as the run's record says) and the compositions ``terms``."""
    fit, cal, _ = _files(run, tmp, protocol, terms)
    models = tmp / f"{run.name}_{protocol}.toml"
    with contextlib.redirect_stdout(io.StringIO()):
        status = main(["--quiet", "fit", str(fit), "--out", str(models), "--uncertainty", uncertainty])
    if status != 0:
        raise SystemExit(f"fit {fit} failed")
    return calibrate([fit, cal], models, cores=cores or cores_of(run)).machine, models


def with_factor(machine: Machine, factor: float | None) -> Machine:
    """``machine`` with its width factor replaced by ``factor``, within the sizes seen and
    beyond them (there at least 1; None: without a width)."""
    record = dict(machine.calibration)
    width = record.pop("width", None)
    if factor is not None and width is not None:
        record["width"] = {**width, "factor": factor, "beyond": max(factor, 1.0)}
    return replace(machine, calibration=tuple(record.items()))


def cells(run: Path, protocol: str, semantics: str, level: float, tmp: Path, uncertainty: str = "auto",
          widths: str | float = "own", cores: int | None = None,
          calibration: str = "five") -> list[tuple[str, float, bool, float]]:  # fmt: skip
    """Every predicted cell of the run: (term, x, covered, relative half-width); ``widths``:
    the machine's own width factor, ``"none"`` (no factor) or a factor given;
    ``calibration``: on the five compositions, or (``"cores"``) on those a machine of the
    run's cores is calibrated on (``calibration_terms``: a pool of every core beyond 2)."""
    terms = calibration_set(run, calibration, cores)
    _, _, test = _files(run, tmp, protocol, terms)
    if protocol == "beyond" and not any(p > UPTO for p in read_text(run / "atoms.txt")[0]):
        return []
    machine, models = machine_of(run, protocol, tmp, uncertainty, cores, terms)
    if widths != "own":
        machine = with_factor(machine, None if widths == "none" else float(widths))
    chosen = machine.semantics if semantics == "machine" else "exact"
    found = []
    for v in validate(test, models, semantics=chosen, interval=level).validated:
        for x, inside, width in zip(v.points[:, 0], covered(v), half_width(v), strict=True):
            found.append((v.term, float(x), bool(inside), float(width)))
    return found


def share(rows: list[tuple[str, float, bool, float]]) -> str:
    """``covered/cells (share) median half-width``, marked where outside the target."""
    hits, n = sum(r[2] for r in rows), len(rows)
    if n == 0:
        return "no cells (no size beyond 16384)"
    mark = "" if TARGET[0] <= hits / n <= TARGET[1] else " *"
    return f"{hits:4}/{n:4} ({hits / n:6.1%}) {float(np.median([r[3] for r in rows])):6.1%}{mark}"


def share_interval(rows: list[tuple[str, str, float, bool, float]], draws: int = 2000) -> str:
    """How sure the covered share of ``rows`` ((run, term, x, covered, half-width)) is: its
    90 % interval from a bootstrap that resamples the (run, term) pairs whole (a term's
    cells at its sizes are not independent: its atoms' errors repeat from size to size)."""
    groups: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for r in rows:
        groups[r[0], r[1]].append(r[3])
    if len(groups) < 2:
        return ""
    hits = np.array([sum(v) for v in groups.values()])
    counts = np.array([len(v) for v in groups.values()])
    pick = np.random.default_rng(0).integers(0, len(hits), (draws, len(hits)))
    low, high = np.quantile(hits[pick].sum(axis=1) / counts[pick].sum(axis=1), [0.05, 0.95])
    return f"({low:.1%}-{high:.1%})"


def main_(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, action="append", help="a run directory (default: every one)")
    parser.add_argument("--level", type=float, default=0.9)
    parser.add_argument("--semantics", choices=("machine", "rules"), action="append")
    parser.add_argument("--uncertainty", default="auto", help="fit --uncertainty (auto: the default)")
    parser.add_argument("--widths", choices=("own", "none", "left-out"), default="own",
                        help="the calibrated width factor: the run's own, none, or the median of the "
                        "other runs' (leave-one-run-out)")  # fmt: skip
    parser.add_argument("--cores", type=int, help="the cores of the runs' machine (default: each run's machine.txt)")
    parser.add_argument("--calibration", choices=(*SETS, "cores"), default="five",
                        help="calibrate on the five compositions (the issue's), on the default set (the five "
                        "and tpool_2(nop), the turn), or on those of the run's "
                        "cores (run.sh's CALIBRATION=1: a pool of every core beyond 2 too)")  # fmt: skip
    args = parser.parse_args(argv)
    runs = args.data or RUNS
    print(f"nominal {100 * args.level:g} % intervals: covered / cells (share) median half-width "
          f"(* outside {TARGET[0]:.0%}-{TARGET[1]:.0%})")  # fmt: skip
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        factors = {}
        if args.widths == "left-out":
            factors = {(r, p): dict(machine_of(r, p, tmp, args.uncertainty)[0].calibration)["width"]["factor"]
                       for r in RUNS for p in ("all", "beyond")}  # fmt: skip
            print("width factors (all, beyond): " + ", ".join(
                f"{r.name} {factors[r, 'all']:g}, {factors[r, 'beyond']:g}" for r in RUNS))  # fmt: skip

        def widths(run: Path, protocol: str) -> str | float:
            if args.widths != "left-out":
                return str(args.widths)
            return float(np.median([f for (r, p), f in factors.items() if p == protocol and r != run]))

        for semantics in args.semantics or ("machine", "rules"):
            pooled: dict[str, list] = defaultdict(list)
            print(f"\n== {semantics}\n{'run':8} {'all sizes':34} {'beyond x = 16384':34}")
            for run in runs:
                found = {p: cells(run, p, semantics, args.level, tmp, args.uncertainty, widths(run, p), args.cores,
                                  args.calibration)
                         for p in ("all", "beyond")}  # fmt: skip
                for p, rows in found.items():
                    pooled[p] += [(run.name, *r) for r in rows]
                print(f"{run.name:8} {share(found['all']):34} {share(found['beyond']):34}")
            print(f"{'pooled':8} " + " ".join(f"{share([r[1:] for r in pooled[p]]):34}" for p in ("all", "beyond")))
            machines = defaultdict(list)
            for run in runs:
                machines[machine_name(run)].append(run.name)
            if len(machines) > 1:
                print("-- per machine (its runs pooled; the issue's 'on each machine')")
                for machine, names in machines.items():
                    print(f"   {machine} ({', '.join(names)})")
                    print(f"   {'':8} " + " ".join(
                        f"{share([r[1:] for r in pooled[p] if r[0] in names]):34}" for p in ("all", "beyond")))  # fmt: skip
                    print(f"   {'':8} " + " ".join(
                        f"{share_interval([r for r in pooled[p] if r[0] in names]):34}" for p in ("all", "beyond")))  # fmt: skip
                print("   (in brackets: the covered share's 90 % interval, resampling the run-term pairs whole)")
            print("-- per kind of term (pooled over the runs): heavy (with qsort) and light (without)")
            for kind, heavy in (("heavy", True), ("light", False)):
                print(f"   {kind:8} " + " ".join(
                    f"{share([r[1:] for r in pooled[p] if ('qsort' in r[1]) == heavy]):34}" for p in ("all", "beyond")))  # fmt: skip
            for p in ("all", "beyond"):
                rows = pooled[p]
                print(f"-- {p}: per size (pooled over the runs)")
                for x in sorted({r[2] for r in rows}):
                    print(f"   x = {x:>8g}  {share([r[1:] for r in rows if r[2] == x])}")
                print(f"-- {p}: per term (pooled over the runs), least covered first")
                terms = sorted({r[1] for r in rows}, key=lambda t: (np.mean([r[3] for r in rows if r[1] == t]), t))
                for t in terms:
                    chosen = [r for r in rows if r[1] == t]
                    runs_low = sorted({r[0] for r in chosen if not r[3]})
                    print(f"   {t:36} {share([r[1:] for r in chosen])}  missed on {', '.join(runs_low) or '-'}")


if __name__ == "__main__":
    main_()
