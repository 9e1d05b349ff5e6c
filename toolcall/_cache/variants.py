"""The provider variants a cache file holds, and the envelope of each (from the provider table)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from toolcall._render.providers import PROVIDERS, Envelope

__all__ = ["VARIANTS", "VARIANT_ENVELOPES", "variant_key"]

VARIANTS: Final[tuple[tuple[str, bool], ...]] = tuple(
    (provider.name, strict) for provider in PROVIDERS.values() for strict in (False, True)[: 1 + provider.strict]
)


def variant_key(provider: str, strict: bool) -> str:
    """The key of a rendered variant in the cache: ``"openai"`` or ``"openai:strict"``."""
    return f"{provider}:strict" if strict else provider


#: Each variant's envelope (``variants.variant_key`` -> its provider's, the provider table).
VARIANT_ENVELOPES: Final[Mapping[str, Envelope]] = {
    variant_key(provider, strict): PROVIDERS[provider].envelope for provider, strict in VARIANTS
}
