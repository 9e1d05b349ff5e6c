"""The providers toolcall renders for: one row each, the table to extend for a new provider.

A row says what is true of a provider wherever toolcall meets it: its name,
whether it has a strict mode (so it has a strict variant), and how many
tools it is known to take in one request. Building the definition is the
renderer's job (``toolcall._render``, one envelope function per provider);
this module imports nothing of it, so the CLI and the plugin can read the
table without the renderers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = ["PROVIDERS", "VARIANTS", "Provider", "variant_key"]


class Provider:
    """One provider: its name, whether it has a strict mode, its observed tool cap."""

    __slots__ = ("max_tools", "name", "strict")

    def __init__(self, name: str, *, strict: bool, max_tools: int | None = None) -> None:
        self.name: str = name
        self.strict: bool = strict  # has a strict mode (``emit(..., strict=True)``)
        # More tools than this in one request were rejected (observed, not documented): a finding, not an error.
        self.max_tools: int | None = max_tools


#: Every provider, in the order toolcall lists them.
PROVIDERS: Final[Mapping[str, Provider]] = {
    provider.name: provider
    for provider in (
        Provider(
            "openai",
            strict=True,
            max_tools=128,
        ),
        Provider(
            "openai-responses",
            strict=True,
            max_tools=128,
        ),
        Provider(
            "anthropic",
            strict=True,
        ),
        Provider(
            "mcp",
            strict=True,
        ),
        Provider(
            "gemini",
            strict=False,
            max_tools=512,
        ),
    )
}


#: Every provider variant, as ``(provider, strict)``: each provider, and its strict mode if it has one.
VARIANTS: Final[tuple[tuple[str, bool], ...]] = tuple(
    (provider.name, strict) for provider in PROVIDERS.values() for strict in (False, True)[: 1 + provider.strict]
)


def variant_key(provider: str, strict: bool) -> str:
    """A variant's name: ``"openai"`` or ``"openai:strict"``."""
    return f"{provider}:strict" if strict else provider
