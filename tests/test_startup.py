"""What ``patternalg eval`` does not do at start-up, and the lazy dataclasses that keep it so."""

from __future__ import annotations

import dataclasses
import os
import pickle
import subprocess
import sys

import pytest
from helpers import ROOT

from patternalg.domains import Extrapolation
from patternalg.lazy_dataclass import dataclass_when_used


def _fresh(code: str, stdin: bytes = b"") -> str:
    """What ``code`` prints in a fresh interpreter, reading ``stdin``."""
    done = subprocess.run(
        [sys.executable, "-c", code], input=stdin, capture_output=True, cwd=ROOT, check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    return done.stdout.decode()


def test_eval_imports_no_codegen_no_difflib_and_makes_no_unused_dataclass() -> None:
    code = (
        "import sys, patternalg.cli\n"
        "patternalg.cli.main(['eval', 'pipe(tpool_4(qsort), inc)'])\n"
        "from patternalg.pointwise import PointValue\n"
        "from patternalg.forms.base import FitReport\n"
        "print(sorted(m for m in ('sympy.codegen', 'difflib', 'sympy.sets.setexpr')"
        " if m in sys.modules), [c.__name__ for c in (PointValue, FitReport)"
        " if '__dataclass_fields__' in c.__dict__])\n"
    )
    assert _fresh(code).splitlines() == ["258.5425*x*log2(x)", "[] []"]


@dataclass_when_used(frozen=True)
class _Pair:
    left: int
    right: list[int] = dataclasses.field(default_factory=list)


def test_a_lazy_dataclass_is_a_whole_dataclass() -> None:
    assert "__dataclass_fields__" not in _Pair.__dict__
    pair = _Pair(1)
    assert "__dataclass_fields__" in _Pair.__dict__
    assert pair == _Pair(1, []) and repr(pair) == "_Pair(left=1, right=[])"
    assert pickle.loads(pickle.dumps(pair)) == pair and hash(_Pair(2, ())) == hash(_Pair(2, ()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        pair.left = 2  # type: ignore[misc]
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'left'"):
        _Pair()  # type: ignore[call-arg]
    assert dataclasses.replace(pair, left=3) == _Pair(3)


def test_a_lazy_dataclass_unpickled_before_any_is_made_is_a_whole_dataclass() -> None:
    """A process that never made one (no ``__init__`` ran) unpickles one made elsewhere."""
    text = pickle.dumps(Extrapolation("a", "x", 9.0, 1.0, 4.0))
    code = (
        "import pickle, sys, dataclasses\n"
        "from patternalg.domains import Extrapolation as E\n"
        "before = '__dataclass_fields__' in E.__dict__\n"
        "e = pickle.loads(sys.stdin.buffer.read())\n"
        "try:\n    e.atom = 'b'\nexcept dataclasses.FrozenInstanceError:\n    frozen = True\n"
        "print(before, e == E('a', 'x', 9.0, 1.0, 4.0), repr(e), frozen)\n"
    )
    assert _fresh(code, text).split() == [
        "False", "True", "Extrapolation(atom='a',", "symbol='x',", "value=9.0,", "low=1.0,",
        "high=4.0)", "True",
    ]  # fmt: skip
