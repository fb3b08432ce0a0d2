"""Flags built from declared options (:class:`~patternalg._internal.options.Option`).

``fit``, ``plot --fit`` and ``predict`` take each fittable family's fit options as flags,
one flag for an option several families declare; ``tune`` and ``laws`` declare their own
numbers the same way. A value is checked against its declaration before any work.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any

from .._internal.options import Option
from ..errors import FitError
from ..forms import Form, fit_families

__all__ = [
    "fit_families",
    "fittable",
    "add_family_options",
    "family_options",
    "add_option",
    "check_options",
]


def fittable() -> tuple[str, ...]:
    """The names ``--form`` accepts."""
    return tuple(fit_families())


def _default_text(owners: list[tuple[type[Form], Option]]) -> str:
    texts = {
        cls.name: option.default_text or str(option.default)
        for cls, option in owners
        if option.default_text or (option.default is not None and not option.repeat)
    }
    if not texts:
        return ""
    if len(set(texts.values())) == 1 and len(texts) == len(owners):
        return f" (default {next(iter(texts.values()))})"
    return " (default: " + "; ".join(f"{name}: {text}" for name, text in texts.items()) + ")"


def add_family_options(
    parser: argparse.ArgumentParser,
    families: Iterable[type[Form]],
    skip: frozenset[str] = frozenset(),
    shared: Any = None,
) -> None:
    """One flag per declared option (but those named in ``skip``, which the command uses
    otherwise); options several families share go in ``shared`` (a group; default: the
    parser's main group), the others in a group per family (all in ``shared`` when there
    is one family)."""
    families = list(families)
    owners: dict[str, list[tuple[type[Form], Option]]] = {}
    for cls in families:
        for option in cls.fit_options:
            if option.name not in skip:
                owners.setdefault(option.name, []).append((cls, option))
    groups: dict[str, Any] = {}
    for declared in owners.values():
        cls, option = declared[0]
        if len(declared) > 1 or len(families) == 1:
            group: Any = parser if shared is None else shared
        else:
            title = f"{cls.name} ({(cls.__doc__ or '').splitlines()[0].rstrip('.')})"
            group = groups.setdefault(cls.name, parser.add_argument_group(title))
        helps = list(dict.fromkeys(o.help for _, o in declared))
        text = (
            helps[0] if len(helps) == 1 else "; ".join(f"{c.name}: {o.help}" for c, o in declared)
        )
        add_option(group, option, text + _default_text(declared))


def add_option(
    group: Any, option: Option, help: str | None = None, *, required: bool = False
) -> None:
    """The flag of one declared option (default ``None``: :meth:`Option.value` gives the
    declared default once the value is checked); ``help`` defaults to the option's."""
    kwargs: dict[str, Any] = {"dest": option.name, "default": None, "help": help or option.help}
    if required:
        kwargs["required"] = True
    if option.type is bool:
        kwargs["action"] = "store_true"
    else:
        kwargs["type"] = option.type
        kwargs["choices"] = option.choices
        kwargs["metavar"] = option.metavar
        kwargs["action"] = "append" if option.repeat else "store"
    group.add_argument(option.flag, **kwargs)


def check_options(args: argparse.Namespace, options: Iterable[Option]) -> None:
    """Each option's value in ``args`` checked against its declaration (its default where
    it was not given), in place: a command's own options, before any work."""
    for option in options:
        setattr(args, option.name, option.value(getattr(args, option.name)))


def family_options(
    cls: type[Form], args: argparse.Namespace, skip: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """The family's options given on the command line (but those in ``skip``, not added by
    :func:`add_family_options`); a flag of another family is an error."""
    declared = {option.name for option in cls.fit_options}
    flags = {
        option.name: option.flag
        for f in fit_families().values()
        for option in f.fit_options
        if option.name not in skip
    }
    given = {name: getattr(args, name, None) for name in flags}
    for name, value in given.items():
        if value is not None and name not in declared:
            valid = ", ".join(o.flag for o in cls.fit_options if o.name not in skip) or "none"
            raise FitError(
                f"{flags[name]} is not an option of --form {cls.name} (its options: {valid})"
            )
    return {name: value for name, value in given.items() if value is not None}
