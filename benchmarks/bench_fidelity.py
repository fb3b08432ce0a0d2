"""Do compositions predicted from fitted atoms match the measured compositions? (real data)

Reads the measurements of ``benchmarks/realdata/data`` (``atoms.txt``: nop, inc, qsort;
``compositions.txt``: one REGION per term of patternalg's language, ns per data element,
see ``benchmarks/realdata/README.md``). For each modeler it fits the atoms through the CLI
(``patternalg fit atoms.txt --modeler M --out models.toml``), evaluates every composition
with the fitted library and compares with the median of the measured repetitions by
``patternalg.evidence.validation.validate`` (what ``patternalg validate`` prints; pointwise
``exact`` semantics: a value at a size is the model's value there): error = (predicted -
measured) / measured, as paper 001 defines it. Two protocols:

* **in range**: the atoms fitted on all sizes; the |error| at the largest size;
* **beyond**: the atoms fitted on the lower half of the sizes; the |error| at every size of
  the upper half (extrapolation up to 16 times beyond the largest fitted size).

Per modeler and protocol it prints the median and the worst |error| over the compositions
(and, for the price paid at the small end, the median over all sizes of the full fit), the
ratio of each modeler's medians to ``basic``'s (below 1: it predicts better), and a row
``measured``: the compositions predicted from the measured atoms at each size, the error of
the composition rules themselves, which no fit of the atoms removes but by chance, and a
row ``noise``: the error a perfect prediction would show, because the measured medians are
themselves a sample (bootstrap resamples of the repetitions against their median). A
second table gives the errors of the atoms themselves (each fitted atom against its own
measured medians: what the fit alone decides, with no rule in between) at the smallest and
the largest size and beyond the fitted range; with ``--terms`` the error of every atom
and composition (which rules miss, and where), and with ``--resamples N`` the spread of
the medians over N bootstrap resamples of the repetitions and how often each modeler's are at
most ``basic``'s (one run is noisy; a difference that flips between resamples is not one).
With several runs (the default: every committed one) it ends with the median |error| over
every composition (and every atom) of every run::

    python benchmarks/bench_fidelity.py [--data DIR] [--modelers basic,default] [--terms]
                                        [--resamples N]

Each modeler aggregates the repetitions its own way (``basic`` the mean, as Extra-P;
``default`` Tukey's biweight mean); ``--aggregate`` sets one for both.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

import patternalg
from patternalg.evidence.validation import Validation, validate
from patternalg.measurements import Aggregation, Measurements, read

HERE = Path(__file__).resolve().parent
#: the committed runs: every directory of realdata/ with an atoms.txt
RUNS = sorted(p.parent for p in (HERE / "realdata").glob("*/atoms.txt"))


def read_text(path: Path) -> tuple[list[float], dict[str, list[list[float]]]]:
    """An Extra-P text file of one parameter: the points and the repetitions per region."""
    points: list[float] = []
    regions: dict[str, list[list[float]]] = {}
    region = ""
    for line in path.read_text().splitlines():
        field, _, rest = line.strip().partition(" ")
        if field == "POINTS":  # (1024) (2048), ( 1024 ) ( 2048 ) or 1024 2048
            points = [float(p) for p in re.findall(r"[-+0-9.eE]+", rest)]
        elif field == "REGION":
            region = rest.strip()
            regions[region] = []
        elif field == "DATA":
            regions[region].append([float(v) for v in rest.split()])
    return points, regions


def write_text(path: Path, points: list[float], regions: dict[str, list[list[float]]], metric: str = "time") -> None:
    """The inverse of :func:`read_text` (``metric``: the file's metric, as :func:`metric_of`
    reads it: ``time_s`` says its unit)."""
    lines = ["PARAMETER x", "POINTS " + " ".join(f"({p:g})" for p in points), f"METRIC {metric}"]
    for name, rows in regions.items():
        lines.append(f"REGION {name}")
        lines += ["DATA " + " ".join(repr(v) for v in row) for row in rows]
    path.write_text("\n".join(lines) + "\n")


def metric_of(path: Path) -> str:
    """The metric an Extra-P text file names (``time`` where it names none)."""
    for line in path.read_text().splitlines():
        field, _, rest = line.strip().partition(" ")
        if field == "METRIC" and rest.strip():
            return rest.strip()
    return "time"


def fit_library(
    atoms: Path, modeler: str, aggregate: str | None, tmp: Path
) -> patternalg.ModelLibrary:
    """The atoms fitted by ``patternalg fit`` (the CLI), read back as a library."""
    out = tmp / f"{atoms.stem}_{modeler}.toml"
    command = [sys.executable, "-m", "patternalg.cli", "fit", str(atoms), "--modeler", modeler]
    command += ["--out", str(out)] + (["--aggregate", aggregate] if aggregate else [])
    path = os.pathsep.join(filter(None, [str(HERE.parent), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path}
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"patternalg fit {atoms} --modeler {modeler}: {done.stderr.strip()}")
    return patternalg.ModelLibrary.load([out], builtin=False)


def relative_errors(measured: Measurements, library: object) -> np.ndarray:
    """Every series of ``measured`` predicted from ``library`` and compared with its
    measured medians (:func:`validate`): the relative errors, shape (series, sizes)."""
    found: Validation = validate(measured, library)
    if len(found.validated) != len(measured):
        raise SystemExit(f"{measured.path}: not every region validates: {'; '.join(found.notes)}")
    return np.array([v.error for v in found.validated])


def at_point(data: Measurements, k: int) -> Measurements:
    """``data`` at its ``k``-th point only."""
    return replace(data, series=tuple(s.subset(np.arange(len(s)) == k) for s in data))


def rule_errors(data: Path) -> np.ndarray:
    """The errors of the composition rules alone: every term predicted at each size from the
    measured atoms there (medians; each atom a constant model), shape (terms, sizes)."""
    atoms, compositions = read(data / "atoms.txt"), read(data / "compositions.txt")
    columns = []
    for k in range(len(atoms.series[0])):
        library = {s.kernel: float(np.median(s.values[k])) for s in atoms}
        columns.append(relative_errors(at_point(compositions, k), library)[:, 0])
    return np.array(columns).T


#: the |errors| of a run by name: the compositions' (also the rules'), then the atoms' (fits only)
COMPOSITION_KEYS = ("largest", "beyond")
ATOM_KEYS = ("atoms, smallest", "atoms, largest", "atoms, beyond")


@dataclass(frozen=True)
class Fidelity:
    """One modeler on one run: its fitted atoms and the relative errors of its predictions,
    of the compositions (``in_range``: full fit, all sizes; ``beyond``: lower-half fit, upper
    sizes; shape (terms, sizes)) and of the atoms themselves (the same, shape (atoms, sizes)):
    what the fit alone decides, with no composition rule in between."""

    models: dict[str, str]
    terms: list[str]
    points: list[float]
    in_range: np.ndarray
    beyond: np.ndarray
    atoms_in_range: np.ndarray
    atoms_beyond: np.ndarray

    def absolute(self) -> dict[str, np.ndarray]:
        """The |errors| by the keys of :data:`COMPOSITION_KEYS` and :data:`ATOM_KEYS`: at the
        largest size and beyond the fitted range; the atoms' also at the smallest size."""
        return {
            "largest": np.abs(self.in_range[:, -1]),
            "beyond": np.abs(self.beyond),
            "atoms, smallest": np.abs(self.atoms_in_range[:, 0]),
            "atoms, largest": np.abs(self.atoms_in_range[:, -1]),
            "atoms, beyond": np.abs(self.atoms_beyond),
        }


