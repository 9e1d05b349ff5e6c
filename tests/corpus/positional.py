"""Positional-only and keyword-only parameters."""

from __future__ import annotations

import toolcall


@toolcall.tool
def resize(width: int, height: int = 0, /, scale: float = 1.0, *, keep_ratio: bool = True) -> str:
    """Resize an image.

    Args:
        width: new width in pixels
        height: new height (0 keeps the ratio)
        scale: a factor applied afterwards
        keep_ratio: never distort
    """
    return f"{width}x{height}"
