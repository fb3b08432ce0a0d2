"""The newer surfaces of ``fuzz_campaign.py`` (issue 40): machine files, ``calibrate`` and
``validate``, ``--interval``/``--seed``, uncertainty tables, the harness readers, ``measure``
and the files a command reads (devices, huge, binary, deeply nested).

:func:`make_input` gives one input of a class of :data:`CLASSES` in the campaign's form
(``argv``, ``files`` to create, and ``keep``: the inputs that must be byte for byte the same
after the run, whatever its exit status: an output never replaces an input). The campaign
runs it in-process and counts tracebacks, hangs, wrong exit codes and data loss.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

#: class -> inputs at scale 1.0 (total 33,000)
CLASSES = {
    "machine": 8_000,
    "calibrate": 3_000,
    "validate": 4_000,
    "interval": 5_000,
    "uncertainty": 3_000,
    "harness": 4_000,
    "measure": 1_500,
    "files": 1_500,
}
#: classes whose inputs run longer (least squares, subprocesses, many values)
TIMEOUTS = {"calibrate": 20.0, "measure": 40.0, "harness": 20.0, "files": 20.0}

HANDOFFS = ["0", "310 + 0.61*x", "100 + 0.5*x", "x^x", "2^x", "sqrt(-x)", "log2(x - 1)", "1000 - x", "1e-320*x",
            "x^1000", "1e308*x", "-1", "x/0", "min(x, 2)", "max(1, x)", "p", "n*x", "1e400",
            "(x+1)^1001", "10^10^10", "2^(x^x)", "x - x", "1e-300", "log2(x)^40"]
SPEEDUPS = ["p", "p/(1 + 0.08*(p - 1))", "p/(1 + 0.05*(p - 1))", "p^p^p", "sqrt(p-2)", "(70 - p)/69", "1e-320*p", "1/p",
            "0", "-p", "log2(p)", "p - 1", "2^p", "p^(1/2)", "x", "min(p, 4)", "p^1000",
            "(1000000 - p)/999999", '{ form = "amdahl", alpha = 0.9, tseq = "1" }',
            '{ form = "memwall", f = 0.76, k = 9.9, m1 = 0.0003, m2 = 0.88, phi = 2.5 }',
            '{ form = "amdahl" }', "[1, 2]", "3", '{ form = "nope" }']
UNITS = ["ns", "us", "ms", "s", "min", "bytes", "ns*ns", "1/s", "furlong", "a" * 10, "a" * 200,
         "a" * 201, "a" * 5000, "", "T1", "\\u001b[31m", "ns / s", "1e400 ns"]
CORES = ["1", "2", "4", "128", str(1 << 20), str((1 << 20) + 1), "0", "-1", '"2"', "2.5", "true",
         "1" + "0" * 30]
TERMS = ["qsort", "pipe(qsort, inc)", "tpool_4(qsort)", "pipe(tpool_4(qsort), inc)",
         "tpool_100(qsort)", "seq(inc, nop)", "pipe(inc, nop)", "tpool_{10^6}(qsort)",
         "mapReduce_{2,4}^{x,16}(map_hadoop, reduce_p)", "tpool_n(qsort)", "pipe(k, inc)", "k"]
AT = ["1", "2", "1024", "10^6", "10^12", "1e300", "1.7e308", "1/3", "10^400", "0"]
NUMBERS = ["0", "-1", "1", "1e-320", "1e308", "1.7e308", "nan", "inf", "-inf", "1e400", "3",
           '"2"', "true", "[]", "{}", "1e-300", "0.5"]


def mutate(rng: random.Random, text: str) -> str:
    """The campaign's random edits of ``text`` (``fuzz_campaign.mutate``)."""
    from fuzz_campaign import mutate as edited

    return edited(rng, text)


def choice(rng: random.Random, items: list[str], mutated: float = 0.15) -> str:
    item = rng.choice(items)
    return mutate(rng, item) if rng.random() < mutated else item


def nested(rng: random.Random) -> str:
    depth = rng.choice([1, 50, 100, 101, 900, 5000])
    return "[" * depth + "]" * depth


