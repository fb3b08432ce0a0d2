"""The reports of a batch of kernels fitted together, and ``fit``'s text for all at once.

:class:`Reports` is the sequence of :class:`~patternalg.forms.report.FitReport` of a batch
(``PMNF.fit_batches`` yields one per batch): a report is built, by the code of
``PMNF.fit_each``, only when asked for. :meth:`Reports.bulk_text` gives what ``patternalg
fit`` prints and writes for every kernel of the batch (the summary lines or the JSON
records, and the model-file tables) from the batch's columns, without a model, a report or
a dictionary per kernel: the same text the command builds report by report
(``tests/test_scale.py`` compares them), in a fraction of the time.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import cached_property
from typing import Any, overload

from ..._internal.json_values import byte_text, finite_json
from ..._internal.toml_writer import toml_key, toml_keys, toml_string, toml_strings
from ...algebra.normal_forms.blocks import BUILDING_BLOCKS
from ...algebra.normal_forms.render import hypothesis_text, pmnf_texts
from ...measurements.blocks import Kernel
from ...syntax.arith import number_text
from ..report import FitReport
from .fit import FitColumns
from .form import term_centers

__all__ = ["Reports"]

_STATISTICS = ("rss", "smape", "ar2", "criterion")


def _quote(text: str) -> str:
    """What ``json.dumps`` writes for ``text`` of a record (a file name's bytes that are not
    UTF-8 as :func:`~patternalg._internal.json_values.byte_text` writes them, as
    ``finite_json`` does).

    >>> _quote("bad" + chr(0xDCFF) + ".txt")
    '"bad\\\\\\\\xff.txt"'
    """
    return json.encoder.encode_basestring_ascii(byte_text(text))


class Reports(Sequence[FitReport]):
    """The reports of kernels fitted together: the kernel named ``names[k]`` (its metric,
    parameters and path those of ``kernel``) fitted as row ``k`` of ``fits``,
    named ``atoms[k]``, its parameter the symbol ``var``, its ``repetitions`` at each point
    aggregated by ``how``; ``notes[k]`` what was done with its times that are not positive,
    if any."""

    def __init__(
        self,
        cls: Any,
        names: Sequence[str],
        kernel: Kernel,
        atoms: Sequence[str],
        fits: FitColumns,
        *,
        var: Any,
        how: str,
        checked: Mapping[str, Any],
        notes: Mapping[int, str] | None = None,
        repetitions: int = 1,
    ) -> None:
        if tuple(fits.stats) != _STATISTICS:
            raise ValueError(f"statistics {tuple(fits.stats)}, expected {_STATISTICS}")
        self.cls, self.names, self.atoms, self.fits = cls, names, atoms, fits
        self.first = kernel._replace(kernel=names[0]) if names else kernel
        self.var, self.how, self.checked = var, how, checked
        self.notes = dict(notes or {})  # row -> its note (times that are not positive)
        self.repetitions = repetitions  # of every point of every kernel

    def __len__(self) -> int:
        return len(self.names)

    @overload
    def __getitem__(self, k: int) -> FitReport: ...

    @overload
    def __getitem__(self, k: slice) -> list[FitReport]: ...

    def __getitem__(self, k: int | slice) -> FitReport | list[FitReport]:
        if isinstance(k, slice):
            return [self[i] for i in range(len(self))[k]]
        k = range(len(self))[k]
        kernel = self.first._replace(kernel=self.names[k])
        (model,) = self.cls.models([kernel], [self.fits.row(k)], self.var, self.how)
        (report,) = self.cls.reports([kernel], [model], [self.atoms[k]], self.checked)
        return replace(report, notes=(self.notes[k],)) if k in self.notes else report

    def __iter__(self) -> Iterator[FitReport]:
        return (self[k] for k in range(len(self)))

    # --- the text of the whole batch ----------------------------------------------------
    @cached_property
    def unit(self) -> str:
        """The unit of every model of the batch (one metric, one file, one set of options)."""
        return self.cls.unit(self.first, self.checked)  # type: ignore[no-any-return]

    @cached_property
    def _coefficients(self) -> tuple[list[str], list[str]]:
        """The ``repr`` of each kernel's constant and coefficient (formatted once: the
        model, the table and the record hold them)."""
        return list(map(repr, self.fits.c0)), list(map(repr, self.fits.c1))

    @cached_property
    def _second(self) -> list[str]:
        """The ``repr`` of each kernel's second coefficient ("" where it has no second term)."""
        return [repr(c) if h >= 0 else "" for h, c in zip(self.fits.index2, self.fits.c2, strict=True)]

    @cached_property
    def models(self) -> list[str]:
        """The text of each kernel's model."""
        fits = self.fits
        return pmnf_texts(
            self.var.name, fits.c0, fits.index, *self._coefficients, fits.index2, self._second
        )

    def _rows(self) -> Iterator[tuple[Any, ...]]:
        """Per kernel: kernel, atom, model text, index, the texts of c0 and c1, rss, smape,
        ar2, criterion, modeler."""
        fits = self.fits
        return zip(  # type: ignore[no-any-return]
            self.names,
            self.atoms,
            self.models,
            fits.index,
            *self._coefficients,
            *(fits.stats[key] for key in _STATISTICS),
            fits.modeler,
            strict=True,
        )

    def bulk_text(
        self, *, json_records: bool, model_file: bool, untouched: Collection[str] = ()
    ) -> tuple[str, str]:
        """What ``fit`` prints for the batch (its summary lines, or its JSON records each
        indented by two spaces and joined by ``",\\n"``) and, if ``model_file``, the
        tables the model file gets (else ""); the atoms in ``untouched`` say
        ``touches_data = false``."""
        printed = self.json_text() if json_records else self.summary_text()
        return printed, self.toml_text(untouched) if model_file else ""

    def _spread(self) -> list[Any]:
        """Each kernel's uncertainty (None: none)."""
        return self.fits.uncertainty or [None] * len(self)

    def _centers(self) -> Iterator[tuple[Any, list[float]]]:
        """Each kernel's uncertainty and the coefficients of its terms."""
        fits = self.fits
        for u, c0, c1, index, c2, index2 in zip(
            self._spread(), fits.c0, fits.c1, fits.index, fits.c2, fits.index2, strict=True
        ):
            if u is not None:
                chosen = [c for c, h in ((c1, index), (c2, index2)) if h >= 0]
                yield u, list(term_centers(len(u.terms), c0, *chosen))
            else:
                yield u, []

    def summary_text(self) -> str:
        """Each kernel's ``atom: model  [unit]`` line, its quality line
        (:func:`~patternalg.commands.quality.quality_line`) and its coefficients' intervals."""
        unit, fits = self.unit, self.fits
        squared = "" if unit == "dimensionless" else f" {unit}²"
        tail = (
            f"{squared}, {self.var.name} in [{fits.low:g}, {fits.high:g}], {fits.points} points\n"
        )
        intervals = [
            f"  {u.describe(center, shown=1 + (index >= 0) + (index2 >= 0))}\n"
            if u is not None
            else ""
            for (u, center), index, index2 in zip(
                self._centers(), fits.index, fits.index2, strict=True
            )
        ]
        seconds = [number_text(c) if h >= 0 else "" for h, c in zip(fits.index2, fits.c2, strict=True)]
        constants, coefficients = (list(map(number_text, c)) for c in (fits.c0, fits.c1))
        shown = pmnf_texts(  # as a person reads them (Fitter.summary_line)
            self.var.name, fits.c0, fits.index, constants, coefficients, fits.index2, seconds
        )
        return "".join(
            f"{atom}: {model}  [{unit}]\n  SMAPE {smape:.2f}%, adjusted R² {ar2:.4f}, "
            f"RSS {rss:.4g}{tail}{spread}"
            for (_, atom, _, _, _, _, rss, smape, ar2, _, _), model, spread in zip(
                self._rows(), shown, intervals, strict=True
            )
        )

    def _source_parts(self) -> tuple[str, str]:
        """The model file's ``source`` text between the aggregation and the kernel's name,
        and after it (:meth:`PMNFFitter.source <.fitter.PMNFFitter.source>`)."""
        first = self.first
        metric = f", metric '{first.metric}'" if first.metric else ""
        return f" of {first.path}, kernel '", f"'{metric}"

    def toml_text(self, untouched: Collection[str] = ()) -> str:
        """Each kernel's table in the model file (:func:`~patternalg._internal.toml_writer.table_text`
        of :meth:`FitReport.table <patternalg.forms.report.FitReport.table>`); those of the
        atoms in ``untouched`` say ``touches_data = false``."""
        fits, name, how, first = self.fits, self.var.name, self.how, self.first
        low_high = f"[\n    {fits.low},\n    {fits.high},\n]\n"
        x_range = f"x_range = {low_high}" if name == "x" else ""
        domain = "" if name == "x" else f".domain]\n{toml_key(name)} = {low_high}"
        head = 'form = "pmnf"\nmodel = "'
        unit = f'"\nunit = {toml_string(self.unit)}\nsource = '
        of, end = self._source_parts()
        end = toml_string(end)[1:]

        def modeler_texts(used: str) -> tuple[str, str]:
            """The source's text before the kernel's name, and the modeler's TOML string."""
            return toml_string(f"pmnf fit ({used}, {how}){of}")[:-1], toml_string(used)

        modelers = {used: modeler_texts(used) for used in set(fits.modeler)}
        fixed = (
            f"aggregate = {toml_string(how)}\nparameter = {toml_string(first.parameters[0])}\n"
            f"symbol = {toml_string(name)}\nrange = {low_high}file = {toml_string(first.path)}\n"
            f"points = {fits.points}\nkernel = "
        )
        metric = f"\nmetric = {toml_string(first.metric)}\n"
        terms = _terms(name, "coefficient = <c>\ni = <i>\nj = <j>\n", toml_string)
        seconds = _terms(name, "coefficient2 = <c>\ni2 = <i>\nj2 = <j>\n", toml_string)
        plain = toml_keys(self.atoms)
        keys = [f"\n[models.{key}" for key in plain]
        flags = ["touches_data = false\n" if atom in untouched else "" for atom in self.atoms]
        spread = [
            "" if u is None else f"\n[models.{key}.uncertainty]\n{_uncertainty_text(u)}"
            for key, u in zip(plain, self._spread(), strict=True)
        ]
        c0_texts, c1_texts = self._coefficients
        hypotheses, term_texts = [], []
        for index, c1, index2, c2 in zip(
            fits.index, c1_texts, fits.index2, self._second, strict=True
        ):
            hypothesis, before, after = terms[index]
            text = f"{before}{c1}{after}" if before else ""
            if index2 >= 0:
                hypothesis = toml_string(hypothesis_text(index, name, index2))
                _, before, after = seconds[index2]
                text += f"{before}{c2}{after}"
            hypotheses.append(hypothesis)
            term_texts.append(text)
        rows = zip(
            keys,
            self.models,
            [modelers[used] for used in fits.modeler],
            toml_strings(self.names),  # escaping is per character: the source's text is
            hypotheses,  # its parts' text
            c0_texts,
            term_texts,
            *(fits.stats[key] for key in _STATISTICS),
            spread,
            flags,
            strict=True,
        )
        return "".join(
            [
                f"{key}]\n{head}{model}{unit}{lead}{q[1:-1]}{end}\n{x_range}{flag}"
                f"{key + domain if domain else ''}{key}.fit]\nhypothesis = {hyp}\n"
                f"constant = {c0}\n{term}rss = {rss}\nsmape = {smape}\nar2 = {ar2}\n"
                f"criterion = {crit}\nmodeler = {modeler}\n{fixed}{q}{metric}{u}"
                for key, model, (lead, modeler), q, hyp, c0, term, rss, smape, ar2, crit, u, flag in rows
            ]
        )

    def json_text(self) -> str:
        """Each kernel's JSON record (``json.dumps(report.record, indent=2)``) indented by
        two spaces, joined by ``",\\n"``; a value that is not finite is ``null``."""
        fits = self.fits
        columns = (fits.c0, fits.c1, *fits.stats.values())
        if not all(map(math.isfinite, (v for column in columns for v in column))):
            return ",\n".join(
                "  "
                + json.dumps(finite_json(r.record), indent=2, allow_nan=False).replace("\n", "\n  ")
                for r in self
            )
        name, how, first = self.var.name, self.how, self.first
        bounds = f"[\n        {fits.low},\n        {fits.high}\n      ]"
        metric = f',\n    "metric": {_quote(first.metric)},\n    "atom": "'
        unit = f'",\n    "unit": {_quote(self.unit)},\n    "form": "pmnf",\n'
        domain = f'    "domain": {{\n      {_quote(name)}: {bounds}\n    }},\n'
        fixed = (
            f'    "aggregate": {_quote(how)},\n    "parameter": {_quote(first.parameters[0])},\n'
            f'    "symbol": {_quote(name)},\n    "range": [\n      {fits.low},\n'
            f'      {fits.high}\n    ],\n    "file": {_quote(first.path)},\n'
            f'    "points": {fits.points},\n'
        )
        terms = _terms(name, '    "coefficient": <c>,\n    "i": <i>,\n    "j": <j>,\n', _quote)
        seconds = _terms(
            name, '    "coefficient2": <c>,\n    "i2": <i>,\n    "j2": <j>,\n', _quote
        )
        listed = _terms(
            name, '      {\n        "coefficient": <c>,\n        "i": <i>,\n'
            '        "j": <j>\n      }', _quote,
        )  # fmt: skip
        spread = [
            ""
            if u is None
            else '    "uncertainty": '
            + json.dumps(u.record(center), indent=2, allow_nan=False).replace("\n", "\n    ")
            + ",\n"
            for u, center in self._centers()
        ]
        out = []
        for (kernel, atom, model, index, c0, c1, rss, smape, ar2, criterion, used), u, c2, index2 in zip(
            self._rows(), spread, self._second, fits.index2, strict=True
        ):
            hypothesis, before, after = terms[index]
            term, listed_term = "", "[]"
            if index >= 0:
                term = f"{before}{c1}{after}"
                listed_term = f"{listed[index][1]}{c1}{listed[index][2]}"
            if index2 >= 0:
                hypothesis = _quote(hypothesis_text(index, name, index2))
                term += f"{seconds[index2][1]}{c2}{seconds[index2][2]}"
                listed_term += f",\n{listed[index2][1]}{c2}{listed[index2][2]}"
            if index >= 0:
                listed_term = f"[\n{listed_term}\n    ]"
            out.append(
                f'  {{\n    "kernel": {_quote(kernel)}{metric}{atom}",\n    "model": "{model}'
                f'{unit}    "parameters": {{\n      "model": "{model}"\n    }},\n{domain}'
                f'    "hypothesis": {hypothesis},\n    "constant": {c0},\n{term}'
                f'    "rss": {rss},\n    "smape": {smape},\n    "ar2": {ar2},\n'
                f'    "criterion": {criterion},\n    "modeler": {_quote(used)},\n{fixed}'
                f'{u}    "terms": {listed_term}\n  }}'
            )
        return ",\n".join(out)


