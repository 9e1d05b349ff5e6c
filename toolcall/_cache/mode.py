"""``TOOLCALL_CACHE``: whether a tool is served from its schema cache (``auto``, ``require``) or introspected (``off``).

Its own small module: with ``off``, a tool's first use reads the variable
and goes straight to introspection, without importing the cache's reader.
"""

from __future__ import annotations

import os
from typing import Final

__all__ = ["MODES", "cache_mode"]

#: The values ``TOOLCALL_CACHE`` takes, the default first.
MODES: Final = ("auto", "require", "off")


def cache_mode() -> str:
    """The mode ``TOOLCALL_CACHE`` sets (case and spaces ignored, empty is ``auto``); ``RuntimeError`` for another."""
    mode = os.environ.get("TOOLCALL_CACHE", "auto").strip().lower() or "auto"
    if mode not in MODES:
        raise RuntimeError(f"TOOLCALL_CACHE={mode!r}: use one of {', '.join(MODES)}")
    return mode
