"""Units in the decision commands (issue 11): sweep, compare, optimize, explore and plot
convert every atom to one unit before they compare or add anything, and state it.

The right answers come from the same question asked with the atom converted by hand: a
kernel of 0.004*x ms is the kernel 4000*x ns.
"""

from __future__ import annotations

import json

import pytest
from helpers import run_cli

from patternalg.algebra.grid import parse_axis
from patternalg.decisions.compare import compare
from patternalg.decisions.explore import explore
from patternalg.decisions.optimize import optimize
from patternalg.decisions.sweep import sweep
from patternalg.errors import UnitError
from patternalg.library.evaluate import explain
from patternalg.library.model_library import AtomicModel, ModelLibrary
from patternalg.syntax.arith import number_text
from patternalg.syntax.symbols import x

QSORT = 1034.17
BUILTIN = ModelLibrary.builtin()
#: the kernel as measured (ms) and as converted by hand (ns)
IN_MS = BUILTIN.merged(ModelLibrary([AtomicModel("kernel", 0.004 * x, unit="ms")]))
IN_NS = BUILTIN.merged(ModelLibrary([AtomicModel("kernel", 4000 * x, unit="ns")]))
NOTE = "converted to ns: kernel (ms)"


@pytest.fixture
def kernel_ms(tmp_path):
    path = tmp_path / "ms.toml"
    path.write_text('[models.kernel]\nmodel = "0.004 * x"\nunit = "ms"\n')
    return str(path)


def test_compare_crosses_where_the_hand_converted_kernel_does():
    designs = ["kernel", "qsort"]
    mixed = compare(designs, over=parse_axis("x=1..1e6:log"), library=IN_MS)
    by_hand = compare(designs, over=parse_axis("x=1..1e6:log"), library=IN_NS)
    (cross,), (expected,) = mixed.crossovers, by_hand.crossovers
    # 4000*x = 1034.17*x*log2(x) at log2(x) = 4000/1034.17; raw ms (0.004) would cross at x = 1
    assert cross.value == pytest.approx(expected.value, rel=1e-12)
    assert cross.value == pytest.approx(2 ** (4000 / QSORT), rel=1e-9)
    assert cross.designs == ("qsort", "kernel")  # the sort is faster below, the kernel above
    assert mixed.unit == "ns" and mixed.notes == (NOTE,)
    assert cross.model_value == pytest.approx(4000 * cross.value, rel=1e-9)
    in_ms = compare(designs, over=parse_axis("x=1..1e6:log"), library=IN_MS, unit="ms")
    assert in_ms.crossovers[0].value == pytest.approx(cross.value, rel=1e-12)  # x is unit-free
    assert in_ms.crossovers[0].model_value == pytest.approx(cross.model_value / 1e6, rel=1e-9)
    assert in_ms.to_json()["unit"] == "ms"
    assert f"both {number_text(cross.model_value)} ns there" in mixed.lines()[-2]
    assert f"{number_text(cross.model_value)} ns" in mixed._repr_html_()


def test_sweep_adds_milliseconds_to_nanoseconds_converted():
    grid = [parse_axis("x=1000,2000")]
    mixed = sweep(["seq(kernel, qsort)"], grid, library=IN_MS)
    by_hand = sweep(["seq(kernel, qsort)"], grid, library=IN_NS)
    assert mixed.values[0].tolist() == pytest.approx(by_hand.values[0].tolist(), rel=1e-12)
    assert mixed.values[0][0] == pytest.approx(4e6 + QSORT * 1000 * 9.965784284662087, rel=1e-12)
    assert mixed.header()[1] == "seq(kernel, qsort) [ns]" and mixed.notes == (NOTE,)
    assert "<th>seq(kernel, qsort) [ns]</th>" in mixed._repr_html_()
    alone = sweep(["kernel"], grid, library=IN_MS)  # one atom: its own unit, no conversion
    assert alone.unit == "ms" and alone.values[0].tolist() == [4.0, 8.0] and alone.notes == ()


