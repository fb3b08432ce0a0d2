"""The arguments of the public functions: what the command line takes, or an error naming
what is wanted.

A public function takes what its command takes — the text of a term, a grid ``x=1..10``,
bindings ``x=1024``, the path of a file — as well as the objects they stand for, and
answers any other argument with an :class:`~patternalg.errors.ArgumentError` (a
``TypeError`` and a :class:`~patternalg.errors.PatternalgError`) that names the argument
and what it wants, before anything deeper fails on it. Each function here is called first
thing by a public function; none reads a model file (the algebra calls this module:
:meth:`patternalg.library.model_library.ModelLibrary.of` takes paths).

>>> as_term("seq(qsort, nop)")
parse('seq(qsort, nop)')
>>> as_bindings(["x=1024", "n=4"])
{'x': 1024, 'n': 4}
>>> as_term(42, "term")
Traceback (most recent call last):
...
patternalg.errors.ArgumentError: term: expected a term or its text, e.g. 'pipe(qsort, inc)'; got int 42
"""

from __future__ import annotations

import numbers
import os
import sys
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sympy

from .algebra.atomic_model import ATOM_NAME_RULE, AtomicModel, own_symbols, valid_atom_name
from .algebra.bindings import as_value, collect_bindings
from .algebra.model_maps import CheckedModels
from .errors import ArgumentError, Location, ParseError, UnknownAtomError, close_names
from .syntax.parser import parse, parse_arithmetic
from .syntax.terms import Term

if TYPE_CHECKING:
    from .algebra.grid import Axis

__all__ = [
    "wrong",
    "holds_models",
    "expect",
    "as_text",
    "as_each",
    "as_texts",
    "as_paths",
    "as_optional_text",
    "optional_texts",
    "as_column_choice",
    "as_int",
    "as_seed",
    "as_callback",
    "as_path",
    "as_term",
    "as_terms",
    "as_models",
    "Models",
    "as_bindings",
    "as_axes",
    "as_axis",
    "as_measurements",
    "no_frame",
]

#: how a term is wanted
TERM = "a term or its text, e.g. 'pipe(qsort, inc)'"


def wrong(name: str, what: str, value: Any) -> ArgumentError:
    """The error for argument ``name`` given ``value`` where ``what`` is wanted; given
    atoms' models (a notebook's ``patternalg.fit``, passed where a function takes terms or
    a grid), it says where they go.

    >>> str(wrong("over", "a grid", None))
    'over: expected a grid; got None'
    >>> str(wrong("terms[1]", "a term", as_models({"k": "2*x"})))
    "terms[1]: expected a term; got Models {'k': AtomicModel(k [ns]: 2*x)} (atoms' models: pass them as library=...)"
    """
    error = ArgumentError.wanted(name, what, value)
    if name.partition("[")[0] in _BESIDE_A_LIBRARY and holds_models(value):
        return ArgumentError(f"{error} (atoms' models: pass them as library=...)")
    return error


#: the arguments of the functions that take ``library=`` where a notebook passes its models
_BESIDE_A_LIBRARY = frozenset({"term", "terms", "text", "over", "measurements", "machine"})


def holds_models(value: Any) -> bool:
    """Whether ``value`` is a mapping of atomic models (a ``ModelLibrary``, a fit's)."""
    if isinstance(value, CheckedModels):
        return True
    return isinstance(value, Mapping) and bool(value) and all(isinstance(v, AtomicModel) for v in value.values())


def expect(value: Any, types: type | tuple[type, ...], name: str, what: str) -> Any:
    """``value`` if it is one of ``types`` (never a bool where a number is wanted)."""
    if isinstance(value, types) and not (isinstance(value, bool) and bool not in _tuple(types)):
        return value
    raise wrong(name, what, value)


def _tuple(types: type | tuple[type, ...]) -> tuple[type, ...]:
    return types if isinstance(types, tuple) else (types,)


def as_text(value: Any, name: str, what: str = "text") -> str:
    """A string, as the command line gives."""
    return expect(value, str, name, what)  # type: ignore[no-any-return]


