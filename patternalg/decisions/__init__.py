"""Design decisions: sweep, compare, optimize, explore (issue 13).

Each question has a function returning an immutable result with ``to_json()`` and
``_repr_html_``; the CLI commands of the same names print them.
"""
