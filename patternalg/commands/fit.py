"""``patternalg fit FILE --form FORM``: atomic models from measurements, one command for all forms.

The flags of each family are built from its declared ``fit_options``
(:class:`patternalg.forms.Option`); a flag that several families declare appears once.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..atomic_write import atomic_writer, check_writable
from ..errors import FitError
from ..forms import FORMS, Form, Option, form_class
from ..forms.base import FitReport
from ..quality import quality_line
from ..toml_writer import table_text
from .common import add_format_option, json_text, note
from .progress import progress

#: how a Cube set's processes and threads become repetitions (``measurements.cube.SCALINGS``)
SCALINGS = ("weak", "weak_threaded", "strong")


def fit_families() -> dict[str, type[Form]]:
    """The fittable families on the protocol, by name."""
    classes = (form_class(name) for name in FORMS)
    return {cls.name: cls for cls in classes if cls.fittable()}


def fittable() -> tuple[str, ...]:
    """The names ``--form`` accepts."""
    return tuple(fit_families())


def _default_text(owners: list[tuple[type[Form], Option]]) -> str:
    texts = {
        cls.name: option.default_text or str(option.default)
        for cls, option in owners
        if option.default_text or (option.default is not None and not option.repeat)
    }
    if not texts:
        return ""
    if len(set(texts.values())) == 1 and len(texts) == len(owners):
        return f" (default {next(iter(texts.values()))})"
    return " (default: " + "; ".join(f"{name}: {text}" for name, text in texts.items()) + ")"


def add_family_options(
    parser: argparse.ArgumentParser,
    families: Iterable[type[Form]],
    skip: frozenset[str] = frozenset(),
    shared: Any = None,
) -> None:
    """One flag per declared option (but those named in ``skip``, which the command uses
    otherwise); options several families share go in ``shared`` (a group; default: the
    parser's main group), the others in a group per family (all in ``shared`` when there
    is one family)."""
    families = list(families)
    owners: dict[str, list[tuple[type[Form], Option]]] = {}
    for cls in families:
        for option in cls.fit_options:
            if option.name not in skip:
                owners.setdefault(option.name, []).append((cls, option))
    groups: dict[str, Any] = {}
    for declared in owners.values():
        cls, option = declared[0]
        if len(declared) > 1 or len(families) == 1:
            group: Any = parser if shared is None else shared
        else:
            title = f"{cls.name} ({(cls.__doc__ or '').splitlines()[0].rstrip('.')})"
            group = groups.setdefault(cls.name, parser.add_argument_group(title))
        helps = list(dict.fromkeys(o.help for _, o in declared))
        text = (
            helps[0] if len(helps) == 1 else "; ".join(f"{c.name}: {o.help}" for c, o in declared)
        )
        add_option(group, option, text + _default_text(declared))


def add_option(group: Any, option: Option, help: str | None = None) -> None:
    """The flag of one declared option (default ``None``: :meth:`Option.value` gives the
    declared default once the value is checked); ``help`` defaults to the option's."""
    kwargs: dict[str, Any] = {"dest": option.name, "default": None, "help": help or option.help}
    if option.type is bool:
        kwargs["action"] = "store_true"
    else:
        kwargs["type"] = option.type
        kwargs["choices"] = option.choices
        kwargs["metavar"] = option.metavar
        kwargs["action"] = "append" if option.repeat else "store"
    group.add_argument(option.flag, **kwargs)


def check_options(args: argparse.Namespace, options: Iterable[Option]) -> None:
    """Each option's value in ``args`` checked against its declaration (its default where
    it was not given), in place: a command's own options, before any work."""
    for option in options:
        setattr(args, option.name, option.value(getattr(args, option.name)))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        metavar="FILE",
        help="measurements (CSV, Extra-P text/JSON, TaLPas, a directory of Cube files); - for stdin",
    )
    names = fittable()
    parser.add_argument("--form", choices=names, default="pmnf", help="model family (default pmnf)")
    parser.add_argument("--out", metavar="TOML", help="write the fitted models to this model file")
    add_format_option(parser)
    parser.add_argument("--metric", help="the value column or metric to fit")
    parser.add_argument(
        "--input-format",
        choices=("text", "json", "jsonl", "talpas", "csv", "cube"),
        help="format of FILE (default: from its extension and first line)",
    )
    parser.add_argument(
        "--allow-nonpositive",
        action="store_true",
        help="fit zero or negative times with a warning (default: an error naming the line)",
    )
    parser.add_argument(
        "--scaling",
        choices=SCALINGS,  # measurements.cube.SCALINGS (that module loads numpy; a test checks)
        help="a directory of Cube profiles: each process's or thread's value is a repetition "
        "(weak, the default), those that ran the call path (weak_threaded), or their sum (strong)",
    )
    families = fit_families()
    add_family_options(parser, families.values())


