"""Two-parameter PMNF fitting against Extra-P 4.2.5: agreement, recovery, extrapolation, speed.

* Agreement on Extra-P's own multi-parameter test inputs (``tests/data/extrap/``, see
  ``MULTIPARAM.md`` there): the share of kernels where our ``basic`` chose Extra-P's hypothesis.
* Synthetic kernels on the grid x = 4 .. 64 (5 values) x p = 2 .. 64 (6 values), 5 repetitions,
  half with 2 %, half with 10 % multiplicative Gaussian noise. The true hypothesis per kernel:
  a building block per parameter (uniform over Extra-P's 42, rarely none) combined as one of
  Extra-P's hypotheses ``a*b``, ``a+b``, ``a+a*b``, ``b+a*b``; each term scaled to 0.1 .. 10 at
  the largest point, the constant 0.1 .. 10 times the terms at the smallest point.
  Measured on the 5 x 5 grid p <= 32 (``--kernels`` kernels): the share of kernels where
  ``basic`` chose Extra-P's hypothesis, and where Extra-P, ``basic`` and ``default`` recovered the truth.
* Extrapolation: the models fitted on p <= 32 predict p = 64; the median |relative error|
  against the true (noise-free) values there, per modeler.
* Real data: LULESH measured on a 5 x 5 grid of MPI ranks p x problem size
  (``tests/data/extrap/lulesh_perf_taint.txt``, see ``LULESH.md`` there). For each parameter
  with >= 4 values, its largest value is held out, both modelers fit the rest, and the
  median and 90th percentile of |relative error| at the held-out points are printed, per
  metric and over all kernels (``--real-only`` prints this part alone, without Extra-P).
* Speed: the 5 x 5 file of ``--kernels`` kernels, whole process against whole process
  (interpreter start, imports, reading, modeling, output): Extra-P's reader and
  ``ModelGenerator`` in its own virtual environment (``extrap_driver.py``) against
  ``patternalg fit FILE --format json``; and modeling alone.

Repetitions are aggregated as ``patternalg fit`` does: the mean for ``basic`` (as Extra-P),
the biweight mean for ``default``.

    python benchmarks/bench_fit_multi.py [--extrap-python PATH] [--kernels 1000] [--real-only]

Without ``--extrap-python`` the virtual environment of ``bench_fit.py`` is used (created there
on first use with ``pip install extrap==4.2.5 'numpy<2' 'marshmallow<4'``).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
from bench_fit import extrap_python

from patternalg.algebra.normal_forms.blocks import BUILDING_BLOCKS
from patternalg.forms.pmnf.modelers import MODELERS as TABLE
from patternalg.forms.pmnf.multi import MultiModel, term_values
from patternalg.forms.pmnf.multi_basic import combinations
from patternalg.measurements import read

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "tests" / "data" / "extrap"
XS = (4.0, 8.0, 16.0, 32.0, 64.0)
PS = (2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
NOISES = (0.02, 0.10)
REPETITIONS = 5
#: each modeler's multi-parameter selection (the library's one table of modelers)
MODELERS = {name: modeler.select("multi") for name, modeler in TABLE.items()}
#: each modeler's aggregation of repetitions
AGGREGATION = {name: modeler.aggregate for name, modeler in TABLE.items()}


def hypothesis(model: dict, k: int) -> frozenset:
    """An Extra-P model of ``extrap_driver.py`` as a set of per-parameter exponent tuples."""
    found = set()
    for term in model["terms"]:
        exponents = [(Fraction(0), 0)] * k
        for factor in term.get("factors", []):
            exponents[factor["parameter"]] = (Fraction(factor["i"]), int(factor["j"]))
        found.add(tuple(exponents))
    return frozenset(found)


def child_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str]) -> tuple[str, float, float]:
    """Run ``command``; its stdout, wall seconds and CPU seconds (the machine may be busy)."""
    start, cpu = time.perf_counter(), child_cpu()
    out = subprocess.run(command, check=True, capture_output=True, text=True, cwd=HERE.parent)
    return out.stdout, time.perf_counter() - start, child_cpu() - cpu


def run_extrap(python: str, path: Path) -> tuple[dict, float, float]:
    """Extra-P's models of ``path``, and the wall and CPU seconds of its whole process."""
    fmt = "jsonl" if path.suffix == ".jsonl" else "text"
    script = str(HERE / "extrap_driver.py")
    out, wall, cpu = timed([python, script, str(path), "--format", fmt, "--modeler", "Default"])
    return json.loads(out), wall, cpu


