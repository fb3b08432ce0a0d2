"""A model or machine file's error about a key names the key's line (tomllib gives none),
and no line where the line is not certain: never a wrong one."""

from __future__ import annotations

import pytest

from patternalg.errors import ModelFileError
from patternalg.library.machine_file import machine_from_text
from patternalg.library.model_library import ModelLibrary


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # a malformed model expression (its own line and column follow)
        ("format = 1\n\n[models.sort]\nmodel = \"2*x*log2(x\"\n", "m.toml:4: models.sort.model: line 1, column 11: syntax error"),
        # a number out of its bounds, below a multi-line string and array that hold brackets
        (
            "[models.a]\nmodel = \"x\"\nsource = \"\"\"\n[models.par]\nalpha = 2\n\"\"\"\n"
            "domain = {x = [1,\n 9]}\n[models.par]\nform = \"amdahl\"\ntseq = \"x\"\n  alpha = -1  # fraction\n",
            "m.toml:12: models.par.alpha: -1 is outside [0.0, 1.0]",
        ),
        # an unknown form: the form key's line, not the table's
        ("# models\n[models.sort]\nunit = \"ns\"\nform = \"amdhal\"\n", "m.toml:4: models.sort.form: unknown form 'amdhal' (did you mean 'amdahl'?"),
        # a value in an inline table on one line; a dotted key under [models]; quoted parts
        ("[models]\nsort = { model = \"x\", touches_data = 1 }\n", "m.toml:2: models.sort.touches_data: expected true or false, got 1"),
        ("[models]\nsort.model = \"x\"\n'sort'.\"touches_data\" = 1\n", "m.toml:3: models.sort.touches_data: expected true or false, got 1"),
        ("[ models . 'sort' ]  # the sort\nmodel = \"x\"\ndomain = {x = [9, 1]}\n", "m.toml:3: models.sort.domain.x: expected [low, high] with low <= high"),
        # where the line is not certain, none:
        # a name with a dot of its own beside: is models.a.b the key b of [models.a] or the model "a.b"?
        ("[models.a.b]\nmodel = \"x\"\n\n[models.\"a.b\"]\nmodel = \"x\"\n", "m.toml: models.a.b: unknown key"),
        # a quoted key with an escape: not read, so not placed
        ("[models.\"s\\u006frt\"]\nmodel = \"x\"\ntouches_data = 1\n", "m.toml: models.sort.touches_data: expected true"),
        # an inline table whose array goes on to the next line: which line holds the key is not looked for
        ("[models.sort]\nmodel = \"x\"\ndomain = {y = [1,\n 2], x = [9, 1]}\n", "m.toml: models.sort.domain.x: expected [low, high]"),
    ],
)
def test_a_model_files_error_names_the_line_of_its_key(text: str, said: str) -> None:
    with pytest.raises(ModelFileError) as caught:
        ModelLibrary.from_toml_text(text, "m.toml")
    assert str(caught.value).startswith(said)


def test_a_machine_files_error_names_the_line_of_its_key() -> None:
    text = "# a machine\n[machine]\ncores = 4\nhandoff = \"1\"\n\nunit = \"kg\"\n"
    with pytest.raises(ModelFileError, match=r"^m\.txt:6: machine\.unit: the hand-off, the dispatch cost, the turn and the wake are times"):
        machine_from_text(text, "m.txt")
    with pytest.raises(ModelFileError, match=r"^m\.txt:3: machine\.cores: expected a whole number of cores"):
        machine_from_text("[machine]\n\ncores = -4\n", "m.txt")
    with pytest.raises(ModelFileError, match=r"^m\.txt:3: machine\.handoff: the hand-off is a time per element"):
        machine_from_text("[machine]\ncores = 2\nhandoff = \"-x\"\n", "m.txt")
    # a cost or a speed-up that does not parse: its key's line, not the table's
    with pytest.raises(ModelFileError, match=r"^m\.txt:4: machine\.wake: line 1, column 1: number 1e400 is out of range"):
        machine_from_text("[machine]\ncores = 2\n\nwake = \"1e400\"\n", "m.txt")
    with pytest.raises(ModelFileError, match=r"^m\.txt:4: machine\.speedups\.qsort: line 1, column 6: syntax error"):
        machine_from_text("[machine]\ncores = 2\n[machine.speedups]\nqsort = \"p/(1+\"\n", "m.txt")
