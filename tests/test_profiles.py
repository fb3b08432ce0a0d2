"""Profiles in, a term out: readers, the call tree, the term, the command's files and errors."""

from __future__ import annotations

import contextlib
import cProfile
import io
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import three_level_runs

from patternalg import parse
from patternalg.cli import main
from patternalg.errors import MeasurementError
from patternalg.evidence.profile_check import check_profile
from patternalg.library.model_library import ModelLibrary
from patternalg.profiles import (
    CallTree,
    Param,
    Profile,
    fit_profile,
    from_graphframe,
    profile_term,
    read_profile,
    read_profiles,
)

DATA = Path(__file__).parent / "data"
LULESH = DATA / "profiles" / "lulesh"
CUBES = DATA / "extrap" / "tests" / "data" / "cubeset" / "single_parameter"
CALI = [str(LULESH / f"{p}_cores.cali") for p in (27, 64, 125, 216)]


# --- readers -----------------------------------------------------------------------------
def test_caliper_spot_profile_keeps_metrics_metadata_and_every_region() -> None:
    profile = read_profile(str(LULESH / "27_cores.cali"))
    assert profile.metric == "Avg time/rank" and profile.unit == "s"
    assert profile.metadata["mpi.world.size"] == "27"
    assert profile.values[("main",)] == pytest.approx(47.238297)  # as the file says
    assert profile.values[("main", "lulesh.cycle", "TimeIncrement")] == pytest.approx(7.865013)
    slowest = read_profile(str(LULESH / "27_cores.cali"), "Max time/rank")
    assert slowest.values[("main", "lulesh.cycle", "TimeIncrement")] == pytest.approx(13.068559)
    with pytest.raises(MeasurementError, match=r"no metric 'Avg time' .*did you mean 'Avg time/rank'"):
        read_profile(str(LULESH / "27_cores.cali"), "Avg time")


def _json_split(tmp_path: Path, size: int, name: str = "run.json") -> Path:
    """A json-split profile as cali-query writes it: exclusive time per rank."""
    nodes = [{"label": "main", "column": "path"}, {"label": "solve", "column": "path", "parent": 0}]
    data = [[0, 0, 1.0], [0, 1, 1.5], [1, 0, 2.0 * size], [1, 1, 3.0 * size]]
    document = {
        "data": data, "columns": ["path", "mpi.rank", "sum#time.duration"],
        "column_metadata": [{"is_value": False}, {"is_value": False}, {"is_value": True}],
        "nodes": nodes, "problem.size": str(size),
    }  # fmt: skip
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return path


def test_caliper_json_split_and_plain_records(tmp_path: Path) -> None:
    profile = read_profile(str(_json_split(tmp_path, 4)))
    # exclusive per rank, the mean over the ranks (was their sum), as Hatchet and Cube take
    # it; inclusive summed up the tree
    assert dict(profile.values) == {("main",): 11.25, ("main", "solve"): 10.0}
    assert profile.metadata["problem.size"] == "4" and profile.unit == "s"
    assert "2 call paths with several records (ranks, or other attributes)" in profile.notes[0]
    assert "the mean over the 2 ranks" in profile.notes[0]
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps([{"path": "main", "inclusive#time": 3.0}, {"path": "main/solve", "inclusive#time": 2.0}]))
    assert dict(read_profile(str(plain)).values) == {("main",): 3.0, ("main", "solve"): 2.0}


def _leaf(n: int) -> int:
    return sum(range(n))


def _left() -> int:
    return _leaf(200_000)


def _right() -> int:
    return _leaf(600_000)


def _fib(k: int) -> int:
    return k if k < 2 else _fib(k - 1) + _fib(k - 2)


def _program() -> int:
    return _left() + _right() + _fib(16)


def test_cprofile_attributes_a_shared_function_by_its_callers_edge_times(tmp_path: Path) -> None:
    profiler = cProfile.Profile()
    profiler.runcall(_program)
    path = tmp_path / "run_n1.pstats"
    profiler.dump_stats(path)
    values = read_profile(str(path)).values
    by_name = {tuple(p.split(" (")[0] for p in path): v for path, v in values.items()}
    root = ("_program",)
    left, right = by_name[(*root, "_left", "_leaf")], by_name[(*root, "_right", "_leaf")]
    import pstats

    stats = pstats.Stats(str(path)).stats  # type: ignore[attr-defined]
    leaf = next(v for k, v in stats.items() if k[2] == "_leaf")
    assert left + right == pytest.approx(leaf[3])  # the whole of _leaf, split by its callers
    callers = {k[2]: v[3] for k, v in leaf[4].items()}
    assert left == pytest.approx(callers["_left"]) and right == pytest.approx(callers["_right"])
    # a recursion is not unfolded: _fib appears once, its whole time its own subtree's
    assert (*root, "_fib") in by_name and not any(p.count("_fib") > 1 for p in by_name)
    tree = CallTree.of([read_profile(str(path))], ["n"])
    assert (tree.own() >= 0).all()


def _dumped(tmp_path: Path, profiler: cProfile.Profile) -> tuple[Profile, float]:
    """A cProfile run read back, and the time pstats measured (``total_tt`` less the
    profiler's own ``disable``)."""
    import pstats

    path = tmp_path / "run_n1.pstats"
    profiler.dump_stats(path)
    stats = pstats.Stats(str(path)).stats  # type: ignore[attr-defined]
    return read_profile(str(path)), sum(v[2] for k, v in stats.items() if "disable" not in k[2])


