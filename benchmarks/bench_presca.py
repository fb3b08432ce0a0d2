"""PreSca and OPreSca on synthetic workloads of the shapes of paper 004, against baselines.

Four shapes on 1..48 threads (the paper's x86 machine), each with random parameters and
2 % multiplicative noise (the measured table is the truth, as in the paper):

* near-linear scaling (a time, Amdahl with a small serial fraction),
* saturation (a throughput that levels off),
* a contention peak as in kmeans (a time with a minimum near 14-26 threads),
* a sudden drop at a hardware boundary (a throughput that falls by 20 % past 24 or 32).

Printed, with the paper's figure beside each:

* 90th-percentile interpolation error from 6 and 8 evenly spread measurements (paper: below
  15 % for 30-31 of 32 workloads), for the paper's polynomial and ours (times interpolated
  in their inverse) -- baseline: piecewise-linear interpolation;
* share of extrapolations from 1..m threads (m = 12, 16, 24; 4 checkpoints) with errors
  below 20 % up to 2m threads (paper: 82.5 %) -- baseline: the interpolation polynomial
  extrapolated; and the time per prediction;
* OPreSca's mean steps S and final error E with random (10 seeded runs) and 12-24-36
  initial counts (paper: S < 7, E < 3 %), and the cost ratio Binsearch / OPreSca where
  cost = S * E_S, the summed per-step error (paper: 1.4x random, 2x fixed on x86).

Run: ``python benchmarks/bench_presca.py [--instances K] [--seed S]`` (default K = 4,
16 workloads, about a minute or two on a shared 2-core machine).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from patternalg.forms.presca import fit_polynomial, predict
from patternalg.forms.presca.tuning import mean_scores, run_binsearch, run_opresca, score

THREADS = np.arange(1, 49)
NOISE = 0.02  # default; --noise changes it


def _linear(rng: np.random.Generator) -> tuple[np.ndarray, bool]:
    serial = rng.uniform(0.005, 0.04)
    return 100.0 * (serial + (1 - serial) / THREADS), False


def _saturation(rng: np.random.Generator) -> tuple[np.ndarray, bool]:
    knee = rng.uniform(5.0, 14.0)
    return 1000.0 * (1 - np.exp(-THREADS / knee)), True


def _contention(rng: np.random.Generator) -> tuple[np.ndarray, bool]:
    serial, peak = rng.uniform(0.01, 0.05), rng.uniform(14.0, 26.0)
    # d/dn [(1-s)/n + c n^1.5] = 0 at n = peak
    c = (1 - serial) / (1.5 * peak**2.5)
    return 10.0 * (serial + (1 - serial) / THREADS + c * THREADS**1.5), False


def _boundary(rng: np.random.Generator) -> tuple[np.ndarray, bool]:
    boundary, s = rng.choice([24, 32]), rng.uniform(0.005, 0.02)
    base = THREADS / (1 + s * (THREADS - 1))
    after = base[boundary - 1] * 0.8 + 0.4 * (base - base[boundary - 1])
    return 50.0 * np.where(THREADS <= boundary, base, after), True


SHAPES: dict[str, Callable[[np.random.Generator], tuple[np.ndarray, bool]]] = {
    "linear": _linear,
    "saturation": _saturation,
    "contention": _contention,
    "boundary": _boundary,
}


def workloads(instances: int, seed: int, noise: float) -> list[tuple[str, np.ndarray, bool]]:
    """(name, measured values at 1..48, higher_is_better) for every shape and instance."""
    rng = np.random.default_rng(seed)
    out = []
    for shape, make in SHAPES.items():
        for i in range(instances):
            clean, higher = make(rng)
            noisy = clean * (1 + noise * rng.standard_normal(len(THREADS)))
            out.append((f"{shape}{i}", noisy, higher))
    return out


def _relative(predicted: np.ndarray, measured: np.ndarray) -> np.ndarray:
    return np.abs(predicted / measured - 1)


def _by_shape(names: list[str], ok: list[bool]) -> str:
    shares = []
    for shape in SHAPES:
        mine = [good for name, good in zip(names, ok, strict=True) if name.startswith(shape)]
        shares.append(f"{shape} {sum(mine)}/{len(mine)}")
    return ", ".join(shares)


def interpolation(data: list[tuple[str, np.ndarray, bool]]) -> None:
    print("Interpolation: share of workloads whose 90th-percentile error is below 15 %")
    names = [name for name, _, _ in data]
    for m in (6, 8):
        at = np.unique(np.round(np.linspace(1, 48, m)).astype(int))
        errors: dict[str, list[float]] = {"paper": [], "auto": [], "linear": []}
        for _, y, higher in data:
            for how, key in (("poly", "paper"), ("auto", "auto")):
                function = predict(
                    at, y[at - 1], upto=48, higher_is_better=higher, interpolation=how
                ).function
                errors[key].append(np.percentile(_relative(function(THREADS), y), 90))
            errors["linear"].append(
                np.percentile(_relative(np.interp(THREADS, at, y[at - 1]), y), 90)
            )
        for key, label in (
            ("paper", "paper's polynomial"),
            ("auto", "ours (1/time)"),
            ("linear", "piecewise-linear"),
        ):
            values = np.array(errors[key])
            print(
                f"  m={m}: {label:<19} {np.mean(values < 0.15):6.1%} "
                f"(median p90 {np.median(values):5.1%}); by shape: "
                f"{_by_shape(names, list(values < 0.15))}"
            )
        print("        paper: 30-31 of 32 workloads (94-97 %)")


def extrapolation(data: list[tuple[str, np.ndarray, bool]]) -> None:
    print("Extrapolation from 1..m threads (4 checkpoints): share with errors < 20 % up to 2m")
    total_ok = total_poly = total = 0
    for m in (12, 16, 24):
        upto = min(2 * m, 48)
        ok = poly_ok = 0
        seconds, good = [], []
        for _, y, higher in data:
            n = THREADS[:m]
            start = time.perf_counter()
            result = predict(n, y[:m], upto, checkpoints=4, higher_is_better=higher)
            seconds.append(time.perf_counter() - start)
            beyond = THREADS[m:upto]
            good.append(bool(np.max(_relative(result.function(beyond), y[m:upto])) < 0.2))
            ok += good[-1]
            coeffs = fit_polynomial(n, y[:m])
            poly_ok += np.max(_relative(np.polyval(coeffs[::-1], beyond), y[m:upto])) < 0.2
        total_ok, total_poly, total = total_ok + ok, total_poly + poly_ok, total + len(data)
        print(
            f"  m={m:2d}: PreSca {ok / len(data):6.1%} | polynomial extrapolated "
            f"{poly_ok / len(data):6.1%} | {np.mean(seconds) * 1e3:7.1f} ms per prediction"
        )
        print(f"        by shape: {_by_shape([name for name, _, _ in data], good)}")
    print(
        f"  all : PreSca {total_ok / total:6.1%} | polynomial extrapolated "
        f"{total_poly / total:6.1%}   paper: 82.5 % (185 of 224)"
    )


def tuning(data: list[tuple[str, np.ndarray, bool]], runs: int, seed: int) -> None:
    print(
        f"OPreSca vs Binsearch (mean over workloads; random init averaged over {runs} seeded runs)"
    )
    rows: dict[str, list] = {"OPreSca Rnd-Rnd-Rnd": [], "OPreSca 12-24-36": [], "Binsearch": []}
    seconds = []
    for _, y, higher in data:
        table = {int(n): float(v) for n, v in zip(THREADS, y, strict=True)}
        start = time.perf_counter()
        randoms = [run_opresca(table, higher, seed=seed + i) for i in range(runs)]
        seconds.append((time.perf_counter() - start) / runs)
        rows["OPreSca Rnd-Rnd-Rnd"].append(mean_scores(score(r, table, higher) for r in randoms))
        fixed = run_opresca(table, higher, init=[12, 24, 36])
        rows["OPreSca 12-24-36"].append(score(fixed, table, higher))
        rows["Binsearch"].append(score(run_binsearch(table, higher), table, higher))
    means = {name: mean_scores(scores) for name, scores in rows.items()}
    print(f"  {'':20s} {'E':>7s} {'S':>6s} {'E_S':>7s} {'S_E>10%':>8s} {'cost':>7s}")
    for name, s in means.items():
        print(f"  {name:20s} {s.E:7.3f} {s.S:6.2f} {s.E_S:7.3f} {s.S_E_gt_10:8.2f} {s.cost:7.3f}")
    base = means["Binsearch"].cost
    random, fixed = means["OPreSca Rnd-Rnd-Rnd"].cost, means["OPreSca 12-24-36"].cost
    print(
        f"  cost ratio Binsearch / OPreSca: random {base / random:.2f}x"
        f", 12-24-36 {base / fixed:.2f}x   "
        "paper (x86): 1.4x, 2x; S < 7, E < 3 %"
    )
    print(f"  OPreSca run time: {np.mean(seconds) * 1e3:.0f} ms per tuning run")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=4, help="workloads per shape")
    parser.add_argument("--seed", type=int, default=2012)
    parser.add_argument("--runs", type=int, default=10, help="random-init OPreSca runs")
    parser.add_argument("--noise", type=float, default=NOISE, help="relative noise (0.02)")
    args = parser.parse_args()
    data = workloads(args.instances, args.seed, args.noise)
    print(
        f"{len(data)} synthetic workloads ({', '.join(SHAPES)}), 1..48 threads, "
        f"{args.noise:.1%} noise\n"
    )
    start = time.perf_counter()
    interpolation(data)
    extrapolation(data)
    tuning(data, args.runs, args.seed)
    print(f"\ntotal {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
