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

from collections.abc import Sequence
from typing import Any

import sympy

from ..syntax.arith import format_expr
from .frames import DataFrameTable

__all__ = ["HtmlTable", "table_html", "cell"]


def cell(value: Any) -> str:
    """One table cell as text: floats in 6 significant digits, models as our arithmetic.

    >>> cell(1234567.0), cell(None), cell(sympy.Float(2.5) * sympy.Symbol("x"))
    ('1.23457e+06', '', '2.5*x')
    """
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, sympy.Basic):
        return format_expr(value)
    return str(value)


def table_html(header: Sequence[str], rows: Sequence[Sequence[Any]], caption: str = "") -> str:
    """A compact HTML table, every cell escaped."""
    import html  # here: a notebook's need, not the command line's

    title = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell(v))}</td>" for v in row) + "</tr>" for row in rows
    )
    return f"<table>{title}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


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

    def _repr_html_(self) -> str:
        return table_html(self.header(), self.rows(), self.caption())