def test_cprofile_keeps_a_function_called_from_outside_the_profile_and_from_inside(tmp_path: Path) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    _leaf(2_000_000)  # called from outside the profile, and from _left inside it
    _left()
    profiler.disable()
    profile, measured = _dumped(tmp_path, profiler)
    names = {"/".join(p.split(" (")[0] for p in path): v for path, v in profile.values.items()}
    assert {"_leaf", "_leaf/sum", "_left", "_left/_leaf", "_left/_leaf/sum"} <= set(names)  # _leaf a root too
    tree = CallTree.of([profile], ["n"])
    assert tree.values[0, 0] == pytest.approx(measured, rel=1e-9)  # was _left's 10 %
    assert names["_leaf"] > 2 * names["_left/_leaf"]  # ten times the work
    only, measured = _dumped(tmp_path, _run(_fib, 15))  # the only top function, recursive
    assert ("_fib",) in {tuple(n.split(" (")[0] for n in p) for p in only.values}  # was {}: "nothing was measured"
    assert CallTree.of([only], ["n"]).values[0, 0] == pytest.approx(measured, rel=1e-9)


def _run(function: object, *args: object) -> cProfile.Profile:
    profiler = cProfile.Profile()
    profiler.runcall(function, *args)  # type: ignore[arg-type]
    return profiler


def _ping(n: int) -> None:
    _leaf(20_000)
    if n > 0:
        _pong(n - 1)


def _pong(n: int) -> None:
    _ping(n)


def test_cprofile_counts_a_cycle_of_mutual_recursion_once(tmp_path: Path) -> None:
    profile, measured = _dumped(tmp_path, _run(_ping, 60))
    tree = CallTree.of([profile], ["n"])
    # _ping -> _leaf counts the calls of every level: under _ping/_pong too, it was counted twice
    names = {"/".join(p.split(" (")[0] for p in path) for path in tree.paths}
    assert {"_ping", "_ping/_leaf", "_ping/_leaf/sum"} <= names and not any("_pong" in n for n in names)  # (a gc callback may run too)
    assert tree.values[0, 0] == pytest.approx(measured, rel=1e-9)
    assert tree.own().sum() == pytest.approx(measured, rel=1e-9)  # was about twice
    assert any("_ping (" in note and "_pong (" in note and "recursive cycle" in note for note in profile.notes)


def test_the_pure_python_profile_modules_runs_share_a_time_by_calls(tmp_path: Path) -> None:
    import profile as pure

    profiler = pure.Profile()
    profiler.runcall(_program)
    path = tmp_path / "run_n1.pstats"
    profiler.dump_stats(path)  # its callers are counts of calls, not cProfile's tuples: a TypeError was raised
    read = read_profile(str(path))
    names = {"/".join(p.split(" (")[0] for p in path): v for path, v in read.values.items()}
    assert {"_program", "_program/_left/_leaf", "_program/_right/_leaf"} <= set(names)
    assert not any("profiler" in n or "<function" in n or "setprofile" in n for n in names)  # its made-up frames
    assert names["_program/_left/_leaf"] == pytest.approx(names["_program/_right/_leaf"])  # one call each: halves
    import pstats

    stats = pstats.Stats(str(path)).stats  # type: ignore[attr-defined]
    assert names["_program"] == next(v[3] for k, v in stats.items() if k[2] == "_program")  # the whole run
    # a recursion's cumulative time is its outermost calls': shared by them, not by every
    # call (1 of _fib's 3,193 calls came from _program: it had 1/3,193 of its time)
    fib = next(v[3] for k, v in stats.items() if k[2] == "_fib")
    assert names["_program/_fib"] == pytest.approx(fib)
    assert any("by their calls" in note for note in read.notes)  # (so _left/_leaf may hold more than _left)


def test_cube_profiles_keep_the_tree() -> None:
    pytest.importorskip("pycubexr")
    files = sorted(str(p) for p in CUBES.glob("*/profile.cubex"))
    tree = CallTree.of(read_profiles(files), ["x"])
    assert sorted(tree.points.ravel().tolist()) == [1, 10, 25, 50, 100, 250, 500, 1000, 2000]
    assert len(tree.paths) > 3 and tree.unit == "s" and tree.metric == "Avg time/rank"
    assert np.allclose(tree.values[0], tree.own().sum(axis=0))  # the root holds every own time


def test_graphframe_of_a_thicket_gives_one_run_per_profile() -> None:
    class Node:
        def __init__(self, name: str, children: tuple = ()) -> None:
            self.frame, self.children = {"name": name}, list(children)

    solve = Node("solve")
    top = Node("main", (solve,))

    class Graph:
        roots = [top]

    index = pd.MultiIndex.from_tuples([(top, "a"), (solve, "a"), (top, "b"), (solve, "b")], names=["node", "profile"])

    class Thicket:
        graph = Graph()
        inc_metrics: list[str] = []
        exc_metrics = ["time"]
        dataframe = pd.DataFrame({"time": [1.0, 2.0, 1.0, 4.0]}, index=index)
        metadata = pd.DataFrame({"n": [8, 16]}, index=pd.Index(["a", "b"], name="profile"))

    runs = from_graphframe(Thicket(), metric="time")
    assert [dict(r.values) for r in runs] == [
        {("main",): 3.0, ("main", "solve"): 2.0},
        {("main",): 5.0, ("main", "solve"): 4.0},
    ]
    assert CallTree.of(runs, ["n"]).points.ravel().tolist() == [8.0, 16.0]


class _Node:
    def __init__(self, name: str, children: tuple = ()) -> None:
        self.frame, self.children = {"name": name}, list(children)


class _Frame:
    """A GraphFrame as Hatchet makes one: a graph of nodes, a dataframe indexed by them."""

    inc_metrics = ["time (inc)"]
    exc_metrics = ["time"]
    metadata: dict = {}

    def __init__(self, roots: list, rows: dict, index: object = None) -> None:
        self.graph = type("Graph", (), {"roots": roots})()
        self.dataframe = pd.DataFrame(rows, index=index if index is not None else pd.Index(roots, name="node"))


