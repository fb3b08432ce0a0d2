"""A profile check's gap is drawn from the runs resampled jointly (evidence/joint_gaps.py):
a node and its parts were measured in the same runs, and move together."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from patternalg.evidence.joint_gaps import gap_draws
from patternalg.evidence.profile_check import NodeCheck, check_profile
from patternalg.profiles import CallTree, fit_profile, profile_term, read_profiles

DIFFLIB = Path(__file__).parent / "data" / "profiles" / "difflib"
N = np.repeat([8.0, 16.0, 32.0, 64.0, 128.0, 256.0], 4)


def _tree(own: np.ndarray, part: np.ndarray) -> CallTree:
    """``main`` (its own time and one child ``solve``) over runs at the sizes ``N``."""
    runs = tuple(f"r{i}" for i in range(N.size))
    return CallTree((("main",), ("main", "solve")), np.array([own + part, part]), runs, ("n",), N[:, None], "time", "s")


def _main(own: np.ndarray, part: np.ndarray) -> NodeCheck:
    check = check_profile(fit_profile(profile_term(_tree(own, part))), at={"n": 1024.0}, draws=400)
    return next(node for node in check.nodes if node.path == ("main",))


def _width(interval: np.ndarray, center: np.ndarray | None = None) -> np.ndarray:
    """Each point's interval width, relative to ``center`` where given."""
    width = interval[:, 1] - interval[:, 0]
    return width if center is None else width / center


def test_a_run_slow_in_the_node_and_its_part_moves_no_gap() -> None:
    """Each run slow or fast as a whole (20 % lognormal): the node, its own time and its
    part move together, and the gap's interval is a small share of the models' own. Drawn
    one model at a time, it was as wide as both models' together (sqrt 2 times each)."""
    slow = np.exp(np.random.default_rng(7).normal(0.0, 0.2, N.size))
    main = _main((50 + 0.5 * N) * slow, 3 * N * slow)
    composed = _width(main.composed_interval, main.composed)
    gap = _width(main.gap_interval)
    assert np.all(composed > 0.05)  # the runs do move the models
    assert np.all(gap < 0.5 * composed), (gap, composed)
    assert np.all((main.gap_interval[:, 0] <= main.gap) & (main.gap <= main.gap_interval[:, 1]))


def test_parts_that_move_on_their_own_keep_a_gap_interval() -> None:
    """Own time and part each with their own noise: resampling the runs moves the gap as
    much as the parts move apart (not narrowed to nothing)."""
    rng = np.random.default_rng(8)
    own = (50 + 0.5 * N) * np.exp(rng.normal(0.0, 0.2, N.size))
    part = 3 * N * np.exp(rng.normal(0.0, 0.2, N.size))
    main = _main(own, part)
    assert np.all(_width(main.gap_interval) > 0.01)


def test_runs_at_a_point_once_have_no_joint_draws() -> None:
    n = np.array([8.0, 16.0, 32.0, 64.0, 128.0])
    tree = CallTree((("main",), ("main", "solve")), np.array([2 + 3 * n, 3 * n]), tuple("abcde"), ("n",), n[:, None], "time", "s")
    fitted = fit_profile(profile_term(tree))
    assert gap_draws(fitted, fitted.built.term, {}, {"n": n}, 10, 0) == {}


def test_difflib_gaps_are_as_sure_as_the_runs_say() -> None:
    """Three cProfile runs per size: the root's gap at the measured sizes is the fits' error
    (well under 10 %), and its interval less than half as wide as the composed model's own
    (drawn one model at a time it was wider than it)."""
    files = sorted(str(p) for p in DIFFLIB.glob("*.pstats"))
    check = check_profile(fit_profile(profile_term(CallTree.of(read_profiles(files), ["n"]))), draws=200)
    root = check.nodes[0]
    measured = slice(0, len(check.points))
    assert np.all(np.abs(root.gap[measured]) < 0.1)
    gap, composed = _width(root.gap_interval), _width(root.composed_interval, root.composed)
    assert np.all(gap < 0.5 * composed), (gap, composed)
    html = check._repr_html_()  # a notebook's caption: the lines the command prints first
    assert html.startswith(f"<table><caption>{check.caption()}</caption>")
    assert check.text().startswith(check.caption().replace("; gap =", "\ngap =", 1))
