"""pandas both ways (the optional extra ``patternalg[pandas]``): measurements as a long
DataFrame and back, exactly, and every result with a table as a DataFrame."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from patternalg import explain
from patternalg.algebra.grid import parse_axis
from patternalg.decisions.compare import compare
from patternalg.decisions.optimize import optimize
from patternalg.decisions.sweep import sweep
from patternalg.errors import MeasurementError, PatternalgError
from patternalg.forms import PMNF
from patternalg.measurements import Measurements, Series, read

DATA = Path(__file__).parent / "data"
FINITE = st.floats(-1e300, 1e300, allow_nan=False, allow_infinity=False)
NAMES = st.sampled_from(["x", "p", "n", "size", "threads"])


@st.composite
def measurements(draw: st.DrawFn) -> Measurements:
    """Measurements as readers make them: distinct points per series, distinct series."""
    parameters = tuple(draw(st.lists(NAMES, min_size=1, max_size=3, unique=True)))
    keys = draw(
        st.lists(
            st.tuples(st.text(min_size=1, max_size=6).filter(str.strip), st.text(max_size=4)),
            min_size=1, max_size=3, unique=True,
        )
    )  # fmt: skip
    series = []
    for kernel, metric in keys:
        points = draw(
            st.lists(st.tuples(*[FINITE] * len(parameters)), min_size=1, max_size=4, unique=True)
        )
        values = [draw(st.lists(FINITE, min_size=1, max_size=3)) for _ in points]
        lines = tuple(tuple(draw(st.integers(0, 10**6)) for _ in v) for v in values)
        series.append(
            Series(
                kernel.strip(), metric, parameters,
                np.array(points, dtype=float).reshape(len(points), len(parameters)),
                tuple(np.array(v, dtype=float) for v in values), lines, "m.csv",
                draw(st.sampled_from([None, "ns", "s", "bytes"])),
            )
        )  # fmt: skip
    units = {s.unit for s in series}
    return Measurements(
        "m.csv", "csv", parameters, draw(st.sampled_from(["time", "runtime[s]", "value"])),
        units.pop() if len(units) == 1 else None, tuple(series),
        tuple(draw(st.lists(st.text(max_size=3), max_size=3))), draw(st.integers(0, 9)),
        tuple(draw(st.lists(st.text(max_size=8), max_size=2))),
    )  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(measurements())
def test_the_round_trip_is_exact(m: Measurements) -> None:
    df = m.to_dataframe()
    assert len(df) == sum(len(v) for s in m for v in s.values)  # one row a repetition
    assert Measurements.from_dataframe(df) == m


@pytest.mark.parametrize(
    "path",
    sorted(
        p
        for p in DATA.rglob("*")
        if p.suffix in (".json", ".txt", ".csv") and "docs" not in p.parts
    ),
    ids=lambda p: p.name,
)
def test_real_files_round_trip(path: Path) -> None:
    try:
        m = read(path)
    except MeasurementError:
        pytest.skip("not a measurement file")
    assert Measurements.from_dataframe(m.to_dataframe()) == m


def test_equality_sees_every_value() -> None:
    m = read(DATA / "hyperfine" / "hf_sort.json")
    changed = m.to_dataframe()
    changed.loc[7, "time"] = np.nextafter(changed.loc[7, "time"], 1.0)
    assert Measurements.from_dataframe(changed) != m


def test_a_frame_of_ones_own_is_read_like_a_csv_file() -> None:
    df = pd.DataFrame(
        {
            "kernel": ["sort"] * 4 + ["inc"] * 2,
            "x": [8, 8, 16, 32, 8, 16],
            "time_ms": [1.0, 1.2, 2.5, 5.5, 0.1, 0.2],
        }
    )
    m = Measurements.from_dataframe(df, parameters=["x"], value="time_ms")
    assert [s.kernel for s in m] == ["sort", "inc"] and m.unit == "ms"
    assert [v.tolist() for v in m.series[0].values] == [[1.0, 1.2], [2.5], [5.5]]
    csv = DATA / "frame.csv"
    try:
        csv.write_text(df.to_csv(index=False))
        from_csv = read(csv)
    finally:
        csv.unlink()
    assert [v.tolist() for s in from_csv for v in s.values] == [
        v.tolist() for s in m for v in s.values
    ]


def test_a_frame_of_seconds_says_so_and_fits_in_seconds() -> None:
    """issue 40: a frame's ``time`` in seconds had no ``unit=``; fitted, it became ns."""
    from patternalg.forms.fitting import assumed_unit

    df = pd.DataFrame({"n": [1000, 2000, 4000, 8000], "time": [0.0012, 0.0025, 0.0049, 0.011]})
    plain = Measurements.from_dataframe(df, parameters=["n"], value="time")
    assert plain.series[0].unit is None
    assert "every value is below 1 (at most 0.011): if they are seconds" in assumed_unit(plain)[0]
    assert PMNF.fit_each(plain, uncertainty="none")[0].unit == "ns"  # the assumption, noted
    seconds = Measurements.from_dataframe(df, parameters=["n"], value="time", unit="s")
    assert seconds.unit == seconds.series[0].unit == "s" and not assumed_unit(seconds)
    (report,) = PMNF.fit_each(seconds, uncertainty="none")
    assert report.unit == "s" and report.model.unit == "s"
    back = Measurements.from_dataframe(seconds.to_dataframe())
    assert back == seconds  # the unit goes round through the frame's unit column
    with pytest.raises(MeasurementError, match="unit='s' contradicts the frame's unit 'ms'"):
        Measurements.from_dataframe(df.rename(columns={"time": "time_ms"}), parameters=["n"],
                                    value="time_ms", unit="s")  # fmt: skip


