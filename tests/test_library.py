"""The model library and the public TOML model-file format."""

from __future__ import annotations

import pytest
import sympy

from patternalg import AtomicModel, ModelFileError, ModelLibrary, UnknownAtomError
from patternalg.syntax.symbols import log2, o, symbol, x


def test_builtin_holds_table1_and_the_shuffles():
    lib = ModelLibrary.builtin()
    table1 = [
        "nop",
        "inc",
        "qsort",
        "map_own_small",
        "map_own_medium",
        "map_own_large",
        "reduce_p",
        "reduce_v",
        "map_grppi",
        "reduce_grppi",
        "map_hadoop",
        "reduce_hadoop",
        "transfer",
    ]
    assert all(name in lib for name in table1)
    assert lib["qsort"].expr == sympy.Float(1034.17) * x * log2(x)
    assert lib["reduce_hadoop"].expr == 9376 * x
    paper001 = [name for name in lib if lib[name].form == "expr"]  # memwall: paper 003
    assert all(lib[name].unit == "ns" and "paper 001" in lib[name].source for name in paper001)


def test_transfer_is_a_time_not_the_printed_rate():
    # Table 1 row 13 prints the rate 0.125 B/ns; sending x bytes takes x / 0.125 = 8x ns
    assert ModelLibrary.builtin()["transfer"].expr == 8 * x


def test_hadoop_shuffle_is_eq7_in_time():
    m, n = symbol("m"), symbol("n")
    expr = ModelLibrary.builtin()["shuffle_hadoop"].expr.xreplace({o: 768})
    assert sympy.simplify(expr - 8 * (m * n - 1) / (m * n) * 12288 * x) == 0


def test_save_and_load_round_trip(tmp_path):
    path = tmp_path / "models.toml"
    lib = ModelLibrary(
        [AtomicModel("sort", 2.5 * x * log2(x) + 3, source="test", x_range=(8.0, 1024.0))]
    )
    lib.save(path)
    back = ModelLibrary.from_file(path)
    assert back["sort"] == lib["sort"]
    assert back["sort"].x_range == (8.0, 1024.0)


def test_later_files_override_earlier_ones(tmp_path):
    first, second = tmp_path / "a.toml", tmp_path / "b.toml"
    first.write_text('[models.qsort]\nmodel = "1"\n[models.extra]\nmodel = "x"\n')
    second.write_text('[models.qsort]\nmodel = "2*x"\n')
    lib = ModelLibrary.load([first, second])
    assert lib["qsort"].expr == 2 * x and lib["extra"].expr == x and "inc" in lib
    assert "inc" not in ModelLibrary.load([first], builtin=False)


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("[models.qsort\n", "not valid TOML"),
        ("[models.qsort]\nmodle = '1'\n", "models.qsort.modle: unknown key"),
        ("[models.qsort]\nunit = 'ns'\n", "models.qsort: missing key 'model'"),
        ("[models.qsort]\nmodel = '__import__(1)'\n", "models.qsort.model: line 1, column 1"),
        ("[models.qsort]\nmodel = '1/0'\n", "division by zero"),
        ("[models.Sort]\nmodel = '1'\n", "'Sort' is not a valid atom name"),
        ("[models.qsort]\nmodel = '1'\nform = 'magic'\n", "unknown form 'magic'"),
        ("[models.qsort]\nmodel = '1'\nx_range = [5, 1]\n", "x_range: expected [low, high]"),
        ("[models.qsort]\nmodel = true\n", "expected an expression string or a number"),
        ("title = 'x'\n", "unknown top-level key 'title'"),
        ("", "no [models.NAME] tables found"),
    ],
)
def test_malformed_model_files_name_file_key_and_reason(tmp_path, text, fragment):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ModelFileError) as info:
        ModelLibrary.from_file(path)
    assert str(path) in str(info.value) and fragment in str(info.value)


def test_numbers_are_accepted_as_models(tmp_path):
    path = tmp_path / "n.toml"
    path.write_text("[models.c]\nmodel = 42\n")
    assert ModelLibrary.from_file(path)["c"].expr == 42


def test_unknown_atoms_suggest_close_names():
    with pytest.raises(UnknownAtomError) as info:
        ModelLibrary.builtin()["map_hadop"]
    assert info.value.suggestions[0] == "map_hadoop"
    assert isinstance(info.value, KeyError)


def test_every_builtin_model_builds():
    # built-ins are built lazily; make sure each one is valid
    lib = ModelLibrary.builtin()
    assert all(isinstance(lib[name], AtomicModel) for name in lib)


def test_the_constructor_takes_the_mappings_of_takes() -> None:
    """ModelLibrary({"qsort": "2*x"}) refused what ModelLibrary.of accepts ('expected
    AtomicModel objects; got dict')."""
    from patternalg.errors import ArgumentError, ParseError

    given = {"qsort": "2*x", "nop": 1}
    made = ModelLibrary(given)
    of = ModelLibrary.of(given)
    assert {k: m.expr for k, m in made.items()} == {k: m.expr for k, m in of.items()}
    assert str(made["qsort"].expr) == "2*x" and made["qsort"].source == "models['qsort']"
    assert sorted(ModelLibrary(ModelLibrary.builtin())) == sorted(ModelLibrary.builtin())
    with pytest.raises(ParseError, match="unexpected character '_'"):  # the safe arithmetic, never sympify
        ModelLibrary({"qsort": "__import__('os')"})
    with pytest.raises(ArgumentError, match="models: expected AtomicModel objects or a mapping of atom names to models; got int 3"):
        ModelLibrary(3)  # type: ignore[arg-type]
