"""Tables 2 and 3 of the compositional-modelling paper (001), ours beside the paper's.

The modular column is what patternalg composes from Table 1; the relative error is the
paper's definition, (predicted - measured) / measured, with the monolithic model as the
measurement, on the leading coefficient. The paper computed it from the modular
coefficient as it prints it (rounded, half up), so we do too. Three printed cells disagree with
that definition; they are listed in ``SLIPS`` and shown with a mark.

Run: ``python examples/paper_tables.py``
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from patternalg import ModelLibrary, evaluate, parse
from patternalg.algebra.normal_forms.normal_form import normal_form
from patternalg.algebra.render import as_text


@dataclass(frozen=True)
class Row:
    """One row of a table: the term, the paper's monolithic and modular models, its error."""

    term: str
    monolithic: float  # leading coefficient of the monolithic model
    modular: str  # the modular model as printed
    modular_leading: float  # its leading coefficient as printed
    error: float  # the printed relative error in percent
    rounding: Callable[[float], float]  # how the paper rounds our modular coefficient


def half_up(value: float, exponent: int) -> float:
    """Round half up to a multiple of 10**exponent, as people (and the paper) round."""
    quantum = Decimal(1).scaleb(exponent)
    return float(Decimal(repr(value)).quantize(quantum, rounding=ROUND_HALF_UP))


def decimals(places: int) -> Callable[[float], float]:
    """Rounding to ``places`` decimals (Table 2)."""
    return lambda c: half_up(c, -places)


def eq6(threads: int) -> Callable[[float], float]:
    """Table 3's rounding: eq. (6) rounds M[map](1) + M[reduce](768) to 2.186e7, then /n to 1e3."""

    def rounding(c: float) -> float:
        single = half_up(c * threads, 4)  # 2.1859e7 -> 2.186e7
        return half_up(single / threads, 3)

    return rounding


TABLE2 = [
    Row("seq(qsort, nop)", 1037.42, "1034.17*x*log2(x) + 5422.97", 1034.17, 0.31, decimals(2)),
    Row("seq(qsort, inc)", 1063.25, "1034.17*x*log2(x) + 536.185*x", 1034.17, 2.74, decimals(2)),
    Row("seq(inc, qsort)", 1070.71, "1034.17*x*log2(x) + 536.185*x", 1034.17, 3.41, decimals(2)),
    Row("seq(inc, inc)", 1030.44, "1072.37*x", 1072.37, 4.07, decimals(2)),
    Row("seq(inc, nop)", 540.897, "536.185*x + 5422.97", 536.185, 0.87, decimals(3)),
    Row("tpool_1(qsort)", 1072.01, "1034.17*x*log2(x)", 1034.17, 3.53, decimals(2)),
    Row("tpool_2(qsort)", 553.72, "517.09*x*log2(x)", 517.09, 6.62, decimals(2)),
    Row("tpool_4(qsort)", 291.46, "258.54*x*log2(x)", 258.54, 11.29, decimals(2)),
    Row("tpool_8(qsort)", 151.31, "129.27*x*log2(x)", 129.27, 14.56, decimals(2)),
    Row("tpool_12(qsort)", 108.34, "86.18*x*log2(x)", 86.18, 25.71, decimals(2)),
    Row("tpool_24(qsort)", 70.25, "43.09*x*log2(x)", 43.09, 63.03, decimals(2)),
    Row("pipe(qsort, nop)", 1086.11, "1034.17*x*log2(x)", 1034.17, 4.78, decimals(2)),
    Row("pipe(qsort, inc)", 1105.29, "1034.17*x*log2(x)", 1034.17, 6.43, decimals(2)),
    Row("pipe(inc, qsort)", 1076.89, "1034.17*x*log2(x)", 1034.17, 3.97, decimals(2)),
    Row("pipe(inc, inc)", 677.05, "536.185*x", 536.185, 20.81, decimals(3)),
    Row("pipe(inc, nop)", 670.32, "536.185*x", 536.185, 20.01, decimals(3)),
]

#: GrPPi's MapReduce (m = 1, d = 768, k = x), eq. (6)
TABLE3 = [
    Row(f"mapReduce_{{1,{n}}}^{{768,x}}(map_grppi, reduce_grppi)", mono, mod, lead, err, eq6(n))
    for n, mono, mod, lead, err in [
        (1, 2.177e7, "2.186e7*x", 2.186e7, 0.41),
        (2, 1.108e7, "1.093e7*x", 1.093e7, 1.35),
        (4, 5.705e6, "5.465e6*x", 5.465e6, 4.21),
        (8, 3.067e6, "2.733e6*x", 2.733e6, 10.89),
        (12, 2.066e6, "1.822e6*x", 1.822e6, 11.81),
        (24, 1.065e6, "0.911e6*x", 0.911e6, 14.46),
    ]
]

#: cells the paper prints differently from its own definition, and why
SLIPS = {
    "tpool_8(qsort)": "a rounding difference: the definition gives 14.566, printed 14.56",
    "tpool_12(qsort)": "divides by the modular value (25.71); by the definition it is 20.45",
    "tpool_24(qsort)": "divides by the modular value (63.03); by the definition it is 38.66",
}


def leading_coefficient(term: str, library: ModelLibrary | None = None) -> float:
    """The coefficient of the fastest-growing term of the composed model."""
    expr = evaluate(parse(term), library or ModelLibrary.builtin())
    form = normal_form(expr)
    if form is None:
        raise ValueError(f"{term}: model {expr} is not in Extra-P's normal form")
    return float(next(form.items())[1])


def relative_error(row: Row, library: ModelLibrary | None = None) -> float:
    """The paper's relative error in percent, from our modular model rounded as printed."""
    modular = row.rounding(leading_coefficient(row.term, library))
    return half_up(abs(modular - row.monolithic) / row.monolithic * 100, -2)


def print_table(title: str, rows: list[Row]) -> None:
    """Print one table, ours beside the paper's."""
    library = ModelLibrary.builtin()
    print(title)
    header = f"{'term':<52} {'monolithic':>11}  {'modular (paper)':<31} {'modular (ours)':<32} {'err paper':>9} {'err ours':>8}"
    print(header)
    print("-" * len(header))
    for row in rows:
        ours = as_text(evaluate(parse(row.term), library))
        error = relative_error(row, library)
        mark = "  *" if row.term in SLIPS else ""
        print(
            f"{row.term:<52} {row.monolithic:>11.6g}  {row.modular:<31} {ours:<32} "
            f"{row.error:>9.2f} {error:>8.2f}{mark}"
        )
    print()


def main() -> None:
    """Print Tables 2 and 3."""
    print_table("Table 2: seq, tpool and pipe (ns; x = input elements)", TABLE2)
    print_table("Table 3: MapReduce in GrPPi (ns; m = 1, d = 768, k = x)", TABLE3)
    for term, why in SLIPS.items():
        print(f"* {term}: {why}")


if __name__ == "__main__":
    main()
