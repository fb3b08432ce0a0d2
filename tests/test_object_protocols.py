"""The object protocols a notebook (and multiprocessing) relies on, for every public object a
user holds: ``pickle``, ``copy.copy`` and ``copy.deepcopy`` give an equal object (or, for a
result compared by identity, one that says the same), and ``repr`` is one short line."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path
from typing import Any

from patternalg import parse
from patternalg.forms import PMNF
from patternalg.measurements import read
from patternalg.syntax.terms import Atom, Pipe, Seq, TPool

ATOMS = Path(__file__).resolve().parents[1] / "benchmarks" / "realdata" / "data" / "atoms.txt"


def _copies(obj: Any) -> dict[str, Any]:
    return {
        "pickle": pickle.loads(pickle.dumps(obj)),
        "copy": copy.copy(obj),
        "deepcopy": copy.deepcopy(obj),
    }


def test_a_term_10000_deep_pickles_and_copies() -> None:
    """Pickling recursed once per level: RecursionError at 10,000 levels."""
    term = parse("a")
    for level in range(10_000):
        term = Pipe(parse("b"), term) if level % 2 else TPool(4, term)
    for how, twin in _copies(term).items():
        assert twin == term, how
        assert twin.depth() == 10_001, how


def test_a_pickled_term_keeps_its_parts_and_what_it_shares() -> None:
    term = parse("pipe(tpool_4(qsort[p=2]), mapReduce_{2,n}^{3,k}(inc, shuffle_{2,n}^{k}, nop))")
    twin = pickle.loads(pickle.dumps(term))
    assert twin == term and hash(twin) == hash(term) and str(twin) == str(term)
    shared = Atom("a")
    again = pickle.loads(pickle.dumps(Seq(shared, shared)))
    assert again.left is again.right


def test_a_fit_report_pickles_and_copies_and_builds_its_model_again() -> None:
    """A report's fitted model held the lambda that builds its closed form: pickle failed,
    and ``copy.deepcopy`` raised "PMNF is immutable"; the report's cached library model
    travelled with it."""
    report = PMNF.fit_each(read(str(ATOMS)), uncertainty="auto")[1]
    model = report.model  # built and cached
    for how, twin in _copies(report).items():
        assert twin == report and twin.fitted.expr == report.fitted.expr, how
        assert "model" not in vars(twin) and twin.model == model, how
