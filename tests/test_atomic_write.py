"""Every file patternalg writes is written atomically; no success is printed before it is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from patternalg._internal.atomic_write import write_text_atomic
from patternalg.cli import main
from patternalg.errors import PatternalgError
from patternalg.library.model_library import ModelLibrary


def _jsonl(tmp_path: Path, kernel: str) -> Path:
    path = tmp_path / "m.jsonl"
    lines = [f'{{"params": {{"x": {v}}}, "value": {2 * v}, "callpath": "{kernel}"}}' for v in (1, 2, 4, 8, 16)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_lone_surrogate_in_a_kernel_name_leaves_the_old_file_whole(tmp_path: Path, capsys) -> None:
    keep = tmp_path / "keep.toml"
    keep.write_text("precious = 1\n")
    assert main(["fit", str(_jsonl(tmp_path, "s\\ud800rt")), "--out", str(keep)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing printed as a result before the write failed
    (line,) = captured.err.strip().splitlines()[-1:]
    assert "not valid UTF-8 (a lone surrogate '\\ud800'" in line and "unchanged" in line
    assert keep.read_text() == "precious = 1\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.toml", "m.jsonl"]


@pytest.mark.parametrize(
    ("out", "fragment"),
    [(".", "it is a directory"), ("nodir/x.toml", "the directory nodir does not exist")],
)
def test_bad_out_paths_are_one_line_errors_before_any_output(out, fragment, tmp_path, monkeypatch, capsys):
    data = _jsonl(tmp_path, "sort")
    monkeypatch.chdir(tmp_path)
    assert main(["fit", str(data), "--out", out]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and fragment in captured.err


def test_fit_out_writes_a_model_file_that_reads_back(tmp_path: Path, capsys) -> None:
    out = tmp_path / "m.toml"
    assert main(["fit", str(_jsonl(tmp_path, "sort")), "--out", str(out)]) == 0
    assert ModelLibrary.from_file(out)["sort"].expr.free_symbols
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.jsonl", "m.toml"]


def test_a_failing_rename_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "m.toml"
    target.write_text("old\n")
    os.chmod(target, 0o640)

    def refuse(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(PatternalgError, match=r"m.toml: No space left on device; the file is unchanged"):
        write_text_atomic(target, "new\n")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["m.toml"]
    monkeypatch.undo()
    write_text_atomic(target, "new\n")
    assert target.read_text() == "new\n" and oct(target.stat().st_mode & 0o777) == "0o640"


def test_a_write_protected_output_is_refused_naming_its_mode(tmp_path) -> None:
    """A 0444 output was replaced silently (cp refuses, editors ask)."""
    import stat

    path = tmp_path / "m.toml"
    path.write_text("old = 1\n")
    path.chmod(0o444)
    with pytest.raises(PatternalgError, match=r"m.toml: it is write-protected \(mode 0444\) and is not replaced; make it writable \(chmod u\+w\) or give another name$"):
        write_text_atomic(path, "new = 1\n")
    assert path.read_text() == "old = 1\n" and stat.S_IMODE(path.stat().st_mode) == 0o444
    assert sorted(tmp_path.iterdir()) == [path]


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX owners")
def test_a_writable_mode_that_is_not_ours_to_write_says_why(tmp_path, monkeypatch) -> None:
    """A 0644 file of another user, or one on a read-only file system, was said to be
    'write-protected (mode 0644)' with the advice 'chmod u+w', which cannot help."""
    import types

    path = tmp_path / "m.toml"
    path.write_text("old = 1\n")
    monkeypatch.setattr(os, "access", lambda *args, **kwargs: False)
    monkeypatch.setattr(os, "geteuid", lambda: path.stat().st_uid + 1)
    with pytest.raises(PatternalgError, match=r"m.toml: it belongs to \S+ \(mode 0[0-7]{3}\), who alone may make it writable; give another name$"):
        write_text_atomic(path, "new = 1\n")
    monkeypatch.setattr(os, "statvfs", lambda target: types.SimpleNamespace(f_flag=os.ST_RDONLY))
    with pytest.raises(PatternalgError, match=r"m.toml: the file system is read-only; give a name on another file system$"):
        write_text_atomic(path, "new = 1\n")
    assert path.read_text() == "old = 1\n"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root gives a file away")
def test_root_replacing_a_user_s_file_keeps_its_owner(tmp_path) -> None:
    path = tmp_path / "m.toml"
    path.write_text("old = 1\n")
    os.chown(path, 12345, 23456)
    write_text_atomic(path, "new = 1\n")
    assert path.read_text() == "new = 1\n"
    assert (path.stat().st_uid, path.stat().st_gid) == (12345, 23456)