def test_graphframe_adds_siblings_of_one_name_and_averages_only_ranks() -> None:
    """main(5 inc) -> foo(1), foo(3) gave main/foo = 2.0 (averaged), and, exclusive, a root
    that lost 2 s; ranks are still averaged."""
    one, two = _Node("foo"), _Node("foo")
    top = _Node("main", (one, two))
    index = pd.Index([top, one, two], name="node")
    frame = _Frame([top], {"time (inc)": [5.0, 1.0, 3.0], "time": [1.0, 1.0, 3.0]}, index)
    for metric in ("time (inc)", "time"):
        (profile,) = from_graphframe(frame, metric=metric)
        assert dict(profile.values) == {("main",): 5.0, ("main", "foo"): 4.0}, metric
    ranks = pd.MultiIndex.from_tuples([(top, 0), (top, 1), (one, 0), (one, 1), (two, 0), (two, 1)], names=["node", "rank"])
    frame = _Frame([top], {"time (inc)": [5.0, 7.0, 1.0, 3.0, 3.0, 3.0]}, ranks)
    (profile,) = from_graphframe(frame, metric="time (inc)")
    assert dict(profile.values) == {("main",): 6.0, ("main", "foo"): 5.0}  # (1 + 3) / 2 + 3


def test_graphframe_keeps_a_node_of_several_parents_under_each() -> None:
    """A node with two parents (Hatchet's graph of a cProfile run) was kept under the first
    only, with all its time: 30 times its parent."""
    shared = _Node("sum")
    cheap, costly = _Node("cheap", (shared,)), _Node("costly", (shared,))
    top = _Node("main", (cheap, costly))
    index = pd.Index([top, cheap, costly, shared], name="node")
    (profile,) = from_graphframe(_Frame([top], {"time (inc)": [10.0, 1.0, 9.0, 8.0]}, index))
    values = dict(profile.values)
    assert values[("main", "cheap", "sum")] == pytest.approx(0.8) and values[("main", "costly", "sum")] == pytest.approx(7.2)
    assert values[("main", "cheap", "sum")] + values[("main", "costly", "sum")] == pytest.approx(8.0)


# --- parameters, the tree, the term ----------------------------------------------------------
def test_param_reads_metadata_then_the_file_name() -> None:
    assert Param.parse("n").value_of("x/nx_n4000_r1.pstats", {}) == 4000.0
    assert Param.parse("p").value_of("mm.p8.n1024.r1/profile.cubex", {}) == 8.0
    assert Param.parse("mpi.world.size=p").value_of("27_cores.cali", {"mpi.world.size": "27"}) == 27.0
    with pytest.raises(MeasurementError, match=r"'mpi.world.size' is no symbol .*: name one, e.g. params='mpi.world.size=p'$"):
        Param.parse("mpi.world.size")
    with pytest.raises(MeasurementError, match=r"run.pstats: no parameter n: no metadata key 'n'"):
        Param.parse("n").value_of("run.pstats", {})


def _tree(values: dict, runs: int = 3) -> CallTree:
    profiles = [Profile(f"r_n{2**i}", {p: v * 2**i for p, v in values.items()}) for i in range(runs)]
    return CallTree.of(profiles, ["n"])


def test_term_pools_names_and_folding() -> None:
    tree = _tree({("main",): 10.0, ("main", "a-b"): 4.0, ("main", "a_b"): 4.0, ("main", "x"): 0.001})
    built = profile_term(tree, pools={"main/a-b": 4})
    assert str(built.term) == "seq(main, seq(tpool_4(main.a_b), main.a_b_2))"
    assert parse(built.text()) == built.term  # the file reads back to the term
    assert built.work["main.a_b"].tolist() == [16.0, 32.0, 64.0]  # 4 threads' work
    assert "1 call path below 0.1 % of the root folded" in built.notes[-1]
    kept = profile_term(tree, min_share=0)
    assert "main.x" in kept.atoms.values() and not kept.folded
    assert kept.work["main"].tolist() == pytest.approx([1.999, 3.998, 7.996])  # 10 - 4 - 4 - 0.001
    assert built.work["main"].tolist() == pytest.approx([2.0, 4.0, 8.0])  # main.x folded back in


def test_runs_missing_a_call_path_keep_its_time_in_the_parent_with_a_note() -> None:
    runs = [Profile(f"r_n{n}", {("main",): 3.0 * n, ("main", "a"): n, **({("main", "b"): 1.0} if n == 2 else {})})
            for n in (1, 2, 4)]  # fmt: skip
    tree = CallTree.of(runs, ["n"])
    assert tree.paths == (("main",), ("main", "a")) and tree.own()[0].tolist() == [2.0, 4.0, 8.0]
    assert "1 call path not in every run (main/b)" in tree.notes[0]


@pytest.mark.parametrize(
    ("runs", "message"),
    [
        ([Profile("a_n1", {("main",): 1.0}), Profile("b_n2", {("solver",): 1.0})], "b_n2 is a profile of another program"),
        ([Profile("a_n1", {("main",): 1.0}), Profile("b_n2", {("main",): 0.0})], "b_n2: the root main has the time 0"),
        ([Profile("a_n1", {("main",): 1.0}), Profile("b_n2", {("main",): 1.0}, unit="ms")], "mixed units"),
        ([Profile("a", {("main",): 1.0})], "a: no parameter n"),
    ],
)  # fmt: skip
def test_bad_or_mixed_runs_are_one_clear_error(runs: list, message: str) -> None:
    with pytest.raises(MeasurementError, match=message):
        CallTree.of(runs, ["n"])


# --- the command ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def written(tmp_path_factory) -> tuple[Path, Path, str]:
    """LULESH's term and models as ``profile`` writes them, and its CSV header."""
    out = tmp_path_factory.mktemp("app")
    models, term = out / "app.toml", out / "app.term"
    args = ["profile", *CALI, "--param", "mpi.world.size=p", "--out", str(models), "--term-out", str(term)]
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        assert main([*args, "--format", "csv", "-q"]) == 0
    return models, term, text.getvalue().splitlines()[0]


