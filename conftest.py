"""Every temporary file of a test run under pytest's own temporary directory.

The doctests write their example files where ``tempfile.mkdtemp()`` puts them, as a reader
would, and the long checks run benchmarks that make their own; pytest removes its
temporary directories of older runs, so a run leaves no litter in the system's.
"""

import os
import tempfile
from collections.abc import Iterator

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
