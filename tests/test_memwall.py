"""The memory-wall form (paper 003): eq. (15), Table 1, the CSA-M fit, the CLI, composition."""

from __future__ import annotations

import json

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from patternalg import ModelLibrary, evaluate, parse
from patternalg.cli import main
from patternalg.errors import MeasurementError, ModelFileError
from patternalg.forms.memwall import Memwall, csa, memwall_expr, speedup_expr
from patternalg.forms.memwall.csa import anneal
from patternalg.forms.memwall.fit import fit_amdahl_f, fit_memwall, speedups
from patternalg.forms.synthetic import memwall_grid
from patternalg.measurements import read
from patternalg.syntax.symbols import log2, n, p, phi, x


def build_expr(table: dict, where: str) -> sympy.Expr:
    return Memwall.from_table(table, where).expr


TABLE1 = {name: model for name, model in ModelLibrary.builtin().items() if model.form == "memwall"}


def _params(model) -> tuple[float, float, float, float]:
    spec = dict(model.spec)
    return (spec["f"], spec["k"], spec["m1"], spec["m2"])


# --- the closed form and Table 1 -----------------------------------------------------------------


def test_table1_has_the_25_programs_with_their_mse() -> None:
    assert len(TABLE1) == 25
    assert {"parsec_blackscholes", "splash2x_water_spatial", "splash2x_lu_cb"} <= set(TABLE1)
    fit = dict(TABLE1["parsec_x264"].fit)
    assert (fit["mse"], fit["amdahl_mse"], fit["gain_percent"]) == (0.6169, 4.6452, 86.72)
    assert _params(TABLE1["parsec_x264"]) == (0.9771, 1.6662, 0.0087, 0.2638)


@pytest.mark.parametrize("name", sorted(TABLE1))
def test_s1_is_one_for_every_table1_parameter_set(name: str) -> None:
    model = TABLE1[name]
    assert model.expr.xreplace({p: 1}) == 1
    assert speedup_expr(*_params(model)).xreplace({p: 1}) == 1


@settings(max_examples=50, deadline=None)
@given(f=st.floats(0, 1), k=st.floats(0, 10), m1=st.floats(0, 1), m2=st.floats(0, 1))
def test_s1_is_exactly_one_for_any_parameters(f: float, k: float, m1: float, m2: float) -> None:
    s1 = speedup_expr(f, k, m1, m2).xreplace({p: 1})
    assert s1.is_number and float(s1) == 1.0  # exactly, not to a tolerance


@pytest.mark.parametrize("name", sorted(TABLE1))
def test_table1_gain_follows_from_its_rounded_mses(name: str) -> None:
    # the printed gain is 100*(1 - mse/amdahl_mse) for MSEs within the printed rounding
    fit = dict(TABLE1[name].fit)
    half = 0.00005
    low = 100 * (1 - (fit["mse"] + half) / (fit["amdahl_mse"] - half))
    high = 100 * (1 - (fit["mse"] - half) / (fit["amdahl_mse"] + half))
    assert low - 0.005 <= fit["gain_percent"] <= high + 0.005


def test_closed_form_matches_the_numeric_model_on_the_paper_grid() -> None:
    grid_p, grid_phi = memwall_grid()
    for name in ("parsec_canneal", "splash2x_radiosity", "parsec_dedup"):
        params = _params(TABLE1[name])
        numeric = sympy.lambdify((p, phi), speedup_expr(*params), "numpy")(grid_p, grid_phi)
        np.testing.assert_allclose(numeric, speedups(np.array([params]), grid_p, grid_phi)[0])


def test_closed_form_by_hand() -> None:
    # f=0.99, k=2, m1=0.05, m2=0.5, p=8, phi=2: rho=5, mu_1=0.55, mu_8=0.1125
    # S = (0.45 + 5*0.55) / max((0.8875 + 0.5625)*(0.01 + 0.99/8), 5*0.1125) = 3.2 / 0.5625
    value = speedup_expr(0.99, 2.0, 0.05, 0.5).xreplace({p: 8, phi: 2})
    assert float(value) == pytest.approx(3.2 / 0.5625)
    assert memwall_expr(1, 0, 0, 0, 7 * x).xreplace({p: 7}) == x


