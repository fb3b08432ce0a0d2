"""The model library: atom name -> atomic model, read from and written to TOML model files.

The file format is public (see README, "Model files")::

    [models.qsort]
    model = "1034.17 * x * log2(x)"     # the safe arithmetic of the grammar, never eval'd
    unit = "ns"
    source = "Czappa et al., Table 1, row 3"

A model may name a ``form`` (a family with its own parameters, e.g. ``amdahl``); the form
builds the closed form from its keys. Without ``form`` the model is a plain expression.

>>> lib = ModelLibrary.builtin()
>>> lib["qsort"].expr
1034.17*x*log2(x)
>>> lib["qsrot"]
Traceback (most recent call last):
...
patternalg.errors.UnknownAtomError: unknown atom 'qsrot'; did you mean qsort?
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from os import PathLike
from pathlib import Path
from typing import Any

from .._internal.display import brief, counted, listed, shown_rows
from .._internal.generated import checksum
from .._internal.toml_reader import keys_located, load_toml
from ..algebra.atomic_model import (
    ATOM_NAME_RULE,
    COMMON_KEYS,
    AtomicModel,
    expression_problem,
    valid_atom_name,
)
from ..algebra.model_maps import CheckedModels
from ..algebra.unit_text import check_unit
from ..arguments import MODELS, as_each, as_models, as_path, as_paths, as_text
from ..errors import Location, ModelFileError, UnitError, UnknownAtomError, close_names, reason
from ..forms import form_class
from .table import LibraryTable

__all__ = ["AtomicModel", "ModelLibrary", "COMMON_KEYS", "valid_atom_name"]


def file_text(path: str | PathLike[str], what: str) -> str:
    """The text of the ``what`` (a model file, a machine file) at ``path``; a ModelFileError
    naming it if it cannot be read."""
    from .._internal.reading import read_text

    try:
        return read_text(path)
    except OSError as exc:
        raise ModelFileError(f"cannot read {what}: {reason(exc)}", location=Location(str(path))) from None


def _where(path: str, name: str, key: str | None = None) -> Location:
    return Location(path, key=f"models.{name}" + (f".{key}" if key else ""))


def _model_from_table(name: str, table: Mapping[str, Any], path: str) -> AtomicModel:
    if not valid_atom_name(name):
        raise ModelFileError(f"'{name}' is not a valid atom name ({ATOM_NAME_RULE})", location=_where(path, name))
    if not isinstance(table, Mapping):
        raise ModelFileError("expected a table of keys, got a value", location=_where(path, name))
    form = table.get("form", "expr")
    unit = table.get("unit", "ns")
    source = table.get("source", "")
    for key, value in (("form", form), ("unit", unit), ("source", source)):
        if not isinstance(value, str):
            raise ModelFileError(
                f"expected a string, got {value!r}", location=_where(path, name, key)
            )
    try:
        unit = check_unit(unit, str(_where(path, name, "unit")))
    except UnitError as exc:
        raise ModelFileError(str(exc)) from None
    touches = table.get("touches_data", True)
    if not isinstance(touches, bool):
        raise ModelFileError(
            f"expected true or false, got {touches!r}", location=_where(path, name, "touches_data")
        )
    own = {k: v for k, v in table.items() if k not in ("form", "unit", "source", "touches_data")}
    model = form_class(form, str(_where(path, name, "form"))).from_table(own, _where(path, name))
    problem = expression_problem(model.expr)
    if problem:
        raise ModelFileError(problem, location=_where(path, name))
    atomic = model.atomic_model(name, unit=unit, source=source)
    return atomic if touches else replace(atomic, touches_data=False)


@dataclass(frozen=True)
class _Pending:
    """A model-file table not yet built: built-ins are built on first use (fast start-up)."""

    name: str
    table: Mapping[str, Any]
    path: str

    def build(self) -> AtomicModel:
        return _model_from_table(self.name, self.table, self.path)


class ModelLibrary(CheckedModels, Mapping[str, AtomicModel]):
    """An immutable mapping of atom names to :class:`AtomicModel`, with did-you-mean.

    >>> lib = ModelLibrary.builtin()
    >>> "qsort" in lib and len(lib) >= 13
    True
    """

    def __init__(self, models: Iterable[AtomicModel] | Mapping[str, Any] = (), *, notes: Iterable[str] = ()) -> None:
        """A library of ``models``: :class:`AtomicModel` objects, or a mapping of atom names
        to models as :meth:`of` takes one (an AtomicModel, a model's text read by the safe
        arithmetic, a number); ``notes``: what a person using it should know of how it was
        made (:func:`patternalg.fit` says what ``patternalg fit`` prints as notes).

        >>> ModelLibrary({"qsort": "2*x"})["qsort"].expr, ModelLibrary([AtomicModel("k", 1)])["k"].expr
        (2*x, 1)
        """
        #: built from models a caller gave (not model files): an unknown atom lists them
        self._given = True
        self._notes = tuple(dict.fromkeys(as_each(notes, str, "notes", "strings")))
        self._models: dict[str, AtomicModel | _Pending]
        if isinstance(models, ModelLibrary):  # its models, none built before it is needed
            self._models, self._given = dict(models._models), models._given
            self._notes = tuple(dict.fromkeys(models._notes + self._notes))
        elif isinstance(models, Mapping):
            self._models = dict(as_models(models, "models"))
        else:
            checked = as_each(models, AtomicModel, "models", "AtomicModel objects or a mapping of atom names to models")
            self._models = {model.name: model for model in checked}

    @classmethod
    def _of(
        cls, entries: dict[str, AtomicModel | _Pending], *, given: bool = False, notes: Iterable[str] = ()
    ) -> ModelLibrary:
        library = cls(notes=notes)
        library._models, library._given = entries, given
        return library

    @property
    def notes(self) -> tuple[str, ...]:
        """What a person using the library should know of how it was made (a fit's notes:
        the unit taken for times that name none, the regions left out, ...), each once.

        >>> ModelLibrary({"k": "x"}, notes=["times taken as ns"]).notes
        ('times taken as ns',)
        """
        return self._notes

    # --- Mapping ------------------------------------------------------------------------
    def __getitem__(self, name: str) -> AtomicModel:
        entry = self._models.get(name)
        if entry is None:
            known = list(self._models) if self._given else None
            raise UnknownAtomError(name, close_names(name, self._models, n=3), known=known)
        if isinstance(entry, _Pending):
            entry = self._models[name] = entry.build()
        return entry

    def __iter__(self) -> Iterator[str]:
        return iter(self._models)

    def __len__(self) -> int:
        return len(self._models)

    def __repr__(self) -> str:
        """Its atoms, the first few by name.

        >>> ModelLibrary.of({"qsort": "2*x", "inc": "x", "nop": "1"})
        ModelLibrary(3 atoms: inc, nop, qsort)
        """
        names = sorted(self._models)
        return brief("ModelLibrary", counted(len(names), "atom") + (f": {listed(names)}" if names else ""))

    def table(self) -> LibraryTable:
        """The library as a table, a row per atom (:class:`~patternalg.library.table.LibraryTable`:
        printed, ``to_csv()``, ``to_dataframe()``).

        >>> ModelLibrary.of({"qsort": "2*x"}).table().rows()
        [['qsort', 2*x, 'ns', 'expr', '', "library['qsort']"]]
        """
        return LibraryTable(tuple(self.values()))

    def _repr_html_(self) -> str:
        """A notebook's table of the atoms (the first and the last of a long library, the
        others not built)."""
        names, _ = shown_rows(list(self._models))
        return LibraryTable(tuple(self[name] for name in names), len(self._models), notes=self._notes)._repr_html_()

    def untouched(self) -> frozenset[str]:
        """The atoms whose models say they pass their data on untouched (``touches_data =
        false``), read without building a model.

        >>> sorted(ModelLibrary.builtin().untouched())
        ['nop']
        """
        return frozenset(
            name for name, entry in self._models.items()
            if (entry.table.get("touches_data", True) if isinstance(entry, _Pending) else entry.touches_data) is False
        )  # fmt: skip

    # --- building ----------------------------------------------------------------------
    def merged(self, other: Iterable[AtomicModel] | ModelLibrary) -> ModelLibrary:
        """A library with the models of ``other`` added; they override same-named ones. It
        keeps the notes of both."""
        entries = dict(self._models)
        notes = self._notes
        if isinstance(other, ModelLibrary):
            entries.update(other._models)
            given = self._given and other._given
            notes += other._notes
        else:
            models = as_each(other, AtomicModel, "other", "AtomicModel objects or a ModelLibrary")
            entries.update((model.name, model) for model in models)
            given = self._given
        return ModelLibrary._of(entries, given=given, notes=notes)

    @classmethod
    def from_toml_text(cls, text: str, path: str = "<text>", *, lazy: bool = False) -> ModelLibrary:
        """Read a model file's text; errors name the file, the key and the reason.

        With ``lazy``, each model is built when first used (for the trusted built-ins).
        """
        text, path = as_text(text, "text", "a model file's text"), as_text(path, "path")
        data = load_toml(text, path)
        with keys_located(text, data, path):
            return cls._from_data(data, path, lazy=lazy)

    @classmethod
    def _from_data(cls, data: dict[str, Any], path: str, *, lazy: bool) -> ModelLibrary:
        """A model file's parsed TOML (checked here) to a library."""
        unknown = sorted(set(data) - {"models", "format"})
        if unknown:
            raise ModelFileError(
                f"unknown top-level key '{unknown[0]}' (valid: models, format)",
                location=Location(path),
            )
        if data.get("format", 1) != 1:
            raise ModelFileError(
                f"format {data['format']!r} is not supported (valid: 1)", location=Location(path)
            )
        models = data.get("models")
        if not isinstance(models, Mapping) or not models:
            raise ModelFileError("no [models.NAME] tables found", location=Location(path))
        if lazy:
            return cls._of({name: _Pending(name, table, path) for name, table in models.items()})
        return cls._of({name: _model_from_table(name, table, path) for name, table in models.items()})

    @classmethod
    def from_file(cls, path: str | Path) -> ModelLibrary:
        """Read one model file."""
        path = as_path(path, "path", "the path of a model file")
        return cls.from_toml_text(file_text(path, "model file"), str(path))

    @classmethod
    def of(cls, value: Any, name: str = "library") -> ModelLibrary:
        """A library argument as the command line takes it: None is the built-ins; the
        path of a model file (or several) is the built-ins overridden by it, as
        ``--models``; a mapping is the whole library (:func:`patternalg.arguments.as_models`).

        >>> ModelLibrary.of({"k": "2*x"})["k"].expr
        2*x
        """
        if value is None:
            return cls.builtin()
        if isinstance(value, str | PathLike):
            return cls.load([as_path(value, name)])
        if isinstance(value, list | tuple) and all(isinstance(v, str | PathLike) for v in value):
            return cls.load(value)
        if isinstance(value, ModelLibrary):
            return value
        return cls._of(dict(as_models(value, name, MODELS)), given=True)

    @classmethod
    def builtin(cls) -> ModelLibrary:
        """The built-in models (``patternalg/data/*.toml``), e.g. Table 1 of the paper."""
        return _builtin()

    @classmethod
    def load(cls, files: Iterable[str | Path] = (), *, builtin: bool = True) -> ModelLibrary:
        """The built-ins (unless ``builtin=False``) overridden by ``files`` in order."""
        library = cls.builtin() if builtin else cls()
        for path in as_paths(files, "files", "paths of model files"):
            library = library.merged(cls.from_file(path))
        return library

    # --- writing -----------------------------------------------------------------------
    def to_toml(self) -> str:
        """The model file of this library."""
        from .._internal.toml_writer import dumps

        return dumps({"format": 1, "models": {name: m.to_toml() for name, m in self.items()}})

    def save(self, path: str | Path) -> None:
        """Write this library as a model file, atomically (the old file stays if it fails)."""
        from .._internal.atomic_write import write_text_atomic

        write_text_atomic(as_path(path, "path", "the path of a model file"), self.to_toml())


_BUILTIN: list[ModelLibrary] = []
_DATA = Path(__file__).resolve().parent / "data"


def _builtin_files() -> list[tuple[str, bytes]]:
    """The built-in model files, name and content, in name order."""
    return [(p.name, p.read_bytes()) for p in sorted(_DATA.glob("*.toml"), key=lambda p: p.name)]


def _files_checksum(files: list[tuple[str, bytes]]) -> str:
    return checksum(b"".join(name.encode() + b"\0" + data + b"\0" for name, data in files))


def _builtin() -> ModelLibrary:
    """The built-ins: from the shipped parsed tables when they match the files (no TOML parser
    at start-up), else from the files."""
    if not _BUILTIN:
        from . import builtin_tables as tables

        files = _builtin_files()
        fresh = tables.SOURCE_CRC32 == _files_checksum(files)
        library = ModelLibrary()
        for name, data in files:
            path = f"patternalg/data/{name}"
            if fresh:
                part = ModelLibrary._from_data(tables.FILES[name], path, lazy=True)
            else:
                part = ModelLibrary.from_toml_text(data.decode("utf-8"), path, lazy=True)
            library = library.merged(part)
        _BUILTIN.append(library)
    return _BUILTIN[0]
