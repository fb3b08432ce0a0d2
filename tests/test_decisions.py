"""Design decisions (issue 13): sweep, compare, optimize, explore, with known answers."""

from __future__ import annotations

import dataclasses
import functools
import importlib
import itertools
import json
import math

import numpy as np
import pytest
import sympy
from helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

import patternalg
from patternalg.algebra.grid import parse_axis
from patternalg.algebra.machine import Machine
from patternalg.algebra.pointwise import at_point
from patternalg.algebra.semantics import Semantics
from patternalg.decisions.compare import compare
from patternalg.decisions.design_values import DesignValues
from patternalg.decisions.explore import explore
from patternalg.decisions.law_semantics import LAW_SEMANTICS, semantics_names
from patternalg.decisions.optimize import optimize
from patternalg.decisions.sweep import sweep
from patternalg.laws.checker import builtin_law, check
from patternalg.laws.strategies import terms
from patternalg.library.model_library import ModelLibrary
from patternalg.syntax.parser import parse
from patternalg.syntax.symbols import x
from patternalg.syntax.terms import Pipe, TPool

LIB = ModelLibrary.builtin()
QSORT, INC, NOP = 1034.17, 536.185, 5422.97
#: a machine with every number of its own: speed-ups, a hand-off and a dispatch cost
FULL = Machine(16, handoff="500 + 0.5*x", dispatch=500,
               speedups={"qsort": "p/(1 + 0.05*(p - 1))", "inc": "p/(1 + 0.3*(p - 1))"})  # fmt: skip
#: pipelines of two or three built-in stages
STAGES = st.lists(st.sampled_from(["qsort", "inc", "nop"]), min_size=2, max_size=3)


# --- sweep -----------------------------------------------------------------------------------
def test_sweep_agrees_with_the_value_at_each_point():
    result = sweep(["pipe(inc, nop)", "seq(tpool_4(qsort), inc)"], [parse_axis("x=1..1e5:7:log")])
    for k, text in enumerate(result.terms):
        for value, size in zip(result.values[k], result.axes[0].values, strict=True):
            assert value == pytest.approx(float(patternalg.model(text, x=float(size))), rel=1e-12)
    assert result.bottlenecks[0].tolist()[:2] == ["nop", "nop"]  # x = 1, 6.8: nop is slower
    assert result.bottlenecks[0].tolist()[-1] == "inc"
    assert result.unit == "ns"
    with pytest.raises((AttributeError, dataclasses.FrozenInstanceError)):
        result.unit = "s"  # type: ignore[misc]
    with pytest.raises(ValueError):
        result.values[0][0] = 0.0  # read-only arrays


def test_sweep_says_where_a_model_has_no_value():
    """x*log2(x) is undefined at x = 0: the cell was empty without a word, and a pipe's
    bottleneck was named where it has no value."""
    result = sweep(["qsort", "pipe(tpool_4(qsort), inc)"], [parse_axis("x=0..1000:5")])
    assert math.isnan(result.values[1][0]) and result.bottlenecks[1].tolist()[:2] == [
        None,
        "tpool_4(qsort)",
    ]
    assert "qsort has no finite value at x = 0: its cell is empty" in result.notes
    assert "pipe(tpool_4(qsort), inc) has no finite value at x = 0: its cell is empty" in (
        result.notes
    )
    assert not any("no finite value" in n for n in sweep(["inc"], [parse_axis("x=0,1")]).notes)


def test_explore_help_says_threads_default_to_the_cores():
    help_text = " ".join(run_cli("explore", "--help").stdout.split())
    assert "the thread budget (default with --cores or --machine: its cores)" in help_text


def test_sweep_says_a_value_beyond_a_doubles_range_is_one():
    """qsort at x = 1e305 is about 1.03e311 (eval --at gives it): the note said it had no
    finite value there, as of x*log2(x) at x = 0."""
    notes = sweep(["qsort"], [parse_axis("x=0,1e302,1e305")]).notes
    assert (
        "qsort is beyond a double's range (1.8e+308) at x = 1e+305: its cell is empty "
        "(model(term, x=...) gives its value)"
    ) in notes
    assert "qsort has no finite value at x = 0: its cell is empty" in notes
    assert not any("no finite value at x = 1e+305" in n for n in notes)


def test_sweep_two_symbols_and_formats():
    out = run_cli("sweep", "tpool_n(qsort)", "--over", "x=2,4", "--over", "n=1..3", "--format", "csv")
    lines = out.stdout.splitlines()
    assert lines[0].startswith("x,n,tpool_n(qsort)")
    assert len(lines) == 1 + 2 * 3
    x, n, value = (float(v) for v in lines[-1].split(",")[:3])
    assert (x, n) == (4.0, 3.0) and value == pytest.approx(QSORT * 4 * 2 / 3)
    data = json.loads(run_cli("sweep", "inc", "nop", "--over", "x=1,100", "--format", "json").stdout)
    assert data["header"][:3] == ["x", "inc [ns]", "bottleneck of inc"] and data["unit"] == "ns"
    assert data["rows"][1][1] == pytest.approx(INC * 100)


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["sweep", "qsort", "--over", "x=5"], "at least 2 points"),
        (["sweep", "qsort", "--over", "x=1..100:1"], "at least 2 points"),
        (["sweep", "qsort", "--over", "x=0..100:log"], "positive bounds"),
        (["sweep", "qsort", "--over", "x=-4..100:5:log"], "positive bounds"),
        (["sweep", "qsort", "--over", "x=1..2:5:cubic"], "neither a number of points"),
        (["sweep", "tpool_n(qsort)", "--over", "n=1.5,2", "--at", "x=2"], "n = 1.5 is not a positive integer"),
        (["sweep", "qsort", "--over", "y=1..4"], "no term has a symbol y"),
        (["sweep", "qsort"], "needs a grid"),
        (["compare", "qsort"], "at least two terms"),
        (["optimize", "qsort", "--budget", "a<=3"], "no free thread count"),
        (["optimize", "tpool_a(qsort)", "--budget", "b<=3", "--at", "x=4"], "names no free"),
        (["optimize", "tpool_a(qsort)", "--budget", "a<=0", "--at", "x=4"], "the budget a<=0 is too small"),
        (["optimize", "tpool_a(qsort)", "--budget", "a*a<=9", "--at", "x=4"], "not linear"),
        (
            ["optimize", "pipe(tpool_a(qsort), tpool_b(inc))", "--budget", "a<=3", "--at", "x=4"],
            "unbounded",
        ),
        (["optimize", "tpool_a(qsort)", "--budget", "a<=4"], "no value for x"),
        (["explore", "tpool_n(qsort)", "--threads", "4", "--at", "x=4"], "numeric thread counts"),
        (["explore", "tpool_8(qsort)", "--threads", "4", "--at", "x=4"], "already uses 8"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, fragment):
    result = run_cli(*args)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], lines
    assert "Traceback" not in result.stderr


_FORMS = "expected SYMBOL=A..B[:N][:lin|log] or SYMBOL=v1,v2,..."


