"""``patternalg plot``: pictures (PNG, SVG, PDF by the suffix of ``-o``) of models,
comparisons, fits and the best designs.

* ``plot TERM [TERM ...] --over x=A..B [--at ...] -o FILE``: each term's model over the
  range (log-log), crossovers of the designs marked, pipes' bottleneck stretches shaded;
* ``plot --fit FILE [--form F] [--kernel K] [fit's options] -o FILE``: the measurements and
  the models ``fit`` makes of them (with the same options: ``--modeler``, ``--upto``, ...);
* ``plot --atoms a,b,c [--models FILE] [--over ...] -o FILE``: library models side by side;
* ``plot --optimize TERM --budget ...`` / ``plot --explore TERM --threads N``: bar charts;
* ``plot --validate MEASURED [--models FILE]``: predicted against measured, as ``validate``
  computes it (log-log, y = x and +-10 %).

matplotlib (the extra ``patternalg[plot]``) is imported only when this command runs.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterable
from typing import Any

from ..algebra.grid import CURVE_POINTS
from ..decisions.options import OBJECTIVES, PLOT_TOP
from ..errors import EvaluationError, PatternalgError, UnitError
from ..syntax.arith import format_number, number_text
from .common import (
    INPUT_FORMATS,
    LeftOut,
    add_interval_options,
    add_model_options,
    add_parameters_option,
    check_output,
    interval_option,
    load_library,
    machine_option,
    note,
    notes_once,
    seed_option,
    unit_option,
    warn,
)
from .decide import at, terms
from .flags import (
    add_family_options,
    add_option,
    check_options,
    family_options,
    fit_families,
    fittable,
)
from .progress import progress

_MODES = ("--fit", "--atoms", "--optimize", "--explore", "--validate")
#: x drawn without --over where no atom has a measured range: from 2, where log2(x) > 0
PLOT_RANGE = "x=2..2^20"
#: fit options whose flags plot declares itself (``--unit``: the unit to draw in; with
#: ``--fit``, fit's: the unit of the measured values, as ``fit --unit`` takes it)
_PLOT_OWNS = frozenset({"unit"})


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("terms", nargs="*", metavar="TERM", help="terms to draw over --over")
    parser.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="the picture: .png, .svg or .pdf"
    )
    parser.add_argument(
        "--over",
        action="append",
        default=[],
        metavar="SYMBOL=A..B",
        help="the swept symbol and its range (default: the atoms' size, x or the one symbol they "
        f"are models in, over their measured range, else {PLOT_RANGE.partition('=')[2]}; "
        f"{CURVE_POINTS} points, log spaced, unless :N or :lin is given)",
    )
    add_model_options(
        parser, at_help="fix a symbol, e.g. --at p=64 (explore and optimize: the point to rank at)"
    )
    add_interval_options(parser, seed=False)  # --seed: fit's (the draws take it too)
    fits = parser.add_argument_group(
        "--fit FILE: measurements and their fitted models (with the options of fit's --form; "
        "--unit is fit's: the unit of the measured values)"
    )
    fits.add_argument("--fit", metavar="FILE", help="measurements to fit and draw")
    fits.add_argument(
        "--form", choices=fittable(), default="pmnf", help="the model family (default pmnf)"
    )
    fits.add_argument("--kernel", help="draw only this kernel (default: one panel per kernel)")
    fits.add_argument("--metric", help="the value column or metric to fit")
    add_parameters_option(fits)
    fits.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        help="format of the measurements (default: from the extension and first line)",
    )
    fits.add_argument(
        "--extend-to",
        type=float,
        metavar="X",
        help="draw the models on, as extrapolation, to this value (default 16 x the largest)",
    )
    add_family_options(parser, fit_families().values(), skip=_PLOT_OWNS, shared=fits)
    library = parser.add_argument_group("--atoms a,b,c: library models side by side")
    library.add_argument("--atoms", metavar="A,B,...", help="the atoms to draw, one panel each")
    bars = parser.add_argument_group("--optimize / --explore: the best designs as bars")
    bars.add_argument("--optimize", metavar="TERM", help="a term with free thread counts")
    bars.add_argument("--budget", action="append", default=[], metavar="LINEAR")
    bars.add_argument("--vary", action="append", default=[], metavar="SYMBOL")
    bars.add_argument("--objective", choices=OBJECTIVES, default="max")
    bars.add_argument("--explore", metavar="TERM", help="the design to explore from")
    bars.add_argument("--threads", type=int, help="explore's thread budget (default with --cores or --machine: its cores); with --optimize, at most N threads in all")
    bars.add_argument("--expansions", type=int, default=2000)
    add_option(bars, PLOT_TOP)
    checks = parser.add_argument_group(
        "--validate MEASURED: predicted against measured (as validate; the --models files alone)"
    )
    checks.add_argument(
        "--validate",
        action="append",
        metavar="MEASURED",
        help="measurements whose regions are terms (repeatable; --metric and --input-format apply)",
    )


def _mode(args: argparse.Namespace) -> str:
    """Which picture: ``terms`` or one of the modes; two at once is an error."""
    given = [m for m in _MODES if getattr(args, m[2:]) is not None]
    if args.terms:
        given.insert(0, "TERM")
    if len(given) != 1:
        what = " and ".join(given) if given else "nothing to draw"
        raise PatternalgError(f"{what}: give terms, or one of {', '.join(_MODES)}")
    return given[0].lstrip("-").lower()


def _default_range(args: argparse.Namespace, atoms: Iterable[str], library: Any) -> str:
    """The atoms' size (x, or the one symbol they all are models in: a table's n) over the
    union of their measured ranges, else over :data:`PLOT_RANGE`'s; said in a note (a range
    from x = 1 showed log2(x) dropping to 0, not the model's scaling)."""
    models = [library[name] for name in atoms if name in library]
    symbols = {s.name for m in models for s in m.expr.free_symbols}
    size = symbols.pop() if len(symbols) == 1 else "x"
    measured = [r for r in (m.ranges.get(size) for m in models) if r is not None]
    low = min((lo for lo, _ in measured), default=0.0)
    high = max((hi for _, hi in measured), default=0.0)
    if 0 < low < high:
        text, why = f"{size}={number_text(low)}..{number_text(high)}", "the atoms' measured range"
    else:
        text, why = f"{size}={PLOT_RANGE.partition('=')[2]}", f"no atom has a measured range of {size}"
    note(args, f"no --over: drawing {text.replace('=', ' = ')} ({why}); --over sets it")
    return text


