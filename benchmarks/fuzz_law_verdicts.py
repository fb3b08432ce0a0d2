"""Are the law checker's verdicts true? Random laws over random models whose decimals run
from 1e-1000 to 1.6e308, each checked under the exact semantics, each verdict checked
again in exact rationals at points: a ``proved`` law must hold at every point (to the
checker's relative 1e-9, or strictly for ``<`` and ``>``), a ``refuted`` one's
counterexample must fail where it says. A traceback counts as a failure too.

Found on its first runs (2026-11-29, all fixed, each with a test in
``tests/test_tiny_values.py`` or ``tests/test_proof.py``): ``OverflowError`` tracebacks from a
ratio of leading terms past a double (``round(inf)``), from ``math.fsum`` over coefficients
near 1.6e308 (in the normal forms' order and in the certificate), and from sympy's
polynomials turning 1e-1000 into an integer of a thousand digits; and wrong proofs: sides
read as 0.0 below a double's range, and ``simplify`` rounding ``1e-300`` away inside a log.
Seeds 1 to 30 of 50 laws each: 173 failures on the code of that morning (6f8a5f7), 0 since.

Run: ``python benchmarks/fuzz_law_verdicts.py [--seeds 1-10] [--laws 50]``; prints each
failure and a count per seed.
"""

from __future__ import annotations

import argparse
import random

import sympy

from patternalg.algebra.evaluation import evaluate
from patternalg.errors import PatternalgError
from patternalg.laws import check
from patternalg.library import ModelLibrary
from patternalg.syntax.parser import parse
from patternalg.syntax.symbols import x

DECIMALS = ["1e-1000", "1e-320", "1e-300", "1", "1.0001", "3", "1e300", "1.6e308"]
SHAPES = ["*x", "*x*log2(x)", "", "*x^2", "*log2(x)"]
POINTS = [1, 2, 3, 1024, 2**20, 2**40]
RTOL = sympy.Rational(1, 10**9)


def models(rng: random.Random) -> ModelLibrary:
    """Five models ``m0``..``m4`` of a term and a constant each (a sum a literal can hold)."""
    text = ""
    for i in range(5):
        c, shape = rng.choice(DECIMALS), rng.choice(SHAPES)
        constant = rng.choice([d for d in DECIMALS if d != "1.6e308" or c != "1.6e308"])
        text += f'[models.m{i}]\nmodel = "{c}{shape} + {constant}"\n'
    return ModelLibrary.builtin().merged(ModelLibrary.from_toml_text(text))


def term(rng: random.Random, depth: int) -> str:
    if depth == 0 or rng.random() < 0.3:
        return f"m{rng.randrange(5)}"
    kind = rng.choice(["seq", "pipe", "tpool"])
    if kind == "tpool":
        return f"tpool_{rng.choice([2, 3, 64])}({term(rng, depth - 1)})"
    return f"{kind}({term(rng, depth - 1)}, {term(rng, depth - 1)})"


def exact(expr: sympy.Expr) -> sympy.Expr:
    """``expr`` with its decimals as the rationals they are (sympy's decimals add at 15 digits)."""
    return expr.xreplace({f: sympy.Rational(f) for f in expr.atoms(sympy.Float)})


def holds(relation: str, lhs: sympy.Expr, rhs: sympy.Expr, at: int) -> bool:
    """The relation at x = ``at``, exactly: to a relative 1e-9, strict ones strictly."""
    a, b = (side.xreplace({x: sympy.Integer(at)}) for side in (lhs, rhs))
    tolerance = RTOL * max(abs(a), abs(b))
    return bool({"==": abs(a - b) <= tolerance, "<=": a <= b + tolerance, ">=": a >= b - tolerance,
                 "<": a < b, ">": a > b}[relation])  # fmt: skip


def failures(seed: int, laws: int) -> list[str]:
    rng = random.Random(seed)
    library = models(rng)
    found = []
    for _ in range(laws):
        lhs, rhs, relation = term(rng, 2), term(rng, 2), rng.choice(["<=", ">=", "==", "<", ">"])
        law = f"{lhs} {relation} {rhs}"
        try:
            result = check(law, library, "exact", examples=10, seed=1)
        except PatternalgError:
            continue  # a clear error is an answer
        except Exception as exc:  # noqa: BLE001 (every traceback is a finding)
            found.append(f"traceback {type(exc).__name__}: {exc}: {law}")
            continue
        left, right = (exact(evaluate(parse(t), library, "exact")) for t in (lhs, rhs))
        if result.status == "proved" and not all(holds(relation, left, right, p) for p in POINTS):
            found.append(f"wrong proof: {law}")
        cx = result.counterexample
        if result.status == "refuted" and cx is not None and cx.x is not None and cx.lhs is not None:
            if holds(relation, left, right, cx.x) and relation not in "<>":
                found.append(f"counterexample that holds at x = {cx.x}: {law}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-10", help="a range such as 1-10")
    parser.add_argument("--laws", type=int, default=50, help="laws per seed (one library each)")
    args = parser.parse_args()
    first, _, last = args.seeds.partition("-")
    total = 0
    for seed in range(int(first), int(last or first) + 1):
        found = failures(seed, args.laws)
        total += len(found)
        print(f"seed {seed}: {len(found)} failures", *found, sep="\n  " if found else "")
    print(f"total: {total} failures")


if __name__ == "__main__":
    main()
