"""Does a calibrated machine predict the compositions it was not calibrated on? (real data)

For every committed run of ``benchmarks/realdata/data*`` it calibrates a machine
(``patternalg.evidence.calibration.calibrate``) on the run's ``atoms.txt`` and the five
calibration compositions of its ``compositions.txt`` (``pipe(inc, inc)``, ``pipe(inc, nop)``,
``seq(inc, inc)``, ``tpool_2(qsort)``, ``tpool_2(inc)``), then predicts every OTHER
composition under the rules (``exact``), under the machine calibrated on the run, and under
the machine whose numbers are the median of the OTHER runs' (leave-one-run-out: a stand-in
for a machine nobody tuned for; no number has seen the run it predicts), and compares with
the measured median: error = (predicted - measured) / measured.

Two protocols, each with the atoms as measured (their medians at each size: what the rules
and the machine decide, no fit in between) and as fitted (``patternalg fit``'s default
PMNF models: what ``validate`` predicts from):

* **every size**: calibrate (and fit) on all sizes, predict every size;
* **beyond**: calibrate (and fit) on x <= 16,384, predict the larger sizes.

Per run it prints the median and the worst |error| (and where: term @ size), pooled over the
runs, and the worst |error| of each term over the runs, so that one term that no number of
the machine is about shows at a glance; ``cells > 25 %`` counts the predictions outside the
issue's +-25 %, and ``not noise`` those of the machine's that the measurements' own noise
does not explain either (beyond 2.58 standard deviations of the relative noise of the
composition's median and, composed from the atoms' medians, theirs, as
``evidence/missed.py`` estimates it from the repetitions' spread; repetitions that fall in
two clusters, as ``inc``'s on ``data3`` at x = 32,768, 126-136 and 198-227 us, move a median
further than that estimate says, and count here); ``reproduced`` counts those the measurements
show twice without an estimate of their noise: the cell is outside +-25 %, on the same side,
against each half of its repetitions (the first and the second half, and the odd and the even
ones; with measured atoms, the atoms' medians from the same half), so that a term whose own
median moves by more than 25 % between the halves of one run (``tpool_2(nop)``) shows as a
measurement that does not reproduce rather than as a model's miss::

    python benchmarks/bench_machine.py [--data DIR ...] [--atoms measured|fitted] [--protocol all|beyond]
                                       [--speedups auto|yes|no] [--cores N] [--calibration five|default|cores]

Each run's machine has the cores its ``machine.txt`` records (``--cores N`` for runs without
one, such as another tool's measurements); ``--calibration default`` calibrates on the five and
``tpool_2(nop)`` (the turn; a run before data9 has no such region, and is calibrated on the
five), ``--calibration cores`` on what
``run.sh``'s ``CALIBRATION=1`` measures on those cores (a pool of every core beyond 2 too). ``S`` says whether the run's machine has the
atoms' speed-ups (``calibrate --speedups``: ``auto``, its default, keeps them where they
predict the calibration sizes left out of the fit better).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import sympy

from patternalg.algebra.arrays import compile_term
from patternalg.algebra.atomic_model import AtomicModel
from patternalg.algebra.machine import Machine
from patternalg.commands.calibrate import SPEEDUPS
from patternalg.errors import PatternalgError
from patternalg.evidence.calibration import calibrate
from patternalg.evidence.calibration_set import CALIBRATION_TERMS, FIVE_TERMS, calibration_terms
from patternalg.evidence.missed import residual_noise
from patternalg.evidence.sources import recorded_cores
from patternalg.forms import PMNF
from patternalg.forms.spread import noise_by_point
from patternalg.library.model_library import ModelLibrary
from patternalg.measurements import Measurements, read
from patternalg.measurements.halves import HALVES, halved
from patternalg.syntax.parser import parse
from patternalg.syntax.symbols import p, x
from patternalg.syntax.terms import Atom

HERE = Path(__file__).resolve().parent
RUNS = sorted(p.parent for p in (HERE / "realdata").glob("*/atoms.txt"))
UPTO = 16384.0  #: the "beyond" protocol fits and calibrates on x <= UPTO
LIMIT = 0.25  #: the issue's bound on every other composition's error
Z99 = 2.58  #: a miss beyond this many standard deviations of the medians' noise is not noise


def machine_name(run: Path) -> str:
    """The processor the run was measured on, as its ``machine.txt`` records it (lscpu's
    model name and the cores), else the run's own name."""
    record = run / "machine.txt"
    text = record.read_text() if record.is_file() else ""
    model = next((line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Model name:")), None)
    cores = next((line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("CPU(s):")), "?")
    return f"{model}, {cores} CPUs" if model else run.name


#: the calibration sets by name: the issue's five, and the default (the five and the turn's
#: ``tpool_2(nop)``, which the runs before data9 did not measure)
SETS = {"five": FIVE_TERMS, "default": CALIBRATION_TERMS}


def calibrating(name: str, terms: tuple[str, ...] = FIVE_TERMS) -> bool:
    """Whether a region is one of the calibration compositions ``terms`` (the five by
    default), however its term is spaced (``pipe(inc,inc)`` in another tool's file is
    ``pipe(inc, inc)``).

    >>> calibrating("pipe(inc,inc)"), calibrating("tpool_4(inc)"), calibrating("no term (")
    (True, False, False)
    """
    try:
        return str(parse(name)) in terms
    except PatternalgError:  # a region name that is no term
        return False


def cores_of(run: Path) -> int:
    """The cores of the run's machine, as its own record says (``machine.txt``, as
    ``realdata/run.sh`` writes it); a run without one names itself (give ``--cores``)."""
    cores = recorded_cores([run / "atoms.txt", run / "compositions.txt"])
    if cores is None:
        raise SystemExit(f"{run}: no machine.txt says how many cores the machine has: give --cores N")
    return cores


def calibration_set(run: Path, which: str, cores: int | None = None) -> tuple[str, ...]:
    """The compositions ``run`` is calibrated on: the five (``which`` ``"five"``), the default
    set (``"default"``: the five and ``tpool_2(nop)``), or those of
    its machine's ``cores`` (None: as its record says; a pool of every core beyond 2 too)."""
    if which in SETS:
        return SETS[which]
    return calibration_terms(cores or cores_of(run))


def restricted(data: Measurements, upto: float | None, keep: Any = lambda name: True) -> Measurements:
    """``data``'s regions for which ``keep(name)``, at the sizes up to ``upto`` (all: None)."""
    series = []
    for s in data:
        if keep(s.kernel):
            series.append(s if upto is None else s.subset(s.points[:, 0] <= upto))
    return replace(data, series=tuple(series))


def predictable(name: str, atoms: set[str], run: Path) -> bool:
    """Whether a region is a term of the run's ``atoms`` (else, as ``validate`` does, it is
    skipped with a line on stderr: another tool's run may hold regions of its own).

    >>> predictable("pipe(inc, nop)", {"inc", "nop"}, Path("run")), predictable("k", {"inc"}, Path("run"))
    (True, False)
    """
    try:
        missing = sorted({n.name for n in parse(name).walk() if isinstance(n, Atom)} - atoms)
    except PatternalgError:
        missing = [f"the term ({name!r} is none)"]
    if missing:
        print(f"note: {run}: skipped {name!r}: no atom {', '.join(missing)} in atoms.txt", file=sys.stderr)
    return not missing


def touching(name: str) -> bool:
    """Whether an atom touches its data (the built-in model file says; nop does not)."""
    builtin = ModelLibrary.builtin()
    return builtin[name].touches_data if name in builtin else True


def measured_atoms(atoms: Measurements) -> ModelLibrary:
    """Each atom as its measured medians, a step function of x (evaluated at the sizes)."""
    built = []
    for s in atoms:
        sizes = s.points[:, 0]
        medians = np.array([np.median(v) for v in s.values])
        cuts = np.sqrt(sizes[:-1] * sizes[1:])
        pieces = [(sympy.Float(m), x < sympy.Float(c)) for m, c in zip(medians, cuts, strict=False)]
        expr = sympy.Piecewise(*pieces, (sympy.Float(medians[-1]), True))
        built.append(AtomicModel(s.kernel, expr, touches_data=touching(s.kernel)))
    return ModelLibrary(built)


def fitted_atoms(atoms: Measurements) -> ModelLibrary:
    """The atoms' PMNF models (``patternalg fit``'s default), nop touching no data."""
    return ModelLibrary(
        replace(r.model, touches_data=touching(r.atom)) for r in PMNF.fit_each(atoms, uncertainty="none")
    )


@dataclass(frozen=True)
class Run:
    """One run read once: its atoms, calibration compositions and other compositions."""

    path: Path
    atoms: Measurements
    calibration: Measurements
    others: Measurements
    cores: int | None = None  #: the machine's cores (None: as the run's machine.txt says)

    @classmethod
    def read(cls, path: Path, cores: int | None = None, calibration: str = "five") -> Run:
        """The run at ``path``, calibrated on the five compositions, or (``calibration``
        ``"cores"``) on those of its machine's cores (a pool of every core beyond 2 too)."""
        compositions = read(path / "compositions.txt")
        terms = calibration_set(path, calibration, cores)
        atoms = read(path / "atoms.txt")
        known = {s.kernel for s in atoms}
        return cls(
            path,
            atoms,
            restricted(compositions, None, lambda name: calibrating(name, terms)),
            restricted(compositions, None, lambda name: not calibrating(name, terms) and predictable(name, known, path)),
            cores,
        )

    def noise(self, semantics: Any, library: ModelLibrary, upto: float | None, atoms: bool) -> dict[str, np.ndarray]:
        """Per other composition, at the sizes :meth:`errors` predicts: the relative spread
        its error has from the measurements' noise alone (its median's and, with ``atoms``,
        the atoms' medians' carried through the term: ``evidence/missed.py``)."""
        atom_noise = {}
        if atoms:
            for s in self.atoms:
                medians = np.array([np.median(v) for v in s.values])
                atom_noise[s.kernel] = dict(zip(s.points[:, 0], noise_by_point(s.values, medians), strict=True))
        found = {}
        for s in self.others:
            sizes = s.points[:, 0]
            chosen = sizes > upto if upto is not None else np.ones(len(sizes), dtype=bool)
            medians = np.array([np.median(v) for v in s.values])
            own = noise_by_point(s.values, medians)[chosen]
            found[s.kernel] = residual_noise(parse(s.kernel), sizes[chosen], own, library, semantics, atom_noise)
        return found

    def machine(self, upto: float | None, speedups: bool | str = "auto") -> Machine:
        """The machine calibrated on this run's calibration compositions (up to ``upto``),
        with the atoms' speed-ups as ``speedups`` says (calibrate's default: auto)."""
        calibration = [restricted(self.atoms, upto), restricted(self.calibration, upto)]
        try:
            return calibrate(calibration, speedups=speedups, cores=self.cores).machine
        except PatternalgError as error:  # no record of the cores: the run names itself
            raise SystemExit(f"{self.path}: {error}") from error

    def halves(self) -> list[Run]:
        """The run four times, with one half of its repetitions at every point
        (:func:`patternalg.measurements.halves.halved`)."""
        return [
            replace(self, **{
                f: replace(data, series=tuple(halved(s, which) for s in data))
                for f, data in (("atoms", self.atoms), ("calibration", self.calibration), ("others", self.others))
            })
            for which in range(len(HALVES))
        ]  # fmt: skip

    def reproduced(self, semantics: Any, library: ModelLibrary | None, upto: float | None,
                   found: dict[str, np.ndarray]) -> dict[str, np.ndarray]:  # fmt: skip
        """Per other composition, whether each of its cells in ``found`` (:meth:`errors`)
        is outside +-25 % on the same side against every half of the repetitions
        (:meth:`halves`; ``library`` None: the atoms' medians from the same half)."""
        agree = {term: np.abs(errors) > LIMIT for term, (_, errors) in found.items()}
        for half in self.halves():
            atoms = measured_atoms(half.atoms) if library is None else library
            for term, (_, errors) in half.errors(semantics, atoms, upto).items():
                agree[term] &= (np.abs(errors) > LIMIT) & (np.sign(errors) == np.sign(found[term][1]))
        return agree

    def errors(self, semantics: Any, library: ModelLibrary, upto: float | None) -> dict[str, np.ndarray]:
        """Per other composition: the sizes predicted and the errors there."""
        found = {}
        for s in self.others:
            sizes = s.points[:, 0]
            chosen = sizes > upto if upto is not None else np.ones(len(sizes), dtype=bool)
            medians = np.array([np.median(v) for v in s.values])[chosen]
            compiled = compile_term(parse(s.kernel), library, {}, semantics=semantics)
            values = np.broadcast_to(compiled.values({"x": sizes[chosen]}), medians.shape)
            found[s.kernel] = np.stack([sizes[chosen], values / medians - 1])
        return found


def numbers_of(machine: Machine) -> dict[str, float]:
    """The calibration's numbers of ``machine`` (h0, h1, d0, d1, ...) from its record."""
    return dict(dict(machine.calibration)["numbers"])


def pooled_machine(machines: list[Machine], cores: int) -> Machine:
    """The machine whose every number is the median of ``machines``' (a speed-up's serial
    fraction c is 0 on a machine without it: the atom gains its threads)."""
    numbers = [numbers_of(m) for m in machines]
    names = dict.fromkeys(k for n in numbers for k in n)  # every machine's, in order
    median = {k: float(np.median([n.get(k, 0.0) for n in numbers])) for k in names}
    speedups = {k[2:]: p / (1 + sympy.Float(v) * (p - 1)) for k, v in median.items() if k.startswith("c_")}
    return Machine(
        cores,
        handoff=sympy.Float(median["h0"]) + sympy.Float(median["h1"]) * x,
        dispatch=sympy.Float(median.get("d0", 0.0)),
        speedups=speedups,
    )


def summary(found: dict[str, np.ndarray]) -> tuple[str, list[float]]:
    """``median / worst (term @ x)`` of the |errors| in %, and the errors."""
    cells = [(abs(e), t, size) for t, (sizes, errors) in found.items() for size, e in zip(sizes, errors, strict=True)]
    if not cells:
        return "", []
    worst = max(cells)
    every = [c[0] for c in cells]
    text = f"{100 * np.median(every):4.1f} / {100 * worst[0]:5.1f} ({worst[1]} @ {worst[2]:g})"
    return text, every


def report(runs: list[Run], atoms: str, protocol: str, speedups: bool | str = "auto") -> None:
    """The table of one protocol and one way to give the atoms (``speedups``: calibrate's)."""
    upto = UPTO if protocol == "beyond" else None
    machines = {r.path: r.machine(upto, speedups) for r in runs}
    columns = ("rules", "machine", "left out")
    pooled: dict[str, list[float]] = {c: [] for c in columns}
    by_machine: dict[str, dict[str, list[float]]] = {}  #: the issue's "on each machine"
    per_term: dict[str, dict[str, float]] = {c: {} for c in columns}
    outside = dict.fromkeys(columns, 0)
    unexplained = 0
    repeated: dict[str, int] = {}  #: per term, its machine's cells outside +-25 % in every half
    print(f"\n== atoms {atoms}, {'every size' if upto is None else f'beyond x = {upto:g}'}: "
          "|error| median / worst (term @ x) in %")  # fmt: skip
    print(f"{'run':6} {'h0':>6} {'h1':>6} {'d0':>6} {'S':>3}  " + "  ".join(f"{c:44}" for c in columns))
    for run in runs:
        fit_on = restricted(run.atoms, upto)
        library = measured_atoms(run.atoms) if atoms == "measured" else fitted_atoms(fit_on)
        others = [machines[r.path] for r in runs if r is not run]
        left_out = pooled_machine(others, machines[run.path].cores) if others else machines[run.path]
        cells = []
        for column, semantics in zip(columns, ("exact", machines[run.path].semantics, left_out.semantics), strict=True):
            found = run.errors(semantics, library, upto)
            text, every = summary(found)
            cells.append(text)
            pooled[column] += every
            by_machine.setdefault(machine_name(run.path), {c: [] for c in columns})[column] += every
            outside[column] += sum(e > LIMIT for e in every)
            if column == "machine":
                noise = run.noise(semantics, library, upto, atoms == "measured")
                unexplained += sum(
                    int(np.sum((np.abs(errors) > LIMIT) & (np.abs(errors) > Z99 * noise[term])))
                    for term, (_, errors) in found.items()
                )
                both = run.reproduced(semantics, library if atoms == "fitted" else None, upto, found)
                for term, cells_of in both.items():
                    repeated[term] = repeated.get(term, 0) + int(cells_of.sum())
            for term, (_, errors) in found.items():
                worst = float(np.max(np.abs(errors))) if len(errors) else 0.0
                per_term[column][term] = max(per_term[column].get(term, 0.0), worst)
        n = numbers_of(machines[run.path])
        kept = "yes" if machines[run.path].speedups else "no"  # the atoms' speed-ups fitted
        print(f"{run.path.name:6} {n['h0']:6.0f} {n['h1']:6.3f} {n.get('d0', 0):6.0f} {kept:>3}  "
              + "  ".join(f"{c:44}" for c in cells))  # fmt: skip
    if not pooled["rules"]:  # a run of no size beyond 16,384 has nothing to predict there
        print(f"no run has a size beyond x = {upto:g}: nothing to predict")
        return
    print(f"{'pooled':6} {'':24}  " + "  ".join(
        f"{f'{100 * np.median(v):4.1f} / {100 * np.max(v):5.1f}':44}" for v in pooled.values()))  # fmt: skip
    print(f"{'cells > 25 %':32}" + "  ".join(f"{f'{outside[c]} of {len(pooled[c])}':44}" for c in columns))
    if len(by_machine) > 1:
        for name, found in by_machine.items():  # each machine's runs pooled
            print(f"  {name}: " + "  ".join(
                f"{c} {100 * np.median(v):.1f} / {100 * np.max(v):.1f}, {sum(e > LIMIT for e in v)} of {len(v)} > 25 %"
                for c, v in found.items()))  # fmt: skip
    print(f"{'... not noise':32}{'':44}  {unexplained} (|error| also beyond {Z99} sd of the medians' noise)")
    print(f"{'... reproduced':32}{'':44}  {sum(repeated.values())} (outside +-25 % on the same side against "
          "each half of the repetitions)")  # fmt: skip
    print("worst |error| per term over the runs (rules / machine / left out), > 25 % marked "
          "(with the machine's cells that reproduce):")  # fmt: skip
    for term in sorted(per_term["machine"], key=lambda t: -per_term["machine"][t]):
        values = [per_term[c][term] for c in columns]
        marks = f"  <-- outside +-25 % ({repeated[term]} reproduce)" if max(values[1:]) > LIMIT else ""
        print(f"  {term:36} " + " / ".join(f"{100 * v:5.1f}" for v in values) + marks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", action="append", type=Path, help="a run (default: every one)")
    parser.add_argument("--atoms", choices=("measured", "fitted"), action="append")
    parser.add_argument("--protocol", choices=("all", "beyond"), action="append")
    parser.add_argument("--speedups", choices=tuple(SPEEDUPS), default="auto",
                        help="calibrate's --speedups (default auto: its own default)")
    parser.add_argument("--cores", type=int, help="the runs' cores (default: each run's machine.txt)")
    parser.add_argument("--calibration", choices=(*SETS, "cores"), default="five",
                        help="calibrate on the five compositions (the issue's), on the default set (the five "
                        "and tpool_2(nop), the turn), or on those of the run's "
                        "cores (run.sh's CALIBRATION=1: a pool of every core beyond 2 too)")  # fmt: skip
    args = parser.parse_args()
    runs = [Run.read(path, args.cores, args.calibration) for path in args.data or RUNS]
    for atoms in args.atoms or ("measured", "fitted"):
        for protocol in args.protocol or ("all", "beyond"):
            report(runs, atoms, protocol, SPEEDUPS[args.speedups])


if __name__ == "__main__":
    main()
