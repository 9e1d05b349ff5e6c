"""Custom types: classes with ``__toolcall_schema__``, and the module's ``TypeProvider``s."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from toolcall import ir
from toolcall.custom import (
    COERCE_ATTRIBUTE,
    SCHEMA_ATTRIBUTE,
    TypeProvider,
    class_ref,
    fullname_of,
    provider_instance,
)
from toolcall.introspect.metadata import SchemaError

__all__ = ["ProvidedType", "from_providers", "self_described", "type_fullname"]


def self_described(cls: type[Any]) -> ir.CustomType | None:
    """The ``CustomType`` of a class that defines ``__toolcall_schema__``, else ``None``."""
    if not hasattr(cls, SCHEMA_ATTRIBUTE):
        return None
    schema = getattr(cls, SCHEMA_ATTRIBUTE)
    where = f"{fullname_of(cls)}.{SCHEMA_ATTRIBUTE}"
    return ir.CustomType(class_ref(cls), _schema_json(schema, where), None, hasattr(cls, COERCE_ATTRIBUTE))


@dataclass(frozen=True)
class ProvidedType:
    """A provider's answer for a class: the node and the provider class that gave it."""

    node: ir.CustomType
    provider: type[TypeProvider]


def from_providers(
    cls: type[Any], args: tuple[str, ...], providers: tuple[type[TypeProvider], ...]
) -> ProvidedType | None:
    """Ask each provider in turn to describe ``cls[args]``; the first schema wins."""
    fullname = fullname_of(cls)
    for provider in providers:
        schema = provider_instance(provider).resolve(fullname, args)
        if schema is None:
            continue
        where = f"{fullname_of(provider)}.resolve({fullname!r})"
        # A provider that keeps the base class's no-op coerce has no hook to run.
        coerce = getattr(provider, "coerce", None) is not TypeProvider.coerce
        node = ir.CustomType(class_ref(cls), _schema_json(schema, where), class_ref(provider), coerce, args)
        return ProvidedType(node, provider)
    return None


def type_fullname(tp: Any) -> str:
    """The full name of a type argument as providers receive it (``"builtins.int"``)."""
    if tp is None or tp is type(None):
        return "builtins.None"
    if isinstance(tp, type):
        return fullname_of(tp)
    return repr(tp)


def _schema_json(schema: object, where: str) -> str:
    if not isinstance(schema, dict) or not _is_json(schema):
        raise SchemaError(
            f"{where} must be a JSON-literal dict (str keys; str, int, float, bool, None, lists and dicts), "
            f"got {schema!r}"
        )
    return ir.canonical_json(schema)


def _is_json(value: object) -> bool:
    if value is None or isinstance(value, (bool, int, str)):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_is_json(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_json(v) for k, v in value.items())
    return False