def errors(data: Path, modeler: str, aggregate: str | None, tmp: Path) -> Fidelity:
    """The fitted atoms, the errors at all sizes (full fit) and at the upper half (half fit)."""
    atoms, compositions = read(data / "atoms.txt"), read(data / "compositions.txt")
    points = atoms.series[0].column("x").tolist()
    if any(s.column("x").tolist() != points for s in (*atoms, *compositions)):
        raise SystemExit(f"{data}: atoms.txt and compositions.txt have different POINTS")
    full = fit_library(data / "atoms.txt", modeler, aggregate, tmp)
    lower = len(points) - len(points) // 2  # the lower half (the middle size included)
    half_file = tmp / "atoms_lower_half.txt"
    _, repetitions = read_text(data / "atoms.txt")
    write_text(half_file, points[:lower], {a: rows[:lower] for a, rows in repetitions.items()},
               metric_of(data / "atoms.txt"))  # fmt: skip
    half = fit_library(half_file, modeler, aggregate, tmp)
    return Fidelity(
        models={s.kernel: str(patternalg.model(s.kernel, full)) for s in atoms},
        terms=[s.kernel for s in compositions],
        points=points,
        in_range=relative_errors(compositions, full),
        beyond=relative_errors(compositions, half)[:, lower:],
        atoms_in_range=relative_errors(atoms, full),
        atoms_beyond=relative_errors(atoms, half)[:, lower:],
    )