def test_command_writes_a_term_and_its_models(written) -> None:
    models, term, header = written
    assert header.startswith("path,atom,threads,measured [s],inclusive_model,composed_model")
    library = ModelLibrary.from_file(models)
    atoms = {a.name for a in parse(term.read_text()).walk() if hasattr(a, "name")}
    assert atoms == set(library) and "main.lulesh_cycle.timeincrement" in atoms


def test_a_redesigned_term_evaluates_with_the_profile_models(written, tmp_path: Path, capsys) -> None:
    models, term, _ = written
    whole = str(parse(term.read_text()))
    redesign = tmp_path / "redesign.term"
    redesign.write_text(_wrapped(whole, "seq(main.lulesh_cycle.lagrangeleapfrog,", "tpool_8"))
    args = ["--at", "p=343", "--models", str(models), "--no-builtin", "-q"]
    values = []
    for source in (f"@{term}", f"@{redesign}"):
        assert main(["eval", source, *args]) == 0
        out = capsys.readouterr().out.split()
        assert out[1] == "s"
        values.append(float(out[0]))
    begin = whole.index("seq(main.lulesh_cycle.lagrangeleapfrog,")
    assert main(["eval", whole[begin : _close(whole, begin + 3) + 1], *args]) == 0
    leapfrog = float(capsys.readouterr().out.split()[0])
    assert values[1] == pytest.approx(values[0] - leapfrog * 7 / 8, rel=1e-9)  # eight threads there
    assert main(["eval", f"@{redesign}", "--interval", "0.9", *args]) == 0
    assert capsys.readouterr().out.split()[1] == "s"


def test_compare_and_optimize_take_the_written_term(written, tmp_path: Path, capsys) -> None:
    models, term, _ = written
    whole = str(parse(term.read_text()))
    redesign = tmp_path / "redesign.term"
    redesign.write_text(_wrapped(whole, "seq(main.lulesh_cycle.lagrangeleapfrog,", "tpool_8"))
    args = ["--models", str(models), "--no-builtin", "-q"]
    assert main(["compare", f"@{term}", f"@{redesign}", "--over", "p=27..343", *args]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("p in [27, 343]: ") and "tpool_8" in first  # the redesign, everywhere
    pooled = _wrapped(whole, "seq(main.lulesh_cycle.lagrangeleapfrog,", "tpool_k")
    assert main(["optimize", pooled, "--budget", "k<=16", "--at", "p=216", *args]) == 0
    assert capsys.readouterr().out.startswith("best: k=16: ")  # more threads, less time


def _close(text: str, begin: int) -> int:
    """The index of the parenthesis that closes the one at ``begin``."""
    depth = 0
    for end in range(begin, len(text)):
        depth += {"(": 1, ")": -1}.get(text[end], 0)
        if depth == 0:
            return end
    raise ValueError(text)


def _wrapped(text: str, start: str, pool: str) -> str:
    """``text`` with the sub-term that begins with ``start`` wrapped in ``pool(...)``."""
    begin = text.index(start)
    end = _close(text, begin + len("seq"))
    return f"{text[:begin]}{pool}({text[begin : end + 1]}){text[end + 1 :]}"


def test_max_time_per_rank_shows_the_load_imbalance(capsys) -> None:
    assert main(["profile", *CALI, "--param", "mpi.world.size=p", "--metric", "Max time/rank", "--format", "json"]) == 0
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert "a load imbalance" in captured.err
    cycle = next(n for n in record["nodes"] if n["path"] == "main/lulesh.cycle")
    assert cycle["imbalance"] > 0.1 and all(g > 0 for g in cycle["gap"])  # the parts add up to more
    assert round(cycle["imbalance"], 3) == 0.293  # docs/profiles.md: 29 % (it said 39 %)
    # an own time cut at 0 is said so, not taken for a code path that did not run
    assert "kernel 'main/lulesh.cycle', metric 'time': every own time is 0: cut at 0 where" in captured.err
    assert "did not run" not in captured.err
    assert "7 nodes' children add up to more than the nodes" in captured.err and "their own time is cut" in captured.err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--param", "n"], "27_cores.cali: no parameter n"),
        (["--param", "mpi.world.size=p", "--metric", "Median"], "no metric 'Median'"),
        (["--param", "mpi.world.size=p", "--pool", "main.nowhere=4"], "--pool main.nowhere: no such call path"),
        (["--param", "mpi.world.size=p", "--at", "q=1000"], "--at q = 1000: q is not a parameter of the runs (p)"),
        (["--param", "mpi.world.size=p", "--min-share", "1.5"], "--min-share 1.5"),
        (["--param", "mpi.world.size=p", "--pool", "main=8", "--pool", "main=4"], "--pool main: the path is given twice"),
        # two spellings of one region: the last won silently
        (["--param", "mpi.world.size=p", "--pool", "main/lulesh.cycle/LagrangeLeapFrog=4", "--pool",
          "main.lulesh_cycle.lagrangeleapfrog=8"],
         "--pool main.lulesh_cycle.lagrangeleapfrog: the path is given twice (also as main/lulesh.cycle/LagrangeLeapFrog)"),
        # 'takes 1 value along the longest lines' (of a fit over p twice)
        (["--param", "mpi.world.size=p", "--param", "mpi.world.size=p"], "--param mpi.world.size is given twice"),
        (["--param", "mpi.world.size=p", "--param", "mpi.world.size=q"], "--param mpi.world.size is given twice"),
        # 'no such call path in the term; did you mean ...' of a node folded away
        (["--param", "mpi.world.size=p", "--pool", "main/MPI_Barrier=2"],
         "--pool main/MPI_Barrier: the call path is folded into its parent's own time (below --min-share 0.001"),
    ],
)  # fmt: skip
def test_command_errors_are_one_line(extra: list, message: str, capsys) -> None:
    assert main(["profile", *CALI, *extra]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err, err


def test_unreadable_files_and_a_missing_extra(tmp_path: Path, capsys, monkeypatch) -> None:
    broken = tmp_path / "x_n1.pstats"
    broken.write_bytes(b"\x00 not a profile")
    assert main(["profile", str(broken), "--param", "n"]) == 2
    assert "x_n1.pstats: cannot read the cProfile file" in capsys.readouterr().err
    assert main(["profile", CALI[0], str(DATA / "profiles" / "difflib" / "diff_n1000_r1.pstats"), "--param", "n"]) == 2
    err = capsys.readouterr().err  # the Caliper run has no parameter n: left out, said first
    assert f"{CALI[0]}: no parameter n" in err.splitlines()[0] and "1 measured point" in err
    import builtins

    real = builtins.__import__

    def no_caliper(name: str, *args, **kwargs):
        if name == "caliperreader":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_caliper)
    assert main(["profile", *CALI, "--param", "mpi.world.size=p"]) == 2
    assert "pip install 'patternalg[profiles]'" in capsys.readouterr().err