def machine_text(rng: random.Random) -> str:
    """A random machine file: mostly well-formed, with odd values."""
    if rng.random() < 0.2:  # a calibrated machine whose numbers an interval draws
        lines = ["format = 1", "[machine]", f"cores = {rng.choice(['1', '2', '16', '64'])}",
                 'handoff = "100 + 0.5*x"', 'dispatch = "300"', 'turn = "160"', 'wake = "12000"', "[machine.speedups]",
                 'qsort = "p/(1 + 0.05*(p - 1))"', 'inc = "p/(1 + 0.3*(p - 1))"', *covariance_record(rng)]  # fmt: skip
        return "\n".join(lines) + "\n"
    form = rng.choice(["1", "1", "1", "2", '"1"'])
    lines = [] if rng.random() < 0.05 else [f"format = {form}"]
    lines += ["[machine]", f"cores = {choice(rng, CORES, 0.05)}"]
    if rng.random() < 0.5:
        lines.append(f'unit = "{choice(rng, UNITS)}"')
    if rng.random() < 0.8:
        lines.append(f'handoff = "{choice(rng, HANDOFFS)}"')
    if rng.random() < 0.3:  # the wake: any expression a hand-off may be
        lines.append(f'wake = "{choice(rng, HANDOFFS)}"')
    if rng.random() < 0.3:  # the turn: the same
        lines.append(f'turn = "{choice(rng, HANDOFFS)}"')
    drawn = rng.random() < 0.2  # a calibration record, among odd values
    if drawn:
        lines.append('dispatch = "300"')
    elif rng.random() < 0.2:
        lines.append(f"calibration = {nested(rng)}")
    if rng.random() < 0.1:
        lines.append(f'source = "{"s" * rng.choice([1, 100000])}"')
    if rng.random() < 0.6:
        lines.append("[machine.speedups]")
        for atom in rng.sample(["qsort", "inc", "k"], rng.randint(1, 2)):
            value = choice(rng, SPEEDUPS)
            lines.append(f"{atom} = {value if value[:1] in '{[0123456789' else json.dumps(value)}")
    if drawn:
        lines += covariance_record(rng)
    text = "\n".join(lines) + "\n"
    return mutate(rng, text) if rng.random() < 0.1 else text


def covariance_record(rng: random.Random) -> list[str]:
    """A calibration record's numbers and covariance (``[machine.calibration.covariance]``):
    mostly as calibrate writes them, with odd names, units, sizes and entries."""
    names = rng.sample(["h0", "h1", "d0", "t0", "w0", "c_qsort", "c_inc", "c_k", "x", "h0"] if rng.random() < 0.2
                       else ["h0", "h1", "d0", "t0", "w0", "c_qsort", "c_inc"], rng.randint(1, 4))  # fmt: skip
    numbers = {"h0": "100.0", "h1": "0.5", "d0": "300.0", "t0": "160.0", "w0": "12000.0", "c_qsort": "0.05", "c_inc": "0.3",
               "c_k": "1.0"}  # fmt: skip
    lines = ["[machine.calibration.numbers]"]
    lines += [f"{n} = {choice(rng, [v], 0.05)}" for n, v in numbers.items() if rng.random() < 0.95]
    size = len(names) if rng.random() < 0.9 else rng.randint(0, 5)
    def entry(i: int, j: int) -> str:
        if rng.random() < 0.02:
            return rng.choice(NUMBERS)
        return repr(rng.choice([1e-4, 0.01, 100.0, 1e6, 1e300, 0.0]) if i == j else 0.0)
    matrix = "[" + ", ".join("[" + ", ".join(entry(i, j) for j in range(size)) + "]" for i in range(size)) + "]"
    lines += ["[machine.calibration.covariance]", f'unit = "{choice(rng, ["ns", "us"], 0.1)}"',
              f"names = {json.dumps(names)}", f"matrix = {matrix}"]  # fmt: skip
    return lines + (width_record(rng) if rng.random() < 0.7 else []) + (spread_record(rng) if rng.random() < 0.5 else [])