@pytest.mark.parametrize(
    ("command", "overs", "message"),
    [
        ("sweep", ["x=:0"], f"--over x=:0: a range is written A..B, both ends included (x=1..100:10); {_FORMS}"),
        ("compare", ["x=5:1"], f"--over x=5:1: a range is written A..B, both ends included (x=1..100:10); {_FORMS}"),
        ("sweep", ["x=5..1"], "--over x=5..1: the range must go up, got 5..1 (x=1..5 goes up)"),
        ("sweep", ["x="], f"--over x=: no values; {_FORMS}"),
        ("sweep", ["x=..0"], f"--over x=..0: the range has no lower end; {_FORMS}"),
        ("sweep", ["x=1..9:0"], "--over x=1..9:0: a grid needs at least 2 points, got 0"),
        ("sweep", ["x=1,,2"], "--over x=1,,2: an empty value in the list; expected x=v1,v2,... (e.g. x=1,2,4)"),
        ("sweep", ["x=1..9", "x=2..3"], "--over names x twice; give each symbol one grid"),
        ("compare", ["x=1..9", "x=2..3"], "--over names x twice; give each symbol one grid"),
        ("sweep", ["x=5"], "--over x=5: a grid needs at least 2 points, got 1 (the value at one point: eval --at x=5)"),
        ("compare", ["x=5..5"], "--over x=5..5: a grid needs at least 2 points, got 1 (the value at one point: eval --at x=5)"),
        ("plot", ["x=5"], "--over x=5: a grid needs at least 2 points, got 1 (the value at one point: eval --at x=5)"),
        ("sweep", ["x=1,4,1"], "--over x=1,4,1: x = 1 is listed twice; list each value once"),
        ("sweep", ["x=1..2:2:log:lin"], "--over x=1..2:2:log:lin: 'lin' gives the spacing a second time; give it once"),
    ],
)  # fmt: skip
def test_a_bad_over_is_refused_in_one_line_saying_what_is_valid(command, overs, message, tmp_path):
    """x=:0 and x=5:1 showed the parser's syntax error, x=1..9:0 the Axis constructor's
    message; x=1,1 and x=1..2:2:log:lin were swept; a one-point grid said nothing of eval."""
    args = [a for over in overs for a in ("--over", over)]
    out = ["-o", str(tmp_path / "p.png")] if command == "plot" else []
    done = run_cli(command, "qsort", "inc", *args, *out)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"patternalg {command}: error: {message}\n"


def test_sweep_without_over_names_over():
    from patternalg.algebra.grid import Axis
    from patternalg.errors import ArgumentError, EvaluationError

    with pytest.raises(ArgumentError, match=r"^over: expected a grid axis such as 'x=1..1e6:20:log'.*; got None$"):
        sweep(["qsort"])  # type: ignore[call-arg]
    with pytest.raises(EvaluationError, match=r"^over=x: a grid needs at least 2 points, got 1 \(the value at one point: model\(term, x=3\)\)$"):
        sweep(["qsort"], Axis("x", [3], "list"))
    with pytest.raises(EvaluationError, match=r"^over=x: x = 3 is listed twice; list each value once$"):
        sweep(["qsort"], Axis("x", [3, 3], "list"))


# --- compare ---------------------------------------------------------------------------------
def test_inc_and_nop_cross_where_the_paper_models_say():
    result = compare(["inc", "nop"])
    (cross,) = result.crossovers
    assert cross.exact and cross.kind == "crossover"
    assert cross.value == pytest.approx(NOP / INC, rel=1e-12)
    assert cross.designs == ("inc", "nop")  # inc is faster below, nop above
    assert [i.winner for i in result.intervals] == ["inc", "nop"]
    assert result.asymptotic_winner == "nop" and result.touches == ()


def test_compare_answers_on_its_grid_when_a_closed_form_cannot_be_built(monkeypatch):
    # a closed form sympy cannot build (tests/test_deep_hangs.py) leaves only the asymptotic
    # winner unknown: the grid's intervals and crossovers need none
    import importlib

    from patternalg.errors import EvaluationError

    growths = importlib.import_module("patternalg.decisions.asymptotic")

    def too_deep(*args, **kwargs):
        raise EvaluationError("the closed form nests too deeply to build")

    monkeypatch.setattr(growths, "evaluate", too_deep)
    result = compare(["inc", "nop"])
    assert result.asymptotic_winner is None
    assert [i.winner for i in result.intervals] == ["inc", "nop"]


def test_pipe_wins_below_the_crossover_with_the_sequential_pool():
    result = compare(["pipe(qsort, inc)", "seq(tpool_2(qsort), inc)"])
    (cross,) = result.crossovers
    assert cross.exact
    assert cross.value == pytest.approx(2 ** (INC / (QSORT / 2)), rel=1e-12)
    assert [i.winner for i in result.intervals] == ["pipe(qsort, inc)", "seq(tpool_2(qsort), inc)"]
    assert result.asymptotic_winner == "seq(tpool_2(qsort), inc)"


def test_designs_whose_closed_forms_are_equal_tie_asymptotically():
    """pipe(inc, inc) and tpool_2(seq(inc, inc)) are both 536.185*x under the paper: the
    first was named the asymptotic winner."""
    result = compare(["pipe(inc, inc)", "tpool_2(seq(inc, inc))"])
    assert result.asymptotic_winner == "pipe(inc, inc)"
    assert result.asymptotic_ties == ("tpool_2(seq(inc, inc))",)
    assert "asymptotic winner (x -> oo): pipe(inc, inc) ties with tpool_2(seq(inc, inc))" in result.lines()
    assert compare(["pipe(qsort, inc)", "seq(tpool_2(qsort), inc)"]).asymptotic_ties == ()


def test_designs_equal_to_rounding_tie_asymptotically_as_they_do_over_the_range():
    """A machine ran tpool_2(pipe(qsort, inc)) and pipe(tpool_2(qsort), tpool_2(inc)) alike, but
    their constants came out 14050.97100767225 and 14050.971007672248: the range said they
    tie, and the last digit named the second the asymptotic winner."""
    library = ModelLibrary.builtin().merged(
        ModelLibrary.from_toml_text(
            '[models.a]\nmodel = "2.27*x*log2(x) + 14050.97100767225"\n'
            '[models.b]\nmodel = "2.27*x*log2(x) + 14050.971007672248"\n'
            '[models.c]\nmodel = "2.27*x*log2(x) + 14050.9710076"\n'
        )
    )
    result = compare(["a", "b"], over="x=1024..1e6", library=library)
    assert result.intervals[0].ties == ("b",)
    assert result.asymptotic_winner == "a" and result.asymptotic_ties == ("b",)
    apart = compare(["a", "c"], over="x=1024..1e6", library=library)  # 5e-12 apart: more than rounding
    assert apart.asymptotic_winner == "c" and apart.asymptotic_ties == ()


def test_on_a_machine_the_asymptotic_winner_is_the_machines():
    """A pipe's hand-off grows with x (here 0.5 ns per unit), a pool's dispatch does not: on
    this machine the pool of the two stages wins as x grows, where the paper's models tie."""
    machine = Machine(cores=2, handoff=sympy.Float(0.5) * x + 1000, dispatch=sympy.Integer(900))
    result = compare(["pipe(inc, inc)", "tpool_2(seq(inc, inc))"], over="x=1024..262144", machine=machine)
    assert [i.winner for i in result.intervals] == ["tpool_2(seq(inc, inc))"]
    assert result.asymptotic_winner == "tpool_2(seq(inc, inc))" and result.asymptotic_ties == ()


