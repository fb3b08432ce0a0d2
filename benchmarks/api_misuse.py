"""The Python API called with wrong arguments (issue 29, finding 21).

:func:`public_calls` lists a valid call of every public function; :func:`misuse` replaces
one of its arguments by one of :data:`WRONG` (values of the wrong type, or of the right
type and out of range) and calls it. A public function either accepts the value or raises
a ``PatternalgError`` or a ``ValueError``; anything else escaping (an ``AttributeError`` or
a ``TypeError`` from deep inside, "object of type 'NoneType' has no len()", a ``KeyError``,
an ``OverflowError``) is a traceback, which tells the caller nothing (a ``TypeError`` is
allowed where the value is a function: the caller's own raised it; on 2026-12-02 such
TypeErrors came out of calibrate, Machine, read, sweep, Amdahl and Uncertainty).

Used by ``fuzz_campaign.py`` (class ``api``) and ``tests/test_fuzz.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: exceptions a public function may raise for a bad argument besides PatternalgError (a
#: TypeError only where the value is a function of the caller's, which raised it)
ALLOWED: tuple[type[BaseException], ...] = (ValueError,)

MEASUREMENTS = "kernel,x,time\n" + "".join(f"sort,{x},{x * 1.5 + 2}\n" for x in (8, 16, 32, 64, 128))
AMDAHL = "kernel,x,p,time\n" + "".join(
    f"k,{x},{p},{x * (0.1 + 0.9 / p)}\n" for x in (100, 200) for p in (1, 2, 4, 8)
)
MODELS = '[models.k]\nmodel = "2*x"\nunit = "ns"\n'
MACHINE = 'format = 1\n[machine]\ncores = 2\nhandoff = "300 + 0.5*x"\n[machine.speedups]\nqsort = "p"\n'
#: atoms and calibration compositions of a machine of 2 cores, hand-off 300 + 0.5*x
CALIBRATION = "PARAMETER x\nPOINTS 1024 2048 4096 8192\nMETRIC time\n" + "".join(
    f"REGION {name}\n" + "".join(f"DATA {f(x)} {f(x) * 1.01} {f(x) * 0.99}\n" for x in (1024, 2048, 4096, 8192))
    for name, f in (
        ("inc", lambda x: 536.185 * x), ("nop", lambda x: 5422.97),
        ("pipe(inc, inc)", lambda x: 536.185 * x + 300 + 0.5 * x), ("seq(inc, inc)", lambda x: 2 * 536.185 * x),
    )
)
HYPERFINE = '{"results": [' + ", ".join(
    f'{{"command": "./k {n}", "mean": {n / 1e3}, "times": [{n / 1e3}, {n / 999}], "parameters": {{"n": "{n}"}}}}'
    for n in (8, 16, 32, 64)
) + "]}"

PRESCA = "threads,time\n" + "".join(f"{p},{100 / p + 5 + 0.3 * p}\n" for p in (1, 2, 3, 4, 6, 8))
#: cProfile runs of difflib at three sizes, one repetition each (tests/data/profiles/difflib)
PROFILES = [
    str(Path(__file__).resolve().parent.parent / "tests" / "data" / "profiles" / "difflib" / f"diff_n{n}_r1.pstats")
    for n in (1000, 2000, 4000, 8000)
]


def _wrong_values() -> list[Callable[[], Any]]:
    import numpy as np
    import sympy

    from patternalg import ModelLibrary, Semantics, parse

    return [
        lambda: None, lambda: True, lambda: 0, lambda: -1, lambda: 3, lambda: 10**400,
        lambda: 1.5, lambda: math.nan, lambda: math.inf, lambda: "", lambda: "garbage(",
        lambda: "qsort", lambda: "x=1..10", lambda: "a+b<=4", lambda: "m.toml",
        lambda: "m.csv", lambda: "nowhere.csv", lambda: b"qsort", lambda: [], lambda: ["qsort"],
        lambda: [1], lambda: [None], lambda: ("x", 1), lambda: {}, lambda: {"x": 1},
        lambda: {"qsort": "2*x"}, lambda: {1: 2}, lambda: {"k": [1]}, lambda: {"x": "2^10"},
        lambda: {"Bad name": "x"}, lambda: object(), lambda: Path("m.toml"),
        lambda: Path("nowhere"), lambda: parse("qsort"), lambda: sympy.Symbol("x"),
        lambda: sympy.oo, lambda: sympy.Integer(10) ** 400, lambda: np.array([1.0, 2.0]),
        lambda: np.int64(4), lambda: np.float64("nan"), lambda: (lambda: 1), lambda: len,
        lambda: ModelLibrary.builtin(), lambda: Semantics.EXACT, lambda: slice(1, 2),
        lambda: iter(["qsort"]), lambda: {"qsort"},
    ]


@dataclass(frozen=True)
class Call:
    """A valid call of a public function: its positional and keyword arguments."""

    name: str
    function: Callable[..., Any]
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)

    @property
    def slots(self) -> list[int | str]:
        """The arguments one misuse may replace: positions, then keywords."""
        return [*range(len(self.args)), *self.kwargs]

    def with_argument(self, slot: int | str, value: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The arguments with ``slot`` replaced by ``value``."""
        args, kwargs = list(self.args), dict(self.kwargs)
        if isinstance(slot, int):
            args[slot] = value
        else:
            kwargs[slot] = value
        return tuple(args), kwargs


