"""Literals: uniform, mixed, nested, and of enum members."""

from __future__ import annotations

import enum
from typing import Literal

import toolcall

Size = Literal["s", "m", "l"]


class Color(enum.Enum):
    """A paint color."""

    RED = "red"
    GREEN = "green"
    BLUE = "blue"


@toolcall.tool
def order_shirt(size: Size, fit: Literal["slim", "regular"] = "regular", sleeves: Literal[Size, "xl"] = "m") -> str:
    """Order a shirt.

    Args:
        size: the shirt size
        fit: the cut
    """
    return size


@toolcall.tool
def pick(choice: Literal[1, "one", True, None], warm: Literal[Color.RED, Color.GREEN]) -> str:
    """Pick something."""
    return str(choice)