def test_atoms_fitted_over_n_have_an_asymptotic_winner_as_n_grows():
    """A CSV over n fits models in n, where no closed form has x: the winner was undecided
    (each design constant in x); it is the one that grows slowest in n, whatever is compared."""
    from patternalg.algebra.atomic_model import AtomicModel
    from patternalg.syntax.symbols import symbol

    n = symbol("n")
    library = ModelLibrary([AtomicModel("sort", 3 * n * sympy.log(n, 2)), AtomicModel("scan", 40 * n)])
    result = compare(["pipe(sort, scan)", "seq(sort, scan)"], over="n=8..1e6", library=library)
    assert (result.asymptotic_winner, result.asymptotic_symbol) == ("pipe(sort, scan)", "n")
    assert "asymptotic winner (n -> oo): pipe(sort, scan)" in result.lines()
    over_threads = compare(["tpool_p(scan)", "seq(tpool_p(scan), sort)"], over="p=1..64", at={"n": 1024}, library=library)
    assert (over_threads.asymptotic_winner, over_threads.asymptotic_symbol) == ("tpool_p(scan)", "n")
    assert compare(["pipe(qsort, inc)", "seq(qsort, inc)"]).asymptotic_symbol == "x"


def test_a_symbol_bound_by_an_annotation_or_at_leaves_the_size_to_grow_in():
    """``sa[p=4]`` of ``30*n + 250*n*log2(p)`` is ``530*n``, which grows slower than
    ``2*n*log2(n)``: the winner was undecided (x -> oo), the annotation's and ``--at``'s p
    counted as a second symbol of the atoms."""
    from patternalg.algebra.atomic_model import AtomicModel
    from patternalg.syntax.symbols import symbol

    n, p = symbol("n"), symbol("p")
    library = ModelLibrary([
        AtomicModel("sa", 30 * n + 250 * n * sympy.log(p, 2)), AtomicModel("sb", 2 * n * sympy.log(n, 2)),
    ])  # fmt: skip
    annotated = compare(["sa[p=4]", "sb"], over="n=1..1e6", library=library)
    assert (annotated.asymptotic_winner, annotated.asymptotic_symbol) == ("sa[p=4]", "n")
    bound = compare(["sa", "pipe(sa, sb)", "sb"], over="n=1..1e6", at={"p": 4}, library=library)
    assert (bound.asymptotic_winner, bound.asymptotic_ties, bound.asymptotic_symbol) == ("sa", (), "n")
    assert "asymptotic winner (n -> oo): sa" in bound.lines()


@pytest.mark.parametrize("first", [0, 1])
def test_designs_equal_on_part_of_a_stretch_do_not_tie_on_all_of_it(first: int):
    """On 4 cores a pipe with nop beside tpool_n(qsort) runs free up to n = 3 and pays for a
    fifth thread from n = 4 on: equal, then slower, never crossing. The stretch said
    'ties' (its inside point is n = 2), and with the pipe named first, the pipe won."""
    terms = ["tpool_n(qsort)", "pipe(tpool_n(qsort), nop)"]
    result = compare(terms[first:] + terms[:first], over="n=1..8", at={"x": 1024}, cores=4)
    (stretch,) = result.intervals
    assert stretch.winner == "tpool_n(qsort)" and stretch.ties == ()
    ratio = dict((name, (low, high)) for name, low, high in stretch.ratios)["pipe(tpool_n(qsort), nop)"]
    assert ratio[0] == 1 and ratio[1] > 1


@pytest.mark.parametrize("first", [0, 1])
def test_a_stretch_of_ties_that_ends_is_a_touch_whichever_design_is_named_first(first: int):
    """pipe(inc, nop) is nop up to x = 10.11 and slower beyond: with the pipe named first the
    tie went to it, and compare reported a crossover 'pipe(inc, nop) below, nop above' and
    a stretch the pipe tied for; named second, a touch and nop everywhere."""
    terms = ["pipe(inc, nop)", "nop"]
    result = compare(terms[first:] + terms[:first], over="x=1..1e6")
    assert [i.winner for i in result.intervals] == ["nop"] and result.crossovers == ()
    assert [t.value for t in result.touches] == [pytest.approx(5422.97 / 536.185)]


def test_designs_equal_to_rounding_cross_once_and_the_one_below_wins():
    """seq(z, inc) is pipe(k, z) plus inc's 536*x where k = x^60 is below z = 1e-3 + 4.5e7*x:
    at x = 1e-300 that is 5e-298 ns on 1e-3 ns, below a double's resolution. Each scan point
    where the two rounded equal was a crossover or a touch (hundreds, 7.5 s: a hang in the
    campaign, seed 61), and the stretch below the one real crossover went to seq."""
    library = LIB.merged(
        [
            patternalg.AtomicModel("k", patternalg.parse_arithmetic("x^60")),
            patternalg.AtomicModel("z", patternalg.parse_arithmetic("1e-3 + 4.5e7*x")),
        ]
    )
    result = compare(["seq(z, inc)", "pipe(k, z)"], over="x=1e-300..1e6", library=library)
    (cross,) = result.crossovers
    assert cross.value == pytest.approx(4.5e7 ** (1 / 59), rel=1e-6) and result.touches == ()
    assert [i.winner for i in result.intervals] == ["pipe(k, z)", "seq(z, inc)"]
    assert [i.ties for i in result.intervals] == [(), ()]
    # at the crossover the two are equal: a ratio of 1, not x0.99999999919 (refined to 1e-9)
    below, above = (dict((n, (a, b)) for n, a, b in i.ratios) for i in result.intervals)
    assert below["seq(z, inc)"][1] == 1.0 and above["pipe(k, z)"][0] == 1.0


def test_designs_equal_at_the_ends_but_apart_inside_do_not_tie():
    """qsort alone against a pipe whose stage inc + qsort/2 is slower than qsort below
    x = 2^(536.185/129.27) = 17.7: equal at x = 1 (qsort is 0 there, inc's stage is the
    pipe's) and from 17.7 on, apart in between. The stretch said 'ties' (equal at its ends
    and at its inside point)."""
    result = compare(["pipe(qsort, inc)", "pipe(qsort, seq(inc, tpool_2(qsort)))"], over="x=1..1e6")
    (stretch,) = result.intervals
    assert stretch.winner == "pipe(qsort, inc)" and stretch.ties == ()


def test_a_touch_is_not_a_crossover():
    result = compare(["tpool_2(seq(qsort, inc))", "pipe(qsort, inc)"])
    assert result.crossovers == ()
    (touch,) = result.touches
    assert touch.kind == "touch" and touch.exact
    assert touch.value == pytest.approx(2 ** (INC / QSORT), rel=1e-12)
    assert [i.winner for i in result.intervals] == ["tpool_2(seq(qsort, inc))"]