def _one_axis(
    args: argparse.Namespace,
    atoms: Iterable[str],
    library: Any,
    integer: frozenset[str] = frozenset(),
) -> Any:
    if len(args.over) > 1:
        raise EvaluationError(f"a plot sweeps one symbol; --over is given {len(args.over)} times")
    text = args.over[0] if args.over else _default_range(args, atoms, library)
    from ..algebra.grid import curve_axis

    return curve_axis(text, integer=text.partition("=")[0].strip() in integer, distinct=True)


def _curves(args: argparse.Namespace) -> Any:
    import numpy as np

    from ..algebra.arrays import count_symbols
    from ..algebra.units import atom_names
    from ..decisions.compare import compare
    from ..decisions.sweep import sweep
    from ..plotting.results import plot_sweep

    library = load_library(args)
    parsed = terms(args)
    integer = frozenset(s for tree in parsed for s in count_symbols(tree))
    atoms = [name for tree in parsed for name in atom_names(tree)]
    axis = _one_axis(args, atoms, library, integer)
    bound = at(args)
    unit, machine = unit_option(args), machine_option(args)
    level, seed = interval_option(args), seed_option(args)
    curves = sweep(
        parsed, [axis], at=bound, library=library, unit=unit, machine=machine, interval=level, seed=seed
    )
    # crossovers are marked between the curves that have a value somewhere (compare finds
    # none with a design that has no value over the range: it is an error there)
    valued = [t for t, values in zip(parsed, curves.values, strict=True) if np.isfinite(values).any()]
    comparison = None
    if len(valued) > 1:
        comparison = compare(
            valued, over=axis, at=bound, library=library, unit=unit, machine=machine, interval=level, seed=seed
        )
    figure = plot_sweep(curves, comparison).figure  # nothing to draw: the error alone
    notes_once(args, [*curves.notes, *(comparison.notes if comparison is not None else ())])
    return figure


def _fit(args: argparse.Namespace, left: LeftOut) -> Any:
    """The fits of ``args.fit``'s kernels drawn; a kernel that cannot be fitted is ``left``
    out (the others are drawn)."""
    from ..errors import FitError
    from ..forms import form_class
    from ..plotting.results import plot_fit_reports

    cls = form_class(args.form, "--form")
    options = family_options(cls, args)  # --unit too: the measured values' unit, as fit's
    if args.extend_to is not None and not (math.isfinite(args.extend_to) and args.extend_to > 0):
        raise FitError(f"--extend-to must be a finite number above 0, got {format_number(args.extend_to)}")
    data = cls.fitting().read(args.fit, args.input_format, metric=args.metric, parameters=args.parameters)
    for text in data.notes:  # what reading left out (a NaN repetition)
        note(args, text)
    if args.kernel is not None:
        kernels = [s.kernel for s in data]
        if args.kernel not in kernels:
            raise FitError(f"{args.fit}: no kernel '{args.kernel}' (kernels: {', '.join(kernels)})")
        data = data.select(kernel=args.kernel)
    data = _first_panels(args, data)
    reports = cls.fit_each(data, on_error=left.append, **options)
    left.unless(reports)  # nothing to draw: the first kernel's error, as one kernel's
    notes_once(args, [*(text for report in reports for text in report.notes), *cls.notes(data, options)])
    for text in (text for report in reports for text in report.warnings):
        warn(text)
    return plot_fit_reports(reports, extend_to=args.extend_to)


