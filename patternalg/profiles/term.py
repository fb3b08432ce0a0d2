"""A call tree as one term: every node is ``seq(own, child_1, ..., child_k)``.

``own`` is the atom of the node's call path, standing for its own (exclusive) time; its
children follow in the tree's order. A region known to run N threads (a profile's thread
count, or ``pools={"main.solve": 8}``) becomes ``tpool_N(...)`` of its per-thread work: the
atoms inside stand for N times the measured time (the work of N threads), so that the pool
gives back what was measured and a redesign (another N) scales it. Atoms are named by their
call path, one dotted part a level, lowercased (``main.lulesh_cycle.timeincrement``; a
name made twice gets ``_2``). Nodes below ``min_share`` of the root in every run are folded
into their parent's own time, with a note: a 10,000-node tree gives a term a person reads.

>>> import numpy as np
>>> from patternalg.profiles.tree import CallTree
>>> tree = CallTree((("main",), ("main", "Solve"), ("main", "tiny")),
...                 np.array([[10.0, 20.0], [6.0, 12.0], [0.001, 0.002]]), ("a", "b"), ("n",),
...                 np.array([[1.0], [2.0]]), "time", "s")
>>> built = profile_term(tree, pools={"main.solve": 4})
>>> str(built.term), built.work["main.solve"].tolist(), built.notes[0][:40]
('seq(main, tpool_4(main.solve))', [24.0, 48.0], '1 call path below 0.1 % of the root fold')
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import sympy

from .._internal.display import brief, counted, listed
from .._internal.surface import flag, on_command_line
from ..algebra.atomic_model import valid_atom_name
from ..arguments import expect
from ..errors import MeasurementError, close_names, did_you_mean
from ..syntax.terms import Atom, Seq, Term, TPool
from .tree import PROGRAM, CallTree, Path

__all__ = ["ProfileTerm", "profile_term", "atom_part", "MIN_SHARE"]

#: nodes below this share of the root in every run are folded into their parent (0.1 %)
MIN_SHARE = 0.001
#: characters of an atom's name at most (deeper call paths keep their first and last parts)
MAX_ATOM = 200
_OTHER = re.compile(r"[^a-z0-9_]+")


@dataclass(frozen=True)
class ProfileTerm:
    """The term of a call tree and what it stands for.

    ``nodes`` maps each kept call path to its sub-term and ``atoms`` to its atom;
    ``work[atom]`` is the atom's value in each run (its own time, times the threads of the
    pools around it); ``inclusive[path]`` the node's measured inclusive value in each run;
    ``folded`` maps each folded call path to the kept node whose own time holds it.
    """

    tree: CallTree
    term: Term
    nodes: dict[Path, Term]
    atoms: dict[Path, str]
    work: dict[str, np.ndarray]
    pools: dict[Path, int]
    folded: dict[Path, Path] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        """``ProfileTerm(12 atoms: main, ... and 9 more; of 42 call paths over 5 runs)``:
        never the term itself, which has a node per kept call path."""
        atoms = list(self.atoms.values())
        what = f"{counted(len(atoms), 'atom')}: {listed(atoms, 3)}; of {counted(len(self.tree.paths), 'call path')}"
        return brief("ProfileTerm", f"{what} over {counted(len(self.tree.runs), 'run')}")

    @property
    def inclusive(self) -> dict[Path, np.ndarray]:
        """Each kept node's measured inclusive value in each run."""
        index = self.tree.index()
        return {path: self.tree.values[index[path]] for path in self.nodes}

    def text(self) -> str:
        """The term as a person reads it: one node a line, indented by depth, n-ary ``seq``
        (the parser reads it back to :attr:`term`)."""
        kids: dict[Path, list[Path]] = {path: [] for path in self.atoms}
        for path in self.atoms:  # pre-order
            if path != self.tree.root:
                kids[path[:-1]].append(path)
        lines: list[str] = []
        stack: list[tuple[Path | None, int, str]] = [(self.tree.root, 0, "")]
        while stack:
            item, depth, close = stack.pop()
            if item is None:  # a closing parenthesis after the last child
                lines[-1] += close
                continue
            path = item
            pad = "    " * depth
            pool = self.pools.get(path)
            opener = f"tpool_{pool}(" if pool else ""
            atom = self.atoms[path]
            children = kids[path]
            ending = ")" if pool else ""
            if not children:
                lines.append(f"{pad}{opener}{atom}{ending}{close}")
                continue
            lines.append(f"{pad}{opener}seq({atom},")
            stack.append((None, depth, f"){ending}{close}"))
            for i, child in reversed(list(enumerate(children))):
                stack.append((child, depth + 1, "," if i < len(children) - 1 else ""))
        return "\n".join(lines) + "\n"