def test_crossovers_of_a_shape_sympy_does_not_solve_are_bracketed():
    # sqrt(x) against log2(x)^2 is not a normal form difference of few terms: bisection
    library = LIB.merged(
        [
            patternalg.AtomicModel("root", patternalg.parse_arithmetic("100*sqrt(x)")),
            patternalg.AtomicModel("logs", patternalg.parse_arithmetic("100*log2(x)^2 + 50")),
        ]
    )
    result = compare(["root", "logs"], library=library)
    assert result.crossovers and all(not c.exact for c in result.crossovers)
    for c in result.crossovers:
        gap = 100 * math.sqrt(c.value) - (100 * math.log2(c.value) ** 2 + 50)
        assert abs(gap) <= 1e-6 * 100 * math.sqrt(c.value)


def test_compare_json_keys_and_region_map():
    data = json.loads(run_cli("compare", "inc", "nop", "--format", "json").stdout)
    assert {"terms", "crossovers", "intervals", "asymptotic_winner"} <= set(data)
    assert data["crossovers"][0]["exact"] is True
    assert {"from", "to", "winner"} <= set(data["intervals"][0])
    region = json.loads(
        run_cli(
            "compare", "pipe(tpool_n(qsort), nop)", "tpool_n(seq(qsort, nop))",
            "--over", "x=1..1e4:5:log", "--over", "n=1,2,4", "--format", "json",
        ).stdout
    )
    assert len(region["cells"]) == 15
    for cell in region["cells"]:
        x, n = cell["x"], cell["n"]
        piped = max(QSORT * x * math.log2(x) / n, NOP)
        pooled = (QSORT * x * math.log2(x) + NOP) / n
        expected = "pipe(tpool_n(qsort), nop)" if piped <= pooled else "tpool_n(seq(qsort, nop))"
        assert cell["winner"] == expected
    text = run_cli(
        "compare", "pipe(tpool_n(qsort), nop)", "tpool_n(seq(qsort, nop))",
        "--over", "x=1..1e4:5:log", "--over", "n=1,2,4",
    ).stdout
    assert "A = pipe(tpool_n(qsort), nop)" in text and "|" in text


# --- optimize --------------------------------------------------------------------------------
def test_optimize_equals_brute_force():
    data = json.loads(
        run_cli(
            "optimize", "pipe(tpool_a(qsort), tpool_b(inc))", "--budget", "a+b<=24",
            "--at", "x=1024", "--format", "json",
        ).stdout
    )
    brute = min(
        (max(QSORT * 1024 * 10 / a, INC * 1024 / b), a, b)
        for a in range(1, 24)
        for b in range(1, 25 - a)
    )
    assert data["best"]["value"] == pytest.approx(brute[0], rel=1e-12)
    assert data["best"]["assignment"] == {"a": brute[1], "b": brute[2]}
    assert data["best"]["bottleneck"] == f"tpool_{brute[1]}(qsort)"
    assert data["even_split"]["assignment"] == {"a": 12, "b": 12}
    assert len(data["runners_up"]) == 5
    assert all(r["value"] >= data["best"]["value"] for r in data["runners_up"])


@settings(max_examples=15, deadline=None)
@given(
    stages=STAGES,
    total=st.integers(3, 12),
    size=st.sampled_from([2, 16, 1024]),
)
def test_branch_and_bound_finds_the_exhaustive_optimum(stages, total, size):
    names = "abc"[: len(stages)]
    parts = [f"tpool_{v}({s})" for v, s in zip(names, stages, strict=True)]
    term = parts[0]
    for part in parts[1:]:
        term = f"pipe({term}, {part})"
    budget = ["+".join(names) + f"<={max(total, len(stages))}"]
    fast = optimize(term, budgets=budget, at={"x": size}, method="branch-and-bound")
    slow = optimize(term, budgets=budget, at={"x": size}, method="exhaustive")
    assert fast.best.value == pytest.approx(slow.best.value, rel=1e-12)


def test_a_budget_of_64_threads_over_four_pools_is_searched_not_refused():
    """Issue 13's figure: a+b+c+d<=64 has 635,376 assignments, under the 10^7 limit; the box
    of each count's largest value (61^4 = 1.4e7) had refused it since the limit came in."""
    term = "pipe(tpool_a(qsort), pipe(tpool_b(inc), pipe(tpool_c(qsort), tpool_d(nop))))"
    found = optimize(term, budgets=["a+b+c+d<=64"], at={"x": 1024})
    assert sum(dict(found.best.assignment).values()) <= 64
    # the qsorts share what inc and nop leave (b = 2, d = 1): 30 threads each, not 31 and 31
    assert found.best.value == pytest.approx(QSORT * 1024 * 10 / 30, rel=1e-12)


def test_optimize_within_a_number_of_threads_takes_the_budgets_the_design_runs():
    pipe = "pipe(tpool_a(qsort), tpool_b(inc))"
    within = optimize(pipe, threads=8, at={"x": 1024})
    assert within.best == optimize(pipe, budget="a+b<=8", at={"x": 1024}).best
    assert "budget: a + b <= 8 (at most 8 threads in all)" in within.notes
    # a seq runs the larger of its parts: each part within the threads, not their sum
    found = optimize("seq(pipe(tpool_a(qsort), tpool_b(inc)), tpool_c(qsort))", threads=8, at={"x": 1024})
    counts = dict(found.best.assignment)
    assert counts["c"] == 8 and counts["a"] + counts["b"] == 8
    with pytest.raises(patternalg.PatternalgError, match=r"runs a\*b threads, not a sum of counts"):
        optimize("tpool_a(tpool_b(qsort))", threads=8, at={"x": 1024})
    done = run_cli("optimize", "tpool_a(tpool_b(qsort))", "--threads", "8", "--at", "x=1024")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--budget" in done.stderr
    # a seq chain 3,000 deep runs max(a, 2) threads: one flat maximum, not 3,000 nested
    chain = "seq(tpool_a(qsort), " * 3000 + "tpool_2(inc)" + ")" * 3000
    assert "budget: a <= 8 (at most 8 threads in all)" in optimize(chain, threads=8, at={"x": 1024}).notes


def _designs_of_counts() -> st.SearchStrategy[str]:
    """Designs whose threads are sums and maxima of the counts a, b, c (pools of a count
    around an atom, pools of a number around anything)."""
    leaves = st.sampled_from(["qsort", "inc", "tpool_a(qsort)", "tpool_b(inc)", "tpool_c(nop)"])
    return st.recursive(leaves, lambda inner: st.one_of(
        st.tuples(st.sampled_from(["seq", "pipe"]), inner, inner).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
        st.tuples(st.sampled_from([1, 2, 3]), inner).map(lambda t: f"tpool_{t[0]}({t[1]})"),
    ), max_leaves=6)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(_designs_of_counts(), st.integers(1, 40), st.lists(st.integers(1, 12), min_size=3, max_size=3))