def noise_errors(data: Path, draws: int = 400) -> np.ndarray:
    """The measurement's own share of the error: per composition and size, the median over
    ``draws`` bootstrap resamples of the repetitions of |resampled median / median - 1|, shape
    (terms, sizes). A perfect prediction would still be off by about this much from the
    measured medians, which are themselves a sample."""
    _, compositions = read_text(data / "compositions.txt")
    rng = np.random.default_rng(7)
    rows = []
    for repetitions in compositions.values():
        row = []
        for values in map(np.asarray, repetitions):
            medians = np.median(rng.choice(values, size=(draws, len(values))), axis=1)
            row.append(np.median(np.abs(medians / np.median(values) - 1)))
        rows.append(row)
    return np.array(rows)


def resample(data: Path, out: Path, rng: np.random.Generator) -> Path:
    """A copy of the run whose repetitions at each size are drawn with replacement."""
    out.mkdir(exist_ok=True)
    for name in ("atoms.txt", "compositions.txt"):
        points, regions = read_text(data / name)
        drawn = {
            region: [rng.choice(row, size=len(row)).tolist() for row in rows]
            for region, rows in regions.items()
        }
        write_text(out / name, points, drawn, metric_of(data / name))
    return out


def resampled(data: Path, modelers: list[str], aggregate: str | None, count: int) -> None:
    """Print how each modeler's medians vary over ``count`` resamples of the repetitions,
    and how often they are at most ``basic``'s (is a difference more than this run's noise?)."""
    rng = np.random.default_rng(12)
    figures = {modeler: [] for modeler in modelers}
    with tempfile.TemporaryDirectory() as name:
        for k in range(count):
            copy = resample(data, Path(name) / f"resample{k}", rng)
            for modeler in modelers:
                found = errors(copy, modeler, aggregate, Path(name)).absolute()
                figures[modeler].append(tuple(np.median(found[k]) for k in COMPOSITION_KEYS))
    print(f"\nover {count} resamples of the repetitions: median |error| (10th-90th percentile)")
    base = np.array(figures["basic"]) if "basic" in figures else None
    for modeler, rows in figures.items():
        table = np.array(rows)
        cells = [
            f"{np.median(table[:, c]):.2%} ({np.quantile(table[:, c], 0.1):.2%}-"
            f"{np.quantile(table[:, c], 0.9):.2%})"
            for c in (0, 1)
        ]
        line = f"{modeler:>8} | largest size {cells[0]:>22} | beyond {cells[1]:>22}"
        if base is not None and modeler != "basic":
            wins = np.mean(table <= base, axis=0)
            line += f" | <= basic's in {wins[0]:.0%} / {wins[1]:.0%} of the resamples"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--data",
        action="append",
        type=Path,
        help="a directory of atoms/compositions.txt (repeatable; default: every committed run)",
    )
    parser.add_argument("--modelers", default="basic,default")
    parser.add_argument("--aggregate", choices=[a.value for a in Aggregation])
    parser.add_argument("--terms", action="store_true", help="print every composition's error")
    parser.add_argument(
        "--resamples",
        type=int,
        default=0,
        metavar="N",
        help="also refit on N resamples of the repetitions (about 5 s each)",
    )
    args = parser.parse_args()
    runs = args.data or RUNS
    pooled: dict[str, list[dict[str, np.ndarray]]] = {}
    for data in runs:
        print(f"\n== {data}")
        errors_of_run = report(
            data,
            modelers=args.modelers.split(","),
            aggregate=args.aggregate,
            per_term=args.terms,
            resamples=args.resamples,
        )
        for modeler, found in errors_of_run.items():
            pooled.setdefault(modeler, []).append(found)
    if len(runs) > 1:
        print_pooled(pooled, len(runs))


def print_pooled(pooled: dict[str, list[dict[str, np.ndarray]]], runs: int) -> None:
    """The median |error| over every composition (atom) of every run: one run is noisy, and
    a modeler is judged on all of them (the per-run medians above say how much they differ)."""
    print(f"\n== all {runs} runs: median |error| over every composition (atom) of every run")
    print(f"{'':>8} | {'compositions':^19} | {'atoms':^28}")
    print(
        f"{'modeler':>8} | {'largest':>8} {'beyond':>10} | {'smallest':>8} {'largest':>8} {'beyond':>10}"
    )
    for modeler, found in pooled.items():
        cells = [
            f"{np.median(np.concatenate([f[key].ravel() for f in found])):.2%}"
            if key in found[0]
            else ""
            for key in COMPOSITION_KEYS + ATOM_KEYS
        ]
        print(
            f"{modeler:>8} | {cells[0]:>8} {cells[1]:>10} | "
            f"{cells[2]:>8} {cells[3]:>8} {cells[4]:>10}"
        )


