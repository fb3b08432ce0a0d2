"""Benchmark of the resource-aware fitters (papers 002 and 003). Prints measured figures:

1. the CSA-M fit of the memory-wall model on the 336-point grid of paper 003: CPU seconds
   and MSE of ``fit_memwall`` beside the baseline, a plain CSA-M loop in this script (one
   random draw and one evaluation of eq. (15) per iteration, as ``anneal`` was written
   before draws were blocked), on the same seed; the two must find the same state;
2. the on-line Amdahl estimator's update cost per observation against a batch refit per
   observation (the ratio, at several stream lengths);
3. the accuracy of the alpha aggregations on held-out points, for paper-like absolute noise
   (5 ms) and for relative noise (3 %);
4. the replay of paper 002, section 3.5: on-line against static mispredictions.

Run: python benchmarks/bench_fit_resources.py [--quick] [--table1]

``--table1`` fits all 25 programs of paper 003's Table 1 (default: dedup, x264, ferret).
Measured on the shared 2-core machine (10,000 iterations, CPU seconds per fit): the library
0.63-0.77 s, the baseline loop 0.84-0.98 s (ratio 1.32 over the six fits). Against the code
before draws were blocked (a paired run of all 50 fits of Table 1, seeds 0 and 1): 0.65 s
median per fit against 0.92 s, and the first fit of a process 0.62-0.66 s against 1.2-1.3 s
(it imported scipy; Amdahl's f is now refined on nested grids). Every fit found the same
state, so the MSE per program is unchanged.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from patternalg.forms.amdahl import ALPHA_METHODS
from patternalg.forms.amdahl.fit import aggregate_alpha, fit_amdahl, fit_tseq, point_alphas
from patternalg.forms.amdahl.online import OnlineAmdahl, replay
from patternalg.forms.memwall.fit import ANNEALERS, PARAMETERS, fit_memwall, speedups
from patternalg.forms.memwall.form import BOUNDS
from patternalg.forms.synthetic import amdahl_measurements, memwall_grid
from patternalg.library.model_library import ModelLibrary


def _baseline_anneal(
    energy: Callable[[np.ndarray], np.ndarray],
    bounds: list[tuple[float, float]],
    iterations: int,
    seed: int,
) -> np.ndarray:
    """CSA-M one iteration at a time (``anneal`` with the same defaults): the baseline."""
    start, end, rate, annealers = 0.3, 3e-7, 0.05, ANNEALERS
    rng = np.random.default_rng(seed)
    low = np.array([b[0] for b in bounds])
    width = np.array([b[1] - b[0] for b in bounds])
    states = low + rng.random((annealers, len(bounds))) * width
    energies = energy(states)
    best_x, best_e = states[np.argmin(energies)].copy(), float(energies.min())
    t_acc = float(np.ptp(energies)) or 1.0
    desired = 0.99 * (annealers - 1) / annealers**2
    for k in range(1, iterations + 1):
        t_gen = start * (end / start) ** (k / iterations)
        steps = np.tan(np.pi * (rng.random(states.shape) - 0.5))
        folded = np.mod(states + t_gen * width * steps - low, 2 * width)
        probes = low + np.where(folded > width, 2 * width - folded, folded)
        probe_e = energy(probes)
        weights = np.exp((energies - energies.max()) / t_acc)
        chance = weights / weights.sum()
        accept = (probe_e < energies) | (rng.random(annealers) < chance)
        states[accept], energies[accept] = probes[accept], probe_e[accept]
        if energies.min() < best_e:
            best_x, best_e = states[np.argmin(energies)].copy(), float(energies.min())
        variance = float(np.mean(chance**2)) - 1.0 / annealers**2
        t_acc = max(
            t_acc * ((1 - rate) if variance < desired else (1 + rate)), np.finfo(float).tiny
        )
    return best_x


def bench_csa(iterations: int, names: list[str]) -> None:
    print(f"\n== CSA-M fit of eq. (15), 336-point grid, {iterations} iterations, 10 annealers")
    print("   CPU seconds per fit; baseline: the plain loop above on the same seed")
    print(
        f"{'program':<24} {'seed':>4} {'library s':>9} {'baseline s':>10} {'ratio':>6} "
        f"{'mse':>10} {'baseline mse':>12} {'same':>5} {'gain %':>8}"
    )
    grid_p, grid_phi = memwall_grid()
    library = ModelLibrary.builtin()
    bounds = [BOUNDS[name] for name in PARAMETERS]
    totals = [0.0, 0.0]
    for name in names:
        spec = dict(library[name].spec)
        truth = np.array([[spec["f"], spec["k"], spec["m1"], spec["m2"]]])
        measured = speedups(truth, grid_p, grid_phi)[0]

        def energy(states: np.ndarray, measured: np.ndarray = measured) -> np.ndarray:
            return np.mean((speedups(states, grid_p, grid_phi) - measured) ** 2, axis=1)

        for seed in (0, 1):
            start = time.process_time()
            fit = fit_memwall(grid_p, grid_phi, measured, iterations=iterations, seed=seed)
            elapsed = time.process_time() - start
            start = time.process_time()
            state = _baseline_anneal(energy, bounds, iterations, seed)
            baseline = time.process_time() - start
            totals[0] += elapsed
            totals[1] += baseline
            found = np.array([[fit.f, fit.k, fit.m1, fit.m2]])
            print(
                f"{name:<24} {seed:>4} {elapsed:>9.2f} {baseline:>10.2f} {baseline / elapsed:>6.2f} "
                f"{fit.mse:>10.3e} {float(energy(state[None, :])[0]):>12.3e} "
                f"{str(bool((found == state).all())):>5} {fit.gain:>8.2f}"
            )
    print(f"{'all':<24} {'':>4} {totals[0]:>9.2f} {totals[1]:>10.2f} {totals[1] / totals[0]:>6.2f}")


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
    parser.add_argument("--table1", action="store_true", help="CSA on all of Table 1's programs")
    args = parser.parse_args()
    iterations = 2_000 if args.quick else args.iterations
    programs = ["parsec_dedup", "parsec_x264", "parsec_ferret"]
    if args.table1:
        library = ModelLibrary.builtin()
        programs = sorted(name for name in library if library[name].form == "memwall")
    bench_csa(iterations, programs)
    bench_online([200, 1000, 4000] if not args.quick else [200, 1000])
    bench_alpha(2 if args.quick else 5)
    bench_replay(2 if args.quick else 4)


if __name__ == "__main__":
    main()
