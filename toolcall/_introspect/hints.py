"""Resolving annotations: ``typing.get_type_hints(include_extras=True)`` with clear errors.

A name that cannot be resolved raises ``SchemaError`` naming the annotation
that holds it (a parameter, the return annotation, a field), found with
``toolcall._annotations.holders_of`` (``annotationlib`` on Python 3.14).
"""

from __future__ import annotations

import sys
import typing
from typing import Any

from toolcall._annotations import holders_of
from toolcall._exceptions import SchemaError

__all__ = ["class_hints", "function_hints", "module_globals"]


def function_hints(fn: Any) -> dict[str, Any]:
    """The resolved annotations of a function; an unresolvable name raises ``SchemaError``.

    Its text starts with what holds the name: ``parameter 'x'``, ``the return
    annotation``, or ``an annotation`` when that cannot be told.
    """
    # PEP 695 type parameters (def f[T](...)) are not module names; Python
    # 3.12 does not look them up by itself under postponed annotations.
    params = {p.__name__: p for p in getattr(fn, "__type_params__", ())}
    try:
        return typing.get_type_hints(fn, localns=params or None, include_extras=True)
    except NameError as exc:
        holders = holders_of(fn, exc.name) if exc.name else []
        subject = _function_subject(holders[0]) if holders else "an annotation"
        raise SchemaError(f"{subject}: {_unresolved(exc)}") from None


def class_hints(cls: type[Any]) -> dict[str, Any]:
    """The resolved annotations of a class and its bases; an unresolvable name raises ``SchemaError``."""
    try:
        return typing.get_type_hints(cls, include_extras=True)
    except NameError as exc:
        raise SchemaError(f"{_class_subject(cls, exc.name)}: {_unresolved(exc)}") from None


def module_globals(module: str | None) -> dict[str, Any]:
    """The namespace forward references of ``module`` are evaluated in."""
    loaded = sys.modules.get(module or "")
    return vars(loaded) if loaded is not None else {}


def _function_subject(holder: str) -> str:
    return "the return annotation" if holder == "return" else f"parameter {holder!r}"


def _class_subject(cls: type[Any], missing: str | None) -> str:
    where = f"{cls.__module__}.{cls.__qualname__}"
    for klass in cls.__mro__:
        holders = holders_of(klass, missing) if missing else []
        if holders:
            return f"field {holders[0]!r} of {klass.__module__}.{klass.__qualname__}"
    return where


def _unresolved(exc: NameError) -> str:
    return (
        f"cannot resolve the annotation: {exc}; define or import it in the module "
        "(annotations are resolved on the toolset's first use, so it may be defined later in the module)"
    )
