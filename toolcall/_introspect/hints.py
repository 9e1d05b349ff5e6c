"""Resolving annotations: ``typing.get_type_hints(include_extras=True)`` with clear errors."""

from __future__ import annotations

import inspect
import sys
import types
import typing
from typing import Any

from toolcall._exceptions import SchemaError

__all__ = ["class_hints", "function_hints", "module_globals"]


def function_hints(fn: Any) -> dict[str, Any]:
    """The resolved annotations of a function; an unresolvable name raises ``SchemaError``."""
    target = fn
    if sys.version_info < (3, 11):
        # Python 3.10 wraps the annotation of a parameter defaulting to None in
        # Optional[...]; the annotation alone (no __code__) keeps what was written.
        target = types.SimpleNamespace(__annotations__=getattr(fn, "__annotations__", {}), __globals__=fn.__globals__)
    # PEP 695 type parameters (def f[T](...)) are not module names; Python
    # 3.12 does not look them up by itself under postponed annotations.
    params = {p.__name__: p for p in getattr(fn, "__type_params__", ())}
    return _resolve(target, f"{fn.__module__}.{fn.__qualname__}", params or None)


def class_hints(cls: type[Any]) -> dict[str, Any]:
    """The resolved annotations of a class and its bases."""
    return _resolve(cls, f"{cls.__module__}.{cls.__qualname__}")


def module_globals(module: str | None) -> dict[str, Any]:
    """The namespace forward references of ``module`` are evaluated in."""
    loaded = sys.modules.get(module or "")
    return vars(loaded) if loaded is not None else {}


def _resolve(obj: Any, where: str, localns: dict[str, Any] | None = None) -> dict[str, Any]:
    try:
        return typing.get_type_hints(obj, localns=localns, include_extras=True)
    except TypeError:
        if not isinstance(obj, type) or sys.version_info >= (3, 11):
            raise
        return _class_annotations(obj, where)  # Python 3.10 refuses "InitVar[int]" as a forward reference
    except NameError as exc:
        raise SchemaError(
            f"{where}: cannot resolve an annotation: {exc}; define or import that name in the module "
            "(annotations are resolved on the toolset's first use, so it may be defined later in the module)"
        ) from None


def _class_annotations(cls: type[Any], where: str) -> dict[str, Any]:
    """A class's annotations, each string evaluated in its own class's module, as ``get_type_hints`` does.

    Only for Python 3.10, whose ``get_type_hints`` refuses a dataclass's
    ``InitVar[...]`` written as a string (``from __future__ import annotations``).
    """
    resolved: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        namespace = {**module_globals(base.__module__), **vars(base)}
        for name, annotation in inspect.get_annotations(base).items():
            try:
                resolved[name] = eval(annotation, namespace) if isinstance(annotation, str) else annotation
            except NameError as exc:
                raise SchemaError(f"{where}: cannot resolve an annotation: {exc}") from None
    return resolved
