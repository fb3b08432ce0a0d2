"""The form protocol: every registered family satisfies it (issue 10, item 1)."""

from __future__ import annotations

import copy
import math
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import patternalg.forms
from patternalg.errors import EvaluationError, FitError, ModelFileError
from patternalg.forms import FORMS, Form, form_class
from patternalg.library.model_library import ModelLibrary
from patternalg.measurements import read

# each family: a model of it, and (for fittable families) measurements to fit it to
EXAMPLES: dict[str, Callable[[], Form]] = {
    "expr": lambda: form_class("expr")("3.5*x*log2(x) + 2*p^(1/2) + 7"),
    "pmnf": lambda: form_class("pmnf")(
        "0.48*x**(5/4)*log2(x) + 2.8", domain={"x": (4.0, 64.0)}, statistics={"smape": 1.5}
    ),
    "amdahl": lambda: form_class("amdahl")(0.9, "2.5*x**2 + 3", domain={"p": (1.0, 16.0)}),
    "memwall": lambda: form_class("memwall")(0.99, 2.0, 0.05, 0.5, t1="3*x"),
    "presca": lambda: form_class("presca")(
        kernel="Rat12",
        parameters={"a0": 3.0, "a1": 2.0, "b1": 0.05, "b2": 0.004},
        parameters_below={"a0": 2.9, "a1": 1.9, "b1": 0.05, "b2": 0.004},
        interpolation=[1.0, 2.0, -0.05],
        interpolation_range=[2, 12],
    ),
}


def _csv(tmp_path, header: str, rows: list[tuple[float, ...]]) -> Any:
    path = tmp_path / "m.csv"
    path.write_text(header + "\n" + "".join(",".join(map(repr, r)) + "\n" for r in rows))
    return read(path)


#: family -> (measurements, options) that fit() needs; families missing here cannot be fitted
FIT_DATA: dict[str, Callable[[Any], tuple[Any, dict[str, Any]]]] = {
    "pmnf": lambda tmp: (
        _csv(tmp, "x,time", [(v, 3 + 0.5 * v * math.log2(v)) for v in (4.0, 8, 16, 32, 64)]),
        {"modeler": "basic"},
    ),
    "amdahl": lambda tmp: (
        _csv(
            tmp,
            "x,p,time",
            [(x, p, 2.0 * x * (0.9 / p + 0.1)) for x in (10.0, 20, 30) for p in (1.0, 2, 8)],
        ),
        {"degree": 1},
    ),
    "memwall": lambda tmp: (
        _csv(
            tmp,
            "p,phi,speedup",
            [
                (p, phi, 1 / (0.05 + 0.95 / p) / (1 + 0.01 * phi))
                for p in (1.0, 2, 4, 8)
                for phi in (0.75, 1.5)
            ],
        ),
        {"iterations": 200},
    ),
    "presca": lambda tmp: (
        _csv(tmp, "p,throughput", [(k, 40 * k / (1 + 0.03 * k)) for k in range(1, 13)]),
        {"upto": 20},
    ),
}


def _protocol_families() -> list[str]:
    return sorted(FORMS)


def test_every_registered_family_has_an_example() -> None:
    assert set(EXAMPLES) == set(_protocol_families())


def test_the_classes_are_exported_for_pasting_reprs() -> None:
    namespace: dict[str, Any] = {}
    exec("from patternalg.forms import *", namespace)
    for name in _protocol_families():
        cls = form_class(name)
        assert namespace[cls.__name__] is cls and cls.name == name


FAMILIES = pytest.mark.parametrize("family", sorted(EXAMPLES))


def _points(model: Form, rng: np.random.Generator, count: int = 20) -> dict[str, np.ndarray]:
    """Random points in each symbol's domain (or in [1, 100] where it has none)."""
    domain = model.domain
    return {
        name: rng.uniform(*domain.get(name, (1.0, 100.0)), size=count) for name in model.symbols
    }


@FAMILIES
def test_round_trip_through_a_model_file(family: str) -> None:
    model = EXAMPLES[family]()
    cls = form_class(family)
    assert cls.from_table(model.to_table(), "models.a") == model
    text = ModelLibrary([model.atomic_model("a", unit="s", source="here")]).to_toml()
    loaded = ModelLibrary.from_toml_text(text)["a"]
    assert loaded.expr == model.expr and loaded.form == family and loaded.unit == "s"


@FAMILIES
def test_numeric_call_equals_the_closed_form_at_random_points(family: str) -> None:
    model = EXAMPLES[family]()
    rng = np.random.default_rng(7)
    points = _points(model, rng)
    numeric = model(**points)
    assert numeric.shape == (20,)
    for i in range(20):
        at = {s: points[s.name][i] for s in model.expr.free_symbols}
        assert numeric[i] == pytest.approx(float(model.expr.xreplace(at)), rel=1e-9)


@FAMILIES
def test_call_names_missing_and_unknown_inputs(family: str) -> None:
    model = EXAMPLES[family]()
    with pytest.raises(EvaluationError, match=f"missing input '{model.symbols[0]}'"):
        model()
    with pytest.raises(EvaluationError, match="unknown input 'zz'"):
        model(zz=1.0, **dict.fromkeys(model.symbols, 2.0))


