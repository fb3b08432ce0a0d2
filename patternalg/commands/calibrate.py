"""``patternalg calibrate FILE... --out machine.toml``: a machine's numbers fitted to the atoms and
calibration compositions measured on it (``docs/machine.md``)."""

from __future__ import annotations

import argparse

from ..evidence.calibration_set import CALIBRATION_TERMS
from .common import HARNESSES, add_format_option, check_output, cores_option, note, print_json

#: --speedups's values and what calibrate(speedups=...) takes for each
SPEEDUPS: dict[str, bool | str] = {"auto": "auto", "yes": True, "no": False}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="measurements of the atoms and the calibration compositions, each region named "
        f"by its term (Extra-P text as benchmarks/realdata/run.sh writes it, an Extra-P "
        f"experiment, CSV, JSON, "
        f"{', '.join(HARNESSES)})",
    )
    parser.add_argument(
        "--models",
        metavar="M",
        help="the atoms' models (a model file, as fit --out writes it): whether each touches "
        "its data, and what --against models composes (default: fitted to the atom regions)",
    )
    parser.add_argument(
        "--cores",
        type=int,
        metavar="N",
        help="the machine's cores (default: what the measurements record: patternalg measure's "
        "'# cores: N', a JSON file's context.num_cpus, or a machine.txt beside the file)",
    )
    parser.add_argument(
        "--against",
        choices=("measured", "models"),
        help="compose the terms from the atoms' measured medians (the default where the atoms "
        "were measured at every size) or from their models",
    )
    parser.add_argument(
        "--terms",
        metavar="T;T;...",
        help="calibrate on these compositions only, separated by ';' (default: every "
        f"composition region), e.g. '{';'.join(CALIBRATION_TERMS)}'",
    )
    parser.add_argument(
        "--speedups",
        nargs="?",
        const="yes",
        default="auto",
        choices=SPEEDUPS,
        help="fit a speed-up p/(1 + c*(p - 1)) for each atom of a tpool_k(atom) region: yes "
        "(also a bare --speedups), no, or auto (the default): keep them only where they "
        "predict the calibration sizes left out of the fit better (docs/machine.md)",
    )
    parser.add_argument(
        "--out", required=True, metavar="TOML", help="write the machine file here (atomically)"
    )
    add_format_option(parser)


def run(args: argparse.Namespace) -> int:
    from ..evidence.calibration import calibrate
    from ..evidence.sources import record_files
    from ..library.machine_file import write_machine

    # before the work, not after it: no input replaced, nor the record that names the cores
    check_output(args, args.out, reading=record_files(args.files))
    terms = [t.strip() for t in args.terms.split(";")] if args.terms is not None else None
    result = calibrate(
        args.files,
        args.models,
        cores=None if args.cores is None else cores_option(args.cores),
        atoms=args.against,
        speedups=SPEEDUPS[args.speedups],
        terms=terms,
    )
    write_machine(result.machine, args.out)
    if args.format == "json":
        print_json(result.to_json(), args)
        return 0
    print(result.text())
    for text in result.notes:
        note(args, text)
    return 0
