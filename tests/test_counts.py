"""Thread counts (issue 29, finding 11): a count bound to a float that is an integer is that
integer; a sign after ``tpool_`` says what a count must be; a count prints so that it reads
back, in terms and in every message."""

from __future__ import annotations

import sympy
from helpers import compound_expressions
from hypothesis import assume, given
from hypothesis import strategies as st

from patternalg.algebra.bindings import counts
from patternalg.cli import main
from patternalg.library.evaluate import explain
from patternalg.syntax.arith import check_finite
from patternalg.syntax.parser import parse
from patternalg.syntax.terms import Atom, TPool, format_count

_SYMBOLS = st.sampled_from([sympy.Symbol(name, positive=True) for name in ("a", "b", "k", "n")])
_LEAVES = st.one_of(_SYMBOLS, st.integers(1, 64).map(sympy.Integer))


_COUNTS = st.recursive(_LEAVES, compound_expressions, max_leaves=6)


@given(_COUNTS)
def test_a_count_prints_as_text_that_reads_back_to_it(count: sympy.Expr) -> None:
    # a number that is not a positive integer, or a division by 0, is no count (refused)
    assume(check_finite(count) and not (count.is_number and not (count.is_integer and count.is_positive)))
    assume(not sympy.expand(count - 1).is_negative)  # below 1 for every positive value: no count
    # sympy may hand back a cached unevaluated Min(1, 2) inside a drawn count (a fresh-clone
    # run without CI drew Max(a, Min(1, 2))): such a count is not in canonical form to begin with
    assume(count == count.doit())
    term = TPool(count, Atom("qsort"))  # its count in canonical form
    assert parse(f"tpool_{format_count(term.count)}(qsort)") == term
    assert parse(str(term)) == term
    # and as messages name it ("the thread count of tpool_{a - b}(...)")
    (what, _), = counts(term)
    named = what.removeprefix("the thread count of ").replace("(...)", "(qsort)")
    assert parse(named) == term


def _error(capsys, *args: str) -> str:
    assert main(list(args)) == 2
    return capsys.readouterr().err


def test_a_message_writes_a_compound_count_as_it_reads_back(capsys) -> None:
    err = _error(capsys, "eval", "tpool_{a-b}(qsort)", "--at", "a=1", "--at", "b=2")
    assert "tpool_{a - b}(...)" in err and "positive integer" in err


def test_a_float_that_is_an_integer_binds_a_thread_count() -> None:
    as_float = explain("tpool_n(qsort)", n=16.0, x=1024)
    assert as_float.text() == explain("tpool_n(qsort)", n=16, x=1024).text()
    assert main(["eval", "tpool_n(qsort)", "--at", "n=16.0", "--at", "x=1024"]) == 0
    assert main(["sweep", "tpool_n(qsort)", "--over", "x=2,4", "--at", "n=16.0"]) == 0


def test_a_sign_after_tpool_says_what_a_count_must_be(capsys) -> None:
    for text in ("tpool_-2(qsort)", "pipe(inc, tpool_+2(qsort))"):
        err = _error(capsys, "eval", text)
        assert "thread count must be a positive integer" in err and "unexpected" not in err
        assert "column" in err  # where
