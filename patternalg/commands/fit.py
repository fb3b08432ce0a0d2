"""``patternalg fit FILE --form FORM``: atomic models from measurements, one command for all forms.

The flags of each family are built from its declared ``fit_options`` (``commands.flags``);
a flag that several families declare appears once.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import sys
import tempfile
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from .._internal.atomic_write import atomic_writer
from .._internal.toml_writer import table_text
from ..forms import Form
from ..forms.report import FitReport
from ..forms.unsure import Unsure
from ..library.fitted import untouched_notes
from ..library.model_library import ModelLibrary
from .common import (
    INPUT_FORMATS,
    LeftOut,
    add_format_option,
    add_nonpositive_option,
    add_parameters_option,
    check_output,
    json_text,
    note,
    warn,
)
from .flags import add_family_options, family_options, fit_families, fittable
from .progress import progress
from .quality import quality_line

#: how a Cube set's processes and threads become repetitions (``measurements.cube.SCALINGS``)
SCALINGS = ("weak", "weak_threaded", "strong")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        metavar="FILE",
        help="measurements (CSV, Extra-P text/JSON, TaLPas, JSON of Google Benchmark, hyperfine or "
        "pytest-benchmark, a directory of Cube files); - for stdin",
    )
    names = fittable()
    parser.add_argument("--form", choices=names, default="pmnf", help="model family (default pmnf)")
    parser.add_argument("--out", metavar="TOML", help="write the fitted models to this model file")
    add_format_option(parser)
    parser.add_argument("--metric", help="the value column or metric to fit")
    add_parameters_option(parser)
    parser.add_argument(
        "--input-format",
        choices=("cube", *INPUT_FORMATS),
        help="format of FILE (default: from its extension and first line)",
    )
    add_nonpositive_option(parser)
    parser.add_argument(
        "--scaling",
        choices=SCALINGS,  # measurements.cube.SCALINGS (that module loads numpy; a test checks)
        help="a directory of Cube profiles: each process's or thread's value is a repetition "
        "(weak, the default), those that ran the call path (weak_threaded), or their sum (strong)",
    )
    families = fit_families()
    add_family_options(parser, families.values())


class _Output:
    """What ``fit`` prints and writes, gathered batch by batch (the model file through an
    atomic writer) and published only when every batch is done: the model file, then stdout."""

    def __init__(
        self, args: argparse.Namespace, summary: Callable[[FitReport], str], fitter: Any
    ) -> None:
        self.json, self.summary = args.format == "json", summary
        self.text = tempfile.TemporaryFile("w+", encoding="utf-8")
        self.stack = contextlib.ExitStack()
        self.toml: Any = None
        if args.out is not None:
            self.toml = self.stack.enter_context(atomic_writer(args.out))
            self.toml.write("format = 1\n")
        self.count = 0
        self.notes: list[str] = []  # the fits' own notes (times that are not positive)
        self.warnings: list[str] = []  # what the fits left out (points with x <= 0)
        self.unsure = Unsure()  # the kernels fitted without an uncertainty
        self.fitter = fitter
        self.left = LeftOut("the other kernels are fitted")  # the kernels that could not be
        self.namesakes = ModelLibrary.builtin().untouched()  # nop: says it passes data untouched
        self.untouched: set[str] = set()  # the kernels fitted so

    def add(self, reports: Sequence[FitReport]) -> None:
        text = self.text
        bulk_text = getattr(reports, "bulk_text", None)  # a batch that writes its own text
        if bulk_text is not None and len(reports):
            batch: Any = reports  # forms.pmnf.batch.Reports
            self.notes.extend(batch.notes.values())
            untouched = self.namesakes.intersection(batch.atoms)
            self.untouched |= untouched
            printed, tables = bulk_text(
                json_records=self.json, model_file=self.toml is not None, untouched=untouched
            )
            self.unsure.add_reports(batch, self.fitter)
            text.write(("[\n" if not self.count else ",\n") + printed if self.json else printed)
            if self.toml is not None:
                self.toml.write(tables)
            self.count += len(reports)
            return
        self.unsure.add_reports(reports, self.fitter)
        for report in reports:
            self.notes.extend(report.notes)
            self.warnings.extend(report.warnings)
            if self.json:
                record = json_text(report.record)
                text.write(("[\n" if not self.count else ",\n") + textwrap.indent(record, "  "))
            else:
                text.write(self.summary(report) + "\n")
            named = report.atom in self.namesakes
            if named:
                self.untouched.add(report.atom)
            if self.toml is not None:
                table = report.table()
                if named:
                    table["touches_data"] = False
                self.toml.write(table_text(table, "models", report.atom))
            self.count += 1

    def publish(self) -> None:
        self.stack.close()  # the model file replaces the old one here
        if self.json:
            self.text.write("\n]\n" if self.count else "[]\n")
        self.text.seek(0)
        shutil.copyfileobj(self.text, sys.stdout)
        self.text.close()

    def discard(self, error: BaseException | None = None) -> None:
        """Drop everything; the old model file stays. The writer may turn ``error`` (say,
        text it cannot encode) into a one-line error, which then propagates."""
        self.text.close()
        error = error or _Discarded()
        try:
            self.stack.__exit__(type(error), error, error.__traceback__)
        except _Discarded:
            pass


class _Quality:
    """What :func:`~patternalg.commands.quality.quality_line` reads of a fitted kernel, without
    building its sympy model."""

    def __init__(self, report: FitReport) -> None:
        self.fit = report.fitted.statistics
        self.domain = tuple(report.fitted.domain.items())
        self.unit = report.unit


class _Discarded(Exception):
    """Thrown into the model-file writer to drop what it holds."""


def _fit_batches(
    cls: type[Form], args: argparse.Namespace, options: dict[str, Any], output: _Output
) -> Any:
    """Fit a regular Extra-P text file batch by batch (``Fitter.fit_file_in_batches``): the
    summary of its blocks, or None if that path does not take the file (``output`` then
    holds junk and the reference path says why)."""

    with progress(args, "fitting", "kernels") as bar:

        def each(reports: Sequence[FitReport]) -> None:
            output.add(reports)
            bar(output.count)

        summary = cls.fitting().fit_file_in_batches(
            args.file,
            each,
            metric=args.metric,
            format=args.input_format,
            parameters=args.parameters,
            allow_nonpositive=args.allow_nonpositive,
            **options,
        )
    if summary is not None:
        _warn(cls, summary.measurements(), options)
    return summary


def _warn(cls: type[Form], data: Any, options: dict[str, Any]) -> None:
    """Check the columns of ``data`` for a fit by ``cls`` and print the warnings (even with
    ``--quiet``)."""
    from ..forms.columns import checked

    for warning in checked(data, cls.name, options.get("param")):
        print(f"warning: {warning}", file=sys.stderr)


def _fit_all(
    cls: type[Form], args: argparse.Namespace, options: dict[str, Any], output: _Output
) -> Any:
    """Read the whole file and fit it (the reference path); the measurements."""
    data = cls.fitting().read(
        args.file, args.input_format, metric=args.metric, scaling=args.scaling, parameters=args.parameters
    )
    for text in data.notes:  # what reading left out (a NaN repetition), before any fit fails
        note(args, text)
    _warn(cls, data, options)
    with progress(args, "fitting", "kernels") as bar:
        reports = cls.fit_each(
            data,
            progress=bar,
            allow_nonpositive=args.allow_nonpositive,
            on_error=output.left.append,
            **options,
        )
    output.left.unless(reports)  # nothing fitted: the first kernel's error, as one kernel's
    output.add(reports)
    return data




def run(args: argparse.Namespace) -> int:
    cls = fit_families()[args.form]
    options = family_options(cls, args)
    if args.out is not None:
        check_output(args, args.out)  # before the work, not after it

    def summary(report: FitReport) -> str:
        record, fitter = report.record, cls.fitting()
        line = f"{fitter.summary_line(record)}  [{report.unit}]"
        quality = quality_line(_Quality(report))
        line = f"{line}\n  {quality}" if quality else line
        return "\n  ".join([line, *report.details()])

    output = _Output(args, summary, cls.fitting())
    try:
        data = None if args.scaling else _fit_batches(cls, args, options, output)
        if data is None:
            output.discard()
            output = _Output(args, summary, cls.fitting())
            data = _fit_all(cls, args, options, output)
    except BaseException as error:
        output.discard(error)
        raise
    method = cls.fitting().uncertainty_of(data, options)
    for text in [
        *output.notes, *cls.notes(data, options), *output.unsure.notes(args.form, method),
        *untouched_notes(output.untouched),
    ]:  # fmt: skip
        note(args, text)
    output.publish()
    for text in output.warnings:
        warn(text)
    output.left.say()
    return 0
