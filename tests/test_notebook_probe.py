"""A notebook user's wrong arguments to the library (a second probe of the API): each is the
project's own error, one line naming the argument, what it got and what is valid."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from helpers import run_cli

import patternalg
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
        f"{path}:3: machine.handoff: the hand-off is a time per element, at least 0 for every "
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


LEVEL = (
    "a confidence level is above 0 and at most 0.99 (an interval is drawn from 1000 draws: "
    "a higher level leaves fewer than 5 beyond each end), e.g. 0.9"
)


@pytest.mark.parametrize("level", [0.9, np.float64(0.9), np.float32(0.9), Fraction(9, 10)])
def test_an_interval_level_is_any_real_number(level: object) -> None:
    """np.float32(0.9) was refused: 'a confidence level is above 0 and at most 0.99'."""
    low, high = patternalg.explain("seq(qsort, inc)", interval=level, x=1024).interval
    assert low == pytest.approx(11138954.24)


@pytest.mark.parametrize(
    ("level", "message"),
    [
        (1, f"interval 1: {LEVEL}"),
        (90, f"interval 90: {LEVEL}"),
        (np.int64(1), f"interval 1: {LEVEL}"),
        (math.inf, f"interval inf: not finite; {LEVEL}"),
        (-math.inf, f"interval -inf: not finite; {LEVEL}"),
        (math.nan, f"interval nan: not a number; {LEVEL}"),
        ("0.9", f"interval: expected {LEVEL.replace(' is ', ' ', 1)}; got str '0.9'"),
        (True, f"interval: expected {LEVEL.replace(' is ', ' ', 1)}; got bool True"),
    ],
)
def test_a_wrong_interval_level_says_why(level: object, message: str) -> None:
    """Each was an EvaluationError named '--interval' (an option, in Python), inf said to be
    outside (0, 0.99] like 90, and a string '0.9' shown as if it were a number."""
    with pytest.raises(ArgumentError) as caught:
        patternalg.explain("qsort", interval=level, x=1024)
    assert str(caught.value) == message


def test_the_command_line_checks_a_level_as_the_library_does() -> None:
    """--interval inf said 'a confidence level is between 0 and 1' (its own check, beside the
    library's of at most 0.99)."""
    done = run_cli("eval", "qsort", "--at", "x=4", "--interval", "inf")
    assert (done.returncode, done.stderr) == (2, f"patternalg eval: error: --interval inf: not finite; {LEVEL}\n")


IDS = (
    "pipe_assoc, pipe_comm, pipe_tpool_layering, pipe_vs_tpool2_seq, seq_assoc, seq_comm, "
    "tpool_unit, tpool_nest, tpool_seq_distrib, pipe_idem, pipe_le_seq, pipe_ge_stage, "
    "tpool_speedup, tpool_more, pipe_seq_absorb"
)


def test_a_misspelt_law_id_is_an_unknown_id_with_the_closest() -> None:
    """check("tpool_unt") was a syntax error ('the text ends too early (expected '(')'), and
    the command line listed every id without the one meant."""
    from patternalg.errors import EvaluationError
    from patternalg.laws.checker import check

    message = f"unknown law id 'tpool_unt'; did you mean 'tpool_unit', 'tpool_nest', 'tpool_speedup'? (valid: {IDS})"
    with pytest.raises(EvaluationError) as caught:
        check("tpool_unt", semantics="exact")
    assert str(caught.value) == message
    done = run_cli("check", "tpool_unt")
    assert (done.returncode, done.stderr) == (2, f"patternalg check: error: {message}\n")


def test_an_atom_a_mapping_lacks_is_named_with_what_it_has() -> None:
    """model('seq(qsort, inc)', {'qsort': ...}) said "unknown atom 'inc'; `patternalg models`
    lists the known atoms": a command, and the built-ins, where the library was the mapping."""
    from patternalg.algebra.atomic_model import AtomicModel
    from patternalg.errors import UnknownAtomError
    from patternalg.library.model_library import ModelLibrary
    from patternalg.syntax.symbols import x

    qsort = AtomicModel("qsort", 2 * x)
    for library in ({"qsort": qsort}, ModelLibrary([qsort]), ModelLibrary.of({"qsort": "2*x"})):
        with pytest.raises(UnknownAtomError) as caught:
            patternalg.model("seq(qsort, inc)", library)
        assert str(caught.value) == "unknown atom 'inc' (the library given has: qsort)"
    done = run_cli("eval", "seq(qsort, inq)")  # the built-ins: the command that lists them
    assert done.stderr == "patternalg eval: error: unknown atom 'inq'; did you mean inc?\n"
    done = run_cli("eval", "seq(qsort, zzz)")
    assert done.stderr == "patternalg eval: error: unknown atom 'zzz'; `patternalg models` lists the known atoms\n"


def test_a_semantics_beside_a_machine_is_refused(tmp_path) -> None:
    """explain(term, semantics="exact", machine=2) ignored the semantics and gave the machine's."""
    from patternalg.evidence import validate

    message = (
        "semantics 'exact' with machine=/cores=: a machine is evaluated under the machine "
        "semantics; give one of them (drop semantics=, or machine= and cores=)"
    )
    for call in (
        lambda: patternalg.explain("tpool_4(qsort)", semantics="exact", machine=2),
        lambda: patternalg.model("tpool_4(qsort)", semantics="exact", cores=2),
        lambda: validate(tmp_path / "m.csv", {"k": "x"}, semantics="exact", machine=2),
    ):
        with pytest.raises(ArgumentError) as caught:
            call()
        assert str(caught.value) == message
    machine = patternalg.model("tpool_4(qsort)", machine=2)
    assert patternalg.model("tpool_4(qsort)", semantics="machine", machine=2) == machine
    assert str(machine) == "517.085*x*log2(x)" and str(patternalg.model("tpool_4(qsort)")) == "258.5425*x*log2(x)"


SEED = "seed: expected an integer >= 0; got"


def test_a_seed_and_a_callback_are_checked_as_the_command_line_checks_them(tmp_path) -> None:
    """explain(seed=-1) was taken (--seed -1 is refused), validate(seed="abc") was not checked
    unless drawn, and PMNF.fit_each(progress="yes") failed at its first call with
    "'str' object is not callable"."""
    from patternalg.evidence import validate
    from patternalg.forms import PMNF
    from patternalg.laws.checker import check
    from patternalg.measurements.csv import CsvReader

    calls = [
        (lambda: patternalg.explain("qsort", interval=0.9, seed=-1, x=4), f"{SEED} int -1"),
        (lambda: validate(tmp_path / "m.csv", {"k": "x"}, seed="abc"), f"{SEED} str 'abc'"),
        (lambda: check("A == A", progress="yes"), "progress: expected None or a function progress(done, total); got str 'yes'"),
    ]
    data = CsvReader.read("k.csv", "kernel,x,time\na,1,2\na,2,4\na,4,8\n")
    calls += [
        (lambda: PMNF.fit_each(data, progress="yes"), "progress: expected None or a function progress(done, total); got str 'yes'"),
        (lambda: PMNF.fit_each(data, on_error=1), "on_error: expected None or a function on_error(error); got int 1"),
    ]
    for call, message in calls:
        with pytest.raises(ArgumentError) as caught:
            call()
        assert str(caught.value) == message


@pytest.mark.parametrize(
    ("name", "argument"),
    [("sweep", "seed"), *((n, a) for n in ("compare", "optimize", "explore") for a in ("seed", "progress"))],
)
def test_a_decision_checks_its_seed_and_progress_before_it_draws(name: str, argument: str) -> None:
    """``seed='abc'`` was taken where nothing was drawn, and ``progress='yes'`` was called:
    "'str' object is not callable" from compare and optimize."""
    from patternalg import decisions

    given = {
        "sweep": {"terms": ["qsort"], "over": "x=1..10"},
        "compare": {"terms": ["qsort", "inc"]},
        "optimize": {"term": "tpool_a(qsort)", "budget": "a<=4", "at": {"x": 1000}},
        "explore": {"term": "tpool_2(qsort)", "threads": 4, "at": {"x": 1000}},
    }[name]
    wrong = {"seed": "abc", "progress": "yes"}[argument]
    with pytest.raises(ArgumentError, match=rf"^{argument}: expected .*; got str '{wrong}'$"):
        getattr(decisions, name)(**given, **{argument: wrong})
