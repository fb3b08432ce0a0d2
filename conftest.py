"""Every temporary file of a test run under pytest's own temporary directory; the checks
left to the long stage marked ``long`` (:data:`LONG_CHECKS`).

The doctests write their example files where ``tempfile.mkdtemp()`` puts them, as a reader
would, and the long checks run benchmarks that make their own; pytest removes its
temporary directories of older runs, so a run leaves no litter in the system's.
"""

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True, scope="session")
def _temporary_files_under_pytest(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    own = str(tmp_path_factory.mktemp("tempfile"))
    before = tempfile.tempdir, os.environ.get("TMPDIR")
    tempfile.tempdir, os.environ["TMPDIR"] = own, own  # this process, and the commands it runs
    yield
    tempfile.tempdir = before[0]
    if before[1] is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = before[1]


#: the checks the README's test command leaves to the long stage, by their node ids
LONG_CHECKS = Path(__file__).parent / "tests" / "long_checks.txt"


def long_checks() -> set[str]:
    """The node ids (without parameters) listed in :data:`LONG_CHECKS`."""
    lines = LONG_CHECKS.read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


@pytest.hookimpl(tryfirst=True)  # before `-m 'not long'` deselects by the marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    listed = long_checks()
    for item in items:
        if item.nodeid.split("[")[0] in listed:
            item.add_marker(pytest.mark.long)
