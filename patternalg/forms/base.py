"""The form protocol: one base class for every family of atomic models.

A family is one subclass of :class:`Form` (in the manner of numpy's ``ABCPolyBase``
and sympy.stats' distributions). It declares

* ``name``: the family's name in model files (``form = "amdahl"``) and on the command line;
* ``parameters``: :class:`Parameter` declarations (names, kinds, bounds, checks), which
  are also the keys of its model-file table;
* ``inputs``: the symbols of its closed form, e.g. ``("x", "p")``;
* ``fit_options``: :class:`~patternalg._internal.options.Option` declarations of the keyword
  options of :meth:`Form.fit` (defaults, choices, help; ``patternalg fit`` builds its
  flags from them);
* :meth:`Form._build` (the sympy closed form from the parameters' sympy values) and, if
  it can be fitted, ``fitter = "module:Class"``: its
  :class:`~patternalg.forms.fitting.Fitter`, imported when first fitted.

From the base it gets the model-file table (:meth:`Form.from_table`, :meth:`Form.to_table`),
``.expr``, a vectorised numeric ``__call__``, :meth:`Form.fit` and :meth:`Form.fit_each`
(handed to its fitter), equality and hashing, a ``repr`` that evaluates back to an equal model, ``_repr_latex_``
and :meth:`Form.atomic_model` for the library. A fitted model is an instance like any
other that also records ``domain`` (the measured [low, high] of every input symbol) and
``statistics``; instances are immutable.

>>> from patternalg.forms import Expression
>>> m = Expression("536.185*x")
>>> m
Expression(model='536.185*x')
>>> m.expr, m(x=[1.0, 2.0]).tolist()
(536.185*x, [536.185, 1072.37])
>>> m.to_table()
{'model': '536.185*x'}
"""

from __future__ import annotations

import importlib
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import sympy

from .._internal.callbacks import OnError, ProgressCallback
from .._internal.options import Option
from .._internal.surface import either
from ..algebra.atomic_model import AtomicModel
from ..algebra.uncertainty import Uncertainty
from ..arguments import as_callback, wrong
from ..errors import (
    ArgumentError,
    EvaluationError,
    FitError,
    ModelFileError,
    close_names,
    did_you_mean,
)
from ..syntax.arith import latex_definition
from .parameters import Parameter, check_keys

if TYPE_CHECKING:  # numpy loads when a model is evaluated numerically, not to read a model file
    import numpy as np

__all__ = ["Form", "Domain"]

F = TypeVar("F", bound="Form")
#: symbol name -> measured (low, high)
Domain = Mapping[str, tuple[float, float]]
#: the common keys a form reads itself (the others are the library's)
_FIT_KEYS = ("x_range", "fit", "domain", "uncertainty")


