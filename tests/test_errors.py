"""Structured errors: fields, the message built in ``__str__``, pickle round trips, locations."""

from __future__ import annotations

import pickle

import pytest

from patternalg import ModelLibrary, parse
from patternalg.errors import (
    EvaluationError,
    FitError,
    Location,
    MeasurementError,
    ModelFileError,
    ParseError,
    PatternalgError,
    UnknownAtomError,
)


def round_trip(error: Exception) -> Exception:
    return pickle.loads(pickle.dumps(error))


def test_a_pickled_unknown_atom_error_keeps_its_message_and_fields():
    with pytest.raises(UnknownAtomError) as caught:
        ModelLibrary.builtin()["qsrot"]
    error = caught.value
    again = round_trip(error)
    assert str(again) == str(error) == "unknown atom 'qsrot'; did you mean qsort?"
    assert (again.name, again.suggestions) == ("qsrot", ["qsort"])
    assert isinstance(again, KeyError) and again.args[0] == "qsrot"


def test_a_pickled_parse_error_keeps_its_position():
    with pytest.raises(ParseError) as caught:
        parse("seq(inc,\n  tpool_0(qsort))")
    error = caught.value
    again = round_trip(error)
    assert str(again) == str(error)
    assert (again.line, again.column, again.excerpt) == (error.line, error.column, error.excerpt)
    assert str(error).startswith(f"line 2, column {error.column}: ")


def test_a_pickled_model_file_error_keeps_its_location(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text('[models.sort]\nmodel = "x"\nunit = 3\n', encoding="utf-8")
    with pytest.raises(ModelFileError) as caught:
        ModelLibrary.from_file(path)
    error = caught.value
    assert error.location == Location(str(path), line=3, key="models.sort.unit")
    assert str(error) == f"{path}:3: models.sort.unit: expected a string, got 3"
    again = round_trip(error)
    assert str(again) == str(error) and again.location == error.location


@pytest.mark.parametrize(
    "cls", [PatternalgError, ModelFileError, EvaluationError, MeasurementError, FitError]
)
def test_an_error_built_from_one_message_still_works(cls):
    error = cls("something is wrong")
    assert str(error) == "something is wrong" == error.message
    assert str(round_trip(error)) == "something is wrong"
    located = cls("bad value", location=Location("data.csv", 12))
    assert str(located) == "data.csv:12: bad value"
    assert str(round_trip(located)) == "data.csv:12: bad value"


def test_location_formats():
    assert str(Location("a.csv")) == "a.csv"
    assert str(Location("a.csv", 4)) == "a.csv:4"
    assert str(Location("a.csv", 4, 2)) == "a.csv:4:2"
    assert str(Location("lib.toml", key="models.sort")) == "lib.toml: models.sort"
    assert str(Location("a.txt", 4, key="REGION sort")) == "a.txt:4: REGION sort"
