"""The newer surfaces as hard as the old (issue 40): machine files, units, the files a command
reads, the harness readers, ``measure``, the uncertainty tables and their Python API. Each
input a campaign found crashing, hanging or losing a file is now one line on stderr and exit
status 2 (or the right answer), quickly; each test here failed before its fix."""

from __future__ import annotations

import io
import json

import pytest

from patternalg._internal.limits import MAX_FILE_BYTES
from patternalg._internal.reading import NotText, TooLarge, read_stream
from patternalg.cli import main


def one_error(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    """The one line ``patternalg ARGS`` writes on stderr, with exit status 2 and no output."""
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    return line


# --- every file read is bounded ------------------------------------------------------------
DEVICE_READS = [
    ["eval", "qsort", "--machine", "/dev/zero"],
    ["eval", "qsort", "--models", "/dev/zero"],
    ["fit", "/dev/zero"],
    ["eval", "@/dev/zero"],
]


@pytest.mark.parametrize("args", DEVICE_READS, ids=lambda a: " ".join(a))
def test_a_device_is_refused_not_read_without_end(args, capsys) -> None:
    assert "not a text file (a NUL byte at byte 0)" in one_error(capsys, args)


@pytest.mark.parametrize("option", ["--machine", "--models", "fit", "fit-csv"])
def test_a_file_over_the_limit_is_refused_before_it_is_read(option, tmp_path, capsys) -> None:
    """A sparse file of MAX_FILE_BYTES + 1 bytes: its size refuses it, nothing is read."""
    big = tmp_path / ("big.csv" if option == "fit-csv" else "big.txt")
    with open(big, "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    args = ["fit", str(big)] if option.startswith("fit") else ["eval", "qsort", option, str(big)]
    assert f"larger than {MAX_FILE_BYTES:,} bytes" in one_error(capsys, args)


def test_a_stream_is_read_to_the_limit_only() -> None:
    assert read_stream(io.BytesIO(b"abc"), limit=3) == b"abc"
    with pytest.raises(TooLarge):
        read_stream(io.BytesIO(b"abcd"), limit=3)
    with pytest.raises(NotText):
        read_stream(io.BytesIO(b"ab\0"), limit=10)


# --- the harness readers are linear in their size (H1, H2) ----------------------------------
def _counting(monkeypatch, module, name: str) -> list[int]:
    calls = [0]
    original = getattr(module, name)

    def counted(*args):
        calls[0] += 1
        return original(*args)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_hyperfine_checks_each_parameter_once(monkeypatch, tmp_path) -> None:
    """One command over n values: the parameter's values are checked n times, not n^2
    (100,000 values took over 300 s), and the kernel is the command with {n}."""
    from patternalg.measurements import hyperfine, read

    n = 400
    results = [
        {"command": f"./k -n {i} -m sort", "mean": 1.0, "times": [1.0, 1.1], "parameters": {"n": str(i)}}
        for i in range(1, n + 1)
    ]
    path = tmp_path / "hf.json"
    path.write_text(json.dumps({"results": results}))
    calls = _counting(monkeypatch, hyperfine, "_is_number")
    (series,) = read(path).series
    assert calls[0] <= 2 * n
    assert series.kernel == "./k -n {n} -m sort"
    assert len(series.points) == n


def test_pytest_benchmark_checks_each_parameter_once(monkeypatch, tmp_path) -> None:
    from patternalg.measurements import pytest_benchmark, read

    n = 400
    rows = [
        {"name": f"test_k[{i}]", "params": {"n": i, "kind": "a"}, "stats": {"data": [1e-6, 2e-6]}}
        for i in range(1, n + 1)
    ]
    path = tmp_path / "pb.json"
    path.write_text(json.dumps({"machine_info": {}, "benchmarks": rows}))
    calls = _counting(monkeypatch, pytest_benchmark, "is_number")
    (series,) = read(path).series
    assert calls[0] <= 4 * n
    assert series.kernel == "test_k[kind=a]" and len(series.points) == n


def test_a_value_stands_alone_in_the_command() -> None:
    from patternalg.measurements.hyperfine import kernel_of

    assert kernel_of("./k1 -n 100 -t 100.5 --size=100 x100 100_", {"n": "100"}) == (
        "./k1 -n {n} -t 100.5 --size={n} x100 100_"
    )
    assert kernel_of("run 1e3 1e30 -1e3", {"n": "1e3"}) == "run {n} 1e30 -{n}"