def _uncertainty_text(u: Any) -> str:
    """The keys of an uncertainty's table as :func:`~patternalg._internal.toml_writer.table_text`
    writes them (``tests/test_scale.py`` compares them), without a dictionary per kernel.

    >>> from patternalg.algebra.uncertainty import Uncertainty
    >>> from patternalg.syntax.symbols import x
    >>> print(_uncertainty_text(Uncertainty((x,), ((0.25,),), 5, 0.01, "linear")), end="")
    terms = [
        "x",
    ]
    covariance = [
        [
            0.25,
        ],
    ]
    repetitions = 5
    noise = 0.01
    method = "linear"
    """
    table = u.to_table()
    terms = "".join(f"    {toml_string(text)},\n" for text in table["terms"])
    rows, held_out = (
        "".join("    [\n" + "".join(f"        {value},\n" for value in row) + "    ],\n" for row in table.get(key, ()))
        for key in ("covariance", "held_out")
    )  # fmt: skip
    return (
        f"terms = [\n{terms}]\ncovariance = [\n{rows}]\n"
        f"repetitions = {table['repetitions']}\nnoise = {table['noise']}\n"
        f"method = {toml_string(table['method'])}\n"
        + (f"held_out = [\n{held_out}]\n" if held_out else "")
        + ("growth = [\n" + "".join(f"    {g},\n" for g in table["growth"]) + "]\n" if "growth" in table else "")
    )


def _terms(var: str, template: str, quote: Any) -> dict[int, tuple[str, str, str]]:
    """Per building block (and -1, the constant model): its hypothesis as a quoted string,
    and ``template`` with ``<i>`` and ``<j>`` filled, split at ``<c>`` (the coefficient).

    >>> _terms("x", "c = <c>, i = <i>, j = <j>", repr)[22]
    ("'x^(5/4)*log2(x)^1'", 'c = ', ", i = '5/4', j = 1")
    """
    result = {-1: (quote(hypothesis_text(-1, var)), "", "")}
    for index, (i, j) in enumerate(BUILDING_BLOCKS):
        text = template.replace("<i>", quote(str(i))).replace("<j>", str(j))
        before, _, after = text.partition("<c>")
        result[index] = (quote(hypothesis_text(index, var)), before, after)
    return result