def as_optional_text(value: Any, name: str, what: str = "text") -> str | None:
    """None or a string."""
    return None if value is None else as_text(value, name, what)


def as_each(value: Any, types: type | tuple[type, ...], name: str, what: str) -> list[Any]:
    """The items of an iterable (one string is one item), each one of ``types``."""
    return [expect(v, types, f"{name}[{i}]", what) for i, v in enumerate(_items(value, name, what))]


def optional_texts(**values: Any) -> tuple[str | None, ...]:
    """Each keyword's value, None or a string (named by its keyword if it is neither).

    >>> optional_texts(format=None, metric="time")
    (None, 'time')
    """
    return tuple(as_optional_text(value, name) for name, value in values.items())


def as_column_choice(value: Any, name: str = "value") -> Any:
    """A value column: None, a name, names to choose from in order, or a function
    choosing one from the numeric columns."""
    if value is None or isinstance(value, str) or callable(value):
        return value
    what = "a column name, a non-empty list of names, or a function"
    names = tuple(as_texts(value, name, what))
    if not names:
        raise wrong(name, what, value)
    return names


def as_texts(value: Any, name: str, what: str) -> list[str]:
    """One string (as one flag gives) or any iterable of strings (as a repeated flag)."""
    return as_each(value, str, name, what)


def as_paths(value: Any, name: str, what: str = "paths of files") -> list[str | Path]:
    """One path or an iterable of paths."""
    if isinstance(value, os.PathLike):
        return [as_path(value, name)]
    return [as_path(v, f"{name}[{i}]", what) for i, v in enumerate(_items(value, name, what))]


def as_int(
    value: Any, name: str, minimum: int | None = None, maximum: int | None = None, *, what: str = ""
) -> int:
    """A Python or numpy integer within ``[minimum, maximum]`` (``what`` it is, for the message).

    >>> as_int(3, "examples", 1)
    3
    >>> as_int(0, "examples", 1)
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: examples: expected an integer >= 1; got int 0
    """
    bounds = [f">= {minimum}" if minimum is not None else "", f"<= {maximum:,}" if maximum is not None else ""]
    wanted = " ".join(["an integer", " and ".join(b for b in bounds if b)]).strip()
    what = f"{what}: {wanted}" if what else wanted
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise wrong(name, what, value)
    number = int(value)
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        raise wrong(name, what, value)
    return number


def as_seed(value: Any, name: str = "seed") -> int:
    """The seed of random draws, as ``--seed`` takes it: a whole number >= 0.

    >>> as_seed("abc")
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: seed: expected an integer >= 0; got str 'abc'
    """
    return as_int(value, name, 0)


def as_callback(value: Any, name: str, what: str) -> Callable[..., Any] | None:
    """None or a function (``progress``, ``on_error``): ``what`` it is called with.

    >>> as_callback("yes", "progress", "progress(done, total)")
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: progress: expected None or a function progress(done, total); got str 'yes'
    """
    if value is None or callable(value):
        return value  # type: ignore[no-any-return]
    raise wrong(name, f"None or a function {what}", value)


def as_path(value: Any, name: str, what: str = "the path of a file") -> str | Path:
    """A path: a string or an ``os.PathLike`` (``-`` is standard input where a command reads it)."""
    if isinstance(value, str):
        return value
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
        if isinstance(path, str):
            return Path(path)
    raise wrong(name, what, value)


def as_term(value: Any, name: str = "term") -> Term:
    """A :class:`~patternalg.syntax.terms.Term`, or its text parsed."""
    if isinstance(value, Term):
        return value
    return parse(as_text(value, name, TERM))


def as_terms(value: Any, name: str = "terms") -> list[Term]:
    """One term or its text, or an iterable of them."""
    if isinstance(value, str | Term):
        return [as_term(value, name)]
    return [as_term(v, f"{name}[{i}]") for i, v in enumerate(_items(value, name, f"terms ({TERM})"))]


