"""Property tests over measurement files (issue 16): every format we read (CSV, Extra-P text,
JSON, JSON Lines, TaLPas) reads back the values written, and a mutated or garbage file
through ``patternalg fit --out`` is a result (exit 0) or one error line (exit 2): no
traceback, no output on stdout with an error, the old model file whole."""

from __future__ import annotations

import io
import tomllib
from collections import defaultdict
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from tempfile import TemporaryDirectory

from helpers import measurement_texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patternalg.cli import main
from patternalg.measurements import read

FORMATS = ("csv", "text", "json", "jsonl", "talpas")

#: each fit of a mutated file takes a few tens of milliseconds: fewer examples than the profile
FIT_EXAMPLES = min(25, settings.default.max_examples)

names = st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True)
values = st.floats(allow_nan=False, allow_infinity=False, width=64)


@st.composite
def measurements(draw: st.DrawFn) -> tuple[str, list]:
    """A parameter name and series: distinct kernels x metrics over shared distinct points."""
    parameter = draw(st.sampled_from(["x", "p", "size"]))
    points = draw(
        st.lists(st.floats(1e-3, 1e9, allow_nan=False), min_size=1, max_size=6, unique=True)
    )
    keys = draw(st.lists(st.tuples(names, names), min_size=1, max_size=3, unique=True))
    series = [
        (kernel, metric, points, [draw(st.lists(values, min_size=1, max_size=3)) for _ in points])
        for kernel, metric in keys
    ]
    return parameter, series


def _contents(data) -> dict:
    """(kernel, metric) -> {point: sorted repetitions}, of what was read."""
    found: dict = defaultdict(dict)
    for s in data.series:
        for point, reps in zip(s.points[:, 0].tolist(), s.values, strict=True):
            found[(s.kernel, s.metric)][point] = sorted(float(v) for v in reps)
    return dict(found)


@given(measurements(), st.sampled_from(FORMATS))
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_generated_files_read_back_the_values_written(case, fmt) -> None:
    parameter, series = case
    name, text = measurement_texts(parameter, series)[fmt]
    with TemporaryDirectory() as tmp:
        path = Path(tmp, name)
        path.write_text(text)
        data = read(path)
    assert data.format == fmt and data.parameters == (parameter,)
    written = {
        (kernel, metric): {p: sorted(reps) for p, reps in zip(points, repetitions, strict=True)}
        for kernel, metric, points, repetitions in series
    }
    assert _contents(data) == written


NASTY = ["\x00", "\x1b[31m", "\n", "\r", ",", ";", "\t", "{", "}", "[", "]", '"', ":", "nan",
         "inf", "-", "1e999", "9" * 400, "\ud800", "é", "PARAMETER", "DATA", "POINTS (", " "]


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    """A file name and its bytes: a valid file with a few edits, or garbage."""
    parameter, series = draw(measurements())
    fmt = draw(st.sampled_from(FORMATS))
    name, text = measurement_texts(parameter, series)[fmt]
    if draw(st.booleans()) and draw(st.booleans()):  # a quarter: garbage
        return name, draw(st.binary(max_size=300))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        piece = draw(st.sampled_from(NASTY) | st.text(max_size=3))
        cut = draw(st.integers(0, 3))
        text = text[:at] + piece + text[at + cut :]
    return name, text.encode("utf-8", errors="surrogatepass")


@given(mutated(), st.sampled_from([[], ["--format", "json"]]))
@settings(max_examples=FIT_EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
def test_mutated_files_give_a_result_or_one_error_line(case, extra) -> None:
    name, content = case
    old = '[models.keep]\nmodel = "x"\n'
    with TemporaryDirectory() as tmp:
        path, keep = Path(tmp, name), Path(tmp, "keep.toml")
        path.write_bytes(content)
        keep.write_text(old)
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = main(["fit", str(path), "--out", str(keep), *extra])
        left = sorted(p.name for p in Path(tmp).iterdir())
        kept = keep.read_text()
    assert left == sorted([name, "keep.toml"])  # no temporary file behind
    errors = [line for line in err.getvalue().splitlines() if " error: " in line]
    if status == 2:
        assert len(errors) == 1 and errors[0].isprintable(), err.getvalue()
        assert out.getvalue() == "" and kept == old
    else:
        assert status == 0 and errors == []
        assert "Traceback" not in err.getvalue()
        assert tomllib.loads(kept)["models"]  # a whole model file replaced the old one
