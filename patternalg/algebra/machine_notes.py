"""What a result under a machine says beside its value: a term that runs more threads than
the machine has cores, an atom pooled on more threads than the calibration measured its
speed-up on, and a pipeline whose stages a pool runs without their speed-ups
(docs/machine.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from .._internal.limits import printable
from ..errors import PatternalgError
from ..syntax.terms import Atom, MapReduce, Pipe, Seq, Term, TPool
from .machine import Machine, MachineSemantics, threads_needed, threads_text
from .machine_number_kinds import atom_of
from .semantics import Semantics

__all__ = [
    "machine_notes", "thread_note", "calibrated_threads", "speedups_short_of_cores",
    "extrapolated_threads_note", "pipeline_speedup_note", "pooled_atoms", "free_count_note",
]


def machine_notes(terms: Sequence[Term], semantics: Semantics) -> list[str]:
    """Under a machine semantics: each term that may run more threads than it has cores,
    each that pools an atom on more threads than the calibration did, and each whose pool
    runs a pipeline's atoms without their speed-ups."""
    if not isinstance(semantics, MachineSemantics):
        return []
    machine = semantics.machine
    found = [thread_note(term, machine) for term in terms]
    found += [extrapolated_threads_note(term, machine) for term in terms]
    found += [pipeline_speedup_note(term, machine) for term in terms]
    return [text for text in found if text]


def thread_note(term: Term, machine: Machine) -> str | None:
    """A note where ``term`` may run more threads than ``machine`` has cores.

    >>> from patternalg.syntax.parser import parse
    >>> thread_note(parse("tpool_4(qsort)"), Machine(2))
    'tpool_4(qsort) runs 4 threads on 2 cores: the cores bound it (machine semantics)'
    >>> thread_note(parse("tpool_2(qsort)"), Machine(2)) is None
    True
    >>> thread_note(parse("tpool_3(" * 10_000 + "qsort" + ")" * 10_000), Machine(2))[-85:]
    'runs a 4,772-digit integer threads on 2 cores: the cores bound it (machine semantics)'
    """
    threads = threads_needed(term)
    shown = printable(str(term))  # a term 10,000 deep is named, not printed whole
    if threads.is_number:
        if threads <= machine.cores:
            return None
        return (
            f"{shown} runs {threads_text(threads)} threads on {machine.cores} cores: the "
            "cores bound it (machine semantics)"
        )
    return (
        f"{shown} runs {threads_text(threads)} threads: where that exceeds the "
        f"machine's {machine.cores} cores, the cores bound it (machine semantics)"
    )


def pooled_atoms(term: Term, cores: int) -> Iterator[tuple[str, int, TPool, bool]]:
    """Each atom of ``term`` that a pool runs, as the machine semantics runs it: (its name,
    the threads that run it at once, the outermost of the pools around it, whether a
    pipeline stands between it and its own pool, which then gains the pool's threads whole).
    Pools within pools multiply their threads, up to ``cores``; a mapReduce's nodes are
    machines of their own; a pool of a count that is no whole number is passed over.

    >>> from patternalg.syntax.parser import parse
    >>> [(a, k, str(top), piped) for a, k, top, piped in pooled_atoms(parse("tpool_2(pipe(tpool_4(qsort), inc))"), 16)]
    [('qsort', 8, 'tpool_2(pipe(tpool_4(qsort), inc))', False), ('inc', 2, 'tpool_2(pipe(tpool_4(qsort), inc))', True)]
    """
    stack: list[tuple[Term, int, TPool | None, bool]] = [(term, 1, None, False)]
    while stack:  # without recursion: terms are 10,000 deep
        node, threads, top, piped = stack.pop()
        if isinstance(node, Atom):
            if top is not None:
                yield node.name, threads, top, piped
            continue
        if isinstance(node, TPool):
            if not node.count.is_Integer:
                continue
            threads, top, piped = min(threads * min(int(node.count), cores), cores), top or node, False
        elif isinstance(node, MapReduce):
            threads, top, piped = 1, None, False
        elif isinstance(node, Pipe):
            piped = piped or top is not None
        stack.extend((child, threads, top, piped) for child in reversed(node.children()))


