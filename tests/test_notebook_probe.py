"""A notebook user's wrong arguments to the library (a second probe of the API): each is the
project's own error, one line naming the argument, what it got and what is valid."""

from __future__ import annotations

import pytest

from patternalg.algebra.machine import Machine
from patternalg.errors import ArgumentError
from patternalg.forms import Amdahl, Expression, Memwall


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"cores": "4"}, "cores: expected a number of cores: an integer >= 1 and <= 1,048,576; got str '4'"),
        ({"cores": 0}, "cores: expected a number of cores: an integer >= 1 and <= 1,048,576; got int 0"),
        ({"cores": 2.5}, "cores: expected a number of cores: an integer >= 1 and <= 1,048,576; got float 2.5"),
        (
            {"cores": 2, "handoff": 5j},
            "handoff: expected the hand-off, a finite number or an expression in x (or its text, "
            "e.g. '100 + 0.5*x'); got complex 5j",
        ),
        (
            {"cores": 2, "dispatch": -1},
            "dispatch: the dispatch cost is a time per element, at least 0 for every x >= 1: -1 is -1 at x = 1",
        ),
        (
            {"cores": 2, "speedups": {"k": "p*y"}},
            "speedups['k']: the speed-up of k is an expression in p only (it has y)",
        ),
    ],
)
def test_a_machine_names_its_wrong_argument(kwargs: dict[str, object], message: str) -> None:
    """Machine(cores="4") was a bare ValueError, 'a machine has 1 to 1048576 cores (got cores =
    '4')', and handoff=5j 'the hand-off is a number or an expression, not 5j': no argument named."""
    with pytest.raises(ArgumentError) as caught:
        Machine(**kwargs)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_a_machine_file_still_names_the_file(tmp_path) -> None:
    from patternalg.errors import ModelFileError
    from patternalg.library.machine_file import read_machine

    path = tmp_path / "m.toml"
    path.write_text('[machine]\ncores = 2\nhandoff = "-x"\n')
    with pytest.raises(ModelFileError) as caught:
        read_machine(path)
    assert str(caught.value) == (
        f"{path}: machine: handoff: the hand-off is a time per element, at least 0 for every "
        "x >= 1: -x is -1 at x = 1"
    )


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Amdahl(alpha="0.9", tseq="2*x"), "Amdahl.alpha: expected a finite number in [0.0, 1.0], got '0.9'"),
        (lambda: Amdahl(alpha=0.9), "Amdahl: missing argument 'tseq'"),
        (
            lambda: Amdahl(0.9, "2*x", unit="ns"),
            "Amdahl.unit: unknown argument (valid: alpha, tseq, domain, statistics, uncertainty)",
        ),
        (lambda: Amdahl(0.9, "2*x", 3), "Amdahl takes at most 2 parameters (alpha, tseq)"),
        (lambda: Memwall(f=0.5, k=-1, m1=0.1, m2=0.1), "Memwall.k: -1 is outside [0.0, inf]"),
        (lambda: Expression(3j), "Expression.model: expected an expression string or a number, got 3j"),
        (lambda: Expression("2*x", domain={"x": (3, 1)}), "domain['x']: expected (low, high) with low <= high; got tuple (3, 1)"),
    ],
)
def test_a_form_constructor_names_its_wrong_argument(make: object, message: str) -> None:
    """Amdahl(alpha="0.9") was a ModelFileError, a file's error with no file; an unknown
    keyword listed the model file's keys (form, unit, ...) as valid, and a bad domain was a
    bare ValueError."""
    with pytest.raises(ArgumentError) as caught:
        make()  # type: ignore[operator]
    assert str(caught.value) == message
