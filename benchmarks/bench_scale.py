"""``patternalg fit`` at scale: kernels per second and peak memory, whole process.

Generates Extra-P text files of 1,000, 10,000 and 100,000 kernels (1,000,000 with
``--million``; 9 points x = 4 .. 1024, 5 repetitions (``--repetitions``), a random building block per kernel,
5 % noise) and runs, each as its own process:

* ``patternalg fit FILE --out M.toml`` (the fast path: numpy reader, a batch of kernels at
  a time, no sympy per kernel);
* the reference path, ``PMNF.fit_each(read(FILE))`` and ``ModelLibrary.save`` (up to
  100,000 kernels with ``--reference-max``);
* the baseline: a process that imports numpy and reads the file's numbers with
  ``numpy.loadtxt`` (nothing fitted, nothing written);
* the fast path on the same numbers in Extra-P's own layout (a POINTS line a point, a blank
  line between blocks, METRIC after each REGION), its model file checked to be the regular
  file's, and the ratios of its time and memory to the regular layout's (issue 29: at most
  1.3);
* Extra-P 4.2.5 (its text reader and ``ModelGenerator.model_all`` in its own virtual
  environment, see ``bench_fit.py``) on the 1,000-kernel file with ``--extrap``; larger
  sizes are extrapolated linearly from it and marked so.

It prints CPU seconds of the whole process (user + system: wall seconds on a shared
machine measure the other users; they go to stderr), kernels per second, peak resident memory (ru_maxrss of the
process), and the ratios fast / baseline, reference / fast and Extra-P / fast; and
checks that the fast and the reference path wrote the same model file.

    python benchmarks/bench_scale.py [--sizes 1000,10000,100000] [--million] [--extrap] [--repetitions 5]

Measured 2026-11-23 on the shared 2-core machine (load average 1.8 to 2.0, see
docs/scaling.md): 100,000 kernels 3.83 CPU seconds in 197 MB (26,000 kernels a second;
2.5x reading the numbers with ``numpy.loadtxt``; the reference path 26.8 s and 1,276 MB,
the same model file); paired with main at 75088b2 (load 1.4 to 1.7): 3.6-4.6 CPU s and
3.7-4.7 s wall against 5.4-6.0 and 5.4-6.1.
1,000,000 kernels: 33.4 CPU s, 34.0 s wall, 315 MB (main: 46.5 s, 376 MB).
2026-11-26, load average 7 to 9, ``--sizes 100000 --reference-max 0``: 100,000 kernels in the
regular layout 4.70 CPU s and 190 MB, in Extra-P's layout 4.82 s and 195 MB (ratios 1.02 and
1.03, the same model file); before, Extra-P's layout took the reference path (23.3 s, 950 MB).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
POINTS = 2.0 ** np.arange(2, 11)
REPETITIONS = 5

BASELINE = """
import sys, numpy as np
with open(sys.argv[1]) as f:
    rows = np.loadtxt((l[5:] for l in f if l.startswith("DATA ")), dtype=float, ndmin=2)
