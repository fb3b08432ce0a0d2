"""Issue 29's findings about the decision commands: exact grids (9), crossovers of counts at
integers (7), a bounded crossover search (16), constant models (22), no traceback on
counts and coefficients that are not numbers (15), one answer per model in explore (5)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
import sympy
from helpers import ROOT, run_cli
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import patternalg
from patternalg.algebra.grid import parse_axis
from patternalg.decisions.compare import compare
from patternalg.decisions.sweep import sweep
from patternalg.library.model_library import ModelLibrary
from patternalg.syntax.arith import number_text

LIB = ModelLibrary.builtin()


# --- finding 9: one grid generator, exact where the grid's points are ------------------------
@settings(max_examples=40, deadline=None)
@given(
    base=st.sampled_from([2, 3, 10]),
    first=st.integers(-6, 6),
    steps=st.integers(1, 30),
    every=st.integers(1, 3),
)
def test_a_log_grid_between_powers_holds_the_powers_exactly(base, first, steps, every):
    """x=B^i..B^j:N:log with N - 1 dividing the steps is the powers B^k themselves: each
    point is the double nearest B^k (2048.000000000001 was printed for 2^11)."""
    # powers of 3 are doubles from 3^0 to 3^33 (the ends given as doubles must be exact)
    assume(base != 3 or 0 <= first and first + steps * every <= 33)
    low, high = Fraction(base) ** first, Fraction(base) ** (first + steps * every)
    axis = parse_axis(f"x={float(low)!r}..{float(high)!r}:{steps + 1}:log")
    expected = [float(Fraction(base) ** (first + k * every)) for k in range(steps + 1)]
    assert axis.values.tolist() == expected


@settings(max_examples=40, deadline=None)
@given(low=st.integers(-1000, 1000), step=st.integers(1, 50), count=st.integers(2, 60))
def test_a_linear_grid_of_decimals_holds_the_decimals(low, step, count):
    """x=A..B:N whose points are decimals (A + k (B - A) / (N - 1) = (low + k step) / 10)
    is those decimals (0..1:11 gave 0.30000000000000004)."""
    high = low + step * (count - 1)
    values = parse_axis(f"x={low}/10..{high}/10:{count}").values.tolist()
    assert values == [float(Fraction(low + k * step, 10)) for k in range(count)]


def test_powers_of_two_print_exactly_in_json_and_csv():
    args = ("sweep", "qsort", "--over", "x=1..16384:15:log")
    data = json.loads(run_cli(*args, "--format", "json").stdout)
    assert data["over"]["x"] == [float(2**k) for k in range(15)]
    rows = run_cli(*args, "--format", "csv").stdout.splitlines()[1:]
    assert [row.split(",")[0] for row in rows] == [repr(float(2**k)) for k in range(15)]


# --- finding 7: a thread count's crossovers are integers -------------------------------------
DESIGNS = st.sampled_from(
    [
        "tpool_a(qsort)",
        "pipe(tpool_a(qsort), inc)",
        "seq(tpool_a(qsort), inc)",
        "tpool_a(seq(qsort, nop))",
        "pipe(tpool_a(qsort), tpool_2(inc))",
        "tpool_2(seq(qsort, inc))",
        "tpool_8(qsort)",
        "tpool_3(pipe(qsort, nop))",
        "seq(nop, tpool_a(inc))",
    ]
)


@settings(max_examples=25, deadline=None)
@given(
    pair=st.lists(DESIGNS, min_size=2, max_size=3, unique=True).filter(
        lambda ts: any("_a(" in t for t in ts)
    ),
    top=st.integers(2, 40),
    size=st.sampled_from([16, 1024, 65536]),
)
def test_crossovers_over_a_count_are_integers_and_name_the_winners(pair, top, size):
    """Over a thread count the winner changes between integers: each crossover is at the
    first integer of the new winner, each interval runs between integers and its winner
    is the fastest design at every integer inside it (a touch at a = 14.09 was reported)."""
    result = compare(pair, over=parse_axis(f"a=1..{top}", integer=True), at={"x": size})
    for c in (*result.crossovers, *result.touches):
        assert c.value == int(c.value)
        assert c.previous is None or c.previous == c.value - 1
    for interval in result.intervals:
        assert interval.start == int(interval.start) and interval.end == int(interval.end)
        for a in range(int(interval.start), int(interval.end) + 1):
            values = [_value(t, size, a) for t in pair]
            best = min(values)
            winner = values[pair.index(interval.winner)]
            assert winner <= best * (1 + 1e-9), (a, interval)


def _value(term: str, size: int, a: int) -> float:
    """The term's model at x = size (and a, if the term has it)."""
    return float(patternalg.model(term, x=size, **({"a": a} if "_a(" in term else {})))


