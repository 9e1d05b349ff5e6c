"""Custom types: classes that describe themselves, and ``TypeProvider``s.

A class with a ``__toolcall_schema__`` attribute (a JSON-literal dict) gets that
schema; its optional classmethod ``__toolcall_coerce__(value)`` turns the wire
value into what the function receives. For types you do not own, subclass
``TypeProvider`` and register it in the tool module with ``use_types``.
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod

from toolcall._once import OnceMap

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, Final

    from toolcall._ir import JsonValue

__all__ = [
    "SCHEMA_ATTRIBUTE",
    "COERCE_ATTRIBUTE",
    "TypeProvider",
    "class_ref",
    "fullname_of",
    "provider_instance",
    "providers_for",
    "resolve_ref",
    "use_types",
]

SCHEMA_ATTRIBUTE: Final = "__toolcall_schema__"
COERCE_ATTRIBUTE: Final = "__toolcall_coerce__"


class TypeProvider(ABC):
    """Describes types toolcall does not know, for the tool modules that ``use_types`` it.

    Subclass it with a no-argument constructor. ``resolve`` gets the type's
    full name (``"module.Class"``, as mypy spells it) and the full names of
    its type arguments, and returns a JSON Schema dict or ``None`` when it
    does not know the type. ``coerce`` turns a wire value into the Python
    value; raise ``ValueError`` or ``TypeError`` for a bad one. Providers are
    tried after the built-in types and cannot replace them.
    """

    @abstractmethod
    def resolve(self, fullname: str, args: tuple[str, ...]) -> dict[str, JsonValue] | None:
        """Return the JSON Schema for ``fullname[args]``, or ``None``."""

    def coerce(self, fullname: str, value: JsonValue) -> object:
        """Turn a wire value for ``fullname`` into what the function receives."""
        return value


# Module name -> its providers, in registration order. A registration is one ``setdefault`` and one ``extend``,
# each atomic, so two at once (with or without the GIL) both land: a read, add and store again could lose one.
_MODULE_PROVIDERS: dict[str, list[type[TypeProvider]]] = {}
_INSTANCES: OnceMap[type[TypeProvider], TypeProvider] = OnceMap()


def use_types(*providers: type[TypeProvider]) -> None:
    """Register ``TypeProvider`` classes for the tool module this is called in.

    Call it at module level, once, before the module's tools are first used.
    """
    for provider in providers:
        if not (isinstance(provider, type) and issubclass(provider, TypeProvider)):
            raise TypeError(
                f"use_types() takes TypeProvider subclasses, got {provider!r}; "
                "define `class MyTypes(toolcall.TypeProvider)` and pass the class"
            )
    module = sys._getframe(1).f_globals.get("__name__", "__main__")
    _MODULE_PROVIDERS.setdefault(module, []).extend(providers)


def providers_for(module: str) -> tuple[type[TypeProvider], ...]:
    """The providers registered for ``module``, in registration order."""
    return tuple(_MODULE_PROVIDERS.get(module, ()))


def provider_instance(provider: type[TypeProvider]) -> TypeProvider:
    """The one shared instance of ``provider``."""
    return _INSTANCES.get(provider, lambda cls: cls())


def class_ref(cls: type[Any]) -> str:
    """``"module:qualname"``, the IR's reference to a class."""
    return f"{cls.__module__}:{cls.__qualname__}"


def fullname_of(cls: type[Any]) -> str:
    """``"module.qualname"``, the full name mypy uses for a class."""
    return f"{cls.__module__}.{cls.__qualname__}"


def resolve_ref(ref: str) -> Any:
    """Import the object a ``"module:qualname"`` reference names."""
    import importlib

    module_name, _, qualname = ref.partition(":")
    obj: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj
