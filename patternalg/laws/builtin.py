"""The built-in laws: the relations of paper 001, section 5.1, and those its equations give.

>>> len(BUILTIN_LAWS), str(builtin_law("tpool_unit"))
(15, 'tpool_1(A) == A')
"""

from __future__ import annotations

from .._internal.limits import printable
from ..arguments import as_text, expect
from ..errors import EvaluationError, close_names, did_you_mean
from .language import Law, parse_law

__all__ = ["BUILTIN_LAWS", "builtin_law", "as_law"]

_PAPER = "paper 001 (Czappa et al.), section 5.1"
BUILTIN_LAWS: tuple[Law, ...] = tuple(
    parse_law(text, id=law_id, source=source)
    for law_id, text, source in (
        ("pipe_assoc", "pipe(A, pipe(B, C)) == pipe(pipe(A, B), C)", f"{_PAPER}, (i)"),
        ("pipe_comm", "pipe(A, B) == pipe(B, A)", f"{_PAPER}, (ii)"),
        (
            "pipe_tpool_layering",
            "pipe(tpool_n(A), tpool_n(B)) == tpool_n(pipe(A, B))",
            f"{_PAPER}, (iii)",
        ),
        ("pipe_vs_tpool2_seq", "pipe(A, B) >= tpool_2(seq(A, B))", f"{_PAPER}, (iv)"),
        ("seq_assoc", "seq(A, seq(B, C)) == seq(seq(A, B), C)", "eq. (2): models add"),
        ("seq_comm", "seq(A, B) == seq(B, A)", "eq. (2): models add"),
        ("tpool_unit", "tpool_1(A) == A", "eq. (3): one thread divides by 1"),
        ("tpool_nest", "tpool_n(tpool_m(A)) == tpool_{n*m}(A)", "eq. (3) twice"),
        (
            "tpool_seq_distrib",
            "tpool_n(seq(A, B)) == seq(tpool_n(A), tpool_n(B))",
            "eqs. (2), (3): division distributes over the sum",
        ),
        ("pipe_idem", "pipe(A, A) == A", "eq. (4): max(a, a) = a"),
        (
            "pipe_le_seq",
            "pipe(A, B) <= seq(A, B)",
            "eqs. (2), (4): a pipeline is no slower than its sequence",
        ),
        ("pipe_ge_stage", "pipe(A, B) >= A", "eq. (4): a pipeline is no faster than any stage"),
        ("tpool_speedup", "tpool_n(A) <= A", "eq. (3): more threads are never slower"),
        (
            "tpool_more",
            "tpool_{n+1}(A) <= tpool_n(A)",
            "eq. (3): one more thread is never slower (replication of a stage)",
        ),
        (
            "pipe_seq_absorb",
            "pipe(A, seq(A, B)) == seq(A, B)",
            "eqs. (2), (4): a stage that adds work to another is the bottleneck",
        ),
    )
)


def builtin_law(law_id: str) -> Law:
    """The built-in law called ``law_id``.

    >>> str(builtin_law("pipe_comm"))
    'pipe(A, B) == pipe(B, A)'
    >>> builtin_law("pipe_le_sq")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    patternalg.errors.EvaluationError: unknown law id 'pipe_le_sq'; did you mean 'pipe_le_seq', 'pipe_ge_stage', 'pipe_vs_tpool2_seq'? (valid: ...)
    """
    law_id = as_text(law_id, "law_id", "a built-in law's id, e.g. 'pipe_le_seq'")
    for law in BUILTIN_LAWS:
        if law.id == law_id:
            return law
    ids = [law.id or "" for law in BUILTIN_LAWS]
    hint = did_you_mean(close_names(law_id, ids, n=3), quote="'", before="; ")
    raise EvaluationError(f"unknown law id {printable(repr(law_id))}{hint} (valid: {', '.join(ids)})")


def as_law(law: Law | str, name: str = "law") -> Law:
    """``law``: a law, its text or a built-in law's id (the Python argument ``name``).

    >>> str(as_law("tpool_unit")), str(as_law("A==A"))
    ('tpool_1(A) == A', 'A == A')
    >>> as_law(None)
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: law: expected a law, its text or a built-in law's id; got None
    """
    if isinstance(law, str):  # a law has a relation: a bare name is a built-in law's id
        return builtin_law(law.strip()) if law.strip().isidentifier() else parse_law(law)
    return expect(law, Law, name, "a law, its text or a built-in law's id")  # type: ignore[no-any-return]