def fit(path: Path | str, modeler: str, aggregate: str | None = None) -> list[MultiModel]:
    """Our models of every kernel of ``path``, kernels measured at the same points together.

    Repetitions are aggregated as ``patternalg fit`` does (``basic``: the mean, as Extra-P;
    ``default``: the biweight mean) unless ``aggregate`` says otherwise.
    """
    series = read(str(path)).series
    groups: dict[bytes, list[int]] = {}
    for k, s in enumerate(series):
        groups.setdefault(s.points.tobytes() + bytes(s.points.shape), []).append(k)
    models: list[MultiModel | None] = [None] * len(series)
    for members in groups.values():
        y = np.array([series[k].aggregate(aggregate or AGGREGATION[modeler]) for k in members])
        for k, model in zip(members, MODELERS[modeler](series[members[0]].points, y), strict=True):
            models[k] = model
    return [m for m in models if m is not None]


def truth_models(rng: np.random.Generator, kernels: int) -> list[tuple[tuple, list[float], float]]:
    """Per kernel: terms (block index per parameter, -1 absent), term scales, constant scale."""
    drawn = []
    for _ in range(kernels):
        a, b = rng.integers(-1, len(BUILDING_BLOCKS), size=2)
        active = [p for p, block in enumerate((a, b)) if block >= 0]
        shape = combinations(2)[rng.integers(4)] if len(active) == 2 else [(0,)] * bool(active)
        blocks = (int(a), int(b))
        terms = tuple(
            tuple(blocks[p] if p in [active[j] for j in t] else -1 for p in range(2)) for t in shape
        )
        drawn.append((terms, [10 ** rng.uniform(-1, 1) for _ in terms], 10 ** rng.uniform(-1, 1)))
    return drawn


def true_values(points: np.ndarray, fit_points: np.ndarray, truth: tuple) -> np.ndarray:
    """The noise-free values of one true model at ``points`` (scaled on ``fit_points``)."""
    terms, scales, c0_scale = truth
    total, at_fit = np.zeros(len(points)), np.zeros(len(fit_points))
    for term, scale in zip(terms, scales, strict=True):
        norm = term_values(fit_points, term).max()
        total = total + scale * term_values(points, term) / norm
        at_fit = at_fit + scale * term_values(fit_points, term) / norm
    constant = c0_scale * (at_fit.min() if terms else 1.0)
    return constant + total


def generate(path: Path, kernels: int, seed: int) -> tuple[list, np.ndarray, np.ndarray]:
    """Write the 5 x 5 grid p <= 32 as an Extra-P text file; return truths, noise, 5 x 6 grid."""
    rng = np.random.default_rng(seed)
    grid = np.array([[x, p] for x in XS for p in PS])
    fit_grid = grid[grid[:, 1] < max(PS)]
    truths = truth_models(rng, kernels)
    noise = np.array([NOISES[k % 2] for k in range(kernels)])
    points = " ".join(f"({x:g} {p:g})" for x, p in fit_grid)
    lines = ["PARAMETER x", "PARAMETER p", "POINTS " + points]
    for k, truth in enumerate(truths):
        lines += [f"REGION k{k}", "METRIC time"]
        for value in true_values(fit_grid, fit_grid, truth):
            reps = value * (1 + noise[k] * rng.standard_normal(REPETITIONS))
            lines.append("DATA " + " ".join(repr(float(r)) for r in reps))
    path.write_text("\n".join(lines) + "\n")
    return truths, noise, grid


def spelled(terms: tuple) -> frozenset:
    """Block-index terms as exponent tuples (the form MultiModel.hypothesis has)."""
    none = (Fraction(0), 0)
    return frozenset(tuple(BUILDING_BLOCKS[b] if b >= 0 else none for b in t) for t in terms)


#: Extra-P's multi-parameter test inputs vendored for these benchmarks and tests/test_multiparam.py
FILES = (
    "tests/data/text/two_parameter_1.txt",
    "tests/data/text/two_parameter_4.txt",
    "tests/data/text/two_parameter_5.txt",
    "tests/data/text/two_parameter_6.txt",
    "tests/data/text/two_parameter_7.txt",
    "tests/data/text/strong_scaling/two_parameter_1.txt",
    "tests/data/text/three_parameter_1.txt",
    "tests/data/text/three_parameter_2.txt",
    "tests/data/input/experiments_MP/experiment_MP.txt",
    "tests/data/jsonlines/band_matrix_2p.jsonl",
    "tests/data/jsonlines/cross_matrix_2p.jsonl",
    "tests/data/jsonlines/incomplete_matrix_2p.jsonl",
    "tests/data/jsonlines/sparse_matrix_2p.jsonl",
    "tests/data/jsonlines/matrix_3p.jsonl",
    "tests/data/jsonlines/matrix_3p_bands.jsonl",
    "tests/data/jsonlines/matrix_3p_bands_incomplete.jsonl",
    "lulesh_perf_taint.txt",  # real measurements from Extra-P's repository (LULESH.md)
)
#: Extra-P 4.2.5's models of FILES, as extrap_driver.py prints them (written by --record)
RECORD = DATA / "multiparam_extrap_models.json"
#: real two-parameter measurements (LULESH, MPI ranks x problem size), see LULESH.md
REAL = DATA / "lulesh_perf_taint.txt"