def test_optimize_and_explore_rank_converted_values():
    term, budget = "pipe(kernel, tpool_a(qsort))", ["a<=8"]
    mixed = optimize(term, budgets=budget, at={"x": 16000}, library=IN_MS)
    by_hand = optimize(term, budgets=budget, at={"x": 16000}, library=IN_NS)
    assert mixed.best == by_hand.best and mixed.unit == "ns" and mixed.notes == (NOTE,)
    assert mixed.best.value == pytest.approx(64e6) and mixed.best.bottleneck == "kernel"
    in_s = optimize(term, budgets=budget, at={"x": 16000}, library=IN_MS, unit="s")
    assert in_s.best.value == pytest.approx(0.064) and in_s.header()[2] == "value [s]"
    designs = explore("pipe(kernel, qsort)", threads=4, at={"x": 16000}, library=IN_MS)
    expected = explore("pipe(kernel, qsort)", threads=4, at={"x": 16000}, library=IN_NS)
    assert [d.term for d in designs.designs] == [d.term for d in expected.designs]
    assert [d.value for d in designs.designs] == pytest.approx(
        [d.value for d in expected.designs], rel=1e-12
    )
    assert designs.unit == "ns" and designs.header()[2] == "value [ns]"


def test_a_time_is_not_compared_with_bytes():
    traffic = BUILTIN.merged(ModelLibrary([AtomicModel("traffic", 8 * x, unit="bytes")]))
    with pytest.raises(UnitError, match=r"inc \(ns, a time\) with traffic \(bytes"):
        compare(["inc", "traffic"], library=traffic)


def test_the_commands_state_and_take_the_unit(kernel_ms):
    data = json.loads(
        run_cli("compare", "kernel", "qsort", "--models", kernel_ms, "--format", "json").stdout
    )
    assert data["unit"] == "ns" and data["notes"] == [NOTE]
    assert data["crossovers"][0]["value"] == pytest.approx(2 ** (4000 / QSORT), rel=1e-9)
    text = run_cli("sweep", "seq(kernel, inc)", "--over", "x=4,8", "--models", kernel_ms, "--unit", "us")
    assert text.stdout.splitlines()[0].startswith("x  seq(kernel, inc) [us]")
    assert text.stdout.splitlines()[1].split()[1] == number_text((16000 + 536.185 * 4) / 1000)
    assert text.stderr == "note: converted to us: kernel (ms), inc (ns)\n"
    best = run_cli(
        "optimize", "pipe(kernel, tpool_a(qsort))", "--budget", "a<=8", "--at", "x=16000",
        "--models", kernel_ms, "--unit", "ms", "--top", "1",
    ).stdout  # fmt: skip
    assert best.startswith("best: a=4: 64 ms (bottleneck: kernel)")


@pytest.mark.parametrize(
    "args, message",
    [
        (["sweep", "inc", "--over", "x=1,2", "--unit", "xyz"], "--unit: 'xyz' is not a unit"),
        (["compare", "inc", "nop", "--unit", "m"], "--unit m: a length, but inc is in ns"),
        (
            ["explore", "pipe(inc, nop)", "--threads", "2", "--unit", "bytes"],
            "--unit bytes: bits, but inc is in ns",
        ),
    ],
)
def test_a_unit_that_does_not_fit_is_one_line_and_exit_2(args, message):
    result = run_cli(*args)
    assert result.returncode == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert message in line


def test_every_value_of_an_explanation_carries_its_unit():
    result = explain("pipe(kernel, tpool_4(qsort))", IN_MS, x=16000, unit="ms")
    lines = result.lines()
    assert lines[0].startswith("pipe  =  ") and "->  64 ms at the point" in lines[0]
    at_point = [line for line in lines if "at the point" in line.split("[")[0]]
    assert len(at_point) == 4 and all(" ms at the point" in line for line in at_point)
    # tpool_4(qsort) at 16000: a number, not 4136680*log2(16000)
    shown = lines[2].split("->")[1].split()
    assert float(shown[0]) == pytest.approx(QSORT * 16000 * 13.965784284662087 / 4 / 1e6)
    assert shown[1:] == ["ms", "at", "the", "point"]
    assert result.header()[2] == "at the point [ms]"
    assert [float(row[2]) for row in result.rows()][:2] == pytest.approx([64, 64], rel=1e-12)
    data = json.loads(
        run_cli("eval", "seq(qsort, nop)", "--explain", "--at", "x=2", "--format", "json").stdout
    )
    assert data["explain"][0].endswith("->  7491.31 ns at the point")
    assert data["explain"][2].startswith("  nop  =  5422.97 ns")