def test_the_threads_budgets_hold_exactly_where_the_design_runs_that_many_threads(design, most, counts):
    from patternalg.algebra.machine import threads_needed
    from patternalg.decisions.budget import parse_budget, thread_budgets

    names = ("a", "b", "c")
    threads = threads_needed(patternalg.parse(design))
    runs = int(threads.xreplace({s: v for s in threads.free_symbols for n, v in zip(names, counts, strict=True) if s.name == n}))
    try:
        budgets = [parse_budget(b, names) for b in thread_budgets(threads, most)]
    except patternalg.PatternalgError as error:  # more threads than that whatever the counts
        assert "whatever its counts" in str(error) and runs > most, (design, most)
        return
    row = np.array([counts], dtype=float)
    assert all(b.holds(row)[0] for b in budgets) == (runs <= most), (design, budgets, counts)


def test_optimize_over_a_range_minimises_the_worst_case():
    grid = parse_axis("x=2..1e5:6:log")
    result = optimize(
        "pipe(tpool_a(qsort), tpool_b(nop))", budgets=["a+b<=8"], over=grid, objective="max"
    )
    def worst(a, b):
        return max(
            max(QSORT * x * math.log2(x) / a, NOP / b) for x in grid.values
        )
    brute = min(worst(a, b) for a in range(1, 8) for b in range(1, 9 - a))
    assert result.best.value == pytest.approx(brute, rel=1e-12)
    assert "<table>" in result._repr_html_()


def test_optimize_refuses_x_both_swept_and_fixed_as_sweep_does():
    """optimize --at x=1 --over x=100..500 answered over the range without a word."""
    for command in (["optimize", "tpool_a(inc)", "--budget", "a<=4"], ["sweep", "tpool_2(inc)"]):
        done = run_cli(*command, "--at", "x=1", "--over", "x=100..500")
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.endswith("error: x is both swept (--over) and fixed (--at)\n") and done.stderr.count("\n") == 1
    with pytest.raises(patternalg.PatternalgError, match="x is both swept"):
        optimize("tpool_a(inc)", budget="a<=4", at={"x": 1}, over="x=100..500")
    # another symbol fixed beside the one swept is no conflict
    fixed = optimize("pipe(tpool_a(inc), tpool_b(nop))", budget="a<=4", at={"b": 2}, over="x=100..500")
    assert fixed.variables == ("a",) and fixed.objective == "max"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--budget", "a+b<=8", "--over", "a=1..4", "--at", "x=3"], "a is both swept (--over) and chosen (a free count of"),
        (["--budget", "b<=8", "--over", "a=1..4", "--at", "x=3"], "a is both swept (--over) and chosen (a free count of"),
        (["--budget", "a+b+c<=8", "--vary", "c", "--over", "c=1..3", "--at", "x=3"], "c is both swept (--over) and chosen (--vary)"),
        (["--budget", "a+b<=8", "--vary", "b", "--at", "b=3", "--at", "x=3"], "b is both chosen (--vary) and fixed (--at)"),
        (["--budget", "a+b<=8", "--vary", "x", "--at", "x=10"], "--vary x: x is the problem size"),
        (["--budget", "a+b<=8", "--vary", "x", "--over", "x=1..10"], "--vary x: x is the problem size"),
    ],
)
def test_optimize_refuses_a_symbol_both_chosen_and_given(options: list[str], message: str):
    """A count swept by --over was chosen too, and the sweep's value won: 'a=1, b=1' for a
    pipe whose a the sweep set (with --budget b<=8: 'the budgets leave a unbounded'); --vary
    of a symbol --at or --over gives was dropped without a word."""
    done = run_cli("optimize", "pipe(tpool_a(qsort), tpool_b(inc))", *options)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert message in done.stderr


def test_optimize_on_a_machine_with_a_dispatch_cost_is_no_bound_at_the_largest_counts():
    """A pool pays min(d(x), A) per element there, so tpool_2(nop) is slower than nop: the
    model grows from a count of 1 to 2, and the bound with every open count at its largest
    cut the optimum, which was then called proven (a=3, b=2, c=1 at 60010.52 ns; a=8,
    b=1, c=1 at 6562.36 ns)."""
    two = Machine(2, handoff="992.3 + 1.516*x", dispatch="397.1")
    term = "pipe(tpool_a(nop), tpool_b(seq(inc, inc)), tpool_c(nop))"
    found = optimize(term, budget="a+b+c<=7", at={"x": 100}, machine=two, top=1)
    assert dict(found.best.assignment) == {"a": 1, "b": 2, "c": 1}
    eval_value = patternalg.model("pipe(tpool_1(nop), tpool_2(seq(inc, inc)), tpool_1(nop))", machine=two, x=100)
    assert found.best.value == pytest.approx(float(eval_value), rel=1e-12) == 59811.97
    assert found.method == "branch-and-bound" and found.caption().startswith("proven optimum")
    eight = Machine(8, dispatch="6000")
    ones = optimize("seq(tpool_a(inc), tpool_b(nop), tpool_c(inc))", budget="a+b+c<=12", at={"x": 1}, machine=eight)
    assert dict(ones.best.assignment) == {"a": 1, "b": 1, "c": 1} and ones.best.value == 6495.34
    # a count's pool at 1 where the count is 2 (a/2): no bound from the box's corners
    half = optimize("tpool_{a/2}(nop)", budget="a<=6", at={"x": 1}, machine=eight)
    assert half.method == "exhaustive"


def _three_pools() -> st.SearchStrategy[str]:
    """Pools of the counts a, b, c around light bodies (a pool of nop or inc may be slower
    than its body where it pays a dispatch), in a seq or a pipe of seqs or pipes."""
    pools = [st.sampled_from(["nop", "inc", "seq(inc, nop)", "pipe(inc, inc)", "qsort"]).map(
        lambda body, c=c: f"tpool_{c}({body})") for c in "abc"]  # fmt: skip
    ops = st.sampled_from(["seq", "pipe"])
    return st.tuples(ops, ops, *pools, st.booleans()).map(
        lambda t: f"{t[0]}({t[2]}, {t[1]}({t[3]}, {t[4]}))" if t[5] else f"{t[0]}({t[1]}({t[2]}, {t[3]}), {t[4]})"
    )


@settings(max_examples=40, deadline=None)
@given(
    design=_three_pools(),
    cores=st.sampled_from([1, 2, 8]),
    handoff=st.sampled_from(["0", "992.3 + 1.516*x"]),
    dispatch=st.sampled_from(["300", "6000", "400 + 2*x"]),
    size=st.sampled_from([1, 100]),
    total=st.integers(5, 9),
)
def test_optimize_on_a_machine_with_a_dispatch_cost_finds_the_exhaustive_optimum(
    design, cores, handoff, dispatch, size, total
):
    """The branch and bound against every assignment (a third of these designs had the
    optimum cut before the bound took the box's corners)."""
    machine = Machine(cores, handoff=handoff, dispatch=dispatch)
    budget = f"a+b+c<={total}"
    found = optimize(design, budget=budget, at={"x": size}, machine=machine)
    brute = optimize(design, budget=budget, at={"x": size}, machine=machine, method="exhaustive")
    assert found.method == "branch-and-bound"
    assert found.best.value == pytest.approx(brute.best.value, rel=1e-12), (found.best, brute.best)


