"""PMNF fitting against Extra-P 4.2.5: agreement, recovery of the true model, speed.

Generates Extra-P text files of 10, 200 and 1,000 kernels (9 points x = 4 .. 1024,
5 repetitions, a known true hypothesis per kernel drawn uniformly from Extra-P's 42
building blocks and the constant; c1 in [0.1, 10], c0 such that the term starts at
0.1 to 10 times the constant), half of the kernels with 2 % and half with 10 %
multiplicative Gaussian noise. Per file and noise level it prints

* the share of kernels where our ``basic`` chose the same hypothesis as Extra-P,
* the share where ``basic``, ``default`` and Extra-P recovered the true hypothesis,

and per file the modeling time of Extra-P (its ``ModelGenerator.model_all``, run in its
own virtual environment) against ours (``PMNF.fit_each``: aggregation, selection,
sympy models and records) and our bare numeric selection.

    python benchmarks/bench_fit.py [--extrap-python PATH] [--sizes 10,200,1000] [--stress N]

``--ablation N`` measures the design choices of the default modeler on N kernels per noise
level, and what the data can tell (how often the truth fits best of all hypotheses, and how
many of ``default``'s misses chose a hypothesis that fits better than the truth);
``--stress N`` adds N kernels of odd data per shape (5 points, x below 1, zeros, negative
and decreasing values, 1 to 5 repetitions) and prints how often ``basic`` agrees there.

Without ``--extrap-python`` the script creates a virtual environment with
``pip install extrap==4.2.5 'numpy<2' 'marshmallow<4'`` under ``--venv`` (default
``~/.cache/patternalg/extrap-4.2.5``) on first use.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import venv
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from patternalg.algebra.normal_forms.blocks import BUILDING_BLOCKS
from patternalg.forms.pmnf import PMNF
from patternalg.forms.pmnf.basic import select_basic
from patternalg.forms.pmnf.default import _line_fit, basis, select_default
from patternalg.forms.pmnf.uncertainty import pooled_noise
from patternalg.measurements import read

HERE = Path(__file__).resolve().parent
POINTS = 2.0 ** np.arange(2, 11)
NOISES = (0.02, 0.10)
REPETITIONS = 5


def extrap_python(args: argparse.Namespace) -> str:
    """The Python of Extra-P's virtual environment, created on first use."""
    if args.extrap_python:
        return args.extrap_python
    home = Path(args.venv).expanduser()
    python = home / "bin" / "python"
    if not python.exists():
        print(f"creating Extra-P's virtual environment in {home} ...", file=sys.stderr)
        venv.create(home, with_pip=True)
        subprocess.run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "-q",
                "extrap==4.2.5",
                "numpy<2",
                "marshmallow<4",
            ],
            check=True,
        )
    return str(python)