def test_the_first_integer_where_the_winner_changes():
    result = compare(
        ["pipe(tpool_a(qsort), inc)", "tpool_2(seq(qsort, inc))"],
        over=parse_axis("a=1..15", integer=True),
        at={"x": 1024},
    )
    (cross,) = result.crossovers
    assert (cross.previous, cross.value) == (1.0, 2.0)
    assert cross.designs == ("tpool_2(seq(qsort, inc))", "pipe(tpool_a(qsort), inc)")
    assert [(i.start, i.end) for i in result.intervals] == [(1.0, 1.0), (2.0, 15.0)]
    text = run_cli(
        "compare", "pipe(tpool_a(qsort), inc)", "tpool_2(seq(qsort, inc))",
        "--over", "a=1..15", "--at", "x=1024",
    ).stdout  # fmt: skip
    assert "crossover between a = 1 and a = 2" in text


# --- finding 16: the crossover search is bounded ---------------------------------------------
MODELS = '[models.a]\nmodel = "35290000"\n[models.c]\nmodel = "3102500*x + log2(3)"\n'


@pytest.mark.parametrize(
    "args, models",
    [
        (["compare", "a", "c"], True),
        (["compare", "map_hadoop", "mapReduce_{2,2}^{768,4}(map_grppi, qsort)"], False),
    ],
)
def test_compare_of_models_a_symbolic_solve_never_finished_answers(args, models, tmp_path):
    """sympy's solve did not return on 3102500*x + log2(3) = 35290000 (it asked whether
    the root is positive): the roots of the pieces' polynomials are found in bounded time."""
    if models:
        (tmp_path / "m.toml").write_text(MODELS)
        args = [*args, "--models", str(tmp_path / "m.toml")]
    done = subprocess.run(
        [sys.executable, "-m", "patternalg.cli", *args, "--format", "json"],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
        env={"PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (cross,) = json.loads(done.stdout)["crossovers"]
    if models:
        assert cross["value"] == pytest.approx((35290000 - math.log2(3)) / 3102500, rel=1e-12)
    assert cross["exact"] is True


# --- finding 22: a constant model is a plain answer ------------------------------------------
@settings(max_examples=10, deadline=None)
@given(value=st.floats(1e-3, 1e9), count=st.integers(2, 9))
def test_a_constant_sweeps_flat_and_its_pool_wins_everywhere(value, count):
    library = LIB.merged([patternalg.AtomicModel("k", sympy.Float(value))])
    flat = sweep(["k"], [parse_axis("x=1,10,1000")], library=library)
    row = flat.values[0].tolist()
    assert row == [row[0]] * 3 and row[0] == pytest.approx(value, rel=1e-12)
    result = compare(["k", f"tpool_{count}(k)"], library=library)
    assert [i.winner for i in result.intervals] == [f"tpool_{count}(k)"]
    assert result.crossovers == () and result.touches == ()


def test_nop_sweeps_and_compares_on_the_command_line():
    out = run_cli("sweep", "nop", "--over", "x=1,10", "--format", "json")
    assert out.returncode == 0, out.stderr
    assert [row[1] for row in json.loads(out.stdout)["rows"]] == [5422.97, 5422.97]
    out = run_cli("compare", "nop", "tpool_2(nop)", "--format", "json")
    assert out.returncode == 0, out.stderr
    assert [i["winner"] for i in json.loads(out.stdout)["intervals"]] == ["tpool_2(nop)"]
    bad = run_cli("sweep", "nop", "--over", "p=1,2")
    assert bad.returncode == 2 and "no term has a symbol p" in bad.stderr


# --- finding 15: counts and coefficients that are not numbers --------------------------------
def test_a_count_that_is_no_polynomial_is_searched_exhaustively():
    from patternalg.decisions.optimize import optimize

    result = optimize("tpool_{min(a,4)}(qsort)", budgets=["a<=8"], at={"x": 1024})
    assert result.method == "exhaustive"
    assert result.best.assignment == (("a", 4),)
    assert result.best.value == pytest.approx(1034.17 * 1024 * 10 / 4, rel=1e-12)


@pytest.mark.parametrize(
    "args",
    [
        ["explore", "parsec_canneal", "--threads", "2"],
        ["explore", "parsec_canneal", "--threads", "2", "--at", "p=4"],
        ["explore", "tpool_2(kp)", "--threads", "4", "--models", "MODELS"],
    ],
)
def test_explore_of_a_model_with_unbound_symbols_is_one_line(args, tmp_path):
    (tmp_path / "m.toml").write_text('[models.kp]\nmodel = "x/p + 100"\n')
    args = [str(tmp_path / "m.toml") if a == "MODELS" else a for a in args]
    out = run_cli(*args)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    (line,) = out.stderr.strip().splitlines()
    assert "no value for p" in line and "--at" in line


def test_explore_binds_what_it_is_given(tmp_path):
    (tmp_path / "m.toml").write_text('[models.kp]\nmodel = "x/p + 100"\n')
    out = run_cli(
        "explore", "tpool_2(kp)", "--threads", "4", "--at", "p=2",
        "--models", str(tmp_path / "m.toml"), "--format", "json",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["designs"][0]["term"] == "tpool_4(kp)"


# --- finding 5: designs of one model are one answer, with a short derivation -----------------
@settings(max_examples=8, deadline=None)
@given(
    stages=st.lists(st.sampled_from(["qsort", "inc", "nop"]), min_size=2, max_size=3),
    budget=st.integers(2, 8),
    size=st.sampled_from([8, 1024, 65536]),
)
def test_each_model_is_shown_once_and_its_rewritings_counted(stages, budget, size):
    """Every design reached is counted once: the shown one or one of its equivalents; no
    two shown designs have the same value; each chain of rewrites leads from the start to
    the design shown."""
    from patternalg.decisions.explore import explore

    term = stages[-1]
    for stage in reversed(stages[:-1]):
        term = f"pipe({stage}, {term})"
    budget = max(budget, len(stages))
    result = explore(term, threads=budget, at={"x": size}, top=10_000, expansions=300)
    assert sum(1 + d.equivalent for d in result.designs) == result.visited
    values = [d.value for d in result.designs]
    assert all(b > a * (1 + 1e-12) for a, b in zip(values, values[1:], strict=False))
    for d in result.designs:
        chain = [term, *(r.after for r in d.rewrites)]
        assert chain[-1] == d.term
        assert [r.before for r in d.rewrites] == chain[:-1]


def test_the_issues_exploration_is_one_answer_per_model():
    args = ("explore", "pipe(qsort, inc)", "--threads", "16", "--at", "x=65536", "--top", "5")
    data = json.loads(run_cli(*args, "--format", "json").stdout)
    best = data["designs"][0]
    # tpool_2(seq(tpool_8(qsort), tpool_8(inc))) is one of its rewritings, not a rank of its own
    assert best["term"] == "tpool_16(seq(qsort, inc))" and best["equivalent"] >= 1
    assert len(best["rewrites"]) == 15  # pipe_vs_tpool2_seq, then tpool_more 14 times
    assert "tpool_2(seq(tpool_8(qsort), tpool_8(inc)))" not in [d["term"] for d in data["designs"]]
    text = run_cli(*args).stdout.splitlines()
    assert len(text) <= 2 * 5 + 1
    assert text[0].endswith("equivalent rewritings)")
    why = run_cli(*args, "--why").stdout.splitlines()
    assert sum("pipe_vs_tpool2_seq -> [exact/machine without a dispatch cost or a turn or speed-ups]" in line for line in why) >= 1
    assert len(why) > len(text)
    wide = run_cli("explore", "pipe(qsort, inc)", "--threads", "100000", "--top", "2", "--at", "x=65536")
    assert len(wide.stdout.splitlines()) <= 5 and max(map(len, wide.stdout.splitlines())) < 300


# --- a grid of counts is checked by the counts it makes (third probe, 2026-11-30) ----------
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("sweep", "tpool_{n/2}(qsort)", "--over", "n=2..8", "--at", "x=4"),
         "n = 3 makes the thread count of tpool_{n/2}(...) 3/2; it must be a positive integer"),
        (("compare", "tpool_{n/2}(qsort)", "tpool_2(qsort)", "--over", "n=1..5", "--at", "x=4"),
         "n = 1 makes the thread count of tpool_{n/2}(...) 1/2"),
        (("sweep", "mapReduce_{1,1}^{x-2,1}(inc, inc)", "--over", "x=1..4"),
         "x = 1 makes the elements per key d of mapReduce_{1,1}^{x - 2,1} -1; it must be positive"),
        (("eval", "mapReduce_{1,1}^{x-2,1}(inc, inc)", "--at", "x=1"),
         "x = 1 makes the elements per key d of mapReduce_{1,1}^{x - 2,1} -1; it must be positive"),
    ],
)  # fmt: skip
def test_a_grid_point_whose_count_is_no_pool_is_refused_as_eval_refuses_it(argv, message: str) -> None:
    """sweep printed 1.5 threads' value at n = 3 where eval refused n = 3."""
    done = run_cli(*argv)
    assert done.returncode == 2 and message in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_a_grid_of_counts_that_all_make_pools_is_swept() -> None:
    done = run_cli("sweep", "tpool_{n/2}(qsort)", "--over", "n=2,4,8", "--at", "x=4", "--format", "csv")
    assert done.returncode == 0 and done.stdout.splitlines()[1:] == ["2.0,8273.36,", "4.0,4136.68,", "8.0,2068.34,"], done.stdout


