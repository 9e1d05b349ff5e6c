"""Resolving annotations: ``typing.get_type_hints(include_extras=True)`` with clear errors.

A name that cannot be resolved raises ``SchemaError`` naming the annotation
that holds it (a parameter, the return annotation, a field), found with
``toolcall._annotations.holders_of`` (``annotationlib`` on Python 3.14).

A function's hints take a shorter way in the common case: a plain function
whose annotations are all postponed texts (``from __future__ import
annotations``) that evaluate, in its module, to classes and generic forms
of them with nothing left to resolve inside. Each text is evaluated as
``get_type_hints`` evaluates it, once per module while the names it uses
keep their objects (``toolcall._introspect.shared_annotations``). Anything
else, and any error, goes to ``get_type_hints`` itself, so the result and
the errors are the same either way.
"""

from __future__ import annotations

import sys
import types
import typing
from typing import Any, Final

from toolcall._annotations import holders_of
from toolcall._exceptions import SchemaError
from toolcall._introspect.shared_annotations import NOT_SETTLED, SharedAnnotations, shared_annotations

__all__ = ["class_hints", "function_hints", "module_globals"]


def function_hints(fn: Any, shared: SharedAnnotations | None = None) -> dict[str, Any]:
    """The resolved annotations of a function; an unresolvable name raises ``SchemaError``.

    ``shared`` holds the texts its module's tools evaluated before (by default
    ``shared_annotations`` of its module). The error's text starts with what
    holds the name: ``parameter 'x'``, ``the return annotation``, or ``an
    annotation`` when that cannot be told.
    """
    # PEP 695 type parameters (def f[T](...)) are not module names; Python
    # 3.12 does not look them up by itself under postponed annotations.
    params = {p.__name__: p for p in getattr(fn, "__type_params__", ())}
    if shared is None:
        shared = shared_annotations(getattr(fn, "__globals__", {}), getattr(fn, "__module__", None) or "")
    settled = None if params else _settled_hints(fn, shared)
    if settled is not None:
        return settled
    try:
        return typing.get_type_hints(fn, localns=params or None, include_extras=True)
    except NameError as exc:
        holders = holders_of(fn, exc.name) if exc.name else []
        subject = _function_subject(holders[0]) if holders else "an annotation"
        raise SchemaError(f"{subject}: {_unresolved(exc)}") from None


def _settled_hints(fn: Any, shared: SharedAnnotations) -> dict[str, Any] | None:
    """``get_type_hints(fn, include_extras=True)`` when each annotation is a text that evaluates to a settled type.

    ``None`` where ``get_type_hints`` must decide: another kind of callable, a
    wrapped function (whose globals are its wrapped function's), an
    annotation that is not a text, fails to evaluate, or evaluates to
    anything but a settled type.
    """
    if type(fn) is not types.FunctionType or "__wrapped__" in fn.__dict__:
        return None
    try:
        annotations = fn.__annotations__
        hints: dict[str, Any] = {}
        for name, text in annotations.items():
            if type(text) is not str:
                return None
            value = shared.evaluate(text, fn.__globals__, _settled)
            if value is NOT_SETTLED:
                return None
            hints[name] = value
    except Exception:  # get_type_hints raises it again, or its own error, in its words
        return None
    return hints


#: Generic forms get_type_hints refuses as a parameter's or return annotation (ClassVar, Final) or at all.
_REFUSED_ORIGINS: Final = (typing.ClassVar, typing.Final, typing.Generic, typing.Protocol)


def _settled(value: Any) -> bool:
    """Whether ``get_type_hints`` keeps ``value`` as it is: a class, or a generic form with settled arguments.

    A string or ``ForwardRef`` inside (``list["Item"]``) is resolved by it,
    a bare special form (``Optional``, ``Union``) or a tuple is refused by
    it: neither is settled. A ``Literal``'s arguments are values, and an
    ``Annotated``'s metadata is not a type.
    """
    if isinstance(value, type):
        return value is not typing.Generic and value is not typing.Protocol
    origin = typing.get_origin(value)
    if origin is None or origin in _REFUSED_ORIGINS:
        return False
    if origin is typing.Literal:
        return True
    args = typing.get_args(value)
    if origin is typing.Annotated:
        return _settled(args[0])
    return all(arg is None or arg is Ellipsis or _settled(arg) for arg in args)


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
