"""The fast paths give what the reference paths give: model files, fits, readers."""

from __future__ import annotations

import tomllib

import tomli_w
from hypothesis import given
from hypothesis import strategies as st

from patternalg.toml_writer import dumps

_KEYS = st.text(min_size=0, max_size=8)
_SCALARS = (
    st.text(max_size=12)
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
)
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3), max_leaves=6)
_TABLES = st.recursive(
    st.dictionaries(_KEYS, _VALUES, max_size=4),
    lambda inner: st.dictionaries(_KEYS, inner | _VALUES, max_size=4),
    max_leaves=8,
)


@given(_TABLES)
def test_toml_writer_writes_what_tomli_w_writes(table: dict) -> None:
    assert dumps(table) == tomli_w.dumps(table)


def test_toml_writer_escapes_as_tomli_w() -> None:
    table = {"k y": {'a"\\\n\x01\t\x7fé': "\b\f\r\x1f"}, "models": {"": [[]], "x": []}}
    assert dumps(table) == tomli_w.dumps(table)
    assert tomllib.loads(dumps(table)) == table
