"""Regenerate the pictures of docs/decisions.md: ``python docs/images/make_images.py`` (needs the extra
``patternalg[plot]``). Each picture is one ``patternalg plot`` command, printed as it runs."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ATOMS = "benchmarks/realdata/data/atoms.txt"

#: picture -> the ``patternalg plot`` arguments that draw it (paths relative to the repository)
PICTURES = {
    "compare.png": ["pipe(inc, nop)", "seq(tpool_2(inc), nop)", "--over", "x=1..1e3"],
    "fit.png": ["--fit", ATOMS],
    "optimize.png": [
        "--optimize", "pipe(tpool_a(qsort), tpool_b(inc))", "--budget", "a+b<=24", "--at", "x=1024",
        "--top", "5",
    ],
}


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from patternalg.cli import main as cli

    for name, arguments in PICTURES.items():
        argv = ["plot", *arguments, "-o", str((HERE / name).relative_to(ROOT))]
        print("patternalg " + shlex.join(argv))
        if cli(argv) != 0:
            return 1
    return 0


if __name__ == "__main__":
    import os

    os.chdir(ROOT)
    sys.exit(main())
