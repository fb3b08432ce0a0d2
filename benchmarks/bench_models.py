"""Listing a large model file: ``patternalg models --models FILE`` against loading it alone.

A model file of N fitted atoms (the tables ``fit --out`` writes) is listed by the command in
its own process; the baseline is ``ModelLibrary.from_file`` in this one, which parses and
checks every model once. The ratio says what the listing costs beyond reading the file
(issue 29: listing parsed every model twice and printed each closed form with sympy in
text mode too: 22 s for 100,000 atoms). Run: ``python benchmarks/bench_models.py [N]``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from patternalg.library.model_library import ModelLibrary


def write_models(path: Path, atoms: int) -> None:
    """A model file of ``atoms`` pmnf models, fitted by ``fit --out`` to the measurements
    ``bench_scale.py`` generates (every building block, two to three terms' worth of text)."""
    from bench_scale import generate

    data = path.with_suffix(".txt")
    generate(data, atoms)
    command = [sys.executable, "-m", "patternalg.cli", "fit", str(data), "--out", str(path)]
    subprocess.run([*command, "--quiet"], check=True, stdout=subprocess.DEVNULL, cwd=path.parent)


def seconds(command: list[str], cwd: Path) -> float:
    """CPU seconds of ``command`` (user + system of the child), run in ``cwd`` (not in a
    checkout, whose patternalg ``python -m`` would import before ``PYTHONPATH``'s)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    atoms = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "models.toml"
        write_models(path, atoms)
        start = time.process_time()
        assert len(ModelLibrary.from_file(path)) == atoms
        load = time.process_time() - start
        python = [sys.executable, "-m", "patternalg.cli"]
        startup = seconds([*python, "models", "qsort"], Path(tmp))
        listing = seconds([*python, "models", "--models", str(path)], Path(tmp)) - startup
    print(f"{atoms} atoms: load {load:.2f} s, list (beyond start-up) {listing:.2f} s")
    print(f"ratio list / load: {listing / load:.2f} (1.0: the listing costs nothing more)")
    print(f"per atom: {listing / atoms * 1e6:.0f} us")


if __name__ == "__main__":
    main()
