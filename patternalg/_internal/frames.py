"""pandas DataFrames of results (the optional extra ``patternalg[pandas]``).

Every result that shows as a table (:class:`~patternalg._internal.display.HtmlTable`: a fit's
report, a sweep, a comparison, an optimum, an exploration, ...) has ``to_dataframe()``, one
row a table row, numbers kept as numbers; :func:`to_dataframe` stacks several (the reports
of ``fit_each``). pandas is imported only here, when a frame is asked for: never by the
command line. Without pandas the call says which extra to install.

>>> from patternalg.forms import PMNF
>>> from patternalg.measurements import Measurements
>>> import pandas as pd
>>> m = Measurements.from_dataframe(pd.DataFrame({"x": [1, 2, 4, 8], "time": [2.0, 4, 8, 16]}),
...                                 parameters=["x"], value="time")
>>> to_dataframe(PMNF.fit_each(m))[["atom", "model", "unit"]].values.tolist()
[['kernel', '2.0*x', 'ns']]
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Any

from ..errors import PatternalgError
from ..syntax.arith import format_expr

__all__ = ["pandas", "DataFrameTable", "to_dataframe"]


def pandas() -> ModuleType:
    """The pandas module, or an error saying how to install it."""
    try:
        import pandas as pd
    except ImportError:
        raise PatternalgError(
            "a DataFrame needs pandas, which is not installed: pip install 'patternalg[pandas]'"
        ) from None
    return pd


def _value(cell: Any) -> Any:
    """A table cell for a frame: numbers and text as they are, a model as our arithmetic."""
    if cell is None or isinstance(cell, bool | int | float | str):
        return cell
    import sympy

    if isinstance(cell, sympy.Number):
        return float(cell)
    if isinstance(cell, sympy.Basic):
        return format_expr(cell)
    return cell


def to_dataframe(tables: Any) -> Any:
    """A DataFrame of one table result, or of several with the same columns stacked."""
    pd = pandas()
    items = [tables] if hasattr(tables, "header") else list(_tables(tables))
    if not items:
        raise PatternalgError("no results to put in a DataFrame")
    header = items[0].header()
    for item in items[1:]:
        if item.header() != header:
            raise PatternalgError(
                f"results with different columns ({', '.join(item.header())} and "
                f"{', '.join(header)}) do not stack into one DataFrame"
            )
    rows = [[_value(c) for c in row] for item in items for row in item.rows()]
    return pd.DataFrame(rows, columns=header)


def _tables(tables: Iterable[Any]) -> Iterable[Any]:
    for item in tables:
        if not hasattr(item, "header"):
            raise PatternalgError(f"not a result with a table: {type(item).__name__}")
        yield item


class DataFrameTable:
    """``to_dataframe()`` from a result's ``header()`` and ``rows()``."""

    def to_dataframe(self) -> Any:
        """The table as a pandas DataFrame (needs ``patternalg[pandas]``)."""
        return to_dataframe(self)
