"""Cold start of the grammar's parser under each way of loading it (issue 16, item 3).

lark's ``cache=True`` unpickles a file with a predictable name in the shared temp directory: a
code-execution path for any other local user. The choices, each timed as a fresh process that
imports ``patternalg.syntax.parser``, builds the LALR parser that way and parses one term:

- ``tmp-pickle``: the old ``cache=True`` (the insecure baseline, for comparison only);
- ``none``: no cache, the tables are computed at every start;
- ``private``: lark's cache in a private per-user directory (0700, owner and mode checked);
- ``standalone``: a parser module generated ahead of time by ``python -m lark.tools.standalone``;
- ``shipped``: what patternalg does since issue 17: lark's tables computed ahead of time into
  ``patternalg/grammar_tables.py`` (literals, no pickle) and run by ``patternalg/lalr.py``,
  without importing lark.

Run: ``python benchmarks/bench_parser_cold_start.py [--runs N]`` (prints medians and ratios to
``none``); or ``python benchmarks/bench_parser_cold_start.py --variant NAME`` as the command
timed by an outside harness (``/usr/bin/time -v``, ``hyperfine``), paired with ``--variant none``.

Measured 2026-11-22, 5 paired runs on the shared 2-core machine under load (median CPU
seconds of the whole process, ratio to ``none``): ``none`` 0.87-0.91 s (1.00), ``private``
0.82 s (0.94), ``standalone`` 0.82 s (1.04, paired), ``tmp-pickle`` 0.81 s (0.89). Those
runs had no bytecode cache for patternalg's modules (``PYTHONDONTWRITEBYTECODE`` was set),
which hid most of a parser module's gain. Measured again 2026-11-23 with the bytecode
compiled: building the tables at start-up cost about 0.065 s of CPU in process, loading
lark's serialized tables with lark about 0.004 s after lark's import (0.025-0.035 s), and
the shipped tables run by ``patternalg/lalr.py`` about 0.004 s with no lark import.
Chosen (issue 17): ``shipped`` — no pickle, nothing written at run time, a literal module
inside the package that ``tests/test_generated.py`` checks against the grammar.
"""

from __future__ import annotations

import argparse
import os
import stat
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

VARIANTS = ("none", "private", "standalone", "tmp-pickle", "shipped")
TERM = "pipe(tpool_4(qsort), inc)"
STANDALONE_DIR = Path(tempfile.gettempdir()) / f"patternalg-bench-standalone-{os.getuid()}"


def private_cache_file() -> str:
    """lark's cache file in ``$XDG_CACHE_HOME/patternalg/lark`` (0700, refused unless ours and
    private; its own directory: ``patternalg/`` also holds the Extra-P environment the fit
    benchmarks make, 0755 by the umask, which refused this run until 2026-11-28)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    directory = Path(base) / "patternalg" / "lark"
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    st = os.lstat(directory)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        raise SystemExit(f"{directory} is not a private directory of this user")
    return str(directory / "lark-parser.cache")


def build(variant: str) -> object:
    """Build the parser the way ``variant`` names and parse :data:`TERM` with it."""
    from patternalg.syntax import parser as syntax

    if variant == "shipped":  # what patternalg does: its tables, its runtime, no lark
        return syntax._parser().parse(TERM, "term")
    from lark import Lark

    options = dict(syntax.PARSER_OPTIONS, transformer=syntax._Build())
    if variant == "standalone":
        sys.path.insert(0, str(STANDALONE_DIR))
        import patternalg_standalone  # type: ignore[import-not-found]

        options = {"transformer": syntax._Build()}
        parser = patternalg_standalone.Lark_StandAlone(**options)
    else:
        if variant == "tmp-pickle":
            options["cache"] = True
        elif variant == "private":
            options["cache"] = private_cache_file()
        parser = Lark.open(str(syntax.grammar_path()), **options)
    return parser.parse(TERM, start="term")


def generate_standalone() -> None:
    """Write the ahead-of-time parser module the ``standalone`` variant imports."""
    from patternalg.syntax import parser as syntax

    STANDALONE_DIR.mkdir(mode=0o700, exist_ok=True)
    starts = [arg for s in syntax.PARSER_OPTIONS["start"] for arg in ("-s", s)]
    subprocess.run(
        [sys.executable, "-m", "lark.tools.standalone", *starts, "-l", "basic",
         "-o", str(STANDALONE_DIR / "patternalg_standalone.py"), str(syntax.grammar_path())],
        check=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=VARIANTS)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    if args.variant:
        build(args.variant)
        return
    generate_standalone()
    for variant in VARIANTS:  # warm: the caches and .pyc files exist, as after a first run
        subprocess.run([sys.executable, __file__, "--variant", variant], check=True)
    times: dict[str, list[float]] = {v: [] for v in VARIANTS}
    for _ in range(args.runs):  # interleaved, so a drift in the machine's speed hits all alike
        for variant in VARIANTS:
            start = time.perf_counter()
            subprocess.run([sys.executable, __file__, "--variant", variant], check=True)
            times[variant].append(time.perf_counter() - start)
    base = statistics.median(times["none"])
    print(f"{'variant':<12} {'median s':>9} {'ratio to none':>14}")
    for variant in VARIANTS:
        med = statistics.median(times[variant])
        print(f"{variant:<12} {med:>9.3f} {med / base:>14.2f}")


if __name__ == "__main__":
    main()
