"""How results show in a notebook: one escaped HTML table for every result object.

Every result (an evaluation, a fit, a sweep, a comparison, an optimum, an exploration, a
law check) is a table of a header and rows; :class:`HtmlTable` gives it ``_repr_html_``
from its ``header()`` and ``rows()``, with an optional caption.

>>> table_html(["x", "value"], [[1, 2.5]])
'<table><thead><tr><th>x</th><th>value</th></tr></thead><tbody><tr><td>1</td><td>2.5</td></tr></tbody></table>'
>>> table_html(["term"], [["a<b"]], caption="x & y")
'<table><caption>x &amp; y</caption><thead><tr><th>term</th></tr></thead><tbody><tr><td>a&lt;b</td></tr></tbody></table>'
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import sympy

from ..errors import ArgumentError
from ..syntax.arith import format_expr, number_text
from .frames import DataFrameTable

__all__ = [
    "HtmlTable", "table_html", "shown_rows", "cell", "percent_cell", "aligned", "as_digits",
    "MAX_DIGITS", "HTML_ROWS", "HTML_EDGE_ROWS", "REPR_WIDTH", "brief", "listed", "counted", "ranges_text",
    "counts_text",
]

#: the most rows a notebook's table shows (as pandas: a sweep of 100,000 points was 10 MB
#: of HTML); of a longer table, the first and the last :data:`HTML_EDGE_ROWS`
HTML_ROWS = 60
HTML_EDGE_ROWS = 10

Row = TypeVar("Row")

#: the most significant digits a number prints in (``--digits``): a double holds 17
MAX_DIGITS = 17


#: the longest ``repr`` of an object: one line, which a notebook shows whole
REPR_WIDTH = 200


def listed(names: Sequence[str], most: int = 8, separator: str = ", ", width: int = 80) -> str:
    """At most ``most`` of ``names``, as many as fit in ``width`` characters (the first
    always), then how many more there are.

    >>> listed(["inc", "nop", "qsort"]), listed(["a", "b", "c", "d"], 2), listed([])
    ('inc, nop, qsort', 'a, b and 2 more', '')
    >>> listed(["a" * 50, "b" * 50, "c"])
    'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa and 2 more'
    """
    shown: list[str] = []
    for name in names[:most]:
        if shown and len(separator.join([*shown, name])) > width:
            break
        shown.append(name)
    more = len(names) - len(shown)
    return separator.join(shown) + (f" and {more:,} more" if more > 0 else "")


def brief(kind: str, what: str) -> str:
    """An object's ``repr``: its class and, briefly, what it holds, on one line of at most
    :data:`REPR_WIDTH` characters (``...`` where ``what`` is cut).

    >>> brief("ModelLibrary", "2 atoms: inc, nop")
    'ModelLibrary(2 atoms: inc, nop)'
    >>> len(brief("Sweep", "x" * 500)), brief("Sweep", "a\\nb")
    (200, 'Sweep(a b)')
    """
    what = " ".join(what.split())
    room = REPR_WIDTH - len(kind) - 2
    if len(what) > room:
        what = what[: room - 3] + "..."
    return f"{kind}({what})"


def ranges_text(ranges: Iterable[tuple[str, tuple[float, float]]]) -> str:
    """Where each symbol was measured, as a fit's table and a measurement's ``repr`` say it.

    >>> ranges_text([("x", (1024.0, 262144.0)), ("p", (1, 8))])
    'x in [1024, 262144], p in [1, 8]'
    """
    return ", ".join(f"{name} in [{number_text(float(low))}, {number_text(float(high))}]" for name, (low, high) in ranges)


def counts_text(counts: Iterable[int]) -> str:
    """How often something was done, from least to most (a point's repetitions).

    >>> counts_text([5, 5]), counts_text([3, 2, 3]), counts_text([])
    ('5', '2 to 3', '0')
    """
    found = sorted(set(counts))
    if not found:
        return "0"
    return f"{found[0]:,}" if len(found) == 1 else f"{found[0]:,} to {found[-1]:,}"


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural unless it is one.

    >>> counted(1, "atom"), counted(10_000, "point")
    ('1 atom', '10,000 points')
    """
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def as_digits(digits: Any) -> int | None:
    """The ``digits`` a result's text is asked in: None (its default) or a whole number
    from 1 to :data:`MAX_DIGITS`, as ``--digits`` takes.

    >>> as_digits(3), as_digits(None)
    (3, None)
    >>> as_digits(0)
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: digits: expected a whole number from 1 to 17; got int 0
    """
    if digits is None:
        return None
    if isinstance(digits, numbers.Integral) and not isinstance(digits, bool) and 1 <= int(digits) <= MAX_DIGITS:
        return int(digits)
    raise ArgumentError.wanted("digits", f"a whole number from 1 to {MAX_DIGITS}", digits)


def cell(
    value: Any, digits: int | None = None, printer: Callable[[float, int | None], str] = number_text
) -> str:
    """One table cell as text: a float by the one printer (:func:`~patternalg.arith.number_text`,
    or ``printer``: CSV's is :func:`~patternalg.arith.format_number`) in ``digits``
    significant digits (default 15, no float noise), a model as our arithmetic.

    >>> cell(1234567.0), cell(4.0), cell(0.1 + 0.2), cell(0.1 + 0.2, 3), cell(None)
    ('1234567', '4', '0.3', '0.3', '')
    >>> cell(sympy.Float(2.5) * sympy.Symbol("x")), cell(sympy.Float(1) / 3), cell(sympy.Float("1e-400"))
    ('2.5*x', '0.333333333333333', '1.0e-400')
    """
    if value is None:
        return ""
    if isinstance(value, float):
        return printer(value, digits)
    if isinstance(value, sympy.Number) and math.isfinite(float(value)) and float(value) != 0 or (
        isinstance(value, sympy.Number) and value.is_zero
    ):
        return printer(float(value), digits)  # a value at a point: a number, not a model
    if isinstance(value, sympy.Basic):
        return format_expr(value)
    return str(value)


def percent_cell(value: Any, digits: int | None = None) -> str:
    """A relative number (0.05 is 5 %) as a person reads it: in percent, ``digits``
    significant digits (default 3); anything else as :func:`cell` prints it.

    >>> percent_cell(0.0144), percent_cell(-0.25), percent_cell(None), percent_cell(float("nan"))
    ('1.44 %', '-25 %', '', 'nan')
    """
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return f"{cell(100.0 * value, digits or 3)} %"
    return cell(value)


def aligned(rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows of cells as lines, each column as wide as its widest cell, two spaces apart.

    >>> aligned([["term", "value"], ["pipe(a, b)", "2"]])
    ['term        value', 'pipe(a, b)  2']
    """
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def shown_rows(rows: Sequence[Row]) -> tuple[list[Row], int]:
    """The rows a notebook shows: all of up to :data:`HTML_ROWS`, else the first and the
    last :data:`HTML_EDGE_ROWS`; and how many are left out between them.

    >>> shown, hidden = shown_rows(range(100))
    >>> shown[9:11], hidden
    ([9, 90], 80)
    """
    if len(rows) <= HTML_ROWS:
        return list(rows), 0
    return [*rows[:HTML_EDGE_ROWS], *rows[-HTML_EDGE_ROWS:]], len(rows) - 2 * HTML_EDGE_ROWS


def table_html(
    header: Sequence[str],
    rows: Sequence[Sequence[Any]],
    caption: str = "",
    notes: Sequence[str] = (),
    details: Sequence[str] = (),
    hidden: int = 0,
    whole: str = ".rows() and .to_dataframe()",
) -> str:
    """A compact HTML table, every cell escaped; below it the result's ``details`` (lines
    its command prints beside the table, aligned as printed) and its notes (what the
    command line prints on stderr: an extrapolation, a converted unit). ``hidden``: the
    rows left out between the two halves of ``rows`` (:func:`shown_rows`), said in a row
    with what has them all (``whole``).

    >>> table_html(["x"], [[1]], notes=["x = 1e6 is outside the measured range"])
    '<table><thead><tr><th>x</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table><p>note: x = 1e6 is outside the measured range</p>'
    >>> table_html(["x"], [[1]], details=["a  1", "b  <2"]).split("</tbody>")[1]
    '</table><pre>a  1\\nb  &lt;2</pre>'
    >>> table_html(["x", "y"], [[1, 2], [9, 10]], hidden=7).split("<tbody>")[1]
    '<tr><td>1</td><td>2</td></tr><tr><td colspan="2">... 7 more rows: .rows() and .to_dataframe() have them all ...</td></tr><tr><td>9</td><td>10</td></tr></tbody></table>'
    """
    import html  # here: a notebook's need, not the command line's

    title = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    lines = [
        "<tr>" + "".join(f"<td>{html.escape(cell(v))}</td>" for v in row) + "</tr>" for row in rows
    ]
    if hidden:
        said = f"... {hidden:,} more rows: {whole} {'has' if ' and ' not in whole else 'have'} them all ..."
        lines.insert(len(lines) // 2, f'<tr><td colspan="{len(header)}">{said}</td></tr>')
    body = "".join(lines)
    shown = f"<pre>{html.escape(chr(10).join(details))}</pre>" if details else ""
    below = "".join(f"<p>note: {html.escape(n)}</p>" for n in notes)
    return f"<table>{title}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{shown}{below}"


class HtmlTable(DataFrameTable):
    """A result that shows as a table: ``header()``, ``rows()`` and ``caption()``; and
    as a pandas DataFrame (``to_dataframe()``)."""

    def header(self) -> list[str]:
        """The column names."""
        raise NotImplementedError

    def rows(self) -> list[list[Any]]:
        """The rows, one list of cells each."""
        raise NotImplementedError

    def caption(self) -> str:
        """A line above the table (none by default)."""
        return ""

    def html_header(self) -> list[str]:
        """The column names the notebook shows (by default :meth:`header`)."""
        return self.header()

    def details(self) -> list[str]:
        """What the result says beside its table (the fitted numbers of a machine, the
        summary of a validation): under the notebook's table, as its command prints it
        (none by default)."""
        return []

    def column_digits(self, digits: int | None = None) -> Mapping[int, int | None]:
        """The significant digits of the numbers of some columns (by index), given the
        ``digits`` asked for (a model's values take them); other columns print in full."""
        return {}

    def cells(
        self,
        digits: int | None = None,
        printer: Callable[[float, int | None], str] = number_text,
    ) -> list[list[str]]:
        """The rows as text (:func:`cell`, each column in its :meth:`column_digits`)."""
        shown = self.column_digits(digits)
        return [
            [cell(v, shown.get(i), printer) for i, v in enumerate(row)] for row in self.rows()
        ]

    def percent_columns(self) -> frozenset[int]:
        """The columns (by index) of relative numbers, which the notebook shows in percent
        (``rows()``, CSV, JSON and DataFrames keep them as fractions: 0.05 is 5 %)."""
        return frozenset()

    def html_cells(self, rows: Sequence[Sequence[Any]]) -> list[list[str]]:
        """``rows`` as the notebook shows them: :meth:`cells`, the
        :meth:`percent_columns` in percent (3 significant digits, as the command prints them)."""
        relative, shown = self.percent_columns(), self.column_digits()
        return [
            [percent_cell(v) if i in relative else cell(v, shown.get(i)) for i, v in enumerate(row)]
            for row in rows
        ]

    def lines(self, *args: Any, **kwargs: Any) -> list[str]:
        """The result for people, a line each (what its command prints; a result's own
        options, such as ``digits``): by default :meth:`table_lines`."""
        return self.table_lines(*args, **kwargs)

    def table_lines(self, digits: int | None = None) -> list[str]:
        """The table, its columns aligned, values in ``digits`` significant digits (default
        15, no float noise)."""
        return aligned([self.header(), *self.cells(as_digits(digits))])

    def text(self, *args: Any, **kwargs: Any) -> str:
        """:meth:`lines` as one string (the same arguments): what ``print(result)`` shows."""
        return "\n".join(self.lines(*args, **kwargs))

    def __str__(self) -> str:
        return self.text()

    def unbuilt_rows(self) -> int:
        """Rows of the result that :meth:`rows` does not hold (a notebook's view of a long
        library builds only the rows it shows); none by default."""
        return 0

    def holder(self) -> str:
        """What holds every row, as the notebook's row between a long table's ends says."""
        return ".rows() and .to_dataframe()"

    def _repr_html_(self) -> str:
        notes = getattr(self, "notes", ())
        shown = notes if isinstance(notes, tuple | list) else ()
        rows, hidden = shown_rows(self.rows())
        cells = self.html_cells(rows)
        return table_html(
            self.html_header(), cells, self.caption(), shown, self.details(), hidden + self.unbuilt_rows(), self.holder()
        )