print(rows.size)
"""

REFERENCE = """
import sys
from patternalg.forms.pmnf import PMNF
from patternalg.library.model_library import ModelLibrary
from patternalg.measurements import read
reports = PMNF.fit_each(read(sys.argv[1]))
ModelLibrary([r.model for r in reports]).save(sys.argv[2])
"""


#: the two layouts of the same data: the one docs/scaling.md calls regular (one POINTS
#: line, one METRIC line in the header, REGION blocks back to back), and the one Extra-P's
#: own test files have (a POINTS line a point, a blank line between blocks, METRIC after
#: each REGION)
LAYOUTS = ("regular", "extrap")


def generate(path: Path, kernels: int, seed: int = 1, layout: str = "regular", repetitions: int = REPETITIONS) -> None:
    """An Extra-P text file of ``kernels`` kernels in ``layout``, ``repetitions`` a point,
    written in batches (bounded memory); the same numbers in either layout."""
    from patternalg.algebra.normal_forms.blocks import BUILDING_BLOCKS
    from patternalg.forms.pmnf.default import basis

    rng = np.random.default_rng(seed)
    blocks = basis(POINTS, np.arange(len(BUILDING_BLOCKS)))
    if layout == "extrap":
        header = "PARAMETER x\n\n" + "".join(f"POINTS ( {v:g} )\n" for v in POINTS) + "\n"
        region, end = "REGION k{}\nMETRIC time", "\n\n"
    else:
        header = "PARAMETER x\nPOINTS " + " ".join(f"({v:g})" for v in POINTS) + "\nMETRIC time\n"
        region, end = "REGION k{}", "\n"
    with open(path, "w") as out:
        out.write(header)
        for start in range(0, kernels, 10_000):
            count = min(10_000, kernels - start)
            truth = rng.integers(0, len(blocks), size=count)
            c1 = 10 ** rng.uniform(-1, 1, size=count)
            c0 = blocks[truth, 0] * c1 * 10 ** rng.uniform(-1, 1, size=count)
            mean = c0[:, None] + c1[:, None] * blocks[truth]
            values = mean[:, :, None] * (1 + 0.05 * rng.standard_normal((count, 9, repetitions)))
            texts = []
            for k in range(count):
                rows = ("DATA " + " ".join(map(repr, row)) for row in values[k].tolist())
                texts.append("\n".join([region.format(start + k), *rows]))
            out.write(end.join(texts) + (end if start + count < kernels else "\n"))


def generated(path: Path, kernels: int, layout: str = "regular", repetitions: int = REPETITIONS) -> None:
    """:func:`generate` in a process of its own. A process this one starts reports as its
    peak (``ru_maxrss``) at least what this one held when it forked, and the numbers of a
    generated file stay in this one's heap: 500 kernels of 2,000 repetitions read as 614 MB
    where the command itself took 308 MB."""
    code = (
        f"import sys; sys.path.insert(0, {str(HERE)!r}); import bench_scale; from pathlib import Path; "
        f"bench_scale.generate(Path({str(path)!r}), {kernels}, layout={layout!r}, repetitions={repetitions})"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def run(command: list[str], label: str) -> tuple[float, float]:
    """CPU seconds (user + system) and peak resident MB of one process.

    CPU seconds, not wall: on a shared machine the wall time measures the other users.
    """
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        said = process.stderr.read().decode() if process.stderr else ""
        raise SystemExit(f"{' '.join(command[:4])}... failed: {said}")
    print(f"    {label}: {wall:.1f} s wall", file=sys.stderr)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def extrap_seconds(path: Path, venv: str) -> float | None:
    """CPU seconds of Extra-P's whole process reading and modeling ``path``, or None."""
    python = Path(venv).expanduser() / "bin" / "python"
    if not python.exists():
        print(f"(no Extra-P at {python}: run bench_fit.py once to create it)")
        return None
    return run([str(python), str(HERE / "extrap_driver.py"), str(path)], "Extra-P")[0]