def family_options(
    cls: type[Form], args: argparse.Namespace, skip: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """The family's options given on the command line (but those in ``skip``, not added by
    :func:`add_family_options`); a flag of another family is an error."""
    declared = {option.name for option in cls.fit_options}
    flags = {
        option.name: option.flag
        for f in fit_families().values()
        for option in f.fit_options
        if option.name not in skip
    }
    given = {name: getattr(args, name, None) for name in flags}
    for name, value in given.items():
        if value is not None and name not in declared:
            valid = ", ".join(o.flag for o in cls.fit_options if o.name not in skip) or "none"
            raise FitError(
                f"{flags[name]} is not an option of --form {cls.name} (its options: {valid})"
            )
    return {name: value for name, value in given.items() if value is not None}


class _Output:
    """What ``fit`` prints and writes, gathered batch by batch (the model file through an
    atomic writer) and published only when every batch is done: the model file, then stdout."""

    def __init__(self, args: argparse.Namespace, summary: Callable[[FitReport], str]) -> None:
        self.json, self.summary = args.format == "json", summary
        self.text = tempfile.TemporaryFile("w+", encoding="utf-8")
        self.stack = contextlib.ExitStack()
        self.toml: Any = None
        if args.out:
            self.toml = self.stack.enter_context(atomic_writer(args.out))
            self.toml.write("format = 1\n")
        self.count = 0

    def add(self, reports: Sequence[FitReport]) -> None:
        text = self.text
        bulk_text = getattr(reports, "bulk_text", None)  # a batch that writes its own text
        if bulk_text is not None and len(reports):
            printed, tables = bulk_text(json_records=self.json, model_file=self.toml is not None)
            text.write(("[\n" if not self.count else ",\n") + printed if self.json else printed)
            if self.toml is not None:
                self.toml.write(tables)
            self.count += len(reports)
            return
        for report in reports:
            if self.json:
                record = json_text(report.record)
                text.write(("[\n" if not self.count else ",\n") + textwrap.indent(record, "  "))
            else:
                text.write(self.summary(report) + "\n")
            if self.toml is not None:
                self.toml.write(table_text(report.table(), "models", report.atom))
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
    """What :func:`~patternalg.quality.quality_line` reads of a fitted kernel, without
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
    """Fit a regular Extra-P text file batch by batch (the fast path): the first batch's
    measurements, or None if the file is not regular (``output`` then holds junk)."""
    from ..measurements.blocks import Irregular

    first = None
    try:
        with progress(args, "fitting", "kernels") as bar:
            for data, reports in cls.fit_batches(  # type: ignore[attr-defined]
                args.file, metric=args.metric, input_format=args.input_format, **options
            ):
                first = first or data
                output.add(reports)
                bar(output.count)
    except Irregular:
        return None
    return first


def _fit_all(
    cls: type[Form], args: argparse.Namespace, options: dict[str, Any], output: _Output
) -> Any:
    """Read the whole file and fit it (the reference path); the measurements."""
    from ..inputs import checked
    from ..measurements import read

    value = cls.value_column(args.metric)
    data = read(args.file, args.input_format, metric=args.metric, value=value, scaling=args.scaling)
    mapped = [item.partition("=")[0].strip() for item in options.get("param", ())]
    # in a Cube profile a thread that never ran a call path spent 0 s there: a real value
    allow = args.allow_nonpositive or data.format == "cube"
    for warning in checked(data, cls.name, mapped=mapped, allow_nonpositive=allow):
        print(f"warning: {warning}", file=sys.stderr)
    with progress(args, "fitting", "kernels") as bar:
        output.add(cls.fit_each(data, progress=bar, **options))
    return data


def run(args: argparse.Namespace) -> int:
    cls = fit_families()[args.form]
    options = family_options(cls, args)
    if args.out:
        check_writable(args.out, reading=args.file)  # before the work, not after it

    def summary(report: FitReport) -> str:
        record = report.record
        line = f"{cls.summary.format(**record, **cls.summary_fields(record))}  [{report.unit}]"
        quality = quality_line(_Quality(report))
        return f"{line}\n  {quality}" if quality else line

    output = _Output(args, summary)
    try:
        fast = hasattr(cls, "fit_batches") and os.path.isfile(args.file) and not args.scaling
        data = _fit_batches(cls, args, options, output) if fast else None
        if data is None:
            output.discard()
            output = _Output(args, summary)
            data = _fit_all(cls, args, options, output)
    except BaseException as error:
        output.discard(error)
        raise
    for text in cls.notes(data, options):
        note(args, text)
    output.publish()
    return 0
