"""The build-time generators of the package's data modules, and the only module that imports lark.

``syntax/grammar_tables.py`` (the grammar's LALR tables, computed by lark) and
``library/builtin_tables.py`` (the built-in model files, parsed) are generated here and
shipped; ``tests/test_generated.py`` checks they are what these generators give. Regenerate
both after editing ``grammar/patternalg.lark`` or ``patternalg/library/data/*.toml``::

    python -m patternalg.library.build

The runtime needs neither lark nor this module: it runs the shipped tables
(``syntax/lalr.py``) and refuses stale ones, naming this command. It lives in ``library/``
because that is the lowest package whose concern may import both the syntax and the
library (``tests/test_imports.py``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .._internal.generated import checksum, literal_module, write_module
from ..syntax.parser import PARSER_OPTIONS, grammar_path
from .model_library import _builtin_files, _files_checksum

__all__ = ["grammar_tables", "lalr_tables", "builtin_tables", "GENERATORS", "write_all", "COMMAND"]

#: what regenerates the shipped data modules (the runtime's message for stale ones names it)
COMMAND = "python -m patternalg.library.build"


def grammar_tables() -> str:
    """The source of ``patternalg/syntax/grammar_tables.py``: the grammar's LALR tables,
    computed now by lark. Deterministic: the same grammar and lark give the same text."""
    import lark

    grammar = grammar_path().read_bytes()
    data, memo = lalr_tables(grammar)
    return literal_module(
        f"The LALR tables of ``grammar/patternalg.lark`` (``{COMMAND}``).",
        LARK_VERSION=lark.__version__,
        SOURCE_CRC32=checksum(grammar),
        DATA=data,
        MEMO=memo,
    )


def lalr_tables(grammar: bytes) -> tuple[dict[str, Any], dict[int, Any]]:
    """lark's serialized LALR parser of ``grammar``, its parse table in canonical order."""
    from lark import Lark
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    data, memo = Lark(grammar.decode("utf-8"), **PARSER_OPTIONS).memo_serialize([TerminalDef, Rule])
    data["parser"]["parser"] = _canonical_table(data["parser"]["parser"])
    return data, memo


def _canonical_table(table: dict[str, Any]) -> dict[str, Any]:
    """lark's serialized parse table with tokens numbered by name and states in breadth-first
    order from the start states (lark numbers them differently from run to run)."""
    names = sorted(table["tokens"].values())
    number = {name: i for i, name in enumerate(names)}
    states = table["states"]

    def actions(state: int) -> list[tuple[int, tuple[int, Any]]]:
        return sorted(states[state].items(), key=lambda item: table["tokens"][item[0]])

    starts = table["start_states"]
    order = {starts[name]: new for new, name in enumerate(sorted(starts))}
    queue = list(order)
    for old in queue:  # grows while it is walked: breadth first
        for _, (action, arg) in actions(old):
            if action == 0 and arg not in order:  # 0: shift to state arg
                order[arg] = len(order)
                queue.append(arg)
    return {
        "tokens": dict(enumerate(names)),
        "states": {
            order[old]: {
                number[table["tokens"][key]]: (action, order[arg] if action == 0 else arg)
                for key, (action, arg) in actions(old)
            }
            for old in queue
        },
        "start_states": {name: order[v] for name, v in sorted(starts.items())},
        "end_states": {name: order[v] for name, v in sorted(table["end_states"].items())},
    }


def builtin_tables() -> str:
    """The source of ``patternalg/library/builtin_tables.py``: the built-in model files, parsed now."""
    import tomllib

    files = _builtin_files()
    return literal_module(
        f"The built-in model files, parsed (``{COMMAND}``).",
        SOURCE_CRC32=_files_checksum(files),
        FILES={name: tomllib.loads(data.decode("utf-8")) for name, data in files},
    )


#: each generated module (a dotted name under ``patternalg``) and the generator of its text
GENERATORS: dict[str, Callable[[], str]] = {
    "syntax.grammar_tables": grammar_tables,
    "library.builtin_tables": builtin_tables,
}


def write_all() -> list[Path]:
    """Write every generated module into the package; returns their paths."""
    return [write_module(name, generate()) for name, generate in GENERATORS.items()]


if __name__ == "__main__":  # pragma: no cover (run by hand after an edit)
    for path in write_all():
        sys.stdout.write(f"wrote {path}\n")
