"""Resolving annotations: ``typing.get_type_hints(include_extras=True)`` with clear errors."""

from __future__ import annotations

import sys
import typing
from typing import Any

from toolcall._exceptions import SchemaError

__all__ = ["class_hints", "function_hints", "module_globals"]


def function_hints(fn: Any) -> dict[str, Any]:
    """The resolved annotations of a function; an unresolvable name raises ``SchemaError``."""
    # PEP 695 type parameters (def f[T](...)) are not module names; Python
    # 3.12 does not look them up by itself under postponed annotations.
    params = {p.__name__: p for p in getattr(fn, "__type_params__", ())}
    return _resolve(fn, f"{fn.__module__}.{fn.__qualname__}", params or None)


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
    except NameError as exc:
        raise SchemaError(
            f"{where}: cannot resolve an annotation: {exc}; define or import that name in the module "
            "(annotations are resolved on the toolset's first use, so it may be defined later in the module)"
        ) from None
