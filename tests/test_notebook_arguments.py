"""What a notebook user hands the Python functions (a probe of the API): one path or one
text is one item, a wrong argument is an ArgumentError naming it, and results do not
share or expose arrays a caller can change."""

from __future__ import annotations

from pathlib import Path

import pytest

from patternalg.errors import ArgumentError
from patternalg.profiles import CallTree, read_profiles

LULESH = Path(__file__).resolve().parent / "data" / "profiles" / "lulesh"


@pytest.mark.parametrize("path", [str(LULESH), LULESH, [LULESH], str(LULESH / "27_cores.cali")])
def test_read_profiles_takes_one_path_as_one_path(path: object) -> None:
    """One string was iterated character by character: an absolute path read ``/``."""
    expected = 1 if str(path).endswith(".cali") else 5
    assert len(read_profiles(path)) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(("paths", "named"), [(None, "paths"), (3, "paths"), ([None], "paths[0]")])
def test_read_profiles_names_a_wrong_path(paths: object, named: str) -> None:
    with pytest.raises(ArgumentError, match=rf"^{named.replace('[', '.')}: expected the path of a profile"):
        read_profiles(paths)  # type: ignore[arg-type]


def test_a_call_tree_takes_one_param_text_as_one_param() -> None:
    """``"mpi.world.size=p"`` was read as the parameters ``m``, ``p``, ``i``, ``.``, ..."""
    profiles = read_profiles(LULESH)
    assert CallTree.of(profiles, "mpi.world.size=p").parameters == ("p",)
    with pytest.raises(ArgumentError, match=r"^params: expected a Param or its text"):
        CallTree.of(profiles, None)  # type: ignore[arg-type]