def generate(
    path: Path, kernels: int, seed: int, outliers: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """Write an Extra-P text file; return the true block per kernel (-1: constant) and noise.

    A share ``outliers`` of the repetitions is slowed down 1.5 to 3 times (a disturbed run).
    """
    rng = np.random.default_rng(seed)
    truth = rng.integers(-1, len(BUILDING_BLOCKS), size=kernels)
    noise = np.array([NOISES[k % 2] for k in range(kernels)])
    lines = ["PARAMETER x", "POINTS " + " ".join(f"({v:g})" for v in POINTS), "METRIC time"]
    all_blocks = basis(POINTS, np.arange(len(BUILDING_BLOCKS)))
    for k in range(kernels):
        c1 = 10 ** rng.uniform(-1, 1)
        term = all_blocks[truth[k]] * c1 if truth[k] >= 0 else np.zeros_like(POINTS)
        c0 = (term[0] if truth[k] >= 0 else c1) * 10 ** rng.uniform(-1, 1)
        lines.append(f"REGION k{k}")
        for value in c0 + term:
            reps = value * (1 + noise[k] * rng.standard_normal(REPETITIONS))
            slow = rng.random(REPETITIONS) < outliers
            reps = np.where(slow, reps * rng.uniform(1.5, 3, REPETITIONS), reps)
            lines.append("DATA " + " ".join(repr(float(r)) for r in reps))
    path.write_text("\n".join(lines) + "\n")
    return truth, noise


def extrap_choice(model: dict) -> int:
    if not model["terms"]:
        return -1
    term = model["terms"][0]
    return BUILDING_BLOCKS.index((Fraction(term["i"]), int(term["j"])))


def run_extrap(python: str, path: Path) -> dict:
    out = subprocess.run(
        [python, str(HERE / "extrap_driver.py"), str(path)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)


def ours(path: Path, modeler: str) -> tuple[np.ndarray, float, float]:
    """Chosen blocks, wall and CPU seconds of PMNF.fit_each (reading excluded)."""
    ms = read(path)
    start, cpu = time.perf_counter(), time.process_time()
    reports = PMNF.fit_each(ms, modeler=modeler)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return np.array([choice(r.record) for r in reports]), wall, cpu


def choice(record: dict) -> int:
    """The building block of a fit record (-1: constant; -2: two terms, never the truth,
    which is one term)."""
    terms = record["terms"]
    if len(terms) > 1:
        return -2
    return BUILDING_BLOCKS.index((Fraction(terms[0]["i"]), terms[0]["j"])) if terms else -1


def bare_selection(path: Path) -> float:
    """Seconds of the numeric selection alone (both modelers) on the aggregated values."""
    ms = read(path)
    y = np.array([s.aggregate("mean") for s in ms.series])
    start = time.perf_counter()
    select_basic(POINTS, y)
    select_default(POINTS, y)
    return time.perf_counter() - start


#: odd data for --stress: Extra-P's own 5-point range, x below 1 (no log terms), zeros and
#: negative values, decreasing trends, 1 to 5 repetitions, 0 to 30 % noise
ODD_FILES = {
    "x=20..60": ([20.0, 30, 40, 50, 60], "signs"),
    "x=0.25..4": ([0.25, 0.5, 1, 2, 3, 4], "growing"),
    "x=1..9, zeros": ([1.0, 2, 3, 4, 5, 6, 7, 8, 9], "zeros"),
    "x=16..512": ([16.0, 32, 64, 128, 256, 512], "signs"),
}


def generate_odd(path: Path, xs: list[float], kernels: int, seed: int, kind: str) -> None:
    """Write kernels of every shape and sign Extra-P's modeler has to cope with."""
    rng = np.random.default_rng(seed)
    lines = ["PARAMETER p", "POINTS " + " ".join(f"({v!r})" for v in xs)]
    terms = basis(np.array(xs), np.arange(len(BUILDING_BLOCKS)))
    for k in range(kernels):
        block = rng.integers(-1, len(BUILDING_BLOCKS))
        c1 = 10 ** rng.uniform(-2, 2) * (1 if kind == "growing" else rng.choice([-1, 1]))
        c0 = 10 ** rng.uniform(-1, 3) * (rng.choice([-1, 0, 1]) if kind == "zeros" else 1)
        values = c0 + (c1 * terms[block] if block >= 0 else np.zeros(len(xs)))
        noise = rng.choice([0, 0.01, 0.1, 0.3])
        lines.append(f"REGION k{k}")
        for value in values:
            reps = value * (1 + noise * rng.standard_normal(rng.integers(1, 6)))
            if kind == "zeros" and rng.random() < 0.1:
                reps = reps * 0
            lines.append("DATA " + " ".join(repr(float(r)) for r in reps))
    path.write_text("\n".join(lines) + "\n")


def stress(python: str, tmp: str, kernels: int, seed: int) -> None:
    """Agreement of ``basic`` with Extra-P on odd data, and the largest coefficient gap."""
    print(f"\n{'odd data':>14} | {'agree':>6} | max |c0 - c0_extrap| / max |y|")
    for n, (name, (xs, kind)) in enumerate(ODD_FILES.items()):
        path = Path(tmp) / f"odd_{n}.txt"
        generate_odd(path, xs, kernels, seed + n, kind)
        extrap = run_extrap(python, path)["models"]
        ms = read(path)
        records = [r.record for r in PMNF.fit_each(ms, modeler="basic", allow_nonpositive=True)]
        agree = [extrap_choice(e) == choice(r) for e, r in zip(extrap, records, strict=True)]
        scale = [np.abs(s.aggregate("mean")).max() or 1.0 for s in ms.series]
        gap = max(
            abs(e["constant"] - r["constant"]) / m
            for e, r, m, same in zip(extrap, records, scale, agree, strict=True)
            if same
        )
        print(f"{name:>14} | {np.mean(agree):>6.1%} | {gap:.1e}")


#: the design choices of the default modeler, measured against each other (--ablation)
VARIANTS = {
    "basic (= Extra-P)": ("mean", select_basic, {}),
    "basic, median": ("median", select_basic, {}),
    "default (biweight)": ("biweight", select_default, {}),
    "default, one term only": ("biweight", select_default, {"two_terms": False}),
    "default, a term however close the constant": ("biweight", select_default, {"within_noise": False}),
    "default, BIC against the constant": ("biweight", select_default, {"parsimony": "bic"}),
    "default, negative coefficients allowed": ("biweight", select_default, {"growing": False}),
    "default, negative constants not penalised": (
        "biweight",
        select_default,
        {"negative_constant": 1.0},
    ),
    "default, median": ("median", select_default, {}),
    "default, mean": ("mean", select_default, {}),
    "default, min": ("min", select_default, {}),
}


def recovered(select: Any, y: np.ndarray, series: list, how: str, options: dict) -> np.ndarray:
    """The block a selection chose per kernel (-1: constant; -2: two terms), the default
    given the noise of the points as ``fit`` gives it."""
    if select is select_default:
        values = np.array([s.values for s in series], dtype=float)
        options = {"noise": pooled_noise(values, how, y), **options}
    chosen = select(POINTS, y, **options)
    return np.where(chosen.index2 >= 0, -2, chosen.index)


def relative_rss(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The sum of squared relative residuals of every hypothesis fitted to every kernel by
    least squares with weights ``1/y^2`` (the likelihood under multiplicative noise), no
    rule applied: shape (43, K), row 0 the constant, row h + 1 building block h."""
    b = basis(x, np.arange(len(BUILDING_BLOCKS))).T[:, :, None]  # (P, H, 1): points first
    y_t = y.T[:, None, :]  # (P, 1, K)
    w = 1.0 / y_t**2
    c0, c1 = _line_fit(b, y_t, w)  # (H, K)
    blocks = (((c0 + c1 * b - y_t) / y_t) ** 2).sum(0)
    mean = (w * y_t).sum(0) / w.sum(0)  # (1, K)
    return np.concatenate([(((mean - y_t) / y_t) ** 2).sum(0), blocks])


def data_limit(series: list, truth: np.ndarray, noise: np.ndarray) -> tuple[str, str]:
    """What the data can tell, per noise level: how often the truth fits best of all
    hypotheses (what a selection by fit alone, no rule, recovers), and the share of
    ``default``'s misses that chose a hypothesis fitting the data better than the truth
    (no selection by fit quality recovers those)."""
    y = np.array([s.aggregate("biweight") for s in series])
    rss = relative_rss(POINTS, y)
    kernels = np.arange(len(y))
    truth_rss = rss[truth + 1, kernels]
    chosen = recovered(select_default, y, series, "biweight", {})
    better = (chosen == -2) | (rss[np.maximum(chosen, -1) + 1, kernels] < truth_rss)
    best = truth_rss <= rss.min(0)
    missed = chosen != truth
    shares = " ".join(f"{np.mean(best[noise == v]):>6.1%}" for v in NOISES)
    ofmisses = " ".join(
        f"{np.sum(missed & better & (noise == v)) / max(np.sum(missed & (noise == v)), 1):>6.1%}"
        for v in NOISES
    )
    return shares, ofmisses


def ablation(tmp: str, kernels: int, seed: int) -> None:
    """Recovery of the true hypothesis by each variant, per noise level (no Extra-P needed)."""
    files = []
    for outliers in (0.0, 0.05):
        path = Path(tmp) / f"ablation_{outliers}.txt"
        truth, noise = generate(path, 2 * kernels, seed, outliers)
        files.append((read(path).series, truth, noise))
    print(f"\n{'':>40} | {'clean':>13} | {'5 % outliers':>13}")
    levels = " ".join(f"{v:>6.0%}" for v in NOISES)
    print(f"{'variant':>40} | {levels} | {levels}")
    for name, (how, select, options) in VARIANTS.items():
        cells = []
        for series, truth, noise in files:
            y = np.array([s.aggregate(how) for s in series])
            found = recovered(select, y, series, how, options) == truth
            cells.append(" ".join(f"{np.mean(found[noise == v]):>6.1%}" for v in NOISES))
        print(f"{name:>40} | " + " | ".join(cells))
    limits = [data_limit(*found) for found in files]
    print(f"{'the truth fits best (no rule)':>40} | " + " | ".join(s for s, _ in limits))
    print(f"{'of the misses: the choice fits better':>40} | " + " | ".join(c for _, c in limits))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extrap-python", help="Python of an environment with extrap 4.2.5")
    parser.add_argument("--venv", default="~/.cache/patternalg/extrap-4.2.5")
    parser.add_argument("--sizes", default="10,200,1000")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--stress", type=int, default=0, metavar="N", help="also N kernels of odd data per shape"
    )
    parser.add_argument(
        "--ablation",
        type=int,
        default=0,
        metavar="N",
        help="also N kernels per noise level through each variant of the default modeler",
    )
    args = parser.parse_args()
    python = extrap_python(args)
    print(
        f"{'kernels':>7} {'noise':>5} | {'agree':>6} | recovered: {'extrap':>6} "
        f"{'basic':>6} {'default':>7}"
    )
    timings = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            path = Path(tmp) / f"bench_{size}.txt"
            truth, noise = generate(path, size, args.seed + size)
            extrap = run_extrap(python, path)
            theirs = np.array([extrap_choice(m) for m in extrap["models"]])
            basic, basic_wall, basic_cpu = ours(path, "basic")
            default, default_wall, default_cpu = ours(path, "default")
            for level in NOISES:
                sel = noise == level
                print(
                    f"{size:>7} {level:>5.0%} | {np.mean(basic[sel] == theirs[sel]):>6.1%} | "
                    f"{'':>10} {np.mean(theirs[sel] == truth[sel]):>6.1%} "
                    f"{np.mean(basic[sel] == truth[sel]):>6.1%} "
                    f"{np.mean(default[sel] == truth[sel]):>7.1%}"
                )
            timings.append(
                (
                    size,
                    extrap["model_seconds"],
                    extrap["model_cpu_seconds"],
                    basic_wall,
                    basic_cpu,
                    default_wall,
                    bare_selection(path),
                )
            )
        print()
        print(
            f"{'kernels':>7} | {'Extra-P s (cpu)':>16} | {'basic s (cpu)':>16} | "
            f"{'default s':>9} | {'bare s':>7} | speed-up basic: wall  cpu"
        )
        for size, ew, ec, bw, bc, dw, bare in timings:
            print(
                f"{size:>7} | {ew:>7.3f} ({ec:>6.3f}) | {bw:>7.3f} ({bc:>6.3f}) | {dw:>9.3f} | "
                f"{bare:>7.4f} | {ew / bw:>19.0f}x {ec / bc:>4.0f}x"
            )
        if args.stress:
            stress(python, tmp, args.stress, args.seed)
        if args.ablation:
            ablation(tmp, args.ablation, args.seed)


if __name__ == "__main__":
    main()
