"""An integer of JSON text longer than the int-string limit, held as its text.

Reading such text into an ``int`` is what the limit forbids (the conversion
takes quadratic time), so the decoders that find one keep it as a
``LongInteger``, and error text shows it by its size, as it shows an
``int`` too long for ``str()``.
"""

from __future__ import annotations

__all__ = ["LongInteger"]


class LongInteger:
    """An integer of JSON text longer than the int-string limit, kept as its text (``repr``: its size)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"<an integer of {len(self.text.lstrip('-'))} digits>"