def test_without_memory_effects_it_is_amdahl() -> None:
    # m1 = m2 = 0: no memory instructions, eq. (15) reduces to Amdahl's eq. (5)
    s = speedup_expr(sympy.Rational(9, 10), 3, 0, 0)
    assert sympy.simplify(s - 1 / (sympy.Rational(1, 10) + sympy.Rational(9, 10) / p)) == 0


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"f": 0.9, "k": 1, "m1": 0.1}, "m.w: missing key 'm2'"),
        ({"f": 1.2, "k": 1, "m1": 0.1, "m2": 0.1}, "m.w.f: 1.2 is outside [0.0, 1.0]"),
        ({"f": 0.9, "k": -1, "m1": 0.1, "m2": 0.1}, "m.w.k: -1 is outside [0.0, inf]"),
        ({"f": 0.9, "k": 1, "m1": 0.1, "m2": 0.1, "t1": "x/p"}, "m.w.t1: the 1-core time"),
        ({"f": 0.9, "k": 1, "m1": 0.1, "m2": 0.1, "t2": 1}, "m.w.t2: unknown key"),
    ],
)
def test_model_file_errors_name_the_key(spec: dict[str, object], message: str) -> None:
    with pytest.raises(ModelFileError) as error:
        build_expr(spec, "m.w")
    assert str(error.value).startswith(message)


def test_t1_scales_the_relative_time_and_round_trips(tmp_path) -> None:
    text = (
        '[models.w]\nform = "memwall"\nf = 0.9\nk = 2.0\nm1 = 0.1\nm2 = 0.3\n'
        't1 = "3 * x * log2(x)"\n'
    )
    library = ModelLibrary.from_toml_text(text)
    assert library["w"].expr.xreplace({p: 1}) == 3 * x * log2(x)
    library.save(tmp_path / "w.toml")
    assert ModelLibrary.from_file(tmp_path / "w.toml")["w"].expr == library["w"].expr


# --- composition ----------------------------------------------------------------------------------


def test_pipe_of_memwall_atoms_keeps_phi_symbolic() -> None:
    lib = ModelLibrary.builtin()
    result = evaluate(parse("pipe(parsec_canneal[p=8], splash2x_fft[p=16])"), lib, "exact")
    assert result.free_symbols == {phi}
    canneal = 1 / speedups(np.array([_params(TABLE1["parsec_canneal"])]), 8.0, 1.5)[0, 0]
    fft = 1 / speedups(np.array([_params(TABLE1["splash2x_fft"])]), 16.0, 1.5)[0, 0]
    assert float(result.xreplace({phi: 1.5})) == pytest.approx(max(canneal, fft))


def test_tpool_of_memwall_atom_with_both_resources_bound() -> None:
    lib = ModelLibrary.builtin()
    result = evaluate(parse("tpool_n(parsec_dedup[p=4, phi=1.5])"), lib)
    dedup = 1 / speedups(np.array([_params(TABLE1["parsec_dedup"])]), 4.0, 1.5)[0, 0]
    assert float(result.xreplace({n: 2})) == pytest.approx(dedup / 2)


# --- CSA-M and the fit ---------------------------------------------------------------------


def test_csa_is_reproducible_with_a_seed() -> None:
    def energy(states: np.ndarray) -> np.ndarray:
        return np.abs(states - [0.2, 7.0]).sum(axis=1)

    first = anneal(energy, [(0, 1), (0, 10)], iterations=300, seed=5)
    again = anneal(energy, [(0, 1), (0, 10)], iterations=300, seed=5)
    other = anneal(energy, [(0, 1), (0, 10)], iterations=300, seed=6)
    assert np.array_equal(first.x, again.x) and first.energy == again.energy
    assert not np.array_equal(first.x, other.x)
    assert first.evaluations == 10 * 301


@pytest.mark.parametrize("block", [1, 7])
def test_csa_draws_in_blocks_as_one_at_a_time(block: int, monkeypatch) -> None:
    """Random draws are made for a block of iterations at once, in the order the
    iterations would draw them: the run does not depend on the block size."""
    grid_p, grid_phi = memwall_grid(cores=8)
    measured = speedups(np.array([_params(TABLE1["parsec_dedup"])]), grid_p, grid_phi)[0]
    fit = fit_memwall(grid_p, grid_phi, measured, iterations=600, seed=3)
    monkeypatch.setattr(csa, "_BLOCK", block)
    assert fit_memwall(grid_p, grid_phi, measured, iterations=600, seed=3) == fit


