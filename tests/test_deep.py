"""Every command on terms 10,000 deep, at a point and on grids, and values at a point exact to
the digits printed (issue 29, findings 2, 10, 15 and 16): one iterative fold, no sympy
expression as deep as the term, no whole term lambdified."""

from __future__ import annotations

import math
import time
from fractions import Fraction
from pathlib import Path

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patternalg.algebra.pointwise import at_point
from patternalg.cli import main
from patternalg.library.model_library import ModelLibrary
from patternalg.syntax.parser import parse

pytestmark = pytest.mark.long  # terms thousands deep in every command: the long checks

LIB = ModelLibrary.builtin()
DEPTH = 10_000


def nested(construct: str, depth: int) -> str:
    """``construct`` nested ``depth`` deep: ``pipe(qsort, pipe(qsort, ... inc))``."""
    if construct.startswith("tpool"):
        return f"{construct}(" * depth + "qsort" + ")" * depth
    return f"{construct}(qsort, " * depth + "inc" + ")" * depth


def flat(construct: str, stages: int) -> str:
    """A flat ``construct(qsort, inc, nop, qsort, ...)`` of ``stages`` stages."""
    return f"{construct}(" + ", ".join(("qsort", "inc", "nop")[i % 3] for i in range(stages)) + ")"


def pools_in_pipes(depth: int) -> str:
    """``pipe(tpool_2(pipe(tpool_2(inc), nop)), nop)...`` ``depth`` deep: every level halves the
    stage's coefficient (its forms' hashes repeated every 61 levels: 47 s to ``eval``)."""
    term = "inc"
    for level in range(depth):
        term = f"pipe({term}, nop)" if level % 2 else f"tpool_2({term})"
    return term


def mapreduces(depth: int) -> str:
    """``mapReduce_{2,n}^{x,16}(..., shuffle_{2,n}^{16}, map_grppi)`` nested ``depth`` deep."""
    term = "map_grppi"
    for _ in range(depth):
        term = f"mapReduce_{{2,n}}^{{x,16}}({term}, shuffle_{{2,n}}^{{16}}, map_grppi)"
    return term


#: depth of the terms on grids: far beyond main's limits (sweep failed at 100, eval at 400),
#: and the suite's time small (a grid command at 10,000 takes seconds)
GRID_DEPTH = 2_000