def spread_record(rng: random.Random) -> list[str]:
    """A calibration record's missed spread, its growth beyond the sizes and its parts
    (``[machine.calibration.spread]``): mostly as calibrate writes them, with odd spreads,
    sizes and growths."""
    sizes = rng.choice([["1024.0", "4096.0", "16384.0"], ["1.0"], ["1e300", "1e-300"], ["4096.0", "1024.0"]])
    def pairs(of: list[str]) -> str:
        return "[" + ", ".join(f"[{x}, {choice(rng, ['0.0', '0.05', '0.3'], 0.05)}]" for x in of) + "]"

    lines = ["[machine.calibration.spread]", f"missed = {pairs(sizes)}"]
    if rng.random() < 0.8:
        lines.append(f"growth = {choice(rng, ['0.0', '0.0144', '0.5', '1e6', '1e300'], 0.1)}")
    if rng.random() < 0.7:  # the miss in parts: every composition's and each atom's (one size short, at times)
        lines.append(f"common = {pairs(sizes)}")
        short = sizes[:-1] if rng.random() < 0.1 else sizes
        atoms = rng.sample(["inc", "qsort", "nop", "fft"], rng.randint(0, 3))
        lines += ["[machine.calibration.spread.atoms]", *(f"{name} = {pairs(short)}" for name in atoms)]
    return lines


def width_record(rng: random.Random) -> list[str]:
    """A calibration record's width factor (``[machine.calibration.width]``): within the sizes
    seen and beyond them, mostly as calibrate writes it, with odd factors and ranges."""
    def factor() -> str:
        return choice(rng, ["0.58", "1.2", "1.0", "2.65"], 0.1)

    low, high = rng.choice([("1024.0", "262144.0"), ("1.0", "1e300"), ("4096.0", "4096.0"), ("8.0", "2.0")])
    lines = ["[machine.calibration.width]", "level = 0.9", f"factor = {factor()}", "points = 45",
             f"kept = {choice(rng, ['18.2', '45.0', '0.0'], 0.05)}", f"range = [{low}, {high}]"]  # fmt: skip
    return lines + ([f"beyond = {factor()}"] if rng.random() < 0.8 else [])


def extrap(regions: dict[str, list[list[str]]], xs: list[str], metric: str = "time") -> str:
    """An Extra-P text file: one DATA line of repetitions per point and region (``metric``:
    ``time_s`` says the times are in seconds)."""
    out = ["PARAMETER x", "POINTS " + " ".join(xs), f"METRIC {metric}"]
    for name, rows in regions.items():
        out.append(f"REGION {name}")
        out += ["DATA " + " ".join(row) for row in rows]
    return "\n".join(out) + "\n"


def calibration_data(rng: random.Random) -> str:
    """Atoms and calibration compositions measured at random sizes, values of any scale in
    any unit of time, 1 to 8 repetitions."""
    xs = rng.choice([["1024", "2048", "4096", "8192"], ["-4", "-2", "2", "4"], ["0", "1", "2"],
                     ["1e300", "1e308"], ["1024", "1024"], ["16"]])
    scale = rng.choice([1e-300, 1.0, 1e3, 1e6, 1e300, 1e308])
    repetitions = rng.choice([1, 3, 4, 5, 8])  # from 4 on, validate halves them
    def rows(factor: float) -> list[list[str]]:
        return [[repr(rng.choice([scale, -scale, 0.0, float("nan")]) if rng.random() < 0.05
                      else scale * factor * (i + 1) * rng.uniform(0.95, 1.05)) for _ in range(repetitions)]
                for i in range(len(xs))]
    names = rng.sample(["inc", "nop", "qsort", "pipe(inc, inc)", "pipe(inc, nop)", "seq(inc, inc)",
                        "tpool_2(qsort)", "tpool_4(qsort)", "pipe(qsort, inc)", "k", "seq(k, k)",
                        "inc[p=2]"], rng.randint(1, 8))
    metric = rng.choice(["time", "time_s", "time_us", "time_ms"])
    return extrap({name: rows(rng.uniform(0.5, 2)) for name in names}, xs, metric)