def public_calls() -> list[Call]:
    """A valid call of every public function; files are named relative to the working
    directory, which :func:`write_files` fills."""
    from patternalg import (
        ModelLibrary,
        Semantics,
        evaluate,
        explain,
        fit,
        model,
        parse,
        parse_arithmetic,
    )
    from patternalg.algebra.grid import curve_axis, parse_axis
    from patternalg.algebra.intervals import Spread
    from patternalg.algebra.machine import Machine
    from patternalg.algebra.uncertainty import Uncertainty
    from patternalg.decisions.compare import compare
    from patternalg.decisions.explore import explore
    from patternalg.decisions.optimize import optimize
    from patternalg.decisions.sweep import sweep
    from patternalg.evidence import calibrate, validate
    from patternalg.evidence.profile_check import check_profile
    from patternalg.forms import PMNF, Amdahl, Expression, Memwall, Presca
    from patternalg.forms.presca import predict_file
    from patternalg.laws import in_contexts
    from patternalg.laws.checker import check, parse_law
    from patternalg.library.machine_file import (
        machine_from_text,
        machine_text,
        read_machine,
        write_machine,
    )
    from patternalg.measurements import read
    from patternalg.measurements.csv import CsvReader
    from patternalg.measurements.runner import Plan
    from patternalg.profiles import CallTree, fit_profile, profile_term, read_profiles
    from patternalg.syntax.symbols import x

    profiles = read_profiles(PROFILES)
    tree = CallTree.of(profiles, ["n"])
    built = profile_term(tree)
    fitted = fit_profile(built, uncertainty="none")
    library = ModelLibrary.builtin()
    swept = sweep(["qsort", "inc"], "x=1..100:3")
    compared = compare(["inc", "nop"], over="x=1..1e4")
    uncertain = Uncertainty((x ** 0, x), ((4.0, 0.1), (0.1, 0.25)), 10, 0.02, "bootstrap")
    import numpy as np
    return [
        Call("parse", parse, ("pipe(qsort, inc)",)),
        Call("parse_arithmetic", parse_arithmetic, ("2*x + 1",)),
        Call("evaluate", evaluate, (parse("seq(qsort, inc)"), library, "exact")),
        Call("model", model, ("tpool_n(qsort)", None, "asymptotic"), {"n": 2, "x": 1024}),
        Call("explain", explain, ("pipe(qsort, inc)", library, "exact"), {"unit": "us", "x": 64}),
        Call("ModelLibrary", ModelLibrary, ([library["qsort"]],)),
        Call("ModelLibrary.of", ModelLibrary.of, ("m.toml",)),
        Call("ModelLibrary.from_file", ModelLibrary.from_file, ("m.toml",)),
        Call("ModelLibrary.from_toml_text", ModelLibrary.from_toml_text, (MODELS, "m.toml")),
        Call("ModelLibrary.load", ModelLibrary.load, (["m.toml"],), {"builtin": True}),
        Call("ModelLibrary.merged", library.merged, ([library["inc"]],)),
        Call("Semantics.of", Semantics.of, ("exact",)),
        Call("sweep", sweep, (["qsort", "inc"], "x=1..100:5"), {"at": None, "library": None, "unit": "ms"}),
        Call("compare", compare, (["inc", "nop"],), {"over": "x=1..1e4:log", "at": {}, "library": library}),
        Call("optimize", optimize, ("pipe(tpool_a(qsort), tpool_b(inc))",),
             {"budgets": ["a+b<=6"], "at": {"x": 1024}, "top": 2, "method": "auto", "objective": "max"}),
        Call("explore", explore, ("pipe(qsort, inc)",),
             {"threads": 4, "at": {"x": 1024}, "top": 2, "expansions": 5}),
        Call("parse_axis", parse_axis, ("n=1..8",), {"integer": True}),
        Call("curve_axis", curve_axis, ("x=1..1e6",), {"integer": False}),
        Call("read", read, ("m.csv", None), {"metric": None, "value": "time", "parameters": "x"}),
        Call("PMNF.fit", PMNF.fit, ("m.csv",)),
        Call("PMNF.fit_each", PMNF.fit_each, ("m.csv",), {"progress": None}),
        Call("fit", fit, ("m.csv", "pmnf"), {"metric": "time", "parameters": "x", "format": None,
                                              "scaling": None, "on_error": None, "modeler": "default"}),
        Call("Amdahl.fit_each", Amdahl.fit_each, ("a.csv",)),
        Call("Amdahl", Amdahl, (), {"alpha": 0.9, "tseq": 10.0}),
        Call("Memwall", Memwall, (), {"f": 0.9, "k": 1.0, "m1": 0.2, "m2": 0.5, "t1": 1.0}),
        Call("Expression", Expression, ("2*x",)),
        Call("parse_law", parse_law, ("pipe(A, B) <= seq(A, B)",)),
        Call("check", check, ("pipe(A, B) <= seq(A, B)", None, "exact"), {"examples": 2, "seed": 1}),
        # the newer surfaces (issue 40): machines, uncertainty, intervals, evidence, measure
        Call("machine_from_text", machine_from_text, (MACHINE, "machine.toml")),
        Call("read_machine", read_machine, ("machine.toml",)),
        Call("write_machine", write_machine, (Machine(2, handoff="x"), "out.toml")),
        Call("machine_text", machine_text, (Machine(2, handoff="x"),)),
        Call("Machine", Machine, (2,), {"handoff": "300 + 0.5*x", "speedups": {"qsort": "p"}, "unit": "us"}),
        Call("Machine.with_cores", Machine(2).with_cores, (4,)),
        Call("Machine.in_unit", Machine(2, handoff="x").in_unit, ("us",)),
        Call("Uncertainty", Uncertainty, ((x ** 0, x), ((4.0, 0.1), (0.1, 0.25)), 10, 0.02, "bootstrap")),
        Call("Uncertainty.draws", uncertain.draws, (np.random.default_rng(0), 10)),
        Call("Uncertainty.spread", uncertain.spread, (), {"x": [1.0, 2.0]}),
        Call("Uncertainty.from_table", Uncertainty.from_table, (uncertain.to_table(), "models.k")),
        Call("Spread.of", Spread.of, ("pipe(qsort, inc)", library, {}), {"semantics": "exact"}),
        Call("calibrate", calibrate, ("cal.txt", None), {"cores": 2, "speedups": False}),
        Call("validate", validate, ("cal.txt", None), {"interval": 0.9, "seed": 1, "machine": "machine.toml"}),
        Call("Plan.build", Plan.build, ({"k": "true {x}"}, {"x": [1.0, 2.0]}), {"repetitions": 1, "timeout": 5.0}),
        Call("read harness", read, ("hf.json", None)),
        # the profiles (cProfile runs of difflib at three sizes), PreSca and the laws' contexts
        Call("read_profiles", read_profiles, (PROFILES,), {"metric": None}),
        Call("CallTree.of", CallTree.of, (profiles, ["n"])),
        Call("profile_term", profile_term, (tree,), {"min_share": 0.001, "pools": {"diff": 2}}),
        Call("fit_profile", fit_profile, (built,), {"modeler": "default", "uncertainty": "none"}),
        Call("check_profile", check_profile, (fitted,), {"at": {"n": 8000.0}, "level": 0.9, "draws": 20, "seed": 1}),
        Call("Presca.fit", Presca.fit, ("ps.csv",), {"upto": 16, "checkpoints": 2}),
        Call("predict_file", predict_file, ("ps.csv",), {"upto": 16, "param": ["threads=p"], "unit": "s"}),
        Call("in_contexts", in_contexts, ("pipe(A, B) <= seq(A, B)",)),
        # results' and objects' own methods that take arguments
        Call("Sweep.to_csv", swept.to_csv, (3,)),
        Call("Sweep.lines", swept.lines, (3,)),
        Call("Comparison.lines", compared.lines, (3,)),
        Call("Evaluation.lines", explain("pipe(qsort, inc)", library, x=64).lines, (3,)),
        Call("ModelLibrary.save", library.merged([]).save, ("saved.toml",)),
        Call("Measurements.select", CsvReader.read("m.csv", MEASUREMENTS).select, (), {"kernel": "sort", "metric": None}),
        Call("compare explain", compare, (["inc", "nop"],), {"over": "x=1..1e4", "interval": 0.9, "explain": True}),
    ]


