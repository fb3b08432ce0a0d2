"""PreSca (paper 004): candidate fits, interpolation, ShouldUseFunc, Algorithm 1, model files, CLI."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from patternalg.cli import main
from patternalg.errors import FitError, MeasurementError, ModelFileError
from patternalg.forms.presca import (
    CANDIDATES,
    SUBSET_COUNTS,
    X_LIN_NEG,
    X_POW_POS,
    ExpRat,
    PerformanceFunction,
    Presca,
    extrapolate,
    fit_candidate,
    fit_polynomial,
    plan,
    predict,
    predict_file,
    read_performance,
    should_use,
)
from patternalg.forms.presca.interpolation import INTERPOLATIONS
from patternalg.library.model_library import ModelLibrary
from patternalg.syntax.symbols import p

THREADS = np.arange(1.0, 17.0)
#: parameters of each candidate function that give positive, smooth curves on 1..16
TRUE_PARAMETERS = {
    "Rat12": [3.0, 2.0, 0.05, 0.004],
    "Rat22": [2.0, 3.0, 0.05, 0.1, 0.01],
    "Rat23": [2.0, 3.0, 0.2, 0.1, 0.01, 0.001],
    "Rat33": [1.0, 2.0, 0.3, 0.01, 0.1, 0.02, 0.001],
    "CubicLn": [10.0, -4.0, 1.0, -0.05],
    "ExpRat": [2.0, 1.5, 0.0, 0.08],
}


def _write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# --- the candidate functions of Table 1 ---------------------------------------------------------
def test_candidates_are_table_1_in_order():
    assert [f.name for f in CANDIDATES] == ["Rat12", "Rat22", "Rat23", "Rat33", "CubicLn", "ExpRat"]
    assert SUBSET_COUNTS == tuple(range(2, 33, 2))
    assert (X_POW_POS, X_LIN_NEG) == (8, 2 / 3)


@pytest.mark.parametrize("function", CANDIDATES, ids=lambda f: f.name)
def test_each_candidate_function_recovers_its_own_parameters(function):
    truth = np.array(TRUE_PARAMETERS[function.name])
    y = function.values(truth, THREADS)
    assert np.all(y > 0)
    theta = fit_candidate(function, THREADS, y)
    assert theta is not None
    np.testing.assert_allclose(theta, truth, rtol=1e-5, atol=1e-9)


def test_exprat_fixes_the_redundant_c():
    # (a + b n) e^-(c + d n): only e^-c (a, b) is identifiable; the fit reports c = 0
    truth = np.array([2.0, 1.5, 0.7, 0.08])
    theta = fit_candidate(ExpRat(), THREADS, ExpRat().values(truth, THREADS))
    scale = math.exp(-0.7)
    np.testing.assert_allclose(theta, [2.0 * scale, 1.5 * scale, 0.0, 0.08], rtol=1e-6)


def test_too_few_points_give_the_papers_null():
    rat33 = CANDIDATES[3]
    assert fit_candidate(rat33, THREADS[:6], np.ones(6)) is None
    assert fit_candidate(ExpRat(), THREADS[:3], [3.0, 2.0, 1.5]) is not None


def test_fit_minimises_relative_not_absolute_error():
    # one outlier far above: relative error weighs the small values as much as the large
    n = np.arange(1.0, 9.0)
    y = 100.0 / n
    y[-1] *= 1.5
    theta = fit_candidate(CANDIDATES[0], n, y)
    fitted = CANDIDATES[0].values(theta, n)
    relative = np.abs(fitted / y - 1)
    assert np.max(relative[:-1]) < 0.1


# --- interpolation -----------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(
    m=st.integers(3, 12),
    data=st.data(),
)
def test_interpolation_is_exact_on_polynomials_of_degree_up_to_m_minus_2(m, data):
    degree = data.draw(st.integers(0, min(6, m - 2)))
    coeffs = data.draw(
        st.lists(st.floats(-5, 5, allow_nan=False), min_size=degree + 1, max_size=degree + 1)
    )
    n = np.array(
        sorted(data.draw(st.sets(st.integers(1, 64), min_size=m, max_size=m))), dtype=float
    )
    y = np.polyval(coeffs[::-1], n)
    fitted = fit_polynomial(n, y)
    assert len(fitted) == min(6, m - 2) + 1
    grid = np.linspace(n[0], n[-1], 25)
    scale = max(1.0, float(np.max(np.abs(np.polyval(coeffs[::-1], grid)))))
    np.testing.assert_allclose(
        np.polyval(fitted[::-1], grid), np.polyval(coeffs[::-1], grid), atol=1e-6 * scale
    )


def test_interpolation_degree_is_capped_at_6():
    n = np.arange(1.0, 21.0)
    assert len(fit_polynomial(n, n**7)) == 7


# --- ShouldUseFunc -----------------------------------------------------------------------------
def _step(previous: float, factor: float, n: int = 5) -> list[float]:
    """Values at 1..n: flat up to n-1, then multiplied by ``factor`` from n-1 to n."""
    return [previous] * (n - 1) + [previous * factor]


def test_filter_rejects_negative_and_non_finite_values():
    assert not should_use([3.0, 2.0, -0.1, 1.0], higher_is_better=False)
    assert not should_use([3.0, 2.0, -0.1, 1.0], higher_is_better=True)
    assert not should_use([3.0, math.inf, 2.0], higher_is_better=False)
    assert not should_use([3.0, math.nan, 2.0], higher_is_better=True)


def test_filter_time_bounds_are_the_papers():
    n = 5
    drop = X_LIN_NEG * (n - 1) / n  # the time may fall to (2/3)(n-1)/n of the previous
    rise = (n / (n - 1)) ** X_POW_POS  # and rise to (n/(n-1))^8 of it
    assert should_use(_step(10.0, drop * 1.001, n), higher_is_better=False)
    assert not should_use(_step(10.0, drop * 0.999, n), higher_is_better=False)
    assert should_use(_step(10.0, rise * 0.999, n), higher_is_better=False)
    assert not should_use(_step(10.0, rise * 1.001, n), higher_is_better=False)


def test_filter_throughput_bounds_apply_to_the_inverse():
    # improvement of at most 3/2 * n/(n-1), degradation to at least ((n-1)/n)^8
    n = 5
    gain = 1.5 * n / (n - 1)
    loss = ((n - 1) / n) ** 8
    assert should_use(_step(10.0, gain * 0.999, n), higher_is_better=True)
    assert not should_use(_step(10.0, gain * 1.001, n), higher_is_better=True)
    assert should_use(_step(10.0, loss * 1.001, n), higher_is_better=True)
    assert not should_use(_step(10.0, loss * 0.999, n), higher_is_better=True)
    # the time bounds applied to a throughput as it is (the slip to avoid) would keep a 4x
    # jump from 1 to 2 threads (below (2/1)^8) and drop a fall to 0.3x at 5 threads
    assert not should_use([10.0, 40.0], higher_is_better=True)
    assert should_use(_step(10.0, 0.3, 5), higher_is_better=True)
    assert not should_use(_step(10.0, 0.3, 5), higher_is_better=False)


# --- Algorithm 1 -------------------------------------------------------------------------------
def test_extrapolation_picks_the_lowest_checkpoint_error_among_usable_candidates():
    n = np.arange(1, 13)
    truth = CANDIDATES[0].values(np.array(TRUE_PARAMETERS["Rat12"]), np.arange(1.0, 25.0))
    noise = 1 + 0.01 * np.random.default_rng(3).standard_normal(12)
    result = extrapolate(n, truth[:12] * noise, upto=24, higher_is_better=True)
    usable = [c for c in result.candidates if c.usable]
    assert result.checkpoint_error == min(c.checkpoint_error for c in usable)
    assert {c.subset for c in result.candidates} <= {4, 6, 8}
    predicted = result.function(np.arange(13.0, 25.0))
    assert np.max(np.abs(predicted / truth[12:] - 1)) < 0.2


def test_extrapolation_drops_candidates_the_heuristics_reject():
    n = np.arange(1, 13)
    y = 100.0 / n + 0.5 * n  # a time with a minimum near 14
    result = extrapolate(n, y, upto=40)
    targets = np.arange(1.0, 41.0)
    for candidate in result.candidates:
        values = PerformanceFunction(candidate.candidate, candidate.parameters)(targets)
        assert candidate.usable == should_use(values, higher_is_better=False)
    assert any(not c.usable for c in result.candidates)


def test_extrapolation_needs_one_checkpoint_plus_a_subset_of_three():
    with pytest.raises(FitError) as info:
        extrapolate(np.arange(1, 4), np.arange(1.0, 4.0), upto=16)
    assert str(info.value) == (
        "extrapolation needs at least 4 measurements (1 checkpoint and a subset of 3 to fit), got 3"
    )
    # the paper's plan (4 checkpoints, subsets 4, 6, ...) from 8 measurements on
    assert plan(8) == (4, (4,), ()) and plan(12, 3) == (3, (4, 6, 8), ())
    assert [plan(m)[:2] for m in (4, 5, 6, 7)] == [(1, (3,)), (1, (4,)), (2, (4,)), (3, (4,))]
    assert plan(7)[2] == ("7 measurements: 3 checkpoints instead of 4 (that needs 8)",)
    assert extrapolate(np.arange(1, 8), 10.0 / np.arange(1, 8), 16, checkpoints=3).notes == ()


def test_measurements_given_in_python_are_checked():
    with pytest.raises(FitError, match=r"thread count 2 appears twice \(average repeated runs"):
        predict([1, 2, 2, 3], [4.0, 3.0, 2.0, 1.0], upto=3)
    with pytest.raises(FitError, match="performance values positive"):
        predict([1, 2, 3], [4.0, 0.0, 1.0], upto=3)


def test_predict_interpolates_inside_and_extrapolates_beyond():
    n = np.arange(1, 13)
    y = 50.0 * n / (1 + 0.05 * n)
    inside = predict(n, y, upto=12, higher_is_better=True)
    assert inside.function.candidate is None and inside.checkpoint_error is None
    assert inside.function.name == "poly6"
    beyond = predict(n, y, upto=24, higher_is_better=True)
    assert beyond.function.candidate is not None and beyond.subset in (4, 6, 8)
    expr = beyond.function.expr()
    assert isinstance(expr, sympy.Piecewise) and expr.free_symbols == {p}
    for threads in (1, 6, 12, 13, 24):
        assert float(expr.subs(p, threads)) == pytest.approx(
            float(beyond.function(np.array([threads]))[0]), rel=1e-9
        )
    assert float(expr.subs(p, 24)) == pytest.approx(50 * 24 / 2.2, rel=0.02)


def test_predict_extrapolates_below_the_measured_range_too():
    n = np.arange(2, 14)
    result = predict(n, 30.0 * n / (1 + 0.02 * n), upto=13, higher_is_better=True)
    assert result.function.candidate is not None
    assert result.function(np.array([1.0]))[0] == pytest.approx(30 / 1.02, rel=0.02)


# --- measurements ------------------------------------------------------------------------------
def test_read_performance_directions_names_and_repeats(tmp_path):
    path = _write(
        tmp_path,
        "runs.csv",
        "kernel,p,time\nKmeans-Low,1,10\nKmeans-Low,2,6\nKmeans-Low,2,4\nSort,1,3\n",
    )
    kmeans, sort = read_performance(path)
    assert (kmeans.name, kmeans.table(), kmeans.higher_is_better) == (
        "kmeans_Low",
        {1: 10.0, 2: 5.0},
        False,
    )
    assert sort.name == "sort"
    tp = _write(tmp_path, "tp.csv", "p,speedup\n1,1\n2,1.9\n")
    assert read_performance(tp)[0].higher_is_better is True
    ops = _write(tmp_path, "ops.csv", "p,ops\n1,1\n2,1.9\n")
    assert read_performance(ops, "ops", higher_is_better=True)[0].higher_is_better is True


@pytest.mark.parametrize(
    ("text", "kwargs", "message"),
    [
        (
            "p,ops\n1,1\n",
            {"metric": "ops"},
            "{path}: is a higher 'ops' better or worse? say higher_is_better=True or False "
            "(Presca's fit: better='higher' or 'lower'), or metric=NAME for another value column",
        ),
        (
            "p,time\n1,1\n",
            {"metric": "time", "higher_is_better": True},
            "{path}: for column 'time' lower is better by definition",
        ),
        (
            "p,time,energy\n1,1,1\n",
            {},
            "{path}: is a higher 'energy' better or worse? say higher_is_better=True or "
            "False (Presca's fit: better='higher' or 'lower'), or metric=NAME for "
            "another value column",
        ),
        (
            "p,cycles\n1,1\n",
            {},
            "{path}: is a higher 'cycles' better or worse? say higher_is_better=True or "
            "False (Presca's fit: better='higher' or 'lower'), or metric=NAME for "
            "another value column",
        ),
        (
            "p,time,throughput\n1,1,1\n",
            {"higher_is_better": True},
            "{path}: for column 'time' lower is better by definition",
        ),
        (
            "p,time\n1,4\n2,0\n",
            {},
            "{path}:3: column 'time': 0 is not positive (performance must be > 0: PreSca's errors "
            "are relative)",
        ),
        (
            "p,time\n1.5,4\n",
            {},
            "{path}:2: column 'p': 1.5 is not a thread count (a whole number >= 1)",
        ),
        (
            "p,time\n0,4\n",
            {},
            "{path}:2: column 'p': 0 is not a thread count (a whole number >= 1)",
        ),
    ],
)
def test_read_performance_errors(tmp_path, text, kwargs, message):
    path = _write(tmp_path, "bad.csv", text)
    with pytest.raises(MeasurementError) as info:
        read_performance(path, **kwargs)
    assert str(info.value) == message.format(path=path)


# --- model files -------------------------------------------------------------------------------
def test_model_round_trips_through_a_model_file(tmp_path):
    n = np.arange(1, 13)
    path = _write(
        tmp_path,
        "blackbox.csv",
        "p,throughput\n" + "".join(f"{k},{40 * k / (1 + 0.03 * k)}\n" for k in n),
    )
    (report,) = predict_file(path, upto=24)
    assert report.record["kernel"] == report.model.spec[0][1]
    assert set(report.record) >= {"kernel", "model", "checkpoint_error", "predictions"}
    out = tmp_path / "models.toml"
    ModelLibrary([report.model]).save(out)
    loaded = ModelLibrary.from_file(out)["blackbox"]
    assert loaded.form == "presca"
    assert dict(loaded.fit)["subset"] == report.record["subset"]
    for threads in (3, 12, 20):
        assert float(loaded.expr.subs(p, threads)) == pytest.approx(
            float(report.model.expr.subs(p, threads)), rel=1e-12
        )


def test_a_hand_written_table_is_read():
    expr = Presca.from_table(
        {
            "kernel": "ExpRat",
            "parameters": {"a": 2, "b": 1, "c": 0, "d": 0.5},
            "interpolation": [1, 2],
            "interpolation_range": [1, 4],
        },
        "models.w",
    ).expr
    assert expr.subs(p, 3) == 7
    assert float(expr.subs(p, 8)) == pytest.approx(10 * math.exp(-4))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({}, "models.w: a presca model needs 'kernel' or 'interpolation'"),
        (
            {"kernel": "Rat12", "parameters": {"a0": 1}},
            "models.w.parameters: Rat12 needs a table of exactly a0, a1, b1, b2",
        ),
        ({"interpolation": [1.0]}, "models.w: interpolation and interpolation_range go together"),
        (
            {"interpolation": [1.0], "interpolation_range": [4, 1]},
            "models.w.interpolation_range: low 4 is above high 1",
        ),
        (
            {"interpolation": [1.0, "a"], "interpolation_range": [1, 4]},
            "models.w.interpolation.1: expected a finite number, got 'a'",
        ),
        (
            {"interpolation": [1.0], "interpolation_range": [1]},
            "models.w.interpolation_range: expected [low, high]",
        ),
        (
            {"kernel": "CubicLn", "parameters": {"a": 1, "b": 1, "c": 1, "d": "x"}},
            "models.w.parameters.d: expected a finite number, got 'x'",
        ),
        (
            {"kernal": "Rat12"},
            "models.w.kernal: unknown key (did you mean 'kernel'? valid: kernel, parameters, "
            "parameters_below, interpolation, "
            "interpolation_range, interpolation_of, form, unit, source, x_range, fit, domain, uncertainty, touches_data)",
        ),
    ],
)
def test_model_file_table_errors(spec, message):
    with pytest.raises(ModelFileError) as info:
        Presca.from_table(spec, "models.w")
    assert str(info.value) == message


# --- command line ------------------------------------------------------------------------------
def test_predict_command_json_and_model_file(tmp_path, capsys):
    path = _write(
        tmp_path,
        "vac.csv",
        "p,time\n" + "".join(f"{k},{100 * (0.1 + 0.9 / k)}\n" for k in range(1, 13)),
    )
    out = tmp_path / "m.toml"
    assert main(["predict", path, "--upto", "20", "--format", "json", "--out", str(out)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record) == {
        "workload",
        "kernel",
        "model",
        "pieces",
        "subset",
        "checkpoints",
        "checkpoint_error",
        "notes",
        "predictions",
        "unit",
    }
    assert record["unit"] == "ns"
    assert [row["p"] for row in record["predictions"]] == list(range(1, 21))
    assert record["kernel"] in {f.name for f in CANDIDATES}
    assert ModelLibrary.from_file(out)["vac"].form == "presca"
    assert main(["predict", path, "--upto", "8"]) == 0
    text = capsys.readouterr().out
    # a time is interpolated in its inverse by default: 100 * (0.1 + 0.9/8) = 21.25
    assert text.startswith("vac: 1/poly6 (interpolation); predicted time at p=8: 21.2")
    assert main(["predict", path, "--upto", "8", "--interpolate", "poly"]) == 0
    assert capsys.readouterr().out.startswith("vac: poly6 (interpolation); predicted time at p=8: ")
    # without --upto, as fit --form presca: twice the highest measured count, the same model
    assert main(["predict", path, "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert [row["p"] for row in record["predictions"]] == list(range(1, 25))
    assert main(["fit", path, "--form", "presca", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["predicted"] == pytest.approx(
        record["predictions"][-1]["value"], rel=1e-12
    )


def test_inverse_interpolation_is_exact_on_amdahl_times():
    # 1/time of t = 1/(c + d n) is a polynomial in n, the times are not
    n = np.arange(1.0, 9.0)
    time = 1.0 / (0.2 + 0.05 * n)
    inverse = predict(n, time, upto=8)
    assert inverse.function.inverse and inverse.function.name == "1/poly6"
    assert np.allclose(inverse.function(np.arange(1.0, 9.0)), time, rtol=1e-9)
    plain = predict(n, time, upto=8, interpolation="poly")
    assert not plain.function.inverse and plain.function.name == "poly6"
    # throughputs (higher is better) keep the paper's polynomial under "auto"
    assert not predict(n, 1 / time, upto=8, higher_is_better=True).function.inverse


def test_inverse_interpolation_round_trips_through_a_model_file(tmp_path):
    from patternalg.library.model_library import AtomicModel

    n = np.arange(1.0, 9.0)
    function = predict(n, 1.0 / (0.2 + 0.05 * n), upto=8).function
    model = AtomicModel("w", function.expr(), form="presca", spec=function.spec())
    path = tmp_path / "w.toml"
    ModelLibrary([model]).save(path)
    back = ModelLibrary.from_file(path)["w"]
    assert back.expr == model.expr
    assert float(back.expr.subs(p, 4)) == pytest.approx(1 / (0.2 + 0.05 * 4))


def test_predict_command_errors_are_one_line(tmp_path, capsys):
    path = _write(tmp_path, "few.csv", "p,time\n1,10\n2,6\n3,4\n")
    assert main(["predict", path, "--upto", "6"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"patternalg predict: error: {path}:2: kernel 'few', metric 'time': extrapolation needs "
        "at least 4 measurements (1 checkpoint and a subset of 3 to fit), got 3; to predict up "
        "to p = 6, measure more thread counts, or stay within the measured range with --upto 3\n"
    )
    assert main(["predict", path, "--upto", "3"]) == 0  # as the error says
    capsys.readouterr()
    one = _write(tmp_path, "one.csv", "p,time\n1,10\n")  # no --upto would do: no hint
    assert main(["fit", one, "--form", "presca"]) == 2
    assert capsys.readouterr().err == (
        f"patternalg fit: error: {one}:2: kernel 'one', metric 'time': PreSca needs at least 2 "
        "measurements, got 1\n"
    )
    # the options are PreSca's fit options, checked as fit --form presca checks them
    assert main(["predict", path, "--upto", "3", "--checkpoints", "0"]) == 2
    assert (
        capsys.readouterr().err
        == "patternalg predict: error: --checkpoints 0: must be at least 1\n"
    )
    assert main(["fit", path, "--form", "presca", "--checkpoints", "0"]) == 2
    assert capsys.readouterr().err == "patternalg fit: error: --checkpoints 0: must be at least 1\n"
    assert main(["predict", path, "--upto", "0"]) == 2
    assert (
        capsys.readouterr().err
        == "patternalg predict: error: --upto 0: must be between 1 and 1,000,000\n"
    )


# --- composition in terms ------------------------------------------------------------------------
def test_a_presca_model_from_a_model_file_composes_in_terms(tmp_path):
    from patternalg.algebra.evaluation import evaluate
    from patternalg.algebra.semantics import Semantics
    from patternalg.syntax.parser import parse

    reports = []
    for name, scale in (("blackbox", 40.0), ("other", 25.0)):
        path = _write(
            tmp_path,
            f"{name}.csv",
            "p,time\n" + "".join(f"{k},{scale * (0.1 + 0.9 / k)}\n" for k in range(1, 13)),
        )
        reports.extend(predict_file(path, upto=16))
    out = tmp_path / "models.toml"
    ModelLibrary([r.model for r in reports]).save(out)
    library = ModelLibrary.load([out])

    def value(name: str, threads: int) -> float:
        return float(library[name].expr.subs(p, threads))

    assert value("blackbox", 8) == pytest.approx(40 * (0.1 + 0.9 / 8), rel=0.03)  # degree 6
    assert value("blackbox", 16) == pytest.approx(40 * (0.1 + 0.9 / 16), rel=0.1)
    piped = evaluate(parse("pipe(blackbox[p=8], other[p=8])"), library, Semantics.EXACT)
    assert float(piped) == pytest.approx(max(value("blackbox", 8), value("other", 8)))
    pooled = evaluate(parse("tpool_2(blackbox[p=4])"), library)
    assert float(pooled) == pytest.approx(value("blackbox", 4) / 2)
    both = evaluate(parse("seq(blackbox[p=4], other[p=16])"), library)
    assert float(both) == pytest.approx(value("blackbox", 4) + value("other", 16))
    assert float(both) == pytest.approx(40 * (0.1 + 0.9 / 4) + 25 * (0.1 + 0.9 / 16), rel=0.05)


def test_fit_command_with_form_presca_and_several_workloads(tmp_path, capsys):
    rows = "".join(
        f"a,{k},{30 * k / (1 + 0.05 * k)}\nb,{k},{10 * k / (1 + 0.1 * k)}\n" for k in range(1, 13)
    )
    path = _write(tmp_path, "two.csv", "kernel,p,throughput\n" + rows)
    assert main(["fit", path, "--form", "presca", "--format", "json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [r["atom"] for r in records] == ["a", "b"]
    assert all(r["upto"] == 24 and r["domain"] == {"p": [1.0, 12.0]} for r in records)
    assert all(r["form"] == "presca" and r["unit"] == "dimensionless" for r in records)
    assert main(["fit", path, "--form", "presca", "--upto", "16", "--checkpoints", "3"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if not line.startswith(" ")]
    assert [line.split(":")[0] for line in lines] == ["a", "b"]
    assert all("checkpoint error" in line and "at p=16: " in line for line in lines)
    assert main(["predict", path, "--upto", "16", "--format", "json"]) == 0
    assert isinstance(json.loads(capsys.readouterr().out), list)


def test_each_value_column_is_a_workload_read_the_same_by_fit_and_predict(tmp_path, capsys):
    """A file with a time and a throughput column holds two workloads of its kernel, each
    with its direction, under fit --form presca and predict alike; --metric keeps one."""
    rows = "".join(f"{k},{100 / k + 5},{k / (1 + 0.05 * k)}\n" for k in range(1, 9))
    path = _write(tmp_path, "runs.csv", "p,runtime_ms,throughput\n" + rows)
    time, rate = read_performance(path)
    assert (time.name, time.higher_is_better, time.unit) == ("runs_runtime_ms", False, "ms")
    assert (rate.name, rate.higher_is_better, rate.unit) == ("runs_throughput", True, None)
    assert main(["fit", path, "--form", "presca", "--format", "json"]) == 0
    fitted = json.loads(capsys.readouterr().out)
    assert main(["predict", path, "--format", "json"]) == 0
    predicted = json.loads(capsys.readouterr().out)
    assert [(r["atom"], r["unit"]) for r in fitted] == [
        ("runs_runtime_ms", "ms"),
        ("runs_throughput", "dimensionless"),
    ]
    assert [r["workload"] for r in predicted] == ["runs_runtime_ms", "runs_throughput"]
    assert [r["model"] for r in predicted] == [r["model"] for r in fitted]
    assert main(["predict", path, "--metric", "throughput", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["workload"] == "runs"  # one: an object


def test_presca_is_fitted_through_the_form_protocol(tmp_path):
    from patternalg.measurements import read

    rows = "".join(f"{k},{2 * k},{100 * (0.1 + 0.9 / k)}\n" for k in range(2, 8))
    data = read(_write(tmp_path, "six.csv", "cores,ranks,time\n" + rows))
    model = Presca.fit(data, upto=12)
    assert model.domain == {"p": (2.0, 7.0)} and model.statistics["checkpoints"] == 2
    assert model(p=[4.0])[0] == pytest.approx(100 * (0.1 + 0.9 / 4), rel=1e-3)
    assert Presca.notes(data, {"upto": 12}) == [
        f"column 'cores' of {data.path} is the thread count p (use param='NAME=p' to choose "
        "another)",
        "six: 6 measurements: 2 checkpoints instead of 4 (that needs 8)",
        f"{data.path}: the times (time) name no unit: read as ns (unit=s, or a column or "
        "metric named time_s, says otherwise)",
    ]
    ranks = Presca.fit(data, param=["ranks=p"])
    assert ranks.domain == {"p": (4.0, 14.0)}
    namespace: dict = {}
    exec("from patternalg.forms import *", namespace)
    assert eval(repr(model), namespace) == model


def test_predict_is_fit_form_presca_with_its_predictions(tmp_path):
    """One fit path: predict's model is fit --form presca's, each workload with its notes."""
    from patternalg.measurements import read

    rows = [f"big,{k},{100 * (0.1 + 0.9 / k)}" for k in range(1, 13)]
    rows += [f"small,{k},{50 * (0.2 + 0.8 / k)}" for k in range(1, 7)]
    path = _write(tmp_path, "two.csv", "kernel,p,time\n" + "\n".join(rows) + "\n")
    reports = predict_file(path, upto=20)
    assert [r.fit for r in reports] == Presca.fit_each(read(path), upto=20)
    assert [r.record["notes"] for r in reports] == [
        [],
        ["small: 6 measurements: 2 checkpoints instead of 4 (that needs 8)"],
    ]
    assert reports[1].model.source == (
        f"PreSca (paper 004) on 6 measurements of {path}, kernel 'small'"
    )
    last = reports[0].record["predictions"][-1]
    assert last == {"p": 20, "value": pytest.approx(reports[0].fit.fitted.statistics["predicted"])}
    html = reports[0]._repr_html_()  # a notebook shows the predictions under the model
    assert html.count("<tr>") == 1 + 20 and "p &gt; 12: " in html and "Piecewise" not in html


def test_predict_and_tune_take_fits_spelling_of_the_direction(tmp_path, capsys):
    rows = "".join(f"{k},{40 * k / (1 + 0.03 * k)}\n" for k in range(1, 9))
    path = _write(tmp_path, "ops.csv", "p,ops\n" + rows)
    for command in ("predict", "tune"):
        assert (
            main([command, path, "--metric", "ops", "--better", "higher", "--format", "json"]) == 0
        )
        spelled = capsys.readouterr().out
        assert (
            main([command, path, "--metric", "ops", "--higher-is-better", "--format", "json"]) == 0
        )
        assert capsys.readouterr().out == spelled
    with pytest.raises(SystemExit):
        main(["predict", path, "--metric", "ops", "--better", "up"])
    assert "argument --better: expected higher or lower, got 'up'" in capsys.readouterr().err


def test_predict_and_fit_form_presca_write_the_same_model_file(tmp_path, capsys):
    rows = "".join(f"{k},{40 * k / (1 + 0.03 * k)}\n" for k in (1, 2, 4, 6, 8, 12))
    path = _write(tmp_path, "blackbox.csv", "cores,throughput\n" + rows)
    predicted, fitted = tmp_path / "p.toml", tmp_path / "f.toml"
    assert main(["predict", path, "--out", str(predicted), "--upto", "16"]) == 0
    assert main(["fit", path, "--form", "presca", "--out", str(fitted), "--upto", "16"]) == 0
    capsys.readouterr()
    assert predicted.read_text() == fitted.read_text()
    assert "[models.blackbox]" in predicted.read_text()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0.01, 100.0), min_size=2, max_size=20))
def test_filter_on_a_throughput_is_the_filter_on_its_inverse_as_a_time(values):
    values = np.array(values)
    assert should_use(values, higher_is_better=True) == should_use(1 / values, False)


# --- small data (issue 12): 4 to 7 measurements, continuity, the thread column ---------------
def _saturating(k):
    return 1000.0 * (1 - np.exp(-np.asarray(k, dtype=float) / 9))


@pytest.mark.parametrize("m", [4, 5, 6, 7])
def test_predict_works_from_4_measurements_with_fewer_checkpoints(m):
    n = np.arange(1, m + 1)
    result = predict(n, _saturating(n), upto=2 * m, higher_is_better=True)
    used = {4: 1, 5: 1, 6: 2, 7: 3}[m]
    assert (result.checkpoints, result.subset) == (used, 3 if m == 4 else 4)
    noun = "checkpoint" if used == 1 else "checkpoints"
    assert result.notes == (f"{m} measurements: {used} {noun} instead of 4 (that needs 8)",)
    beyond = np.arange(m + 1, 2 * m + 1)
    assert np.max(np.abs(result.function(beyond) / _saturating(beyond) - 1)) < 0.02
    # with 4 measurements only ExpRat (3 parameters) leaves a checkpoint to choose by
    assert (result.function.name == "ExpRat") == (m == 4)


def test_predict_command_notes_fewer_checkpoints_and_prints_the_model_per_range(tmp_path, capsys):
    rows = "".join(f"{k},{100 * (0.1 + 0.9 / k)}\n" for k in range(2, 7))
    path = _write(tmp_path, "five.csv", "p,time\n" + rows)
    assert main(["predict", path, "--upto", "10"]) == 0
    captured = capsys.readouterr()
    assert captured.err == (
        "note: five: 5 measurements: 1 checkpoint instead of 4 (that needs 8)\n"
    )
    lines = captured.out.splitlines()
    name = lines[0].split(": ")[1].split(" ")[0]
    assert name in {f.name for f in CANDIDATES}
    assert lines[1] == "  model:"
    assert lines[2].startswith(f"    p < 2: {name} (a")
    assert lines[3].startswith("    2 <= p <= 6: 1/poly3 (c0=")
    assert lines[4].startswith(f"    p > 6: {name} (a")
    assert "Piecewise" not in captured.out


@settings(max_examples=12, deadline=None)
@given(
    m=st.integers(4, 14),
    first=st.integers(1, 3),
    shape=st.sampled_from(["amdahl", "saturating"]),
    scale=st.floats(0.05, 0.5),
    noise=st.integers(0, 2**16),
)
def test_prediction_is_continuous_at_the_edges_of_the_measured_range(m, first, shape, scale, noise):
    n = np.arange(first, first + m)
    if shape == "amdahl":  # a time: serial fraction ``scale``
        truth, higher = 100 * (scale + (1 - scale) / n), False
    else:  # a throughput levelling off after about 1/scale threads
        truth, higher = 1000 * (1 - np.exp(-scale * n)), True
    y = truth * (1 + 0.01 * np.random.default_rng(noise).standard_normal(m))
    try:
        function = predict(n, y, upto=2 * (first + m), higher_is_better=higher).function
    except FitError:  # no candidate passes the heuristics: nothing to be continuous
        return
    low, high = function.p_range
    edges = [(high, high * (1 + 1e-12))] + ([(low, low * (1 - 1e-12))] if low > 1 else [])
    for edge, outside in edges:
        at, beside = function(np.array([edge, outside]))
        assert beside == pytest.approx(at, rel=1e-6)
    expr = function.expr()
    assert float(expr.subs(p, high + 1e-9)) == pytest.approx(float(expr.subs(p, high)), rel=1e-6)


def test_a_candidate_with_a_pole_between_the_counts_is_not_used():
    # found by the continuity test: a saturating throughput measured on 3..16 threads,
    # predicted on 1..34; a Rat33 passing ShouldUseFunc at every whole count had a pole
    # 1.6e-7 below p = 3 (-2,063 at p = 2.9, a jump of 2e-5 across 3e-12 at the edge)
    n = np.arange(3, 17)
    y = 1000 * (1 - np.exp(-0.5 * n)) * (1 + 0.01 * np.random.default_rng(3).standard_normal(14))
    function = predict(n, y, upto=34, higher_is_better=True).function
    values = function(np.linspace(1, 34, 32 * 33 + 1))
    assert np.all(np.isfinite(values)) and np.all(values > 0)
    at, beside = function(np.array([3.0, 3.0 * (1 - 1e-12)]))
    assert beside == pytest.approx(at, rel=1e-9)


#: measurements whose interpolating polynomial of the paper's degree is negative or has a
#: pole between the counts (probe F22): a throughput, one with a far last count, a time
BETWEEN_COUNTS = {
    "tp": ([1, 2, 4, 8, 16, 32], [10, 16, 16, 27, 16, 7], True),
    "far": ([1, 2, 4, 8, 100_000], [100, 190, 350, 600, 700], True),
    "pole": (range(1, 9), [81.65, 69.98, 28.03, 42.54, 36.58, 20.07, 19.0, 34.99], False),
}


@pytest.mark.parametrize("name", BETWEEN_COUNTS)
def test_the_interpolation_is_positive_and_finite_between_the_counts(name):
    n, y = (np.asarray(v, dtype=float) for v in BETWEEN_COUNTS[name][:2])
    higher = BETWEEN_COUNTS[name][2]
    result = predict(n, y, upto=int(n[-1]), higher_is_better=higher)
    values = result.function(np.linspace(n[0], n[-1], 200_001))
    assert np.all(np.isfinite(values)) and np.all(values > 0)
    assert "is not positive everywhere" in result.interpolation_note


@settings(max_examples=60, deadline=None)
@given(
    st.sets(st.integers(2, 64), min_size=2, max_size=9),
    st.lists(st.floats(0.5, 100.0), min_size=10, max_size=10),
    st.booleans(),
)
def test_every_interpolation_is_positive_over_the_measured_range(counts, values, higher):
    n = np.array(sorted(counts | {1}), dtype=float)  # from 1: the interpolation only
    y = np.array(values[: len(n)])
    for how in INTERPOLATIONS:
        function = predict(n, y, upto=int(n[-1]), interpolation=how, higher_is_better=higher).function
        assert np.all(function(np.linspace(n[0], n[-1], 10_001)) > 0)


def test_predict_says_why_the_interpolation_is_of_a_lower_degree(tmp_path, capsys):
    n, y, _ = BETWEEN_COUNTS["tp"]
    rows = "".join(f"{a},{b}\n" for a, b in zip(n, y, strict=True))
    path = _write(tmp_path, "tp.csv", "p,throughput\n" + rows)
    assert main(["predict", path, "--upto", "32"]) == 0
    assert capsys.readouterr().out.startswith(
        "tp: poly3 (interpolation); poly4 is not positive everywhere in 1..32: poly3 is;"
    )


def test_the_thread_column_is_named_by_param_or_is_the_first_column(tmp_path, capsys):
    rows = "".join(f"{k},{2 * k},{40 * k / (1 + 0.03 * k)}\n" for k in range(1, 9))
    path = _write(tmp_path, "cores.csv", "cores,ranks,throughput\n" + rows)
    (first,) = read_performance(path)
    assert first.threads == "cores" and first.table()[8] == pytest.approx(320 / 1.24)
    (named,) = read_performance(path, threads="ranks")
    assert named.threads == "ranks" and sorted(named.table()) == list(range(2, 17, 2))
    assert main(["predict", path, "--upto", "12", "--param", "ranks=p"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "predicted throughput at p=12" in captured.out
    assert main(["fit", path, "--form", "presca"]) == 2  # the ranks column would be mixed in
    assert "column 'ranks' is not used by --form presca" in capsys.readouterr().err
    single = _write(
        tmp_path,
        "single.csv",
        "cores,throughput\n" + "".join(f"{k},{40 * k / (1 + 0.03 * k)}\n" for k in range(1, 9)),
    )
    assert main(["fit", single, "--form", "presca"]) == 0
    assert capsys.readouterr().err == (
        f"note: column 'cores' of {single} is the thread count p "
        "(use --param NAME=p to choose another)\n"
    )
    assert main(["predict", path, "--upto", "12", "--param", "cores=x"]) == 2
    assert capsys.readouterr().err == (
        "patternalg predict: error: --param 'cores=x': a presca model is in the thread count "
        "p; say --param cores=p\n"
    )
    assert main(["tune", path, "--param", "nodes=p"]) == 2
    assert "missing column 'nodes'" in capsys.readouterr().err


def test_a_model_measured_from_2_threads_round_trips_with_its_lower_anchor(tmp_path):
    n = np.arange(2, 10)
    function = predict(n, 100 * (0.1 + 0.9 / n), upto=16).function
    assert function.below and function.below != function.parameters
    from patternalg.library.model_library import AtomicModel

    model = AtomicModel("w", function.expr(), form="presca", spec=function.spec())
    path = tmp_path / "w.toml"
    ModelLibrary([model]).save(path)
    back = ModelLibrary.from_file(path)["w"]
    for threads in (1, 2, 5, 9, 12):
        assert float(back.expr.subs(p, threads)) == pytest.approx(
            float(function(np.array([threads]))[0]), rel=1e-9
        )


def test_models_lists_a_presca_model_by_range_not_as_a_piecewise(tmp_path, capsys):
    """``models`` printed the closed form, a Piecewise of hundreds of characters; it lists
    each range's function and coefficients, as ``predict`` reports them."""
    path = _write(tmp_path, "w.csv", "p,time\n1,10\n2,5.6\n3,4.1\n4,3.2\n5,2.7\n6,2.4\n")
    out = tmp_path / "m.toml"
    assert main(["fit", path, "--form", "presca", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["predict", path, "--upto", "12", "--format", "json"]) == 0  # fit's default
    record = json.loads(capsys.readouterr().out)
    assert main(["models", "--models", str(out), "--no-builtin"]) == 0
    listed = capsys.readouterr().out
    assert "Piecewise" not in listed
    assert "; ".join(piece["text"] for piece in record["pieces"]) in listed
    assert main(["models", "--models", str(out), "--no-builtin", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["model"].startswith("Piecewise(")


def test_a_presca_fit_in_a_notebook_shows_its_functions(tmp_path):
    from patternalg.forms.presca import Presca
    from patternalg.measurements import read

    path = _write(tmp_path, "w.csv", "p,time\n1,10\n2,5.6\n3,4.1\n4,3.2\n5,2.7\n6,2.4\n")
    (report,) = Presca.fit_each(read(path))
    html = report._repr_html_()
    assert "p &gt; 6: Rat12 (a0=" in html and "Piecewise" not in html
    assert report.record["model"].startswith("Piecewise(")  # the record keeps the closed form


def test_predict_of_a_constant_below_a_double_s_normal_range_is_fit_s_model(tmp_path) -> None:
    """Its closed form came out constant, without p, and predict's table asked it for p: a
    KeyError traceback, where fit --form presca gave the model."""
    from helpers import run_cli

    path = tmp_path / "sub.csv"
    path.write_text("p,time\n" + "".join(f"{p},1e-310\n" for p in range(1, 6)))
    done = run_cli("predict", str(path))
    assert done.returncode == 0 and "predicted time at p=10: 1e-310 ns" in done.stdout, done.stderr


@pytest.mark.parametrize("command", ["predict", "tune", "fit --form presca"])
def test_a_thread_count_beyond_predicts_range_is_refused_by_its_line(tmp_path, command) -> None:
    """1e30 overflowed int64 (--upto "got -18,446,744,073,709,551,616", counts "appear
    twice"); one 1e19 on line 6 was blamed on line 2."""
    from helpers import run_cli

    path = tmp_path / "huge.csv"
    path.write_text("p,time\n1,100\n2,50\n4,30\n6,20\n1e19,15\n")
    done = run_cli(*command.split(), str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        f"patternalg {command.split()[0]}: error: {path}:6: column 'p': thread count 1e+19 is "
        "above 1,000,000, the most PreSca predicts for\n"
    )
    path.write_text("kernel,p,time\nb,1e30,100\nb,2e30,50\n" + "".join(
        f"a,{n},{100 / n + 1}\n" for n in (1, 2, 4, 8, 16)))  # fmt: skip
    done = run_cli(*command.split(), str(path), *([] if command == "tune" else ["--upto", "16"]))
    assert done.returncode == 0 and done.stdout.startswith(("a", "workload")), done.stderr
    assert f"warning: {path}:2: column 'p': thread count 1e+30 is above" in done.stderr


@pytest.mark.parametrize(
    ("column", "args", "unit"),
    [("throughput", ["--unit", "s"], "s"), ("throughput_ms", [], "ms"), ("speedup[s]", [], "s")],
)
def test_a_time_unit_on_a_higher_is_better_metric_is_refused(tmp_path, column, args, unit) -> None:
    """The model of a throughput in seconds composed as a time: seq(tt[p=4], hi[p=8])
    added a throughput to a time."""
    from helpers import run_cli

    path = tmp_path / "tt.csv"
    path.write_text(f"p,{column}\n1,10\n2,19\n4,35\n8,60\n")
    for command in (["predict"], ["fit", "--form", "presca"]):
        done = run_cli(*command, str(path), "--upto", "8", *args)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr == (
            f"patternalg {command[0]}: error: {path}:2: kernel 'tt', metric '{column}': a higher "
            f"'{column}' is better, so it is not a time and {unit} cannot be its unit (valid: no "
            "unit, or one that is not a time, such as 1/s)\n"
        )


def test_the_python_predict_and_tuners_name_what_they_cannot_take():
    """predict sorted before its shape check (an IndexError), took upto=None as a TypeError
    and fractional counts or upto=-3 without a word; OPreSca on one or two counts was a
    KeyError."""
    from patternalg.errors import PatternalgError
    from patternalg.forms.presca import predict
    from patternalg.forms.presca.tuning import run_opresca

    n = np.array([1, 2, 4, 8, 16, 32.0])
    y = 100 * (0.1 + 0.9 / n)
    wrong = [
        (lambda: predict(n, y[:5], upto=16), "6 thread counts but 5 values"),
        (lambda: predict(n, y, upto=None), "upto: expected an integer >= 1"),
        (lambda: predict(n, y, upto=-3), "upto: expected an integer >= 1"),
        (lambda: predict(n, y, upto=64, checkpoints=2.5), "checkpoints: expected an integer >= 1"),
        (lambda: predict(n + 0.5, y, upto=64), "thread count 1.5: thread counts are whole numbers"),
        (lambda: run_opresca({1: 5.0, 2: 3.0}, False), "the tuners need at least 3 thread counts"),
    ]
    for call, said in wrong:
        with pytest.raises(PatternalgError, match=said):
            call()