def report(
    data: Path, *, modelers: list[str], aggregate: str | None, per_term: bool, resamples: int
) -> dict[str, dict[str, np.ndarray]]:
    """Print the tables of one run (see the module's doc); return per modeler (and
    ``measured``, the composition rules on the measured atoms) the |errors| by the keys of
    :data:`COMPOSITION_KEYS` (the compositions' at the largest size and beyond the fitted
    range) and, for fits only, of :data:`ATOM_KEYS` (the atoms' at the smallest and the
    largest size and beyond the fitted range)."""
    print(
        f"{'modeler':>8} | {'in range: largest size':>22} | {'beyond the fitted range':>23} "
        f"| all sizes"
    )
    print(f"{'':>8} | {'median':>10} {'worst':>11} | {'median':>11} {'worst':>11} | {'median':>9}")
    fits: dict[str, Fidelity] = {}
    found: dict[str, dict[str, np.ndarray]] = {}
    with tempfile.TemporaryDirectory() as name:
        for modeler in modelers:
            fit = fits[modeler] = errors(data, modeler, aggregate, Path(name))
            found[modeler] = fit.absolute()
            last, upper = found[modeler]["largest"], found[modeler]["beyond"]
            print(
                f"{modeler:>8} | {np.median(last):>10.2%} {last.max():>11.1%} | "
                f"{np.median(upper):>11.2%} {upper.max():>11.1%} | "
                f"{np.median(np.abs(fit.in_range)):>9.1%}"
            )
    lower = len(fit.points) - fit.beyond.shape[1]
    references = (
        (
            "measured",
            np.abs(rule_errors(data)),
            "the measured atoms: the composition rules' own error",
        ),
        (
            "noise",
            noise_errors(data),
            "a perfect prediction: the measured medians' own error, by bootstrap",
        ),
    )
    for row, table, what in references:  # |errors| (terms, sizes) of no fit
        last, upper = table[:, -1], table[:, lower:]
        found[row] = {"largest": last, "beyond": upper}
        print(
            f"{row:>8} | {np.median(last):>10.2%} {last.max():>11.1%} | "
            f"{np.median(upper):>11.2%} {upper.max():>11.1%} | {np.median(table):>9.1%}   ({what})"
        )
    if "basic" in modelers:
        base = found["basic"]
        for modeler in modelers:
            if modeler != "basic":
                ratios = [
                    np.median(found[modeler][key]) / np.median(base[key])
                    for key in COMPOSITION_KEYS
                ]
                print(
                    f"{modeler} / basic (median |error|): largest size {ratios[0]:.2f}x, "
                    f"beyond the fitted range {ratios[1]:.2f}x"
                )
    print(
        f"\nthe atoms alone (the fit, no composition rule): median |error| over the "
        f"{len(fit.models)} atoms\n{'modeler':>8} | smallest size | largest size | beyond the fitted range"
    )
    for modeler in modelers:
        errors_of = found[modeler]
        print(
            f"{modeler:>8} | {np.median(errors_of['atoms, smallest']):>13.2%} | "
            f"{np.median(errors_of['atoms, largest']):>12.2%} | "
            f"{np.median(errors_of['atoms, beyond']):>22.2%}"
        )
    if resamples:
        resampled(data, modelers, aggregate, resamples)
    if per_term:
        for modeler, fit in fits.items():
            print_terms(modeler, fit)
    return found


def print_terms(modeler: str, fit: Fidelity) -> None:
    """The error of every atom and composition: at the largest size, and beyond the range."""
    print(f"\n{modeler}: " + "; ".join(f"{a} = {m}" for a, m in fit.models.items()))
    upper = fit.points[len(fit.points) - fit.beyond.shape[1] :]
    print(
        f"{'term':>38} | {f'at x = {fit.points[-1]:g}':>11} | beyond, at x = "
        + " ".join(f"{p:>7g}" for p in upper)
    )
    rows = zip(
        [*fit.models, *fit.terms],
        np.vstack([fit.atoms_in_range, fit.in_range])[:, -1],
        np.vstack([fit.atoms_beyond, fit.beyond]),
        strict=True,
    )
    for term, last, beyond in rows:
        print(f"{term:>38} | {last:>+11.1%} | {'':>14}" + " ".join(f"{e:>+7.1%}" for e in beyond))


if __name__ == "__main__":
    main()
