"""Design decisions: sweep, compare, optimize, explore.

Each question has a function of the same name in its module, returning an immutable
result with ``to_json()``, ``to_csv()`` and ``_repr_html_``; the CLI commands of the
same names print them:

>>> from patternalg.decisions.compare import compare
>>> [round(c.value, 3) for c in compare(["inc", "nop"]).crossovers]
[10.114]

Modules: ``grid`` (``A..B:N:log`` and lists), ``numeric`` (terms on numpy grids),
``sweep``, ``compare``, ``budget`` (linear budgets), ``optimize``, ``explore``,
``results`` (what the results share), ``options`` (the commands' defaults and numbers,
declared once for the CLI and the functions, without numpy).
"""