def atom_part(name: str) -> str:
    """One level of a call path as a part of an atom's name: a function's name without its
    place (``solve (a.py:3)``), lowercased, other characters ``_``.

    >>> atom_part("lulesh.cycle"), atom_part("MPI_Irecv"), atom_part("<listcomp> (a.py:3)")
    ('lulesh_cycle', 'mpi_irecv', 'listcomp')
    >>> atom_part("2d fft"), atom_part("...")
    ('n2d_fft', 'node')
    """
    bare = name.split(" (", 1)[0] if name.endswith(")") and " (" in name else name
    part = _OTHER.sub("_", bare.lower()).strip("_") or "node"
    return f"n{part}" if part[0].isdigit() else part


def _names(paths: list[Path]) -> dict[Path, str]:
    """A distinct atom name for each call path (pre-order: parents are named first)."""
    used: set[str] = set()
    names: dict[Path, str] = {}
    for path in paths:
        parts = [atom_part(p) for p in path] or [PROGRAM]
        base = ".".join(parts)
        if len(base) > MAX_ATOM:
            base = ".".join([parts[0], *parts[-3:]])[:MAX_ATOM].rstrip("._")
        if not valid_atom_name(base):
            base = f"k_{base}"
        name, count = base, 1
        while name in used:
            count += 1
            name = f"{base}_{count}"
        used.add(name)
        names[path] = name
    return names


def profile_term(
    tree: CallTree, *, min_share: float = MIN_SHARE, pools: Mapping[str, int] | None = None
) -> ProfileTerm:
    """The term of ``tree`` (see the module). ``pools`` maps call paths (an atom's name or
    ``a/b/c``) to the threads their region runs; the tree's own thread counts come first."""
    expect(tree, CallTree, "tree", "a CallTree, e.g. CallTree.of(read_profiles(paths), 'n')")
    share = "a share of the root from 0 to below 1, e.g. 0.001"
    expect(min_share, numbers.Real, "min_share", share)
    if not 0 <= min_share < 1:  # a share of 10**400 is none either, and no float to print
        shown = f"{float(min_share):g}" if abs(min_share) < 1e300 else "a very large number"
        raise MeasurementError(f"{flag('min-share', shown)}: {share}")
    wanted = "a mapping of call paths (an atom's name or a/b/c) to thread counts, e.g. {'main.solve': 8}"
    expect(pools, (Mapping, type(None)), "pools", wanted)
    shares = tree.values / tree.values[0]
    kept = [path for i, path in enumerate(tree.paths) if i == 0 or shares[i].max() >= min_share]
    keep = set(kept)
    kept = [p for p in kept if all(p[:k] in keep for k in range(len(tree.root), len(p)))]
    keep = set(kept)
    names = _names(kept)
    threads = {**tree.threads, **_pools(pools or {}, names, tree, min_share)}
    index = tree.index()
    own = tree.own()
    folded: dict[Path, Path] = {}
    work: dict[str, np.ndarray] = {}
    scale: dict[Path, float] = {}
    for path in kept:
        above = scale.get(path[:-1], 1.0) if path != tree.root else 1.0
        scale[path] = above * threads.get(path, 1)
    for i, path in enumerate(tree.paths):
        if path in keep:
            work[names[path]] = own[i] * scale[path]
            continue
        holder = next(path[:k] for k in range(len(path) - 1, -1, -1) if path[:k] in keep)
        folded[path] = holder
        if path[:-1] == holder:  # the highest folded node: its whole time goes to the holder
            work[names[holder]] = work[names[holder]] + tree.values[index[path]] * scale[holder]
    nodes = _terms(kept, names, {p: n for p, n in threads.items() if p in keep}, tree.root)
    notes = list(tree.notes)
    if folded:
        tops = [p for p, h in folded.items() if p[:-1] == h]
        largest = max(tops, key=lambda p: shares[index[p]].max())
        notes.append(
            f"{len(folded)} call path{'s' if len(folded) != 1 else ''} below "
            f"{100 * min_share:g} % of the root folded into their parents' own time (the "
            f"largest: {'/'.join(largest)}, {100 * shares[index[largest]].max():.2g} %; "
            f"{flag('min-share', '0')} keeps every node)"
        )
    return ProfileTerm(
        tree,
        nodes[tree.root],
        nodes,
        names,
        work,
        {p: n for p, n in threads.items() if p in keep},
        folded,
        tuple(notes),
    )


