"""``patternalg fit FILE --form FORM``: atomic models from measurements, one command for all forms.

The flags of each family are built from its declared ``fit_options``
(:class:`patternalg.forms.Option`); a flag that several families declare appears once.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable
from typing import Any

from ..errors import FitError
from ..forms import FORMS, Form, Option, form_class
from ..library import ModelLibrary
from ..measurements.cube import SCALINGS
from .common import add_format_option, print_json


def _families() -> dict[str, type[Form]]:
    """The fittable families on the protocol, by name."""
    classes = (form_class(name) for name in FORMS)
    return {cls.name: cls for cls in classes if cls.fittable()}


def fittable() -> tuple[str, ...]:
    """The names ``--form`` accepts."""
    return tuple(_families())


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


def add_family_options(parser: argparse.ArgumentParser, families: Iterable[type[Form]]) -> None:
    """One flag per declared option; options several families share go in the main group."""
    owners: dict[str, list[tuple[type[Form], Option]]] = {}
    for cls in families:
        for option in cls.fit_options:
            owners.setdefault(option.name, []).append((cls, option))
    groups: dict[str, Any] = {}
    for name, declared in owners.items():
        cls, option = declared[0]
        if len(declared) > 1:
            group: Any = parser
        else:
            title = f"{cls.name} ({(cls.__doc__ or '').splitlines()[0].rstrip('.')})"
            group = groups.setdefault(cls.name, parser.add_argument_group(title))
        helps = list(dict.fromkeys(o.help for _, o in declared))
        text = (
            helps[0] if len(helps) == 1 else "; ".join(f"{c.name}: {o.help}" for c, o in declared)
        )
        kwargs: dict[str, Any] = {
            "dest": name,
            "default": None,
            "help": text + _default_text(declared),
        }
        if option.type is bool:
            kwargs["action"] = "store_true"
        else:
            kwargs["type"] = option.type
            kwargs["choices"] = option.choices
            kwargs["metavar"] = option.metavar
            kwargs["action"] = "append" if option.repeat else "store"
        group.add_argument(option.flag, **kwargs)


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
        "--scaling",
        choices=SCALINGS,
        help="a directory of Cube profiles: each process's or thread's value is a repetition "
        "(weak, the default), those that ran the call path (weak_threaded), or their sum (strong)",
    )
    families = _families()
    add_family_options(parser, families.values())


class Progress:
    """``fitting: done/total kernels`` on stderr, if it is a terminal and fitting is slow."""

    def __init__(self) -> None:
        self.start, self.shown = time.perf_counter(), False

    def __call__(self, done: int, total: int) -> None:
        if sys.stderr.isatty() and time.perf_counter() - self.start > 1.0:
            sys.stderr.write(f"\rfitting: {done}/{total} kernels")
            self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 40 + "\r")


def _options(cls: type[Form], args: argparse.Namespace) -> dict[str, Any]:
    """The family's options given on the command line; a flag it does not have is an error."""
    declared = {option.name for option in cls.fit_options}
    flags = {option.name: option.flag for f in _families().values() for option in f.fit_options}
    given = {name: getattr(args, name, None) for name in flags}
    for name, value in given.items():
        if value is not None and name not in declared:
            valid = ", ".join(o.flag for o in cls.fit_options) or "none"
            raise FitError(
                f"{flags[name]} is not an option of --form {cls.name} (its options: {valid})"
            )
    return {name: value for name, value in given.items() if value is not None}


def run(args: argparse.Namespace) -> int:
    from ..measurements import read

    cls = _families()[args.form]
    options = _options(cls, args)
    value = cls.value_column(args.metric)
    data = read(args.file, args.input_format, metric=args.metric, value=value, scaling=args.scaling)
    progress = Progress()
    try:
        reports = cls.fit_each(data, progress=progress, **options)
    finally:
        progress.close()
    for note in cls.notes(data, options):
        print(f"note: {note}", file=sys.stderr)
    if args.format == "json":
        print_json([dict(r.record) for r in reports])
    else:
        for report in reports:
            print(cls.summary.format(**report.record, **cls.summary_fields(report.record)))
    if args.out:
        ModelLibrary([r.model for r in reports]).save(args.out)
    return 0
