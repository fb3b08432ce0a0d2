"""Which parameters measured points are over: a repetition's number or a row's time is no
parameter unless declared (``--parameters``), and a declaration keeps exactly what it names."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from helpers import run_cli

from patternalg.measurements import read

SIZES = (8, 16, 32, 64, 128)


def table(tmp_path: Path, name: str, header: str, rows: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join([header, *rows]) + "\n")
    return path


def repeated(tmp_path: Path, column: str = "rep") -> Path:
    """n, a repetition's number and a time: three repetitions at each size."""
    rows = [f"{n},{r},{0.2 * n * (1 + 0.01 * r)}" for n in SIZES for r in (1, 2, 3)]
    return table(tmp_path, f"{column}.csv", f"n,{column},time", rows)


@pytest.mark.parametrize("column", ["rep", "Run", "iteration", "trial", "timestamp"])
def test_a_repetitions_number_is_no_parameter_its_rows_are_repetitions(tmp_path, column):
    ms = read(repeated(tmp_path, column))
    plain = read(table(tmp_path, "plain.csv", "n,time", [f"{n},{0.2 * n * (1 + 0.01 * r)}" for n in SIZES for r in (1, 2, 3)]))
    assert ms.parameters == ("n",)
    (s,), (p,) = ms.series, plain.series
    assert np.array_equal(s.points, p.points)
    assert all(np.array_equal(a, b) for a, b in zip(s.values, p.values, strict=True))
    assert f"parameter '{column.lower()}'" in ms.notes[-1] and "parameters='n," in ms.notes[-1]


def test_fit_reads_the_rows_as_repetitions_and_a_declaration_keeps_the_column(tmp_path):
    path = repeated(tmp_path)
    done = run_cli("fit", str(path))
    assert done.returncode == 0, done.stderr
    assert "n in [8, 128], 5 points" in done.stdout and "numbers the repetitions" in done.stderr
    kept = run_cli("fit", str(path), "--parameters", "n,rep", "--uncertainty", "none")
    assert kept.returncode == 0, kept.stderr
    assert "rep in [1, 3]" in kept.stdout and "numbers the repetitions" not in kept.stderr


def test_a_declaration_leaves_out_what_it_does_not_name_and_refuses_what_is_not_there(tmp_path):
    rows = [f"{n},{3 - i % 3},{0.2 * n}" for i, n in enumerate(s for s in SIZES for _ in range(3))]
    path = table(tmp_path, "m.csv", "n,host,time", rows)
    assert read(path).parameters == ("n", "host")  # nothing says a host is bookkeeping
    ms = read(path, parameters="N")
    assert ms.parameters == ("n",) and [len(v) for v in ms.series[0].values] == [3] * 5
    assert "parameter 'host' is not among those declared" in ms.notes[-1]
    done = run_cli("fit", str(path), "--parameters", "n,threads")
    assert done.returncode == 2
    assert done.stderr == f"patternalg fit: error: {path}:1: no parameter 'threads' (the parameters: n, host)\n"
    bad = run_cli("validate", str(path), "--parameters", "n,,n")
    assert bad.returncode == 2 and "--parameters: expected distinct names" in bad.stderr


@pytest.mark.parametrize("header", ["n,host,time", "kernel,n,host,time", "host,n,time"])
def test_a_declaration_leaves_out_a_column_of_names_it_does_not_name(tmp_path, header):
    """A column of names (``host``) read as a parameter was refused as no number, though
    the declaration left it out."""
    rows = [",".join({"kernel": "k", "n": str(n), "host": "ab"[i % 2], "time": str(0.2 * n)}[c]
                     for c in header.split(",")) for i, n in enumerate(s for s in SIZES for _ in range(2))]  # fmt: skip
    path = table(tmp_path, "m.csv", header, rows)
    ms = read(path, parameters="n")
    assert ms.parameters == ("n",) and [len(v) for v in ms.series[0].values] == [2] * 5
    assert "parameter 'host' is not among those declared" in ms.notes[0]
    done = run_cli("fit", str(path), "--parameters", "n", "--uncertainty", "none")
    assert done.returncode == 0, done.stderr
    assert "0.2*n" in done.stdout
    missing = run_cli("fit", str(path), "--parameters", "n,p")
    listed = ", ".join(c for c in header.split(",") if c in ("n", "host"))
    assert missing.returncode == 2
    assert missing.stderr == f"patternalg fit: error: {path}:1: no parameter 'p' (the parameters: {listed})\n"


