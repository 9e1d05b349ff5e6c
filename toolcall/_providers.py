"""The providers toolcall renders for: one row each, the table to extend for a new provider.

A row says what is true of a provider wherever toolcall meets it: its name,
how findings name it, the ``providers`` setting that selects it, whether it
has a strict mode (so it has a strict variant), and how many tools it is
known to take in one request. Building the definition is the renderer's job
(``toolcall._render``, one envelope function per provider); this module is a
leaf, so findings, the CLI and the plugin read the table without the
renderers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = ["FAMILIES", "PROVIDERS", "VARIANTS", "Provider", "variant_key"]


class Provider:
    """One provider: its name, how messages name it, whether it has a strict mode, its observed tool cap.

    ``family`` is the ``[tool.toolcall] providers`` name that selects it
    (``"openai"`` covers Chat Completions and Responses).
    """

    __slots__ = ("family", "label", "max_tools", "name", "strict")

    def __init__(
        self, name: str, label: str, *, strict: bool, family: str | None = None, max_tools: int | None = None
    ) -> None:
        self.name: str = name
        self.label: str = label
        self.family: str = family or name
        self.strict: bool = strict  # has a strict mode (``emit(..., strict=True)``)
        # More tools than this in one request were rejected (observed, not documented): a finding, not an error.
        self.max_tools: int | None = max_tools


#: Every provider, in the order toolcall lists them.
PROVIDERS: Final[Mapping[str, Provider]] = {
    provider.name: provider
    for provider in (
        Provider("openai", "OpenAI", strict=True, max_tools=128),
        Provider("openai-responses", "OpenAI", strict=True, family="openai", max_tools=128),
        Provider("anthropic", "Anthropic", strict=True),
        Provider("mcp", "MCP", strict=True),
        Provider("gemini", "Gemini", strict=False, max_tools=512),
    )
}


#: The names ``[tool.toolcall] providers`` takes, in order: each selects the providers of its family.
FAMILIES: Final[tuple[str, ...]] = tuple(dict.fromkeys(provider.family for provider in PROVIDERS.values()))


#: Every provider variant, as ``(provider, strict)``: each provider, and its strict mode if it has one.
VARIANTS: Final[tuple[tuple[str, bool], ...]] = tuple(
    (provider.name, strict) for provider in PROVIDERS.values() for strict in (False, True)[: 1 + provider.strict]
)


def variant_key(provider: str, strict: bool) -> str:
    """A variant's name: ``"openai"`` or ``"openai:strict"``."""
    return f"{provider}:strict" if strict else provider
