"""The fuzzing stays: hypothesis ``from_lark`` over the grammar (terms, arithmetic, laws) and
property tests over model files. Any text gives a result or a :class:`PatternalgError`, never
another exception; what parses prints back to itself. (Bounded by the hypothesis profile of
``conftest.py``: 50 derandomised examples each under CI.)"""

from __future__ import annotations

import contextlib
import functools
import tempfile
import warnings
from pathlib import Path

import tomli_w
from helpers import load_module
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from patternalg import ModelLibrary, evaluate
from patternalg.errors import ModelFileError, ParseError, PatternalgError
from patternalg.laws.checker import parse_law
from patternalg.syntax.arith import format_expr
from patternalg.syntax.parser import PARSER_OPTIONS, grammar_path, parse, parse_arithmetic

GRAMMAR = Lark.open(str(grammar_path()), **PARSER_OPTIONS)
LIBRARY = ModelLibrary.builtin()
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
NAMES = st.one_of(
    st.sampled_from(["qsort", "inc", "nop", "reduce_p", "shuffle", "x", "n", "p", "phi", "log2",
                     "max", "sqrt", "A", "B", "nan", "inf", "seq", "pipe"]),
    st.tuples(st.sampled_from(LETTERS), st.text(LETTERS + "0123456789_", max_size=5)).map("".join),
)
NUMBERS = st.one_of(
    st.sampled_from(["0", "1", "2", "4", "10", "0.5", "1e3", "1e-999", "1e400", "9" * 1200]),
    st.integers(0, 10**6).map(str),
    st.tuples(st.integers(0, 999), st.integers(0, 999), st.integers(-400, 400)).map(
        lambda t: f"{t[0]}.{t[1]}e{t[2]}"
    ),
)
EXPLICIT = {
    "TPOOL": st.just("tpool_"),
    "MAPREDUCE": st.just("mapReduce_"),
    "NAME": NAMES,
    "NUMBER": NUMBERS,
    "WS": st.sampled_from([" ", "\n", "\t"]),
    "COMMENT": st.just("# note\n"),
}
# from_lark draws slowly (about a second an example on a busy 2-core machine): a small bound
FUZZ = settings(suppress_health_check=list(HealthCheck), deadline=None, max_examples=12)


@functools.cache  # building and validating a from_lark strategy takes most of a second
def texts(start: str) -> st.SearchStrategy[str]:
    """Texts of the grammar from ``start``, sometimes with one character changed."""
    valid = from_lark(GRAMMAR, start=start, explicit=EXPLICIT)
    return st.one_of(valid, st.tuples(valid, st.integers(0, 200), st.characters()).map(
        lambda t: t[0][: t[1]] + t[2] + t[0][t[1] + 1 :]
    ))


@FUZZ
@given(texts("term"))
def test_any_term_text_parses_or_is_a_parse_error(text: str) -> None:
    try:
        term = parse(text)
    except ParseError as exc:
        assert "\n" not in str(exc) and "\x1b" not in str(exc)
        return
    assert parse(str(term)) == term
    try:
        evaluate(term, LIBRARY)
    except PatternalgError:
        pass


@FUZZ
@given(texts("expr"))
def test_any_arithmetic_text_parses_and_prints_back(text: str) -> None:
    try:
        expr = parse_arithmetic(text)
    except ParseError:
        return
    assert parse_arithmetic(format_expr(expr)) == expr


@FUZZ
@given(texts("law"))
def test_any_law_text_parses_or_is_a_parse_error(text: str) -> None:
    try:
        law = parse_law(text)
    except PatternalgError:
        return
    assert parse_law(str(law)) == law


@FUZZ
@given(
    st.one_of(from_lark(GRAMMAR, start="expr", explicit=EXPLICIT), st.text(max_size=40)),
    st.sampled_from(["ns", "s", "", "B/s"]),
)
def test_any_model_expression_in_a_file_is_a_model_or_a_model_file_error(model: str, unit: str):
    text = tomli_w.dumps({"models": {"k": {"model": model, "unit": unit}}})
    try:
        built = ModelLibrary.from_toml_text(text, "m.toml")["k"]
    except ModelFileError as exc:
        assert str(exc).startswith("m.toml") and "\n" not in str(exc)
        return
    assert ModelLibrary.from_toml_text(ModelLibrary([built]).to_toml())["k"].expr == built.expr


VALID_FILE = '[models.k]\nmodel = "1034.17 * x * log2(x)"\nunit = "ns"\nx_range = [1, 1000]\n'


@FUZZ
@given(st.integers(0, len(VALID_FILE)), st.text(min_size=1, max_size=8), st.integers(0, 3))
def test_mutated_model_files_are_read_or_refused_in_one_line(at: int, insert: str, cut: int):
    text = VALID_FILE[:at] + insert + VALID_FILE[at + cut :]
    try:
        library = ModelLibrary.from_toml_text(text, "m.toml")
        for name in library:
            library[name]
    except ModelFileError as exc:
        assert "\n" not in str(exc)


MISUSE = load_module("benchmarks", "api_misuse")  # shared with the fuzzing campaign


@functools.cache
def _calls_and_files() -> tuple[list, Path]:
    files = Path(tempfile.mkdtemp(prefix="patternalg-misuse-"))
    MISUSE.write_files(files)
    return MISUSE.public_calls(), files


@settings(suppress_health_check=list(HealthCheck), deadline=None, max_examples=80)
@given(st.data())
def test_a_public_function_given_a_wrong_argument_refuses_it_in_its_own_words(data):
    """Issue 29, finding 21: every public function, one argument replaced by a value of the
    wrong type (or out of range): it is accepted, or refused with a PatternalgError or a
    ValueError, never an AttributeError, KeyError, IndexError, OverflowError, or a TypeError
    from deep inside (``benchmarks/api_misuse.py``)."""
    calls, files = _calls_and_files()
    call = data.draw(st.sampled_from(calls), label="function")
    slot = data.draw(st.sampled_from(call.slots), label="argument")
    make = data.draw(st.sampled_from(MISUSE.wrong_values()), label="value")
    with contextlib.chdir(files):
        assert MISUSE.misuse(call, slot, make()) is None


def test_every_public_function_given_every_wrong_argument_refuses_it_in_its_own_words():
    """The same, exhaustively: every argument of every public call replaced by every wrong
    value (about 6,700 calls; the sample above missed a hand-off of 10**400, an
    OverflowError)."""
    calls, files = _calls_and_files()
    escaped = []
    with contextlib.chdir(files), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a wrong value may be accepted with a warning
        for call in calls:
            for slot in call.slots:
                for make in MISUSE.wrong_values():
                    found = MISUSE.misuse(call, slot, make())
                    if found:
                        escaped.append(f"{call.name}({slot}=...): {found}")
    assert not escaped, escaped[:5]


def test_every_flag_of_every_command_given_a_wrong_value_is_one_line_and_status_2():
    """``benchmarks/fuzz_flags.py``: about 3,200 command lines, each flag of each command
    with each wrong value, in this process."""
    flags = load_module("benchmarks", "fuzz_flags")
    assert flags.problem("fit", 2, "patternalg fit: error: a\nb\n") == "2 error lines"
    assert flags.problem("eval", 1, "") == "exit status 1" and flags.problem("laws", 1, "") is None
    count, found = flags.sweep()
    assert count > 3200 and not found, found[:5]