@pytest.mark.parametrize("name", ["parsec_dedup", "splash2x_radiosity"])
def test_csa_recovers_table1_parameters_from_noise_free_grid(name: str) -> None:
    grid_p, grid_phi = memwall_grid()
    truth = _params(TABLE1[name])
    measured = speedups(np.array([truth]), grid_p, grid_phi)[0]
    fit = fit_memwall(grid_p, grid_phi, measured, iterations=3000, seed=2)
    assert fit.mse < 1e-4
    assert fit.f == pytest.approx(truth[0], abs=0.01)
    assert fit.amdahl_mse > 100 * fit.mse and fit.gain > 99
    again = fit_memwall(grid_p, grid_phi, measured, iterations=3000, seed=2)
    assert again == fit


def test_amdahl_f_fit_is_exact() -> None:
    cores = np.arange(1.0, 25.0)
    f, mse = fit_amdahl_f(cores, 1 / (0.03 + 0.97 / cores))
    assert f == pytest.approx(0.97, abs=1e-8) and mse < 1e-15


def test_no_gain_is_claimed_or_lost_when_amdahl_fits_exactly() -> None:
    # pure Amdahl data (k = 0: no memory wall): Amdahl's fit is exact to rounding, the
    # annealed memwall fit nearly so; the ratio of the two rounding errors is no gain
    grid_p, grid_phi = memwall_grid(cores=8, frequencies=(1.2, 2.4))
    fit = fit_memwall(grid_p, grid_phi, 1 / (0.1 + 0.9 / grid_p), iterations=300, seed=1)
    assert 0 < fit.amdahl_mse < 1e-20 < fit.mse  # 100*(1 - mse/amdahl_mse) would be -1e25 %
    assert fit.gain == 0.0


# --- the fit command -----------------------------------------------------------------------


def _grid_csv(tmp_path, params, *, times: bool, frequencies: bool) -> str:
    grid_p, grid_phi = memwall_grid(cores=8, frequencies=(1.2, 1.8, 2.4))
    s = speedups(np.array([params]), grid_p, grid_phi)[0]
    header = "kernel,p," + ("f_cpu,f_mem," if frequencies else "phi,")
    header += "time" if times else "speedup"
    rows = []
    for a, b, c in zip(grid_p.tolist(), grid_phi.tolist(), s.tolist(), strict=True):
        ratio = f"{b * 1.6!r},1.6" if frequencies else f"{b!r}"
        value = 10.0 / c if times else c
        rows += [
            f"demo,{a:g},{ratio},{value!r}",
            f"demo,{a:g},{ratio},{value * 1.001!r}",
            f"demo,{a:g},{ratio},{value * 0.999!r}",
        ]  # repetitions: the median is exact
    path = tmp_path / "w.csv"
    path.write_text("\n".join([header, *rows]) + "\n")
    return str(path)


@pytest.mark.parametrize(("times", "frequencies"), [(True, True), (False, False)])
def test_fit_json_reports_mse_and_amdahl_mse(
    tmp_path, capsys, times: bool, frequencies: bool
) -> None:
    path = _grid_csv(tmp_path, (0.95, 2.0, 0.05, 0.4), times=times, frequencies=frequencies)
    out = tmp_path / "m.toml"
    args = ["fit", path, "--form", "memwall", "--iterations", "1500", "--seed", "3"]
    assert main([*args, "--format", "json", "--out", str(out)]) == 0
    (record,) = json.loads(capsys.readouterr().out)
    assert {"kernel", "form", "model", "parameters", "mse", "amdahl_mse"} <= set(record)
    assert set(record["parameters"]) == {"f", "k", "m1", "m2"}
    assert record["mse"] < 1e-3 < record["amdahl_mse"]
    model = ModelLibrary.from_file(out)["demo"]
    assert model.expr.xreplace({p: 1}) == 1 and model.form == "memwall"