def test_plotted_atoms_share_the_unit_of_their_values(tmp_path, kernel_ms):
    pytest.importorskip("matplotlib")
    from patternalg.cli import main

    out = tmp_path / "atoms.svg"
    argv = ["plot", "--atoms", "kernel,inc", "--models", kernel_ms, "--over", "x=1..1e3"]
    assert main([*argv, "--unit", "us", "-o", str(out)]) == 0
    svg = out.read_text()
    assert svg.count("time [us]") == 2 and "time [ms]" not in svg
    assert ">4*x<" in svg  # the kernel's model in us: 0.004 ms = 4 us per element


def test_decisions_say_where_the_models_do_not_hold():
    fitted = BUILTIN.merged(
        ModelLibrary([AtomicModel("kernel", 4000 * x, x_range=(1000.0, 32000.0))])
    )
    swept = sweep(["seq(kernel, inc)"], [parse_axis("x=100..1e4:3")], library=fitted)
    assert swept.notes == (
        "x = 100 is outside the measured range of kernel (x in [1000, 32000]): extrapolated",
    )  # 10000 is inside: only the end that leaves the range is named
    inside = compare(["kernel", "qsort"], over=parse_axis("x=1000..32000"), library=fitted)
    assert inside.notes == ()
    small = sweep(["qsort"], [parse_axis("x=0.5,2")])
    assert small.values[0][0] == pytest.approx(-QSORT / 2)
    assert small.notes == (
        "x = 0.5 is below 1: x counts input elements, the models describe x >= 1",
        "qsort: values down to -517.085 ns are negative: no time can be; the models do not hold there",
    )
    best = optimize("pipe(kernel, tpool_a(qsort))", budgets=["a<=8"], at={"x": 64000}, library=fitted)
    assert best.notes == (
        "x = 64000 is outside the measured range of kernel (x in [1000, 32000]): extrapolated",
    )
    ranked = explore("pipe(kernel, qsort)", threads=2, at={"x": 2000}, library=fitted)
    assert ranked.notes == ()


def test_designs_ranked_by_growth_state_the_unit_of_their_models():
    ranked = explore("pipe(kernel, qsort)", threads=2, library=IN_MS)
    assert ranked.designs[0].value is None and "4000.0*x" in ranked.designs[-1].model
    assert ranked.lines()[-1] == "models in ns, ranked by their growth in x"
    at_a_point = explore("pipe(kernel, qsort)", threads=2, at={"x": 8}, library=IN_MS)
    assert at_a_point.lines()[-1].endswith("(complete: all that the rewrites reach through designs within 2 threads)")


def test_a_binding_for_one_term_only(tmp_path, capsys):
    """``--at phi=2`` binds the one term that has phi; a symbol no term has is one error line."""
    from patternalg.cli import main

    models = tmp_path / "phi.toml"
    models.write_text('[models.k]\nmodel = "x*phi"\n')
    lib = ["--models", str(models), "--format", "json"]
    assert main(["compare", "k", "seq(qsort, inc)", "--at", "phi=2", "--over", "x=1..8", *lib]) == 0
    crossings = json.loads(capsys.readouterr().out)["crossovers"]
    # 2x = 1034.17 x log2(x) + 10 x  has no root for x >= 1: k wins everywhere, no crossover
    assert crossings == []
    assert main(["explore", "pipe(k, inc)", "--threads", "2", "--at", "phi=2", "--at", "x=4", *lib]) == 0
    best = json.loads(capsys.readouterr().out)["designs"][0]
    # 2 threads: tpool_2(seq(k, inc)) = (phi*x + 536.185*x) / 2 at x = 4, phi = 2
    assert (best["term"], best["value"]) == ("tpool_2(seq(k, inc))", pytest.approx((8 + 2144.74) / 2))
    explore = ["explore", "pipe(k, inc)", "--threads", "2", "--at", "x=4"]
    for command in (["compare", "k", "inc"], explore):
        assert main([*command, "--at", "psi=2", *lib]) == 2
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and "psi" in err and "phi" in err