def calibrated_threads(machine: Machine) -> tuple[set[str], dict[str, int]]:
    """The atoms whose speed-up the machine has or draws, and for each atom that a
    calibration composition pooled (:func:`pooled_atoms`: not through a pipeline), the most
    threads that ran it at once on the machine's cores.

    >>> from patternalg.syntax.symbols import p
    >>> record = {"residuals": {"tpool_2(qsort)": {}, "tpool_8(inc)": {}, "tpool_2(tpool_2(nop))": {}}}
    >>> calibrated_threads(Machine(4, speedups={"qsort": p / (2 - 1 / p)}, calibration=tuple(record.items())))
    ({'qsort'}, {'qsort': 2, 'inc': 4, 'nop': 4})
    """
    from ..syntax.parser import parse  # the record names its calibration terms as text

    record = dict(machine.calibration)
    drawn = record.get("covariance")
    names = drawn.get("names", ()) if isinstance(drawn, Mapping) else ()
    atoms = set(machine.speedup) | {a for n in names if isinstance(n, str) and (a := atom_of(n)) is not None}
    calibrated: dict[str, int] = {}
    residuals = record.get("residuals")
    for text in residuals if isinstance(residuals, Mapping) else ():
        try:
            pool = parse(str(text))
        except PatternalgError:  # a record for people: a term it cannot read calibrates nothing
            continue
        for name, running, _, piped in pooled_atoms(pool, machine.cores):
            if not piped:
                calibrated[name] = max(calibrated.get(name, 0), running)
    return atoms, calibrated


def speedups_short_of_cores(machine: Machine) -> list[str]:
    """A note for each atom whose speed-up the calibration pooled on fewer threads than the
    machine's cores: a pool of more threads extrapolates it.

    >>> from patternalg.syntax.symbols import p
    >>> record = {"residuals": {"tpool_2(qsort)": {}}}
    >>> speedups_short_of_cores(Machine(16, speedups={"qsort": p / (2 - 1 / p)}, calibration=tuple(record.items())))
    ["qsort's speed-up is calibrated on at most 2 of the 16 cores (tpool_2(qsort)): a pool of more threads extrapolates it (calibrating on tpool_16(qsort) too would measure it)"]
    """
    atoms, calibrated = calibrated_threads(machine)
    return [
        f"{name}'s speed-up is calibrated on at most {threads} of the {machine.cores} cores "
        f"(tpool_{threads}({name})): a pool of more threads extrapolates it (calibrating on "
        f"tpool_{machine.cores}({name}) too would measure it)"
        for name, threads in sorted(calibrated.items())
        if name in atoms and threads < machine.cores
    ]


def extrapolated_threads_note(term: Term, machine: Machine) -> str | None:
    """A note where ``term`` pools an atom on more threads than the calibration pooled it
    (its speed-up's serial fraction fitted at ``tpool_2`` and used at 16: the interval draws
    it, the value extrapolates it); None where no pool does, or nothing was calibrated.

    >>> import sympy
    >>> from patternalg.syntax.parser import parse
    >>> from patternalg.syntax.symbols import p
    >>> record = {"residuals": {"tpool_2(qsort)": {}}, "numbers": {"c_qsort": 0.05}}
    >>> m = Machine(16, speedups={"qsort": p / (1 + sympy.Float(0.05) * (p - 1))},
    ...             calibration=tuple(record.items()))
    >>> extrapolated_threads_note(parse("pipe(tpool_16(qsort), tpool_2(qsort))"), m)
    'tpool_16(qsort) runs qsort on 16 threads, its speed-up calibrated on at most 2 (tpool_2(qsort)): extrapolated in threads (calibrating on tpool_16(qsort) too would measure it)'
    >>> extrapolated_threads_note(parse("tpool_2(tpool_4(seq(qsort, inc)))"), m)[:50]
    'tpool_2(tpool_4(seq(qsort, inc))) runs qsort on 8 '
    >>> extrapolated_threads_note(parse("tpool_2(qsort)"), m) is None
    True
    """
    atoms, calibrated = calibrated_threads(machine)
    for name, running, top, piped in pooled_atoms(term, machine.cores):
        if not piped and name in atoms and name in calibrated and running > calibrated[name]:
            return (
                f"{printable(str(top))} runs {name} on {running} threads, its speed-up calibrated on at most "
                f"{calibrated[name]} (tpool_{calibrated[name]}({name})): extrapolated in threads (calibrating "
                f"on tpool_{running}({name}) too would measure it)"
            )
    return None