def test_check_dataframe_is_keyed_by_call_path() -> None:
    tree = CallTree.of(read_profiles(CALI), ["mpi.world.size=p"])
    check = check_profile(fit_profile(profile_term(tree)), at={"p": 343.0}, draws=20)
    frame = check.to_dataframe()
    assert frame.index.name == "path" and "main/lulesh.cycle/TimeIncrement" in frame.index
    stats = pd.DataFrame({"calls": [1]}, index=pd.Index(["main/lulesh.cycle/TimeIncrement"], name="path"))
    joined = stats.join(frame)
    assert joined.loc["main/lulesh.cycle/TimeIncrement", "atom"] == "main.lulesh_cycle.timeincrement"
    assert "├─ " in check.text() and "TimeIncrement" in check.text()


def test_an_empty_caliper_file_records_no_metric(tmp_path: Path, capsys) -> None:
    """It said 'several metrics: choose one with --metric (the profile has: none)'."""
    empty = tmp_path / "e.cali"
    empty.write_text("")
    assert main(["profile", str(empty), "--param", "x"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"patternalg profile: error: {empty}: the profile records no metric (no region was measured)"


def test_an_exclusive_metric_sums_every_descendant_up_the_tree(tmp_path: Path) -> None:
    """Each path's exclusive time went to its parent alone: main, with main/b and main/b/c
    of 1, 2 and 4 n, was 3n inclusive (not 7n), its own time fitted as 0 and a gap of +100 %
    reported (fourth probe, 2026-11-30)."""
    from helpers import run_cli

    done = run_cli("profile", *three_level_runs(tmp_path), "--param", "n", "--format", "json")
    assert done.returncode == 0, done.stderr
    nodes = {node["path"]: node for node in json.loads(done.stdout)["nodes"]}
    assert [nodes[p]["inclusive"] for p in ("main", "main/b", "main/b/c")] == [
        [7.0, 14.0, 28.0, 56.0], [6.0, 12.0, 24.0, 48.0], [4.0, 8.0, 16.0, 32.0]
    ]
    assert all(abs(g) < 1e-9 for node in nodes.values() if node["gap"] for g in node["gap"])


@pytest.mark.parametrize("pools", [["main/b=2"], ["main/b=2", "main=3"]])
def test_a_pool_gives_back_what_was_measured_at_every_node_inside_it(tmp_path: Path, pools: list[str]) -> None:
    """A node inside a pool is its atoms' work shared by the pool's threads: main/b/c in a
    pool of 2 was compared as 8n with its 4n measured, a gap of +100 % (on LULESH +700 % at
    every node below a pool of 8; fourth probe, 2026-11-30)."""
    from helpers import run_cli

    done = run_cli("profile", *three_level_runs(tmp_path), "--param", "n", "--format", "json",
                   *(a for p in pools for a in ("--pool", p)))  # fmt: skip
    assert done.returncode == 0, done.stderr
    nodes = json.loads(done.stdout)["nodes"]
    assert all(abs(c / i - 1) < 1e-12 for node in nodes for c, i in zip(node["composed"], node["inclusive"], strict=True))


@pytest.mark.parametrize(
    ("document", "key"),
    [
        ({"data": 5, "columns": ["time", "path"], "nodes": []}, "data"),
        ({"data": [[1, 0]], "columns": 5, "nodes": []}, "columns"),
        ({"data": [[1, 0]], "columns": ["time", "path"], "column_metadata": [5, {}], "nodes": []}, "column_metadata"),
        ({"data": [[1]], "columns": ["time", "path"], "nodes": "x"}, "nodes"),
    ],
)
def test_a_malformed_json_split_is_one_line(tmp_path: Path, document: dict, key: str) -> None:
    """Each was a TypeError or AttributeError traceback (fourth probe, 2026-11-30)."""
    from helpers import run_cli

    path = tmp_path / "run_n1.json"
    path.write_text(json.dumps(document))
    done = run_cli("profile", str(path), "--param", "n")
    assert done.returncode == 2 and f"json-split: {key!r} is not" in done.stderr and done.stderr.count("\n") == 1


@pytest.mark.parametrize("count", ["\u0664", "1" + "0" * 400, "0", "x"])
def test_a_pool_count_is_a_whole_number_a_double_holds(tmp_path: Path, count: str) -> None:
    from helpers import run_cli

    done = run_cli("profile", *three_level_runs(tmp_path), "--param", "n", "--pool", f"main/b={count}")
    assert done.returncode == 2 and "expected PATH=N with N threads" in done.stderr, done.stderr


def test_a_caliper_file_cut_inside_a_record_is_left_out_with_a_warning(tmp_path: Path) -> None:
    """caliper-reader read a .cali cut mid-record up to the cut without a word: most of
    the run's regions were missing, and the profile said only 'call paths not in every
    run' (fourth probe, 2026-11-30)."""
    from helpers import ROOT, run_cli

    runs = sorted((ROOT / "tests/data/profiles/lulesh").glob("*.cali"))
    for run in runs:
        (tmp_path / run.name).write_bytes(run.read_bytes())
    cut = tmp_path / runs[0].name
    cut.write_bytes(cut.read_bytes()[:5268])
    done = run_cli("profile", str(tmp_path), "--param", "mpi.world.size=p")
    assert done.returncode == 0 and f"{cut.name}: the file ends inside a record" in done.stderr, done.stderr
    assert "left out; the other runs are modelled" in done.stderr


@pytest.mark.parametrize("spelling", ["./{name}", "link"])
def test_out_and_term_out_naming_one_file_in_two_spellings_are_refused(tmp_path: Path, spelling: str, capsys) -> None:
    """--out same.toml --term-out ./same.toml wrote the term, then the models over it: the
    term file was lost with exit 0."""
    out = tmp_path / "same.toml"
    out.write_text("kept\n")
    other = tmp_path / "link"
    other.symlink_to(out)
    term = str(other) if spelling == "link" else str(tmp_path / ".") + "/same.toml"
    status = main(["profile", *CALI, "--param", "mpi.world.size=p", "--out", str(out), "--term-out", term, "-q"])
    assert status == 2 and "--out and --term-out name the same file" in capsys.readouterr().err
    assert out.read_text() == "kept\n"


def _cali_dir(tmp_path: Path) -> Path:
    runs = tmp_path / "runs"
    runs.mkdir()
    for file in CALI:
        (runs / Path(file).name).write_bytes(Path(file).read_bytes())
    return runs


@pytest.mark.parametrize("option", ["--out", "--term-out"])
def test_an_input_found_in_a_directory_is_never_overwritten(tmp_path: Path, option: str, capsys) -> None:
    """`profile DIR --out DIR/64_cores.cali` replaced a run with TOML, and `fit SET --out
    SET/FOLDER/profile.cubex` a Cube file: only the files named were checked."""
    runs = _cali_dir(tmp_path)
    victim = runs / "64_cores.cali"
    before = victim.read_bytes()
    assert main(["profile", str(runs), "--param", "mpi.world.size=p", option, str(victim), "-q"]) == 2
    assert "it is the input being read" in capsys.readouterr().err and victim.read_bytes() == before
    cubes = tmp_path / "set"
    for file in CUBES.glob("*/profile.cubex"):
        (cubes / file.parent.name).mkdir(parents=True)
        (cubes / file.parent.name / file.name).write_bytes(file.read_bytes())
    cube = next(cubes.glob("*/profile.cubex"))
    before = cube.read_bytes()
    assert main(["fit", str(cubes), "--out", str(cube)]) == 2
    assert "it is the input being read" in capsys.readouterr().err and cube.read_bytes() == before


def test_a_directory_reads_profiles_without_suffixes_and_leaves_other_files_out(tmp_path: Path) -> None:
    """A directory of files without suffixes was 'no profiles in the directory', though each
    named alone was read by its content."""
    runs = tmp_path / "runs"
    runs.mkdir()
    for n in (1, 2, 4):
        _json_split(runs, n, name=f"run_n{n}")
    (runs / "README").write_text("how these were made\n")
    profiles = read_profiles([str(runs)])
    assert [Path(p.source).name for p in profiles] == ["run_n1", "run_n2", "run_n4"]
    assert f"{runs}: 1 file that is no profile left out (README)" in profiles[0].notes
    tree = CallTree.of(profiles, ["problem.size=n"])
    assert f"{runs}: 1 file that is no profile left out (README)" in tree.notes


def test_a_pipe_in_a_directory_of_profiles_is_left_out_with_a_note(tmp_path: Path) -> None:
    """A pipe named like a profile (or a Cube set's folder's profile.cubex) in a directory
    given was left out without a word; reading it would block."""
    runs = tmp_path / "runs"
    runs.mkdir()
    for n in (1, 2, 4):
        _json_split(runs, n, name=f"run_n{n}.json")
    os.mkfifo(runs / "run_n8.json")
    (runs / "mm.x16.r1").mkdir()
    os.mkfifo(runs / "mm.x16.r1" / "profile.cubex")
    profiles = read_profiles([str(runs)])
    assert [Path(p.source).name for p in profiles] == ["run_n1.json", "run_n2.json", "run_n4.json"]
    for pipe in (runs / "run_n8.json", runs / "mm.x16.r1" / "profile.cubex"):
        assert f"{pipe}: not a regular file (a pipe, a device or a directory): left out" in profiles[0].notes


@pytest.mark.parametrize("twice", [[CALI[1]], ["{dir}"], ["{hardlink}"]])
def test_a_run_given_twice_is_refused(tmp_path: Path, twice: list, capsys) -> None:
    """`profile d/{27,64,125,216,64}_cores.cali` or `profile d d/27_cores.cali` made a run a
    repetition of itself (an uncertainty from nothing); a hard link of a run too (its real
    path is its own)."""
    runs = _cali_dir(tmp_path)
    files = [str(runs / Path(f).name) for f in CALI]
    if twice == ["{hardlink}"]:
        os.link(files[0], runs / "hl_27.cali")
        twice = ["hl_27.cali"]
    given = [*files, *(t.format(dir=runs) if "{" in t else str(runs / Path(t).name) for t in twice)]
    assert main(["profile", *given, "--param", "mpi.world.size=p", "-q"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "the run is given twice" in err, err


def test_an_own_time_that_is_the_subtraction_s_leftover_is_0() -> None:
    """A root whose time is its children's (cProfile's program, three functions called from
    enable to disable) kept 1.7e-18 s of own time from the subtraction in doubles, fitted as
    an atom 1.24e-16 + 5.8e-25*n**(7/3): it is 0, and a real own time stays."""
    children = (0.1, 0.2, 0.11)  # 0.11 + 0.2 + 0.1, less 0.1, 0.2 and 0.11, is 4.2e-17
    total = children[2] + children[1] + children[0]
    runs = [Profile(f"r{n}", {("main",): total, **{("main", f"f{i}"): c for i, c in enumerate(children)}}, {"n": str(n)})
            for n in (1, 2, 4)]  # fmt: skip
    tree = CallTree.of(runs, ["n"])
    assert (tree._own()[0] != 0).any()  # the subtraction leaves something in doubles
    assert tree.own()[0].tolist() == [0.0, 0.0, 0.0]
    runs = [Profile("r", {("main",): 1.0, ("main", "f"): 0.999999}, {"n": "1"})]
    assert CallTree.of(runs, ["n"]).own()[0][0] == pytest.approx(1e-6)
    # the root ran: its own time of 0 is its children taking all of it, not a path that did not run
    notes = " ".join(fit_profile(profile_term(tree)).notes)
    assert "every own time is 0: the node's children take all of its time" in notes, notes
    assert "did not run" not in notes


def test_profile_takes_the_allow_nonpositive_its_note_names(capsys) -> None:
    """profile's note on own times of 0 said '--allow-nonpositive keeps them', an option
    profile refused (unrecognized arguments): it takes it, as fit does."""
    argv = ["profile", *CALI, "--param", "mpi.world.size=p", "--metric", "Max time/rank", "--format", "json"]
    assert main([*argv, "--allow-nonpositive"]) == 0
    assert json.loads(capsys.readouterr().out)["nodes"]


def _thicket(values: dict[int, dict[str, float]]) -> object:
    """A duck-typed Thicket of main -> solve, extra: ``values[n][name]`` per profile (NaN
    where the run lacks the node, as Thicket fills it)."""
    extra, solve = _Node("extra"), _Node("solve")
    top = _Node("main", (solve, extra))
    nodes = {"main": top, "solve": solve, "extra": extra}
    index = pd.MultiIndex.from_tuples([(nodes[k], f"p{n}") for n, row in values.items() for k in row], names=["node", "profile"])

    class Thicket:
        graph = type("Graph", (), {"roots": [top]})()
        dataframe = pd.DataFrame({"time (inc)": [v for row in values.values() for v in row.values()]}, index=index)
        inc_metrics, exc_metrics, default_metric = ["time (inc)"], [], "time (inc)"
        metadata = pd.DataFrame({"n": list(values)}, index=pd.Index([f"p{n}" for n in values], name="profile"))

    return Thicket()


def test_a_thicket_s_nan_is_a_node_absent_from_that_run() -> None:
    """Thicket fills a node some runs lack with NaN: every run was refused with 'run0: call
    path main/extra has the time np.float64(nan)'."""
    frame = _thicket({n: {"main": 10.0 * n, "solve": 5.0 * n, "extra": np.nan if n < 32 else 1.0 * n} for n in (8, 16, 32, 64)})
    runs = from_graphframe(frame)
    assert ("main", "extra") not in runs[0].values and runs[3].values[("main", "extra")] == 64.0
    tree = CallTree.of(runs, "n")
    assert tree.paths == (("main",), ("main", "solve")) and "1 call path not in every run (main/extra)" in tree.notes[0]
    with pytest.raises(MeasurementError, match=r"r: call path main has the time nan \(a time is finite"):
        CallTree.of([Profile("r", {("main",): np.float64("nan")}, {"n": "1"})], "n")


def test_a_frame_s_only_metric_is_taken() -> None:
    """A frame of one exclusive metric and no default_metric: 'the frame has several
    metrics: choose one with metric= (its columns: time)'."""
    solve = _Node("solve")
    top = _Node("main", (solve,))
    frame = _Frame([top], {"time": [1.0, 2.0]}, pd.Index([top, solve], name="node"))
    frame.inc_metrics = []  # type: ignore[misc]
    (profile,) = from_graphframe(frame)
    assert profile.metric == "time" and dict(profile.values) == {("main",): 3.0, ("main", "solve"): 2.0}


def test_a_caliper_file_cut_at_a_line_end_is_left_out_with_a_warning(tmp_path: Path) -> None:
    """`head -n 95 64_cores.cali` was read as a whole run of 20 nodes (of 29), and only a
    note 'call paths not in every run' blamed the program: a Caliper file ends with its
    globals record."""
    from helpers import run_cli

    for run in CALI:
        (tmp_path / Path(run).name).write_bytes(Path(run).read_bytes())
    cut = tmp_path / "64_cores.cali"
    cut.write_bytes(b"".join(cut.read_bytes().splitlines(keepends=True)[:95]))
    done = run_cli("profile", str(tmp_path), "--param", "mpi.world.size=p", "--format", "json")
    assert done.returncode == 0 and f"{cut}: the file ends before its globals record" in done.stderr, done.stderr
    assert "not in every run" not in done.stderr and len(json.loads(done.stdout)["nodes"]) > 20
    read_profile(CALI[0])  # a whole file is read as it was


def test_a_caliper_json_metric_named_inclusive_is_taken_as_it_is(tmp_path: Path) -> None:
    """`time (inc)` was summed up the tree as if exclusive: main measured 61 where the file
    says 31."""
    path = tmp_path / "x_10.json"
    records = [{"path": "main", "time (inc)": 31}, {"path": "main/solve", "time (inc)": 30}]
    path.write_text(json.dumps({"globals": {"n": 10}, "records": records}))
    assert dict(read_profile(str(path)).values) == {("main",): 31.0, ("main", "solve"): 30.0}


def _seeded(n: int) -> None:
    import random

    for i in range(n):
        random.seed(i)


def test_cprofile_names_carry_no_memory_address(tmp_path: Path) -> None:
    """`<function Random.seed at 0x7f67fd26a7a0>` kept its address: the same function was
    another call path in every run ('call paths not in every run', its time in its parent)."""
    paths = []
    for n in (200, 400):
        path = tmp_path / f"run_n{n}.pstats"
        _run(_seeded, n).dump_stats(path)
        paths.append(str(path))
    runs = read_profiles(paths)
    names = {part for run in runs for p in run.values for part in p}
    assert "Random.seed" in names and not any("0x" in name for name in names), names
    tree = CallTree.of(runs, "n")
    assert not any("not in every run" in note for note in tree.notes), tree.notes


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda tree: CallTree.of("r9", "n"), "profiles: expected a list of Profiles"),
        (lambda tree: fit_profile(tree), "built: expected a ProfileTerm"),
        (lambda tree: check_profile(tree), "fitted: expected a ProfileFit"),
        (lambda tree: profile_term(tree, min_share="x"), "min_share: expected a share of the root"),
        (lambda tree: profile_term(tree, pools=["main=8"]), "pools: expected a mapping of call paths"),
        (lambda tree: profile_term(None), "tree: expected a CallTree"),
    ],
)  # fmt: skip
def test_the_profile_functions_name_a_wrong_argument(call: object, message: str) -> None:
    """Each was a raw AttributeError or TypeError from deep inside."""
    from patternalg.errors import ArgumentError

    tree = _tree({("main",): 2.0, ("main", "a"): 1.0})
    with pytest.raises(ArgumentError, match=message):
        call(tree)  # type: ignore[operator]


def test_params_and_pools_given_twice_are_refused() -> None:
    runs = [Profile(f"r_n{n}", {("main",): n, ("main", "a"): n / 2}) for n in (1, 2, 4)]
    with pytest.raises(MeasurementError, match="^params=n is given twice: give each parameter once$"):
        CallTree.of(runs, ["n", "n"])
    with pytest.raises(MeasurementError, match=r"^pools={'main.a': 4}: the path is given twice \(also as main/a\)"):
        profile_term(CallTree.of(runs, "n"), pools={"main/a": 2, "main.a": 4})


def test_different_programs_name_a_run_that_differs() -> None:
    """'x_10.json and x_10.json share call paths holding only 9 %': the first run named
    itself as the other."""
    runs = [Profile("x_10.json", {("main",): 9.0, ("other",): 91.0}, {"n": "10"})]
    runs += [Profile(f"x_{n}.json", {("main",): float(n)}, {"n": str(n)}) for n in (20, 40)]
    with pytest.raises(MeasurementError, match=r"x_10.json and x_20.json share call paths holding only 9 %"):
        CallTree.of(runs, "n")


def test_a_run_at_a_parameter_value_of_0_is_left_out_naming_it(tmp_path: Path) -> None:
    """run_n0.json among n = 10..80 lost every run: 'time of 5 profiled runs (run_n10.json ..
    run_n80.json): ... parameter value 0 is not positive', never naming it."""
    from helpers import run_cli

    for n in (0, 10, 20, 40, 80):
        records = [{"path": "main", "time (inc)": 3 * n + 1}, {"path": "main/solve", "time (inc)": 3 * n}]
        (tmp_path / f"run_n{n}.json").write_text(json.dumps({"globals": {"n": n}, "records": records}))
    done = run_cli("profile", str(tmp_path), "--param", "n", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert f"warning: {tmp_path / 'run_n0.json'}: n = 0 is not positive" in done.stderr
    assert [p["n"] for p in json.loads(done.stdout)["points"]] == [10, 20, 40, 80]


def test_a_leaf_in_a_pool_has_no_gap_of_rounding(capsys) -> None:
    """A leaf under --pool printed '-1.11e-14 %  +6.66e-14 %': 8 times its work shared by 8
    threads, folded in doubles, is its measured time."""
    args = ["profile", *CALI, "--param", "mpi.world.size=p", "--pool", "main.lulesh_cycle.lagrangeleapfrog=8", "-q"]
    assert main(args) == 0
    gaps = [line for line in capsys.readouterr().out.splitlines() if "gap:" in line]
    assert not any("e-1" in line for line in gaps) and any("+0 %  +0 %  +0 %  +0 %" in line for line in gaps), gaps


def test_a_model_s_source_names_the_runs_by_their_parameter_values() -> None:
    """Runs given in text order (run_10, run_160, run_20, ...) were named 'run_10.json ..
    run_80.json' for n = 10..320."""
    sizes = (10, 160, 20, 320, 40, 80)
    runs = [Profile(f"run_{n}.json", {("main",): 2.0 * n, ("main", "a"): 1.0 * n}, {"n": str(n)}) for n in sizes]
    fitted = fit_profile(profile_term(CallTree.of(runs, "n")))
    assert "6 profiled runs (run_10.json .. run_320.json)" in fitted.library["main"].source


def test_the_text_shows_each_node_s_measured_values_beside_its_inclusive_model(capsys) -> None:
    """The gap compares two models; the values the inclusive one was fitted to (LULESH's root
    scatters 42.9 to 56.3 s about a constant) were only in the JSON."""
    assert main(["profile", *CALI, "--param", "mpi.world.size=p", "--at", "p=343", "-q"]) == 0
    lines = capsys.readouterr().out.splitlines()
    root = lines.index("program  (program)")
    assert lines[root + 2].startswith("│    inclusive: ")
    assert lines[root + 3] == "│    measured:  47.25  55.13  56.27  42.86  -"
    assert lines[root + 4].startswith("│    gap:       ")