def _pools(pools: Mapping[str, int], names: Mapping[Path, str], tree: CallTree, min_share: float) -> dict[Path, int]:
    """``--pool PATH=N`` as call paths: PATH is an atom's name or ``a/b/c``; an error for a
    path not kept in the term, or given twice (in two spellings)."""
    out: dict[Path, int] = {}
    spelled: dict[Path, str] = {}
    for where, count in pools.items():
        path = _pooled_path(where, count, names, tree, min_share)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise MeasurementError(f"{_pool(where, count)}: a thread count is a whole number from 1")
        if path in spelled:
            raise MeasurementError(
                f"{_pool(where, count, counted=False)}: the path is given twice (also as {spelled[path]}); "
                "give each region once"
            )
        out[path], spelled[path] = count, str(where)
    return out


def _pool(where: object, count: object, counted: bool = True) -> str:
    """The region ``where`` as the caller pooled it: ``--pool PATH=N`` on the command line
    (``--pool PATH`` unless ``counted``), ``pools={'PATH': N}`` from Python.

    >>> _pool("main.solve", 0)
    "pools={'main.solve': 0}"
    """
    if on_command_line():
        return flag("pool", f"{where}={count!r}" if counted else str(where))
    return flag("pool", f"{{{str(where)!r}: {count!r}}}", keyword="pools")


def _pooled_path(
    where: object, count: object, names: Mapping[Path, str], tree: CallTree, min_share: float
) -> Path:
    """The kept call path ``where`` names (an atom's name or ``a/b/c``), or an error saying
    whether it was folded below ``min_share`` or is no call path of the tree (pooled on
    ``count`` threads, as the caller said)."""
    path = _named(str(where), names)
    if path is not None:
        return path
    if _named(str(where), _names(list(tree.paths))) is not None:
        raise MeasurementError(
            f"{_pool(where, count, counted=False)}: the call path is folded into its parent's own time (below "
            f"{flag('min-share', f'{min_share:g}')} of the root in every run); {flag('min-share', '0')} keeps it"
        )
    hint = did_you_mean(close_names(str(where), list(names.values())), quote="'", before="; ")
    raise MeasurementError(f"{_pool(where, count, counted=False)}: no such call path in the term{hint}")


def _named(where: str, names: Mapping[Path, str]) -> Path | None:
    """The call path of ``names`` whose atom's name, else whose ``a/b/c``, is ``where``."""
    named = next((path for path, name in names.items() if name == where), None)
    return named if named is not None else next((path for path in names if "/".join(path) == where), None)


def _terms(kept: list[Path], names: Mapping[Path, str], threads: Mapping[Path, int], root: Path) -> dict[Path, Term]:
    """Each kept node's sub-term, children before parents (no recursion on depth)."""
    kids: dict[Path, list[Path]] = {path: [] for path in kept}
    for path in kept:
        if path != root:
            kids[path[:-1]].append(path)
    nodes: dict[Path, Term] = {}
    for path in reversed(kept):  # pre-order reversed: every child before its parent
        parts: list[Term] = [Atom(names[path]), *(nodes[c] for c in kids[path])]
        body = parts[-1]
        for part in reversed(parts[:-1]):
            body = Seq(part, body)
        count = threads.get(path)
        nodes[path] = TPool(sympy.Integer(count), body) if count else body
    return nodes