def pipeline_speedup_note(term: Term, machine: Machine) -> str | None:
    """A note where a pool of ``term`` runs a pipeline whose atoms have speed-ups of their
    own: the pipeline gains the pool's threads whole, its atoms' speed-ups unused
    (docs/machine.md: on the committed runs that rule predicted ``tpool_2(pipe(qsort, inc))``
    better than one dividing each stage by its own); or where a pipeline runs such an atom
    in two stages at once, which no speed-up counts; None where neither.

    >>> import sympy
    >>> from patternalg.syntax.parser import parse
    >>> from patternalg.syntax.symbols import p
    >>> m = Machine(16, speedups={"qsort": p / (1 + sympy.Float(0.05) * (p - 1))})
    >>> pipeline_speedup_note(parse("tpool_8(pipe(qsort, nop))"), m)
    "tpool_8(pipe(qsort, nop)) runs a pipeline of qsort on 8 threads, which gains them whole: qsort's speed-up applies in a pool of its own only (as in pipe(tpool_8(qsort), ...))"
    >>> pipeline_speedup_note(parse("pipe(tpool_8(qsort), nop)"), m) is None
    True
    >>> pipeline_speedup_note(parse("pipe(qsort, seq(inc, qsort))"), m)
    "pipe(qsort, seq(inc, qsort)) runs qsort in two of its stages at once, each at qsort's speed-up alone: the machine counts no contention between stages"
    """
    for name, running, top, piped in pooled_atoms(term, machine.cores):
        if piped and running > 1 and name in machine.speedup:
            return (
                f"{printable(str(top))} runs a pipeline of {name} on {running} threads, which gains them "
                f"whole: {name}'s speed-up applies in a pool of its own only (as in "
                f"pipe(tpool_{running}({name}), ...))"
            )
    sped = set(machine.speedup)
    below: dict[int, frozenset[str]] = {}  # the atoms with speed-ups under each sub-term
    for node in term.post_order():  # an atom in two stages of one pipeline runs beside itself
        kids = node.children()
        below[id(node)] = frozenset({node.name} & sped) if isinstance(node, Atom) else frozenset().union(
            *(below[id(kid)] for kid in kids)
        )
        if isinstance(node, Pipe) and (shared := sorted(below[id(kids[0])] & below[id(kids[1])])):
            return (
                f"{printable(str(node))} runs {shared[0]} in two of its stages at once, each at "
                f"{shared[0]}'s speed-up alone: the machine counts no contention between stages"
            )
    return None


def free_count_note(term: Term, machine: Machine) -> str | None:
    """A note where a closed form in a free thread count takes a pool of it as of several
    threads, the case the count leaves open (carried beside the one-thread case, the form
    would double per level), and a count of 1 may give another value, which a point
    (``--at``) and a grid give: on a machine with a wake, such a pool inside a ``seq`` or a
    pool (at 1 one thread runs what holds it and wakes the next stage for all of it); with a
    dispatch cost, inside two pools (the cap is decided one level deep). None where no such
    pool is.

    >>> from patternalg.syntax.parser import parse
    >>> m = Machine(2, wake=12000, dispatch=800)
    >>> free_count_note(parse("pipe(seq(tpool_c(qsort), nop), qsort)"), m)[:75]
    'with a wake, a closed form takes tpool_c(qsort) as of several threads: at c'
    >>> free_count_note(parse("tpool_2(tpool_1(tpool_c(qsort)))"), m)[:88]
    'with a dispatch cost, a closed form takes tpool_c(qsort) as of several threads: at c = 1'
    >>> free_count_note(parse("pipe(seq(tpool_2(qsort), nop), qsort)"), m) is None
    True
    """
    wake = machine.wake != 0 and any(isinstance(node, Pipe) for node in term.walk())
    if not wake and machine.dispatch == 0:
        return None
    stack: list[tuple[Term, bool, int]] = [(term, False, 0)]  # inside a seq or pool; pools around
    while stack:  # one pass: terms are 10,000 deep
        node, held, pools = stack.pop()
        if isinstance(node, TPool) and node.count.free_symbols:
            cost = "a wake" if wake and held else "a dispatch cost" if machine.dispatch != 0 and pools >= 2 else None
            if cost is not None:
                counts = ", ".join(sorted(f"{s} = 1" for s in map(str, node.count.free_symbols)))
                what = ("one thread runs what holds it and wakes the next stage for all of it" if cost == "a wake"
                        else "a pool further out pays it the whole dispatch")  # fmt: skip
                return (
                    f"with {cost}, a closed form takes {printable(str(node))} as of several threads: "
                    f"at {counts} {what}, which the closed form may miss there (--at {counts.replace(' ', '')} "
                    "gives that value)"
                )
        inside = held or isinstance(node, (Seq, TPool))
        stack.extend((child, inside, pools + isinstance(node, TPool)) for child in node.children())
    return None