def test_a_date_written_as_text_is_left_out_and_a_lone_run_column_stays_the_parameter(tmp_path):
    dated = table(tmp_path, "d.csv", "n,date,time", [f"{n},2026-11-29,{0.2 * n}" for n in SIZES])
    ms = read(dated)
    assert ms.parameters == ("n",) and "column 'date' says when each row was measured" in ms.notes[0]
    alone = read(table(tmp_path, "r.csv", "run,time", [f"{r},{r * 2.0}" for r in SIZES]))
    assert alone.parameters == ("run",) and not alone.notes


def test_a_declaration_merges_an_extrap_files_second_parameter(tmp_path):
    path = tmp_path / "m.txt"
    path.write_text(
        "PARAMETER x\nPARAMETER p\nPOINTS (8 1) (8 2) (16 1) (16 2)\nREGION k\n"
        "DATA 1 1.1\nDATA 1.2\nDATA 2 2.1\nDATA 2.2\n"
    )
    ms = read(path, parameters=["x"])
    assert ms.parameters == ("x",)
    assert [v.tolist() for v in ms.series[0].values] == [[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]]


def test_a_column_of_names_not_called_kernel_says_where_the_names_belong(tmp_path):
    path = table(tmp_path, "t.csv", "x,region,time", ["1024,inc,1.5", "1024,qsort,2.5", "2048,inc,3.0"])
    done = run_cli("fit", str(path))
    assert done.returncode == 2
    assert done.stderr == (
        f"patternalg fit: error: {path}:2: column 'region' holds no number ('inc'): "
        "if it names the kernels, call it 'kernel'\n"
    )
    renamed = table(tmp_path, "k.csv", "x,kernel,time", ["1024,inc,1.5", "1024,qsort,2.5", "2048,inc,3.0"])
    assert sorted(s.kernel for s in read(renamed)) == ["inc", "qsort"]


def test_a_table_of_nothing_but_bookkeeping_written_as_text_says_which_cell_is_no_number(tmp_path):
    # date and run both text: leaving both out would leave no parameter at all
    path = table(tmp_path, "t.csv", "date,run,time", ["2026-11-29,first,1.5", "2026-11-30,second,2.5"])
    done = run_cli("fit", str(path))
    assert done.returncode == 2
    assert done.stderr == f"patternalg fit: error: {path}:2: column 'date': '2026-11-29' is not a number\n"


@pytest.mark.parametrize("form", ["txt", "csv", "json"])
def test_a_parameter_with_one_value_names_the_declaration_that_leaves_it_out(tmp_path, form):
    """'p' = 8 at every point: the error said 'takes 1 value along the longest lines' and not
    how to fit without it (a Cube set drops such a parameter)."""
    points = [(n, 8) for n in SIZES]
    if form == "txt":
        body = ("PARAMETER n\nPARAMETER p\nPOINTS " + " ".join(f"({n} {p})" for n, p in points)
                + "\nREGION k\nMETRIC time\n" + "".join(f"DATA {3 + 16 * n}\n" for n, _ in points))  # fmt: skip
    elif form == "csv":
        body = "n,p,time\n" + "".join(f"{n},{p},{3 + 16 * n}\n" for n, p in points)
    else:
        body = json.dumps({"parameters": ["n", "p"], "measurements": {"k": {"time": [
            {"point": [n, p], "values": [3 + 16 * n]} for n, p in points]}}})  # fmt: skip
    path = tmp_path / f"k.{form}"
    path.write_text(body)
    refused = run_cli("fit", str(path))
    assert refused.returncode == 2
    assert "it is 8 at every point: to fit without it, --parameters n" in refused.stderr
    done = run_cli("fit", str(path), "--parameters", "n", "--uncertainty", "none")
    assert done.returncode == 0, done.stderr
    assert "16*n + 3" in done.stdout