@pytest.mark.parametrize(
    ("frame", "kwargs", "message"),
    [
        (pd.DataFrame({"x": [1], "t": ["a"]}), {"parameters": ["x"], "value": "t"}, r"row 0.*'a'"),
        (pd.DataFrame({"x": [1], "t": [np.nan]}), {"parameters": ["x"], "value": "t"}, "row 0"),
        (
            pd.DataFrame({"x": [1], "t": [1.0]}),
            {"parameters": ["y"], "value": "t"},
            "no column 'y'",
        ),
        (pd.DataFrame({"x": [1], "t": [1.0]}), {"value": "t"}, "parameters=\\[...\\]"),
        (pd.DataFrame({"x": [1], "t": [1.0]}), {"parameters": ["x"]}, "value=..."),
        (pd.DataFrame({"x": [], "t": []}), {"parameters": ["x"], "value": "t"}, "empty"),
    ],
)
def test_bad_frames_are_one_line_errors(
    frame: pd.DataFrame, kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(MeasurementError, match=message) as caught:
        Measurements.from_dataframe(frame, **kwargs)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value)


def test_a_missing_value_is_named_by_its_row_label_and_leaves_its_series_out(tmp_path: Path) -> None:
    """A NaN was "row b: column 'time': nan is not a finite number" and refused the whole
    frame; a CSV file's empty cell leaves its series out and the others are read: so now
    does a frame's, and the message says what would do."""
    said = (
        "<dataframe>: row b: column 'time': NaN is a missing value: give every row a finite number, or leave out "
        "the rows without one (df.dropna(subset=['time']))"
    )
    one = pd.DataFrame({"x": [1, 2, 3], "time": [1.0, np.nan, 3.0]}, index=["a", "b", "c"])
    with pytest.raises(MeasurementError) as caught:
        Measurements.from_dataframe(one, parameters=["x"], value="time")
    assert str(caught.value) == said
    two = pd.DataFrame({"kernel": ["k"] * 3 + ["j"] * 3, "x": [1, 2, 3] * 2, "time": [1, 2, 3, 4, 5, 6]})
    two.loc[4, "time"] = None
    m = Measurements.from_dataframe(two, parameters=["x"], value="time")
    (left,) = m.left_out
    assert ([s.kernel for s in m], left.kernel, str(left.error)) == (
        ["k"], "j", said.replace("row b: ", "row 4: kernel 'j', metric 'time': ")
    )
    path = tmp_path / "m.csv"  # what the CSV reader does with an empty cell, for comparison
    path.write_text("kernel,x,time\nk,1,1\nk,2,2\nk,3,3\nj,1,4\nj,2,\nj,3,6\n")
    (csv_left,) = read(path).left_out
    assert str(csv_left.error) == f"{path}:6: kernel 'j', metric 'time': column 'time': '' is not a number"
    parameter = pd.DataFrame({"x": [1, pd.NA, 3], "time": [1.0, 2.0, 3.0]}, dtype=object)
    with pytest.raises(MeasurementError, match=r"^<dataframe>: row 1: column 'x': <NA> is a missing value: give"):
        Measurements.from_dataframe(parameter, parameters=["x"], value="time")