def extrap_layout(folder: Path, size: int, regular: Path, models: Path, repetitions: int = REPETITIONS) -> tuple[float, float]:
    """CPU seconds and peak MB of the fast path on the file ``regular``'s numbers in Extra-P's
    layout; its model file must be ``models`` (the regular file's), but for the file name."""
    path = folder / f"k{size}r{repetitions}-extrap.txt"
    if not path.exists():
        generated(path, size, layout="extrap", repetitions=repetitions)
    out = folder / f"fast{size}-extrap.toml"
    seconds, mb = run(
        [sys.executable, "-m", "patternalg.cli", "fit", str(path), "--out", str(out)],
        f"{size} kernels, Extra-P's layout, fast",
    )
    if out.read_bytes().replace(path.name.encode(), regular.name.encode()) != models.read_bytes():
        raise SystemExit(f"{size} kernels: the two layouts gave different model files")
    return seconds, mb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--million", action="store_true", help="also 1,000,000 kernels")
    parser.add_argument("--reference-max", type=int, default=100_000)
    parser.add_argument("--extrap", action="store_true", help="run Extra-P on 1,000 kernels")
    parser.add_argument("--venv", default="~/.cache/patternalg/extrap-4.2.5")
    parser.add_argument("--dir", help="keep the generated files here (default: a temp dir)")
    parser.add_argument("--repetitions", type=int, default=REPETITIONS, help="a point's (default 5)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")] + ([1_000_000] if args.million else [])
    with contextlib.ExitStack() as stack:  # a temp dir of its own is removed, files and all
        folder = Path(args.dir or stack.enter_context(tempfile.TemporaryDirectory(prefix="bench_scale_")))
        folder.mkdir(parents=True, exist_ok=True)
        python = sys.executable
        extrap_per_kernel = None
        print(
            f"{'kernels':>9} {'MB file':>8} | {'fast cpu':>7} {'kernels/s':>10} {'peak MB':>8} | "
            f"{'baseline s':>10} {'fast/base':>9} | {'ref s':>7} {'ref MB':>7} {'ref/fast':>8} | "
            f"{'Extra-P s':>10} {'ExtraP/fast':>11}"
        )
        layouts = []
        for size in sizes:
            path = folder / f"k{size}r{args.repetitions}.txt"
            if not path.exists():
                generated(path, size, repetitions=args.repetitions)
            fast_out, ref_out = folder / f"fast{size}.toml", folder / f"ref{size}.toml"
            fast, fast_mb = run(
                [python, "-m", "patternalg.cli", "fit", str(path), "--out", str(fast_out)],
                f"{size} kernels, fast",
            )
            layouts.append((size, fast, fast_mb, *extrap_layout(folder, size, path, fast_out, args.repetitions)))
            base, _ = run([python, "-c", BASELINE, str(path)], f"{size} kernels, baseline")
            ref = ref_mb = None
            if size <= args.reference_max:
                ref, ref_mb = run(
                    [python, "-c", REFERENCE, str(path), str(ref_out)], f"{size} kernels, reference"
                )
                if fast_out.read_bytes() != ref_out.read_bytes():
                    raise SystemExit(f"{size} kernels: the fast and the reference model files differ")
            extrap, mark = None, ""
            if args.extrap and size == 1000:
                seconds = extrap_seconds(path, args.venv)
                extrap_per_kernel = seconds / size if seconds else None
                extrap = seconds
            elif extrap_per_kernel:
                extrap, mark = extrap_per_kernel * size, "~"
            print(
                f"{size:>9,} {path.stat().st_size / 2**20:>8.1f} | {fast:>7.2f} {size / fast:>10,.0f} "
                f"{fast_mb:>8.0f} | {base:>10.2f} {fast / base:>9.2f} | "
                + (
                    f"{ref:>7.2f} {ref_mb:>7.0f} {ref / fast:>8.2f}"
                    if ref
                    else f"{'-':>7} {'-':>7} {'-':>8}"
                )
                + " | "
                + (f"{mark}{extrap:>9.1f} {extrap / fast:>11.0f}" if extrap else f"{'-':>10} {'-':>11}")
            )
        print("\n~: extrapolated linearly from Extra-P's time on 1,000 kernels")
        print(
            f"\n{'kernels':>9} | {'regular cpu':>11} {'MB':>5} | {'Extra-P layout cpu':>18} {'MB':>5} | "
            f"{'time ratio':>10} {'memory ratio':>12}"
        )
        for size, fast, fast_mb, other, other_mb in layouts:
            print(
                f"{size:>9,} | {fast:>11.2f} {fast_mb:>5.0f} | {other:>18.2f} {other_mb:>5.0f} | "
                f"{other / fast:>10.2f} {other_mb / fast_mb:>12.2f}"
            )
        print("target (issue 29): Extra-P's layout within 1.3x the time and memory, the same models")
        print(
            "targets (issue 17): 100,000 kernels <= 5 s and <= 400 MB; 1,000,000 <= 60 s, bounded memory"
        )


if __name__ == "__main__":
    main()
