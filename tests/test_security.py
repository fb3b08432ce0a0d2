"""Nothing of ours or of a dependency is loaded from a place another user can write."""

from __future__ import annotations

import pickle
from pathlib import Path

from helpers import run_cli
from lark import Lark

from patternalg.syntax import parser as syntax


class _Plant:
    """A pickle that, when loaded, creates the file ``marker`` (the proof of concept)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def test_a_planted_lark_cache_in_the_temp_dir_is_never_unpickled(tmp_path, monkeypatch) -> None:
    shared_tmp = tmp_path / "tmp"
    shared_tmp.mkdir()
    marker = tmp_path / "owned"
    # lark's cache=True names its file after the grammar and options: let lark itself compute
    # the name patternalg's parser would use with the cache on, then plant the pickle there
    monkeypatch.setenv("TMPDIR", str(shared_tmp))
    monkeypatch.setattr("tempfile.tempdir", None)
    Lark.open(str(syntax.grammar_path()), **syntax.PARSER_OPTIONS, cache=True)
    (planted,) = shared_tmp.glob(".lark_cache_*")
    planted.write_bytes(b"\n" + pickle.dumps(_Plant(marker)))
    result = run_cli("eval", "pipe(tpool_4(qsort), inc)", env={"TMPDIR": str(shared_tmp)})
    assert result.returncode == 0 and result.stdout == "258.5425*x*log2(x)\n"
    assert not marker.exists()
    assert [p.name for p in shared_tmp.iterdir()] == [planted.name]  # and nothing written there