def _first_panels(args: argparse.Namespace, data: Any) -> Any:
    """``data`` with the series one figure draws (the first ones; a note says so)."""
    from dataclasses import replace

    from ..plotting.backend import MAX_PANELS

    if len(data.series) <= MAX_PANELS:
        return data
    note(
        args,
        f"{args.fit}: {len(data.series)} kernels; drawing the first {MAX_PANELS} "
        "(--kernel NAME draws another)",
    )
    return replace(data, series=data.series[:MAX_PANELS])


def _atoms(args: argparse.Namespace) -> Any:
    from ..algebra.units import in_unit
    from ..decisions.sweep import sweep
    from ..plotting.results import plot_models
    from ..syntax.terms import Atom

    loaded = load_library(args)
    names = [a.strip() for a in args.atoms.split(",") if a.strip()]
    if not names:
        raise EvaluationError(f"--atoms {args.atoms!r}: expected atom names such as qsort,inc")
    # an unknown atom: did-you-mean, from the library
    groups = _unit_groups(names, loaded, unit_option(args))
    axis = _one_axis(args, names, loaded)
    panels, models, notes = [], [], []
    for group in groups:
        library, unit, converted = in_unit([Atom(name) for name in group], loaded, unit_option(args))
        panels.append(sweep(group, [axis], at=at(args), library=library, unit=unit))
        models += [library[name] for name in group]  # as drawn: in the panel's unit
        notes += [*converted, *panels[-1].notes]
    from ..forms import model_text
    from ..plotting.results import LEGEND_DIGITS

    figure = plot_models(panels, models, [model_text(model, LEGEND_DIGITS) for model in models])
    notes_once(args, notes)
    return figure


def _unit_groups(names: list[str], library: Any, unit: str | None) -> list[list[str]]:
    """The atoms drawn in one unit together: all of them, or, where their units do not
    convert and no ``--unit`` is asked, each in its own (a time beside a throughput: the
    panels compose nothing)."""
    from ..algebra.units import in_unit
    from ..syntax.terms import Atom

    try:
        in_unit([Atom(name) for name in names], library, unit)
    except UnitError:
        if unit is not None:
            raise
        return [[name] for name in names]
    return [names]


def _optimize(args: argparse.Namespace) -> Any:
    from ..plotting.results import plot_optimum
    from .optimize import solve

    check_options(args, [PLOT_TOP])
    with progress(args, "optimizing", "assignments") as bar:
        result = solve(args, args.optimize, bar, runners_up=args.top - 1)
    notes_once(args, result.notes)
    return plot_optimum(result).figure


def _explore(args: argparse.Namespace) -> Any:
    from ..plotting.results import plot_exploration
    from .explore import solve

    check_options(args, [PLOT_TOP])
    with progress(args, "exploring", "designs") as bar:
        result = solve(args, args.explore, bar)
    notes_once(args, result.notes)
    return plot_exploration(result).figure


def _validate(args: argparse.Namespace, left: LeftOut) -> Any:
    from .validate import validated

    result = validated(args, args.validate, left)
    notes_once(args, result.notes)
    return result.plot().figure


_DRAW = {
    "term": _curves,
    "atoms": _atoms,
    "optimize": _optimize,
    "explore": _explore,
}
#: the modes that draw measurements, some of which may be left out (said after the figure)
_DRAW_MEASURED = {"fit": _fit, "validate": _validate}


def run(args: argparse.Namespace) -> int:
    from ..plotting import check_path, pyplot, save_figure
    from ..plotting.backend import captured_warnings

    mode = _mode(args)
    check_path(args.output)
    check_output(args, args.output)
    plt = pyplot()  # no matplotlib: the install hint, before any work
    notes: list[str] = []  # what matplotlib would warn about, said once each
    left = LeftOut("the other kernels are drawn")  # those --fit could not fit, or not read
    with captured_warnings(notes):
        measured = _DRAW_MEASURED.get(mode)
        figure = measured(args, left) if measured is not None else _DRAW[mode](args)
        try:
            save_figure(figure, args.output)
        finally:
            plt.close(figure)
    for text in notes:
        note(args, f"matplotlib: {text}")
    left.say()
    return 0