def uncertainty_table(rng: random.Random, name: str = "inc") -> str:
    """A model with a random uncertainty table."""
    k = rng.randint(1, 3)
    terms = rng.sample(["1", "x", "x*log2(x)", "p", "n", "x^2", "log2(x)", "2^x", "(", "1e400"], k)
    def entry(i: int, j: int) -> str:
        if rng.random() < 0.1:
            return rng.choice(NUMBERS)
        return repr(rng.choice([1.0, 4e3, 1e-4, 0.0]) if i == j else rng.uniform(-1, 1))
    size = k if rng.random() < 0.9 else rng.randint(0, 4)
    matrix = "[" + ", ".join("[" + ", ".join(entry(i, j) for j in range(size)) + "]" for i in range(size)) + "]"
    if rng.random() < 0.05:
        matrix = nested(rng)
    table = (f'[models.{name}]\nform = "{rng.choice(["pmnf", "pmnf", "expr", "amdahl"])}"\n'
             f'model = "{choice(rng, ["6.3*x + 4000", "70", "x", "5.8*x*log2(x) + 19000"], 0.1)}"\n'
             f"[models.{name}.uncertainty]\nterms = {json.dumps(terms)}\ncovariance = {matrix}\n"
             f"repetitions = {rng.choice(['10', '0', '-1', '1.5', '1' + '0' * 30, '3'])}\n"
             f"noise = {rng.choice(['0.02', '0', '-1', 'nan', 'inf', '1e308'])}\n"
             f'method = "{rng.choice(["bootstrap", "linear", ""])}"\n')
    if rng.random() < 0.3:  # the model's own error: held out at its sizes, grown beyond them
        table += "held_out = " + rng.choice(["[[1024.0, 0.05], [2048.0, -0.1], [4096.0, 0.02]]", "[[0.0, 0.1]]",
                                            "[[1024.0, 1e300]]", "[]", "[1]", "[[1, 2, 3]]"]) + "\n"  # fmt: skip
    if rng.random() < 0.3:
        table += "growth = " + rng.choice(["[0.0, 0.02]", "[0.5, 3.0]", "[1e308, 1e308]", "[0.1]", "[-1, 0.1]",
                                          "[nan, 0.1]", '["a", 0]', "[]", "[true, false]"]) + "\n"  # fmt: skip
    return "format = 1\n" + (mutate(rng, table) if rng.random() < 0.1 else table)


def explain_options(rng: random.Random) -> list[str]:
    """``eval``'s derivation, half the time (with an interval: what it is made of), in text or JSON."""
    if rng.random() < 0.5:
        return []
    return ["--explain"] + (["--format", "json"] if rng.random() < 0.3 else [])


def interval_options(rng: random.Random) -> list[str]:
    level = rng.choice(["0.9", "0.5", "0.99", "0", "1", "1.5", "nan", "-0.1", "x", "1e-300"])
    seed = rng.choice(["0", "1", "-1", "2", str(2**64), "10" + "0" * 40, "x", "1.5"])
    return ["--interval", level] + (["--seed", seed] if rng.random() < 0.7 else [])


#: the harnesses' text reports vendored for the tests, and their formats
TEXT_REPORTS = {
    "gbench/gb_run.csv": "gbench-csv",
    "gbench/gb_console.txt": "gbench-console",
    "gbench/gb_tabular.txt": "gbench-console",
    "hyperfine/hf_dd.csv": "hyperfine-csv",
    "pytest_benchmark/pb_run.csv": "pytest-benchmark-csv",
    "pytest_benchmark/pb_run.txt": "pytest-benchmark-console",
    "pytest_benchmark/pb_groups.txt": "pytest-benchmark-console",
}


def text_report(rng: random.Random) -> tuple[str, str, list[str]]:
    """(name, text, extra fit options) of a vendored text report, its lines edited."""
    path = rng.choice(sorted(TEXT_REPORTS))
    lines = (Path(__file__).parent.parent / "tests" / "data" / path).read_text().splitlines()
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        lines[i] = mutate(rng, lines[i]) if rng.random() < 0.7 else rng.choice(["", lines[i] * 2])
    text = "\n".join(lines[: rng.randint(1, len(lines))])
    extra = ["--input-format", TEXT_REPORTS[path]] if rng.random() < 0.3 else []
    if rng.random() < 0.3:
        extra += ["--metric", rng.choice(["min", "mean", "cpu_time", "items_per_second", "x"])]
    return Path(path).name, text, extra


