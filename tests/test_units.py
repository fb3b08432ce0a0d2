"""Units: every atomic model carries one, compositions convert to one unit exactly (pint,
loaded only when needed), time never adds to a non-time, and every output states the unit."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from helpers import loads_pint, run_cli

from patternalg import model
from patternalg.algebra.units import common_unit, factor
from patternalg.errors import ModelFileError, UnitError
from patternalg.library.model_library import AtomicModel, ModelLibrary
from patternalg.syntax.symbols import x

KERNEL_MS = '[models.kernel]\nmodel = "2.5 * x"\nunit = "ms"\nx_range = [1000, 32000]\n'


@pytest.fixture
def kernel_ms(tmp_path):
    path = tmp_path / "ms.toml"
    path.write_text(KERNEL_MS)
    return str(path)


def test_milliseconds_are_converted_before_they_are_added_to_nanoseconds(kernel_ms):
    # the bug: 2.5*4 ms + 536.185*4 ns was printed as 2154.74 (ms and ns added as they are)
    result = run_cli("eval", "seq(kernel, inc)", "--models", kernel_ms, "--at", "x=4")
    assert result.returncode == 0
    assert result.stdout == "10002144.74 ns\n"  # 10 ms = 10^7 ns, + 2144.74 ns
    assert "converted to ns: kernel (ms)" in result.stderr


def test_the_symbolic_model_is_in_the_common_unit(kernel_ms):
    assert run_cli("eval", "seq(kernel, inc)", "--models", kernel_ms).stdout == (
        "2500536.185*x\n"
    )


def test_unit_option_chooses_the_unit_of_the_result(kernel_ms):
    result = run_cli(
        "eval", "seq(kernel, inc)", "--models", kernel_ms, "--at", "x=4", "--unit", "s",
        "--format", "json",
    )  # fmt: skip
    data = json.loads(result.stdout)
    assert data["unit"] == "s" and data["value"] == pytest.approx(0.01000214474, rel=1e-12)


def test_conversion_factors_are_exact():
    assert factor("ms", "ns") == 10**6  # pint's float path gives 999999.9999999999
    assert factor("us", "ms") == Fraction(1, 1000)
    assert factor("min", "s") == 60
    one_ms = ModelLibrary([AtomicModel("k", x / x, unit="ms")])
    assert model("k", one_ms) == 1  # one atom: no conversion
    assert run_cli("eval", "k", "--unit", "ns", "--models", _file(one_ms)).stdout == (
        "1000000 ns\n"
    )


def _file(library: ModelLibrary) -> str:
    import tempfile

    path = tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False).name
    library.save(path)
    return path


def test_python_api_converts_too():
    lib = ModelLibrary([AtomicModel("k", 2 * x, unit="us")])
    assert model("seq(k, inc)", lib.merged(ModelLibrary.builtin()), x=1) == pytest.approx(
        2000 + 536.185
    )


def test_time_plus_bytes_is_refused_naming_both_atoms(tmp_path):
    path = tmp_path / "b.toml"
    path.write_text('[models.traffic]\nmodel = "8 * x"\nunit = "bytes"\n')
    result = run_cli("eval", "seq(inc, traffic)", "--models", str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        "patternalg eval: error: cannot compose inc (ns, a time) with traffic "
        "(bytes, bits): convert one of them first\n"
    )


def test_relative_times_of_the_memory_wall_models_never_add_to_nanoseconds():
    with pytest.raises(UnitError, match=r"parsec_blackscholes \(T1, one_core_time\)"):
        common_unit({"inc": "ns", "parsec_blackscholes": "T1"})
    assert common_unit({"parsec_blackscholes": "T1", "parsec_bodytrack": "T1"}) == "T1"


def test_eval_unit_must_fit_the_atoms():
    result = run_cli("eval", "inc", "--unit", "furlongs")
    assert result.returncode == 2
    assert "--unit furlongs: a length, but inc is in ns (a time)" in result.stderr
    assert "e.g. ns, us, ms, s" in result.stderr
    bad = run_cli("eval", "inc", "--unit", "parsecs/fortnight/zz")
    assert bad.returncode == 2 and "not a unit" in bad.stderr


def test_model_files_state_real_units(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text('[models.k]\nmodel = "x"\nunit = "time"\n')
    with pytest.raises(ModelFileError, match=r"m.toml:3: models.k.unit: 'time' is not a unit"):
        ModelLibrary.from_file(path)


def test_every_output_states_the_unit():
    text = run_cli("eval", "tpool_n(qsort)", "--at", "n=2", "--at", "x=1024")
    assert text.stdout == "5294950.4 ns\n"
    data = json.loads(run_cli("eval", "qsort", "--format", "json").stdout)
    assert data["unit"] == "ns"
    assert run_cli("eval", "qsort", "--format", "latex").stdout.endswith(r"\; \mathrm{ns}" + "\n")


def test_evaluating_the_builtins_does_not_load_the_units_library(kernel_ms):
    assert not loads_pint(["eval", "pipe(tpool_4(qsort), inc)", "--at", "x=1024"], ["models"])  # the memory-wall ones in T1 too
    assert loads_pint(["eval", "seq(kernel, inc)", "--models", kernel_ms])  # a conversion


def test_predict_labels_seconds_as_seconds(tmp_path):
    # the bug: a time column in seconds was written as unit = "ns"
    path = tmp_path / "scaling.csv"
    path.write_text("p,time[s]\n1,10\n2,5.2\n4,2.8\n8,1.6\n16,1.1\n")
    out = tmp_path / "m.toml"
    result = run_cli("predict", str(path), "--upto", "2", "--out", str(out))
    assert result.returncode == 0
    assert result.stdout.splitlines()[-1].endswith(" s")
    assert ModelLibrary.from_file(out)["scaling"].unit == "s"
    data = json.loads(run_cli("predict", str(path), "--upto", "2", "--format", "json").stdout)
    assert data["unit"] == "s"


def test_amdahl_fits_carry_the_measured_unit(tmp_path):
    # the bug: amdahl wrote unit = "time" and ignored --unit
    path = tmp_path / "a.csv"
    rows = "".join(f"{x},{p},{x * (0.2 + 0.8 / p):g}\n" for x in (10, 20, 40) for p in (1, 2, 4))
    path.write_text("x,p,time_us\n" + rows)
    out = tmp_path / "m.toml"
    assert run_cli("fit", str(path), "--form", "amdahl", "--out", str(out)).returncode == 0
    model = ModelLibrary.from_file(out)["a"]
    assert model.unit == "us" and model.ranges == {"p": (1.0, 4.0), "x": (10.0, 40.0)}
    plain = tmp_path / "b.csv"
    plain.write_text(path.read_text().replace("time_us", "time"))
    assert (
        run_cli("fit", str(plain), "--form", "amdahl", "--unit", "ms", "--out", str(out)).returncode
        == 0
    )
    assert ModelLibrary.from_file(out)["b"].unit == "ms"


def test_presca_fits_read_the_unit_and_the_direction_from_the_column_name(tmp_path):
    # the bugs: time_ms was not known to be a time (fit asked whether higher is better,
    # with the flags of predict), and presca refused --unit for a plain time column
    rows = "".join(f"{p},{10 / p + 0.5:g}\n" for p in (1, 2, 4, 8, 16))
    named, plain, out = tmp_path / "ms.csv", tmp_path / "t.csv", tmp_path / "m.toml"
    named.write_text("p,time_ms\n" + rows)
    plain.write_text("p,time\n" + rows)
    assert run_cli("fit", str(named), "--form", "presca", "--out", str(out)).returncode == 0
    assert ModelLibrary.from_file(out)["ms"].unit == "ms"
    fitted = run_cli("fit", str(plain), "--form", "presca", "--unit", "s", "--out", str(out))
    assert fitted.returncode == 0 and ModelLibrary.from_file(out)["t"].unit == "s"
    wrong = run_cli("fit", str(plain), "--form", "presca", "--unit", "furlongs")
    assert wrong.returncode == 2
    assert wrong.stderr.endswith("--unit furlongs: a length, not a time (valid: ns, us, ms, s, min)\n")


def test_an_invalid_unit_is_named_before_a_contradiction(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("x,runtime[s]\n1,1\n2,2\n4,4\n8,8\n")
    result = run_cli("fit", str(path), "--unit", "furlongs")
    assert result.returncode == 2 and "--unit furlongs: a length, not a time" in result.stderr
    assert "contradicts" in run_cli("fit", str(path), "--unit", "ms").stderr


def _library(**units: str) -> ModelLibrary:
    return ModelLibrary([AtomicModel(name, (k + 1) * x, unit=unit) for k, (name, unit) in enumerate(units.items())])


@pytest.mark.parametrize(
    ("first", "second"),
    [("bytes", "count"), ("bytes", "dimensionless"), ("bytes", "%"), ("count", "%"), ("count", "dimensionless")],
)
def test_units_of_different_kinds_never_compose_in_either_order(first: str, second: str) -> None:
    """pint reads a byte as 8 bits of no dimension: seq(calls, traffic) was 330 count and
    seq(traffic, calls) 41.25 bytes (probe L)."""
    lib = _library(a=first, b=second)
    for term in ("seq(a, b)", "seq(b, a)", "pipe(a, b)"):
        with pytest.raises(UnitError, match=r"cannot compose . \(.*\) with . \(.*\): convert one"):
            model(term, lib, x=10)
    with pytest.raises(UnitError, match=f"cannot convert {re.escape(first)}"):
        factor(first, second)


def test_units_of_one_kind_compose_to_the_same_value_in_either_order() -> None:
    lib = _library(traffic="bytes", flips="bit")  # 8 bits a byte: 8 * 10 + 2 * 10 bits
    assert model("seq(traffic, flips)", lib, x=10) == model("seq(flips, traffic)", lib, x=10) == 100
    assert common_unit({"traffic": "bytes", "flips": "bit"}) == common_unit({"flips": "bit", "traffic": "bytes"}) == "bit"
    assert common_unit({"r": "%", "s": "dimensionless"}) == "%"


@pytest.mark.parametrize("command", [["eval", "inc", "--at", "x=2"], ["sweep", "inc", "--over", "x=2,4"]])
def test_a_unit_given_with_blanks_is_the_unit_without_them(command: list[str]) -> None:
    """--unit " ms" kept its blank in every header, note and JSON (probe L)."""
    plain = run_cli(*command, "--unit", "ms")
    spaced = run_cli(*command, "--unit", " ms ")
    assert spaced.returncode == 0 and (spaced.stdout, spaced.stderr) == (plain.stdout, plain.stderr)
    shown = json.loads(run_cli(*command, "--unit", " ms", "--format", "json").stdout)
    assert shown["unit"] == "ms"


def test_a_unit_of_blanks_is_no_unit() -> None:
    """pint reads nothing as dimensionless: --unit "   " was 'dimensionless, but inc is in ns'."""
    result = run_cli("eval", "inc", "--unit", "   ")
    assert result.returncode == 2
    assert result.stderr == "patternalg eval: error: --unit: '   ' is not a unit (e.g. ns, us, ms, s, min, bytes)\n"


def test_units_in_files_and_models_are_trimmed_where_they_are_checked(tmp_path) -> None:
    path = tmp_path / "m.toml"
    path.write_text('[models.k]\nmodel = "x"\nunit = " ms"\n')
    assert ModelLibrary.load([str(path)])["k"].unit == "ms"
    assert ModelLibrary([AtomicModel("k", x, unit="ms ")])["k"].unit == "ms"
    assert model("seq(k, k)", {"k": AtomicModel("k", x, unit=" ms")}, x=2) == 4
    fitted = run_cli("fit", str(_seconds(tmp_path / "t.csv")), "--unit", " s")
    assert fitted.returncode == 0 and "[s]" in fitted.stdout and "[ s]" not in fitted.stdout


def _seconds(path):
    rows = [f"{n},{2e-9 * n + 1e-6 * r}" for n in (64, 128, 256, 512, 1024) for r in (1, 2, 3)]
    path.write_text("x,time\n" + "\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize(
    ("units", "unit", "fragment"),
    [
        (("dB", "%"), None, "cannot compose a (dB, dB (a logarithmic or offset scale)) with b (%, dimensionless)"),
        (("dB", "dB"), "neper", "--unit neper: neper (a logarithmic or offset scale), but a is in dB"),
        (("degC", "degC"), "kelvin", "--unit kelvin: temperature, but a is in degC"),
    ],
)
def test_a_unit_not_proportional_to_its_quantity_converts_to_no_other(tmp_path, units, unit, fragment) -> None:
    """dB beside % raised a TypeError from pint's logarithmic converter, and 11 degC was
    3015.65 kelvin (11 times 274.15): values on a logarithmic or offset scale do not scale
    by a factor, so such a unit is a kind of its own."""
    models = tmp_path / "m.toml"
    models.write_text(f'format = 1\n[models.a]\nmodel = "x + 1"\nunit = "{units[0]}"\n'
                      f'[models.b]\nmodel = "2*x"\nunit = "{units[1]}"\n')  # fmt: skip
    result = run_cli("eval", "seq(a, b)", "--models", str(models), "--at", "x=10", *(["--unit", unit] if unit else []))
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and fragment in result.stderr, result.stderr


MIXED = (
    "PARAMETER x\nPOINTS ( 1 ) ( 2 ) ( 4 ) ( 8 ) ( 16 )\nMETRIC time\nREGION r\n"
    + "DATA 1\nDATA 2\nDATA 4\nDATA 8\nDATA 16\n"
)


@pytest.mark.parametrize(
    ("name", "text", "units"),
    [
        ("mix.txt", MIXED + "METRIC memory [kB]\nREGION r\nDATA 1\nDATA 2\nDATA 4\nDATA 8\nDATA 16\n",
         ["ns", "kB"]),
        ("tr.csv", "x,traffic[bytes]\n1,1\n2,2\n4,4\n8,8\n16,16\n", ["bytes"]),
        ("mem.txt", MIXED.replace("METRIC time", "METRIC mem_MB"), ["MB"]),
        ("rss.txt", MIXED.replace("METRIC time", "METRIC rss [kb]"), ["kB"]),
        ("heap.txt", MIXED.replace("METRIC time", "METRIC maximum_heap_memory_allocated"), ["dimensionless"]),
        ("h.txt", MIXED.replace("METRIC time", "METRIC time [h]"), ["h"]),
    ],
)
def test_a_metric_stating_a_unit_that_is_no_time_is_fitted_in_it(tmp_path, name, text, units) -> None:
    """``memory [kB]`` and ``traffic[bytes]`` were refused as times "dimensionless, not a time";
    ``mem_MB`` and ``maximum_heap_memory_allocated`` were fitted as times in ns."""
    path = tmp_path / name
    path.write_text(text)
    result = run_cli("fit", str(path), "--format", "json")
    assert result.returncode == 0, result.stderr
    assert [r["unit"] for r in json.loads(result.stdout)] == units
    assert all("the times (time) name no unit" in line for line in result.stderr.splitlines() if "as ns" in line)


def test_the_kinds_of_the_builtin_units_known_without_pint_are_pints() -> None:
    from patternalg.algebra.unit_text import pint_unit
    from patternalg.algebra.units import _BUILTIN_KINDS, _words, kind

    for text, known in _BUILTIN_KINDS.items():
        dimensions = {name.strip("[]"): e for name, e in pint_unit(text).dimensionality.items()}
        assert kind(text) == known == _words(dimensions)