def write_files(directory: Path) -> None:
    """The files the calls of :func:`public_calls` name."""
    (directory / "m.csv").write_text(MEASUREMENTS, encoding="utf-8")
    (directory / "a.csv").write_text(AMDAHL, encoding="utf-8")
    (directory / "m.toml").write_text(MODELS, encoding="utf-8")
    (directory / "machine.toml").write_text(MACHINE, encoding="utf-8")
    (directory / "cal.txt").write_text(CALIBRATION, encoding="utf-8")
    (directory / "hf.json").write_text(HYPERFINE, encoding="utf-8")
    (directory / "ps.csv").write_text(PRESCA, encoding="utf-8")


def misuse(call: Call, slot: int | str, value: Any) -> str | None:
    """Call ``call`` with ``slot`` replaced by ``value``: None if it returned or raised an
    allowed error, else the escaped exception's type and message."""
    from patternalg.errors import PatternalgError

    args, kwargs = call.with_argument(slot, value)
    try:
        call.function(*args, **kwargs)
    except PatternalgError:
        return None
    except TypeError as exc:  # a function of the caller's raised it, or one of ours from deep inside
        return None if callable(value) else f"TypeError: {str(exc)[:160]}"
    except ALLOWED:
        return None
    except Exception as exc:  # noqa: BLE001 - what escapes is what this counts
        return f"{type(exc).__name__}: {str(exc)[:160]}"
    return None


WRONG: list[Callable[[], Any]] = []


def wrong_values() -> list[Callable[[], Any]]:
    """The wrong values (built once, each call of a factory gives a fresh value)."""
    if not WRONG:
        WRONG.extend(_wrong_values())
    return WRONG


def shown(value: Any) -> str:
    """A short text of a wrong value, for a report."""
    if isinstance(value, int) and abs(value) > 10**40:
        return "a huge int"
    return repr(value)[:40]