def harness_file(rng: random.Random) -> tuple[str, str, list[str]]:
    """(name, text, extra fit options) of a random harness export: JSON made up, or a
    vendored text report edited."""
    if rng.random() < 0.25:
        return text_report(rng)
    count = rng.choice([1, 2, 5, 50, 500, 3000])
    kind = rng.choice(["hyperfine", "pytest-benchmark", "gbench"])
    def value() -> object:
        return rng.choice([0.2, 1e-6, 0.0, -1.0, float("nan"), 1e308, "x", None, [1], 1e-320])
    def times() -> object:
        if rng.random() < 0.1:
            return rng.choice([[], None, "x", [value()], [[[]]]])
        return [abs(rng.gauss(0.2, 0.01)) if rng.random() > 0.05 else value() for _ in range(3)]
    if kind == "hyperfine":
        rows = [{"command": f"./k {i} {rng.choice(['a', 'b'])}", "mean": 0.2, "times": times(),
                 "parameters": {"n": str(i) if rng.random() > 0.05 else rng.choice(["x", "", "1e400"])}}
                for i in range(1, count + 1)]
        doc: object = {"results": rows}
    elif kind == "pytest-benchmark":
        rows = [{"name": f"test_k[{i}]", "params": {"n": i if rng.random() > 0.05 else value(),
                 "kind": rng.choice(["a", "b"])}, "stats": {"data": times(), "mean": 1e-6}}
                for i in range(1, count + 1)]
        doc = {"machine_info": {}, "benchmarks": rows}
    else:
        rows = [{"name": f"BM_k/{i}", "run_type": "iteration", "iterations": 10,
                 "real_time": value() if rng.random() < 0.05 else 100.0 * i, "cpu_time": 100.0 * i,
                 "time_unit": rng.choice(["ns", "us", "ms", "s", "parsec"])} for i in range(1, count + 1)]
        doc = {"context": {"num_cpus": rng.choice([2, 0, -1, "x"])}, "benchmarks": rows}
    text = json.dumps(doc)
    if rng.random() < 0.05:
        text = text[:1] + nested(rng) + text[1:]
    elif rng.random() < 0.1:
        text = mutate(rng, text[:2000]) + text[2000:]
    extra = ["--input-format", kind] if rng.random() < 0.3 else []
    extra += ["--uncertainty", rng.choice(["none", "linear", "auto"])]
    return f"{kind}.json", text, extra


def measure_input(rng: random.Random) -> dict:
    """``measure`` of small programs (no interpreter start-up), its journal often there."""
    program = rng.choice(["true {x}", "false {x}", "echo {x}", "sleep 0", "printf %s {x}",
                          "cat data.txt", "echo {y}", "", "'unclosed"])
    grid = rng.choice(["x=1,2", "x=1..4:3", "x=1", "x=1..1e300:2", "x=0.5,1.5", "x=-1,1", "y=1,2"])
    argv = ["measure", program, "--over", grid, "--repetitions", rng.choice(["1", "2", "0"]),
            "--warmup", rng.choice(["0", "1"])]
    if rng.random() < 0.3:
        argv += ["--value-regex", rng.choice([r"(\d+)", "(", r"x(\d)", r"(.+)"])]
    if rng.random() < 0.2:
        argv += ["--timeout", rng.choice(["0.5", "0", "-1", "1e9", "x"])]
    if rng.random() < 0.2:
        argv += ["--region", rng.choice(["pipe(a, b)=echo {x}", "k=true", "=x", "k"])]
    out = rng.choice(["k.txt", "k.json", "data.txt", "k.txt", "-", "nodir/k.txt"])
    argv += ["--out", out]
    files = {"data.txt": "keep me\n"}
    if rng.random() < 0.4 and "/" not in out:
        header = {"kind": "patternalg-measure-journal", "plan": {"regions": []}}
        records = rng.choice([
            "[" * rng.choice([10, 100000]),
            json.dumps(header),
            json.dumps(header) + "\n" + '{"repetition": 0, "region": "k", "point": 0, "value": NaN}',
            "not json", "\x00\x01",
        ])
        files[out + ".journal"] = records + "\n"
    return {"argv": argv, "files": files, "keep": ["data.txt"] if "data.txt" in program else []}


