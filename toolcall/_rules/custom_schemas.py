"""Custom type rules: what a self-described class's or a ``TypeProvider``'s schema must be, and when coercion runs.

Both front ends find the schema in their own world (the runtime reads the
live attribute and calls the provider; the plugin reads the class body's
literal and calls the same provider) and check it here:

* a schema must be a JSON-literal dict (``toolcall._rules.json_literals.is_json``);
  the IR keeps it as canonical JSON text (``schema_text``);
* a provider has a coerce hook only when it overrides ``TypeProvider.coerce``
  (the base class's is a no-op, ``provider_coerces``);
* a provider is asked with the full names of the type arguments, as mypy
  spells them; ``None`` is ``NONE_ARGUMENT``.
"""

from __future__ import annotations

from typing import Final

from toolcall import _ir as ir
from toolcall._declarations.custom import TypeProvider
from toolcall._rules.json_literals import is_json

__all__ = ["NONE_ARGUMENT", "provider_coerces", "schema_text"]

#: How a provider receives the type argument ``None`` (``Box[None]`` is asked with ``("builtins.None",)``).
NONE_ARGUMENT: Final = "builtins.None"


def schema_text(schema: object) -> str | None:
    """A custom schema as the IR keeps it (canonical JSON), or ``None`` when it is not a JSON-literal dict."""
    if not isinstance(schema, dict) or not is_json(schema):
        return None
    return ir.canonical_json(schema)


def provider_coerces(provider: type[TypeProvider]) -> bool:
    """Whether ``provider`` has a coerce hook to run: it overrides ``TypeProvider.coerce``."""
    return getattr(provider, "coerce", None) is not TypeProvider.coerce