def held_out_errors(path: Path, modeler: str) -> dict[tuple[str, str], np.ndarray]:
    """|relative error| at the held-out largest value of each parameter with >= 4 values.

    Keyed by (parameter, metric): one error per kernel of that metric and held-out point.
    """
    series = read(str(path)).series
    points = series[0].points
    assert all(np.array_equal(s.points, points) for s in series)
    y = np.array([s.aggregate(AGGREGATION[modeler]) for s in series])
    found: dict[tuple[str, str], list[np.ndarray]] = {}
    for p, name in enumerate(series[0].parameters):
        values = np.unique(points[:, p])
        if len(values) < 4:
            continue
        held = points[:, p] == values[-1]
        models = MODELERS[modeler](points[~held], y[:, ~held])
        for s, model, actual in zip(series, models, y[:, held], strict=True):
            error = np.abs(model(points[held]) / actual - 1)
            found.setdefault((name, s.metric), []).append(error)
    return {key: np.concatenate(errors) for key, errors in found.items()}


def real_extrapolation(path: Path = REAL) -> None:
    """Print each modeler's held-out errors on real measurements (see the module's doc)."""
    errors = {name: held_out_errors(path, name) for name in MODELERS}
    print(
        f"\nreal data ({path.name}): hold out the largest value of a parameter, fit the rest; "
        "|relative error| there, median (90th percentile) over kernels and points"
    )
    for name, metric in errors["basic"]:
        parts = []
        for modeler, found in errors.items():
            e = found[(name, metric)]
            parts.append(f"{modeler} {np.median(e):5.1%} ({np.quantile(e, 0.9):5.1%})")
        print(f"  {name} held out, {metric:>7} ({len(e)}): " + "  ".join(parts))
    for name in dict.fromkeys(name for name, _ in errors["basic"]):
        parts = []
        for modeler, found in errors.items():
            e = np.concatenate([v for (p, _), v in found.items() if p == name])
            parts.append(f"{modeler} {np.median(e):5.1%} ({np.quantile(e, 0.9):5.1%})")
        print(f"  {name} held out, all kernels ({len(e)}): " + "  ".join(parts))