@pytest.mark.parametrize("method", ["branch-and-bound", "exhaustive"])
def test_optimize_tries_only_assignments_whose_counts_are_positive_integers(method):
    """tpool_{a/2} under a<=5 was best at a = 5 (2.5 threads), beside a = 1 (half a thread);
    an even split of a+b<=7 under tpool_{a/2} and tpool_{b/2} was a = b = 3."""
    found = optimize("tpool_{a/2}(qsort)", budget="a<=5", at={"x": 1000}, method=method)
    assert [dict(c.assignment) for c in (found.best, *found.runners_up)] == [{"a": 4}, {"a": 2}]
    assert found.best.value == pytest.approx(QSORT * 1000 * math.log2(1000) / 2, rel=1e-12)
    halves = optimize("pipe(tpool_{a/2}(qsort), tpool_{b/2}(inc))", budget="a+b<=7", at={"x": 1000}, method=method)
    assert dict(halves.best.assignment) == {"a": 4, "b": 2}
    assert halves.even_split is not None and dict(halves.even_split.assignment) == {"a": 2, "b": 2}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["pipe(tpool_a(qsort), tpool_b(inc))", "--budget", "a+b<=1"],
         "the budget a+b<=1 is too small: with a, b at their least, 1 each (a pool needs 1 or more threads), it comes to 2, above 1"),
        (["pipe(tpool_a(qsort), tpool_b(inc), tpool_c(nop))", "--threads", "2"],
         "the budget a + b + c <= 2 is too small: with a, b, c at their least, 1 each (a pool needs 1 or more threads), it comes to 3, above 2"),
        (["pipe(tpool_a(qsort), tpool_b(inc))", "--budget", "2*a+2*b<4"],
         "the budget 2*a+2*b<4 is too small: with a, b at their least, 1 each (a pool needs 1 or more threads), it comes to 4, not below 4"),
        (["tpool_{a/2}(qsort)", "--budget", "a<=1"],
         "no assignment of a that the budgets allow makes every count of tpool_{a/2}(qsort) a positive integer "
         "(a = 1 makes the thread count of tpool_{a/2}(...) 1/2; it must be a positive integer)"),
    ],
)  # fmt: skip
def test_optimize_refuses_a_budget_below_what_its_pools_need(args, message):
    """They said 'no assignment of counts >= 1 to a, b meets the budgets (a+b<=1)', and
    tpool_{a/2} under a<=1 ranked half a thread."""
    done = run_cli("optimize", *args, "--at", "x=1000")
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"patternalg optimize: error: {message}\n")


# --- explore ---------------------------------------------------------------------------------
def test_explore_ranks_at_a_point_of_the_atoms_own_size():
    """Atoms fitted over n are folded as x: ``--at n=100`` is a point. explore ranked by the
    growth in x instead, showed ``200*log2(100)`` (no value) for the 5422.97 ns that eval
    gives, and picked other designs than their values at the point do."""
    from patternalg.algebra.atomic_model import AtomicModel
    from patternalg.syntax.symbols import symbol

    n = symbol("n")
    library = ModelLibrary.builtin().merged([AtomicModel("sb", 2 * n * sympy.log(n, 2))])
    result = explore("pipe(sb, nop)", threads=2, at={"n": 100}, library=library)
    values = {d.term: d.value for d in result.designs}
    assert values["pipe(sb, nop)"] == pytest.approx(NOP)
    assert values["tpool_2(seq(sb, nop))"] == pytest.approx((200 * math.log2(100) + NOP) / 2)
    assert result.designs[0].term == "tpool_2(seq(sb, nop))"
    assert "ranked by their growth" not in result.text()


def test_explore_finds_the_papers_relation_iv():
    result = explore("pipe(qsort, inc)", threads=2, at={"x": 1024})
    best = result.designs[0]
    assert best.term == "tpool_2(seq(qsort, inc))"
    assert [r.law for r in best.rewrites] == ["pipe_vs_tpool2_seq"]
    assert best.rewrites[0].semantics == ("exact", "machine without a dispatch cost or a turn or speed-ups")
    assert best.value == pytest.approx((QSORT * 1024 * 10 + INC * 1024) / 2)
    assert all(d.threads <= 2 for d in result.designs)
    data = json.loads(
        run_cli("explore", "pipe(qsort, inc)", "--threads", "2", "--at", "x=1024", "--format", "json").stdout
    )
    assert data["designs"][0]["term"] == "tpool_2(seq(qsort, inc))"
    assert {"term", "value", "threads", "rewrites"} <= set(data["designs"][0])


def _holds(relation: str, before: float, after: float) -> bool:
    slack = 1e-9 * max(abs(before), abs(after))
    return {
        "==": abs(before - after) <= slack,
        ">=": before >= after - slack,
        "<=": before <= after + slack,
    }[relation]


@settings(max_examples=6, deadline=None)
@given(
    stages=STAGES,
    budget=st.integers(2, 5),
    size=st.sampled_from([2, 8, 1024]),
)
def test_every_rewrite_agrees_with_its_law(stages, budget, size):
    term = stages[-1]
    for stage in reversed(stages[:-1]):
        term = f"pipe({stage}, {term})"
    budget = max(budget, len(stages))
    result = explore(term, threads=budget, at={"x": size}, top=50, expansions=200)
    for design in result.designs:
        assert design.value == pytest.approx(float(patternalg.model(design.term, x=size)))
        for step in design.rewrites:
            if "exact" in step.semantics:  # pointwise: at several sizes
                for x in (1, 3, size, 10**6):
                    before, after = _value_at(step.before, x), _value_at(step.after, x)
                    assert _holds(step.relation, before, after), step
            else:  # only asymptotically: closed forms as x grows
                before, after = _value_at_large_x(step.before), _value_at_large_x(step.after)
                assert _holds(step.relation, before, after), step


# designs share most of their rewrites: each side is evaluated once per point
@functools.cache
def _value_at(term: str, x: int) -> float:
    return float(at_point(parse(term), LIB, {"x": x}).expr)


@functools.cache
def _value_at_large_x(term: str) -> float:
    return float(patternalg.model(term).subs({patternalg.x: 2.0**60}))


@pytest.mark.parametrize("law_id", sorted(LAW_SEMANTICS))
def test_the_semantics_explore_names_are_the_checkers(law_id):
    # a machine with a hand-off (a pipe of light stages is slower) and one with a dispatch
    # cost (a pool of a light atom is slower): each law holds where LAW_SEMANTICS says
    handoff = Machine(cores=2, handoff="100 + 0.5*x").semantics
    dispatch = Machine(cores=2, dispatch="800 + 0.5*x").semantics
    wake = Machine(cores=2, wake="5000").semantics  # a faster second stage: the pipe pays to wake it
    turn = Machine(cores=2, turn="20000").semantics  # a pool of nop (5,423 ns) is slower than nop
    for semantics in ("asymptotic", "exact", handoff, dispatch, wake, turn):
        status = check(builtin_law(law_id), semantics=semantics, examples=25).status
        holds = bool(semantics_names(Semantics.of(semantics)) & set(LAW_SEMANTICS[law_id]))
        assert (status in ("proved", "no-counterexample")) == holds, semantics
    # speed-ups of the atoms' own: a law said to hold there is not refuted (the search does
    # not always find pipe_vs_tpool2_seq's counterexample: test_machine.py names it)
    speedups = Machine(16, speedups=FULL.speedups).semantics
    if semantics_names(speedups) & set(LAW_SEMANTICS[law_id]):
        assert check(builtin_law(law_id), semantics=speedups, examples=25).status in ("proved", "no-counterexample")