def _items(value: Any, name: str, what: str) -> list[Any]:
    """The items of a list argument: one string is one item; a mapping or bytes is wrong."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Iterable) and not isinstance(value, Mapping | bytes | bytearray):
        return list(value)
    raise wrong(name, what, value)


_ATOMS_TO_MODELS = "a mapping of atom names to models (AtomicModel, or a model's text such as '2*x')"
MAPPING = f"{_ATOMS_TO_MODELS} or a ModelLibrary"
#: what a public function's library argument may be (:meth:`ModelLibrary.of` reads a path)
MODELS = f"{_ATOMS_TO_MODELS}, a ModelLibrary, or the path of a model file"


def as_models(value: Any, name: str = "library", what: str = MAPPING) -> Mapping[str, AtomicModel]:
    """A mapping of atom names to :class:`~patternalg.algebra.atomic_model.AtomicModel`; a
    model may be given as its text (``{"k": "2*x"}``, the safe arithmetic), a number or a
    sympy expression. Any mapping is checked (a ``dict``, an ``OrderedDict``, a
    ``ChainMap``) but a :class:`CheckedModels` (a ``ModelLibrary``, the :class:`Models`
    this returns), taken as it is: the check costs nothing where the algebra evaluates atom
    after atom.

    >>> as_models({"k": "2*x + 1"})["k"].expr
    2*x + 1
    >>> from types import MappingProxyType
    >>> as_models(MappingProxyType({"k": 3}))["k"].expr
    3
    >>> as_models({"k": [1]})
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: library['k']: expected an AtomicModel, a model's text such as '2*x', or a number; got list [1]
    """
    if not isinstance(value, Mapping):
        raise wrong(name, what, value)
    if isinstance(value, CheckedModels):
        return value
    return Models((key, _model(key, model, name)) for key, model in value.items())


class Models(CheckedModels, dict[str, AtomicModel]):
    """A ``dict`` of atomic models checked by :func:`as_models`: an atom it lacks is an
    :class:`~patternalg.errors.UnknownAtomError`, as in a ``ModelLibrary``."""

    def __missing__(self, name: str) -> AtomicModel:
        raise UnknownAtomError(name, close_names(name, self, n=3), known=list(self))


def _model(key: Any, model: Any, name: str) -> AtomicModel:
    if not isinstance(key, str) or not valid_atom_name(key):
        raise wrong(f"{name} key", f"an atom name ({ATOM_NAME_RULE})", key)
    if isinstance(model, AtomicModel):
        return model
    what = "an AtomicModel, a model's text such as '2*x', or a number"
    if isinstance(model, str):
        try:
            parsed = parse_arithmetic(model)
        except ParseError as error:  # which model of the mapping
            raise ParseError(error.message, error.line, error.column, error.excerpt, location=Location(f"{name}['{key}']")) from None
        return AtomicModel(key, parsed, source=f"{name}['{key}']")
    if isinstance(model, sympy.Expr):
        model = own_symbols(model, f"{name}[{key!r}]")
    if isinstance(model, numbers.Real | sympy.Expr) and not isinstance(model, bool):
        number = model if isinstance(model, int | sympy.Expr) else float(model)
        return AtomicModel(key, as_value(number), source=f"{name}['{key}']")
    raise wrong(f"{name}[{key!r}]", what, model)


def as_bindings(value: Any, name: str = "at") -> dict[str, Any]:
    """Symbols bound to values: a mapping (``{"x": 1024}``), or ``"x=1024"`` texts as
    ``--at`` takes them; None is no binding. The values are checked where they are used."""
    if value is None:
        return {}
    if isinstance(value, Mapping):
        for key in value:
            if not isinstance(key, str):
                raise wrong(f"{name} key", "a symbol name such as 'x'", key)
        return dict(value)
    what = "a mapping of symbol names to values, or 'SYMBOL=VALUE' texts such as 'x=1024'"
    return collect_bindings(as_texts(value, name, what), name)


def as_axes(value: Any, name: str = "over", integer: Collection[str] = ()) -> list[Axis]:
    """Grid axes: an :class:`~patternalg.algebra.grid.Axis` or its text
    (``x=1..1e6:20:log``, ``n=1,2,4``), or an iterable of them, or a mapping of each symbol
    to its range's text or its values (``{"x": "1..1e6:20:log", "n": [1, 2, 4]}``); a text
    over a symbol in ``integer`` (a thread count) takes whole numbers, as ``--over`` does.

    >>> [a.values.tolist() for a in as_axes(["n=1..4", "x=1,8"], integer={"n"})]
    [[1.0, 2.0, 3.0, 4.0], [1.0, 8.0]]
    >>> [a.values.tolist() for a in as_axes({"n": range(1, 5), "x": "1,8"}, integer={"n"})]
    [[1.0, 2.0, 3.0, 4.0], [1.0, 8.0]]
    """
    from .algebra.grid import Axis, parse_axis

    what = "a grid axis such as 'x=1..1e6:20:log' or 'n=1,2,4' (or an Axis), or a list of them"
    if isinstance(value, Axis):
        return [value]
    if holds_models(value):
        raise wrong(name, what, value)
    if isinstance(value, Mapping):
        value = [_axis_text(symbol_name, spec, f"{name}[{symbol_name!r}]") for symbol_name, spec in value.items()]
    items = _items(value, name, what)
    axes = []
    for i, item in enumerate(items):
        if isinstance(item, Axis):
            axes.append(item)
        else:
            text = as_text(item, f"{name}[{i}]", what)
            axes.append(parse_axis(text, integer=text.partition("=")[0].strip() in integer, distinct=True))
    return axes


def _axis_text(symbol_name: Any, spec: Any, name: str) -> str:
    """``SYMBOL=RANGE`` of one entry of a mapping of axes: its range's text, or its values
    (numbers, each printed so that it reads back as the same double)."""
    symbol_name = as_text(symbol_name, name, "a symbol's name such as 'x'")
    if isinstance(spec, str):
        return f"{symbol_name}={spec}"
    what = "a range's text such as '1..1e6:20:log', or a list of numbers"
    values = _items(spec, name, what)
    if not values:
        raise wrong(name, what, spec)
    texts = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise wrong(name, what, spec)
        if isinstance(v, numbers.Integral) and abs(int(v)) >= 2**1024:  # no double holds it
            raise wrong(name, "numbers a double holds (magnitudes up to 1.8e308)", v)
        texts.append(str(int(v)) if isinstance(v, numbers.Integral) else repr(float(v)))
    return f"{symbol_name}={','.join(texts)}"


def as_axis(value: Any, name: str = "over", integer: Collection[str] = ()) -> Axis:
    """One grid axis: an :class:`~patternalg.algebra.grid.Axis` or its text."""
    axes = as_axes(value, name, integer)
    if len(axes) != 1:
        raise wrong(name, f"one grid axis such as 'x=1..1e6:20:log', not {len(axes)}", value)
    return axes[0]


def no_frame(value: Any, name: str) -> None:
    """An :class:`~patternalg.errors.ArgumentError` for a pandas DataFrame given where
    measurements are wanted (iterated, it is its column names, and a column name was taken
    for a file's path), saying how a frame is read.

    >>> import pandas as pd
    >>> no_frame(pd.DataFrame({"x": [1], "time": [2.0]}), "data")
    Traceback (most recent call last):
    ...
    patternalg.errors.ArgumentError: data: got a pandas DataFrame; read it first with Measurements.from_dataframe(df, parameters=[...], value=...) and give what it returns
    """
    pd = sys.modules.get("pandas")  # a DataFrame was made by pandas, imported then
    if pd is not None and isinstance(value, pd.DataFrame):
        raise ArgumentError(
            f"{name}: got a pandas DataFrame; read it first with Measurements.from_dataframe(df, "
            "parameters=[...], value=...) and give what it returns"
        )


def as_measurements(value: Any, read: Callable[[str | Path], Any], name: str = "data") -> Any:
    """Measurements, one series, a list of series, or the path of a measurement file (read
    with ``read``)."""
    from .measurements.model import Measurements, Series

    no_frame(value, name)
    if isinstance(value, str | os.PathLike):
        return read(as_path(value, name))
    if isinstance(value, Measurements | Series):
        return value
    what = "Measurements, a Series, a list of Series, or the path of a measurement file"
    return as_each(value, Series, name, what)