class Form(ABC):
    """A family of atomic models; an instance is one model of the family (immutable).

    Subclasses declare ``name``, ``parameters``, ``inputs``, ``fit_options`` and
    implement :meth:`_build`; a family that can be fitted names its :attr:`fitter`.
    """

    name: ClassVar[str]
    parameters: ClassVar[tuple[Parameter, ...]]
    inputs: ClassVar[tuple[str, ...]]
    fit_options: ClassVar[tuple[Option, ...]] = ()
    #: ``"module:Class"`` of the family's :class:`~patternalg.forms.fitting.Fitter` (None:
    #: not fittable), imported when first fitted
    fitter: ClassVar[str | None] = None

    __slots__ = ("_values", "_domain", "_statistics", "_uncertainty", "_cache")
    _values: tuple[tuple[str, Any], ...]
    _domain: Any
    _statistics: tuple[tuple[str, Any], ...]
    _uncertainty: Uncertainty | None
    _cache: dict[str, Any]

    def __init__(
        self,
        *args: Any,
        domain: Domain | None = None,
        statistics: Mapping[str, Any] | None = None,
        uncertainty: Uncertainty | None = None,
        **values: Any,
    ) -> None:
        where = type(self).__name__
        names = [parameter.name for parameter in self.parameters]
        if len(args) > len(names):
            raise ArgumentError(f"{where} takes at most {len(names)} parameters ({', '.join(names)})")
        for key, value in zip(names, args, strict=False):
            if key in values:
                raise ArgumentError(f"{where}: {key} given twice")
            values[key] = value
        declared = {parameter.name: parameter for parameter in self.parameters}
        table = {
            key: declared[key].normalised(value) if key in declared else value
            for key, value in values.items()
            if value is not None
        }
        try:  # the model file's checks, said of the constructor's arguments
            self._check_keys(table, where, common=("domain", "statistics", "uncertainty"), word="argument")
            self._init(table, where, domain or {}, statistics or {}, uncertainty)
        except ModelFileError as exc:
            raise ArgumentError(exc.message) from None

    def _init(
        self,
        table: Mapping[str, Any],
        where: str,
        domain: Domain,
        statistics: Mapping[str, Any],
        uncertainty: Uncertainty | None = None,
    ) -> None:
        self._set("_cache", {"values": self._checked(table, where)})
        self._set("_values", tuple(table.items()))
        self._set("_domain", _domain(domain))
        self._set("_statistics", tuple(statistics.items()))
        self._set("_uncertainty", uncertainty)

    @classmethod
    def _fitted(
        cls: type[F],
        table: Mapping[str, Any],
        *,
        domain: Domain,
        statistics: Mapping[str, Any],
        expr: Callable[[], sympy.Expr] | None = None,
        uncertainty: Uncertainty | None = None,
    ) -> F:
        """A model from values a fitter computed: trusted, so nothing is parsed until asked;
        ``expr`` builds the closed form faster than :meth:`_build` from the table would."""
        model = cls.__new__(cls)
        model._set("_values", tuple(table.items()))
        model._set("_domain", _domain(domain))
        model._set("_statistics", tuple(statistics.items()))
        model._set("_uncertainty", uncertainty)
        model._set("_cache", {} if expr is None else {"make": expr})
        return model

    # --- immutability -------------------------------------------------------------------
    def _set(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def replace(self: F, **changes: Any) -> F:
        """A copy with some parameters, ``domain``, ``statistics`` or ``uncertainty`` changed
        (a copy with other parameters has no uncertainty unless it is given: the fit's
        belongs to the fitted ones).

        >>> from patternalg.forms import Amdahl
        >>> Amdahl(0.9, "2*x").replace(alpha=0.5)
        Amdahl(alpha=0.5, tseq='2*x')
        """
        same = not set(changes) & {p.name for p in self.parameters}
        values: dict[str, Any] = {
            **self.values,
            "domain": self.domain,
            "statistics": self.statistics,
            "uncertainty": self._uncertainty if same else None,
        }
        values.update(changes)
        return type(self)(**values)

    # --- the declared parameters -------------------------------------------------------
    @classmethod
    def _checked(cls, table: Mapping[str, Any], where: str) -> dict[str, sympy.Expr]:
        cls._check_keys(table, where)
        values = {p.name: p.value(table[p.name], where) for p in cls.parameters if p.name in table}
        reason = cls._check(values)
        if reason:
            raise ModelFileError(f"{where}: {reason}")
        return values

    @classmethod
    def _check_keys(cls, table: Mapping[str, Any], where: str, **how: Any) -> None:
        """The family's parameters, the required ones present (:func:`check_keys`, ``how``)."""
        required = [p.name for p in cls.parameters if p.required]
        check_keys(table, where, required, [p.name for p in cls.parameters if not p.required], **how)

    @classmethod
    def _check(cls, values: Mapping[str, sympy.Expr]) -> str | None:
        """Why parameters that are each valid are not valid together (None: they are)."""
        return None

    @property
    def values(self) -> dict[str, Any]:
        """The parameters as the model file holds them (numbers, arithmetic text)."""
        return dict(self._values)

    @property
    def domain(self) -> dict[str, tuple[float, float]]:
        """The measured [low, high] of every input symbol (empty if not fitted)."""
        return dict(self._domain)

    @property
    def statistics(self) -> dict[str, Any]:
        """The fit statistics (empty if not fitted)."""
        return dict(self._statistics)

    @property
    def uncertainty(self) -> Uncertainty | None:
        """How sure the fit is (None: not fitted, or fitted without repetitions)."""
        return self._uncertainty

    # --- model files ------------------------------------------------------------------
    @classmethod
    def from_table(cls: type[F], table: Mapping[str, Any], location: object) -> F:
        """The model of a model-file table; errors name ``location``.

        ``table`` holds the form's own keys and, for a fitted model, ``domain`` (symbol ->
        [low, high]), ``fit`` (statistics), ``uncertainty``
        (:class:`~patternalg.algebra.uncertainty.Uncertainty`) and the older ``x_range`` (the
        domain of x).
        """
        where = str(location)
        own = {k: v for k, v in table.items() if k not in _FIT_KEYS}
        model = cls.__new__(cls)
        uncertainty = (
            Uncertainty.from_table(table["uncertainty"], where) if "uncertainty" in table else None
        )
        model._init(
            own, where, _table_domain(table, where), _table_statistics(table, where), uncertainty
        )
        if uncertainty is not None:
            model._check_uncertainty_symbols(uncertainty, where)
        return model

    def _check_uncertainty_symbols(self, uncertainty: Uncertainty, where: str) -> None:
        """An uncertainty's terms are in the model's symbols (its inputs, those of its
        expressions, those its fit measured: a constant fitted over p may be unsure in p): a
        term in another symbol perturbs nothing the model is evaluated at."""
        values = self._cache["values"].values()
        own = {s.name for v in values if isinstance(v, sympy.Basic) for s in v.free_symbols}
        known = own | set(self.inputs) | {name for name, _ in self._domain}
        for text, term in zip(uncertainty.to_table()["terms"], uncertainty.terms, strict=True):
            unknown = sorted(s.name for s in term.free_symbols if s.name not in known)
            if unknown:
                raise ModelFileError(
                    f"{where}.uncertainty.terms: {text} is in {', '.join(unknown)}, which the "
                    f"model is not (its symbols: {', '.join(sorted(known)) or 'none'})"
                )

    def to_table(self) -> dict[str, Any]:
        """This model's model-file table: its own keys, ``domain``, ``fit`` and
        ``uncertainty`` if fitted."""
        table = dict(self._values)
        if self._domain:
            table["domain"] = {name: list(bounds) for name, bounds in self._domain}
        if self._statistics:
            table["fit"] = dict(self._statistics)
        if self._uncertainty is not None:
            table["uncertainty"] = self._uncertainty.to_table()
        return table

    # --- the closed form -----------------------------------------------------------------
    @abstractmethod
    def _build(self, values: Mapping[str, sympy.Expr]) -> sympy.Expr:
        """The closed form from the parameters' sympy values."""

    @property
    def expr(self) -> sympy.Expr:
        """The closed form (built once)."""
        cache = self._cache
        expr = cache.get("expr")
        if expr is None:
            expr = cache["expr"] = (
                cache["make"]() if "make" in cache else self._build(self._cache_values())
            )
        return expr

    def _cache_values(self) -> dict[str, sympy.Expr]:
        """The parameters' sympy values (parsed once)."""
        values = self._cache.get("values")
        if values is None:
            values = self._cache["values"] = self._checked(dict(self._values), type(self).__name__)
        return values  # type: ignore[no-any-return]

    def text(self) -> str:
        """The closed form in the grammar's arithmetic."""
        from ..syntax.arith import format_expr

        return format_expr(self.expr)

    def describe(self) -> str:
        """The model as a listing shows it: its closed form (a family whose closed form is
        long says it in words)."""
        return self.text()

    def label(self, digits: int = 4) -> str:
        """The model in one short line, for a legend: its closed form with ``digits``
        significant digits, a whole number without ``.0`` (a family whose closed form is
        long says it in words)."""
        from ..algebra.render import shown_model

        return shown_model(self.expr, digits)

    @property
    def symbols(self) -> tuple[str, ...]:
        """The names of the closed form's symbols, sorted."""
        return tuple(sorted(s.name for s in self.expr.free_symbols))

    def __call__(self, **inputs: Any) -> np.ndarray:
        """The model's value at arrays of inputs (broadcast), as floats.

        Every symbol of the closed form must be given; other names are an error.
        """
        import numpy as np

        needed = self.symbols
        unknown = sorted(set(inputs) - set(needed) - set(self.inputs))
        missing = [name for name in needed if name not in inputs]
        if unknown or missing:
            what = f"unknown input '{unknown[0]}'" if unknown else f"missing input '{missing[0]}'"
            raise EvaluationError(
                f"{type(self).__name__}: {what} (its inputs: {', '.join(needed) or 'none'})"
            )
        arrays = np.broadcast_arrays(*(np.asarray(inputs[n], dtype=float) for n in needed))
        return self._evaluate(dict(zip(needed, arrays, strict=True)))

    def _evaluate(self, inputs: Mapping[str, np.ndarray]) -> np.ndarray:
        """Numeric values at broadcast arrays; the base lambdifies our own closed form."""
        import numpy as np

        from ..algebra.numpy_code import numpy_function

        function = self._cache.get("numeric")
        if function is None:
            symbols = [s for name in self.symbols for s in self.expr.free_symbols if s.name == name]
            function = self._cache["numeric"] = numpy_function(symbols, self.expr)
        shape = np.broadcast_shapes(*(a.shape for a in inputs.values())) if inputs else ()
        result = function(*inputs.values())
        return np.broadcast_to(np.asarray(result, dtype=float), shape).copy()

    # --- Python protocol -------------------------------------------------------------------
    def _key(self) -> tuple[Any, ...]:
        return (type(self), self._values, self._domain)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Form):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[Callable[..., Form], tuple[Any, ...]]:
        """Pickled and copied by what the model is, never by its cache: a fitted model's cache
        held the lambda that builds its closed form (pickle failed) and ``copy.deepcopy`` set
        its slots (``PMNF is immutable``); the closed form and its numeric function are
        built again on first use."""
        return _unpickled, (type(self), self._values, self._domain, self._statistics, self._uncertainty)

    def __repr__(self) -> str:
        parts = [f"{key}={value!r}" for key, value in self._values]
        if self._domain:
            parts.append(f"domain={dict(self._domain)!r}")
        if self._statistics:
            parts.append(f"statistics={dict(self._statistics)!r}")
        return f"{type(self).__name__}({', '.join(parts)})"

    def _repr_latex_(self) -> str:
        return latex_definition(self.name, self.symbols, self.expr)

    # --- the library --------------------------------------------------------------------
    def atomic_model(self, name: str, *, unit: str = "ns", source: str = "") -> AtomicModel:
        """The :class:`~patternalg.algebra.atomic_model.AtomicModel` of this model under the atom ``name``."""
        return AtomicModel(
            name=name,
            expr=self.expr,
            unit=unit,
            source=source,
            form=self.name,
            spec=self._values if self.name != "expr" else (),
            x_range=dict(self._domain).get("x"),
            domain=self._domain,
            fit=self._statistics,
            uncertainty=self._uncertainty,
        )

    # --- fitting: handed to the family's fitter ---------------------------------------------
    @classmethod
    def fittable(cls) -> bool:
        """Whether the family can be fitted from measurements (it names a :attr:`fitter`)."""
        return cls.fitter is not None

    @classmethod
    def fitting(cls) -> Any:
        """The family's :class:`~patternalg.forms.fitting.Fitter` subclass (imported when
        first asked for: fitting needs numpy, reading a model file does not); a FitError
        if the family cannot be fitted."""
        if cls.fitter is None:
            fittable = either("see patternalg fit -h", "the forms of patternalg.forms.FORMS whose fittable() is true")
            raise FitError(f"form '{cls.name}' cannot be fitted (fittable: {fittable})")
        module, _, name = cls.fitter.partition(":")
        return getattr(importlib.import_module(module), name)

    @classmethod
    def options(cls, **options: Any) -> dict[str, Any]:
        """Every fit option, given or default, checked against its declaration."""
        declared = {option.name: option for option in cls.fit_options}
        for key in options:
            if key not in declared:
                hint = did_you_mean(close_names(key, declared), quote="'", after=" ")
                valid = ", ".join(declared) or "none"
                raise FitError(f"{cls.name}: unknown fit option '{key}' ({hint}valid: {valid})")
        return {name: option.value(options.get(name)) for name, option in declared.items()}

    @classmethod
    def read(cls, path: str | Path) -> Any:
        """The measurements of a file as ``patternalg fit --form NAME FILE`` reads them."""
        return cls.fitting().read(path)

    @classmethod
    def fit(cls: type[F], data: Any, *, allow_nonpositive: bool = False, **options: Any) -> F:
        """The model fitted to one series (a ``Series``, or ``Measurements`` holding one).

        The result records ``domain`` (every input symbol's measured range) and
        ``statistics``. Options are the family's :attr:`fit_options`; times that are not
        positive, and points the form is not defined at, are treated as :meth:`fit_each`
        says.
        """
        fitted: F = cls.fitting().fit(data, options, allow_nonpositive)
        return fitted

    @classmethod
    def fit_each(
        cls,
        data: Any,
        *,
        progress: ProgressCallback = None,
        allow_nonpositive: bool = False,
        on_error: OnError = None,
        **options: Any,
    ) -> list[Any]:
        """One :class:`~patternalg.forms.report.FitReport` per series of ``data``;
        ``progress(done, total)`` if given.

        A time that is not positive never stops the fit: each series follows one rule
        (:func:`~patternalg.measurements.checks.positive_times`; ``allow_nonpositive``
        keeps every value), and its report's ``notes`` say what was done. A point the
        family's form is not defined at (PMNF's where a parameter is <= 0) is left out, and
        its report's ``warnings`` say so. A series that
        cannot be fitted (too few points) raises its :class:`~patternalg.errors.FitError`;
        given ``on_error``, the error goes to it instead and the series is left out, so
        one bad kernel loses none of the others.
        ``data`` is measurements, or the path of a measurement file.

        >>> from patternalg.forms import PMNF
        >>> from patternalg.measurements.csv import CsvReader
        >>> data = CsvReader.read("k.csv", "kernel,x,time\\na,1,2\\na,2,4\\na,4,8\\nb,1,1\\nb,2,2\\n")
        >>> failed = []
        >>> [r.atom for r in PMNF.fit_each(data, on_error=failed.append)]
        ['a']
        >>> print(failed[0])
        k.csv:5: kernel 'b', metric 'time': 2 measured points; a pmnf fit needs at least 3 distinct values of the parameter (Extra-P advises 5)
        """
        progress = as_callback(progress, "progress", "progress(done, total)")
        on_error = as_callback(on_error, "on_error", "on_error(error)")
        reports: list[Any] = cls.fitting().fit_each(
            data, options, progress, allow_nonpositive, on_error
        )
        return reports

    @classmethod
    def notes(cls, data: Any, options: Mapping[str, Any]) -> list[str]:
        """What a person fitting ``data`` with ``options`` should know (the CLI prints it)."""
        notes: list[str] = cls.fitting().notes(data, options)
        return notes

    def record(self) -> dict[str, Any]:
        """This model for JSON: parameters, domain, statistics and uncertainty (if any)."""
        record = {
            "form": self.name,
            "parameters": self.values,
            "domain": {name: list(bounds) for name, bounds in self._domain},
            **self.statistics,
        }
        if self._uncertainty is not None:
            record["uncertainty"] = self._uncertainty.record(self.term_coefficients())
        return record

    def interval_text(self, level: float = 0.9) -> str:
        """Each coefficient with its ``level`` interval, in one line ("" without an
        uncertainty): what ``patternalg fit`` prints under a model."""
        if self._uncertainty is None:
            return ""
        return self._uncertainty.describe(
            self.term_coefficients(), level, self._own_terms(), self._term_names()
        )

    def _own_terms(self) -> int | None:
        """How many of the uncertainty's terms are the model's own (None: all)."""
        return None

    def _term_names(self) -> tuple[str, ...] | None:
        """What the uncertainty's terms are called in ``fit``'s text (None: their closed forms)."""
        return None

    def term_coefficients(self) -> tuple[float, ...]:
        """The fitted coefficient of each of the uncertainty's terms (what its draws
        perturb): by default each term's coefficient in the closed form."""
        if self._uncertainty is None:
            return ()
        coefficients = sympy.expand(self.expr).as_coefficients_dict()
        return tuple(float(coefficients.get(term, 0)) for term in self._uncertainty.terms)