@pytest.mark.parametrize(
    ("header", "rows", "message"),
    [
        (
            "p,time",
            ["1,2"],
            "w.csv:1: missing column 'phi' (or 'f_cpu' and 'f_mem'); found only: p, time",
        ),
        ("p,phi", ["1,2"], "w.csv:1: missing column 'speedup' (or 'time')"),
        ("p,phi,time", ["1,1.5,2", "0,1.5,1"], "w.csv:3: column 'p': 0 is not valid"),
        ("p,phi,time", ["1,1.5,2", "2,-1,1"], "w.csv:3: column 'phi': -1 is not valid"),
        ("p,phi,time", ["1,1.5,2", "2,1.5,x"], "w.csv:3: column 'time': 'x' is not a number"),
        (
            "p,phi,time",
            ["1,1.5,2", "2,1.5,1", "2,2.0,1.2"],
            "kernel 'w', column 'p': no 1-core time at phi = 2 (rows at lines 4)",
        ),
        ("p,phi,speedup", ["1,1.5,1", "1,2.0,1"], "column 'p': 1 distinct value(s)"),
    ],
)
def test_bad_measurements_give_one_clear_line(
    tmp_path, capsys, header: str, rows: list[str], message: str
) -> None:
    path = tmp_path / "w.csv"
    path.write_text("\n".join([header, *rows]) + "\n")
    assert main(["fit", str(path), "--form", "memwall", "--iterations", "10"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_measurement_errors_are_typed(tmp_path) -> None:
    path = tmp_path / "w.csv"
    path.write_text("p,phi,time\n2,1.5,1\n3,1.5,0.5\n")
    with pytest.raises(MeasurementError):
        Memwall.fit_each(read(path), iterations=10)


def test_pipe_of_a_memwall_atom_and_a_time_stays_undecided() -> None:
    # x-free resource models against a constant: the order depends on p and phi, so the
    # asymptotic pipe keeps the maximum, and does so without sympy's slow simplify
    lib = ModelLibrary.builtin()
    term = parse("pipe(parsec_canneal, nop)")
    result = evaluate(term, lib)
    assert isinstance(result, sympy.Max)
    assert set(result.args) == {lib["parsec_canneal"].expr, lib["nop"].expr}
    assert evaluate(term, lib) == result


def test_too_few_points_for_four_parameters_get_a_note(tmp_path, capsys) -> None:
    """Three (p, phi) points fit f, k, m1, m2 exactly in many ways: the fit says so; six
    don't. A point on one core counts for none: the model is 1 there whatever f, k, m1, m2
    are (five points, one on one core, got no note)."""
    rows = "".join(f"{c},1,{10 / c + 2}\n" for c in (1, 2, 4, 8, 16, 32))
    few = tmp_path / "few.csv"
    few.write_text("p,phi,time\n" + "".join(rows.splitlines(keepends=True)[:3]))
    once = "note: every kernel measured once per point (no repetitions): no uncertainty, no intervals\n"
    assert main(["fit", str(few), "--form", "memwall", "--iterations", "200"]) == 0
    assert capsys.readouterr().err == (
        "note: few: 2 measured points on more than one core for the 4 parameters f, k, m1, m2: the data do not "
        "determine the model (measure more (p, phi) points)\n" + once
    )
    enough = tmp_path / "enough.csv"
    enough.write_text("p,phi,time\n" + rows)
    assert main(["fit", str(enough), "--form", "memwall", "--iterations", "200"]) == 0
    assert capsys.readouterr().err == once
    four = tmp_path / "four.csv"
    four.write_text("p,phi,time\n" + "".join(rows.splitlines(keepends=True)[:5]))
    assert main(["fit", str(four), "--form", "memwall", "--iterations", "200"]) == 0
    assert "four: 4 measured points on more than one core for the 4 parameters" in capsys.readouterr().err


def test_frequency_pairs_of_one_ratio_count_as_one_point_in_the_note(tmp_path, capsys) -> None:
    """f_cpu/f_mem of 2/1 and 4/2 are one phi: five rows over three (p, phi) points get the
    note (they were counted as five, and the note was missed)."""
    rows = "".join(
        f"{c},{f},{f / 2},{10 / c + 2}\n" for c, f in ((1, 2), (1, 4), (2, 2), (2, 4), (4, 2))
    )
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("p,f_cpu,f_mem,time\n" + rows)
    assert main(["fit", str(pairs), "--form", "memwall", "--iterations", "200"]) == 0
    assert capsys.readouterr().err == (
        "note: pairs: 2 measured points on more than one core for the 4 parameters f, k, m1, m2: the data do not "
        "determine the model (measure more (p, phi) points)\n"
        "note: every kernel without an uncertainty: the data do not determine the spread of "
        "every parameter\n"
    )