# --- a count bound or swept to 0 or below (decisions probe, 2026-12-01) ----------------------
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("sweep", "tpool_k(qsort)", "--over", "x=1..4", "--at", "k=0"),
         "k = 0 makes the thread count of tpool_k(...) 0; it must be a positive integer"),
        (("compare", "tpool_k(qsort)", "qsort", "--over", "x=1..4", "--at", "k=-1"),
         "k = -1 makes the thread count of tpool_k(...) -1; it must be a positive integer"),
        (("sweep", "tpool_k(qsort)", "--over", "x=1..4", "--at", "k=2.5"),
         "k = 2.5 makes the thread count of tpool_k(...) 2.5; it must be a positive integer"),
        (("sweep", "qsort[p=k-2]", "--over", "x=1..4", "--at", "k=1"),
         "k = 1 makes the annotation p of qsort -1; it must be positive"),
        (("eval", "qsort[p=k-2]", "--at", "x=4", "--at", "k=1"),
         "k = 1 makes the annotation p of qsort -1; it must be positive"),
        (("sweep", "tpool_k(qsort)", "--over", "k=0..4"),
         "--over k=0..4: k counts threads, and k = 0 is not a positive integer (a pool needs 1 or more threads)"),
        (("compare", "tpool_k(qsort)", "qsort", "--over", "k=-3..4", "--at", "x=100"),
         "--over k=-3..4: k counts threads, and k = -3 is not a positive integer (a pool needs 1 or more threads)"),
    ],
)  # fmt: skip
def test_a_count_made_0_or_below_names_its_symbol_value_and_what_is_valid(argv, message: str) -> None:
    """sweep and compare with --at k=0 said 'TPool count: ... got Zero 0' (a sympy class and
    a constructor's name); a swept count's error named no value."""
    done = run_cli(*argv)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr == f"patternalg {argv[0]}: error: {message}\n"