def agreement_on_files(python: str, record: bool) -> tuple[int, int]:
    """Print (and with ``record`` store) the agreement with Extra-P on its own inputs; return
    the kernels that agree and the kernels in all.

    A differing kernel is called a tie when Extra-P's model and ours take the same values
    (to 1e-9) at every measured point: then the hypotheses fit the data identically, and
    Extra-P's strict ``<`` on equal SMAPEs chose by the last bits of LAPACK (MULTIPARAM.md).
    """
    agree = total = 0
    recorded = {}
    for name in FILES:
        extrap = run_extrap(python, DATA / name)[0]
        recorded[name] = extrap["models"]
        ms = read(str(DATA / name))
        models = zip(fit(DATA / name, "basic"), extrap["models"], ms.series, strict=True)
        for ours, theirs, s in models:
            same = ours.hypothesis == hypothesis(theirs, len(ms.parameters))
            agree, total = agree + same, total + 1
            if not same:
                tie = np.allclose(ours(s.points), _extrap_predict(theirs, s.points), rtol=1e-9)
                kind = "a tie: the same values at every measured point" if tie else "not a tie"
                print(f"  differs: {name} {theirs['kernel']} ({kind})")
    if record:
        RECORD.write_text(json.dumps(recorded, indent=1) + "\n")
    print(
        f"Extra-P's multi-parameter test inputs ({len(FILES)} files): basic chose Extra-P's "
        f"hypothesis for {agree}/{total} kernels ({agree / total:.1%})"
    )
    return agree, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extrap-python", help="Python of an environment with extrap 4.2.5")
    parser.add_argument("--venv", default="~/.cache/patternalg/extrap-4.2.5")
    parser.add_argument("--kernels", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2025)
    parser.add_argument(
        "--record", action="store_true", help=f"write Extra-P's models to {RECORD.name}"
    )
    parser.add_argument("--real-only", action="store_true", help="only the real-data part")
    args = parser.parse_args()
    real_extrapolation()
    if args.real_only:
        return
    python = extrap_python(args)
    files_agree, files_total = agreement_on_files(python, args.record)
    with tempfile.TemporaryDirectory() as tmp:
        small = Path(tmp) / "grid_5x5.txt"
        truths, noise, grid = generate(small, args.kernels, args.seed)
        fit_grid = grid[grid[:, 1] < max(PS)]
        extrap, extrap_wall, extrap_cpu = run_extrap(python, small)
        theirs = [hypothesis(m, 2) for m in extrap["models"]]
        truth = [spelled(t[0]) for t in truths]
        ours = {name: fit(small, name) for name in MODELERS}
        print(f"\nsynthetic: {args.kernels} kernels on the 5 x 5 grid")
        print(
            f"{'noise':>5} | {'agree':>6} | recovered: {'Extra-P':>7} {'basic':>6} {'default':>7}"
        )
        synthetic_agree = 0
        for level in NOISES:
            sel = np.flatnonzero(noise == level)

            def share(found: list, sel: np.ndarray = sel) -> float:
                return float(np.mean([found[i] == truth[i] for i in sel]))

            same = [ours["basic"][i].hypothesis == theirs[i] for i in sel]
            agree, synthetic_agree = np.mean(same), synthetic_agree + sum(same)
            print(
                f"{level:>5.0%} | {agree:>6.1%} | {'':>10} {share(theirs):>7.1%} "
                f"{share([m.hypothesis for m in ours['basic']]):>6.1%} "
                f"{share([m.hypothesis for m in ours['default']]):>7.1%}"
            )
        pooled, pooled_total = files_agree + synthetic_agree, files_total + len(theirs)
        print(
            f"agreement over Extra-P's inputs and the synthetic kernels: {pooled}/{pooled_total} "
            f"({pooled / pooled_total:.1%})"
        )
        at = grid[grid[:, 1] == max(PS)]
        print(
            f"\nextrapolation to p = {max(PS):g} (fit on p <= {PS[-2]:g}): median |error| over "
            "kernels and x"
        )
        for name, models in [("Extra-P", None), *ours.items()]:
            errors = []
            for k, t in enumerate(truths):
                actual = true_values(at, fit_grid, t)
                predicted = (
                    ours[name][k](at) if models else _extrap_predict(extrap["models"][k], at)
                )
                errors.append(np.abs(predicted / actual - 1))
            errors = np.concatenate(errors)
            print(
                f"{name:>8}: {np.median(errors):.1%} (90th percentile {np.quantile(errors, 0.9):.1%})"
            )
        timings = {}
        for name in MODELERS:  # the whole command, as a user runs it
            command = [sys.executable, "-m", "patternalg.cli", "fit", str(small), "--modeler", name]
            timings[name] = timed([*command, "--format", "json"])[1:]
        series = read(str(small)).series
        modeling = {}
        for name, select in MODELERS.items():
            y = np.array([s.aggregate(AGGREGATION[name]) for s in series])
            start = time.perf_counter()
            select(series[0].points, y)
            modeling[name] = time.perf_counter() - start
        print(
            f"\nspeed, {args.kernels} kernels on 5 x 5 points, whole process (start, read, fit, "
            f"print), wall (CPU) seconds: Extra-P {extrap_wall:.2f} ({extrap_cpu:.2f})"
        )
        for name, (wall, cpu) in timings.items():
            print(
                f"  patternalg fit --modeler {name}: {wall:.2f} ({cpu:.2f}): "
                f"{extrap_wall / wall:.0f}x wall, {extrap_cpu / cpu:.0f}x CPU"
            )
        print(
            f"modeling alone: Extra-P {extrap['model_seconds']:.2f} s, basic "
            f"{modeling['basic']:.2f} s ({extrap['model_seconds'] / modeling['basic']:.0f}x), "
            f"default {modeling['default']:.2f} s"
        )


def _extrap_predict(model: dict, points: np.ndarray) -> np.ndarray:
    value = np.full(len(points), model["constant"])
    for term in model["terms"]:
        part = np.full(len(points), term["coefficient"])
        for f in term["factors"]:
            x = points[:, f["parameter"]]
            part = part * x ** float(Fraction(f["i"])) * np.log2(x) ** int(f["j"])
        value = value + part
    return value


if __name__ == "__main__":
    main()