@FAMILIES
def test_repr_evaluates_back_to_an_equal_model(family: str) -> None:
    model = EXAMPLES[family]()
    namespace: dict[str, Any] = {}
    exec("from patternalg.forms import *", namespace)
    assert eval(repr(model), namespace) == model
    assert model._repr_latex_().startswith(f"$\\mathrm{{{family}}}(")


@FAMILIES
def test_models_are_immutable_and_hashable(family: str) -> None:
    model = EXAMPLES[family]()
    with pytest.raises(AttributeError):
        model.expr = None  # type: ignore[misc]
    assert hash(model) == hash(EXAMPLES[family]())
    assert model.replace(domain={"x": (1.0, 2.0)}) != model


@FAMILIES
def test_a_model_pickles_and_copies_with_its_closed_form(family: str, tmp_path) -> None:
    """A fitted model's cache held the lambda that builds its closed form: pickle failed
    ("Can't pickle local object"), and ``copy.deepcopy`` raised "PMNF is immutable"."""
    model = EXAMPLES[family]()
    if family in FIT_DATA:
        data, options = FIT_DATA[family](tmp_path)
        model = form_class(family).fit(data, **options)
    point = dict.fromkeys(model.symbols, [2.0, 3.0])
    value = model(**point).tolist()  # the closed form and its numeric function cached
    for twin in (pickle.loads(pickle.dumps(model)), copy.deepcopy(model), copy.copy(model)):
        assert twin == model and type(twin) is type(model)
        assert twin.expr == model.expr and twin(**point).tolist() == value
        assert (twin.statistics, twin.uncertainty) == (model.statistics, model.uncertainty)


@FAMILIES
def test_unknown_and_missing_keys_are_model_file_errors(family: str) -> None:
    cls = form_class(family)
    table = EXAMPLES[family]().to_table()
    with pytest.raises(ModelFileError, match=r"models\.a\.bogus: unknown key"):
        cls.from_table({**table, "bogus": 1}, "models.a")
    first = cls.parameters[0].name
    with pytest.raises(ModelFileError, match=f"models.a: missing key '{first}'"):
        cls.from_table({k: v for k, v in table.items() if k != first}, "models.a")


@FAMILIES
def test_fit_records_every_symbols_domain(family: str, tmp_path) -> None:
    cls = form_class(family)
    if family not in FIT_DATA:
        assert not cls.fittable()
        with pytest.raises(FitError, match=f"form '{family}' cannot be fitted"):
            cls.fit([])
        return
    data, options = FIT_DATA[family](tmp_path)
    model = cls.fit(data, **options)
    (series,) = data.series
    measured = {
        name: (float(series.column(name).min()), float(series.column(name).max()))
        for name in series.parameters
    }
    assert model.domain == {k: v for k, v in measured.items() if k in cls.inputs}
    assert set(model.domain) >= set(model.symbols)
    assert model.statistics and all(
        not isinstance(v, float) or math.isfinite(v) for v in model.statistics.values()
    )


def test_fit_options_are_checked_against_their_declarations() -> None:
    cls = form_class("expr")
    with pytest.raises(FitError, match="unknown fit option 'degre'"):
        cls.options(degre=2)


def test_unknown_form_suggests_a_close_name() -> None:
    with pytest.raises(ModelFileError, match="did you mean 'memwall'"):
        form_class("memwal", "m.toml: models.w")
    with pytest.raises(AttributeError):
        patternalg.forms.NoSuchForm  # noqa: B018


def test_fit_flags_are_built_from_the_declared_options() -> None:
    from patternalg.cli import build_parser

    fit = next(
        action.choices["fit"]
        for action in build_parser()._actions
        if isinstance(action.choices, dict) and "fit" in action.choices
    )
    text = " ".join(fit.format_help().split())
    for name in _protocol_families():
        for option in form_class(name).fit_options:
            assert option.flag in text and " ".join(option.help.split()) in text
            if option.choices:
                assert "{" + ",".join(map(str, option.choices)) + "}" in text


def test_an_option_of_another_family_is_one_line_error(tmp_path, capsys) -> None:
    from patternalg.cli import main

    path = tmp_path / "m.csv"
    path.write_text("x,time\n1,2\n2,4\n4,8\n8,16\n")
    assert main(["fit", str(path), "--degree", "2"]) == 2
    err = capsys.readouterr().err
    assert "--degree is not an option of --form pmnf" in err and err.count("\n") == 1


def test_numpy_scalars_are_kept_as_plain_numbers() -> None:
    """Amdahl(np.float64(0.9), "x") showed alpha=np.float64(0.9) in its repr and values:
    np.float64 is a float, so it was taken as it was."""

    from patternalg.forms import Amdahl

    model = Amdahl(np.float64(0.9), "x")
    assert repr(model) == "Amdahl(alpha=0.9, tseq='x')"
    assert type(model.values["alpha"]) is float and model == Amdahl(0.9, "x")
    assert type(Amdahl(0.5, np.int64(3)).values["tseq"]) is int
