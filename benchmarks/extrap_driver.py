"""Run Extra-P's modeler on one input file; print its models and its modeling time as JSON.

Runs inside Extra-P's own virtual environment (``bench_fit.py`` starts it there)::

    EXTRAP_VENV/bin/python extrap_driver.py FILE [--format text|json|jsonl|talpas|cube] [--modeler Basic]

With ``--format cube`` FILE is a directory of Cube files (``--scaling weak|weak_threaded|strong``);
``--metric NAME`` keeps one metric's models; ``--measurements`` adds the mean and median Extra-P
read at every point of every kernel.

Only Extra-P's public classes are used (reader, ModelGenerator); nothing of it is copied.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from fractions import Fraction


def _exponents(compound) -> dict:
    """The exponents (i, j) of one compound term x^i * log2(x)^j."""
    i, j = Fraction(0), 0
    for simple in compound.simple_terms:
        if simple.term_type == "polynomial":
            i = Fraction(float(simple.exponent)).limit_denominator(100)
        else:
            j = int(float(simple.exponent))
    return {"i": str(i), "j": j}


def _terms(function) -> list[dict]:
    """Single-parameter terms as {coefficient, i, j}; multi-parameter ones with their factors."""
    terms = []
    for compound in getattr(function, "compound_terms", []):
        coefficient = float(compound.coefficient)
        if hasattr(compound, "parameter_term_pairs"):
            factors = [
                {"parameter": int(p), **_exponents(t)} for p, t in compound.parameter_term_pairs
            ]
            terms.append({"coefficient": coefficient, "factors": factors})
        else:
            terms.append({"coefficient": coefficient, **_exponents(compound)})
    return terms


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--format", default="text")
    parser.add_argument("--modeler", default="Basic")
    parser.add_argument("--scaling", default="weak")
    parser.add_argument("--metric")
    parser.add_argument("--measurements", action="store_true")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    import scipy.optimize  # noqa: F401  (Extra-P imports it on first use; keep that out of the timing)
    from extrap.modelers.model_generator import ModelGenerator

    if args.format == "text":
        from extrap.fileio.file_reader.text_file_reader import TextFileReader as Reader
    elif args.format == "cube":
        from extrap.fileio.file_reader.cube_file_reader2 import CubeFileReader2

        class Reader(CubeFileReader2):  # noqa: N801  (the scaling given, read as the others)
            scaling_type = args.scaling

    elif args.format == "talpas":
        from extrap.fileio.file_reader.talpas_file_reader import TalpasFileReader as Reader
    else:
        from extrap.fileio.file_reader.json_file_reader import JsonFileReader as Reader
    start = time.perf_counter()
    experiment = Reader().read_experiment(args.file)
    read = time.perf_counter() - start
    generator = ModelGenerator(experiment, modeler=args.modeler)
    start, cpu = time.perf_counter(), time.process_time()
    generator.model_all()
    model, model_cpu = time.perf_counter() - start, time.process_time() - cpu
    models = []
    for (callpath, metric), found in generator.models.items():
        if args.metric and metric.name != args.metric:
            continue
        function = found.hypothesis.function
        models.append(
            {
                "kernel": callpath.name,
                "metric": metric.name,
                "constant": float(function.constant_coefficient),
                "terms": _terms(function),
            }
        )
    times = {"read_seconds": read, "model_seconds": model, "model_cpu_seconds": model_cpu}
    result = {**times, "models": models}
    if args.measurements:
        result["parameters"] = [p.name for p in experiment.parameters]
        result["measurements"] = [
            {
                "kernel": callpath.name,
                "metric": metric.name,
                "point": list(m.coordinate),
                "mean": float(m.mean),
                "median": float(m.median),
            }
            for (callpath, metric), found in experiment.measurements.items()
            if not args.metric or metric.name == args.metric
            for m in found
        ]
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