def test_on_a_machine_with_a_dispatch_cost_a_law_is_used_where_its_instance_holds():
    """tpool_speedup does not hold on every machine with a dispatch cost (a pool of a light
    atom is slower): explore uses it where it holds at the point, and names that."""
    from patternalg.decisions.law_semantics import HERE

    machine = Machine(cores=2, dispatch=800)  # ns per element of a pool: inc is 536 ns at x = 1
    heavy = explore("pipe(qsort, inc)", at={"x": 65536}, machine=machine)
    best = heavy.designs[0]
    assert best.term == "tpool_2(seq(qsort, inc))"
    assert [r.semantics for r in best.rewrites] == [(HERE,)]
    value = lambda term: float(patternalg.model(term, machine=machine, x=65536))  # noqa: E731
    assert best.value == pytest.approx(value("tpool_2(seq(qsort, inc))"))
    assert best.value < value("pipe(qsort, inc)")
    # at x = 1 a pool around inc costs more than it saves: no design puts one there
    light = explore("inc", at={"x": 1}, machine=machine)
    assert [d.term for d in light.designs] == ["inc"]
    at_one = lambda term: float(patternalg.model(term, machine=machine, x=1))  # noqa: E731
    assert at_one("tpool_2(inc)") > at_one("inc")


def _visited(term: str, threads: int, size: float) -> tuple[bool, dict[str, int]]:
    """Whether explore says it is complete, and every design it visited with its threads."""
    from unittest import mock

    from patternalg.decisions.design_values import thread_count

    module = importlib.import_module("patternalg.decisions.explore")
    seen: dict[str, int] = {}
    derive = module._shortest

    def shortest(start, edges):  # the search's every design, as explore derives them
        parent, depth = derive(start, edges)
        seen.update((str(d), thread_count(d)) for d in parent)
        return parent, depth

    with mock.patch.object(module, "_shortest", shortest):
        result = explore(term, threads=threads, at={"x": size})
    return result.complete, seen


def test_explore_introduces_a_pool_around_a_part_of_a_seq():
    """seq(tpool_2(qsort), inc) is one tpool_speedup from seq(qsort, inc) and runs 2 threads;
    --threads 2 said it was complete without it, which --threads 3 found (through 3 threads)."""
    result = explore("seq(qsort, inc)", threads=2, at={"x": 65536}, top=9)
    found = {d.term: d for d in result.designs}
    assert [r.law for r in found["seq(tpool_2(qsort), inc)"].rewrites] == ["tpool_speedup"]
    assert result.complete and result.lines()[-1] == (
        "6 designs within 2 threads visited (complete: all that the rewrites reach through designs within 2 threads)"
    )
    # and no pool directly in a pool: pipe stages in a pool are not layered into one
    assert not any(d.startswith("tpool_2(tpool_") for d in _visited("tpool_2(pipe(nop, nop))", 8, 1024)[1])


def _small_designs() -> st.SearchStrategy[str]:
    """Designs of qsort, inc and nop in seqs, pipes and pools of two, at most 3 deep."""
    leaves = st.sampled_from(["qsort", "inc", "nop"])
    return st.recursive(leaves, lambda inner: st.one_of(
        st.tuples(st.sampled_from(["seq", "pipe"]), inner, inner).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
        inner.map(lambda t: f"tpool_2({t})"),
    ), max_leaves=4)  # fmt: skip


@settings(max_examples=25, deadline=None)
@given(design=_small_designs(), more=st.integers(0, 1), size=st.sampled_from([1, 1024, 65536]))
def test_a_larger_budget_finds_no_design_within_a_smaller_one_that_said_it_was_complete(design, more, size):
    """Under the rules: of random designs, 37 in 100 had a design within the budget that a
    budget 2 larger reached (seq(tpool_2(qsort), qsort) from seq(qsort, qsort) with 2
    threads at x = 65536) before pools were introduced around a seq's parts and none
    directly in a pool."""
    from patternalg.decisions.design_values import thread_count

    budget = max(2, thread_count(patternalg.parse(design))) + more
    complete, small = _visited(design, budget, size)
    _, large = _visited(design, budget + 2, size)
    if complete:
        assert {d for d, n in large.items() if n <= budget} <= set(small), design


@settings(max_examples=40, deadline=None)
@given(
    design=terms(max_depth=4, atoms=["qsort", "inc", "nop", "map_grppi"], mapreduce=True, annotations=False),
    n=st.integers(1, 8),
    size=st.sampled_from([1, 1024, 10**6]),
)
def test_explore_values_a_design_as_eval_does_on_any_machine(design, n, size):
    """explore folds its designs on its own, sharing their parts: on a machine whose atoms
    have speed-ups a part's value depends on the pools around it (tpool_4(tpool_2(qsort))
    is tpool_8(qsort)), and explore once valued it as if alone (142 against 183 ms)."""
    values = DesignValues(LIB, {"x": sympy.Integer(size)}, FULL.semantics)
    for term in (design, TPool(sympy.Integer(n), design), Pipe(design, TPool(sympy.Integer(n), design))):
        expected = float(at_point(term, LIB, {"x": size}, FULL.semantics).expr)
        assert values.number(term) == pytest.approx(expected, rel=1e-9), str(term)


def test_explore_on_a_machine_with_speedups_ranks_pools_of_pools_as_the_flat_pool():
    best = explore("pipe(qsort, inc)", threads=8, at={"x": 65536}, machine=FULL.with_cores(16))
    value = lambda term: float(patternalg.model(term, machine=FULL, x=65536))  # noqa: E731
    assert [d.value for d in best.designs] == pytest.approx([value(d.term) for d in best.designs], rel=1e-9)
    # pipe_tpool_layering and the laws beside it do not hold on every machine with
    # speed-ups: used where their instance holds, and said so
    used = {r.law: r.semantics for d in best.designs for r in d.rewrites}
    assert used["tpool_more"] == ("this machine at the point",)


def test_explore_on_a_machine_gives_each_design_the_machine_closed_form_of_its_value():
    """On a machine the model beside each value was the paper's asymptotic one, which knows
    no cores, hand-off or dispatch (tpool_16(seq(qsort, inc)): 258.5 x log2 x + ...)."""
    from patternalg.algebra.evaluation import evaluate
    from patternalg.syntax.arith import format_expr

    found = explore("pipe(qsort, inc)", at={"x": 4096}, machine=FULL, top=3)
    for design in found.designs:
        closed = evaluate(parse(design.term), LIB, FULL.semantics)
        assert design.model == format_expr(closed)
        assert float(closed.subs(x, 4096)) == pytest.approx(design.value, rel=1e-9)


def test_explore_without_a_point_ranks_by_growth():
    result = explore("pipe(qsort, inc)", threads=2)
    assert result.designs[0].value is None
    assert result.designs[0].model == "517.085*x*log2(x) + 268.0925*x"


