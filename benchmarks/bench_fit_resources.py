"""Benchmark of the resource-aware fitters (papers 002 and 003). Prints measured figures:

1. the CSA-M fit of the memory-wall model on the 336-point grid of paper 003 (time, MSE);
2. the on-line Amdahl estimator's update cost per observation against a batch refit per
   observation (the ratio, at several stream lengths);
3. the accuracy of the alpha aggregations on held-out points, for paper-like absolute noise
   (5 ms) and for relative noise (3 %);
4. the replay of paper 002, section 3.5: on-line against static mispredictions.

Run: python benchmarks/bench_fit_resources.py [--quick]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from patternalg.forms.amdahl import ALPHA_METHODS
from patternalg.forms.amdahl.fit import aggregate_alpha, fit_amdahl, fit_tseq, point_alphas
from patternalg.forms.amdahl.online import OnlineAmdahl, replay
from patternalg.forms.memwall.fit import fit_memwall, speedups
from patternalg.forms.synthetic import amdahl_measurements, memwall_grid
from patternalg.library import ModelLibrary


def bench_csa(iterations: int, names: list[str]) -> None:
    print(f"\n== CSA-M fit of eq. (15), 336-point grid, {iterations} iterations, 10 annealers")
    print(f"{'program':<22} {'seed':>4} {'time s':>7} {'mse':>10} {'amdahl mse':>11} {'gain %':>7}")
    grid_p, grid_phi = memwall_grid()
    library = ModelLibrary.builtin()
    for name in names:
        spec = dict(library[name].spec)
        truth = np.array([[spec["f"], spec["k"], spec["m1"], spec["m2"]]])
        measured = speedups(truth, grid_p, grid_phi)[0]
        for seed in (0, 1):
            start = time.perf_counter()
            fit = fit_memwall(grid_p, grid_phi, measured, iterations=iterations, seed=seed)
            elapsed = time.perf_counter() - start
            print(
                f"{name:<22} {seed:>4} {elapsed:>7.2f} {fit.mse:>10.2e} "
                f"{fit.amdahl_mse:>11.4f} {fit.gain:>7.2f}"
            )


def _batch_refit(x: np.ndarray, p: np.ndarray, t: np.ndarray, degree: int) -> None:
    """What the on-line estimator avoids: a full refit on all points seen so far."""
    ones = p == 1
    if len(np.unique(x[ones])) > degree and (p > 1).any():
        coefficients = fit_tseq(x[ones], t[ones], degree)
        alphas = point_alphas(coefficients, x, p, t)
        aggregate_alpha(x[p > 1], p[p > 1], alphas, "highest")


def bench_online(lengths: list[int]) -> None:
    print("\n== on-line update (+ predict) vs batch refit, per observation, degree 3")
    print(f"{'stream length':>13} {'online us':>10} {'batch us':>10} {'ratio':>7}")
    x, p, t = amdahl_measurements(repetitions=20, seed=1)
    order = np.random.default_rng(1).permutation(len(x))
    x, p, t = x[order], p[order], t[order]
    for length in lengths:
        estimator = OnlineAmdahl(degree=3)
        start = time.perf_counter()
        for i in range(length):
            estimator.update(x[i], p[i], t[i])
            estimator.predict(x[i], p[i])
        online = (time.perf_counter() - start) / length
        # batch refits at the last 200 positions of the stream: the cost at that length
        tail = range(max(length - 200, 1), length)
        start = time.perf_counter()
        for i in tail:
            _batch_refit(x[: i + 1], p[: i + 1], t[: i + 1], 3)
        batch = (time.perf_counter() - start) / len(tail)
        print(f"{length:>13} {online * 1e6:>10.1f} {batch * 1e6:>10.1f} {batch / online:>7.1f}")


def _held_out(noise: str, seed: int) -> dict[str, tuple[float, float]]:
    if noise == "absolute 5 ms":
        x, p, t = amdahl_measurements(seed=seed)
    else:
        x, p, exact = amdahl_measurements(seed=seed, noise=0.0)
        t = exact * (1 + np.random.default_rng(seed).normal(0, 0.03, len(exact)))
    keys = np.unique(np.column_stack([x, p]), axis=0)
    held = {tuple(k) for k in keys[np.random.default_rng(100 + seed).random(len(keys)) < 0.3]}
    mask = np.array([(a, b) in held for a, b in zip(x, p, strict=True)])
    result = {}
    for method in ALPHA_METHODS:
        fit = fit_amdahl(x[~mask], p[~mask], t[~mask], 3, method)
        predicted = fit.predict(x[mask], p[mask])
        relative = float(np.median(np.abs(predicted - t[mask]) / t[mask]))
        rmse = float(np.sqrt(np.mean((predicted - t[mask]) ** 2)))
        result[method] = (relative, rmse)
    return result


def bench_alpha(seeds: int) -> None:
    print(f"\n== alpha aggregation on held-out points (30 % of the (x, p) points, {seeds} seeds)")
    print("   data: paper 002's matmul shape, x 50..2500, p in {1..47}, 10 repetitions, degree 3")
    print(f"{'noise':<14} {'method':<13} {'median |rel err| %':>19} {'rmse s':>9}")
    for noise in ("absolute 5 ms", "relative 3 %"):
        runs = [_held_out(noise, seed) for seed in range(seeds)]
        for method in ALPHA_METHODS:
            relative = np.mean([r[method][0] for r in runs])
            rmse = np.mean([r[method][1] for r in runs])
            print(f"{noise:<14} {method:<13} {100 * relative:>19.2f} {rmse:>9.4f}")


def bench_replay(seeds: int) -> None:
    print(
        "\n== replay (paper 002, 3.5): shuffled stream, predict then update;"
        " static = the first estimate"
    )
    print(
        f"{'seed':>4} {'model':<7} {'mean |err| s':>12} {'p5 s':>9} {'p95 s':>9} "
        f"{'max |err| s':>12}"
    )
    for seed in range(seeds):
        x, p, t = amdahl_measurements(repetitions=2, seed=seed)
        result = replay(x, p, t, degree=3, seed=seed)
        for label, errors in (("online", result.online), ("static", result.static)):
            s = result.spread(errors)
            print(
                f"{seed:>4} {label:<7} {s['mean_abs']:>12.4f} {s['p5']:>9.4f} "
                f"{s['p95']:>9.4f} {s['max_abs']:>12.4f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller budgets")
    parser.add_argument("--iterations", type=int, default=10_000, help="CSA iteration budget")
    args = parser.parse_args()
    iterations = 2_000 if args.quick else args.iterations
    bench_csa(iterations, ["parsec_dedup", "parsec_x264", "parsec_ferret"])
    bench_online([200, 1000, 4000] if not args.quick else [200, 1000])
    bench_alpha(2 if args.quick else 5)
    bench_replay(2 if args.quick else 4)


if __name__ == "__main__":
    main()
