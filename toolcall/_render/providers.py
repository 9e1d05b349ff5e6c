"""The providers toolcall renders for: one row each, the table to extend for a new provider.

A row says what is true of a provider wherever toolcall meets it: its name,
whether it has a strict mode (so the cache holds a strict variant), the
shape of its tool definition (the cache check holds every served definition
to it, and the cache file stores its schemas once), and how many tools it is
known to take in one request. Building the definition is the renderer's job
(``toolcall._render``, one envelope function per provider); this module
imports nothing of it, so the cache loader can read it without the
renderers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = ["PROVIDERS", "Envelope", "Provider"]


class Envelope:
    """Where a provider's definition names the tool, and which keys beside the name it holds."""

    __slots__ = ("fixed", "optional", "required", "schemas", "within")

    def __init__(
        self, fixed: Mapping[str, str], within: str | None, required: Mapping[str, type], optional: Mapping[str, type]
    ) -> None:
        self.fixed: Mapping[str, str] = fixed  # top-level keys with the only value they may have
        self.within: str | None = within  # the key of the object that names the tool, or None: the top level
        self.required: Mapping[str, type] = required  # keys of the named object, with their JSON type
        self.optional: Mapping[str, type] = optional
        # the keys that hold a schema (every object-valued key): the file stores those once (cache_tables)
        self.schemas: frozenset[str] = frozenset(key for key, kind in {**required, **optional}.items() if kind is dict)


class Provider:
    """One provider: its name, whether it has a strict mode, its envelope, its observed tool cap."""

    __slots__ = ("envelope", "max_tools", "name", "strict")

    def __init__(self, name: str, *, strict: bool, envelope: Envelope, max_tools: int | None = None) -> None:
        self.name: str = name
        self.strict: bool = strict  # has a strict mode (``emit(..., strict=True)``)
        self.envelope: Envelope = envelope
        # More tools than this in one request were rejected (observed, not documented): a finding, not an error.
        self.max_tools: int | None = max_tools


#: Every provider, in the order toolcall lists them. Descriptions are optional in every envelope.
PROVIDERS: Final[Mapping[str, Provider]] = {
    provider.name: provider
    for provider in (
        Provider(
            "openai",
            strict=True,
            envelope=Envelope(
                fixed={"type": "function"},
                within="function",
                required={"parameters": dict},
                optional={"description": str, "strict": bool},
            ),
            max_tools=128,
        ),
        Provider(
            "openai-responses",
            strict=True,
            envelope=Envelope(
                fixed={"type": "function"},
                within=None,
                required={"parameters": dict, "strict": bool},
                optional={"description": str},
            ),
            max_tools=128,
        ),
        Provider(
            "anthropic",
            strict=True,
            envelope=Envelope(
                fixed={}, within=None, required={"input_schema": dict}, optional={"description": str, "strict": bool}
            ),
        ),
        Provider(
            "mcp",
            strict=True,
            envelope=Envelope(
                fixed={},
                within=None,
                required={"inputSchema": dict},
                optional={"description": str, "outputSchema": dict},
            ),
        ),
        Provider(
            "gemini",
            strict=False,
            envelope=Envelope(fixed={}, within=None, required={}, optional={"description": str, "parameters": dict}),
            max_tools=512,
        ),
    )
}