def test_explore_takes_a_count_bound_with_at_as_that_many_threads():
    """The error for a free count said "bind it with --at"; bound, it said the same."""
    bound = explore("pipe(tpool_n(qsort), inc)", threads=4, at={"x": 1024, "n": 2})
    fixed = explore("pipe(tpool_2(qsort), inc)", threads=4, at={"x": 1024})
    assert [d.term for d in bound.designs] == [d.term for d in fixed.designs]
    assert [d.value for d in bound.designs] == [d.value for d in fixed.designs]


def test_results_have_html_and_json():
    for result in (
        sweep(["inc"], [parse_axis("x=1,2")]),
        compare(["inc", "nop"], over=parse_axis("x=1..100:log")),
        optimize("tpool_a(qsort)", budgets=["a<=4"], at={"x": 8}),
        explore("pipe(qsort, inc)", threads=2, at={"x": 8}),
    ):
        assert result._repr_html_().startswith("<table>")
        json.dumps(result.to_json(), allow_nan=False)


def test_no_subs_per_point_ten_thousand_points_are_numpy():
    grid = parse_axis("x=1..1e9:10000:log")
    result = sweep(["pipe(tpool_4(qsort), pipe(inc, nop))"], [grid])
    expected = np.maximum(
        np.maximum(QSORT * grid.values * np.log2(grid.values) / 4, INC * grid.values), NOP
    )
    assert np.allclose(result.values[0], expected, rtol=1e-12)
    assert list(itertools.islice(result.bottlenecks[0], 1)) == ["nop"]


def test_three_term_logarithmic_difference_is_bracketed() -> None:
    """a*x*log2(x) + b*x + c = 0 (fitted models with constants) has no closed root sympy
    finds in bounded time: the crossover is bracketed and refined instead."""
    from patternalg.library.model_library import ModelLibrary

    library = ModelLibrary.from_toml_text(
        '[models.sort]\nmodel = "5.785*x*log2(x) + 20487"\n'
        '[models.scan]\nmodel = "100*x + 4431"\n'
    )
    result = compare(["sort", "scan"], over=parse_axis("x=1..2^24:log"), library=library)
    # scan is faster at small x (its constant) and at large x (x*log2(x) outgrows 100*x)
    assert [c.designs for c in result.crossovers] == [("scan", "sort"), ("sort", "scan")]
    for crossing in result.crossovers:
        v = crossing.value
        sort, scan = 5.785 * v * math.log2(v) + 20487, 100 * v + 4431
        assert not crossing.exact and abs(sort - scan) <= 1e-8 * scan


def test_a_deep_design_over_its_thread_budget_is_named_in_one_short_line():
    from patternalg.decisions.explore import explore
    from patternalg.errors import EvaluationError

    term = "inc"
    for _ in range(2000):
        term = f"pipe({term}, inc)"
    with pytest.raises(EvaluationError, match="already uses 2001 threads") as caught:
        explore(term, threads=2)
    assert len(str(caught.value)) < 300


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.integers(-2, 3), min_size=3, max_size=3),
            st.one_of(st.integers(-5, 40).map(float), st.just(1e300)),
            st.booleans(),
        ),
        min_size=1,
        max_size=3,
    )
)
def test_the_assignments_bound_is_never_below_the_assignments_it_bounds(drawn) -> None:
    from patternalg.decisions.budget import Budget, assignments_at_most, upper_bounds

    budgets = [Budget("b", tuple(map(float, c)), bound, strict) for c, bound, strict in drawn]
    upper = upper_bounds(budgets, 3)
    found = assignments_at_most(budgets, upper)  # never raises, whatever the budgets
    if any(u < 1 for u in upper):
        assert found == 0
        return
    if not all(math.isfinite(u) and u <= 30 for u in upper):
        return
    grid = itertools.product(*(range(1, int(u) + 1) for u in upper))
    rows = np.array(list(grid), dtype=float).reshape(-1, 3)
    inside = np.ones(len(rows), dtype=bool)
    for budget in budgets:
        inside &= budget.holds(rows)
    assert found >= inside.sum()


def test_compare_with_x_fixed_and_no_over_names_its_default_sweep():
    """compare ... --at x=65536 said 'x is both swept (--over) and fixed (--at)' where no
    --over was given: the sweep is compare's default."""
    done = run_cli("compare", "seq(qsort,inc)", "tpool_2(qsort)", "--at", "x=65536")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "compare sweeps x=1..2^40:log when no --over is given, and --at fixes x" in done.stderr


def test_a_region_map_keeps_its_bars_in_one_column():
    """Labels longer than ten characters (60.8421052631579 on x=4..64) pushed their rows'
    bars right of the others'."""
    from patternalg.decisions.compare import Region

    region = Region((parse_axis("p=2..32:4"), parse_axis("x=4..64:20")), np.zeros((4, 20), dtype=int))
    rows = region.lines(["k", "tpool_4(k)"])[1:21]
    assert "60.8421052631579 | AAAA" in rows
    assert len({row.index("|") for row in rows}) == 1


@pytest.mark.parametrize(
    "decide",
    [
        lambda lib: sweep(["solver"], over="x=1..100:3", at={"p": "a"}, library=lib),
        lambda lib: compare(["solver", "tpool_2(solver)"], over="x=1..100", at={"p": "a"}, library=lib),
        lambda lib: optimize("tpool_b(solver)", threads=4, at={"p": "a", "x": 100}, library=lib),
        lambda lib: explore("solver", threads=2, at={"p": "a", "x": 100}, library=lib),
    ],
    ids=["sweep", "compare", "optimize", "explore"],
)
def test_a_decision_refuses_a_value_naming_a_symbol(decide):
    """``--at p=a`` was "beyond a double (about 1.8e308)" in sweep, compare and optimize
    (float() of a symbol), and explore said "no value for a (bind it with --at)", then
    refused ``--at a=4`` ("the model has no symbol a"): a decision compares numbers."""
    library = ModelLibrary([patternalg.AtomicModel("solver", 40 + 30 * x + 250 * x * sympy.log(sympy.Symbol("p", positive=True), 2))])
    with pytest.raises(patternalg.EvaluationError, match=r"^p=a: a decision needs a number for p \(a value naming other symbols is for eval\)$"):
        decide(library)


def test_compare_without_over_sweeps_the_designs_own_size():
    """Atoms fitted over n: compare without --over said "--over x: no term has a symbol x";
    it sweeps n over x's default range, and says so."""
    from patternalg.algebra.atomic_model import AtomicModel
    from patternalg.syntax.symbols import symbol

    n = symbol("n")
    library = ModelLibrary([AtomicModel("sb", 2 * n * sympy.log(n, 2))])
    result = compare(["sb", "tpool_2(sb)"], library=library)
    assert (result.symbol, result.bounds, result.asymptotic_symbol) == ("n", (1.0, 2.0**40), "n")
    assert [i.winner for i in result.intervals] == ["tpool_2(sb)"]
    assert "no over=: comparing n = 1..2^40:log, the designs' size as x's default; over= sets it" in result.notes
    assert compare(["qsort", "inc"]).symbol == "x"