def test_a_frame_given_where_measurements_are_wanted_says_how_to_read_it() -> None:
    """fit_each(df) said "data[0]: expected Measurements, ...; got str 'x'" (a frame iterates
    its column names), validate(df, ...) the same of measurements[0], and calibrate(df)
    "x: cannot read measurements: No such file or directory"."""
    from patternalg.errors import ArgumentError
    from patternalg.evidence import calibrate, validate

    df = pd.DataFrame({"x": [1, 2, 4, 8], "time": [1.0, 2, 4, 8]})
    how = ": got a pandas DataFrame; read it first with Measurements.from_dataframe(df, parameters=[...], value=...)"
    calls = {
        "data": lambda: PMNF.fit_each(df),
        "measurements": lambda: validate(df, "inc"),
        "measurements[0]": lambda: validate([df], "inc"),
        "measurements ": lambda: calibrate(df),
        "measurements[0] ": lambda: calibrate([df]),
        "path": lambda: read(df),
    }
    for name, call in calls.items():
        with pytest.raises(ArgumentError) as caught:
            call()
        assert str(caught.value) == f"{name.strip()}{how} and give what it returns"


def test_every_result_with_a_table_is_a_frame() -> None:
    fitted = PMNF.fit_each(read(DATA / "gbench" / "gb.json", metric="cpu_time"))
    results = [
        *fitted,
        sweep(["inc", "pipe(inc, qsort)"], [parse_axis("x=1..1e4:5:log")]),
        compare(["pipe(qsort, inc)", "seq(qsort, inc)"], over=parse_axis("x=1..1e4")),
        optimize("pipe(tpool_a(qsort), tpool_b(inc))", budgets=["a+b<=8"], at={"x": 1024}),
    ]
    for result in results:
        df = result.to_dataframe()
        assert list(df.columns) == result.header()
        assert len(df) == len(result.rows())
        numbers = [
            (i, j) for i, row in enumerate(result.rows()) for j, c in enumerate(row)
            if isinstance(c, float)
        ]  # fmt: skip
        assert all(df.iat[i, j] == result.rows()[i][j] for i, j in numbers)
    from patternalg._internal.frames import to_dataframe

    stacked = to_dataframe(fitted)
    assert stacked["kernel"].tolist() == ["BM_sort", "BM_pass"]


def test_a_frame_s_columns_are_distinct_and_its_numbers_numbers() -> None:
    """A term swept twice, and a count named rank, gave a DataFrame two columns of one name
    (df["qsort [ns]"] was a frame, not a column); an optimum's rank was the text '1', '2',
    'even', and an evaluation's value at the point the text '2647475.2 ns'."""
    twice = sweep(["qsort", "qsort"], [parse_axis("x=2,4")]).to_dataframe()
    assert list(twice.columns) == ["x", "qsort [ns]", "bottleneck of qsort", "qsort [ns] (2)", "bottleneck of qsort (2)"]
    assert twice["qsort [ns] (2)"].tolist() == [2068.34, 8273.36]
    best = optimize("pipe(tpool_rank(qsort), tpool_b(inc))", budgets=["rank+b<=6"], at={"x": 100}, top=1)
    frame = best.to_dataframe()
    assert list(frame.columns) == ["rank", "b", "rank (2)", "value [ns]", "bottleneck", "even split"]
    assert frame["rank"].tolist()[:2] == [1, 2] and math.isnan(frame["rank"].iloc[-1])
    assert frame["rank (2)"].tolist() == [5, 4, 3] and frame["even split"].tolist() == [False, False, True]
    assert frame["value [ns]"].dtype.kind == "f"
    found = compare(["pipe(tpool_n(qsort), inc)", "tpool_2(seq(qsort, inc))"], over=["x=1..1e4", "n=1..4"])
    assert found.to_dataframe()[["from", "to"]].dtypes.map(lambda d: d.kind).tolist() == ["f", "f"]
    point = explain("pipe(tpool_4(qsort), inc)", x=1024).to_dataframe()
    assert point["at the point [ns]"].tolist() == [2647475.2, 2647475.2, 10589900.8, 549053.44]


def test_without_pandas_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails
    m = read(DATA / "hyperfine" / "hf_sort.json")
    for call in (
        m.to_dataframe,
        lambda: Measurements.from_dataframe(None),
        PMNF.fit_each(m)[0].to_dataframe,
    ):
        with pytest.raises(PatternalgError, match=r"pip install 'patternalg\[pandas\]'"):
            call()


def test_the_command_line_never_imports_pandas() -> None:
    code = (
        "import sys; from patternalg.cli import main\n"
        f"main(['fit', {str(DATA / 'gbench' / 'gb.json')!r}, '--quiet'])\n"
        "main(['sweep', 'pipe(inc, qsort)', '--over', 'x=1..100:3'])\n"
        "main(['compare', 'pipe(inc, qsort)', 'seq(inc, qsort)', '--over', 'x=1..100'])\n"
        "print('pandas' in sys.modules, file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
        env={"PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.stderr.splitlines()[-1] == "False", done.stderr