#: what a file argument may be: devices, huge (sparse), binary, nested too deep, of another kind
ODD_FILES = ["/dev/zero", "/dev/null", "/dev/urandom", "huge", "binary", "deep", "utf16", "empty",
             "dir", "machine", "models"]


def odd_file(rng: random.Random, files: dict, setup: list) -> str:
    kind = rng.choice(ODD_FILES)
    if kind.startswith("/dev/"):
        return kind
    if kind == "huge":
        setup.append(("sparse", "huge.txt"))
        return "huge.txt"
    if kind == "dir":
        setup.append(("dir", "d"))
        return "d"
    files[f"{kind}.txt"] = {
        "binary": "PK\x03\x04\x00\x00binary",
        "deep": "[" * 100_000,
        "utf16": "\ufeffP\x00A\x00R\x00",
        "empty": "",
        "machine": "format = 1\n[machine]\ncores = 2\n",
        "models": '[models.k]\nmodel = "x"\n',
    }[kind]
    return f"{kind}.txt"


def make_input(cls: str, rng: random.Random) -> dict:
    """One input of class ``cls``: ``argv``, ``files`` to create, ``keep`` (files that must
    stay as they were), ``setup`` (links, directories, sparse files)."""
    files: dict[str, str] = {}
    keep: list[str] = []
    setup: list[tuple[str, ...]] = []
    if cls == "machine":
        files["m.toml"] = machine_text(rng)
        files["k.toml"] = '[models.k]\nmodel = "2*x"\n'
        keep = ["m.toml"]
        command = rng.choice(["eval", "eval", "sweep", "compare", "optimize", "explore", "validate"])
        term = choice(rng, TERMS, 0.05)
        machine = ["--machine", "m.toml", "--models", "k.toml"]
        if rng.random() < 0.2:
            machine += ["--cores", rng.choice(["1", "2", "0", str(1 << 20), "x", str(1 << 21)])]
        if rng.random() < 0.4:
            machine += interval_options(rng)
        at = ["--at", f"x={rng.choice(AT)}"]
        if command == "eval":
            argv = ["eval", term, *machine, *(at if rng.random() < 0.7 else []), "--at", "n=2"]
            argv += explain_options(rng)
        elif command == "sweep":
            argv = ["sweep", term, "--over", rng.choice(["x=1..1e6:5:log", "x=1..1e300:3", "x=1,2"]), *machine, "--at", "n=2"]
        elif command == "compare":
            argv = ["compare", term, "pipe(qsort, inc)", *machine, "--at", "n=2", *(["--explain"] if rng.random() < 0.5 else [])]
        elif command == "optimize":
            argv = ["optimize", "pipe(tpool_a(qsort), tpool_b(inc))", *machine, *at]
        elif command == "explore":
            argv = ["explore", term, *machine, *at, "--at", "n=2", "--expansions", "20"]
        else:
            files["v.txt"] = calibration_data(rng)
            argv = ["validate", "v.txt", *machine]
        return {"argv": argv, "files": files, "keep": keep}
    if cls == "calibrate":
        files["cal.txt"] = calibration_data(rng)
        keep = ["cal.txt"]
        if rng.random() < 0.6:
            files["machine.txt"] = rng.choice(["cores: 2\n", "CPU(s): 4\n", "cores: 0\n", "\x00", "cores: " + "9" * 40 + "\n"])
            keep.append("machine.txt")
        argv = ["calibrate", "cal.txt"]
        if rng.random() < 0.6:
            argv += ["--cores", rng.choice(["1", "2", "4", "0", "-1", "x", str(1 << 21)])]
        if rng.random() < 0.3:
            argv.append("--speedups")
        if rng.random() < 0.2:
            argv += ["--against", rng.choice(["measured", "models"])]
        if rng.random() < 0.2:
            argv += ["--terms", rng.choice(["pipe(inc, inc)", "pipe(inc, inc);seq(inc, inc)", ";", "pipe("])]
        if rng.random() < 0.2:
            files["models.toml"] = uncertainty_table(rng) if rng.random() < 0.5 else '[models.inc]\nmodel = "6.3*x + 4000"\n'
            argv += ["--models", "models.toml"]
            keep.append("models.toml")
        argv += ["--out", rng.choice(["m.toml", "m.toml", "machine.txt", "cal.txt", "-", "models.toml", "nodir/m.toml"])]
        return {"argv": argv, "files": files, "keep": keep}
    if cls == "validate":
        files["v.txt"] = calibration_data(rng)
        keep = ["v.txt"]
        argv = ["validate", "v.txt"]
        if rng.random() < 0.5:
            files["u.toml"] = uncertainty_table(rng, rng.choice(["inc", "nop", "k"]))
            argv += ["--models", "u.toml"] + (["--builtin"] if rng.random() < 0.5 else [])
            keep.append("u.toml")
        if rng.random() < 0.3:
            files["m.toml"] = machine_text(rng)
            argv += ["--machine", "m.toml"]
            keep.append("m.toml")
        if rng.random() < 0.4:
            argv += interval_options(rng)
        if rng.random() < 0.4:
            argv += ["--format", rng.choice(["json", "csv", "text"])]
        if rng.random() < 0.5:
            argv += ["--out", rng.choice(["-", "out.txt", "v.txt", "u.toml", "m.toml", "nodir/o.txt"])]
        return {"argv": argv, "files": files, "keep": keep}
    if cls in ("interval", "uncertainty"):
        files["u.toml"] = uncertainty_table(rng)
        keep = ["u.toml"]
        if cls == "uncertainty":
            argv = rng.choice([["models", "--models", "u.toml"], ["models", "--models", "u.toml", "--format", "json"],
                               ["eval", "inc", "--models", "u.toml", "--at", f"x={rng.choice(AT)}", "--interval", "0.9"]])
            return {"argv": argv, "files": files, "keep": keep}
        command = rng.choice(["eval", "sweep", "compare", "optimize", "explore"])
        models = ["--models", "u.toml"]
        if command == "eval":
            argv = ["eval", rng.choice(["inc", "pipe(inc, inc)", "seq(inc, qsort)"]), *models, "--at", f"x={rng.choice(AT)}"]
            argv += explain_options(rng)
        elif command == "sweep":
            argv = ["sweep", "inc", "pipe(inc, nop)", "--over", rng.choice(["x=1..1e6:5:log", "x=1,2", "x=1..1e300:3"]), *models]
        elif command == "compare":
            argv = ["compare", "inc", "pipe(inc, nop)", *models, *(["--explain"] if rng.random() < 0.5 else [])]
        elif command == "optimize":
            argv = ["optimize", "pipe(tpool_a(inc), tpool_b(nop))", "--budget", "a+b<=4", "--at", "x=1024", *models]
        else:
            argv = ["explore", "pipe(inc, qsort)", "--threads", "2", "--at", "x=1024", "--expansions", "20", *models]
        return {"argv": argv + interval_options(rng), "files": files, "keep": keep}
    if cls == "harness":
        name, files[name], extra = harness_file(rng)
        files["keep.toml"] = '[models.keep]\nmodel = "x"\n'
        argv = ["fit", name, *extra, "--out", rng.choice(["keep.toml", "out.toml", name])]
        return {"argv": argv, "files": files, "keep": [name], "watch": "keep.toml"}
    if cls == "measure":
        return measure_input(rng)
    if cls == "files":
        path = odd_file(rng, files, setup)
        command = rng.choice(["machine", "models", "fit", "validate", "calibrate", "@", "profile"])
        argv = {
            "machine": ["eval", "qsort", "--machine", path],
            "models": ["eval", "qsort", "--models", path],
            "fit": ["fit", path],
            "validate": ["validate", path],
            "calibrate": ["calibrate", path, "--cores", "2", "--out", "m.toml"],
            "@": ["eval", "@" + path],
            "profile": ["profile", path, path, "--param", "x"],
        }[command]
        return {"argv": argv, "files": files, "keep": [f for f in files], "setup": setup}
    raise ValueError(cls)


if __name__ == "__main__":  # a few inputs of each class, to look at
    for name in CLASSES:
        print(name, make_input(name, random.Random(0))["argv"], file=sys.stdout)
