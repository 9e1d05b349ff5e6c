"""Custom types: classes with ``__toolcall_schema__``, and the module's ``TypeProvider``s.

The schema is read from the live class or asked of the provider here;
``toolcall._rules.custom_schemas`` checks it, as it does for the mypy plugin.
"""

from __future__ import annotations

from typing import Any

from toolcall import _ir as ir
from toolcall._declarations.custom import (
    COERCE_ATTRIBUTE,
    SCHEMA_ATTRIBUTE,
    TypeProvider,
    class_ref,
    fullname_of,
    provider_instance,
)
from toolcall._exceptions import SchemaError
from toolcall._records import Record, record, set_field
from toolcall._rules import messages
from toolcall._rules.custom_schemas import NONE_ARGUMENT, provider_coerces, schema_text

__all__ = ["ProvidedType", "from_providers", "self_described", "type_fullname"]


def self_described(cls: type[Any]) -> ir.CustomType | None:
    """The ``CustomType`` of a class that defines ``__toolcall_schema__``, else ``None``."""
    if not hasattr(cls, SCHEMA_ATTRIBUTE):
        return None
    schema = getattr(cls, SCHEMA_ATTRIBUTE)
    where = f"{fullname_of(cls)}.{SCHEMA_ATTRIBUTE}"
    return ir.CustomType(class_ref(cls), _schema_json(schema, where), None, hasattr(cls, COERCE_ATTRIBUTE))


@record(frozen=True, slots=True)
class ProvidedType(Record):
    """A provider's answer for a class: the node and the provider class that gave it."""

    node: ir.CustomType
    provider: type[TypeProvider]

    def __init__(self, node: ir.CustomType, provider: type[TypeProvider]) -> None:
        set_field(self, "node", node)
        set_field(self, "provider", provider)


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
        coerce = provider_coerces(provider)
        node = ir.CustomType(class_ref(cls), _schema_json(schema, where), class_ref(provider), coerce, args)
        return ProvidedType(node, provider)
    return None


def type_fullname(tp: Any) -> str:
    """The full name of a type argument as providers receive it (``"builtins.int"``)."""
    if tp is None or tp is type(None):
        return NONE_ARGUMENT
    if isinstance(tp, type):
        return fullname_of(tp)
    return repr(tp)


def _schema_json(schema: object, where: str) -> str:
    text = schema_text(schema)
    if text is None:
        raise SchemaError(messages.not_json_schema(where, repr(schema)))
    return text
