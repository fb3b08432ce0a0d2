"""1,000 profiles of 200 call paths each: read, fitted and checked, as ``patternalg profile``.

Synthetic Caliper JSON runs (records with a ``path`` and an exclusive ``time``, the
parameter ``n`` in each run's globals) of one program whose call tree has 200 call paths
(a seeded random tree, depth up to 8; each path's own time a PMNF term in n times 3 %
noise): 200 values of n, five runs each. The script times reading, the tree, the term, the
fits (every atom and every node's inclusive time) and the per-node check (1,000 draws), and
prints the wall time, the CPU time (on a machine shared with other jobs the fair figure) and the
peak RSS beside a baseline run in the same script: the plain
fit of the 200 call paths' own times (what ``patternalg fit`` does with them). Target
(issue 39): at most 60 s and 1 GB on 2 cores.

    python benchmarks/bench_profiles.py [--runs 1000] [--paths 200]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from patternalg.evidence.profile_check import check_profile
from patternalg.forms import PMNF
from patternalg.profiles import CallTree, fit_profile, profile_term, read_profiles

SHAPES = (lambda n: 1.0, lambda n: n, lambda n: n * math.log2(n), lambda n: math.sqrt(n), lambda n: math.log2(n))


def tree(paths: int, rng: random.Random) -> list[tuple[str, ...]]:
    """A random call tree of ``paths`` call paths under ``main`` (depth up to 8)."""
    out = [("main",)]
    while len(out) < paths:
        parent = rng.choice([p for p in out if len(p) < 8])
        out.append((*parent, f"f{len(out)}"))
    return out


def write_runs(folder: Path, runs: int, paths: int) -> list[str]:
    """``runs`` Caliper JSON files: 200 sizes (fewer for fewer runs), five runs each."""
    rng = random.Random(1)
    calls = tree(paths, rng)
    shape = [rng.choice(SHAPES) for _ in calls]
    scale = [rng.uniform(1e-6, 1e-3) for _ in calls]
    sizes = [int(64 * 1.03**k) for k in range(max(1, runs // 5))]
    noise = np.random.default_rng(2)
    files = []
    for k in range(runs):
        n = sizes[k % len(sizes)]
        records = [
            {"path": list(p), "time": s * f(n) * (1 + 0.03 * noise.standard_normal())}
            for p, f, s in zip(calls, shape, scale, strict=True)
        ]
        path = folder / f"run_{k}.json"
        path.write_text(json.dumps({"records": records, "globals": {"n": n}}))
        files.append(str(path))
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--paths", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = write_runs(Path(tmp), args.runs, args.paths)
        start, cpu = time.perf_counter(), time.process_time()
        profiles = read_profiles(files)
        read = time.perf_counter()
        built = profile_term(CallTree.of(profiles, ["n"]), min_share=0)
        fitted = fit_profile(built)
        fit = time.perf_counter()
        check = check_profile(fitted, at={"n": 100_000.0})
        done, used = time.perf_counter(), time.process_time() - cpu
        # the baseline: the same call paths' own times fitted as a plain file would be
        from patternalg.profiles.fit import _measurements

        tree_ = built.tree
        rows = [(name, "/".join(p), built.work[name]) for p, name in built.atoms.items()]
        data = _measurements("bench", tree_.parameters, tree_.points, tree_.unit, rows)
        base_start = time.perf_counter()
        PMNF.fit_each(data, uncertainty="linear")  # as the profile's fits of > 200 kernels
        base = time.perf_counter() - base_start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB -> MiB on Linux
    total = done - start
    print(f"{args.runs} profiles x {args.paths} call paths ({len(check.nodes)} nodes checked)")
    print(f"  read {read - start:.1f} s, tree + term + fits {fit - read:.1f} s, check {done - fit:.1f} s")
    print(f"  total {total:.1f} s wall, {used:.1f} s CPU (target <= 60 s), peak RSS {peak:.0f} MiB (target <= 1024 MiB)")
    print(f"  baseline (plain fit of the {len(rows)} own times): {base:.1f} s; ratio {total / base:.1f}x")
    sys.exit(0 if total <= 60 and peak <= 1024 else 1)


if __name__ == "__main__":
    main()