#: (arguments, the term) for every command, every construct among them: 10,000 deep at a
#: point, 2,000 deep on grids, 1,000-stage flat pipes and seqs, mapReduces hundreds deep
CASES = [
    (["eval", "--at", "x=1024"], nested("pipe", DEPTH)),
    (["eval", "--at", "x=1024", "--at", "n=2"], nested("tpool_n", DEPTH)),
    (["eval", "--at", "x=1024", "--semantics", "exact"], nested("seq", DEPTH)),
    (["eval"], pools_in_pipes(DEPTH)),
    (["eval", "--at", "x=1024", "--explain"], nested("pipe", GRID_DEPTH // 2)),
    (["eval", "--at", "x=1024", "--at", "n=4"], mapreduces(200)),
    (["sweep", "--over", "x=1..1e6:8"], nested("pipe", GRID_DEPTH)),
    (["sweep", "--over", "n=1..3", "--at", "x=1024"], nested("tpool_n", GRID_DEPTH)),
    (["sweep", "--over", "x=1..10"], flat("pipe", 1000)),
    (["sweep", "--over", "x=2..64:4", "--at", "n=4"], mapreduces(200)),
    (["compare", "qsort", "--over", "x=1..1e6"], nested("pipe", GRID_DEPTH)),
    (["compare", "qsort", "--over", "x=1..1e6"], flat("seq", 1000)),
    (["optimize", "--budget", "n<=4", "--at", "x=1024"], "seq(qsort, " * GRID_DEPTH + "tpool_n(qsort)" + ")" * GRID_DEPTH),
    (["optimize", "--budget", "n<=4", "--at", "x=1024"], mapreduces(300)),
]


@pytest.mark.parametrize(("args", "term"), CASES, ids=lambda v: v[0] if isinstance(v, list) else "")
def test_every_command_folds_deep_terms(args, term, capsys) -> None:
    start = time.monotonic()
    status = main([args[0], term, *args[1:]])
    captured = capsys.readouterr()
    assert status == 0, captured.err[-500:]
    assert "Traceback" not in captured.err and captured.out
    assert time.monotonic() - start < 60  # some seconds; on main: recursion, or minutes


def test_optimizing_pools_nested_past_a_double_says_so(capsys) -> None:
    # n = 2, 3 and 4 all read 0 ns in doubles (4^-2000 is 1e-1204), and n = 2 was "best"
    assert main(["optimize", nested("tpool_n", GRID_DEPTH), "--budget", "n<=4", "--at", "x=1024"]) == 2
    assert "the model's value is below a double's range at n=2" in capsys.readouterr().err


def test_plot_of_a_deep_pipe(tmp_path: Path, capsys) -> None:
    out = tmp_path / "deep.png"
    assert main(["plot", nested("pipe", 150), "--over", "x=1..1e6:16", "-o", str(out)]) == 0
    assert out.stat().st_size > 0


@pytest.mark.parametrize("construct", ["seq", "tpool_2"])
def test_deep_values_at_a_point_are_their_closed_forms(construct) -> None:
    term = parse(nested(construct, DEPTH))
    value = at_point(term, LIB, {"x": 1024}).value
    qsort, inc = Fraction(1034.17) * 1024 * 10, Fraction(536.185) * 1024
    if construct == "tpool_2":  # below a double's range: the value is kept beyond it
        tiny = at_point(term, LIB, {"x": 1024}).expr
        assert float(tiny * sympy.Integer(2) ** DEPTH) == float(qsort)
    else:
        assert value == float(DEPTH * qsort + inc)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(count=st.integers(min_value=1, max_value=10_000), atom=st.sampled_from(["inc", "nop", "qsort"]))
def test_a_long_sum_at_a_point_is_exact_to_the_digits_printed(count, atom, capsys) -> None:
    term = "seq(" + ", ".join([atom] * count) + ")" if count > 1 else atom
    assert main(["eval", term, "--at", "x=1024"]) == 0
    printed = capsys.readouterr().out.splitlines()[0]
    assert printed.endswith(" ns")
    coefficient = {"inc": Fraction(536.185) * 1024, "nop": Fraction(5422.97),
                   "qsort": Fraction(1034.17) * 1024 * 10}[atom]  # fmt: skip
    exact = count * coefficient  # the doubles' exact values, summed exactly
    assert float(printed.split()[0]) == float(f"{float(exact):.15g}")


def test_the_ten_thousand_increments_of_the_issue(capsys) -> None:
    assert main(["eval", "seq(" + ", ".join(["inc"] * 10_000) + ")", "--at", "x=1024"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "5490534400 ns"


HUGE = [  # (arguments, the value printed, or a fragment of the one error line)
    (["sweep", "tpool_n(qsort)", "--over", "n=1..2", "--at", "x=100000000000000000000"], None),
    (["optimize", "tpool_n(qsort)", "--budget", "n<=4", "--at", "x=10^308"], "no finite value"),
    (["optimize", "tpool_n(qsort)", "--budget", "n<=4", "--at", "x=10^400"], "beyond a double"),
    (["sweep", "quad", "--over", "k=1..2", "--at", "x=10^80"], None),
    (["eval", "quad", "--at", "x=10^80", "--at", "k=1"], "1.0e+320 ns"),
    (["eval", "qsort", "--at", "x=10^308"], "1.05811502039002e+314 ns"),
]


@pytest.mark.parametrize(("args", "expected"), HUGE)
def test_huge_values_give_the_value_or_one_line(args, expected, tmp_path: Path, capsys) -> None:
    models = tmp_path / "quad.toml"
    models.write_text('[models.quad]\nmodel = "k * x^4"\n')
    status = main([*args, "--models", str(models)])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    if status == 2:
        (line,) = captured.err.splitlines()
        assert expected is not None and expected in line
    else:
        assert status == 0 and captured.out
        assert expected is None or expected in captured.out


def test_the_exact_value_beyond_a_double_keeps_its_digits() -> None:
    value = at_point(parse("qsort"), LIB, {"x": "10^308"}).expr
    exact = 1034.17 * 1e3 * math.log2(10) * 308  # 1034.17 * 10^308 * log2(10^308) / 10^305
    assert float(value / 10**305) == pytest.approx(exact, rel=1e-14)


def test_more_threads_than_python_prints_are_counted_by_their_digits(capsys) -> None:
    """``tpool_3`` 10,000 deep runs 3^10,000 threads: 4,772 digits, more than Python turns into
    text (a ValueError traceback from every machine note and from explore's budget)."""
    term = "tpool_3(" * DEPTH + "qsort" + ")" * DEPTH
    assert main(["compare", term, "inc", "--over", "x=1..1e6", "--cores", "2"]) == 0
    err = capsys.readouterr().err
    assert "runs a 4,772-digit integer threads on 2 cores" in err and "Traceback" not in err
    assert main(["explore", term, "--cores", "2", "--at", "x=1024"]) == 2
    assert "already uses a 4,772-digit integer threads, more than --threads 2" in capsys.readouterr().err


def test_stages_that_cross_nested_past_the_maximum_s_stages_are_one_line(capsys) -> None:
    """Pipes of pools of n threads 1,000 deep whose stages cross at n = 2 keep one stage per
    level that no other is above for every n >= 1: more than 128 is one line (minutes
    before); bound, it is a number (at n = 1, 1,001 incs one after another)."""
    term = "inc"
    for _ in range(1000):
        term = f"pipe(inc, tpool_n(seq({term}, inc)))"
    assert main(["eval", term, "--semantics", "exact"]) == 2
    err = capsys.readouterr().err
    assert "a maximum of more than 128 stages that cannot be ordered" in err and "--at n=2" in err
    assert main(["eval", term, "--semantics", "exact", "--at", "n=1", "--at", "x=1024"]) == 0
    assert capsys.readouterr().out == "549602493.44 ns\n"


@pytest.mark.parametrize("semantics", [["--semantics", "asymptotic"], ["--cores", "2"]])
def test_stages_that_cross_nested_1000_deep_end_in_one_line_under_every_semantics(semantics, capsys) -> None:
    """The same pipes 1,000 deep asymptotically and on 2 cores: each level nests its stage one
    deeper, too deep to build, said in one line. 53 s (asymptotic: sympy's evaluating Max
    took factor_terms of every deep difference) and 145 s (2 cores: stages equal at n = 1
    but for the rounding of their sums were all kept) before; 2 and 6 s now."""
    term = "inc"
    for _ in range(1000):
        term = f"pipe(inc, tpool_n(seq({term}, inc)))"
    assert main(["eval", term, *semantics]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == err.count("note:") + 1 and "nests too deeply" in err and "--at n=2" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("semantics", [["--semantics", "exact"], ["--cores", "2"]])
def test_pools_of_a_free_count_nested_1000_deep_are_their_bodies(semantics, capsys) -> None:
    """A count is at least 1, bare (n) or as a whole (n*m): each pool of a pipe of pools
    1,000 deep is below the inc beside it, and the pipe is inc (on 2 cores, which its
    threads exceed: its 501 incs over the cores). Before counts were >= 1, n*m kept a stage
    per level, more than 128."""
    expected = 536.185 if semantics[0] == "--semantics" else 536.185 * 501 / 2
    for count in ("n", "{n*m}"):
        term = "inc"
        for level in range(1000):
            term = f"pipe({term}, inc)" if level % 2 else f"tpool_{count}({term})"
        assert main(["eval", term, *semantics, "-q"]) == 0
        out = capsys.readouterr().out
        assert out.endswith("*x\n") and float(out[: -len("*x\n")]) == pytest.approx(expected, rel=1e-12)


def test_a_thread_count_too_deep_to_print_is_named_so(capsys) -> None:
    """A pool in n at each of 5,000 levels nests its count of threads 5,000 deep, more than
    is printed: at a point the note counts the point's threads (3^5,000: its length); swept
    over n, it says the count is too deep to print (the value at the point had come with an
    error that asked for the point it had)."""
    term = "inc"
    for level in range(DEPTH):
        term = f"pipe({term}, inc)" if level % 2 else f"tpool_n({term})"
    assert main(["eval", term, "--cores", "2", "--at", "n=3", "--at", "x=1024"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "1372908126.72 ns\n"  # 5,001 incs of 549,053.44 ns on 2 cores
    assert "runs a 2,386-digit integer threads on 2 cores" in captured.err
    assert main(["sweep", term, "--over", "n=1..3", "--at", "x=1024", "--cores", "2"]) == 0
    assert "runs (a count nested too deep to print) threads" in capsys.readouterr().err