def test_sweep_of_an_axis_of_counts_reaching_0_names_the_value() -> None:
    from patternalg.algebra.grid import Axis
    from patternalg.errors import EvaluationError

    with pytest.raises(EvaluationError, match=r"^over=k: k counts threads, and k = 0 is not a positive integer"):
        sweep(["tpool_k(qsort)"], Axis("k", [2, 0], "list"), at={"x": 3})
    with pytest.raises(EvaluationError, match=r"^k = 0 makes the thread count of tpool_k\(\.\.\.\) 0"):
        sweep(["tpool_k(qsort)"], "x=1..4", at={"k": 0})


# --- probe L: a range reaching below x = 1 ---------------------------------------------------
@pytest.mark.parametrize("over", ["x=-5..5", "x=0.5..5", "x=0.01..5:lin"])
def test_below_x_1_each_stretch_s_winner_is_the_design_below_there(over: str) -> None:
    """Over x = -5..5 pipe(inc, nop) was named the winner on both sides of its own crossover
    (qsort has no value at x <= 0, and the stretch's winner was read there)."""
    found = compare(["pipe(inc, nop)", "qsort"], over=over)
    assert [i.winner for i in found.intervals] == ["qsort", "pipe(inc, nop)"]
    for i in found.intervals:
        inside = [v for v in np.linspace(i.start, i.end, 50)[1:-1]]
        values = found.values(np.array(inside))
        winner = found.terms.index(i.winner)
        assert np.all(values[winner] <= values.min(axis=0))