def _table_domain(table: Mapping[str, Any], where: str) -> dict[str, tuple[float, float]]:
    """``domain`` and ``x_range`` of a model-file table, checked."""
    ranges = table.get("domain", {})
    if not isinstance(ranges, Mapping):
        raise ModelFileError(f"{where}.domain: expected a table of symbol = [low, high]")
    result = {name: _range(value, f"{where}.domain.{name}") for name, value in ranges.items()}
    if "x_range" in table:
        result.setdefault("x", _range(table["x_range"], f"{where}.x_range"))
    return result


def _range(value: Any, key: str) -> tuple[float, float]:
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        and all(math.isfinite(v) for v in value)
        and value[0] <= value[1]
    )
    if not ok:
        raise ModelFileError(f"{key}: expected [low, high] with low <= high")
    return float(value[0]), float(value[1])


def _table_statistics(table: Mapping[str, Any], where: str) -> Mapping[str, Any]:
    statistics = table.get("fit", {})
    if not isinstance(statistics, Mapping):
        raise ModelFileError(f"{where}.fit: expected a table of statistics")
    return statistics


def _unpickled(
    kind: type[F],
    values: tuple[tuple[str, Any], ...],
    domain: tuple[tuple[str, tuple[float, float]], ...],
    statistics: tuple[tuple[str, Any], ...],
    uncertainty: Uncertainty | None,
) -> F:
    """The model :meth:`Form.__reduce__` pickled, its cache empty."""
    return kind._fitted(dict(values), domain=dict(domain), statistics=dict(statistics), uncertainty=uncertainty)


def _domain(domain: Domain) -> tuple[tuple[str, tuple[float, float]], ...]:
    """A domain as sorted (name, (low, high)) pairs of floats."""
    if not isinstance(domain, Mapping):
        raise wrong("domain", "a mapping of symbol names to (low, high)", domain)
    result = []
    for name, bounds in sorted(domain.items()):
        try:
            low, high = (float(v) for v in bounds)
        except (TypeError, ValueError):
            low = high = math.nan
        if not low <= high:
            raise wrong(f"domain[{name!r}]", "(low, high) with low <= high", bounds)
        result.append((name, (low, high)))
    return tuple(result)