def test_a_range_where_a_design_has_no_value_is_compared_where_all_have_one() -> None:
    found = compare(["pipe(inc, nop)", "qsort"], over="x=-5..5")
    assert 0 < found.bounds[0] < 0.01 and found.bounds[1] == 5
    assert f"qsort has no value on part of x in [-5, 5]: compared over x in [{number_text(found.bounds[0])}, 5]" in found.notes
    result = run_cli("compare", "qsort", "inc", "--over", "x=-5..-1")
    assert result.returncode == 2 and result.stderr.splitlines() == [
        "patternalg compare: error: qsort: no value at every point of x in [-5, -1] that compare "
        "scanned: compare a range where the models' values are numbers"
    ]


def test_a_ratio_without_a_positive_time_names_whose_value_it_is() -> None:
    """Over x = 0.5..5 '(not a positive time)' was pinned on pipe(inc, nop), whose value is
    5422.97 ns, where qsort, the winner, is -517.085 ns."""
    first = compare(["pipe(inc, nop)", "qsort"], over="x=0.5..5").lines()[0]
    assert first.startswith("x in [0.5, 3.15949334")
    assert first.endswith(": qsort wins (others over it at the ends: pipe(inc, nop) (the winner is not a positive time there) .. x1)")


def test_a_design_without_a_value_inside_the_range_takes_no_part_there(tmp_path) -> None:
    """mid has no value on (300, 600), its ends do: compare named h the winner of
    [235.4, 760], where mid is below h wherever it has a value (sweep: 200 against 264.6 at
    x = 700), and said nothing of the gap (probe O). The stretches end where the gap does:
    h wins inside it, mid either side, and mid has no ratio in the gap."""
    models = tmp_path / "gap.toml"
    models.write_text('format = 1\n[models.mid]\nmodel = "sqrt((x-300)*(x-600))"\nunit = "ms"\n'
                      '[models.h]\nmodel = "10*sqrt(x)"\nunit = "ms"\n')  # fmt: skip
    result = run_cli("compare", "mid", "h", "--models", str(models), "--over", "x=200..760", "--format", "json")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert [i["winner"] for i in found["intervals"]] == ["h", "mid", "h", "mid"]
    gap = found["intervals"][2]
    assert gap["from"] == pytest.approx(300, rel=1e-8) and gap["to"] == pytest.approx(600, rel=1e-8)
    assert gap["ratio"]["mid"] == [None, None]
    text = run_cli("compare", "mid", "h", "--models", str(models), "--over", "x=200..760").stdout.splitlines()
    assert text[2] == "x in [299.9999999, 600]: h wins"  # its ends in the digits they are refined to
    assert any(n.startswith("mid has no value at x from about 300 to 599.8 (of x in [200, 760])") for n in found["notes"])


def test_a_gap_takes_no_part_in_the_region_map_and_each_gap_is_named(tmp_path) -> None:
    """Along one symbol a design in a gap takes no part and the others are compared, but the
    region map left those cells with no winner ('.'); and two gaps were noted as one span,
    over the values between them (probe U)."""
    models = tmp_path / "g.toml"
    models.write_text('format = 1\n[models.g5]\nmodel = "sqrt((p-3)*(p-6))*x"\nunit = "ns"\n'
                      '[models.g3]\nmodel = "200"\nunit = "ns"\n'
                      '[models.g4]\nmodel = "sqrt((x-200)*(x-300)*(x-500)*(x-700))/1000"\nunit = "ns"\n')  # fmt: skip
    found = run_cli("compare", "g5[p=n]", "g3", "--models", str(models), "--over", "n=1..10", "--over", "x=10..1000:5",
                    "--format", "json")  # fmt: skip
    cells = json.loads(found.stdout)["cells"]
    assert all(c["winner"] == "g3" for c in cells if 3 < c["n"] < 6), cells
    notes = run_cli("compare", "g4", "g3", "--models", str(models), "--over", "x=1..1000").stderr
    assert "g4 has no value at x from about 200 to 299.9 and from about 500.8 to 699.3 (of x in [1, 1000])" in notes
